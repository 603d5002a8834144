"""Many conflicts: chunks with their own seeds, on one process or several, with a vectorised kernel when one fits.

Reproducibility: chunk ``i`` always holds the same conflicts and draws from ``SeedSequence(seed, spawn_key=(i,))``,
and chunk results are merged in chunk order, so the numbers depend on the seed and ``n`` only, never on the
number of workers.
"""

from __future__ import annotations

import json
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from konflikt.core.batch import Tally
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, scenario_from_document
from konflikt.errors import KonfliktError
from konflikt.sim.reference import run_chunk
from konflikt.sim.runner import seat_policies

REFERENCE_CHUNK = 500
KERNEL_CHUNK = 100_000


@dataclass
class SimResult:
    tally: Tally
    engine: str
    note: str
    seconds: float
    interrupted: bool


def choose_engine(
    scenario: Scenario, overrides: Mapping[str, object], policies: Mapping[str, str], engine: str
) -> tuple[str, Any, str]:
    """(engine used, kernel or None, why) for ``auto``, ``reference`` or ``vectorised``."""
    if engine not in ("auto", "reference", "vectorised"):
        raise KonfliktError(f"--engine takes auto, reference or vectorised, not {engine!r}")
    if engine == "reference":
        return "reference", None, "reference runner over the State API (asked for)"
    factory = scenario.ruleset.kernel
    reason = f"{scenario.ruleset.id} has no vectorised kernel yet"
    if factory is not None:
        options = scenario.ruleset.options.resolve(scenario.options, dict(overrides))
        made = factory(scenario, options, seat_policies(scenario, policies))
        if not isinstance(made, str):
            return "vectorised", made, "vectorised numpy kernel"
        reason = made
    if engine == "vectorised":
        raise KonfliktError(f"no vectorised kernel for this scenario: {reason}")
    return "reference", None, f"reference runner ({reason})"


_CACHE: dict[str, Any] = {}


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


Job = tuple[Mapping[str, Any], str, Mapping[str, object], Mapping[str, str], str, int, int, int]


def _chunk(job: Job) -> dict[str, Any]:
    document, source, overrides, policies, engine, n, seed, index = job
    key = json.dumps([document, source, overrides, policies, engine], sort_keys=True, default=str)
    if key not in _CACHE:
        scenario = scenario_from_document(document, source)
        _, kernel, _ = choose_engine(scenario, overrides, policies, engine)
        _CACHE.clear()
        _CACHE[key] = (scenario, kernel, seat_policies(scenario, policies))
    scenario, kernel, seats = _CACHE[key]
    seq = np.random.SeedSequence(seed, spawn_key=(index,))
    tally = Tally()
    if kernel is not None:
        batch = kernel.run(n, np.random.default_rng(seq))
        key = scenario.ruleset.length_key
        if batch.rounds is None and key is not None and key in batch.resources:
            batch.rounds = batch.resources[key].astype(np.int64)
        tally.add(batch)
    else:
        tally.add(run_chunk(scenario, overrides, seats, n, seq))
    return tally.to_json()


def chunks(n: int, size: int) -> Iterator[tuple[int, int]]:
    for index, start in enumerate(range(0, n, size)):
        yield index, min(size, n - start)


def bounded_map(pool: Executor, jobs: Iterator[Job], window: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(conflicts, result)`` per job in job order, with at most ``window`` jobs submitted and not yet merged.

    Why not ``pool.map``: it submits every job at once, so a huge ``-n`` holds millions of futures in memory.
    """
    pending: deque[tuple[int, Future[dict[str, Any]]]] = deque()
    for job in jobs:
        pending.append((job[5], pool.submit(_chunk, job)))
        if len(pending) >= window:
            count, future = pending.popleft()
            yield count, future.result()
    while pending:
        count, future = pending.popleft()
        yield count, future.result()


def simulate(
    scenario: Scenario,
    n: int,
    seed: int,
    overrides: Mapping[str, object] | None = None,
    policies: Mapping[str, str] | None = None,
    engine: str = "auto",
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> SimResult:
    """Play ``n`` conflicts of ``scenario`` and tally them; Ctrl-C stops cleanly with what was done."""
    if n < 1:
        raise KonfliktError(f"-n must be at least 1, not {n}")
    if workers < 1:
        raise KonfliktError(f"--workers must be at least 1, not {workers}")
    overrides = dict(overrides or {})
    policies = dict(policies or {})
    humans = [s for s, p in seat_policies(scenario, policies).items() if p is None]
    if humans:
        raise KonfliktError(f"simulation needs a policy for every seat; human: {', '.join(humans)}")
    new_state(scenario, overrides)
    used, kernel, note = choose_engine(scenario, overrides, policies, engine)
    size = KERNEL_CHUNK if kernel is not None else REFERENCE_CHUNK
    job_engine = engine if used == "vectorised" else "reference"
    # a generator, never a list: ``-n 10**12`` is 10**7 chunks, and only a few are in memory at a time
    jobs = (
        (scenario.document, scenario.source, overrides, policies, job_engine, count, seed, index)
        for index, count in chunks(n, size)
    )
    tally = Tally()
    started = time.perf_counter()
    interrupted = False
    try:
        if workers == 1:
            for job in jobs:
                tally.add_counts(_chunk(job))
                if progress:
                    progress(job[5])
        else:
            with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker) as pool:
                try:
                    for count, result in bounded_map(pool, jobs, 2 * workers):
                        tally.add_counts(result)
                        if progress:
                            progress(count)
                except KeyboardInterrupt:
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
    except KeyboardInterrupt:
        interrupted = True
    return SimResult(tally, used, note, time.perf_counter() - started, interrupted)
