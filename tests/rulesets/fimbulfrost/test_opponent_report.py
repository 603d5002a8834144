"""The opponent report: its ladder, its two ways of measuring (exact and kernel) agreeing, its files and its plot."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from konflikt.core.reports import Ladder
from konflikt.core.scenario import scenario_from_document
from konflikt.reports.ladder import EXACT_STATES, figure, ladder_report, measure
from konflikt.rulesets.fimbulfrost import RULESET
from konflikt.rulesets.fimbulfrost.reports import ladder

OPPONENTS = RULESET.reports["opponents"]


def opponent_report(n: int, seed: int, out: Path | None, **kwargs: Any) -> dict[str, Any]:
    return ladder_report(RULESET, OPPONENTS, n, seed, out, **kwargs)


def test_the_ladder_runs_from_the_robber_band_to_the_dragon() -> None:
    assert isinstance(OPPONENTS.content, Ladder) and OPPONENTS.content.rungs is ladder
    rungs = ladder()
    bundled = {(r.name, *r.numbers.values()) for r in rungs if r.bundled}
    assert ("Røverbanden", 2, 3, 6) in bundled
    assert ("Dragen", 12, 12, 12) in bundled
    plain = [r for r in rungs if not r.bundled]
    assert [tuple(r.numbers.values()) for r in plain] == [(k, k, k) for k in range(2, 13)]
    assert list(plain[0].numbers) == ["Omdømme", "Kamp", "Status"]
    levels = [r.level for r in rungs if r.bundled]
    assert levels == sorted(levels)


def test_exact_and_kernel_rows_agree_within_4_standard_errors(tmp_path: Path) -> None:
    """Levels 4 and 9 solve exactly under the state limit (the compact model: a few hundred states each); with no
    states allowed the kernel plays it instead."""
    exact = opponent_report(40_000, 5, tmp_path, levels=(4, 9), bundled=False)
    sampled = opponent_report(40_000, 5, None, max_states=0, levels=(4,), bundled=False)
    four, nine = exact["rows"]
    guess = sampled["rows"][0]
    assert (four["method"], nine["method"], guess["method"]) == ("exact", "exact", "kernel")
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
    # every ending is a column, and with the heroes' win they are every way the conflict ends
    for row in (four, nine, guess):
        assert row["p_win"] + row["p_heroes_out"] + row["p_heroes_lost"] == pytest.approx(1)


def test_the_headline_the_robbers_are_easy_and_the_dragon_all_but_unbeatable() -> None:
    """The report's headline as the text frames it: the robber band (the text's first example) is a fight the
    heroes nearly always win, exact; the dragon, at 12/12/12, one they nearly always lose (on the kernel: its
    conflict is too large to solve within the report's state limit)."""
    rungs = {r.name: r for r in ladder((), bundled=True)}
    names = list(rungs)
    assert (names[0], names[-1]) == ("Røverbanden", "Dragen")
    content = OPPONENTS.content
    assert isinstance(content, Ladder)
    robbers = measure(
        scenario_from_document(dict(rungs["Røverbanden"].document), "r.toml"), content, 1, 1, EXACT_STATES
    )
    dragon = measure(scenario_from_document(dict(rungs["Dragen"].document), "d.toml"), content, 20_000, 3, 0)
    assert robbers["method"] == "exact" and dragon["method"] == "kernel"
    assert robbers["p_win"] > 0.95
    assert dragon["p_win_high"] < 0.05
    assert dragon["p_heroes_lost"] + dragon["p_heroes_out"] > 0.95


def test_the_report_writes_a_row_per_opponent_and_a_plot(tmp_path: Path) -> None:
    report = opponent_report(2_000, 1, tmp_path, max_states=0, levels=(3, 12), bundled=False)
    csv_path, png_path, svg_path = (Path(p) for p in report["files"])
    lines = csv_path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# konflikt-run: ")
    rows = list(csv.DictReader(lines[1:]))
    assert [r["name"] for r in rows] == ["Modstander 3", "Modstander 12"]
    assert {"p_win", "p_win_low", "consequences_budolf", "p_death_rudolf", "consequences_opponent"} <= set(rows[0])
    assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = svg_path.read_text(encoding="utf-8")
    for words in (
        "Budolf and Rudolf (builtin) against one opponent",
        "options: default rules",
        "seed 1",
        "policies: heuristic on every seat",
        "n = 2,000 conflicts per opponent",
    ):
        assert words in svg


def test_the_plot_carries_names_chances_and_intervals() -> None:
    data = opponent_report(2_000, 1, None, max_states=0, levels=(3, 12), bundled=False)
    fig = figure(data)
    left, right = fig.axes
    assert left.get_ylabel() == "P(Budolf and Rudolf win), 95% interval"
    assert left.get_ylim() == (0, 1)
    (container,) = left.containers
    line, _, (bars,) = container
    rows = data["rows"]
    assert list(line.get_xdata()) == [3.0, 12.0]
    assert list(line.get_ydata()) == pytest.approx([r["p_win"] for r in rows])
    spans = [y for seg in bars.get_segments() for y in (seg[0][1], seg[1][1])]
    assert spans == pytest.approx([r[k] for r in rows for k in ("p_win_low", "p_win_high")])
    labels = [c.get_label() for c in right.containers]
    assert labels == ["Budolf (ladder)", "Rudolf (ladder)", "the opponent (ladder)"]
    import matplotlib.pyplot as plt

    plt.close(fig)
