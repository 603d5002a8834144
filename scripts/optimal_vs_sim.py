"""``konflikt sim --policy optimal`` against ``konflikt solve`` at full size: both sides optimal, each side's
simulated win rate beside the solved value, in standard errors.

    nice -n 10 .venv/bin/python scripts/optimal_vs_sim.py fimbulfrost/robbers -n 20000
    nice -n 10 .venv/bin/python scripts/optimal_vs_sim.py presja/knife_fight -n 4000

Runs the two commands as a user would (``solve --json``; ``sim --json`` with every participant on ``optimal``, the
table solved once and kept in the cache folder) and exits 1 when a side is more than 4 standard errors off. The
test suite checks the same on small games (``tests/analysis/test_optimal.py``, ``test_optimal_fimbulfrost.py``);
this is the full-size check, minutes long.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

from konflikt.core.scenario import load_scenario

KONFLIKT = [str(Path(sys.executable).with_name("konflikt"))]


def run(*args: str) -> dict[str, object]:
    done = subprocess.run([*KONFLIKT, *args, "--json"], capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"konflikt {' '.join(args)}: {done.stderr.strip()}")
    return dict(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("-n", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", "-o", action="append", default=[])
    args = parser.parse_args()
    options = [x for o in args.option for x in ("-o", o)]
    scenario = load_scenario(args.scenario)
    solved = run("solve", args.scenario, *options)
    policies = [x for p in scenario.participants() for x in ("--policy", f"{p.id}=optimal")]
    simulated = run("sim", args.scenario, "-n", str(args.n), "--seed", str(args.seed), *policies, *options)
    counts = {row["outcome"]: row["count"] for row in simulated["winners"]}  # type: ignore[attr-defined]
    worst = 0.0
    print(f"{args.scenario}: both sides optimal, n = {args.n} (seed {args.seed})")
    for side in solved["sides"]:  # type: ignore[attr-defined]
        p = float(side["optimal"])
        wins = int(counts.get(side["name"], 0))
        se = math.sqrt(max(p * (1 - p), 1e-12) / args.n)
        z = (wins / args.n - p) / se
        worst = max(worst, abs(z))
        print(f"  {side['name']}: solve {p:.4%}, sim {wins / args.n:.4%} ± {se:.4%} (SE): {z:+.2f} SE")
    print("agree within 4 SE" if worst <= 4 else "DISAGREE: more than 4 SE apart")
    raise SystemExit(0 if worst <= 4 else 1)


if __name__ == "__main__":
    main()
