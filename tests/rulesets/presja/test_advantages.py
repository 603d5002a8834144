"""Przewagi (advantages): +1 Attack each, granted by the GM per exchange or read from the positions."""

from __future__ import annotations

import numpy as np

from konflikt.core.state import GM
from konflikt.rulesets.presja.policies import HeuristicPolicy, gm_holder
from tests.rulesets.presja.helpers import act, duel, fighter, kinds, pass_invocations, roll, scenario

P = {"skill": 2, "fate_points": 0}


def _attack_of(state, who: str) -> int:  # type: ignore[no-untyped-def]
    return int(next(e for e in state.history() if e.kind == "attack" and e.data["who"] == who).data["attack"])


def test_gm_grants_an_advantage_each_exchange_for_plus_1_attack() -> None:
    state = duel(P, P, advantage_reaction=True)
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    assert state.current_player() == GM
    assert {a["holder"] for a in state.legal_actions()} == {None, "a", "b"}
    act(state, "advantage", which="reaction", holder="a")
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
    assert chosen == [("numbers", "g0"), ("flanking", "g0"), ("surrounded", None)]
    assert _attack_of(state, "g0") == 4 and _attack_of(state, "g1") == 2, "the GM gives each to one holder"


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
    assert gm_holder(state, "weapon") == s, "a clearly longer weapon"
    assert gm_holder(state, "personality") == s, "more levels of a warlike aspect"
    assert gm_holder(state, "tactics") == s, "an unknown style"
    assert gm_holder(state, "reaction") == -1
    assert gm_holder(state, "mobility") == -1, "only after some time of fighting"
    state.exchange = 3
    assert gm_holder(state, "mobility") == s, "the foe's armour is clearly heavier"


def test_pass_helper_is_harmless_when_nothing_to_invoke() -> None:
    state = duel(P, P)
    pass_invocations(state)
    assert state.phase == "declare"
