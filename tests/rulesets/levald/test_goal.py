"""The GM declares a side's goal reached (``State.declare_goal``): a Le våld fight ends where it stands.

Omtöckning has no limit in the text (a fighter may sink to −100% and beyond and still stand), and nothing in it ends
a fight but being utslagen, dead or gone: whether the robbers got the purse or Snurre crossed the bridge is the
table's judgement, so the GM says it, and the fight ends with that side the winner and every track as it is.
"""

from __future__ import annotations

import json

import pytest

from konflikt.core.campaign import Rest
from konflikt.core.conflict import Conflict, new_state
from konflikt.core.ruleset import get_ruleset
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE, GOAL_REACHED, SIMULTANEOUS, TERMINAL
from konflikt.errors import IllegalActionError, InvalidActionError
from konflikt.rulesets.levald.campaign import CAMPAIGN
from konflikt.rulesets.levald.rest import aftermath
from konflikt.rulesets.levald.state import LevaldState
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.rulesets.levald.helpers import act, document, fighter, move, roll, state_of


def bridge() -> tuple[LevaldState, Conflict]:
    scenario = load_scenario("levald/duel")
    state = new_state(scenario)
    assert isinstance(state, LevaldState)
    return state, Conflict(scenario)


def hit_b() -> LevaldState:
    """a's sword hits b's spear at Svärd: 15 on b's Gard 12, a Skråma; a may gain ground."""
    state = state_of(document(fighter("a"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 50, 90, 10)
    assert state.phase == "ground"
    return state


def test_every_side_is_offered_with_the_goal_its_scenario_states() -> None:
    state, _ = bridge()
    assert state.goal_sides() == {"snurres": ("Snurre", "cross the bridge"), "heddas": ("Hedda", "hold the bridge")}
    assert hit_b().goal_sides() == {"left": ("Left", None), "right": ("Right", None)}


def test_declared_mid_round_the_side_wins_and_every_track_stands() -> None:
    state = hit_b()
    state.declare_goal("right", "the gate is barred behind b")
    assert state.current_player() == TERMINAL and not state.legal_actions("a")
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == (GOAL_REACHED, ("right",))
    assert outcome.summary == (
        "Right reaches its goal, as the GM declares: the gate is barred behind b (in round 1): "
        "A står (standing), B står (standing)"
    )
    assert outcome.participants == {
        "a": "står (standing), Omtöckning 0",
        "b": "står (standing), Skråma×1, Omtöckning 1",
    }
    assert outcome.data["b.gard"] == 0 and outcome.data["rounds"] == 0
    assert state.invariants() == []
    last = state.history()[-1]
    assert (last.kind, last.text) == (
        GOAL_REACHED,
        "The GM declares that Right has reached its goal (the gate is barred behind b): the conflict ends, Right wins",
    )


def test_declared_at_the_secret_movement_the_markers_down_are_forgotten() -> None:
    state = state_of(document(fighter("a"), fighter("b"), "Fri"))
    move(state, a="advance")
    assert state.current_player() == SIMULTANEOUS and state.waiting_for() == ("b",)
    state.declare_goal("left", "b gives way")
    assert state.is_terminal() and state.view("a").get("secret_choices", {}) == {}
    assert state.outcome().winners == ("left",)


def test_declared_at_a_chance_node_the_roll_is_not_made() -> None:
    state = state_of(document(fighter("a"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 50, 90)
    assert state.current_player() == CHANCE and state.phase == "damage"
    state.declare_goal("right", "b is pulled away by the watch")
    assert state.is_terminal() and state.pending_roll() is None and state.hit is None
    assert state.gard[1] == 12 and state.wounds[1] == [0, 0, 0, 0, 0]  # the blow never lands
    assert state.outcome().winners == ("right",)


def test_the_stated_goal_is_the_default_and_a_side_needs_one() -> None:
    state, _ = bridge()
    state.declare_goal("snurres")
    assert "as the GM declares: cross the bridge" in state.outcome().summary
    with pytest.raises(InvalidActionError, match="states no goal for Left"):
        hit_b().declare_goal("left")


def test_an_unknown_side_and_a_finished_fight_are_refused() -> None:
    state, _ = bridge()
    with pytest.raises(IllegalActionError, match="'thugs' is not a side of this conflict"):
        state.declare_goal("thugs")
    assert state.steps() == [] and not state.is_terminal()
    state.declare_goal("heddas")
    with pytest.raises(IllegalActionError, match="the conflict is over"):
        state.declare_goal("snurres")


def test_a_saved_declaration_replays_to_the_same_end() -> None:
    """Heuristic play into round 3, the GM's word, then the record through JSON and back: the same end."""
    state, conflict = bridge()
    runner = Runner(seat_policies(conflict.scenario), Generators.from_seed(5))
    while state.rounds < 2 or state.current_player() == SIMULTANEOUS:
        runner.step(state)
    assert not state.is_terminal()
    state.declare_goal("snurres", "Snurre is across")
    record = json.loads(json.dumps(Conflict.of(state, conflict.scenario, {}, 5).to_json()))
    again = Conflict.from_json(record).replay()
    assert again.outcome() == state.outcome()
    assert [e.text for e in again.history()] == [e.text for e in state.history()]
    assert again.key() == state.key()


def test_the_aftermath_and_the_campaigns_rest_follow_a_declared_goal() -> None:
    state = hit_b()
    state.declare_goal("right", "the gate is barred")
    after = aftermath(state)
    carried = dict(after.characters["b"])
    assert carried["daze"] == 1 and carried["wounds"]["skråma"] == 1 and "gard_now" not in carried
    rested = CAMPAIGN.rest(carried, (), Rest(10, "rounds"), get_ruleset("levald").options.resolve())
    assert rested.document["daze"] == 1  # the floor: one point per wound
    assert "står (standing)" in after.lines[1]


def test_a_declaration_leaves_the_keys_of_play_alone() -> None:
    """States that never meet a declaration merge as before (the exact solvers and the bridge key by them); a
    declared end is a state of its own."""
    one, two = hit_b(), hit_b()
    assert one.key() == two.key()
    two.declare_goal("right", "the gate is barred")
    assert one.key() != two.key()
    assert one.key()[-1] == ("", "")
