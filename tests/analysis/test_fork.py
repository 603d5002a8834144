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


def test_pwge_exchange_records_are_copied_field_by_field_not_shared() -> None:
    """PWGE's exchange, contest and damage roll are mutable ``slots`` dataclasses, copied field by field
    (``core.copying._slotted``): each copy is a new record equal to the original, and topping in the copy
    leaves the original's roll alone."""
    rng = np.random.default_rng(3)
    state = new_state(load_scenario("pwge/duel"))
    seen: set[str] = set()
    while len(seen) < 2:
        if state.is_terminal():
            state = new_state(load_scenario("pwge/duel"))
        for name in ("ex", "contest", "dmg"):
            record = getattr(state, name)
            if record is None:
                continue
            copied = getattr(state.fork(), name)
            assert copied is not record and type(copied) is type(record)
            assert repr(copied) == repr(record)
            if name != "ex":
                seen.add(name)
                before = repr(record)
                if name == "contest":
                    copied.declined, copied.a_tops = (9,), 9
                else:
                    copied.tops, copied.stage = 9, "cct"
                assert repr(record) == before
        step(state, rng)
