"""The Le våld weapon report under stronger play (``--strong``, :mod:`konflikt.reports.strong`): the seat orders
counted right, a policy named in one line, the table's words, and the command's refusals."""

from __future__ import annotations

import io
import math
from typing import Any

import pytest
from rich.console import Console

from konflikt.errors import KonfliktError
from konflikt.reports import find_report, run_report
from konflikt.reports.round_robin import round_robin_report
from konflikt.reports.strong import print_strong, strong_standing
from konflikt.rulesets.levald import RULESET

WEAPONS = RULESET.reports["weapons"]


@pytest.fixture(scope="module")
def heuristic() -> dict[str, Any]:
    return round_robin_report(RULESET, WEAPONS, 300, 3, [60], None, Console(file=io.StringIO()))


def test_the_heuristic_as_the_strong_policy_gives_the_heuristics_standing_within_4_se(
    heuristic: dict[str, Any],
) -> None:
    """The same play by other seeds: each weapon's share against Svärd within 4 standard errors of the round
    robin's own duels against it — a swap of the seat orders (the spear's 95% read as 5%) fails by far."""
    content = WEAPONS.content
    strong = strong_standing(content, "heuristic", 300, 9, [60], heuristic["by_level"])  # type: ignore[arg-type]
    rows = strong["by_level"][60]
    assert set(rows) == {e.name for e in content.entrants()} - {"Svärd"}
    for name, row in rows.items():
        assert row["duels"] == 600 and row["engines"] == ["vectorised"]
        se = math.hypot(row["se"], row["heuristic_se"])
        assert abs(row["share"] - row["heuristic_share"]) <= 4 * se, (name, row)
    assert rows["Spjut"]["share"] > 0.8 and rows["Sköld"]["share"] < 0.2


def test_a_searching_policy_plays_on_the_reference_runner_and_the_table_says_not_optimal(
    heuristic: dict[str, Any],
) -> None:
    strong = strong_standing(WEAPONS.content, "rollout:1", 1, 2, [60], heuristic["by_level"])  # type: ignore[arg-type]
    row = strong["by_level"][60]["Spjut"]
    assert row["duels"] == 2 and row["engines"] == ["reference"]
    out = io.StringIO()
    print_strong(heuristic, strong, Console(file=out, width=200))
    text = out.getvalue()
    assert "rollout:1 on every seat" in text and "not optimal play" in text and "Spjut (spear)" in text


def test_strong_is_refused_in_one_line_for_a_bad_policy_or_a_report_that_is_no_round_robin() -> None:
    console = Console(file=io.StringIO())
    with pytest.raises(KonfliktError, match="unknown policy 'nonsense'"):
        run_report(find_report("levald-weapons"), 1, 1, [60], None, console, strong="nonsense")
    with pytest.raises(KonfliktError, match="round-robin reports"):
        run_report(find_report("presja-choices"), 1, 1, None, None, console, strong="rollout:2")
