"""The State API on a small real ruleset: checking, secret choices, views, replay, clone, errors."""

from __future__ import annotations

import json

import pytest

from konflikt.core.actions import Action, Step
from konflikt.core.conflict import Conflict, new_state
from konflikt.core.scenario import scenario_from_document
from konflikt.core.state import CHANCE, GM, SIMULTANEOUS, TERMINAL
from konflikt.errors import DiceError, IllegalActionError, InvalidActionError, ReplayError
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.core.toy import DOCUMENT, ToyState


def toy() -> ToyState:
    state = new_state(scenario_from_document(DOCUMENT, "toy.toml"))
    assert isinstance(state, ToyState)
    return state


def test_secret_choice_is_hidden_from_the_other_seat_until_all_have_chosen() -> None:
    state = toy()
    assert state.current_player() == SIMULTANEOUS
    state.apply_actions({"ada": Action.of("strike")})
    assert state.current_player() == SIMULTANEOUS
    assert state.waiting_for() == ("bo",)
    assert state.view("bo")["secret_choices"] == {"ada": "hidden"}
    assert state.view("ada")["secret_choices"] == {"ada": "strike"}
    assert state.view(GM)["secret_choices"] == {"ada": "strike"}
    assert not any("strike" in text for text in state.view("bo")["events"])
    assert any("strike" in text for text in state.view("ada")["events"])
    assert state.legal_actions("ada") == ()
    with pytest.raises(IllegalActionError, match="already chosen"):
        state.apply_actions({"ada": Action.of("guard")})
    state.apply_actions({"bo": Action.of("guard")})
    assert state.current_player() == CHANCE
    assert any("ada strike, bo guard" in text for text in state.view("bo")["events"])


def test_chance_node_takes_only_possible_outcomes() -> None:
    state = toy()
    state.apply_actions({"ada": Action.of("strike"), "bo": Action.of("guard")})
    with pytest.raises(DiceError, match="not a possible result of 1d6"):
        state.apply_action(7)
    with pytest.raises(IllegalActionError, match="waiting for ada's strike"):
        state.apply_action(Action.of("strike"))
    assert len(state.steps()) == 1
    state.apply_action(6)
    assert state.points["bo"] == 2


def test_illegal_actions_say_why_and_are_not_recorded() -> None:
    state = toy()
    with pytest.raises(IllegalActionError, match="'dance' is not possible now"):
        state.apply_actions({"ada": Action.of("dance")})
    with pytest.raises(IllegalActionError, match="choose together"):
        state.apply_action(Action.of("strike"))
    with pytest.raises(IllegalActionError, match="not choosing now"):
        state.apply_actions({"zed": Action.of("strike")})
    assert state.steps() == []


def test_a_finished_conflict_refuses_more_and_has_an_outcome() -> None:
    state = toy()
    with pytest.raises(IllegalActionError, match="not over"):
        state.outcome()
    Runner(seat_policies(state_scenario()), Generators.from_seed(4)).play(state)
    assert state.current_player() == TERMINAL
    assert state.outcome().ending in ("victory", "deadlock")
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(Action.of("strike"))


def state_scenario():  # type: ignore[no-untyped-def]
    return scenario_from_document(DOCUMENT, "toy.toml")


def test_conflict_round_trips_through_json_and_replays_every_prefix() -> None:
    scenario = state_scenario()
    state = new_state(scenario, {"open_hit": "2"})
    Runner(seat_policies(scenario), Generators.from_seed(9)).play(state)
    record = Conflict.of(state, scenario, {"open_hit": "2"}, 9)
    again = Conflict.from_json(json.loads(json.dumps(record.to_json())))
    assert again.replay().history() == state.history()
    for n in range(len(state.steps()) + 1):
        assert len(again.replay(n).steps()) == n


def test_a_tampered_record_does_not_replay() -> None:
    scenario = state_scenario()
    record = Conflict(scenario, steps=[Step(CHANCE, outcome=3)])
    with pytest.raises(ReplayError, match="step 0"):
        record.replay()


def test_actions_print_parse_and_serialise() -> None:
    action = Action.of("absorb", boxes=(1, 3), consequence="mild", concede=False)
    assert str(action) == "absorb boxes=1,3 concede=no consequence=mild"
    assert Action.parse(str(action)) == action
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action
    assert Action.of("x", b=1, a=2) == Action.of("x", a=2, b=1)
    for args in ({"t": ("a",)}, {"t": ()}, {"t": (1, 2)}, {"t": None}, {"t": True}, {"t": 0}):
        assert Action.parse(str(Action.of("x", **args))) == Action.of("x", **args)
    with pytest.raises(InvalidActionError, match="name=value"):
        Action.parse("attack massimo")
    with pytest.raises(InvalidActionError):
        Action.from_json({"target": "x"})


def test_same_seed_same_log_different_seed_different_log() -> None:
    scenario = state_scenario()
    logs = []
    for seed in (5, 5, 6):
        state = new_state(scenario)
        Runner(seat_policies(scenario), Generators.from_seed(seed)).play(state)
        logs.append([e.text for e in state.history()])
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]
