"""``konflikt report``: the commands reach the reports and refuse bad input in one line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result


def rank_correlation(x: list[float], y: list[float]) -> float:
    """Spearman's rho written out independently of the report: Pearson's r of average ranks (ties share a rank)."""

    def ranks(values: list[float]) -> list[float]:
        return [sum(v < u for v in values) + (sum(v == u for v in values) + 1) / 2 for u in values]

    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    return float(cov / (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5)


def test_levald_weapon_report_json(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("report", "levald-weapons", "-n", "20", "--skills", "60", "--out", str(tmp_path), "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    ratings = data["by_skill"]["60"]["ratings"]
    assert len(ratings) == 6
    assert abs(sum(r["rating"] for r in ratings.values())) < 1e-9
    bra = {w["name"]: w["bra"] for w in data["weapons"] if w["bra"] is not None}
    rated = sorted(bra)
    assert data["by_skill"]["60"]["spearman"] == pytest.approx(
        rank_correlation([ratings[w]["rating"] for w in rated], [bra[w] for w in rated])
    )
    assert (tmp_path / "levald_weapons.png").stat().st_size > 0


def test_bad_skills_are_one_line(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("report", "levald-weapons", "--skills", "sixty", "--out", str(tmp_path))
    assert result.code == 2
    assert "--skills takes whole numbers" in result.err
