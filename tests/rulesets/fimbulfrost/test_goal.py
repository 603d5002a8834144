"""A side's goal reached (issue 43): the GM declares it (``State.declare_goal``) and the fight ends where it stands,
that side the winner, every fate as it stands — mid-round, at a roll, in the middle of buying consequences — replayed
from a save and carried into the next fight by the aftermath."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konflikt.core.conflict import Conflict, new_state
from konflikt.core.scenario import scenario_from_document
from konflikt.core.state import DECLARATION, GOAL_REACHED
from konflikt.errors import IllegalActionError
from konflikt.rulesets.fimbulfrost import aftermath
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.campaign import CAMPAIGN
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from tests.rulesets.fimbulfrost.helpers import ALL, act, doc, hero, present_each_other, roll, scenario, start, to_round2


def _named_sides() -> dict[str, object]:
    document = doc()
    document["sides"][0] |= {"name": "Heltene (the heroes)", "goal": "komme over broen (cross the bridge)"}
    document["sides"][1] |= {"name": "Røverbanden (the robber band)"}
    return document


def _start_named() -> FimbulfrostState:
    state = new_state(scenario_from_document(_named_sides(), "test.toml", base=Path(".")))
    assert isinstance(state, FimbulfrostState)
    return state


def test_goal_sides_are_the_heroes_and_the_opponent_as_the_scenario_names_them() -> None:
    state = _start_named()
    assert state.goal_sides() == {
        "helte": ("Heltene (the heroes)", "komme over broen (cross the bridge)"),
        "fjende": ("Røverbanden (the robber band)", None),
    }


def test_a_goal_declared_mid_round_ends_the_fight_with_that_side_the_winner() -> None:
    """In round 2, between Budolf's description and Rudolf's: the heroes' stated goal is reached; the fight ends where
    it stands, the robbers standing at their Status, nobody's fate changed."""
    state = _start_named()
    to_round2(state, 2, 1)
    act(state, "describe", **ALL)
    assert state.phase == P.R2_DESCRIBE and state.current_player() == "rudolf"
    state.declare_goal("helte")
    assert state.is_terminal() and state.legal_actions() == ()
    outcome = state.outcome()
    assert outcome.ending == GOAL_REACHED and outcome.winners == ("helte",)
    assert outcome.summary == (
        "Heltene (the heroes) reaches its goal in runde (round) 2, as the GM declares: komme over broen (cross the "
        "bridge)"
    )
    assert outcome.participants == {
        "budolf": "står (standing)",
        "rudolf": "står (standing)",
        "roeverne": "står (standing)",
    }
    assert outcome.data["opponent_status"] == 3 and outcome.data["round"] == 2
    assert state.history()[-1].kind == GOAL_REACHED and state.invariants() == []
    assert state.ending_words(outcome.ending) == "målet er nået (goal reached)"


def test_a_goal_declared_at_a_roll_drops_the_roll() -> None:
    """At the robbers' Omdømme roll (a chance node) the GM declares the robbers' goal reached (in words, since the
    scenario states none for them): no roll is made, the robbers win."""
    state = _start_named()
    present_each_other(state)
    roll(state, 1)
    roll(state, 0)
    act(state, "split", opponent=1)
    assert state.is_chance_node() and state.phase == P.R1_ANSWER
    state.declare_goal("fjende", "de rejsende har betalt (the travellers paid)")
    assert state.is_terminal() and state.pending_roll() is None and state.chance_outcomes() == []
    outcome = state.outcome()
    assert outcome.ending == GOAL_REACHED and outcome.winners == ("fjende",)
    assert outcome.data["opponent_status"] == 5


def test_a_goal_declared_while_consequences_are_bought_keeps_those_bought_and_drops_the_rest() -> None:
    """Rudolf is out at −2 and has bought one of his two consequences when the GM declares the heroes' goal: the one
    bought stays in his fate (and in the aftermath, and through a campaign's settle), the one still owed is not
    asked."""
    state = start(
        heroes=[hero("budolf", character="builtin:budolf"), hero("rudolf", character="builtin:rudolf", status=1)]
    )
    to_round2(state, 1, 1)
    act(state, "describe", **ALL)
    act(state, "describe", **ALL)
    roll(state, 0)
    roll(state, 0)
    roll(state, 3)
    act(state, "hit", rudolf=3)  # Rudolf 1 → −2: two consequences
    assert state.asks == [("cons", 1, 2, 2)]
    act(state, "consequence", entry="skramme")
    assert state.asks == [("cons", 1, 1, 2)]
    state.declare_goal("helte", "Rudolf slæbt i sikkerhed (Rudolf dragged to safety)")
    assert state.is_terminal() and state.asks == []
    outcome = state.outcome()
    assert outcome.participants["rudolf"] == "ude (out): Skrammer og blå mærker (scratches and bruises)"
    assert outcome.data["consequences"] == 1
    carried = aftermath(state)
    assert carried.characters["rudolf"]["konsekvenser"] == ["skramme"]
    settled = CAMPAIGN.settle(
        {"name": "Rudolf", "omdomme": 3, "status": 4, "rustning": 6}, (), carried.characters["rudolf"]
    )
    assert settled.document["konsekvenser"] == ["skramme"]


def test_a_declared_goal_replays_from_the_saved_steps() -> None:
    sc = scenario()
    conflict = Conflict(sc, {}, 5)
    state = conflict.start()
    assert isinstance(state, FimbulfrostState)
    present_each_other(state)
    roll(state, 2)
    state.declare_goal("fjende", "the bridge is theirs")
    assert state.steps()[-1].node == DECLARATION
    record = json.loads(json.dumps(Conflict.of(state, sc, {}, 5).to_json()))
    again = Conflict.from_json(record).replay()
    assert again.is_terminal() and again.outcome() == state.outcome()
    assert again.key() == state.key() and again.key() != _ended_otherwise(sc)


def _ended_otherwise(sc: object) -> object:
    """The key of a fight the heroes won outright, to be told apart from one ended by a goal."""
    state = start()
    present_each_other(state)
    roll(state, 4)
    roll(state, 3)
    act(state, "split", opponent=4)
    act(state, "split", opponent=3)
    act(state, "spare")
    return state.key()


def test_a_goal_for_no_side_is_refused_and_a_finished_fight_takes_none() -> None:
    state = start()
    with pytest.raises(
        IllegalActionError, match=r"'budolf' is not a side of this conflict \(sides: helte \(helte\), fjende"
    ):
        state.declare_goal("budolf", "won")
    assert not state.is_terminal() and state.steps() == []
    state.declare_goal("helte", "won")
    with pytest.raises(IllegalActionError, match="the conflict is over"):
        state.declare_goal("fjende", "won too")
