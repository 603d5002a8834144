"""docs/bench.md's "every core" rows from ``konflikt bench --json`` (and the memory rows of ``bench --memory --json``).

    konflikt bench --json > bench.json
    konflikt bench --memory --json > memory.json        # minutes; each row stops itself after 15 minutes
    python scripts/render_scale_table.py bench.json [memory.json]

Workers and Dask against one process (wall seconds, scaling against the target, the same split of CPU time on idle
cores, the tail and the start-up kept out of the times), then peak memory against ``-n``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def scaling_rows(data: dict[str, Any]) -> list[str]:
    lines = [
        "| what | 1 worker | 2 workers | scaling (target) | on idle cores | tail | start-up, not in the times | load |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in data["scaling"]:
        start, tail = r["startup"], r["timeline"]["tail_s"]
        lines.append(
            f"| `sim {r['scenario']} -n {r['n']:,} --workers {r['workers']}` ({r['tasks']} tasks) "
            f"| {r['one_worker_s']:.2f} s | {r['workers_s']:.2f} s | {r['scaling']:.2f}× ({r['target']:g}×) "
            f"| {r['cpu_scaling']:.2f}× | {tail * 1000:.0f} ms "
            f"| kernel {start['kernel_s']:.2f} s, pool {start['pool_s']:.2f} s | {r['load_average'][0][0]:.1f} |"
        )
    d = data["dask"]
    start = d["startup"]
    lines.append(
        f"| `sweep --engine dask`, LocalCluster, {d['cells']} cells × {d['n_per_cell']:,} (levald weapons) "
        f"| {d['one_worker_s']:.1f} s | {d['workers_s']:.1f} s | {d['efficiency']:.1%} ({d['target']:.0%}) "
        f"| {d['cpu_efficiency']:.0%} | {d['task_stream']['workers'].get('tail_s', 0) * 1000:.0f} ms "
        f"| cluster {start['cluster_s']:.1f} s, a worker's first cell {max(start['first_cell_s']):.1f} s "
        f"| {d['load_average'][1][0][0]:.1f} |"
    )
    return lines


def memory_rows(rows: list[dict[str, Any]]) -> list[str]:
    lines = ["| `sim` conflicts | workers | seconds | parent | busiest worker |", "|---|---|---|---|---|"]
    for r in rows:
        n = f"{r['n']:,}" + (f" of {r['asked']:,} (stopped)" if r["interrupted"] else "")
        worker = "-" if r["worker_mb"] is None else f"{r['worker_mb']:.0f} MB"
        lines.append(f"| {n} | {r['workers']} | {r['s']:.0f} | {r['parent_mb']:.0f} MB | {worker} |")
    return lines


def main() -> None:
    bench = json.loads(Path(sys.argv[1]).read_text())
    print("\n".join(scaling_rows(bench)))
    memory = bench["memory"]
    if len(sys.argv) > 2:
        memory = json.loads(Path(sys.argv[2]).read_text())["memory"]
    print()
    print("\n".join(memory_rows(memory)))
    load = ", ".join(f"{x:.1f}" for x in bench["load_average"])
    print()
    print(f"{bench['machine']}, {bench['cores']} cores, load average {load} at the end; {bench['date']}.")


if __name__ == "__main__":
    main()
