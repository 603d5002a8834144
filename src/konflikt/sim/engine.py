"""Many conflicts: blocks with their own seeds, on one process or several, with a vectorised kernel when one fits.

Reproducibility: block ``i`` always holds the same conflicts and draws from ``SeedSequence(seed, spawn_key=(i,))``;
blocks are grouped into tasks by ``n`` alone, a task merges its blocks in order, and tasks are merged in task order,
so the numbers (floating-point sums included) depend on the seed and ``n`` only, never on the number of workers.

Every core: the worker processes live as long as the program (one pool, reused by every ``simulate``), a process
builds a run's kernel once (the parent keeps it for the next run of the same scenario, and a pool forked after the
parent built it inherits it and builds nothing), and tasks are several blocks early in a run and single blocks at
its end, so the parent merges few tallies and the workers finish within a block of each other.

Constant memory: a task's result is a :class:`Tally` (counters, not a row per conflict); the parent keeps at most
a few tasks submitted or finished-but-not-merged, and merges each as soon as the tasks before it are merged.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import signal
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from konflikt.core.batch import Tally
from konflikt.core.conflict import new_state
from konflikt.core.messages import _
from konflikt.core.scenario import Scenario, scenario_from_document
from konflikt.core.thousands import grouped
from konflikt.errors import KonfliktError
from konflikt.sim.reference import run_chunk
from konflikt.sim.runner import seat_policies

REFERENCE_CHUNK = 500
"""Conflicts in a block of the reference runner (a task is one block: it takes a second or so already)."""
KERNEL_CHUNK = 100_000
"""Conflicts in a block of a kernel: its arrays stay a few MB whatever ``-n``."""
TAPER = 16
"""A kernel task takes 1/TAPER of the blocks still to play (rounded up)...
"""
MAX_BLOCKS_PER_TASK = 4
"""...and at most this many: a fast kernel's task is a fraction of a second of merging-free play, a slow one's (pwge)
about ten seconds, so the progress bar moves and a Ctrl-C loses little. The last TAPER blocks are a task each, so
the workers' last tasks end within one block of each other (guided scheduling, decided by ``n`` alone)."""
MAX_CONFLICTS = 2**53
"""The most conflicts one run may be asked for: the largest count a float64 holds exactly.

Memory sets no limit (a block's arrays are 28-80 bytes a conflict, a few MB whatever ``n``: the module's docstring),
the count does: the shares, means and the progress bar divide by ``n`` or add to it as float64, which holds every
whole number only up to 2**53 (one more conflict past it changes nothing), and from ~1.8e308 on cannot hold ``n`` at
all (``-n 10**400`` ended in a traceback). Nobody loses a run by it: at the fastest kernel's ~9.6 million conflicts a
second on one core (Fimbulfrost's robbers), 2**53 conflicts take some 30 years."""


def check_count(n: int, what: str = "-n") -> None:
    """Refuse a count of conflicts past :data:`MAX_CONFLICTS` in one line naming it (``what``: the option or field)."""
    if n > MAX_CONFLICTS:
        shown = grouped(n) if n < 10**20 else _("a number of {digits} digits", digits=len(str(n)))
        raise KonfliktError(
            _(
                "{what} {shown}: more conflicts than a run counts exactly (at most {most} = 2**53)",
                what=what,
                shown=shown,
                most=grouped(MAX_CONFLICTS),
            )
        )


@dataclass
class SimResult:
    tally: Tally
    engine: str
    note: str
    seconds: float
    interrupted: bool
    worker_cpu: dict[int, float] = field(default_factory=dict)
    """CPU seconds per process that played conflicts (process id → seconds): how evenly the work was shared."""
    prepare_s: float = 0.0
    """Wall seconds before the first task: the scenario checked and the kernel built (0 when this process had it)."""
    worker_span: dict[int, tuple[float, float]] = field(default_factory=dict)
    """Per process, the wall clock (``time.time()``) when its first task started and its last one ended: the
    start-up latency and how unevenly the workers finished (the tail), in constant memory whatever ``-n``."""
    play_started: float = 0.0
    """``time.time()`` when the first task was handed out (``seconds`` counts from before the preparation)."""
    page_faults: int = 0
    """Minor page faults while the tasks played, over every process (the bench: a block's arrays reused, or not)."""


