"""One harness for the kernels that record their dice: replay each conflict's dice through the State, compare all.

A kernel's ``run_traced`` returns its batch and a trace of every die it drew. Each conflict is then played again by
the reference :class:`State` with the same seat policies, its chance nodes answered from the trace by a
ruleset-specific ``roll_for(trace, j)`` (the State asks for a die; the trace says which one the kernel drew there).
Every label and number must agree, conflict by conflict: winners, ending, length, each participant's fate, each
outcome number. Used by the Le våld and Fimbulfrost kernel tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np

from konflikt.core.actions import ChanceOutcome
from konflikt.core.batch import Batch
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario
from konflikt.core.state import State
from konflikt.sim.runner import Generators, Runner, seat_policies

Trace = Mapping[str, np.ndarray]
RollFor = Callable[[Trace, int], Callable[[State], ChanceOutcome]]


class TracedKernel(Protocol):
    def run_traced(self, n: int, rng: np.random.Generator) -> tuple[Batch, Trace]: ...


def replayed(state: State, length: Callable[[State], int], drop: frozenset[str]) -> dict[str, Any]:
    """What the State says of a finished conflict, in the kernel's terms."""
    outcome = state.outcome()
    return {
        "winners": outcome.winners,
        "ending": outcome.ending,
        "length": length(state),
        **outcome.participants,
        **{k: float(v) for k, v in outcome.data.items() if k not in drop},
    }


def kernels(batch: Batch, j: int) -> dict[str, Any]:
    """What the kernel's batch says of conflict ``j``."""
    return {
        "winners": batch.winners.labels[batch.winners.codes[j]],
        "ending": batch.endings.labels[batch.endings.codes[j]],
        "length": int(batch.length[j]),
        **{pid: c.labels[c.codes[j]] for pid, c in batch.fates.items()},
        **{k: float(v[j]) for k, v in batch.resources.items()},
    }


def assert_kernel_replays(
    kernel: TracedKernel,
    scenario: Scenario,
    overrides: Mapping[str, Any],
    n: int,
    seed: int,
    roll_for: RollFor,
    length: Callable[[State], int] = lambda state: len(state.steps()),
    drop: frozenset[str] = frozenset(),
) -> None:
    """The kernel's ``n`` conflicts, replayed with its dice through the State, agree in every label and number.

    ``length`` reads the State's length in the kernel's unit (steps by default, rounds for Le våld); ``drop`` names
    outcome numbers that are the length itself, not resources.
    """
    batch, trace = kernel.run_traced(n, np.random.default_rng(seed))
    seats = seat_policies(scenario)
    for j in range(n):
        state = new_state(scenario, dict(overrides))
        Runner(seats, Generators.from_seed(0), roll=roll_for(trace, j)).play(state)
        want, got = replayed(state, length, drop), kernels(batch, j)
        assert got == want, f"conflict {j}: " + "; ".join(
            f"{k}: kernel {got.get(k)!r}, state {want[k]!r}" for k in want if got.get(k) != want[k]
        )
