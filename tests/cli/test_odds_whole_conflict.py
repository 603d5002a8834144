"""``konflikt odds SCENARIO --json``: exact where a compact model reaches (with ``--exact`` the fractions sum to 1,
with each consequence and the length), and beyond ``--max-states`` an estimate that says so and agrees with
``sim``."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction
from math import sqrt

from konflikt.cli.odds_estimate import ESTIMATE_CONFLICTS
from konflikt.core.scenario import load_scenario
from konflikt.sim.engine import simulate
from tests.conftest import Result


def test_the_robbers_json_is_exact_sums_to_1_and_has_the_marginals(cli: Callable[..., Result]) -> None:
    result = cli("odds", "fimbulfrost/robbers", "--json", "--exact")
    assert result.code == 0, result.out
    data = json.loads(result.out)
    assert "estimated" not in data and data["exact"] is True
    assert sum(Fraction(p) for p in data["outcomes"].values()) == 1
    distributions = data["distributions"]
    for name in ("ending", "Budolf: fate", "Røverbanden: fate", "length (rounds)"):
        assert sum(Fraction(p) for p in distributions[name].values()) == 1, name
    each = distributions["Budolf: consequences (each, by name)"]
    assert "konsekvens 'Skrammer og blå mærker (scratches and bruises)'" in each
    assert all(0 < Fraction(p) < 1 for p in each.values())
    assert Fraction(data["probabilities"]["expected length (rounds)"]) == sum(
        int(k) * Fraction(p) for k, p in distributions["length (rounds)"].items()
    )


def test_a_conflict_too_large_says_so_and_estimates_within_4_standard_errors_of_sim(
    cli: Callable[..., Result],
) -> None:
    result = cli("odds", "pwge/duel", "--max-states", "300", "--json")
    assert result.code == 0, result.out
    data = json.loads(result.out)
    n = ESTIMATE_CONFLICTS
    assert data["estimated"] is True and data["n"] == n
    assert "too many states" in data["why"] and "estimate: more than" in data["why"]
    outcomes = {k: Fraction(p) for k, p in data["outcomes"].items()}
    assert sum(outcomes.values()) == 1
    other = simulate(load_scenario("pwge/duel"), n, 99).tally
    names = {(s.id,): s.name for s in load_scenario("pwge/duel").sides}
    for side, name in names.items():
        p = float(outcomes[name])
        q = other.winners.get(side, 0) / n
        se = sqrt(max(p * (1 - p), 1 / n) / n * 2)  # two independent samples of n
        assert abs(p - q) <= 4 * se, (name, p, q)


def test_an_estimate_shows_counts_of_the_conflicts_played_never_an_exact_column(cli: Callable[..., Result]) -> None:
    """The table of an estimate: each row's count of the conflicts played under a heading that says how many were
    played, and no column headed "exact" (a share of a sample is not an exact value)."""
    result = cli("odds", "pwge/duel", "--max-states", "300", "--full")
    assert result.code == 0, result.out
    assert "≈ estimated" in result.out
    assert f"of {ESTIMATE_CONFLICTS:,} played" in result.out
    assert "exact ┃" not in result.out and "┃ exact" not in result.out
    counts = re.findall(r"│\s+(\S.*?) │\s+([\d.e-]+) │\s+([\d,]+) │", result.out)
    assert counts, result.out
    for _, p, count in counts:
        assert abs(float(p) - int(count.replace(",", "")) / ESTIMATE_CONFLICTS) < 1e-5, (p, count)


def test_too_large_with_no_kernel_estimates_from_fewer_conflicts_on_the_reference_runner(
    cli: Callable[..., Result],
) -> None:
    """Without a kernel (a seat on the random policy) the estimate plays 2,000 conflicts on the reference runner,
    not a kernel's 200,000 (minutes for the skirmish), and says so."""
    result = cli("odds", "presja/knife_fight", "--policy", "belzee=random", "--max-states", "50", "--json")
    assert result.code == 0, result.out
    data = json.loads(result.out)
    assert data["estimated"] is True and data["n"] == 2_000 and data["engine"] == "reference"
    assert "estimate: more than" in data["why"]
    assert sum(Fraction(p) for p in data["outcomes"].values()) == 1
