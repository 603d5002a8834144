"""Simulation agrees with exact odds, within 4 standard errors, on the bundled scenarios ``konflikt odds`` solves.

Both the reference runner and the vectorised kernel are checked against the exact winner distribution; a kernel that
stops accepting one of these scenarios fails the test (it is not skipped).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from konflikt.analysis.exact import conflict_odds
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.sim.engine import choose_engine, simulate
from konflikt.sim.runner import seat_policies

SOLVED = ("fimbulfrost/robbers", "fimbulfrost/dragon")
"""The bundled scenarios whose whole-conflict odds are exact within seconds (the others are far larger)."""


def exact_winners(name: str) -> dict[Any, Fraction]:
    scenario = load_scenario(name)
    seats = {k: v for k, v in seat_policies(scenario).items() if v is not None}
    return conflict_odds(new_state(scenario), seats).winners()


def within(exact: dict[Any, Fraction], counts: dict[Any, int], n: int) -> list[str]:
    misses = []
    for label in set(exact) | set(counts):
        p = float(exact.get(label, Fraction(0)))
        se = max((p * (1 - p) / n) ** 0.5, 1 / n)
        share = counts.get(label, 0) / n
        if abs(share - p) > 4 * se:
            misses.append(f"{label}: simulated {share:.4f}, exact {p:.4f}, 4 SE = {4 * se:.4f}")
    return misses


@pytest.mark.parametrize("name", SOLVED)
def test_simulation_agrees_with_exact_odds(name: str) -> None:
    exact = exact_winners(name)
    scenario = load_scenario(name)
    used, _, why = choose_engine(scenario, {}, {}, "auto")
    assert used == "vectorised", f"{name}: the kernel no longer plays it ({why})"  # a refusal fails, never skips
    for engine in ("reference", "vectorised"):
        n = 3000 if engine == "reference" else 200_000
        tally = simulate(scenario, n, 11, engine=engine).tally
        misses = within(exact, dict(tally.winners), n)
        assert not misses, f"{name} ({engine}): " + "; ".join(misses)