def choose_engine(
    scenario: Scenario, overrides: Mapping[str, object], policies: Mapping[str, str], engine: str
) -> tuple[str, Any, str]:
    """(engine used, kernel or None, why) for ``auto``, ``reference`` or ``vectorised``."""
    if engine not in ("auto", "reference", "vectorised"):
        raise KonfliktError(_("--engine takes auto, reference or vectorised, not {engine}", engine=repr(engine)))
    if engine == "reference":
        return "reference", None, _("reference runner over the State API (asked for)")
    factory = scenario.ruleset.kernel
    reason = _("{ruleset} has no vectorised kernel yet", ruleset=scenario.ruleset.id)
    if factory is not None:
        options = scenario.ruleset.options.resolve(scenario.options, dict(overrides))
        made = factory(scenario, options, seat_policies(scenario, policies))
        if not isinstance(made, str):
            return "vectorised", made, _("compiled kernel")
        reason = made
    if engine == "vectorised":
        raise KonfliktError(_("no vectorised kernel for this scenario: {reason}", reason=reason))
    return "reference", None, _("reference runner ({reason})", reason=reason)


Payload = tuple[Mapping[str, Any], str, Mapping[str, object], Mapping[str, str], str]
"""What a worker needs to rebuild the run: scenario document, its source, options, seat policies, engine asked."""
Task = tuple[str, Payload, int, int, int, int]
"""(payload key, payload, seed, first block, blocks, conflicts in the whole run)."""


@dataclass(frozen=True)
class Prepared:
    """A run made ready to play: the scenario, the kernel (None: the reference runner), the seats' policies, and
    the engine used with the reason shown to the user."""

    scenario: Scenario
    kernel: Any
    seats: Mapping[str, Any]
    used: str
    note: str


_CACHE: OrderedDict[str, Prepared] = OrderedDict()
"""Per process: payload key → the prepared run. Built once per process (or inherited by a forked worker), a few
kept: a second ``simulate`` of the same scenario, options and policies builds no kernel."""
CACHE_SIZE = 4


def payload_key(payload: Payload) -> str:
    return json.dumps(payload, sort_keys=True, default=str)


def _build(scenario: Scenario, overrides: Mapping[str, object], policies: Mapping[str, str], engine: str) -> Prepared:
    used, kernel, note = choose_engine(scenario, overrides, policies, engine)
    return Prepared(scenario, kernel, seat_policies(scenario, policies), used, note)


def prepare(
    scenario: Scenario, overrides: Mapping[str, object], policies: Mapping[str, str], engine: str
) -> tuple[str, Payload, Prepared]:
    """The run's key, payload and prepared engine: this process's earlier one for the same run (same document,
    source, options, policies, engine asked and ruleset object), else built now and kept."""
    payload: Payload = (scenario.document, scenario.source, dict(overrides), dict(policies), engine)
    key = payload_key(payload)
    entry = _CACHE.get(key)
    if entry is None or entry.scenario.ruleset is not scenario.ruleset:
        entry = _build(scenario, overrides, policies, engine)
    _remember(key, entry)
    return key, payload, entry


def _prepared(key: str, payload: Payload) -> Prepared:
    """A worker's prepared run: built on the first task of a process that did not inherit it, then reused."""
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    document, source, overrides, policies, engine = payload
    _remember(key, _build(scenario_from_document(document, source), overrides, policies, engine))
    return _CACHE[key]


def _remember(key: str, entry: Prepared) -> None:
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


KEEP_FREED_BYTES = 64 << 20
"""Freed memory glibc keeps for the next block instead of giving it back to the kernel (``M_TRIM_THRESHOLD``)..."""
MMAP_FROM_BYTES = 32 << 20
"""...and the size from which an array gets pages of its own (``M_MMAP_THRESHOLD``; glibc's largest) instead of the
heap.

A kernel block's arrays are several MB (fimbulfrost robbers at 100,000 conflicts: 8 MB of outputs, more in
temporaries), all freed when the block is tallied. By default glibc gives such memory back to the kernel (an
allocation above its moving mmap threshold is unmapped on free, a heap top above twice that is trimmed), so the
next block's arrays are fresh pages: ~2,300 page faults a block, each a 4 KiB page the kernel zeroes, 15-25% of the
block's CPU time in the kernel (``sys``) and memory traffic on top of the play's. With the two settings the freed
blocks are reused: no faults after the first block, and nothing grows with ``-n`` (the heap keeps at most what one
block used; ``tests/sim/test_scale.py`` compares peak RSS)."""
_MEMORY_KEPT: bool | None = None
"""Whether this process keeps freed memory (None: not asked yet)."""


