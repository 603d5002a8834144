"""``konflikt odds SCENARIO`` where exact odds are out of reach: say so, with the states counted, and estimate.

Exact whole-conflict odds give up above ``--max-states`` (a scenario without a compact model, or one too large for
it: PWGE's shootout, presja's skirmish, Le våld's duel; the State-API solver's breadth-first probe refuses a space far
beyond the limit within seconds, with its estimated size: ``analysis.exact.Explorer.judge``). Rather than an
error, the question is then answered as the table answers it when the exact solver is too slow: by playing the
conflict many times (the ruleset's vectorised kernel where it covers the scenario, from a saved state too where it
starts from one, else the reference runner), each share a fraction of the conflicts played, labelled as an estimate
with its sample size and the widest 95% interval.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from konflikt.analysis.exact import SIM_HINT, StateSpaceTooLarge
from konflikt.analysis.from_here import KernelStarts, kernel_starts
from konflikt.cli.i18n import _, whole
from konflikt.core.batch import Tally, wilson
from konflikt.core.capabilities import StartsFrom
from konflikt.core.i18n import percent
from konflikt.core.odds import OddsAnswer
from konflikt.core.scenario import Scenario
from konflikt.core.state import State
from konflikt.sim.engine import choose_engine, simulate
from konflikt.sim.reference import run_chunk
from konflikt.sim.runner import seat_policies

ESTIMATE_CONFLICTS = 200_000
"""Conflicts played for an estimate on a kernel: a 95% interval of at most ±0.22 percentage points, in well under a
second of play (PWGE's shootout, the slowest kernel scenario: 3.5 s for the whole command at 20,000, 4.6 s at
200,000; Le våld's duel 2.8 s either way, most of it the exact solver's refusal and numba's cache)."""
FROM_STATE_CONFLICTS = 2_000
"""Conflicts played on the reference runner (some hundreds a second: ``odds presja/skirmish`` took 328 CPU s with
20,000, 148 s with 2,000, most of it the exact solver's attempt before its probe refused quickly): from a saved
state no kernel starts from, or from an opening no kernel plays: ±2.2 points (95%)."""


def _rows(counts: Mapping[Any, int], n: int, names: Mapping[Hashable, str] | None = None) -> list[tuple[str, Fraction]]:
    """Each outcome's share of the ``n`` conflicts, most frequent first."""
    rows = [((names or {}).get(k, str(k)), Fraction(c, n)) for k, c in counts.items()]
    return sorted(rows, key=lambda kv: -kv[1])


def _kernel_starts(scenario: Scenario, policies: Mapping[str, str], start: State) -> KernelStarts | None:
    """The ruleset's kernel for these seats, started from ``start`` (:func:`~konflikt.analysis.from_here.
    kernel_starts`), or ``None`` where it has none for them, or it cannot start from that conflict."""
    factory = scenario.ruleset.kernel
    seats = seat_policies(scenario, policies)
    if factory is None or any(p is None for p in seats.values()):
        return None
    made = factory(scenario, start.options, seats)
    if not isinstance(made, StartsFrom):
        return None
    return kernel_starts(made, start, {seat: p for seat, p in seats.items() if p is not None})


def estimated_answer(
    scenario: Scenario,
    overrides: Mapping[str, object],
    policies: Mapping[str, str],
    too_large: StateSpaceTooLarge,
    n: int | None = None,
    seed: int = 0,
    start: State | None = None,
    title: str | None = None,
) -> tuple[OddsAnswer, dict[str, Any]]:
    """The estimated odds of ``scenario`` from its opening, or from ``start`` (a saved conflict some way in: the
    kernel plays on from it where it starts from a State, bridged exactly to the points it represents, else the
    reference runner plays copies of it), and what JSON adds (``estimated``, ``n``, ``why``)."""
    found = None if start is None else _kernel_starts(scenario, policies, start)
    if n is None:  # as many as a second or two allows: the kernel's rate, or the reference runner's
        kernel = found is not None or (
            start is None and choose_engine(scenario, overrides, policies, "auto")[0] == "vectorised"
        )
        n = ESTIMATE_CONFLICTS if kernel else FROM_STATE_CONFLICTS
    if start is None:
        result = simulate(scenario, n, seed, overrides, policies)
        if result.interrupted:  # Ctrl-C: the simulation stops with what it has, which an estimate cannot use
            raise KeyboardInterrupt
        tally, engine = result.tally, result.engine
    elif found is not None:
        tally, engine = Tally(), "vectorised"
        for batch in found.batches(n, np.random.default_rng(seed)):
            tally.add(batch)
    else:
        tally, engine = Tally(), "reference"
        tally.add(run_chunk(scenario, {}, seat_policies(scenario, policies), n, np.random.SeedSequence(seed), start))
    n = tally.n
    side_names: dict[Hashable, str] = {(side.id,): side.name for side in scenario.sides}
    winners: dict[Hashable, int] = {w: 0 for w in side_names} | {(): 0} | dict(tally.winners)
    names: dict[Hashable, str] = {**side_names, (): "nobody"}  # a key of the JSON too: shown in words when printed
    distributions: dict[str, list[tuple[str, Fraction]]] = {"ending": _rows(tally.endings, n)}
    for p in scenario.participants():
        if p.id in tally.fates:
            distributions[f"{p.name}: fate"] = _rows(tally.fates[p.id], n)
    if tally.has_rounds():
        distributions[f"length ({scenario.ruleset.length_unit})"] = [
            (str(k), Fraction(c, n)) for k, c in sorted(tally.rounds.items())
        ]
    widest = max(high - low for low, high in (wilson(c, n) for c in winners.values())) / 2
    why = str(too_large).removesuffix(SIM_HINT)
    note = _(
        "≈ estimated, not exact: {why}; so {count} conflicts were played ({engine}): every share is a fraction of "
        "them, within ±{widest} (95%)",
        why=why,
        count=whole(n),
        engine=engine,
        widest=percent(100 * widest, 1),
    )
    answer = OddsAnswer(
        title or _("{title}: who wins (≈ estimated)", title=scenario.title),
        "winner",
        _rows(winners, n, names),
        distributions=distributions,
        notes=[note],
        played=n,
    )
    return answer, {"estimated": True, "n": n, "why": why, "engine": engine}
