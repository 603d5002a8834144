"""The GM declares a side's goal reached: "Om ena sidan uppnår sitt mål innan handlingspölen är slut så är det inte
så mycket att orda om. Den ena sidan har i så fall uppnått sitt mål." A conflict "behöver inte vara dödlig": its end
is each side's own goal, which only the table can judge (issue 43, point 3)."""

from __future__ import annotations

import json

import pytest

from konflikt.core.conflict import Conflict, new_state
from konflikt.core.scenario import load_scenario
from konflikt.core.state import GOAL_REACHED, TERMINAL
from konflikt.errors import IllegalActionError, InvalidActionError
from konflikt.rulesets.pwge import RULESET
from konflikt.rulesets.pwge.state import PwgeState
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.rulesets.pwge.helpers import act, make, person, roll

ANN, BO = 0, 1


def duel() -> tuple[PwgeState, Conflict]:
    scenario = load_scenario("pwge/duel")
    state = new_state(scenario)
    assert isinstance(state, PwgeState)
    return state, Conflict(scenario)


def test_every_side_is_offered_with_the_goal_its_scenario_states() -> None:
    state, _ = duel()
    assert state.goal_sides() == {
        "silverpilen": ("Silverpilen (the Silver Arrow's crew)", "disarm and capture Zorak"),
        "pirater": ("Zoraks pirater (Zorak's pirates)", "drive Nova off the asteroid"),
    }
    assert make().goal_sides() == {"red": ("red", None), "blue": ("blue", None)}


@pytest.mark.through_cli
def test_declared_on_the_open_floor_the_side_wins_and_every_fate_stands() -> None:
    """Nova has disarmed Zorak in the story: the GM says so; tokens, body points and wounds are kept as they stand."""
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12, 2, 4)  # Ann hits: 1T+2 = 4 damage, Sårad
    act(state, "accept")
    act(state, "accept")
    assert state.phase == "open" and state.body[BO] == 6
    state.declare_goal("red", "Bo yields the chart")
    assert state.current_player() == TERMINAL
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == (GOAL_REACHED, ("red",))
    assert outcome.summary == "red reaches its goal, as the GM declares: Bo yields the chart"
    assert outcome.participants["bo"] == "3 tokens left, 6 body points, worst hit Sårad (wounded)"
    assert outcome.participants["ann"].startswith(f"{state.tokens[ANN]} tokens left, 10 body points")
    assert not state.legal_actions("ann") and not state.legal_actions("bo")
    assert state.invariants() == []
    last = state.history()[-1]
    assert last.kind == GOAL_REACHED
    assert (
        last.text == "The GM declares that red has reached its goal (Bo yields the chart): the conflict ends, red wins"
    )


@pytest.mark.through_cli
def test_declared_at_a_chance_node_the_roll_is_not_made() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    act(state, "no_response")
    assert state.is_chance_node()
    state.declare_goal("blue", "Ann is talked down")
    assert state.is_terminal() and state.pending_roll() is None and state.contest is None
    assert state.outcome().winners == ("blue",)


@pytest.mark.through_cli
def test_declared_while_a_response_is_awaited() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    assert state.phase == "response" and state.current_player() == "bo"
    state.declare_goal("blue", "the bridge is held")
    assert state.is_terminal() and state.ex is None
    assert state.outcome().ending == GOAL_REACHED


def test_declared_during_a_damage_roll_leaves_the_hit_unmarked() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12, 2, 6)
    assert state.phase == "damage"
    state.declare_goal("red", "Bo surrenders before the blow lands")
    assert state.body[BO] == 10 and state.is_terminal()


@pytest.mark.through_cli
def test_the_stated_goal_is_the_default_and_a_side_needs_one() -> None:
    state, _ = duel()
    state.declare_goal("silverpilen")
    assert state.outcome().summary.endswith("as the GM declares: disarm and capture Zorak")
    with pytest.raises(InvalidActionError, match="states no goal for red"):
        make().declare_goal("red")


def test_an_unknown_side_and_a_finished_conflict_are_refused() -> None:
    state, _ = duel()
    with pytest.raises(IllegalActionError, match="'vikings' is not a side of this conflict"):
        state.declare_goal("vikings")
    assert state.steps() == [] and not state.is_terminal()
    state.declare_goal("pirater")
    with pytest.raises(IllegalActionError, match="the conflict is over"):
        state.declare_goal("silverpilen")


@pytest.mark.through_cli
def test_a_saved_declaration_replays_to_the_same_end() -> None:
    """Twelve steps of heuristic play, the GM's word, then the record through JSON and back: the same end."""
    state, conflict = duel()
    runner = Runner(seat_policies(conflict.scenario), Generators.from_seed(3))
    for _ in range(12):
        runner.step(state)
    assert not state.is_terminal()
    state.declare_goal("pirater", "Nova is driven off the asteroid")
    record = json.loads(json.dumps(Conflict.of(state, conflict.scenario, {}, 3).to_json()))
    again = Conflict.from_json(record).replay()
    assert again.outcome() == state.outcome()
    assert [e.text for e in again.history()] == [e.text for e in state.history()]
    assert again.key() == state.key()


def test_the_aftermath_follows_a_declared_goal() -> None:
    """The documents after a declared end carry what the conflict left: the damage taken, the dice spent."""
    state = make(person("ann", experience_dice=2), options={"experience_dice": True})
    act(state, "attack", target="bo", weapon="melee", pay="die")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12, 2, 4)
    act(state, "accept")
    act(state, "accept")
    state.declare_goal("red", "Bo yields")
    assert RULESET.aftermath is not None
    after = RULESET.aftermath(state)
    assert after.characters["bo"]["damage_taken"] == 4
    assert after.characters["ann"]["experience_dice"] == 1
