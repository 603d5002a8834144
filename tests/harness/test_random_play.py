"""Generic harness for every ruleset: seeded random play with invariants, determinism, clone, save and replay.

These run over every bundled example of every registered ruleset, so a new ruleset is covered as it lands.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from konflikt.core.conflict import Conflict, new_state
from konflikt.core.ruleset import RandomPolicy
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE, GM, SIMULTANEOUS, State
from konflikt.errors import IllegalActionError
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.examples import example_scenarios

EXAMPLES = example_scenarios()
SEEDS = range(12)


def random_runner(state: State, seed: int) -> Runner:
    return Runner({seat: RandomPolicy() for seat in (*state.seats(), GM)}, Generators.from_seed(seed))


def check_node(state: State) -> None:
    node = state.current_player()
    if node == CHANCE:
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance node offers no outcomes"
        assert sum((p for _, p in outcomes), Fraction(0)) == 1
        assert all(p > 0 for _, p in outcomes)
    elif node == SIMULTANEOUS:
        assert state.waiting_for(), "a simultaneous node waits for nobody"
        for seat in state.waiting_for():
            assert state.legal_actions(seat), f"{seat} must choose in secret but has no legal action"
    elif not state.is_terminal():
        assert node in state.seats() or node == GM, f"current player {node!r} is not a seat"
        assert state.legal_actions(), f"decision node of {node} with no legal actions"
    broken = state.invariants()
    assert not broken, f"invariants broken after step {len(state.steps())}: {broken}"
    json.dumps(state.view(GM))


@pytest.mark.parametrize(("ruleset_id", "name"), EXAMPLES)
@pytest.mark.parametrize("policies", ["random", "scenario"])
def test_random_play_keeps_invariants_and_ends(ruleset_id: str, name: str, policies: str) -> None:
    scenario = load_scenario(name)
    for seed in SEEDS:
        state = new_state(scenario)
        check_node(state)
        runner = (
            random_runner(state, seed)
            if policies == "random"
            else Runner(seat_policies(scenario), Generators.from_seed(seed))
        )
        runner.play(state, on_step=check_node)
        outcome = state.outcome()
        sides = {s.id for s in scenario.sides}
        assert set(outcome.winners) <= sides
        assert outcome.summary
        json.dumps(outcome.to_json())
        for seat in state.seats():
            json.dumps(state.view(seat))


@pytest.mark.parametrize(("ruleset_id", "name"), EXAMPLES)
def test_same_seed_same_log(ruleset_id: str, name: str) -> None:
    scenario = load_scenario(name)
    logs = []
    for _ in range(2):
        state = new_state(scenario)
        random_runner(state, 7).play(state)
        logs.append(([e.to_json() for e in state.history()], [s.to_json() for s in state.steps()]))
    assert logs[0] == logs[1]


@pytest.mark.parametrize(("ruleset_id", "name"), EXAMPLES)
def test_save_and_replay_round_trip(ruleset_id: str, name: str) -> None:
    scenario = load_scenario(name)
    for seed in range(4):
        state = new_state(scenario)
        random_runner(state, seed).play(state)
        text = json.dumps(Conflict.of(state, scenario, {}, seed).to_json())
        replayed = Conflict.from_json(json.loads(text)).replay()
        assert [e.to_json() for e in replayed.history()] == [e.to_json() for e in state.history()]
        assert replayed.status() == state.status()
        assert replayed.outcome() == state.outcome()


@pytest.mark.parametrize(("ruleset_id", "name"), EXAMPLES)
def test_clone_is_independent_and_equal(ruleset_id: str, name: str) -> None:
    scenario = load_scenario(name)
    state = new_state(scenario)
    runner = random_runner(state, 3)
    for _ in range(6):
        if state.is_terminal():
            break
        runner.step(state)
    twin = state.clone()
    assert twin.status() == state.status()
    assert twin.steps() == state.steps()
    assert twin.key() == state.key()
    hash(state.key())
    random_runner(twin, 11).play(twin)
    assert len(state.steps()) <= len(twin.steps())
    random_runner(state, 11).play(state)
    assert [e.to_json() for e in twin.history()] == [e.to_json() for e in state.history()]


@pytest.mark.parametrize(("ruleset_id", "name"), EXAMPLES)
def test_illegal_and_terminal_actions_are_refused(ruleset_id: str, name: str) -> None:
    from konflikt.core.actions import Action

    scenario = load_scenario(name)
    state = new_state(scenario)
    runner = random_runner(state, 5)
    while not state.is_terminal():
        before = len(state.steps())
        if state.current_player() == CHANCE:
            with pytest.raises(IllegalActionError):
                state.apply_action(Action.of("no-such-action-anywhere"))
        elif state.current_player() == SIMULTANEOUS:
            with pytest.raises(IllegalActionError):
                state.apply_actions({state.waiting_for()[0]: Action.of("no-such-action-anywhere")})
        else:
            with pytest.raises(IllegalActionError, match="no-such-action-anywhere"):
                state.apply_action(Action.of("no-such-action-anywhere"))
        assert len(state.steps()) == before, "a refused action must not be recorded"
        runner.step(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(Action.of("anything"))


@pytest.mark.parametrize(("ruleset_id", "name"), EXAMPLES)
def test_a_quiet_state_plays_exactly_as_a_narrated_one(ruleset_id: str, name: str) -> None:
    """Simulators silence the narration; the rules must not notice."""
    scenario = load_scenario(name)
    for seed in range(3):
        loud, quiet = new_state(scenario), new_state(scenario)
        quiet.quiet = True
        random_runner(loud, seed).play(loud)
        random_runner(quiet, seed).play(quiet)
        assert quiet.steps() == loud.steps()
        assert quiet.outcome() == loud.outcome()
        assert quiet.status() == loud.status()