def keep_freed_memory() -> bool:
    """Once per process that plays: tell glibc's allocator to keep freed blocks (see ``KEEP_FREED_BYTES``); False
    where there is no glibc (macOS, musl, Windows), which then plays as before, slower by the page faults."""
    global _MEMORY_KEPT
    if _MEMORY_KEPT is not None:
        return _MEMORY_KEPT
    _MEMORY_KEPT = False
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim, mmap = -1, -3  # M_TRIM_THRESHOLD, M_MMAP_THRESHOLD (malloc.h)
        _MEMORY_KEPT = bool(libc.mallopt(trim, KEEP_FREED_BYTES)) and bool(libc.mallopt(mmap, MMAP_FROM_BYTES))
    except (OSError, AttributeError):  # no C library by that name, or one without mallopt
        _MEMORY_KEPT = False
    return _MEMORY_KEPT


def _minor_faults() -> int:
    """This process's minor page faults so far (0 where ``resource`` does not exist: Windows)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _blocks(run: Prepared, overrides: Mapping[str, object], seed: int, n: int, size: int, indices: range) -> Tally:
    """The blocks ``indices`` of a run of ``n`` conflicts in blocks of ``size``, played in order into one tally, each
    with its own seed (``SeedSequence(seed, spawn_key=(index,))``): a task's and a sweep part's share of the run."""
    tally = Tally()
    for index in indices:
        count = min(size, n - index * size)
        seq = np.random.SeedSequence(seed, spawn_key=(index,))
        _block(run.scenario, run.kernel, run.seats, overrides, count, seq, tally)
    return tally


def _task(task: Task, size: int) -> dict[str, Any]:
    """Play a task's blocks in order into one tally; its plain-data form, with this process's CPU time and the
    wall clock at its start and end (the bench's timeline)."""
    key, payload, seed, first, blocks, n = task
    keep_freed_memory()
    started, wall, faults = time.process_time(), time.time(), _minor_faults()
    run = _prepared(key, payload)
    tally = _blocks(run, payload[2], seed, n, size, range(first, first + blocks))
    return {"tally": tally.to_json(), "pid": os.getpid(), "cpu": time.process_time() - started,
            "start": wall, "end": time.time(), "faults": _minor_faults() - faults}  # fmt: skip


def block_sizes() -> tuple[int, int]:
    """This process's block sizes (a kernel's, the reference runner's), for the parts it hands out."""
    return KERNEL_CHUNK, REFERENCE_CHUNK


def play_part(
    scenario: Scenario,
    n: int,
    seed: int,
    overrides: Mapping[str, object],
    part: int,
    parts: int,
    policies: Mapping[str, str] | None = None,
    engine: str = "auto",
    sizes: tuple[int, int] | None = None,
) -> tuple[Tally, str, str]:
    """Part ``part`` of ``parts`` of ``simulate(scenario, n, seed, …)``: the blocks ``[⌊part·B/parts⌋,
    ⌊(part+1)·B/parts⌋)`` of its ``B`` blocks, played in order into one tally, with the engine used and its note.

    A sweep splits its last cells so (``sweep.sweep_plan``): the parts of a run merged in order hold exactly the
    conflicts and the numbers of the whole run (the blocks and their seeds are the run's; the sums are of integers),
    so a cell's row does not depend on how it was split. The block size is the engine's, known only once the run is
    prepared here, which is why a part is a share of the blocks rather than a list of them; ``sizes`` (a kernel's
    block, the reference runner's) come from whoever planned the parts, as ``simulate`` hands its size to its tasks,
    so a worker forked in another setting plays the planner's blocks."""
    _used, _kernel, run = prepare(scenario, overrides, dict(policies or {}), engine)
    kernel_size, reference_size = sizes or (KERNEL_CHUNK, REFERENCE_CHUNK)
    size = kernel_size if run.kernel is not None else reference_size
    blocks = -(-n // size)
    keep_freed_memory()
    tally = _blocks(run, overrides, seed, n, size, range(part * blocks // parts, (part + 1) * blocks // parts))
    return tally, run.used, run.note


def chunks(n: int, size: int) -> Iterator[tuple[int, int]]:
    for index, start in enumerate(range(0, n, size)):
        yield index, min(size, n - start)


def task_plan(n: int, size: int, kernel: bool) -> Iterator[tuple[int, int, int]]:
    """``(first block, blocks, conflicts)`` per task: decided by ``n`` (never the worker count), one at a time.

    A kernel task is 1/TAPER of the blocks left, between 1 and MAX_BLOCKS_PER_TASK: large tasks while there is much
    to do (few merges), single blocks at the end (whichever worker is free takes the next, so none waits long for
    the other's last task). A reference block is a task already."""
    blocks = -(-n // size)
    first = 0
    while first < blocks:
        per = min(MAX_BLOCKS_PER_TASK, -(-(blocks - first) // TAPER)) if kernel else 1
        last = first + per
        yield first, per, min(n, last * size) - first * size
        first = last


WORKERS_PER_CORE = 4
"""``--workers`` is capped at this many processes a core (``sim --workers 300`` made 301 processes and 12 GB)."""


def worker_limit() -> int:
    """The most worker processes a run starts: :data:`WORKERS_PER_CORE` × the cores of this machine."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def capped_workers(workers: int) -> tuple[int, str | None]:
    """``workers`` within :func:`worker_limit`, and the one-line note to print when it was capped."""
    limit = worker_limit()
    if workers <= limit:
        return workers, None
    cores = os.cpu_count() or 1
    return limit, _(
        "note: --workers {workers}: using {limit} ({per_core} × the {cores} cores here)",
        workers=grouped(workers),
        limit=limit,
        per_core=WORKERS_PER_CORE,
        cores=cores,
    )


_POOL: ProcessPoolExecutor | None = None
_POOL_WORKERS = 0


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """The program's pool of ``workers`` processes: started once, reused by every later run of that size.

    Its processes are forked when the first task arrives, after the parent has built the kernel, so they start with it.
    """
    global _POOL, _POOL_WORKERS
    workers = capped_workers(workers)[0]  # every path that starts processes passes here
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


def in_order(pool: Executor, tasks: Iterator[Task], size: int, window: int) -> Iterator[dict[str, Any]]:
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
        finished, _pending = wait(running, return_when=FIRST_COMPLETED)
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
    scheduler: str | None = None,
) -> SimResult:
    """Play ``n`` conflicts of ``scenario`` and tally them; Ctrl-C stops cleanly with what was done.

    With ``scheduler`` (a Dask scheduler's address), or inside :func:`konflikt.sim.cluster.on_cluster`, the tasks
    run on that cluster instead of local processes: the same tasks, merged in the same order, so the same numbers."""
    if n < 1:
        raise KonfliktError(_("-n must be at least 1, not {n}", n=n))
    check_count(n)
    if workers < 1:
        raise KonfliktError(_("--workers must be at least 1, not {workers}", workers=workers))
    workers = capped_workers(workers)[0]
    overrides = dict(overrides or {})
    policies = dict(policies or {})
    humans = [s for s, p in seat_policies(scenario, policies).items() if p is None]
    if humans:
        raise KonfliktError(f"simulation needs a policy for every seat; human: {', '.join(humans)}")
    started = time.perf_counter()
    new_state(scenario, overrides)
    key, payload, run = prepare(scenario, overrides, policies, engine)  # built once: here, for every task
    size = KERNEL_CHUNK if run.kernel is not None else REFERENCE_CHUNK
    # a generator, never a list: ``-n 10**12`` is 10**7 tasks, and only a few are in memory at a time
    plan = task_plan(n, size, run.kernel is not None)
    tasks = ((key, payload, seed, first, blocks, n) for first, blocks, _ in plan)
    tally = Tally()
    cpu: dict[int, float] = {}
    span: dict[int, tuple[float, float]] = {}
    faults = 0
    prepared = time.perf_counter() - started
    play_started = time.time()
    interrupted = False

    def merge(result: dict[str, Any]) -> None:
        nonlocal faults
        tally.add_counts(result["tally"])
        faults += result["faults"]
        pid = result["pid"]
        cpu[pid] = cpu.get(pid, 0.0) + result["cpu"]
        first, last = span.get(pid, (result["start"], result["end"]))
        span[pid] = (min(first, result["start"]), max(last, result["end"]))
        if progress:
            progress(int(result["tally"]["n"]))

    try:
        from konflikt.sim.cluster import CLIENT, connect, threads

        client = connect(scheduler) if scheduler is not None else CLIENT.get()
        if client is not None:
            try:
                for result in in_order(client.get_executor(pure=False), tasks, size, 3 * threads(client)):
                    merge(result)
            finally:
                if scheduler is not None:
                    client.close()
        elif workers == 1:
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
    seconds = time.perf_counter() - started
    return SimResult(tally, run.used, run.note, seconds, interrupted, cpu, prepared, span, play_started, faults)
