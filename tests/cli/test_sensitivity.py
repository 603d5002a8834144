"""``konflikt sensitivity SCENARIO``: each rule option and participant's number varied, ranked by the change.

Each exact change is checked against two separate ``konflikt odds`` runs (the same Fractions, or the same floats);
each simulated one against the exact change (within 4 standard errors) where the conflict has exact odds, and
against ``konflikt sim`` at the same seed where it has none.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from konflikt.reports.sensitivity import paired_change, value_text
from tests.conftest import Result

ROBBERS = "fimbulfrost/robbers"
HEROES = "Heltene (the heroes)"
Z95 = 1.959963984540054


def _json(result: Result) -> dict[str, Any]:
    assert result.code == 0, result.err
    data: dict[str, Any] = json.loads(result.out)
    return data


def _rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [row for lever in data["levers"] for row in lever["rows"]]


def _odds(cli: Callable[..., Result], *args: str) -> Any:
    return _json(cli("odds", ROBBERS, *args, "--json"))["outcomes"][HEROES]


def test_robbers_ranked_by_exact_differences_each_two_odds_runs(cli: Callable[..., Result]) -> None:
    only = ("--only", "roeverne", "--only", "budolf.omdomme", "--only", "options.morale")
    data = _json(cli("sensitivity", ROBBERS, *only, "--exact", "--json"))
    base = Fraction(_odds(cli, "--exact"))
    assert Fraction(data["baseline"]["p"]) == base and data["baseline"]["method"] == "exact"
    rows = _rows(data)
    assert len(rows) == data["variants"] == 2 + 2 * 3 + 2  # morale's two other choices, four numbers ±1
    for row in rows:
        assert row["method"] == "exact"
        other = Fraction(_odds(cli, "--set", row["set"], "--exact"))
        assert Fraction(row["p"]) == other
        assert Fraction(row["change"]) == other - base
    swings = [Fraction(lever["swing"]) for lever in data["levers"]]
    assert swings == sorted(swings, reverse=True)
    for lever in data["levers"]:
        assert Fraction(lever["swing"]) == max(abs(Fraction(r["change"])) for r in lever["rows"])
    assert data["levers"][0]["lever"] == "roeverne.status"  # the band's Status moves the heroes' chance most
    assert {Fraction(r["change"]) for r in rows if r["set"].startswith("options.morale")} == {0}
    assert swings[0] > 0


def test_floats_are_the_floats_of_two_odds_runs(cli: Callable[..., Result]) -> None:
    data = _json(cli("sensitivity", ROBBERS, "--only", "rudolf.status", "--json"))
    base = _odds(cli)
    assert data["baseline"]["p"] == base and data["baseline"]["error_bound"] < 1e-9
    for row in _rows(data):
        other = _odds(cli, "--set", row["set"])
        assert row["p"] == other and row["change"] == other - base


def test_out_of_exact_reach_common_random_numbers_agree_with_the_exact_change(cli: Callable[..., Result]) -> None:
    """Forced to simulate (--max-states 5), each change lies within 4 standard errors of the exact one."""
    only = ("--only", "roeverne.status", "--only", "rudolf.status")
    estimated = _json(cli("sensitivity", ROBBERS, *only, "--max-states", "5", "-n", "20000", "--seed", "7", "--json"))
    exact = {
        r["set"]: Fraction(r["change"]) for r in _rows(_json(cli("sensitivity", ROBBERS, *only, "--exact", "--json")))
    }
    assert estimated["baseline"]["method"] == "estimated"
    rows = _rows(estimated)
    assert len(rows) == 4
    for row in rows:
        assert row["method"] == "estimated" and row["n"] == 20_000
        low, high = row["change_ci95"]
        se = (high - low) / (2 * Z95)
        assert low <= row["change"] <= high and high - low < 0.02
        assert abs(row["change"] - float(exact[row["set"]])) <= 4 * se, row


def test_without_exact_odds_each_share_is_konflikt_sim_at_the_same_seed(cli: Callable[..., Result]) -> None:
    """PWGE's shoot-out has no exact odds: each share is the one ``sim`` gives at the same seed and n, and the
    change is their difference (the mean of the paired differences)."""
    words = ("pwge/shootout", "--max-states", "1000", "-n", "20000", "--seed", "3")
    data = _json(cli("sensitivity", *words, "--only", "nova.armour", "--json"))

    def share(*more: str) -> float:
        ran = _json(cli("sim", "pwge/shootout", "-n", "20000", "--seed", "3", *more, "--json"))
        return next(float(w["p"]) for w in ran["winners"] if w["outcome"] == data["side_name"])

    base = share()
    assert data["baseline"]["p"] == base
    for row in _rows(data):
        other = share("--set", row["set"])
        assert row["p"] == other
        assert row["change"] == pytest.approx(other - base, abs=1e-12)
        assert row["engine"] == "vectorised"


def test_paired_change_and_its_interval() -> None:
    base = np.array([1, 1, 0, 0, 1, 0, 1, 1] * 50, dtype=bool)
    other = base.copy()
    assert paired_change(base, other) == (0.0, (-3 / 400, 3 / 400))  # no pair differs: the rule of three
    other[:8] = [1, 1, 1, 0, 1, 0, 1, 1]  # one conflict of 400 turned into a win
    change, (low, high) = paired_change(base, other)
    assert change == 1 / 400 and low < change < high
    d = other.astype(float) - base.astype(float)
    assert high - change == pytest.approx(max(Z95 * d.std(ddof=1) / 20, 3 / 400))


def test_the_table_a_refusal_and_the_plot(cli: Callable[..., Result], tmp_path: Path) -> None:
    plot = tmp_path / "tornado.svg"
    result = cli(
        "sensitivity", ROBBERS, "--set", "budolf.omdomme=0", "--set", 'title="[bold]Jan[/bold]"',
        "--only", "budolf.omdomme", "--only", "options.morale", "--plot", str(plot),
    )  # fmt: skip
    assert result.code == 0, result.err
    assert "[bold]Jan[/bold]: P(Heltene (the heroes) wins)" in result.out  # escaped, not read as markup
    assert "budolf.omdomme=1" in result.out and "+1.308 pp" in result.out
    assert "refused: --set budolf.omdomme=-1:" in result.out and "greater than or equal to 0" in result.out
    assert "no change (within the floats' bound) (2): options.morale=next_hit, options.morale=round1" in " ".join(
        result.out.split()
    )
    assert "sensitivity of fimbulfrost/robbers: 4 variants (2 of rule options, 2 of participants' numbers)" in (
        result.err
    )
    assert "wrote" in result.err and "budolf.omdomme" in plot.read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--side", "nope"), "--side 'nope': no such side"),
        (("--only", "zzz"), "--only zzz: no rule option or participant's number matches"),
        (("--plot", "x.pdf"), "--plot x.pdf: name a .png or .svg file"),
        (("-o", "nonsense"), "--option 'nonsense' is not of the form name=value"),
    ],
)
def test_errors_are_one_line(cli: Callable[..., Result], args: tuple[str, ...], message: str) -> None:
    result = cli("sensitivity", ROBBERS, *args)
    assert result.code == 2 and message in result.err and len(result.err.strip().splitlines()) == 1


def test_values_are_written_as_a_designer_types_them() -> None:
    assert [value_text(v) for v in (True, 7, "next_hit", "1", "two words")] == [
        "true", "7", "next_hit", '"1"', "two words",
    ]  # fmt: skip
