"""The damage roll's protocol, sequence by sequence, and what damage costs."""

from __future__ import annotations

import konflikt.core  # noqa: F401  (import core before dice: see the report on the import cycle)
from konflikt.dice import SumDice
from konflikt.rulesets.pwge.state import PwgeState
from tests.rulesets.pwge.helpers import act, make, person, roll, texts

ANN, BO = 0, 1


def hit(state: PwgeState | None = None) -> PwgeState:
    """Ann hits Bo with her sword (uncountered, no response): the damage roll 1T+2 is pending."""
    state = state or make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12, 2)
    assert state.pending_roll() == SumDice(1, 6, 2, "T")
    return state


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


def test_damage_costs_tokens_by_wound_level() -> None:
    for total, lost in [(3, 2), (5, 3), (7, 5)]:
        state = hit()
        roll(state, total)
        act(state, "accept")
        act(state, "accept")
        assert state.tokens[BO] == 6 - lost, total


def test_one_point_of_damage_hurts_for_one_token() -> None:
    state = hit(make(b=person("bo", armour=2)))
    roll(state, 3)
    act(state, "accept")
    act(state, "accept")
    assert (state.tokens[BO], state.body[BO]) == (5, 9)


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


def test_body_points_at_zero_put_one_out() -> None:
    state = hit(make(b=person("bo", body_points=5)))
    roll(state, 8)
    act(state, "accept")
    act(state, "accept")
    assert state.out[BO]
    assert state.outcome().ending == "goal_reached"
    assert state.outcome().winners == ("red",)
