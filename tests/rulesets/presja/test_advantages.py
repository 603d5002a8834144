"""Przewagi (advantages): +1 Attack each, granted by the GM per exchange or read from the positions."""

from __future__ import annotations

import numpy as np
import pytest

from konflikt.core.state import GM
from konflikt.rulesets.presja.policies import HeuristicPolicy, gm_holder
from tests.rulesets.presja.helpers import act, duel, fighter, kinds, pass_invocations, roll, scenario

P = {"skill": 2, "fate_points": 0}


def _attack_of(state, who: str) -> int:  # type: ignore[no-untyped-def]
    return int(next(e for e in state.history() if e.kind == "attack" and e.data["who"] == who).data["attack"])


@pytest.mark.through_cli
def test_gm_grants_an_advantage_each_exchange_for_plus_1_attack() -> None:
    state = duel(P, P, advantage_reaction=True)
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    assert state.current_player() == GM
    assert {a["holder"] for a in state.legal_actions()} == {None, "a", "b"}
    act(state, "advantage", which="reaction", pair=("a", "b"), holder="a")
    assert _attack_of(state, "a") == 3 and _attack_of(state, "b") == 2
    assert any("Przewaga szybkości reakcji" in e.text and "+1 Atak" in e.text for e in state.history())


def test_advantages_are_off_by_default_and_skipped_when_nobody_attacks() -> None:
    state = duel(P, P)
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    assert state.current_player() != GM
    state = duel(P, P, advantage_mobility=True)
    act(state, "defend", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    assert state.exchange == 2 and state.current_player() == "a"


def _gang(n: int, mode: str = "auto"):  # type: ignore[no-untyped-def]
    opts = {f"advantage_{k}": mode for k in ("numbers", "flanking", "surrounded")}
    gang = [fighter(f"g{k}", **P, zmysly=5 - k) for k in range(n)]
    state = scenario([gang, [fighter("lone", skill=5, fate_points=0, zmysly=-1)]], opts)
    for _ in range(n):
        act(state, "attack", target="lone", tactic=None)
    act(state, "defend", tactic=None)
    for _ in range(n + 1):
        roll(state, "0 0 0 0")
    return state


def test_numbers_flanking_and_surrounded_follow_from_the_positions() -> None:
    assert _attack_of(_gang(1), "g0") == 2
    assert _attack_of(_gang(2), "g0") == 4, "numbers + flanking"
    assert _attack_of(_gang(3), "g0") == 5, "numbers + flanking + surrounded, cumulative"


def test_numbers_count_only_foes_engaged_with_the_target() -> None:
    setup = {
        "zones": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}],
        "adjacent": [["x", "y"]],
        "positions": {"g0": "x", "g1": "y", "lone": "x"},
    }
    state = scenario(
        [[fighter("g0", **P, zmysly=3), fighter("g1", **P, zmysly=2)], [fighter("lone", **P, zmysly=1)]],
        {"advantage_numbers": "auto"},
        setup,
    )
    act(state, "attack", target="lone", tactic=None)
    act(state, "defend", tactic=None)  # g1 is in the other zone and does not attack
    act(state, "defend", tactic=None)
    for _ in range(3):
        roll(state, "0 0 0 0")
    assert _attack_of(state, "g0") == 2


def _archer_and_knife(archer_zone: str) -> int:
    """g0 attacks lone in zone x; g1, with a bow, attacks lone from ``archer_zone``: g0's final Attack."""
    setup = {
        "zones": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}],
        "adjacent": [["x", "y"]],
        "positions": {"g0": "x", "g1": archer_zone, "lone": "x"},
    }
    state = scenario(
        [
            [fighter("g0", **P, zmysly=3), fighter("g1", **P, zmysly=2, weapon="luk")],
            [fighter("lone", **P, zmysly=1)],
        ],
        {"advantage_numbers": "auto", "advantage_flanking": "auto", "advantage_surrounded": "auto"},
        setup,
    )
    act(state, "attack", target="lone", tactic=None)
    act(state, "attack", target="lone", tactic=None)
    act(state, "defend", tactic=None)
    for _ in range(3):
        roll(state, "0 0 0 0")
    return _attack_of(state, "g0")


def test_oskrzydlenie_zachodzi_go_z_boku_a_shooter_in_another_zone_does_not_flank() -> None:
    """Deliberate mutation that fails it: ``PresjaState.positional`` counting every attacker of the target for
    flanking, whatever its zone (``at_its_side = len(on_target)``): the zone-counting mutation #24 names."""
    assert _archer_and_knife("x") == 4, "both at lone's side: numbers + flanking"
    assert _archer_and_knife("y") == 3, "the archer shoots from the next zone: numbers only, no flanking"


def test_positional_advantages_in_gm_mode_are_asked_and_the_heuristic_follows_the_positions() -> None:
    state = _gang(2, "gm")
    assert state.current_player() == GM and set(kinds(state)) == {"advantage"}
    policy = HeuristicPolicy()
    rng = np.random.default_rng(0)
    chosen = []
    while state.current_player() == GM:
        action = policy.choose(state, GM, rng)
        chosen.append((action["which"], action["holder"]))
        state.apply_action(action)
    assert (
        chosen
        == [("numbers", "g0"), ("numbers", "g1"), ("flanking", "g0"), ("flanking", "g1")] + [("surrounded", None)] * 2
    ), "asked pair by pair: g0 against lone, then g1 against lone"
    assert _attack_of(state, "g0") == 4 and _attack_of(state, "g1") == 4, "each pair has its own holder"


