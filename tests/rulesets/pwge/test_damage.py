"""The damage roll's protocol, sequence by sequence, and what damage costs."""

from __future__ import annotations

import pytest

import konflikt.core  # noqa: F401  (import core before dice: see the report on the import cycle)
from konflikt.core.actions import Action
from konflikt.dice import SumDice
from konflikt.rulesets.pwge.state import PwgeState
from tests.rulesets.pwge.helpers import act, make, person, roll, texts

ANN, BO = 0, 1


def act_no_order() -> Action:
    return Action.of("no_order")


def hit(state: PwgeState | None = None) -> PwgeState:
    """Ann hits Bo with her sword (uncountered, no response): the damage roll 1T+2 is pending."""
    state = state or make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12, 2)
    assert state.pending_roll() == SumDice(1, 6, 2, "T")
    return state


@pytest.mark.through_cli
def test_top_damage_rerolls_and_the_new_roll_replaces() -> None:
    state = hit()
    roll(state, 3)
    assert state.current_player() == "ann"
    act(state, "top")
    assert state.tokens[ANN] == 4
    roll(state, 8)
    act(state, "accept")  # Ann keeps 8
    act(state, "accept")  # Bo does not counter-top
    assert state.body[BO] == 10 - 8


@pytest.mark.through_cli
def test_counter_top_then_counter_counter_top_the_roll_stands_one_token_each() -> None:
    state = hit()
    roll(state, 7)
    act(state, "accept")
    assert state.current_player() == "bo"
    act(state, "counter_top")
    assert state.current_player() == "ann"
    assert {a.kind for a in state.legal_actions()} == {"counter_counter_top", "reroll"}
    act(state, "counter_counter_top")
    assert (state.tokens[ANN], state.tokens[BO]) == (5 - 1, 6 - 1)
    assert state.dmg is not None and state.dmg.roll == 7
    act(state, "accept")  # Bo gives up
    assert state.body[BO] == 10 - 7


@pytest.mark.through_cli
def test_counter_top_unanswered_rerolls_and_the_defender_may_counter_top_again() -> None:
    state = hit()
    roll(state, 7)
    act(state, "accept")
    act(state, "counter_top")
    act(state, "reroll")
    assert state.tokens[ANN] == 5  # the reroll is free
    assert state.is_chance_node()
    roll(state, 4)
    act(state, "accept")  # Ann may top the new roll; she does not
    assert state.current_player() == "bo"
    act(state, "counter_top")
    act(state, "reroll")
    roll(state, 3)
    act(state, "accept")
    act(state, "accept")
    assert state.tokens[BO] == 6 - 2 - 2  # two counter-tops, then a Skråma (3 damage) costs 2
    assert state.body[BO] == 7


@pytest.mark.through_cli
def test_each_counter_top_may_be_counter_countered_only_once() -> None:
    state = hit()
    roll(state, 7)
    act(state, "accept")
    act(state, "counter_top")
    act(state, "counter_counter_top")
    # the counter-top is answered: the defender decides again; the attacker has nothing to counter-counter
    assert state.current_player() == "bo"
    assert {a.kind for a in state.legal_actions()} == {"counter_top", "accept"}
    act(state, "counter_top")  # a second counter-top, which may be answered once more
    assert state.current_player() == "ann"
    act(state, "counter_counter_top")
    assert state.tokens[ANN] == 5 - 2 and state.tokens[BO] == 6 - 2


def test_attacker_without_tokens_must_reroll_a_counter_top() -> None:
    state = hit()
    roll(state, 7)
    act(state, "accept")
    state.tokens[ANN] = 0
    act(state, "counter_top")
    assert state.is_chance_node()
    assert any("has no token to mot-mot-toppa" in t for t in texts(state))


@pytest.mark.through_cli
def test_damage_costs_tokens_by_wound_level() -> None:
    """Deliberate mutation that fails it (and four more tests of this file): ``rules.lose_tokens`` taking one token
    fewer than ``token_loss`` says."""
    for total, lost in [(3, 2), (5, 3), (7, 5)]:
        state = hit()
        roll(state, total)
        act(state, "accept")
        act(state, "accept")
        assert state.tokens[BO] == 6 - lost, total


@pytest.mark.through_cli
def test_one_point_of_damage_hurts_for_one_token() -> None:
    state = hit(make(b=person("bo", armour=2)))
    roll(state, 3)
    act(state, "accept")
    act(state, "accept")
    assert (state.tokens[BO], state.body[BO]) == (5, 9)


@pytest.mark.through_cli
def test_armour_soaks_and_no_damage_costs_nothing() -> None:
    state = hit(make(b=person("bo", armour=3)))
    roll(state, 3)
    act(state, "accept")
    act(state, "accept")
    assert (state.tokens[BO], state.body[BO]) == (6, 10)
    assert any("takes no damage" in t for t in texts(state))


def test_allvarligt_skadad_with_two_tokens_leaves_none() -> None:
    state = hit()
    state.tokens[BO] = 2
    roll(state, 8)
    act(state, "accept")
    act(state, "accept")
    assert state.tokens[BO] == 0
    assert state.is_terminal()
    assert state.outcome().ending == "pools_exhausted"


@pytest.mark.through_cli
def test_body_points_at_zero_put_one_out() -> None:
    state = hit(make(b=person("bo", body_points=5)))
    roll(state, 8)
    act(state, "accept")
    act(state, "accept")
    assert state.out[BO]
    assert state.outcome().ending == "goal_reached"
    assert state.outcome().winners == ("red",)


# ---- the damage rules on their own: the state's suffer_damage and the protocol's automatic stages ---------------
def test_suffer_damage_takes_body_points_and_tokens_and_keeps_the_worst_wound() -> None:
    state = make()
    before = state.suffer_damage(BO, 4, 3)  # Sårad
    assert (before, state.tokens[BO], state.body[BO], state.wounds[BO], state.out[BO]) == (6, 3, 6, 3, False)
    state.suffer_damage(BO, 1, 1)  # a lighter hit later does not lessen the worst wound
    assert (state.tokens[BO], state.body[BO], state.wounds[BO]) == (2, 5, 3)
    state.suffer_damage(BO, 6, 4)
    assert (state.tokens[BO], state.body[BO], state.out[BO]) == (0, -1, True)


def test_a_defender_without_tokens_is_not_asked_and_the_damage_is_marked() -> None:
    state = hit()
    state.tokens[BO] = 0
    roll(state, 5)
    act(state, "accept")  # Ann keeps 5; Bo cannot counter-top: marked at once
    assert state.dmg is None and state.body[BO] == 5


def test_an_attacker_without_tokens_is_not_asked_to_top() -> None:
    state = hit()
    state.tokens[ANN] = 0
    roll(state, 4)
    assert state.current_player() == "bo"  # straight to the defender's counter-top
    assert {a.kind for a in state.legal_actions()} == {"counter_top", "accept"}


def test_simultaneous_blows_fell_both_and_each_fall_is_said_once() -> None:
    state = make(person("ann", body_points=2), person("bo", body_points=2))
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    state.apply_actions({"ann": act_no_order(), "bo": act_no_order()})
    roll(state, 12, 2, 3)
    act(state, "accept")
    act(state, "accept")
    roll(state, 12, 2, 3)  # Bo, already out, still strikes: the blows were simultaneous
    act(state, "accept")
    assert state.out == [True, True]
    assert sum("out of the conflict" in t for t in texts(state)) == 2
