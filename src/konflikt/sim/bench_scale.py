"""``konflikt bench``'s "every core" half: workers and Dask against one process, memory against ``-n``, and which
bundled scenarios a kernel plays.

The machine may be shared, so wall-clock scaling measures the neighbours as well as konflikt. Beside it each row
gives the load average and the CPU seconds every process spent: ``cpu_scaling`` (one worker's CPU time over the
busiest worker's, with the parent's merging counted) is the scaling the same split of work gives on idle cores.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from typing import Any

from konflikt.core.scenario import bundled_examples, load_scenario
from konflikt.sim.engine import choose_engine, close_pool, simulate, worker_pool

SCALING_SCENARIOS = (("fimbulfrost/robbers", 2_000_000, 4_000_000),)
"""(scenario, conflicts for ``--quick``, conflicts otherwise): the fastest kernel, the hardest to scale (the least
work per task, so the most merging and messaging per second of play)."""


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _timed_run(name: str, n: int, workers: int) -> dict[str, Any]:
    scenario = load_scenario(name)
    parent = _cpu_self()
    result = simulate(scenario, n, 1, workers=workers)
    parent = _cpu_self() - parent
    if workers == 1:  # the one process built the kernel, played and merged: all of it is the critical path
        return {
            "s": result.seconds,
            "cpu": parent,
            "critical_cpu": parent,
            "engine": result.engine,
            "n": result.tally.n,
        }
    busiest = max(result.worker_cpu.values(), default=0.0)
    return {"s": result.seconds, "cpu": sum(result.worker_cpu.values()) + parent, "critical_cpu": busiest + parent,
            "engine": result.engine, "n": result.tally.n}  # fmt: skip


def worker_scaling(quick: bool = False, workers: int = 2) -> list[dict[str, Any]]:
    """``sim --workers 1`` and ``--workers N`` side by side, same scenario, seed and ``n``, best of two each.

    The pool is started (and timed) before the runs: it lives as long as the program, so a run pays for it once.
    """
    started = time.perf_counter()
    pool = worker_pool(workers)
    list(pool.map(abs, range(workers)))  # the processes exist from here on
    pool_start = time.perf_counter() - started
    rows = []
    for name, small, large in SCALING_SCENARIOS:
        n = small if quick else large
        simulate(load_scenario(name), min(n, 1000), 0, workers=workers)  # every worker has built this scenario
        load_before = _load()
        one, many = [], []
        for _ in range(2):  # interleaved: a neighbour's burst hits both sides alike
            one.append(_timed_run(name, n, 1))
            many.append(_timed_run(name, n, workers))
        best_one = min(one, key=lambda r: r["s"])
        best_many = min(many, key=lambda r: r["s"])
        rows.append({
            "scenario": name, "engine": best_one["engine"], "n": n, "workers": workers,
            "one_worker_s": best_one["s"], "workers_s": best_many["s"],
            "scaling": best_one["s"] / best_many["s"],
            "cpu_scaling": best_one["cpu"] / best_many["critical_cpu"] if best_many["critical_cpu"] else None,
            "cpu_overhead": best_many["cpu"] / best_one["cpu"] - 1 if best_one["cpu"] else None,
            "target": 1.8 if workers == 2 else None, "pool_start_s": pool_start,
            "load_average": [load_before, _load()], "cores": os.cpu_count(),
        })  # fmt: skip
    return rows


SWEEP_SPEC = "sweeps/levald_weapons.toml"
"""The bundled weapon sweep: 36 cells of the levald duel (kernel), ``n`` raised so a cell is worth a task."""


def _worker_cpu(client: Any) -> dict[str, float]:
    return dict(client.run(_cpu_self))


def dask_scaling(quick: bool = False, workers: int = 2) -> dict[str, Any]:
    """``sweep --engine dask`` on a LocalCluster of one worker, then of ``workers``: the same sweep, wall and CPU."""
    from distributed import Client, LocalCluster

    from konflikt.sim.sweep import cells, load_spec, run_sweep

    path = bundled_examples() / SWEEP_SPEC
    spec = load_spec(path).model_copy(update={"n": 3000 if quick else 20_000})
    warm = spec.model_copy(update={"n": 10})
    timing: dict[int, dict[str, Any]] = {}
    for size in (1, workers):
        cluster_of = LocalCluster(n_workers=size, threads_per_worker=1, processes=True, dashboard_address=None)  # type: ignore[no-untyped-call]
        with cluster_of as cluster:
            address = cluster.scheduler_address
            run_sweep(warm, path, "dask", scheduler=address)  # imports and first kernels, outside the timing
            with Client(address) as client:  # type: ignore[no-untyped-call]
                before = _worker_cpu(client)
                load = _load()
                started = time.perf_counter()
                run_sweep(spec, path, "dask", scheduler=address)
                wall = time.perf_counter() - started
                after = _worker_cpu(client)
            used = [after[w] - before.get(w, 0.0) for w in after]
            timing[size] = {"s": wall, "cpu": sum(used), "busiest": max(used), "load": [load, _load()]}
    one, many = timing[1], timing[workers]
    return {
        "sweep": SWEEP_SPEC, "cells": len(cells(spec)), "n_per_cell": spec.n, "workers": workers,
        "one_worker_s": one["s"], "workers_s": many["s"],
        "efficiency": one["s"] / (workers * many["s"]),
        "cpu_efficiency": one["cpu"] / (workers * many["busiest"]) if many["busiest"] else None,
        "target": 0.9, "load_average": [one["load"], many["load"]], "cores": os.cpu_count(),
    }  # fmt: skip


PEAK_RSS = """
import json, multiprocessing, resource, sys
from konflikt.core.scenario import load_scenario
from konflikt.sim import engine
from konflikt.sim.engine import close_pool, simulate
name, n, workers, block = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
engine.KERNEL_CHUNK = block or engine.KERNEL_CHUNK
result = simulate(load_scenario(name), n, 1, workers=workers)
close_pool(wait=True)
for worker in multiprocessing.active_children():  # after a Ctrl-C the pool is let go: wait for its processes
    worker.join()
