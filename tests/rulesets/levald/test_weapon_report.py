"""The Le våld weapon report: its statistics on cases worked by hand, and the shape of what it returns and writes."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.console import Console

from konflikt.reports.ratings import average_ranks, beats, bradley_terry, fisher_cov, fisher_se, spearman
from konflikt.reports.round_robin import figure, mirror, play_pair, round_robin_report
from konflikt.rulesets.levald import RULESET
from konflikt.rulesets.levald.models import bundled_weapons

WEAPONS = RULESET.reports["weapons"]


def weapon_report(n: int, seed: int, skills: list[int], out: Path | None, console: Console | None = None) -> Any:
    return round_robin_report(RULESET, WEAPONS, n, seed, skills, out, console)


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


def test_chance_to_beat_a_baseline_by_hand() -> None:
    """θ = (ln 3, 0) − mean: P(0 beats 1) = 3 / (3 + 1) = ¾; with variances 0.04, 0.04 and covariance −0.04 the
    difference has sd 0.4, so the interval is logistic(ln 3 ± 1.96·0.4); an entrant against itself is ½ exactly."""
    theta = np.array([math.log(3) / 2, -math.log(3) / 2])
    cov = np.array([[0.04, -0.04], [-0.04, 0.04]])
    p, low, high = beats(theta, cov, 0, 1)
    assert p == pytest.approx(0.75)
    assert low == pytest.approx(1 / (1 + math.exp(-(math.log(3) - 1.959963984540054 * 0.4))))
    assert high == pytest.approx(1 / (1 + math.exp(-(math.log(3) + 1.959963984540054 * 0.4))))
    assert beats(theta, cov, 1, 1) == (0.5, 0.5, 0.5)
    # the Fisher covariance of an even pair is the ±1/n matrix the standard errors come from
    assert fisher_cov(np.zeros(2), np.array([[0.0, 400.0], [400.0, 0.0]])) == pytest.approx(
        np.array([[1 / 400, -1 / 400], [-1 / 400, 1 / 400]])
    )


def test_a_mirror_share_and_its_error_by_hand() -> None:
    """4 duels: 2 won by the first seat, 2 drawn → share (2 + 1) / 4 = ¾; scores 1, 1, ½, ½: variance 1/16, SE ⅛."""
    m = mirror({"n": 4, "wins_a": 2, "wins_b": 0, "draws": 2})
    assert (m["share_a"], m["se"]) == (0.75, 0.125)


# ---- the report ---------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path, str]:
    out = tmp_path_factory.mktemp("weapons")
    console = Console(file=io.StringIO(), width=200)
    result = weapon_report(40, 3, [45, 70], out, console=console)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return result, out, text


def test_the_ruleset_registers_the_report_as_data() -> None:
    content = WEAPONS.content
    assert [e.name for e in content.entrants()] == [w.name for w in bundled_weapons()]
    assert {e.name: e.reference for e in content.entrants()} == {w.name: w.bra for w in bundled_weapons()}
    assert content.baseline in [w.name for w in bundled_weapons()]
    document = content.match("Spjut", "Sköld", 55)
    fighters = [side["participants"][0] for side in document["sides"]]
    assert [f["weapon"] for f in fighters] == ["Spjut", "Sköld"]
    assert {k: v for k, v in fighters[0].items() if k not in ("id", "name", "weapon")} == {
        k: v for k, v in fighters[1].items() if k not in ("id", "name", "weapon")
    }, "equal skill: the fighters differ only in their weapons"
    assert set(fighters[0]["skills"].values()) == {55}


def test_report_plays_every_ordered_pair_and_every_mirror_n_times(report: tuple[dict[str, Any], Path, str]) -> None:
    result, _, _ = report
    names = [w.name for w in bundled_weapons()]
    assert [w["name"] for w in result["entrants"]] == names
    assert len(result["pairs"]) == 2 * len(names) * len(names)
    assert sum(1 for pair in result["pairs"] if pair["a"] == pair["b"]) == 2 * len(names)
    for pair in result["pairs"]:
        assert pair["wins_a"] + pair["wins_b"] + pair["draws"] == 40
    assert result["engines"] == ["vectorised"]
    for skill in (45, 70):
        assert set(result["by_level"][skill]["mirrors"]) == set(names)


def test_ratings_sum_to_zero_with_intervals_around_them(report: tuple[dict[str, Any], Path, str]) -> None:
    result, _, _ = report
    names = [w.name for w in bundled_weapons()]
    for skill in (45, 70):
        ratings = result["by_level"][skill]["ratings"]
        assert set(ratings) == set(names)
        assert sum(r["rating"] for r in ratings.values()) == pytest.approx(0, abs=1e-9)
        assert math.prod(r["strength"] for r in ratings.values()) == pytest.approx(1)
        base = ratings[result["baseline"]]
        for name, r in ratings.items():
            assert r["low"] < r["rating"] < r["high"]
            assert r["games"] == 2 * 40 * (len(names) - 1) == r["wins"] + r["losses"] + r["draws"]
            assert r["win_share"] == pytest.approx((r["wins"] + r["draws"] / 2) / r["games"])
            # the chance to beat the baseline is the rating difference through the logistic curve
            assert r["p_beats_baseline"] == pytest.approx(1 / (1 + math.exp(base["rating"] - r["rating"])))
            if name != result["baseline"]:
                assert r["p_low"] < r["p_beats_baseline"] < r["p_high"]
                assert r["duels_vs_baseline"] == 80
        assert base["p_low"] == base["p_beats_baseline"] == base["p_high"] == 0.5


def test_report_spearman_is_the_ratings_against_bra(report: tuple[dict[str, Any], Path, str]) -> None:
    """Against ranks computed here. Deliberate mutation that fails it: the report's ``spearman`` correlating the raw
    values instead of their ranks."""
    result, _, _ = report
    bra = {w["name"]: w["reference"] for w in result["entrants"]}
    for skill in (45, 70):
        ratings = result["by_level"][skill]["ratings"]
        names = list(bra)
        assert result["by_level"][skill]["spearman"] == pytest.approx(
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


def test_the_headline_reach_wins_and_the_shield_alone_loses(report: tuple[dict[str, Any], Path, str]) -> None:
    """What the report tells a designer (docs/balancing.md): at equal skill the spear beats the sword clearly and
    the shield, fought alone, loses to it clearly — the 95% intervals exclude an even fight, in the fit and in
    their own duels against the sword — and "Bra" ranks the weapons only in part (Spearman well below 1)."""
    result, _, _ = report
    for skill in (45, 70):
        fit = result["by_level"][skill]
        spear, shield = fit["ratings"]["Spjut"], fit["ratings"]["Sköld"]
        assert spear["p_low"] > 0.5 > shield["p_high"]
        assert spear["share_vs_baseline"] - 1.96 * spear["share_se"] > 0.5
        assert shield["share_vs_baseline"] + 1.96 * shield["share_se"] < 0.5
        assert 0 < fit["spearman"] < 0.9


def test_own_duels_against_the_baseline_are_the_pairs_counted(report: tuple[dict[str, Any], Path, str]) -> None:
    """The observed figure beside the fit: the weapon's points in both seat orders against the baseline."""
    result, _, _ = report
    base = result["baseline"]
    for skill in (45, 70):
        pairs = [p for p in result["pairs"] if p["level"] == skill]
        for name, r in result["by_level"][skill]["ratings"].items():
            if name == base:
                continue
            as_a = next(p for p in pairs if (p["a"], p["b"]) == (name, base))
            as_b = next(p for p in pairs if (p["a"], p["b"]) == (base, name))
            points = as_a["wins_a"] + as_b["wins_b"] + (as_a["draws"] + as_b["draws"]) / 2
            assert r["share_vs_baseline"] == pytest.approx(points / 80)


