"""Many conflicts: blocks with their own seeds, on one process or several, with a vectorised kernel when one fits.

Reproducibility: block ``i`` always holds the same conflicts and draws from ``SeedSequence(seed, spawn_key=(i,))``;
blocks are grouped into tasks by ``n`` alone, a task merges its blocks in order, and tasks are merged in task order,
so the numbers (floating-point sums included) depend on the seed and ``n`` only, never on the number of workers.

Every core: the worker processes live as long as the program (one pool, reused by every ``simulate``), a worker
builds a scenario's kernel once (a pool forked after the parent built it inherits it and builds nothing), and a
task is many blocks, so the parent merges a few small tallies instead of one per block.

Constant memory: a task's result is a :class:`Tally` (counters, not a row per conflict); the parent keeps at most
a few tasks submitted or finished-but-not-merged, and merges each as soon as the tasks before it are merged.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from konflikt.core.batch import Tally
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, scenario_from_document
from konflikt.errors import KonfliktError
from konflikt.sim.reference import run_chunk
from konflikt.sim.runner import seat_policies

REFERENCE_CHUNK = 500
"""Conflicts in a block of the reference runner (a task is one block: it takes a second or so already)."""
KERNEL_CHUNK = 100_000
"""Conflicts in a block of a kernel: its arrays stay a few MB whatever ``-n``."""
TASKS_WANTED = 16
"""A kernel run is cut into about this many tasks (so two or more workers share it evenly)..."""
MAX_BLOCKS_PER_TASK = 4
"""...of at most this many blocks each: a fast kernel's task is a fraction of a second of merging-free play, a slow
one's (pwge) about ten seconds, so the progress bar moves and a Ctrl-C loses little."""


@dataclass
class SimResult:
    tally: Tally
    engine: str
    note: str
    seconds: float
    interrupted: bool
    worker_cpu: dict[int, float] = field(default_factory=dict)
    """CPU seconds per process that played conflicts (process id → seconds): how evenly the work was shared."""


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


Payload = tuple[Mapping[str, Any], str, Mapping[str, object], Mapping[str, str], str]
"""What a worker needs to rebuild the run: scenario document, its source, options, seat policies, engine."""
Task = tuple[str, Payload, int, int, int, int]
"""(payload key, payload, seed, first block, blocks, conflicts in the whole run)."""

_CACHE: OrderedDict[str, tuple[Scenario, Any, Mapping[str, Any]]] = OrderedDict()
"""Per process: payload key → (scenario, kernel or None, seats). Built once per process, a few kept."""
CACHE_SIZE = 4


def payload_key(payload: Payload) -> str:
    return json.dumps(payload, sort_keys=True, default=str)


def _prepared(key: str, payload: Payload) -> tuple[Scenario, Any, Mapping[str, Any]]:
    """The scenario, kernel and seats of a payload: built on the first task of a process, then reused."""
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    document, source, overrides, policies, engine = payload
    scenario = scenario_from_document(document, source)
    _, kernel, _ = choose_engine(scenario, overrides, policies, engine)
    _remember(key, (scenario, kernel, seat_policies(scenario, policies)))
    return _CACHE[key]


def _remember(key: str, entry: tuple[Scenario, Any, Mapping[str, Any]]) -> None:
    _CACHE[key] = entry
    _CACHE.move_to_end(key)
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)


def _block(scenario: Scenario, kernel: Any, seats: Mapping[str, Any], overrides: Mapping[str, object],
           n: int, seq: np.random.SeedSequence, tally: Tally) -> None:  # fmt: skip
    if kernel is not None:
        batch = kernel.run(n, np.random.default_rng(seq))
        key = scenario.ruleset.length_key
        if batch.rounds is None and key is not None and key in batch.resources:
            batch.rounds = batch.resources[key].astype(np.int64)
        tally.add(batch)
    else:
        tally.add(run_chunk(scenario, overrides, seats, n, seq))


def _task(task: Task, size: int) -> dict[str, Any]:
    """Play a task's blocks in order into one tally; its plain-data form, with this process's CPU time."""
    key, payload, seed, first, blocks, n = task
    started = time.process_time()
    scenario, kernel, seats = _prepared(key, payload)
    tally = Tally()
    for index in range(first, first + blocks):
        count = min(size, n - index * size)
        _block(scenario, kernel, seats, payload[2], count, np.random.SeedSequence(seed, spawn_key=(index,)), tally)
    return {"tally": tally.to_json(), "pid": os.getpid(), "cpu": time.process_time() - started}


