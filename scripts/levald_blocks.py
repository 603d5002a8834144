"""How Le våld's block solve grows on a duel, and how many outcomes the duel has: the figures behind issue 21's
open part.

Usage: ``.venv/bin/python scripts/levald_blocks.py [SCENARIO] [--seconds S] [--every K] [--labels N] [--mass]``

Runs ``rulesets/levald/blocks.py`` from the scenario's opening for at most ``--seconds`` of CPU (or to the end) and
prints, every ``--every`` blocks, the blocks of Omtöckning solved, the bands (pairs of penalties) met, the band
states met, the bands still waiting, the mass that entered the last block, CPU seconds and peak memory; at the end,
the labels (the wound boxes not told apart), their sum, the error bound and the round cap's part of it, the mean
length and the sweeps made. ``--labels N`` first plays N duels on the kernel and counts the distinct outcomes the
State would name: the joint outcome labels (both fighters' fate words: fate, wound boxes, Omtöckning), each
fighter's fate words, and the pairs of final Omtöckning. ``--mass`` prints instead, per threshold, how many blocks
enter with at least that mass, the CPU they took and the mass entering the rest (what dropping them would lose at
most).

Measured on ``levald/duel`` (1 December 2026, 2-core AMD EPYC): 2,000,000 kernel duels met 19,917 joint labels,
2,784 fate words of Snurre's and 813 of Hedda's, and 2,293 pairs of final Omtöckning. The block solve (6 December
2026, same machine, two threads): 2,664 blocks in 109 bands, 337,424 band states, 6,925 labels summing to
1 − 5.7·10⁻¹¹, error bound 3.25·10⁻⁴ (all but ~10⁻¹⁰ of it the round cap's), mean length 6.6383 rounds, 9,551
sweeps, 8.4 CPU s and 0.6 GB all told (7.1 s wall); by block 500 all but 1.5·10⁻⁴ of the mass has entered, by block
1,000 all but 3.3·10⁻⁵.
"""

from __future__ import annotations

import argparse
import resource
import time
from fractions import Fraction
from typing import Any

import numpy as np

from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.rulesets.levald import blocks
from konflikt.rulesets.levald import duel_rounds as L
from konflikt.rulesets.levald.model import LevaldModel, exact_model
from konflikt.sim.engine import prepare
from konflikt.sim.runner import seat_policies


class OutOfTime(Exception):
    pass


def count_labels(name: str, n: int) -> None:
    """Distinct outcomes among ``n`` kernel duels, from the kernel's final duel vectors."""
    from konflikt.rulesets.levald.duel_loop import play

    scenario = load_scenario(name)
    kernel = prepare(scenario, {}, {}, "vectorised")[2].kernel
    out = np.empty((L.ROWS, n), dtype=np.int32)
    none = np.full((0, 6, 0), -1, dtype=np.int64), np.full((4, 0, 0), -1, dtype=np.int64)
    loop: Any = play  # compiled: numba checks the argument types
    loop(np.random.default_rng(1), n, *kernel.arrays, out, *none)
    boxes = [out[L.WOUNDS + i] for i in range(10)]
    a = np.stack([out[L.FATE], out[L.DAZE], *boxes[:5]]).T
    b = np.stack([out[L.FATE + 1], out[L.DAZE + 1], *boxes[5:]]).T
    joint = len(np.unique(np.hstack([a, b]), axis=0))
    dazes = len(np.unique(np.stack([out[L.DAZE], out[L.DAZE + 1]]).T, axis=0))
    print(
        f"{n:,} kernel duels: {joint:,} joint outcome labels, {len(np.unique(a, axis=0)):,} and "
        f"{len(np.unique(b, axis=0)):,} fate words (fighter a, b), {dazes:,} pairs of final Omtöckning"
    )


def mass_against_time(model: LevaldModel, start: Any) -> None:
    """The solve, each block's CPU (from one progress report to the next) with the mass that entered it: how the
    time follows the mass."""
    entered: list[tuple[float, float]] = []
    last = time.process_time()

    def progress(p: blocks.Progress) -> None:
        nonlocal last
        now = time.process_time()
        entered.append((p.mass, now - last))
        last = now

    blocks.BlockSolver(model).run([(start, Fraction(1))], progress=progress)
    mass, spent = np.array(entered).T
    print(f"{len(entered):,} blocks, {spent.sum():.1f} CPU s in the blocks")
    for threshold in (1e-2, 1e-3, 1e-4, 1e-5, 1e-6):
        heavy = mass >= threshold
        print(
            f"  entering with >= {threshold:g}: {int(heavy.sum()):,} blocks, {spent[heavy].sum():.1f} CPU s; "
            f"the rest entered by {mass[~heavy].sum():.2e}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", nargs="?", default="levald/duel")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--labels", type=int, default=0)
    parser.add_argument("--mass", action="store_true", help="CPU against each block's mass")
    args = parser.parse_args()
    if args.labels:
        count_labels(args.scenario, args.labels)
    scenario = load_scenario(args.scenario)
    policies = {s: p for s, p in seat_policies(scenario).items() if p is not None}
    state = new_state(scenario)
    model = exact_model(state, policies)
    assert isinstance(model, LevaldModel), model
    start = model.encode(state)
    assert start is not None
    began = time.process_time()

    def progress(p: blocks.Progress) -> None:
        spent = time.process_time() - began
        if p.blocks % args.every == 0:
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
            print(
                f"{p.blocks:5d} blocks (last {p.daze}): {p.bands} bands, {p.states:,} band states, {p.pending} bands "
                f"waiting, {p.mass:.2e} of the mass in, {spent:.1f} CPU s, {peak:.1f} GB",
                flush=True,
            )
        if spent > args.seconds:
            raise OutOfTime

    if args.mass:
        mass_against_time(model, start)
        return
    try:
        solved = blocks.BlockSolver(model).run([(start, Fraction(1))], progress=progress)
    except OutOfTime:
        print(f"stopped after {args.seconds:.0f} CPU s")
        return
    print(
        f"solved: {solved.blocks:,} blocks, {solved.states:,} band states, {len(solved.ends):,} labels, sum "
        f"{sum(solved.ends.values()):.15f}, bound {solved.error_bound:.2e} (the cap's part {solved.cap_bound:.2e}), "
        f"mean length {solved.mean_length:.4f} rounds, {solved.sweeps:,} sweeps, {time.process_time() - began:.1f} "
        "CPU s"
    )


if __name__ == "__main__":
    main()
