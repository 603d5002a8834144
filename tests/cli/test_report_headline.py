"""A round-robin report's headline is each entrant's own duels against the baseline (head to head); the
Bradley–Terry fit is a labelled column beside it (issue 45: the spear's 95.9% head to head, the fit's 91.8%)."""

from __future__ import annotations

from typing import Any

from konflikt.cli.render import plain_console
from konflikt.reports.round_robin import print_report


def _rating(share: float, duels: int, fit: float, theta: float) -> dict[str, Any]:
    return {
        "share_vs_baseline": share, "share_se": 0.01, "duels_vs_baseline": duels, "p_beats_baseline": fit,
        "p_low": fit - 0.02, "p_high": fit + 0.02, "rating": theta,
    }  # fmt: skip


def test_head_to_head_leads_and_orders_the_table_the_fit_is_labelled(capsys: Any) -> None:
    ratings = {  # the fit ranks the staff above the long sword; head to head the long sword beats Svärd more often
        "Svärd": _rating(0.5, 0, 0.5, 0.0),
        "Trästav": _rating(0.60, 80, 0.80, 1.2),
        "Långsvärd": _rating(0.83, 80, 0.78, 1.0),
    }
    data = {
        "title": "weapons", "n": 40, "seed": 1, "entrant_word": "Vapen", "reference_name": '"Bra"',
        "levels": [45], "level_unit": "%", "baseline": "Svärd", "engines": ["vectorised"],
        "entrants": [{"name": n, "english": "", "reference": 12} for n in ratings],
        "by_level": {45: {"ratings": ratings, "spearman": 0.5,
                          "mirrors": {n: {"share_a": 0.5, "se": 0.05} for n in ratings}}},
    }  # fmt: skip
    print_report(data, plain_console(width=200))
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if "head to head" in line and "fit" in line)
    assert header.index("head to head vs Svärd at 45%") < header.index("Bradley–Terry fit: P(beats Svärd)")
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert [r.split("│")[1].strip() for r in rows] == ["Långsvärd", "Trästav", "Svärd"]
    assert "83.0% ± 2.0%" in rows[0] and "78.0% [76.0%, 80.0%]" in rows[0] and "(the baseline)" in rows[2]
