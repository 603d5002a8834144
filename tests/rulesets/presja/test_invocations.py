"""Wywołania (invocations) after the roll: costs, effects, free first invocations, ignoring, limits."""

from __future__ import annotations

import pytest

from konflikt.core.state import CHANCE
from konflikt.errors import IllegalActionError
from tests.rulesets.presja.helpers import act, duel, fighter, kinds, pass_invocations, roll, scenario, texts


def _rolled(a: dict[str, object], b: dict[str, object], **options: object):  # type: ignore[no-untyped-def]
    state = duel(a, b, **options)
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    return state


A = {"skill": 2, "weapon": "noz", "fate_points": 2, "aspects": ["Zwinny (nimble)"]}
B = {"skill": 2, "weapon": "noz", "fate_points": 0}


@pytest.mark.through_cli
def test_invoking_an_own_aspect_costs_a_fate_point_and_adds_2_to_attack_and_defence() -> None:
    state = _rolled(A, B)
    a = state.index["a"]
    assert state.current_player() == "a"
    act(state, "invoke", aspect="own:1", effect="bonus")
    assert state.fate_points[a] == 1 and state.result(a) == 4
    assert "Zwinny" in texts(state, "invoke")[0]
    with pytest.raises(IllegalActionError):
        act(state, "invoke", aspect="own:1", effect="bonus")  # once per exchange (invoke_limit 1)


