"""Every spend of a token: action, counter, response, counter to a response, order, distance, top."""

from __future__ import annotations

import numpy as np
import pytest

from konflikt.core.actions import Action
from konflikt.core.state import SIMULTANEOUS
from konflikt.dice import SumDice
from konflikt.errors import IllegalActionError
from konflikt.rulesets.pwge.state import PwgeState
from tests.rulesets.pwge.helpers import act, make, person, roll, texts

ANN, BO = 0, 1


def test_pools_follow_the_formula_and_side_size() -> None:
    state = make(
        person(
            "ann",
            attributes={"Styrka": 4},
            skills={"Svärd": 2, "Dolk": 1},
            fitting_skills=["Svärd", "Dolk"],
            identity_fit="direct",
        ),
        extra_a=[person("cid", identity_fit="indirect")],
    )
    assert state.tokens == [8 + 4 + 4 - 1, 6 + 2 - 1, 6]


@pytest.mark.through_cli
def test_an_action_costs_one_token_and_says_so() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    assert state.tokens[ANN] == 5
    assert "Ann spends 1 token (marker) on a handling (action) — 5 left" in texts(state)
    assert state.status()["ann"]["marker (tokens)"] == "5/6"


@pytest.mark.through_cli
def test_uncountered_melee_attack_rolls_against_2t() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.pending_roll() == SumDice(2, 6, 3 + 1, "T")  # Styrka 3 + sword bonus at Svärd
    roll(state, 10)
    assert state.pending_roll() == SumDice(2, 6, 0, "T")
    assert str(state.pending_roll()) == "2T"


@pytest.mark.through_cli
def test_counter_costs_a_token_and_makes_an_opposed_roll() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    assert state.tokens[BO] == 5
    act(state, "no_response")
    roll(state, 10)
    assert state.pending_roll() == SumDice(2, 6, 3, "T")  # Bo's defence: Styrka 3
    roll(state, 10)  # a tie holds for the counter
    assert state.contest is not None and state.contest.winner() == "b"


@pytest.mark.through_cli
def test_response_is_aimed_at_the_actor_and_there_is_no_response_to_a_response() -> None:
    state = make(extra_a=[person("cid")])
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    legal = state.legal_actions()
    assert all(a.get("target") is None for a in legal)  # a response names no target: it is the actor
    act(state, "respond", deed="attack", weapon="melee")
    assert state.ex is not None and state.ex.response is not None
    assert state.ex.response.target == ANN
    # next the actor may only counter the response: no response to a response
    assert state.current_player() == "ann"
    assert {a.kind for a in state.legal_actions()} == {"counter", "no_counter"}
    with pytest.raises(IllegalActionError, match="not possible now"):
        act(state, "respond", deed="attack", weapon="melee")


@pytest.mark.through_cli
def test_actor_counters_the_response() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "counter")
    assert state.tokens == [4, 5]
    assert state.ex is not None and state.ex.response is not None and state.ex.response.countered


def _to_order() -> PwgeState:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    return state


@pytest.mark.through_cli
def test_order_is_secret_and_simultaneous_when_nobody_pays() -> None:
    state = _to_order()
    assert state.current_player() == SIMULTANEOUS
    state.apply_actions({"ann": Action.of("no_order"), "bo": Action.of("no_order")})
    assert state.ex is not None
    assert state.ex.order == "simultaneous"


@pytest.mark.through_cli
def test_one_side_pays_for_order_and_goes_first() -> None:
    state = _to_order()
    state.apply_actions({"ann": Action.of("no_order"), "bo": Action.of("order")})
    assert state.ex is not None
    assert state.ex.order == "response"
    assert state.tokens[BO] == 4  # 6 − 1 response − 1 order


@pytest.mark.through_cli
def test_both_pay_for_order_the_order_roll_decides_and_a_tie_stays_simultaneous() -> None:
    state = _to_order()
    state.apply_actions({"ann": Action.of("order"), "bo": Action.of("order")})
    assert state.contest is not None
    assert state.contest.purpose == "order"
    assert state.pending_roll() == SumDice(2, 6, 3, "T")  # 2T + the attribute
    roll(state, 9, 9)
    # tied: both may top (Ann first); both let it stand
    act(state, "accept")
    act(state, "accept")
    assert state.ex is not None
    assert state.ex.order == "simultaneous"
    assert "the turordningsslag is a tie: action and response stay simultaneous" in texts(state)


@pytest.mark.through_cli
def test_order_roll_higher_goes_first() -> None:
    state = _to_order()
    state.apply_actions({"ann": Action.of("order"), "bo": Action.of("order")})
    roll(state, 8, 11)
    act(state, "accept")  # Ann, behind, does not top
    assert state.ex is not None
    assert state.ex.order == "response"


@pytest.mark.through_cli
def test_topping_rerolls_and_the_new_roll_replaces_the_old() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 6, 11)  # Ann behind
    assert state.current_player() == "ann"
    act(state, "top")
    assert state.tokens[ANN] == 4
    roll(state, 8)  # still behind: may top again
    act(state, "top")
    roll(state, 15)
    assert state.contest is None or state.contest.a_roll == 15
    assert any("succeeds (15 against 11)" in t for t in texts(state))
    assert state.tokens[ANN] == 3


@pytest.mark.through_cli
def test_the_one_ahead_is_not_asked_to_top() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    act(state, "no_response")
    roll(state, 12, 8)
    assert state.current_player() == "bo"  # behind: the counter's roller


