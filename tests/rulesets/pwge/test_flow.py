"""Endings, the order of resolution, surprise, and the four kinds of conflict."""

from __future__ import annotations

from konflikt.core.actions import Action
from konflikt.dice import SumDice
from konflikt.rulesets.pwge.persist import updated_characters
from konflikt.rulesets.pwge.state import PwgeState
from tests.rulesets.pwge.helpers import act, make, person, roll, texts

ANN, BO = 0, 1


# ---- endings -----------------------------------------------------------------------------------------------------
def test_deadlock_when_nobody_wants_to_act() -> None:
    state = make()
    act(state, "pass")
    assert state.current_player() == "bo"
    act(state, "pass")
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == ("deadlock", ())
    assert "nobody wants to start a new action" in outcome.summary


def test_an_action_resets_the_passes() -> None:
    state = make()
    act(state, "pass")
    act(state, "distance", target="ann", way="closer")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.passes == 0 and state.current_player() == "ann"


def test_one_sides_pools_run_out_first() -> None:
    state = make()
    state.tokens[ANN] = 1
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 6, 12)  # a miss; Ann has no token to top
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == ("pools_exhausted", ("blue",))
    assert "live and fight another day" in outcome.summary


def test_both_sides_pools_run_out_is_a_deadlock() -> None:
    state = make()
    state.tokens[ANN] = 1
    state.tokens[BO] = 1
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    roll(state, 6, 12)
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == ("deadlock", ())
    assert "every side's handlingspöl" in outcome.summary


# ---- order of resolution -----------------------------------------------------------------------------------------
def _exchange_of_blows(order: dict[str, str]) -> PwgeState:
    state = make(person("ann", body_points=3))
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    state.apply_actions({seat: Action.of(choice) for seat, choice in order.items()})
    return state


def test_bought_order_strikes_first_and_a_fallen_actor_does_not_act() -> None:
    state = _exchange_of_blows({"ann": "no_order", "bo": "order"})
    roll(state, 12, 2)  # Bo's response hits first
    roll(state, 6)
    act(state, "accept")  # Bo keeps 6
    act(state, "accept")  # Ann does not counter-top
    assert state.out[ANN]
    assert any("does not happen: Ann is out" in t for t in texts(state))
    assert state.body[BO] == 10


def test_simultaneous_action_and_response_both_resolve() -> None:
    state = _exchange_of_blows({"ann": "no_order", "bo": "no_order"})
    roll(state, 12, 2)  # Ann's action first in the log, but at the same time
    roll(state, 3)
    act(state, "accept")
    act(state, "accept")
    roll(state, 12, 2)  # Bo's response
    roll(state, 6)
    act(state, "accept")
    act(state, "accept")
    assert state.out[ANN] and state.body[BO] == 7


def test_ordered_distance_change_first_takes_the_attacker_out_of_reach() -> None:
    state = make()
    act(state, "distance", target="bo", way="farther")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    state.apply_actions({"ann": Action.of("order"), "bo": Action.of("no_order")})
    assert state.pair(ANN, BO) == 5
    assert any("cannot reach Ann" in t for t in texts(state))
    assert state.phase == "open"


def test_simultaneous_attack_sees_the_distance_as_declared() -> None:
    state = make()
    act(state, "distance", target="bo", way="farther")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    state.apply_actions({"ann": Action.of("no_order"), "bo": Action.of("no_order")})
    assert state.pair(ANN, BO) == 5
    assert state.is_chance_node()  # Bo's sword blow still lands at Svärd, as declared


# ---- weapons and distance ----------------------------------------------------------------------------------------
def test_ranged_difficulties_by_distance() -> None:
    pistol = person("ann", ranged_weapon="stralpistol")  # Kort 3, Max 6
    for start, notation in [(2, "2T+2"), (5, "2T+4"), (6, "2T+4")]:
        state = make(pistol, setup={"start_distance": start})
        act(state, "attack", target="bo", weapon="ranged")
        act(state, "no_counter")
        act(state, "no_response")
        roll(state, 10)
        assert str(state.pending_roll()) == notation
    state = make(pistol, setup={"start_distance": 7})
    assert Action.of("attack", target="bo", weapon="ranged") not in state.legal_actions()