def chunks(n: int, size: int) -> Iterator[tuple[int, int]]:
    for index, start in enumerate(range(0, n, size)):
        yield index, min(size, n - start)


def task_plan(n: int, size: int, kernel: bool) -> Iterator[tuple[int, int, int]]:
    """``(first block, blocks, conflicts)`` per task: decided by ``n`` (never the worker count), one at a time."""
    blocks = -(-n // size)
    per = min(MAX_BLOCKS_PER_TASK, max(1, blocks // TASKS_WANTED)) if kernel else 1
    for first in range(0, blocks, per):
        last = min(blocks, first + per)
        yield first, last - first, min(n, last * size) - first * size


_POOL: ProcessPoolExecutor | None = None
_POOL_WORKERS = 0


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """The program's pool of ``workers`` processes: started once, reused by every later run of that size.

    Its processes are forked when the first task arrives, after the parent has built the kernel, so they start with it.
    """
    global _POOL, _POOL_WORKERS
    if _POOL is None or workers != _POOL_WORKERS:
        close_pool()
        _POOL = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker)
        _POOL_WORKERS = workers
    return _POOL


def close_pool(wait: bool = False, kill: bool = False) -> None:
    """Stop the worker processes (the next run with workers starts new ones); pending tasks are dropped.

    ``kill``: end the tasks they are playing too (after a Ctrl-C nobody reads them, and a task of a slow kernel
    would hold the program up to a minute before it exits).
    """
    global _POOL, _POOL_WORKERS
    if _POOL is not None:
        if kill:
            for process in list(_POOL._processes.values()):  # the executor offers no public way to stop a task
                process.terminate()
        _POOL.shutdown(wait=wait, cancel_futures=True)
    _POOL, _POOL_WORKERS = None, 0


def in_order(pool: ProcessPoolExecutor, tasks: Iterator[Task], size: int, window: int) -> Iterator[dict[str, Any]]:
    """Each task's result in task order, as soon as it and the ones before it are done.

    At most ``window`` tasks are submitted or finished-but-waiting at any time: memory does not grow with ``-n``
    (``pool.map`` would submit every task at once), and a worker that finishes early gets the next task at once
    instead of waiting for the slowest one before it.
    """
    running: dict[Future[dict[str, Any]], int] = {}
    done: dict[int, dict[str, Any]] = {}
    submitted = merged = 0
    exhausted = False
    while True:
        while not exhausted and len(running) + len(done) < window:
            task = next(tasks, None)
            if task is None:
                exhausted = True
                break
            running[pool.submit(_task, task, size)] = submitted
            submitted += 1
        if merged in done:
            yield done.pop(merged)
            merged += 1
            continue
        if not running:
            return
        finished, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in finished:
            done[running.pop(future)] = future.result()


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
    payload: Payload = (scenario.document, scenario.source, overrides, policies,
                        engine if used == "vectorised" else "reference")  # fmt: skip
    key = payload_key(payload)
    _remember(key, (scenario, kernel, seat_policies(scenario, policies)))  # built once: here, for every task
    # a generator, never a list: ``-n 10**12`` is 10**7 tasks, and only a few are in memory at a time
    tasks = ((key, payload, seed, first, blocks, n) for first, blocks, _ in task_plan(n, size, kernel is not None))
    tally = Tally()
    cpu: dict[int, float] = {}
    started = time.perf_counter()
    interrupted = False

    def merge(result: dict[str, Any]) -> None:
        tally.add_counts(result["tally"])
        cpu[result["pid"]] = cpu.get(result["pid"], 0.0) + result["cpu"]
        if progress:
            progress(int(result["tally"]["n"]))

    try:
        if workers == 1:
            for task in tasks:
                merge(_task(task, size))
        else:
            pool = worker_pool(workers)
            try:
                for result in in_order(pool, tasks, size, 3 * workers):
                    merge(result)
            except BaseException:  # Ctrl-C, or a worker that died: the next run starts clean processes
                close_pool(kill=True)
                raise
    except KeyboardInterrupt:
        interrupted = True
    return SimResult(tally, used, note, time.perf_counter() - started, interrupted, cpu)
