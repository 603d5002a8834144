"""What one kernel block costs alone and while a second worker plays: CPU time per conflict, by block size.

    nice -n 10 .venv/bin/python scripts/scale_blocks.py                    # fimbulfrost/robbers, the bench's row
    nice -n 10 .venv/bin/python scripts/scale_blocks.py --sizes 2048,8192,32768,131072 --reps 5 --json

``sim --workers 2`` scales by (one worker's CPU time) / (the busiest worker's): if each conflict costs more CPU
while the other worker runs, no split of the work reaches 2×. This script measures that cost directly: one process
plays ``--total`` conflicts in blocks of each size (``alone``), then two processes play the same at once (``pair``,
started together at a barrier), interleaved and repeated, and reports the median CPU nanoseconds a conflict for the
kernel's play (``kernel.run``) and for folding the block into a tally (``Tally.add``) apart, and pair ÷ alone.

Two controls run the same way, so a slower pair can be told from a slower machine:

- ``python``: a pure-Python loop (compute only, nothing beyond the L1 cache): pair ÷ alone is what the machine
  itself gives two busy cores (turbo, the host's other guests);
- ``stream``: adds arrays of 8 MiB each (``np.add(a, b, out=c)``): memory bandwidth and the shared L3 only.

A block size's ``pair ÷ alone`` above the python control's is the cost of the two workers sharing caches and memory.
Measure on a quiet machine; under load the medians of several repetitions still compare sizes side by side.

``--bench-row`` instead runs the bench's own workers row (``bench_scale.worker_scaling``) in fresh processes,
alternately with the engine's allocator setting and with glibc's default, and prints scaling, the same split on
idle cores, and page faults a block for each.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import statistics
import subprocess
import sys
import time
from multiprocessing.synchronize import Barrier
from typing import Any

import numpy as np

from konflikt.core.batch import Tally
from konflikt.core.scenario import load_scenario
from konflikt.sim.engine import keep_freed_memory, prepare

SIZES = (2048, 8192, 32768, 131072)
_RUN: Any = None  # the prepared run, built in the parent before the fork (workers inherit the compiled kernel)


def play(size: int, total: int, seed: int) -> dict[str, float]:
    """Play ``total`` conflicts in blocks of ``size``; CPU ns a conflict in the kernel and in the tally (user and
    system time), and page faults a block."""
    run = _RUN
    tally = Tally()
    kernel_s = tally_s = 0.0
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for index in range(-(-total // size)):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
        t0 = time.thread_time()
        batch = run.kernel.run(size, rng)
        t1 = time.thread_time()
        tally.add(batch)
        t2 = time.thread_time()
        kernel_s += t1 - t0
        tally_s += t2 - t1
        del batch
    blocks = -(-total // size)
    faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / blocks
    return {"kernel_ns": kernel_s / (blocks * size) * 1e9, "tally_ns": tally_s / (blocks * size) * 1e9,
            "faults": faults}  # fmt: skip


def python_loop(size: int, total: int, seed: int) -> dict[str, float]:
    """The compute-only control: a pure-Python loop (``total`` iterations of a few bytecodes)."""
    t0 = time.thread_time()
    x = 0
    for i in range(total):
        x += i & 7
    return {"kernel_ns": (time.thread_time() - t0) / total * 1e9, "tally_ns": 0.0, "faults": 0.0}


STREAM_BYTES = 8 << 20


def stream(size: int, total: int, seed: int) -> dict[str, float]:
    """The memory-only control: ``total`` float64 additions over arrays of 8 MiB (three streams, 24 MiB)."""
    a = np.ones(STREAM_BYTES // 8)
    b = np.ones_like(a)
    c = np.empty_like(a)
    reps = max(1, total // a.size)
    t0 = time.thread_time()
    for _ in range(reps):
        np.add(a, b, out=c)
    return {"kernel_ns": (time.thread_time() - t0) / (reps * a.size) * 1e9, "tally_ns": 0.0, "faults": 0.0}


WORKLOADS = {"kernel": play, "python": python_loop, "stream": stream}


def _child(what: str, size: int, total: int, seed: int, keep: bool, barrier: Barrier, out: Any) -> None:
    if keep:
        keep_freed_memory()
    if what == "kernel":
        play(size, size, seed)  # the allocator's first block, outside the timing
    barrier.wait()
    out.put(WORKLOADS[what](size, total, seed))


def measure(what: str, size: int, total: int, procs: int, keep: bool) -> list[dict[str, float]]:
    """``procs`` forked processes play at once (they start together); each one's CPU ns a conflict."""
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(procs)
    out = ctx.Queue()
    children = [ctx.Process(target=_child, args=(what, size, total, 1 + i, keep, barrier, out)) for i in range(procs)]
    for child in children:
        child.start()
    results = [out.get() for _ in children]
    for child in children:
        child.join()
    return results


BENCH_ROW = """
import json, sys
from konflikt.sim import engine
from konflikt.sim.bench_scale import worker_scaling
if sys.argv[1] == "default":
    engine._MEMORY_KEPT = False  # never asks glibc to keep freed blocks
[row] = worker_scaling(False)
engine.close_pool()
print(json.dumps(row))
"""