def test_dodging_a_ranged_attack_keeps_the_range_difficulty() -> None:
    state = make(person("ann", ranged_weapon="stralpistol"), setup={"start_distance": 5})
    act(state, "attack", target="bo", weapon="ranged")
    act(state, "counter")
    act(state, "no_response")
    roll(state, 10)
    assert state.pending_roll() == SumDice(2, 6, 3 + 4, "T")


def test_spear_at_sword_distance_attacks_without_bonus_dagger_cannot() -> None:
    state = make(
        person("ann", melee_weapon="spjut"), person("bo", melee_weapon="dolk"), setup={"start_distance": "Svärd"}
    )
    assert state.attack_mods(ANN, BO, "melee", 2) == (3, 0, 2)
    assert state.attack_mods(BO, ANN, "melee", 2) is None
    bo_moves = [a for a in state.deeds_against(BO, ANN) if a.kind == "attack"]
    assert bo_moves == []


def test_closing_from_range_1_arrives_at_the_spear() -> None:
    state = make(b=person("bo", melee_weapon="spjut"), setup={"start_distance": 1})
    act(state, "distance", target="bo", way="closer")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.pair(ANN, BO) == 4  # Spjut


# ---- surprise ----------------------------------------------------------------------------------------------------
def test_surprise_start_distance_and_free_attack_without_response() -> None:
    state = make(setup={"surprise": "red", "start_distance": 5})
    assert state.current_player() == "ann" and state.phase == "surprise_distance"
    act(state, "start", distance=2)
    assert state.pair(ANN, BO) == 2
    act(state, "free_attack", target="bo", weapon="melee")
    assert state.tokens[ANN] == 6  # free
    assert state.current_player() == "bo" and {a.kind for a in state.legal_actions()} == {"counter", "no_counter"}
    act(state, "no_counter")
    assert state.is_chance_node()  # no response was offered
    roll(state, 6, 10)
    act(state, "top")  # topping the free attack costs as usual
    assert state.tokens[ANN] == 5


# ---- chases, diplomacy, social -----------------------------------------------------------------------------------
def test_chase_escape_and_capture() -> None:
    state = make(setup={"kind": "chase", "fleeing": "red", "start_distance": 5, "escape_distance": 6})
    act(state, "distance", target="bo", way="farther")
    act(state, "no_counter")
    act(state, "no_response")
    assert (state.outcome().ending, state.outcome().winners) == ("goal_reached", ("red",))
    state = make(setup={"kind": "chase", "fleeing": "red", "start_distance": 1})
    act(state, "pass")
    act(state, "distance", target="ann", way="closer")
    act(state, "no_counter")
    act(state, "no_response")
    assert (state.outcome().ending, state.outcome().winners) == ("goal_reached", ("blue",))


def test_diplomatic_moves_carry_the_point_and_distance_hinders() -> None:
    lyra = person("bo", diplomatic_distance={"Ann": 7})
    state = make(b=lyra, setup={"kind": "diplomatic", "goal_successes": 1})
    assert state.pair(ANN, BO) == 7
    act(state, "press", target="bo")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.pending_roll() == SumDice(2, 6, 3 - 3, "T")  # −(7 ÷ 2)
    roll(state, 9, 5)
    assert (state.outcome().ending, state.outcome().winners) == ("goal_reached", ("red",))


def test_social_damage_option_uses_social_body_points() -> None:
    state = make(
        person("ann", ammunition=2),
        person("bo", social_body_points=4),
        setup={"kind": "social"},
        options={"social_damage": True},
    )
    act(state, "press", target="bo")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.pending_roll() == SumDice(2, 6, 3, "T")  # no distance penalty in a social conflict
    roll(state, 12, 2)
    assert state.pending_roll() == SumDice(1, 6, 2, "T")  # 1T + ammunition
    roll(state, 5)
    act(state, "accept")
    act(state, "accept")
    assert state.out[BO] and state.outcome().winners == ("red",)


def test_relation_distance_persists_in_the_characters() -> None:
    state = make(setup={"kind": "social", "relation_distance": 4})
    act(state, "distance", target="bo", way="closer")
    act(state, "no_counter")
    act(state, "no_response")
    act(state, "pass")
    act(state, "pass")
    docs = updated_characters(state)
    assert docs["ann"]["social_distance"] == {"Bo": 3}
    assert docs["bo"]["social_distance"] == {"Ann": 3}
