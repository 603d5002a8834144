"""Chunks of conflicts over the State API (the reference runner), turned into :class:`Batch` results."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import numpy as np

from konflikt.core.batch import Batch, Coded
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario
from konflikt.core.state import State
from konflikt.sim.runner import Generators, Runner


def numbers(data: Mapping[str, object]) -> list[tuple[str, float]]:
    """The numeric fields of an outcome's data, one level of ``{participant: number}`` flattened as ``name.pid``."""
    out: list[tuple[str, float]] = []
    for name, value in data.items():
        if name == "rounds" or isinstance(value, bool):
            continue
        if isinstance(value, int | float):
            out.append((name, float(value)))
        elif isinstance(value, Mapping):
            out.extend(
                (f"{name}.{key}", float(v))
                for key, v in value.items()
                if isinstance(v, int | float) and not isinstance(v, bool)
            )
    return out


def run_chunk(
    scenario: Scenario,
    overrides: Mapping[str, object],
    seats: Mapping[str, Policy | None],
    n: int,
    seed: np.random.SeedSequence,
    start: State | None = None,
) -> Batch:
    """Play ``n`` conflicts with one pair of generator streams from ``seed``: from the opening, or each from a copy
    of ``start`` (a conflict some way in: ``odds --saved`` out of exact reach)."""
    runner = Runner(seats, Generators.from_seed(seed), trusted=True)
    winners: list[Hashable] = []
    endings: list[str] = []
    fates: dict[str, list[str]] = {p.id: [] for p in scenario.participants()}
    length = np.empty(n, dtype=np.int64)
    key = scenario.ruleset.length_key
    rounds = np.empty(n, dtype=np.int64) if key is not None else None
    resources: dict[str, list[float]] = {}
    opening = new_state(scenario, dict(overrides)) if start is None else start.fork()
    opening.quiet = True  # nobody reads the narration of a simulated conflict
    for i in range(n):
        state = opening.fork()
        runner.play(state)
        outcome = state.outcome()
        winners.append(outcome.winners)
        endings.append(outcome.ending)
        for pid, fate in outcome.participants.items():
            fates.setdefault(pid, []).append(fate)
        data = outcome.data
        length[i] = int(data.get("rounds", len(state.steps())))
        if rounds is not None and key is not None:
            rounds[i] = int(data[key])
        for name, value in numbers(data):
            resources.setdefault(name, []).append(float(value))
    return Batch(
        Coded.of(winners),
        Coded.of(list(endings)),
        {pid: Coded.of(list(f)) for pid, f in fates.items()},
        length,
        {k: np.asarray(v) for k, v in resources.items() if len(v) == n},
        rounds,
    )
