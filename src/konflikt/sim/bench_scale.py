"""``konflikt bench``'s "every core" half: workers and Dask against one process, memory against ``-n``, and which
bundled scenarios a kernel plays.

The machine may be shared, so wall-clock scaling measures the neighbours as well as konflikt. Beside it each row
gives the load average and the CPU seconds every process spent: ``cpu_scaling`` (one worker's CPU time over the
busiest worker's, with the parent's merging counted) is the scaling the same split of work gives on idle cores.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from konflikt.core.scenario import Scenario, bundled_examples, load_scenario, read_toml
from konflikt.sim.engine import KERNEL_CHUNK, choose_engine, close_pool, simulate, task_plan, worker_pool
from konflikt.sim.sweep import SweepSpec, base_scenario, cell_job, cells, load_spec, run_sweep, sweep_plan

SCALING_SCENARIO = "fimbulfrost/robbers"
"""The fastest kernel, the hardest to scale: the least work per task, so the most merging and messaging per second
of play."""
SCALING_SECONDS = (1.5, 4.0)
"""Wall seconds of one worker's run (``--quick``, otherwise): ``n`` is chosen from the rate measured just before,
so a faster kernel or a quieter machine plays more conflicts and the run stays long beside its fixed costs."""


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _timed_run(scenario: Scenario, n: int, workers: int) -> dict[str, Any]:
    """One ``simulate`` with its wall time, the CPU time of every process, and (with workers) its timeline: how long
    the first task waited after the run began, and how far apart the workers' last tasks ended (the tail)."""
    parent = _cpu_self()
    result = simulate(scenario, n, 1, workers=workers)
    finished = time.time()
    parent = _cpu_self() - parent
    blocks = -(-n // KERNEL_CHUNK)
    row: dict[str, Any] = {"s": result.seconds, "engine": result.engine, "n": result.tally.n,
                           "prepare_s": result.prepare_s, "faults_per_block": result.page_faults / blocks}  # fmt: skip
    if workers == 1:  # the one process prepared, played and merged: all of it is the critical path
        return {**row, "cpu": parent, "critical_cpu": parent}
    spans = list(result.worker_span.values())
    busiest = max(result.worker_cpu.values(), default=0.0)
    return {
        **row, "cpu": sum(result.worker_cpu.values()) + parent, "critical_cpu": busiest + parent,
        "parent_cpu": parent, "worker_cpu": sorted(result.worker_cpu.values(), reverse=True),
        "first_task_s": min(first for first, _ in spans) - result.play_started,
        "tail_s": max(last for _, last in spans) - min(last for _, last in spans),
        "merge_after_s": finished - max(last for _, last in spans),
    }  # fmt: skip


def warm_start(name: str, workers: int) -> tuple[Scenario, dict[str, float]]:
    """Start-up, timed apart from the runs: the parent builds the kernel and plays a block (numba compiles or loads
    its cache), then the pool forks, so every worker starts with the kernel built and compiled."""
    close_pool()
    started = time.perf_counter()
    scenario = load_scenario(name)
    simulate(scenario, 1000, 0, workers=1)
    kernel = time.perf_counter() - started
    pool = worker_pool(workers)
    list(pool.map(abs, range(4 * workers)))  # the processes exist from here on
    pool_s = time.perf_counter() - started - kernel
    return scenario, {"kernel_s": kernel, "pool_s": pool_s}


PAIRS = (3, 5)
"""Interleaved pairs (one worker, then the workers) timed for a row (``--quick``, otherwise); the row is the pair
with the median scaling. This host's two cores do not always run alike: on the quiet machine three pairs in fresh
processes read 2.02×, 2.18× and 1.51× (the last with 30% more CPU for the same conflicts), so the best time of
each side, taken apart, paired a fast moment with a slow one; the median pair is the typical run, and every pair's
ratio is printed beside it."""


def worker_scaling(quick: bool = False, workers: int = 2) -> list[dict[str, Any]]:
    """``sim --workers 1`` and ``--workers N`` side by side, same scenario, seed and ``n``, in interleaved pairs.

    The start-up (kernel built, pool started) is timed apart: a pool lasts the program, and the parent keeps the
    kernel, so a later run of the same scenario pays for neither."""
    scenario, startup = warm_start(SCALING_SCENARIO, workers)
    probe = 10 * KERNEL_CHUNK
    rate = probe / _timed_run(scenario, probe, 1)["s"]
    n = max(probe, round(rate * SCALING_SECONDS[0 if quick else 1] / KERNEL_CHUNK) * KERNEL_CHUNK)
    load_before = _load()
    pairs = []
    for _ in range(PAIRS[0 if quick else 1]):  # interleaved: a neighbour's burst hits both sides alike
        one = _timed_run(scenario, n, 1)
        pairs.append((one["s"] / (many := _timed_run(scenario, n, workers))["s"], one, many))
    _, one, many = sorted(pairs, key=lambda pair: pair[0])[len(pairs) // 2]
    timeline = {k: many[k] for k in ("prepare_s", "first_task_s", "tail_s", "merge_after_s")}
    return [{
        "scenario": SCALING_SCENARIO, "engine": one["engine"], "n": n, "workers": workers,
        "tasks": sum(1 for _ in task_plan(n, KERNEL_CHUNK, True)),
        "one_worker_s": one["s"], "workers_s": many["s"],
        "scaling": one["s"] / many["s"], "pairs": [round(ratio, 3) for ratio, _, _ in pairs],
        "cpu_scaling": one["cpu"] / many["critical_cpu"] if many["critical_cpu"] else None,
        "cpu_overhead": many["cpu"] / one["cpu"] - 1 if one["cpu"] else None,
        "cpu_ns_per_conflict": {"one": 1e9 * one["cpu"] / n, "workers": 1e9 * many["cpu"] / n},
        "parent_cpu_s": many["parent_cpu"], "worker_cpu_s": many["worker_cpu"],
        "page_faults_per_block": {"one": one["faults_per_block"], "workers": many["faults_per_block"]},
        "timeline": timeline, "startup": startup,
        "target": 1.8 if workers == 2 else None, "pool_start_s": startup["pool_s"],
        "load_average": [load_before, _load()], "cores": os.cpu_count(),
    }]  # fmt: skip


SWEEP_SPEC = "sweeps/levald_weapons.toml"
"""The bundled weapon sweep: 36 cells of the levald duel (kernel), ``n`` raised so a cell is worth a task."""
CELL_SECONDS = (0.15, 0.4)
"""Wall seconds of a cell on one worker (``--quick``, otherwise): ``n`` per cell is chosen from a cell timed on a
warm worker, so Dask's few milliseconds a task stay small beside the work."""


def _worker_cpu(client: Any) -> dict[str, float]:
    return dict(client.run(_cpu_self))


def _warm_cell(job: dict[str, Any]) -> float:
    """Run one small cell on a Dask worker (imports, numba's cache, the kernel's tables); its wall seconds."""
    from konflikt.sim.sweep import run_cell

    started = time.perf_counter()
    run_cell(job)
    return time.perf_counter() - started


def _task_stream(records: list[dict[str, Any]]) -> dict[str, Any]:
    """From Dask's task stream: each worker's compute seconds and when its last cell ended, relative to the first
    start: the tail is how long one worker idled while another finished its last cell."""
    spans: dict[str, list[float]] = {}
    busy: dict[str, float] = {}
    for record in records:
        for part in record.get("startstops", ()):
            if part.get("action") != "compute":
                continue
            worker = str(record.get("worker"))
            start, stop = float(part["start"]), float(part["stop"])
            first, last = spans.get(worker, [start, stop])
            spans[worker] = [min(first, start), max(last, stop)]
            busy[worker] = busy.get(worker, 0.0) + stop - start
    if not spans:
        return {}
    begin = min(first for first, _ in spans.values())
    ends = [last for _, last in spans.values()]
    return {"compute_s": sorted(busy.values(), reverse=True), "span_s": max(ends) - begin,
            "tail_s": max(ends) - min(ends)}  # fmt: skip


class _ShutdownTimeouts(logging.Filter):
    """Counts and keeps off stderr asyncio's "Future exception was never retrieved" for a ``TimeoutError``: on a
    loaded machine a LocalCluster's nanny may wait longer than its few seconds for a worker process to exit at
    shutdown, and the timeout of that wait, which nobody awaits, is all that message says. Anything else passes."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if str(record.msg).startswith("Future exception was never retrieved") and isinstance(exc, TimeoutError):
            self.count += 1
            return False
        return True


def dask_scaling(quick: bool = False, workers: int = 2) -> dict[str, Any]:
    """``sweep --engine dask`` on one worker and on ``workers`` of one LocalCluster, through one client, in
    interleaved pairs (the one-worker runs held to the cluster's first worker); the cluster's start, the client's
    connection and each worker's first cell (imports, numba's cache) are timed apart as start-up."""
    from importlib.util import find_spec

    if find_spec("distributed") is None:
        from konflikt.sim.cluster import INSTALL

        return {"skipped": INSTALL}
    path = bundled_examples() / SWEEP_SPEC
    spec = load_spec(path)
    scenario_path, _ = base_scenario(spec, path)
    first_cell = cell_job(spec, read_toml(scenario_path), str(scenario_path), cells(spec)[0])
    quiet = _ShutdownTimeouts()
    logging.getLogger("asyncio").addFilter(quiet)
    try:
        return _dask_runs(quick, workers, path, spec, first_cell, quiet)
    finally:
        gc.collect()  # an unretrieved future logs when it is collected: while the filter is still in place
        logging.getLogger("asyncio").removeFilter(quiet)


DASK_PAIRS = (2, 3)
"""Interleaved pairs of the Dask row (``--quick``, otherwise): a pair is two sweeps of ~15 and ~7 s."""
DASK_SATURATION = 2.0
"""Tasks a Dask worker holds per thread (``distributed.scheduler.worker-saturation``): one playing and the next
waiting, so a worker never waits a scheduler round trip between cells (~9 ms with one worker and ~17 ms with two
at 1.0: 7% of a 0.4 s cell, the gap between the quiet machine's 94% CPU split and its 88% wall efficiency). At 1.0
no worker kept a whole cell queued while the other idled at the end; the sweep's last cells now come in small
parts (``sweep.sweep_plan``), so what a worker holds at the end is a part."""


def _dask_runs(
    quick: bool, workers: int, path: Path, spec: SweepSpec, first_cell: dict[str, Any], quiet: _ShutdownTimeouts
) -> dict[str, Any]:
    import dask
    from distributed import Client, LocalCluster, get_task_stream

    started = time.perf_counter()
    with (
        dask.config.set({"distributed.scheduler.worker-saturation": DASK_SATURATION}),
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,  # type: ignore[no-untyped-call]
            silence_logs=logging.ERROR,
        ) as cluster,  # fmt: skip
        Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):
        client.wait_for_workers(workers)
        cluster_s = time.perf_counter() - started
        warmed = client.run(_warm_cell, {**first_cell, "n": 100})
        startup: dict[str, Any] = {"cluster_s": cluster_s, "first_cell_s": list(warmed.values())}
        per_cell = max(client.run(_warm_cell, {**first_cell, "n": 20_000}).values())
        n = max(2000, int(round(20_000 * CELL_SECONDS[0 if quick else 1] / per_cell, -3)))
        spec = spec.model_copy(update={"n": n})
        first_worker = sorted(client.scheduler_info()["workers"])[:1]

        def timed(only_on: list[str] | None) -> dict[str, Any]:
            before = _worker_cpu(client)
            with get_task_stream(client) as stream:
                begun = time.perf_counter()
                run_sweep(spec, path, "dask", client=client, only_on=only_on)
                wall = time.perf_counter() - begun
            after = _worker_cpu(client)
            used = [after[w] - before.get(w, 0.0) for w in after]
            return {"s": wall, "cpu": sum(used), "busiest": max(used), "stream": _task_stream(stream.data)}

        load = _load()
        pairs = []
        for _ in range(DASK_PAIRS[0 if quick else 1]):  # interleaved on one cluster: one worker, then all of them
            one = timed(first_worker)
            many = timed(None)
            pairs.append((one["s"] / (workers * many["s"]), one, many))
        load_after = _load()
    efficiency, one, many = sorted(pairs, key=lambda pair: pair[0])[len(pairs) // 2]
    return {
        "sweep": SWEEP_SPEC, "cells": len(cells(spec)), "tasks": len(sweep_plan(len(cells(spec)))),
        "n_per_cell": spec.n, "workers": workers,
        "one_worker_s": one["s"], "workers_s": many["s"],
        "efficiency": efficiency, "pairs": [round(e, 3) for e, _, _ in pairs],
        "cpu_efficiency": one["cpu"] / (workers * many["busiest"]) if many["busiest"] else None,
        "task_stream": {"one": one["stream"], "workers": many["stream"]}, "startup": startup,
        "shutdown_timeouts": quiet.count, "saturation": DASK_SATURATION,
        "target": 0.9, "load_average": [[load, load_after]] * 2, "cores": os.cpu_count(),
    }  # fmt: skip


PEAK_RSS = """
import signal
signal.signal(signal.SIGINT, signal.SIG_IGN)  # a stop before the run plays would be a traceback, not a row
import json, multiprocessing, resource, sys
from konflikt.core.scenario import load_scenario
from konflikt.sim import engine
from konflikt.sim.engine import close_pool, simulate
name, n, workers, block = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
engine.KERNEL_CHUNK = block or engine.KERNEL_CHUNK
scenario = load_scenario(name)
# the kernel built and its compiled code loaded before the clock starts (a second of imports under load): a stop
# then always lands in play, where it is caught, never in an import
simulate(scenario, 1, 0, workers=1)
# set, not inherited: a shell starts a background job with Ctrl-C ignored, and the run would never stop
signal.signal(signal.SIGINT, signal.default_int_handler)
print("playing", flush=True)  # from here a Ctrl-C stops the run with the conflicts merged so far
result = simulate(scenario, n, 1, workers=workers)
signal.signal(signal.SIGINT, signal.SIG_IGN)
close_pool(wait=True)
for worker in multiprocessing.active_children():  # after a Ctrl-C the pool is let go: wait for its processes
    worker.join()
def own_peak_mb():
    # this program's own peak (VmHWM): ru_maxrss counts the process that started it as well, whose pages the
    # child held between fork and exec (a 300 MB bench read as a 345 MB run)
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"n": result.tally.n, "s": result.seconds, "interrupted": result.interrupted,
                  "parent_mb": own_peak_mb(),
                  "worker_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024 if workers > 1 else None}))
"""


def peak_rss(name: str, n: int, workers: int = 1, block: int = 0, stop_after: float | None = None) -> dict[str, Any]:
    """Peak resident memory of ``konflikt sim NAME -n N --workers W`` in a fresh process (and its busiest worker);
    ``block`` conflicts a kernel block instead of ``KERNEL_CHUNK`` (a test's many blocks from a small ``n``);
    ``stop_after`` seconds, a Ctrl-C (the row then says how many conflicts were done)."""
    args = [sys.executable, "-c", PEAK_RSS, name, str(n), str(workers), str(block)]
    # a session of its own: the run and its workers can be ended together, whatever happens to this process
    with subprocess.Popen(args, stdout=subprocess.PIPE, text=True, start_new_session=True) as process:
        try:
            assert process.stdout is not None
            process.stdout.readline()  # "playing": the time limit counts from the first conflict, not the imports
            try:
                out, _ = process.communicate(timeout=stop_after)
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGINT)  # the run merges what it has and prints its row
                out, _ = process.communicate(timeout=STOP_GRACE_S)
        except BaseException:  # no answer to the Ctrl-C, or this bench itself stopped: end the run and its workers
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    if process.returncode:
        raise RuntimeError(f"the peak-memory run of {name} -n {n} failed (exit {process.returncode})")
    return {"scenario": name, "workers": workers, "asked": n, **json.loads(out)}


STOP_GRACE_S = 120.0
"""Seconds a stopped memory run has to merge, close its workers and print its row before it is killed."""

MEMORY_SCENARIO = "fimbulfrost/robbers"
"""The fastest kernel: the most conflicts a minute, so the largest ``-n`` is reached soonest."""


MEMORY_SIZES = {"quick": (10**5, 10**6), "bench": (10**6, 10**8), "memory": (10**6, 10**8, 10**9)}
"""``n`` of the peak-memory rows: ``bench --quick``, ``bench``, and ``bench --memory`` (which runs them alone)."""
STOP_AFTER_S = 900.0
"""A row of 10⁸ conflicts or more is stopped (a Ctrl-C) after this many seconds: ``bench --memory`` ends by itself
on a loaded machine too, and the row says how many conflicts were played before the stop (``n`` of ``asked``)."""


def memory_rows(sizes: tuple[int, ...], workers: int = 2, stop_after: float = STOP_AFTER_S) -> list[dict[str, Any]]:
    """Peak RSS for each ``n``: constant memory shows as the same megabytes from the smallest to the largest."""
    return [peak_rss(MEMORY_SCENARIO, n, workers, stop_after=stop_after if n >= 10**8 else None) for n in sizes]


def coverage() -> list[dict[str, Any]]:
    """Every bundled scenario and the engine ``sim`` uses for it: the kernel, or the reference runner and why."""
    rows = []
    root = bundled_examples()
    for path in sorted(root.glob("*/*.toml")):
        if path.parent.name == "sweeps":
            continue
        name = f"{path.parent.name}/{path.stem}"
        used, _, note = choose_engine(load_scenario(name), {}, {}, "auto")
        reason = note.removeprefix("reference runner (").removesuffix(")") if used == "reference" else None
        rows.append({"scenario": name, "engine": "kernel" if used == "vectorised" else "reference", "why": reason})
    return rows


def scale_bench(quick: bool) -> dict[str, Any]:
    """The scaling, Dask, memory and coverage sections of ``konflikt bench``."""
    try:
        scaling = worker_scaling(quick)
    finally:
        close_pool()
    return {
        "scaling": scaling,
        "dask": dask_scaling(quick),
        "memory": memory_rows(MEMORY_SIZES["quick" if quick else "bench"]),
        "coverage": coverage(),
    }


__all__ = ["MEMORY_SIZES", "coverage", "dask_scaling", "memory_rows", "peak_rss", "scale_bench", "worker_scaling"]