@pytest.mark.through_cli
def test_jesli_ktoras_ze_stron_dysponuje_przewaga_each_pair_has_its_own_holder() -> None:
    """Two duels side by side, a against c and b against d: the GM gives reaction to a in one and to d in the
    other ("Jeśli któraś ze stron konfliktu dysponuje w danym zakresie przewagą", pair by pair)."""
    state = scenario(
        [
            [fighter("a", **P, zmysly=4), fighter("b", **P, zmysly=3)],
            [fighter("c", **P, zmysly=2), fighter("d", **P, zmysly=1)],
        ],
        {"advantage_reaction": True},
    )
    for target in ("c", "d", "a", "b"):  # a, b, c, d in the order of action
        act(state, "attack", target=target, tactic=None)
    for _ in range(4):
        roll(state, "0 0 0 0")
    assert {a["pair"] for a in state.legal_actions()} == {("a", "c")}
    act(state, "advantage", which="reaction", pair=("a", "c"), holder="a")
    assert {a["holder"] for a in state.legal_actions()} == {None, "b", "d"}
    act(state, "advantage", which="reaction", pair=("b", "d"), holder="d")
    attacks = {who: _attack_of(state, who) for who in "abcd"}
    assert attacks == {"a": 3, "b": 2, "c": 2, "d": 3}


def test_gm_heuristic_criteria_for_the_other_advantages() -> None:
    state = scenario(
        [
            [fighter("spear", skill=2, weapon="wlocznia", armour="brak", warlike=2, edges=["tactics"], zmysly=1)],
            [fighter("knife", skill=2, weapon="noz", armour="plytowa", fate_points=0)],
        ]
    )
    act(state, "attack", target="knife", tactic=None)
    act(state, "attack", target="spear", tactic=None)
    s = state.index["spear"]
    pair = (0, 1)
    assert gm_holder(state, "weapon", pair) == s, "a clearly longer weapon"
    assert gm_holder(state, "personality", pair) == s, "more levels of a warlike aspect"
    assert gm_holder(state, "tactics", pair) == s, "an unknown style"
    assert gm_holder(state, "reaction", pair) == -1
    assert gm_holder(state, "mobility", pair) == -1, "only after some time of fighting"
    state.exchange = 3
    assert gm_holder(state, "mobility", pair) == s, "the foe's armour is clearly heavier"


def _spear_and_knife(knife_tactic: str | None, knife: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    state = scenario(
        [
            [fighter("spear", skill=2, weapon="wlocznia", armour="brak", zmysly=1)],
            [fighter("knife", skill=2, weapon="noz", armour="plytowa", fate_points=0, **(knife or {}))],
        ]
    )
    act(state, "attack", target="knife", tactic=None)
    act(state, "attack", target="spear", tactic=knife_tactic)
    return state


@pytest.mark.through_cli
def test_gm_heuristic_sztylet_w_zwarciu_sytuacja_by_sie_odwrocila() -> None:
    """ "Jeśli bohater ze sztyletem wszedłby w zwarcie z postacią z mieczem, sytuacja by się odwróciła": the
    knife that closes in (attacks with the offensive tactic) takes the weapon advantage from the spear."""
    assert gm_holder(_spear_and_knife(None), "weapon", (0, 1)) == 0
    assert gm_holder(_spear_and_knife("offensive"), "weapon", (0, 1)) == 1


def test_gm_heuristic_mobility_weighs_cialo() -> None:
    """ "Na uwadze należy mieć również atrybut Ciało": plate (3) on a Ciało 2 body is burden 1, not clearly
    heavier than no armour (0)."""
    state = _spear_and_knife(None)
    state.exchange = 3
    assert gm_holder(state, "mobility", (0, 1)) == 0
    strong = _spear_and_knife(None, {"cialo": 2})
    strong.exchange = 3
    assert gm_holder(strong, "mobility", (0, 1)) == -1


def test_pass_helper_is_harmless_when_nothing_to_invoke() -> None:
    state = duel(P, P)
    pass_invocations(state)
    assert state.phase == "declare"


def test_a_shooter_from_the_next_zone_gets_the_sides_flanking_named_as_such() -> None:
    """ "Oskrzydlenie – bonus +1 dla strony, która oskrzydliła przeciwnika (zachodzi go z boku)": the +1 is the
    side's. g0 and g1 come at lone where it stands; g2 shoots from the next zone ("w tej samej strefie lub sąsiedniej
    o ile mają prawo działać na dystans") and shares the side's +1, but it flanks nobody: its line said "+1
    Oskrzydlenie (flanking)" as if it did."""
    setup = {
        "zones": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}],
        "adjacent": [["x", "y"]],
        "positions": {"g0": "x", "g1": "x", "g2": "y", "lone": "x"},
    }
    state = scenario(
        [
            [
                fighter("g0", **P, zmysly=4),
                fighter("g1", **P, zmysly=3),
                fighter("g2", **P, zmysly=2, weapon="luk"),
            ],
            [fighter("lone", skill=6, fate_points=0, zmysly=1)],
        ],
        {"advantage_numbers": "auto", "advantage_flanking": "auto", "advantage_surrounded": "auto"},
        setup,
    )
    for _ in range(3):
        act(state, "attack", target="lone", tactic=None)
    act(state, "defend", tactic=None)
    for _ in range(4):
        roll(state, "0 0 0 0")
    lines = {e.data["who"]: e.text for e in state.history() if e.kind == "attack"}
    assert {who: _attack_of(state, who) for who in lines} == {"g0": 4, "g1": 4, "g2": 4}, "numbers + flanking each"
    for melee in ("g0", "g1"):
        assert "Oskrzydlenie (flanking) +1 =" in lines[melee]
    assert "Oskrzydlenie (flanking) +1" not in lines["g2"]
    assert (
        "Oskrzydlenie (the side's flanking of lone, s0: g0 and g1 at lone's side; g2 shoots from Y) +1" in lines["g2"]
    )
