"""The Le våld weapon report: its statistics on cases worked by hand, and the shape of what it returns and writes."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.console import Console

from konflikt.reports.levald_weapons import (
    average_ranks,
    bradley_terry,
    fisher_se,
    spearman,
    weapon_report,
)
from konflikt.rulesets.levald.models import bundled_weapons


# ---- statistics, by hand ------------------------------------------------------------------------------------------
def test_spearman_without_ties_is_one_minus_six_sum_d_squared() -> None:
    # d = −1, 1, −1, 1, 0 → Σd² = 4 → ρ = 1 − 6·4 / (5·24) = 0.8
    assert spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]) == pytest.approx(0.8)
    assert spearman([1, 2, 3], [30, 20, 10]) == pytest.approx(-1.0)


def test_spearman_with_ties_uses_average_ranks() -> None:
    # ranks (1, 2.5, 2.5, 4) and (1, 3, 2, 4): Σdxdy = 4.5, Σdx² = 4.5, Σdy² = 5 → ρ = 4.5 / √22.5 = 3 / √10
    assert average_ranks([1, 2, 2, 3]) == [1.0, 2.5, 2.5, 4.0]
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(3 / math.sqrt(10))


def test_spearman_of_a_constant_is_undefined_and_lengths_must_match() -> None:
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
    with pytest.raises(ValueError, match="equal lengths"):
        spearman([1, 2], [1, 2, 3])


def test_bradley_terry_recovers_known_strengths_from_expected_wins() -> None:
    strengths = np.array([4.0, 2.0, 1.0, 0.5])
    games = 1000.0
    wins = games * strengths[:, None] / (strengths[:, None] + strengths[None, :])
    np.fill_diagonal(wins, 0)
    theta, iterations = bradley_terry(wins)
    want = np.log(strengths) - np.log(strengths).mean()
    assert theta == pytest.approx(want, abs=1e-8)
    assert theta.sum() == pytest.approx(0, abs=1e-12)
    assert iterations > 1


def test_bradley_terry_needs_a_win_and_a_loss_for_everyone() -> None:
    wins = np.array([[0.0, 3.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match="at least one win and one loss"):
        bradley_terry(wins)


def test_fisher_standard_error_of_an_even_pair() -> None:
    # two sides, n games at p = ½: information n/4 on θ1 − θ2; with θ1 = −θ2 each θ has variance 1/n
    se = fisher_se(np.zeros(2), np.array([[0.0, 400.0], [400.0, 0.0]]))
    assert se == pytest.approx([1 / 20, 1 / 20])


# ---- the report ---------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path, str]:
    out = tmp_path_factory.mktemp("weapons")
    console = Console(file=io.StringIO(), width=160)
    result = weapon_report(40, 3, [45, 70], out, console=console)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return result, out, text


def test_report_plays_every_ordered_pair_n_times(report: tuple[dict[str, Any], Path, str]) -> None:
    result, _, _ = report
    names = [w.name for w in bundled_weapons()]
    assert [w["name"] for w in result["weapons"]] == names
    assert len(result["pairs"]) == 2 * len(names) * (len(names) - 1)
    for pair in result["pairs"]:
        assert pair["a"] != pair["b"]
        assert pair["wins_a"] + pair["wins_b"] + pair["draws"] == 40
    assert result["engines"] == ["vectorised"]


def test_ratings_sum_to_zero_with_intervals_around_them(report: tuple[dict[str, Any], Path, str]) -> None:
    result, _, _ = report
    names = [w.name for w in bundled_weapons()]
    for skill in (45, 70):
        ratings = result["by_skill"][skill]["ratings"]
        assert set(ratings) == set(names)
        assert sum(r["rating"] for r in ratings.values()) == pytest.approx(0, abs=1e-9)
        assert math.prod(r["strength"] for r in ratings.values()) == pytest.approx(1)
        for r in ratings.values():
            assert r["low"] < r["rating"] < r["high"]
            assert r["games"] == 2 * 40 * (len(names) - 1) == r["wins"] + r["losses"] + r["draws"]
            assert r["win_share"] == pytest.approx((r["wins"] + r["draws"] / 2) / r["games"])


def test_report_spearman_is_the_ratings_against_bra(report: tuple[dict[str, Any], Path, str]) -> None:
    """Against ranks computed here. Deliberate mutation that fails it: the report's ``spearman`` correlating the raw
    values instead of their ranks."""
    result, _, _ = report
    bra = {w["name"]: w["bra"] for w in result["weapons"]}
    for skill in (45, 70):
        ratings = result["by_skill"][skill]["ratings"]
        names = list(bra)
        assert result["by_skill"][skill]["spearman"] == pytest.approx(
            pearson_of_ranks([ratings[w]["rating"] for w in names], [bra[w] for w in names])
        )


def textbook_ranks(values: list[float]) -> list[float]:
    """Ranks 1..n, tied values sharing the mean of their positions (written out here, apart from the report)."""
    return [
        sum(1 for other in values if other < value) + (sum(1 for other in values if other == value) + 1) / 2
        for value in values
    ]


def pearson_of_ranks(xs: list[float], ys: list[float]) -> float:
    """Spearman's rho as the Pearson correlation of the average ranks (the textbook definition with ties)."""
    rx, ry = textbook_ranks(xs), textbook_ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    return cov / math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))


def test_report_prints_and_writes_its_files(report: tuple[dict[str, Any], Path, str]) -> None:
    result, out, text = report
    assert "Spjut (spear)" in text and '"Bra"' in text and "Spearman" in text
    assert sorted(Path(p).name for p in result["files"]) == [
        "levald_weapon_pairs.csv",
        "levald_weapons.csv",
        "levald_weapons.png",
    ]
    with (out / "levald_weapons.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 2 * len(bundled_weapons())
    first = rows[0]
    assert float(first["rating"]) == pytest.approx(
        result["by_skill"][int(first["skill"])]["ratings"][first["weapon"]]["rating"]
    )
    assert (out / "levald_weapons.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        weapon_report(0, 1, [60], None)
    with pytest.raises(ValueError, match="skill level"):
        weapon_report(10, 1, [], None)