def test_report_prints_and_writes_its_files(report: tuple[dict[str, Any], Path, str]) -> None:
    result, out, text = report
    assert "Spjut (spear)" in text and '"Bra"' in text and "Spearman" in text and "P(beats Svärd)" in text
    assert sorted(Path(p).name for p in result["files"]) == [
        "levald_weapons.csv",
        "levald_weapons.png",
        "levald_weapons.svg",
        "levald_weapons_pairs.csv",
    ]
    lines = (out / "levald_weapons.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# konflikt-run: ")
    rows = list(csv.DictReader(lines[1:]))
    assert len(rows) == 2 * len(bundled_weapons())
    first = rows[0]
    fit = result["by_level"][int(first["level"])]["ratings"][first["entrant"]]
    assert float(first["rating"]) == pytest.approx(fit["rating"])
    assert float(first["p_beats_baseline"]) == pytest.approx(fit["p_beats_baseline"])
    assert (out / "levald_weapons.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_plot_carries_names_chances_and_intervals(report: tuple[dict[str, Any], Path, str]) -> None:
    """What a reader of a rules document sees: names on the axis, a probability axis, the report's own numbers with
    their intervals (the caption is written with the file: the next test)."""
    result, _, _ = report
    fig = figure(result)
    left, right = fig.axes
    assert left.get_ylabel() == "P(beats Svärd (sword)), 95% interval" == right.get_ylabel()
    assert left.get_ylim() == (0, 1)
    labels = [t.get_text() for t in left.get_xticklabels()]
    entrants = sorted(result["entrants"], key=lambda e: (e["reference"] or 0, e["name"]))
    assert [label.split("\n")[0] for label in labels] == [e["name"] for e in entrants]
    assert all('"Bra"' in label for label in labels)
    fits = [c for c in left.containers if c.get_label().endswith(": fit")]
    assert [c.get_label() for c in fits] == ["skill 45%: fit", "skill 70%: fit"]
    for container, skill in zip(fits, (45, 70), strict=True):
        ratings = result["by_level"][skill]["ratings"]
        line, _, (bars,) = container
        assert list(line.get_ydata()) == pytest.approx([ratings[e["name"]]["p_beats_baseline"] for e in entrants])
        spans = [y for seg in bars.get_segments() for y in (seg[0][1], seg[1][1])]
        assert spans == pytest.approx([ratings[e["name"]][k] for e in entrants for k in ("p_low", "p_high")])
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_the_written_plot_has_its_caption(report: tuple[dict[str, Any], Path, str]) -> None:
    _, out, _ = report
    svg = (out / "levald_weapons.svg").read_text(encoding="utf-8")
    for words in (
        "duel of two fighters identical but for their weapons",
        "options: default rules",
        "policies: heuristic on every seat",
        "n = 40 duels per ordered pair",
        "seed 3",
        "95% intervals",
    ):
        assert words in svg
    assert json.loads(svg.split("<dc:description>", 1)[1].split("<", 1)[0].replace("&quot;", '"'))["seed"] == 3


@pytest.mark.parametrize("weapon", [w.name for w in bundled_weapons()])
def test_mirror_matches_at_equal_skill_are_even_within_4_standard_errors(weapon: str) -> None:
    """Each weapon against itself, as the report plays its mirror matches: identical fighters, so the duel favours
    neither seat (the bundled report means what it says). 3,000 duels; the first seat's share of points lies at ½
    within 4 standard errors."""
    pair = play_pair(WEAPONS.content, weapon, weapon, 60, 3000, 17)
    m = mirror(pair)
    assert m["n"] == 3000 and m["se"] > 0
    assert abs(m["share_a"] - 0.5) < 4 * m["se"], m


def test_report_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        weapon_report(0, 1, [60], None)
    with pytest.raises(ValueError, match="skill level"):
        weapon_report(10, 1, [], None)