def test_max_tops_per_roll_limits_topping() -> None:
    state = make(options={"max_tops_per_roll": 1})
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 6, 11)
    act(state, "top")
    roll(state, 7)  # still behind but the one top is used up: the roll stands, damage is not rolled
    assert state.phase == "open"
    assert state.tokens[ANN] == 4


@pytest.mark.through_cli
def test_change_distance_uncountered_changes() -> None:
    state = make()
    act(state, "distance", target="bo", way="farther")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.pair(ANN, BO) == 5  # from Svärd, the longest weapon's distance, out to range 1
    assert state.tokens[ANN] == 5


@pytest.mark.through_cli
def test_hold_the_distance_opposed_roll_tie_stays() -> None:
    state = make()
    act(state, "distance", target="bo", way="farther")
    act(state, "counter")
    act(state, "no_response")
    roll(state, 9, 9)
    act(state, "accept")
    assert state.pair(ANN, BO) == 2  # still Svärd
    state2 = make()
    act(state2, "distance", target="bo", way="closer")
    act(state2, "counter")
    act(state2, "no_response")
    roll(state2, 10, 9)
    act(state2, "accept")  # Bo, behind, lets it stand
    assert state2.pair(ANN, BO) == 1  # Dolk


def test_man_kan_spendera_en_erfarenhetstarning_istallet_for_en_marker_by_choice() -> None:
    """Every spend is offered paid with a token or with a die; the spender chooses (before: a die always first)."""
    state = make(person("ann", experience_dice=2), options={"experience_dice": True})
    legal = state.legal_actions()
    assert Action.of("attack", target="bo", weapon="melee") in legal
    assert Action.of("attack", target="bo", weapon="melee", pay="die") in legal
    assert Action.of("pass", pay="die") not in legal  # passing costs nothing
    act(state, "attack", target="bo", weapon="melee")
    assert (state.tokens[ANN], state.xp[ANN]) == (5, 2)  # paid with a token: the dice are kept
    act(state, "counter")
    act(state, "no_response")
    roll(state, 6, 12)
    act(state, "top", pay="die")
    assert (state.tokens[ANN], state.xp[ANN]) == (5, 1)
    assert any("spends 1 erfarenhetstärning (experience die) instead of a token" in t for t in texts(state))


def test_mast_man_ha_minst_en_marker_kvar_to_spend_a_die() -> None:
    state = make(person("ann", experience_dice=2), options={"experience_dice": True})
    state.tokens[ANN] = 1
    act(state, "attack", target="bo", weapon="melee", pay="die")
    assert (state.tokens[ANN], state.xp[ANN]) == (1, 1)
    state.tokens[ANN] = 0
    assert not state.may_pay_with_die(ANN)


def test_the_heuristic_keeps_its_dice_until_tokens_run_low() -> None:
    from konflikt.rulesets.pwge.policies import DIE_WHEN_TOKENS, HeuristicPolicy

    state = make(person("ann", experience_dice=2), options={"experience_dice": True})
    policy, rng = HeuristicPolicy(), np.random.default_rng(0)
    assert policy.choose(state, "ann", rng).get("pay") is None
    state.tokens[ANN] = DIE_WHEN_TOKENS
    assert policy.choose(state, "ann", rng).get("pay") == "die"


def test_experience_dice_cannot_be_spent_from_an_empty_pool() -> None:
    state = make(person("ann", experience_dice=3), options={"experience_dice": True})
    state.tokens[ANN] = 0
    assert not state.can_spend(ANN)


def test_experience_dice_ignored_without_the_option() -> None:
    state = make(person("ann", experience_dice=3))
    assert state.xp[ANN] == 0


@pytest.mark.through_cli
def test_a_top_that_puts_the_other_behind_lets_them_top_in_turn() -> None:
    """ "Om du inte är nöjd med ett slag så kan du toppa det": the one behind is the one not satisfied; Ann tops into
    the lead, so now Bo is behind and is asked; the one ahead never is."""
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    act(state, "no_response")
    roll(state, 8, 12)
    assert state.current_player() == "ann"
    act(state, "top")
    roll(state, 14)
    assert state.current_player() == "bo" and state.legal_actions() == [Action.of("top"), Action.of("accept")]
    act(state, "accept")
    assert state.phase == "damage"


def test_with_an_empty_pool_one_buys_nothing_more_but_can_still_be_attacked() -> None:
    """ "Man får spendera dem nästan hur man vill, men man har inte fler handlingar än så": Bo, at 0 tokens (Dan on
    his side still has some), is not asked to counter, respond or top, is passed over for the floor, and Ann's
    attack on him still lands."""
    from konflikt.core.conflict import new_state
    from konflikt.core.scenario import scenario_from_document

    doc = {
        "ruleset": "pwge",
        "title": "t",
        "sides": [
            {"id": "red", "participants": [person("ann")]},
            {"id": "blue", "participants": [person("bo"), person("dan")]},
        ],
    }
    state = new_state(scenario_from_document(doc, "<test>"))
    assert isinstance(state, PwgeState)
    bo = state.index["bo"]
    state.tokens[bo] = 0
    act(state, "attack", target="bo", weapon="melee")
    assert state.is_chance_node(), "no counter and no response asked of an empty pool"
    roll(state, 12, 2, 4)
    act(state, "accept")  # Ann keeps the damage; Bo is not asked to counter-top
    assert state.body[bo] == 6 and state.phase == "open" and state.current_player() == "dan"