mb = lambda who: resource.getrusage(who).ru_maxrss / 1024
print(json.dumps({"n": result.tally.n, "s": result.seconds, "interrupted": result.interrupted,
                  "parent_mb": mb(resource.RUSAGE_SELF),
                  "worker_mb": mb(resource.RUSAGE_CHILDREN) if workers > 1 else None}))
"""


def peak_rss(name: str, n: int, workers: int = 1, block: int = 0, stop_after: float | None = None) -> dict[str, Any]:
    """Peak resident memory of ``konflikt sim NAME -n N --workers W`` in a fresh process (and its busiest worker);
    ``block`` conflicts a kernel block instead of ``KERNEL_CHUNK`` (a test's many blocks from a small ``n``);
    ``stop_after`` seconds, a Ctrl-C (the row then says how many conflicts were done)."""
    args = [sys.executable, "-c", PEAK_RSS, name, str(n), str(workers), str(block)]
    with subprocess.Popen(args, stdout=subprocess.PIPE, text=True) as process:
        try:
            out, _ = process.communicate(timeout=stop_after)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGINT)
            out, _ = process.communicate()
    if process.returncode:
        raise RuntimeError(f"the peak-memory run of {name} -n {n} failed (exit {process.returncode})")
    return {"scenario": name, "workers": workers, "asked": n, **json.loads(out)}


MEMORY_SCENARIO = "fimbulfrost/robbers"
"""The fastest kernel: the most conflicts a minute, so the largest ``-n`` is reached soonest."""


def memory_rows(sizes: tuple[int, ...], workers: int = 2) -> list[dict[str, Any]]:
    """Peak RSS for each ``n``: constant memory shows as the same megabytes from the smallest to the largest."""
    return [peak_rss(MEMORY_SCENARIO, n, workers) for n in sizes]


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


def scale_bench(quick: bool, memory: bool) -> dict[str, Any]:
    """The scaling, Dask, memory and coverage sections of ``konflikt bench``."""
    try:
        scaling = worker_scaling(quick)
    finally:
        close_pool()
    small = (10**5, 10**6) if quick else (10**6, 10**7)
    return {
        "scaling": scaling,
        "dask": dask_scaling(quick),
        "memory": memory_rows(small + ((10**8, 10**9) if memory else ())),
        "coverage": coverage(),
    }


__all__ = ["coverage", "dask_scaling", "memory_rows", "peak_rss", "scale_bench", "worker_scaling"]
