"""The opponent report: its ladder, its two ways of measuring (exact and kernel) agreeing, and its files."""

from __future__ import annotations

import csv
from pathlib import Path

from konflikt.reports.fimbulfrost_opponents import ladder, opponent_report


def test_the_ladder_runs_from_the_robber_band_to_the_dragon() -> None:
    rungs = ladder()
    bundled = {(r.name, r.omdomme, r.kamp, r.status) for r in rungs if r.bundled}
    assert ("Røverbanden", 2, 3, 6) in bundled
    assert ("Dragen", 12, 12, 12) in bundled
    plain = [r for r in rungs if not r.bundled]
    assert [(r.omdomme, r.kamp, r.status) for r in plain] == [(k, k, k) for k in range(2, 13)]
    levels = [r.level for r in rungs if r.bundled]
    assert levels == sorted(levels)


def test_exact_and_kernel_rows_agree_within_4_standard_errors(tmp_path: Path) -> None:
    """Level 4 solves exactly under the state limit; with no states allowed the kernel plays it instead."""
    exact = opponent_report(40_000, 5, tmp_path, levels=(4, 9), bundled=False)
    sampled = opponent_report(40_000, 5, None, max_states=0, levels=(4,), bundled=False)
    four, nine = exact["rows"]
    guess = sampled["rows"][0]
    assert (four["method"], nine["method"], guess["method"]) == ("exact", "kernel", "kernel")
    assert four["size"] < 5_000 and guess["size"] == 40_000
    assert four["p_win_low"] == four["p_win"] == four["p_win_high"]
    assert guess["p_win_low"] < guess["p_win"] < guess["p_win_high"]
    assert guess["p_win_low"] - 0.003 < four["p_win"] < guess["p_win_high"] + 0.003
    for who in ("budolf", "rudolf", "opponent"):
        se = guess[f"consequences_{who}_se"]
        assert four[f"consequences_{who}_se"] == 0 and se > 0
        assert abs(guess[f"consequences_{who}"] - four[f"consequences_{who}"]) < 4 * se
    # a stronger opponent: the heroes win less often, and the one who stands longest pays more
    assert nine["p_win"] < four["p_win"] - 0.5
    assert nine["consequences_budolf"] > four["consequences_budolf"]
    assert four["consequences_heroes"] == four["consequences_budolf"] + four["consequences_rudolf"]


def test_the_report_writes_a_row_per_opponent_and_a_plot(tmp_path: Path) -> None:
    report = opponent_report(2_000, 1, tmp_path, max_states=0, levels=(3, 12), bundled=False)
    csv_path, png_path = (Path(p) for p in report["files"])
    with csv_path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["name"] for r in rows] == ["Modstander 3", "Modstander 12"]
    assert {"p_win", "p_win_low", "consequences_budolf", "p_death_rudolf", "consequences_opponent"} <= set(rows[0])
    assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
