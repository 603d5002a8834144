"""``konflikt report``: the commands reach the reports and refuse bad input in one line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result


def test_levald_weapon_report_json(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("report", "levald-weapons", "-n", "20", "--skills", "60", "--out", str(tmp_path), "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    ratings = data["by_skill"]["60"]["ratings"]
    assert len(ratings) == 6
    assert abs(sum(r["rating"] for r in ratings.values())) < 1e-9
    assert -1 <= data["by_skill"]["60"]["spearman"] <= 1
    assert (tmp_path / "levald_weapons.png").stat().st_size > 0


def test_bad_skills_are_one_line(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("report", "levald-weapons", "--skills", "sixty", "--out", str(tmp_path))
    assert result.code == 2
    assert "--skills takes whole numbers" in result.err
