"""How Le våld's block solve grows on a duel, and how many outcomes the duel has: the figures behind issue 21's
open part.

Usage: ``.venv/bin/python scripts/levald_blocks.py [SCENARIO] [--seconds S] [--prune P] [--every K]
[--labels N] [--mass]``

Runs ``rulesets/levald/blocks.py`` from the scenario's opening for at most ``--seconds`` of CPU (or to the end) and
prints, every ``--every`` blocks, the blocks of Omtöckning solved, the bands (pairs of penalties) walked, the band
states met, the blocks still waiting, the wound-box configurations that entered the last block, CPU seconds and
peak memory. ``--prune P`` drops configurations entering a block with less mass than P (default the module's
``PRUNE``, 1e-17), their mass added to the stated bound. ``--labels N`` first plays N duels on the kernel and
counts the distinct outcomes the State would name: the joint outcome labels (both fighters' fate words: fate,
wound boxes, Omtöckning), each fighter's fate words, and the pairs of final Omtöckning. ``--mass`` solves without
the boxes (one right-hand side a block) and prints, per threshold, how many blocks enter with at least that mass,
the CPU they took and the mass entering the rest (what dropping them would lose at most).

Measured with ``--mass`` (2 December 2026, quiet machine): 2,664 blocks in 139 CPU s; blocks entering with ≥ 10⁻²
of the mass: 36 (13 s, 0.15 entering the rest), ≥ 10⁻⁴: 266 (46 s, 0.029), ≥ 10⁻⁶: 1,777 (132 s, 1.8·10⁻⁴). The
time is spread over the blocks as the mass is: dropping light blocks is no way to 10 s.

Measured on ``levald/duel`` (1 December 2026, 2-core AMD EPYC, numpy at 298 M integers/s): 2,000,000 kernel duels
met 19,917 joint labels, 2,784 fate words of Snurre's and 813 of Hedda's, and 2,293 pairs of final Omtöckning; the
block solve (prune 1e-10) reached 300 blocks, 15 bands and 94,170 band states in 131 CPU s with 1,005 blocks still
waiting, 7.9 GB resident, and the configurations entering a block still growing (~70 a block by then).
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
    """The solve without the boxes, each block's CPU (from one progress report to the next) with the mass that
    entered it: how the time follows the mass."""
    entered: list[tuple[float, float]] = []
    last = time.process_time()

    def progress(p: blocks.Progress) -> None:
        nonlocal last
        now = time.process_time()
        entered.append((p.mass, now - last))
        last = now

    blocks.BlockSolver(model).run([(start, Fraction(1))], progress=progress, boxes=False)
    mass, spent = np.array(entered).T
    print(f"{len(entered):,} blocks without the boxes, {spent.sum():.1f} CPU s in the blocks")
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
    parser.add_argument("--prune", type=float, default=blocks.PRUNE)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--labels", type=int, default=0)
    parser.add_argument("--mass", action="store_true", help="without the boxes: CPU against each block's mass")
    args = parser.parse_args()
    if args.labels:
        count_labels(args.scenario, args.labels)
    blocks.PRUNE = args.prune
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
                f"{p.blocks:5d} blocks (last {p.daze}): {p.bands} bands, {p.states:,} band states, {p.pending:,} "
                f"waiting, {p.configs} configurations in, {spent:.1f} CPU s, {peak:.1f} GB",
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
        f"{sum(solved.ends.values()):.15f}, bound {solved.error_bound:.2e}, mean length {solved.mean_length:.4f} "
        f"rounds, {time.process_time() - began:.1f} CPU s"
    )


if __name__ == "__main__":
    main()
