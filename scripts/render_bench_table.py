"""docs/bench.md's simulation-speed table from ``konflikt bench --json`` (stdin), in Markdown.

    konflikt bench --json > bench.json; python scripts/render_bench_table.py < bench.json

Each kernel's conflicts per second, numpy's raw random-integer rate in the same run, their ratio and the target, the
first call in a fresh process (empty compiled-code cache, then cached) and the warm-up the rate is timed after (the
bench process's first 101,000 conflicts: compiled code loaded, tables filled).
"""

from __future__ import annotations

import json
import sys


def share(value: float | None) -> str:
    return "-" if not value else f"1/{1 / value:,.0f}"


def main() -> None:
    data = json.load(sys.stdin)
    raw = data["numpy_random_integers_per_s"]
    print("| scenario | conflicts/s | × reference | ÷ numpy raw | target | first call (cold, cached) | warm-up |")
    print("|---|---|---|---|---|---|---|")
    for r in data["conflicts"]:
        rate = r["vectorised_per_s"]
        first = r.get("first_call_s")
        print(
            f"| {r['scenario']} | {rate:,.0f} | {r['speedup']:,.0f}× | {share(r.get('ratio'))} | "
            f"≥ {share(r.get('target_ratio'))} | "
            + ("-" if first is None else f"{first:.1f} s, {r['first_call_cached_s']:.1f} s")
            + " | "
            + ("-" if r.get("warmup_s") is None else f"{r['warmup_s']:.1f} s")
            + " |"
        )
    load = ", ".join(f"{x:.1f}" for x in data["load_average"])
    print()
    print(
        f"numpy raw random integers: {raw:,.0f}/s in the same run; {data['machine']}, {data['cores']} cores, "
        f"load average {load} at the end of the run; {data['date']}."
    )


if __name__ == "__main__":
    main()
