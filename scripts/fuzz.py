"""The long campaigns of issues 18 and 48: hostile inputs of every kind, and SIGKILLs of ``konflikt play``.

    nice -n 19 .venv/bin/python scripts/fuzz.py --examples 100000 --jobs 2 [--seed 1] [--minutes M]
    nice -n 19 .venv/bin/python scripts/fuzz.py --examples 0 --kills 200 --jobs 2
    .venv/bin/python scripts/fuzz.py --one database 20000000123      # one example again, with its traceback

The fuzz campaign runs the targets of ``tests/reliability/fuzzing.py`` (the suite runs a few hundred of the same
examples through hypothesis) in this process's workers: scenario files and documents, rule options, prompts, dice,
imports, damaged databases, the character library (``chars``), campaigns (``campaign rest``, ``run --campaign``),
exports read back (``export``, ``import``, ``saves --json``), and ``konflikt serve`` driven over HTTP from outside
(its console's forms and uploads, a table's pages and API, hostile paths, tokens, Hosts and Origins). Their inputs
hold escape sequences, C1, the bidirectional overrides, NUL, line breaks, lone surrogates and invalid bytes. The
command-line targets call ``konflikt.cli.main.main`` in-process, exactly as the ``konflikt`` script does, and one
round of examples in ``--subprocess-every`` (5: 11% of all examples) runs them as real ``python -m konflikt``
processes instead, with stdin closed and the arguments as bytes (invalid UTF-8 where the text holds surrogates).
Example ``i`` is target ``i mod len(TARGETS)`` with seed ``SEED·10⁹ + i`` whatever the number of jobs, so ``--one``
reproduces any of them.

Oracles: an exit code other than 0 or 2, a traceback or more than one stderr line on exit 2 (internal); a value the
model must refuse that was accepted (nonsense: ``omdomme=true``, a consequence not on the lists, a name with a line
break, a lone surrogate in an import); a control character on stdout or stderr (raw-output); an example over its
time budget, a process over 1 GiB resident, or a server that died (runaway); an HTTP answer of 5xx (internal); a
file changed or created that must not be (changed). It prints per target the inputs, accepted, clean refusals and
each kind of problem, and the mean time an example took. Any problem is printed with its seed and makes the exit
code 1.

The kill campaign (``--kills N``) plays every ruleset's first example in a real terminal, SIGKILLs it at random
steps (half of the time between an answer and its commit), resumes each time, and compares the finished conflict
with an uninterrupted one; it prints the kills, the conflicts that differ and how long a restart took.
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.pool
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.reliability import fuzzing  # noqa: E402
from tests.reliability.fuzzing import TARGETS, Bug, Changed, Nonsense, RawOutput, Runaway  # noqa: E402

NAMES = list(TARGETS)
COLUMNS = ["inputs", "ok", "refused", "internal", "nonsense", "raw-output", "runaway", "changed", "harness"]
#: Each kind of problem and its column ("runaway": over the time budget, or a process over the memory budget).
KINDS: list[tuple[type[Bug], str]] = [(Nonsense, "nonsense"), (RawOutput, "raw-output"), (Changed, "changed"),
                                      (Runaway, "runaway"), (Bug, "internal")]  # fmt: skip
#: Examples a worker takes at a time (a multiple of the number of targets, so every chunk is balanced).
CHUNK = 20 * len(NAMES)


def example(index: int, seed: int) -> tuple[str, int]:
    """Which target example ``index`` runs, and its seed: fixed by the index alone, so any job count agrees."""
    return NAMES[index % len(NAMES)], seed * 10**9 + index


@dataclass
class Tally:
    """What some examples did: counts and seconds per target, problems with their seeds, through-process runs."""

    counts: dict[str, Counter[str]] = field(default_factory=lambda: {name: Counter() for name in NAMES})
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(NAMES, 0.0))
    problems: list[str] = field(default_factory=list)
    processes: int = 0
    rss_mib: float = 0.0
    child_rss_mib: float = 0.0

    def add(self, other: Tally) -> None:
        for name in NAMES:
            self.counts[name].update(other.counts[name])
        for name in NAMES:
            self.seconds[name] += other.seconds[name]
        self.problems += other.problems
        self.processes += other.processes
        self.rss_mib = max(self.rss_mib, other.rss_mib)
        self.child_rss_mib = max(self.child_rss_mib, other.child_rss_mib)

    def total(self, column: str = "inputs") -> int:
        return sum(c[column] for c in self.counts.values())


def run_example(index: int, seed: int, workdir: Path, subprocess_every: int, tally: Tally) -> None:
    name, example_seed = example(index, seed)
    through = subprocess_every > 0 and (index // len(NAMES)) % subprocess_every == subprocess_every - 1
    counts = tally.counts[name]
    counts["inputs"] += 1
    started = time.monotonic()
    launched = fuzzing.PROCESSES[0]
    try:
        with fuzzing.through_subprocess(through):
            outcome = TARGETS[name](random.Random(example_seed), workdir)
        counts["runaway" if outcome == "over-budget" else outcome] += 1
        if outcome == "over-budget":
            tally.problems.append(f"{name} {example_seed}: runaway: over the time budget")
    except Bug as bug:
        kind = next(column for cls, column in KINDS if isinstance(bug, cls))
        counts[kind] += 1
        tally.problems.append(f"{name} {example_seed}: {kind}: {bug}")
    except Exception as exc:  # the harness itself (building the input), not konflikt
        counts["harness"] += 1
        tally.problems.append(f"{name} {example_seed}: harness: {type(exc).__name__}: {exc}")
    tally.seconds[name] += time.monotonic() - started
    tally.processes += int(fuzzing.PROCESSES[0] > launched)


def run_chunk(job: tuple[int, int, int, float | None, int]) -> Tally:
    """Examples ``start`` to ``stop`` in this worker (its own folder and save databases), until the deadline."""
    start, stop, seed, deadline, subprocess_every = job
    tally = Tally()
    workdir = fuzzing.shared_workdir()
    for index in range(start, stop):
        if deadline is not None and time.time() > deadline:
            break
        run_example(index, seed, workdir, subprocess_every, tally)
    tally.rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    tally.child_rss_mib = fuzzing.PEAK_MIB[0]
    return tally


def campaign(examples: int, seed: int, minutes: float | None, jobs: int, subprocess_every: int) -> Tally:
    deadline = time.time() + minutes * 60 if minutes else None
    chunks = [
        (start, min(start + CHUNK, examples), seed, deadline, subprocess_every) for start in range(0, examples, CHUNK)
    ]
    tally = Tally()
    started = time.monotonic()
    reported = 0

    def progress(part: Tally) -> None:
        nonlocal reported
        tally.add(part)
        for problem in part.problems:  # at once: a long campaign may be stopped before its end
            print(f"PROBLEM {problem}", file=sys.stderr, flush=True)
        done = tally.total()
        if done - reported >= 2000 or done == examples:
            reported = done
            rate = done / (time.monotonic() - started)
            print(
                f"  {done:,} examples, {rate:,.1f}/s, {len(tally.problems)} problems, "
                f"worker memory ≤ {tally.rss_mib:,.0f} MiB, load {os.getloadavg()[0]:.1f}",
                file=sys.stderr,
                flush=True,
            )

    if jobs == 1:
        for chunk in chunks:
            progress(run_chunk(chunk))
    else:
        with multiprocessing.get_context("fork").Pool(jobs, maxtasksperchild=None) as pool:
            for part in pool.imap_unordered(run_chunk, chunks):
                progress(part)
    return tally


# ---- the kill campaign -----------------------------------------------------------------------------------------
RULESETS = ["fimbulfrost", "presja", "pwge", "levald"]
#: Kills in one conflict: its uninterrupted twin is played once for all of them.
KILLS_PER_CONFLICT = 4


def kill_chain(job: tuple[int, int, int]) -> tuple[str, int, list[float], list[str]]:
    """One conflict of ruleset ``index mod 4`` with ``kills`` SIGKILLs, against its uninterrupted twin."""
    from tests.reliability.test_kill import kill_and_resume

    index, kills, seed = job
    ruleset = RULESETS[index % len(RULESETS)]
    restarts: list[float] = []
    with tempfile.TemporaryDirectory(prefix="konflikt-kill-") as tmp:
        try:
            done = kill_and_resume(ruleset, Path(tmp), random.Random(seed * 10**6 + index), kills, restarts)
            return ruleset, done, restarts, []
        except Exception as exc:  # a resumed conflict that differs, or play that ended badly: report it
            detail = "".join(traceback.format_exception_only(exc)).strip()[-600:]
            return ruleset, 0, restarts, [f"kill chain {index} ({ruleset}, seed {seed}): {detail}"]


def kill_campaign(count: int, seed: int, jobs: int) -> tuple[Counter[str], list[float], list[str]]:
    """Chains of kills in ``jobs`` workers until ``count`` kills are done (a short conflict may take fewer)."""
    kills: Counter[str] = Counter()
    restarts: list[float] = []
    problems: list[str] = []
    started = time.monotonic()
    planned = 0
    chain = 0
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        running: list[tuple[multiprocessing.pool.AsyncResult[tuple[str, int, list[float], list[str]]], int]] = []
        while kills.total() < count and chain < 4 * count:
            while len(running) < jobs and kills.total() + planned < count:
                wanted = min(KILLS_PER_CONFLICT, count - kills.total() - planned)
                running.append((pool.apply_async(kill_chain, ((chain, wanted, seed),)), wanted))
                planned += wanted
                chain += 1
            if not running:
                break
            while not any(result.ready() for result, _ in running):
                time.sleep(0.2)
            finished = next(i for i, (result, _) in enumerate(running) if result.ready())
            result, wanted = running.pop(finished)
            planned -= wanted
            ruleset, done, times, found = result.get()
            kills[ruleset] += done
            restarts += times
            problems += found
            print(
                f"  {kills.total()} kills, {len(problems)} differ, {time.monotonic() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return kills, restarts, problems


# ---- the report ------------------------------------------------------------------------------------------------
def machine() -> str:
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "src", "tests", "scripts"],
                           capture_output=True, text=True).stdout.strip()  # fmt: skip
    return (
        f"commit {commit.stdout.strip()}{' (with uncommitted changes)' if dirty else ''}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}"
    )


def print_campaign(tally: Tally, seconds: float, args: argparse.Namespace) -> None:
    print(f"{'target':<20}" + "".join(f"{c:>12}" for c in COLUMNS) + f"{'ms/example':>12}")
    for name in NAMES:
        c = tally.counts[name]
        mean = 1000 * tally.seconds[name] / c["inputs"] if c["inputs"] else 0.0
        print(f"{name:<20}" + "".join(f"{c[col]:>12,}" for col in COLUMNS) + f"{mean:>12,.0f}")
    mean = 1000 * sum(tally.seconds.values()) / max(1, tally.total())
    print(f"{'all':<20}" + "".join(f"{tally.total(col):>12,}" for col in COLUMNS) + f"{mean:>12,.0f}")
    print(
        f"{tally.total():,} examples in {seconds / 60:.1f} min with {args.jobs} jobs (seed {args.seed}); "
        f"{tally.processes:,} of them ({tally.processes / max(1, tally.total()):.1%}) through konflikt processes; "
        f"worker memory ≤ {tally.rss_mib:,.0f} MiB, a konflikt process ≤ {tally.child_rss_mib:,.0f} MiB"
    )


def one(name: str, example_seed: int) -> None:
    """Run one example again, printing what it built and konflikt's traceback (KONFLIKT_DEBUG)."""
    os.environ["KONFLIKT_DEBUG"] = "1"
    workdir = fuzzing.shared_workdir()
    print(f"workdir {workdir}")
    print(TARGETS[name](random.Random(example_seed), workdir))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (each with its own databases)")
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long, whatever --examples")
    parser.add_argument("--subprocess-every", type=int, default=5, metavar="K",
                        help="one round of examples in K runs konflikt as its own process (0: never); the default, "
                        "5, runs 6 of every 55 examples (11%%) as processes")  # fmt: skip
    parser.add_argument("--kills", type=int, default=0, help="SIGKILLs of konflikt play, resumed and compared")
    parser.add_argument("--one", nargs=2, metavar=("TARGET", "SEED"), help="run one example with its traceback")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs takes a whole number from 1")
    from konflikt.sim.engine import capped_workers

    args.jobs, note = capped_workers(args.jobs)  # 4 × the cores at most, as sim and sweep
    if note is not None:
        print(note.replace("--workers", "--jobs"), file=sys.stderr)
    if args.one:
        one(args.one[0], int(args.one[1]))
        return
    print(machine())  # the commit as the campaign starts
    problems: list[str] = []
    # every worker's folder and save databases go under one folder, removed at the end
    scratch = tempfile.TemporaryDirectory(prefix="konflikt-campaign-")
    tempfile.tempdir = scratch.name
    if args.examples:
        started = time.monotonic()
        tally = campaign(args.examples, args.seed, args.minutes, args.jobs, args.subprocess_every)
        print_campaign(tally, time.monotonic() - started, args)
        problems += tally.problems
    if args.kills:
        started = time.monotonic()
        kills, restarts, found = kill_campaign(args.kills, args.seed, args.jobs)
        problems += found
        print(
            f"kills: {kills.total()} SIGKILLs of konflikt play ("
            + ", ".join(f"{r} {kills[r]}" for r in RULESETS)
            + f"), {len(found)} resumed conflicts that differ, {(time.monotonic() - started) / 60:.1f} min"
        )
        if restarts:
            print(
                f"restart (konflikt play --resume to its first prompt): median {statistics.median(restarts):.1f} s, "
                f"max {max(restarts):.1f} s over {len(restarts)} restarts"
            )
    print(f"ended {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.1f}")
    tempfile.tempdir = None
    scratch.cleanup()
    for problem in problems[:50]:
        print("PROBLEM", problem)
    raise SystemExit(1 if problems else 0)


if __name__ == "__main__":
    main()
