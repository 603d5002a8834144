"""The long fuzz campaign: hostile scenario files, option values, prompt answers, imports and damaged saves.

    .venv/bin/python scripts/fuzz.py --examples 100000 [--seed 1] [--kills 200] [--minutes 10]

Uses the targets of ``tests/reliability/fuzzing.py`` (the suite runs a few hundred of the same examples through
hypothesis); prints the counts per target: inputs, clean refusals, internal errors, over budget, files changed.
Any internal error or changed file is printed with the seed that reproduces it and makes the exit code 1.
``--kills N`` also SIGKILLs ``konflikt play`` N times at random steps and checks each resumed conflict against an
uninterrupted one.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.reliability.fuzzing import TARGETS, Bug, shared_workdir  # noqa: E402


def campaign(examples: int, seed: int, minutes: float | None) -> tuple[dict[str, Counter[str]], list[str]]:
    counts: dict[str, Counter[str]] = {name: Counter() for name in TARGETS}
    bugs: list[str] = []
    workdir = shared_workdir()
    names = list(TARGETS)
    deadline = time.monotonic() + minutes * 60 if minutes else None
    started = time.monotonic()
    for i in range(examples):
        if deadline is not None and time.monotonic() > deadline:
            break
        name = names[i % len(names)]
        example_seed = seed * 10**9 + i
        rng = random.Random(example_seed)
        counts[name]["inputs"] += 1
        try:
            counts[name][TARGETS[name](rng, workdir)] += 1
        except Bug as bug:
            kind = "changed" if "changed" in str(bug) or "created" in str(bug) else "internal"
            counts[name][kind] += 1
            bugs.append(f"{name} seed {example_seed}: {bug}")
        except Exception as exc:  # the harness itself (building the input), not konflikt
            counts[name]["harness"] += 1
            bugs.append(f"{name} seed {example_seed}: harness: {type(exc).__name__}: {exc}")
        if (i + 1) % 1000 == 0:
            rate = (i + 1) / (time.monotonic() - started)
            print(f"  {i + 1:,} examples, {rate:,.0f}/s, {len(bugs)} problems", file=sys.stderr, flush=True)
    return counts, bugs


def kills(count: int, seed: int) -> tuple[int, list[str]]:
    import tempfile

    from tests.reliability.test_kill import kill_and_resume

    problems: list[str] = []
    done = 0
    rng = random.Random(seed)
    rulesets = ["fimbulfrost", "presja", "pwge", "levald"]
    while done < count:
        ruleset = rulesets[done % len(rulesets)] if count >= len(rulesets) else rng.choice(rulesets)
        with tempfile.TemporaryDirectory() as tmp:
            try:
                done += kill_and_resume(ruleset, Path(tmp), rng, kills=min(3, count - done))
            except AssertionError as exc:
                problems.append(f"kill {ruleset}: {exc}")
                done += 1
    return done, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long, whatever --examples")
    parser.add_argument("--kills", type=int, default=0, help="SIGKILLs of konflikt play (each ~10 s)")
    args = parser.parse_args()
    started = time.monotonic()
    counts, bugs = campaign(args.examples, args.seed, args.minutes)
    columns = ["inputs", "ok", "refused", "internal", "over-budget", "changed"]
    print(f"{'target':<20}" + "".join(f"{c:>13}" for c in columns))
    total: Counter[str] = Counter()
    for name, c in counts.items():
        total.update(c)
        print(f"{name:<20}" + "".join(f"{c[col]:>13,}" for col in columns))
    print(f"{'all':<20}" + "".join(f"{total[col]:>13,}" for col in columns))
    print(f"{time.monotonic() - started:.0f} s on one core (seed {args.seed})")
    if args.kills:
        done, problems = kills(args.kills, args.seed)
        bugs += problems
        print(f"kills: {done} SIGKILLs of konflikt play, {len(problems)} resumed conflicts that differ")
    for bug in bugs[:50]:
        print("PROBLEM", bug)
    raise SystemExit(1 if bugs else 0)


if __name__ == "__main__":
    main()
