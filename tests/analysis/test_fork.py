"""``State.fork()`` (the fast copy) against ``State.deep_fork()`` (deepcopy).

The copies are equal, have the same key, and are independent of the original.
"""

from __future__ import annotations

import numpy as np
import pytest

from konflikt.core.conflict import new_state
from konflikt.core.ruleset import RandomPolicy
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE, SIMULTANEOUS, State

SCENARIOS = ["presja/knife_fight", "presja/skirmish", "fimbulfrost/dragon", "levald/duel", "pwge/duel", "pwge/chase"]


def step(state: State, rng: np.random.Generator) -> None:
    """One random legal move (the harness's way of playing)."""
    node = state.current_player()
    if node == CHANCE:
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
    elif node == SIMULTANEOUS:
        state.apply_actions({s: RandomPolicy().choose(state, s, rng) for s in state.waiting_for()})
    else:
        state.apply_action(RandomPolicy().choose(state, node, rng))


def comparable(state: State) -> dict[str, str]:
    return {k: repr(v) for k, v in vars(state).items() if k not in ("_steps", "_events")}


@pytest.mark.parametrize("name", SCENARIOS)
def test_fast_fork_equals_fork_and_is_independent(name: str) -> None:
    rng = np.random.default_rng(5)
    state = new_state(load_scenario(name))
    checked = 0
    while checked < 40:
        if state.is_terminal():
            state = new_state(load_scenario(name))
        quick, slow = state.fork(), state.deep_fork()
        assert type(quick) is type(state)
        assert comparable(quick) == comparable(slow) == comparable(state)
        assert quick.key() == slow.key() == state.key()
        assert quick.steps() == [] and quick.history() == []
        before = state.key()
        step(quick, np.random.default_rng(checked))
        assert state.key() == before  # moving the copy leaves the original alone
        step(state, rng)
        checked += 1