@pytest.mark.through_cli
def test_situation_aspects_cost_a_fate_point() -> None:
    state = scenario(
        [[fighter("a", **A, zmysly=1)], [fighter("b", **B)]],
        setup={"situation_aspects": ["Ciemno (dark)", "Ciasno (cramped)"]},
    )
    act(state, "defend", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    act(state, "invoke", aspect="scene:2", effect="bonus")
    assert state.fate_points[state.index["a"]] == 1
    assert "Ciasno" in texts(state, "invoke")[0]


@pytest.mark.through_cli
def test_a_fate_point_without_an_aspect_gives_plus_1_as_an_option() -> None:
    state = _rolled(A, B)
    act(state, "fate_point")
    assert state.result(state.index["a"]) == 3
    assert "fate_point" not in kinds(_rolled(A, B, fate_point_without_aspect=False))


@pytest.mark.through_cli
def test_a_reroll_is_a_chance_node_that_replaces_the_dice() -> None:
    state = _rolled(A, B)
    act(state, "invoke", aspect="own:1", effect="reroll")
    assert state.current_player() == CHANCE and "przerzut" in state.roll_purpose()
    roll(state, "+ + + +")
    assert state.result(state.index["a"]) == 6
    assert "reroll" not in {a.get("effect") for a in _rolled(A, B, invoke_reroll=False).legal_actions()}


def test_nobody_with_nothing_to_spend_is_asked() -> None:
    state = _rolled(B, B)
    assert state.phase == "absorb", "no fate points, no consequences: straight to the resolution"


def _with_consequences(owner_fp: int, **options: object):  # type: ignore[no-untyped-def]
    state = duel({**A, "fate_points": 1}, {**B, "fate_points": owner_fp}, **options)
    b = state.index["b"]
    state.cons[b] = [1, 1, 1]
    state.cons_names[b] = ["Zmęczony", "Skręcenie kostki", "Złamana ręka"]
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    return state


def test_mild_and_moderate_consequences_are_free_the_first_time_then_cost_a_fate_point() -> None:
    state = _with_consequences(0, invoke_limit=2)
    a, b = state.index["a"], state.index["b"]
    act(state, "invoke", aspect="b:mild", effect="bonus")
    assert state.fate_points[a] == 1 and state.cons[b][0] == 2, "first invocation free"
    act(state, "invoke", aspect="b:mild", effect="bonus")
    assert state.fate_points[a] == 0, "the second costs the invoker a fate point"
    assert ("invoke", "b:moderate") in {(x.kind, x.get("aspect")) for x in state.legal_actions()}, "still free"
    assert "b:mild" not in {x.get("aspect") for x in state.legal_actions()}, "no fate point, not free: not offered"


def test_a_severe_consequence_is_always_free() -> None:
    state = _with_consequences(0, invoke_limit=3)
    a = state.index["a"]
    state.fate_points[a] = 0
    for _ in range(3):
        act(state, "invoke", aspect="b:severe", effect="bonus")
    assert state.fate_points[a] == 0 and state.result(a) == 8
    assert "b:severe" not in {x.get("aspect") for x in state.legal_actions()}, "invoke_limit reached"


@pytest.mark.through_cli
def test_a_severe_consequence_carried_in_from_an_earlier_conflict_is_free_too() -> None:
    """ "Poważna konsekwencja - jej wywołanie jest zawsze darmowe": always, so also one the target brings from an
    earlier conflict (whose free first invocation counts as used); a carried mild one then costs a fate point."""
    state = duel(
        {**A, "fate_points": 0, "aspects": []},
        {**B, "consequences": {"mild": "Zmęczony", "severe": "Złamana ręka"}},
        compels=False,
    )
    a = state.index["a"]
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    assert state.current_player() == "a"
    offered = {x.get("aspect") for x in state.legal_actions()}
    assert "b:severe" in offered and "b:mild" not in offered, "no fate point: only the severe one is free"
    act(state, "invoke", aspect="b:severe", effect="bonus")
    assert state.fate_points[a] == 0 and state.result(a) == 4


def test_the_owner_may_pay_a_fate_point_to_ignore_the_invocation() -> None:
    state = _with_consequences(1)
    act(state, "invoke", aspect="b:moderate", effect="bonus")
    assert state.current_player() == "b" and set(kinds(state)) == {"ignore", "accept"}
    act(state, "accept")
    assert state.result(state.index["a"]) == 4
    assert "lets" in texts(state, "ignore")[0]


def test_own_consequences_cannot_be_invoked_by_their_owner() -> None:
    state = _with_consequences(1)
    act(state, "pass")
    assert state.current_player() == "b"
    assert not any(str(x.get("aspect", "")).startswith("b:") for x in state.legal_actions())


@pytest.mark.through_cli
def test_weapon_quality_tick_box_adds_1_to_the_margin_and_stays_ticked() -> None:
    master = {"skill": 2, "fate_points": 0, "weapon": "miecz_grimbanusa"}
    state = _rolled(master, B, advantage_weapon_quality=True)
    a = state.index["a"]
    act(state, "invoke", aspect="weapon", effect="tick")
    assert state.ticks[a] == 1 and state.margin_bonus[a] == 1 and state.result(a) == 2, "Attack only, not Defence"
    assert state.status()["a"]["aspekt broni (weapon aspect)"] == "[x][ ]"
    pass_invocations(state)
    attack = next(e for e in state.history() if e.kind == "attack" and e.data["who"] == "a")
    assert (attack.data["attack"], attack.data["margin"]) == (2, 0), "the Attack itself is not raised"
    assert attack.data["pressure"] == 3, "margin 0 + 1 (weapon aspect) + 2 Czynnik Obrażeń (miecz)"
    assert "+1 Margines Sukcesu" in attack.text
    assert "weapon" not in {x.get("aspect") for x in _rolled(master, B).legal_actions()}, "optional rule, off"


def test_weapon_ticks_clear_each_exchange_as_an_option() -> None:
    master = {"skill": 2, "fate_points": 0, "weapon": "miecz_grimbanusa"}
    for mode, left in (("scene", 1), ("exchange", 0)):
        state = _rolled(master, {**B, "skill": 0}, advantage_weapon_quality=True, weapon_aspect_clears=mode)
        act(state, "invoke", aspect="weapon", effect="tick")
        pass_invocations(state)
        while state.phase == "absorb":
            act(state, "absorb", **{k: v for k, v in state.legal_actions()[0].args})
        assert state.ticks[state.index["a"]] == left


@pytest.mark.through_cli
def test_jednorazowym_dodaniem_1_do_osiagnietego_marginesu_sukcesu_never_turns_a_miss_into_a_hit() -> None:
    """The weapon aspect adds +1 "do osiągniętego Marginesu Sukcesu" (to the margin achieved): a miss by 1 stays
    a miss, and the sword's Czynnik Obrażeń (+2) is not brought to it."""
    master = {"skill": 2, "fate_points": 0, "weapon": "miecz_grimbanusa"}
    state = _rolled(master, {**B, "skill": 3}, advantage_weapon_quality=True)
    act(state, "invoke", aspect="weapon", effect="tick")
    pass_invocations(state)
    attack = next(e for e in state.history() if e.kind == "attack" and e.data["who"] == "a")
    assert (attack.data["margin"], attack.data["pressure"]) == (-1, 0)