def bench_rows(reps: int, allocators: list[str]) -> None:
    """The bench's workers row, ``reps`` times for each allocator setting, alternating, each in a fresh process."""
    rows: dict[str, list[dict[str, Any]]] = {a: [] for a in allocators}
    for _ in range(reps):
        for alloc in allocators:
            out = subprocess.run([sys.executable, "-c", BENCH_ROW, alloc], capture_output=True, text=True, check=True)
            row = json.loads(out.stdout)
            rows[alloc].append(row)
            faults = row["page_faults_per_block"]
            print(f"{alloc:>8}: n {row['n']:,}, {row['one_worker_s']:.2f} s / {row['workers_s']:.2f} s = "
                  f"{row['scaling']:.2f}x, on idle cores {row['cpu_scaling']:.2f}x, CPU overhead "
                  f"{row['cpu_overhead']:+.1%}, faults a block {faults['one']:.0f} / {faults['workers']:.0f}, "
                  f"load {row['load_average'][0][0]}", flush=True)  # fmt: skip
    for alloc, got in rows.items():
        print(f"{alloc:>8} median: scaling {statistics.median(r['scaling'] for r in got):.2f}x, on idle cores "
              f"{statistics.median(r['cpu_scaling'] for r in got):.2f}x, CPU overhead "
              f"{statistics.median(r['cpu_overhead'] for r in got):+.1%}")  # fmt: skip


def main() -> None:
    global _RUN
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", default="fimbulfrost/robbers")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--total", type=int, default=2_097_152, help="conflicts a process plays a measurement")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--controls", default="python,stream", help="comma list; empty for none")
    parser.add_argument(
        "--allocator",
        default="keep",
        help="keep (the engine's: freed blocks reused), default "
        "(glibc's: freed blocks unmapped), or keep,default for both side by side",
    )
    parser.add_argument("--bench-row", action="store_true", help="the bench's workers row instead (see above)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.bench_row:
        bench_rows(args.reps, args.allocator.split(","))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    _, _, _RUN = prepare(load_scenario(args.scenario), {}, {}, "auto")
    assert _RUN.kernel is not None, f"{args.scenario} plays no kernel"
    play(1000, 3000, 0)  # numba's cache loaded, tables completed: before the fork
    rows: dict[tuple[str, int], dict[str, list[float]]] = {}
    allocators = args.allocator.split(",")
    plan = [("kernel", s, args.total, a) for s in sizes for a in allocators]
    plan += [(c, 0, 30_000_000 if c == "python" else 400_000_000, "keep") for c in args.controls.split(",") if c]
    loads = [round(x, 2) for x in os.getloadavg()]
    for _ in range(args.reps):
        for what, size, total, alloc in plan:  # interleaved: a neighbour's burst hits both sides alike
            row = rows.setdefault(
                (what, size, alloc), {k: [] for k in ("alone_k", "alone_t", "pair_k", "pair_t", "faults")}
            )
            for procs, side in ((1, "alone"), (2, "pair")):
                for r in measure(what, size, total, procs, alloc == "keep"):
                    row[f"{side}_k"].append(r["kernel_ns"])
                    row[f"{side}_t"].append(r["tally_ns"])
                    row["faults"].append(r["faults"])
    loads.append(round(os.getloadavg()[0], 2))
    table = []
    for (what, size, alloc), row in rows.items():
        med = {k: statistics.median(v) for k, v in row.items()}
        alone, pair = med["alone_k"] + med["alone_t"], med["pair_k"] + med["pair_t"]
        tally = round(med["pair_t"] / med["alone_t"], 3) if med["alone_t"] else None
        table.append({
            "what": what, "block": size, "allocator": alloc, **{k: round(v, 1) for k, v in med.items()},
            "alone_ns": round(alone, 1), "pair_ns": round(pair, 1), "pair_over_alone": round(pair / alone, 3),
            "kernel_pair_over_alone": round(med["pair_k"] / med["alone_k"], 3), "tally_pair_over_alone": tally,
        })  # fmt: skip
    if args.json:
        print(json.dumps({"scenario": args.scenario, "reps": args.reps, "total": args.total, "load": loads,
                          "rows": table}, indent=1))  # fmt: skip
        return
    print(f"{args.scenario}: CPU ns a conflict, median of {args.reps} (pair: both processes), load {loads}")
    print(f"{'what':>7} {'block':>7} {'alloc':>7} {'faults':>6} | {'kernel':>7} {'tally':>6} {'alone':>7} | "
          f"{'kernel':>7} {'tally':>6} {'pair':>7} | pair/alone (kernel, tally)")  # fmt: skip
    for r in table:
        ratio = f"{r['tally_pair_over_alone']:.2f}" if r["tally_pair_over_alone"] else "-"
        print(f"{r['what']:>7} {r['block']:>7} {r['allocator']:>7} {r['faults']:6.0f} | "
              f"{r['alone_k']:7.1f} {r['alone_t']:6.1f} {r['alone_ns']:7.1f} | "
              f"{r['pair_k']:7.1f} {r['pair_t']:6.1f} {r['pair_ns']:7.1f} | {r['pair_over_alone']:.3f} "
              f"({r['kernel_pair_over_alone']:.2f}, {ratio})")  # fmt: skip


if __name__ == "__main__":
    main()
