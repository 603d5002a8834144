"""``konflikt odds`` and ``konflikt roll`` with the rest of the dice language: ``A vs B`` (and ``by RULE``), rerolls,
``*``, ``max``/``min``, ``highest N of``, and several expressions compared in one table and one plot."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool
import pytest

from tests.conftest import Result


def fractions_of(die: icepool.Die) -> dict[Any, Fraction]:
    return {k: Fraction(q, die.denominator()) for k, q in die.items() if q}


def test_opposed_odds_json_is_icepool(cli: Callable[..., Result]) -> None:
    data = json.loads(cli("odds", "2T+3", "vs", "2T+1", "--json").out)  # unquoted words of one expression
    margin = (2 @ icepool.d6 + 3) - (2 @ icepool.d6 + 1)
    assert data["expression"] == "2T+3 vs 2T+1"
    assert {k: Fraction(v) for k, v in data["outcomes"].items()} == {
        "A higher": fractions_of(margin > 0)[True],
        "tie": fractions_of(margin == 0)[True],
        "B higher": fractions_of(margin < 0)[True],
    }
    assert {int(k): Fraction(v) for k, v in data["distributions"]["margin A−B"].items()} == fractions_of(margin)
    assert Fraction(data["probabilities"]["mean margin A−B"]) == 2


def test_opposed_odds_table_shows_ties_and_the_margin(cli: Callable[..., Result]) -> None:
    result = cli("odds", "2d6 vs 2d6")
    assert result.code == 0, result.err
    for text in ("A higher", "tie", "B higher", "575/1296", "73/648", "margin A−B", "mean margin A−B: 0"):
        assert text in result.out, text
    wide = cli("odds", "d100 vs d100")
    assert "99/200" in wide.out and "1/100" in wide.out
    assert "margin A−B: 199 outcomes, every one in --json" in wide.out


def test_odds_by_quality_and_its_options(cli: Callable[..., Result]) -> None:
    data = json.loads(cli("odds", "d100<=60 vs d100<=55 by quality", "--json").out)
    outcomes = {k: Fraction(v) for k, v in data["outcomes"].items()}
    assert list(outcomes) == ["A wins", "nobody wins", "B wins"] and sum(outcomes.values()) == 1
    assert outcomes["A wins"] == Fraction(271, 625)
    doubles = json.loads(cli("odds", "d100<=60 vs d100<=55 by quality", "-o", "exceptional=doubles", "--json").out)
    assert doubles["outcomes"] != data["outcomes"]
    shown = cli("odds", "d100<=60", "vs", "d100<=55", "by", "quality")
    assert shown.code == 0 and "nobody wins" in shown.out and "exceptional: fifth" in shown.out


def test_odds_by_pressure_has_at_least_columns(cli: Callable[..., Result]) -> None:
    data = json.loads(cli("odds", "4dF+3 vs 4dF+2 by pressure", "--json").out)
    assert data["label"] == "presja (pressure) dealt"
    assert (
        Fraction(data["at_least"]["1"])
        == fractions_of((4 @ icepool.Die([-1, 0, 1]) + 1) - 4 @ icepool.Die([-1, 0, 1]) > 0)[True]
    )


@pytest.mark.parametrize(
    ("expr", "die"),
    [
        ("3d6r1", 3 @ icepool.d6.reroll([1], depth="inf")),
        ("4d6ro1", 4 @ icepool.d6.reroll([1], depth=1)),
        ("2d6*3", (2 @ icepool.d6) * 3),
        ("max(2d6,1d12)", icepool.highest(2 @ icepool.d6, icepool.d12)),
        ("highest 3 of 4d6", icepool.d6.highest(4, 3)),
    ],
)
def test_odds_of_the_new_forms_is_icepool(cli: Callable[..., Result], expr: str, die: icepool.Die) -> None:
    data = json.loads(cli("odds", expr, "--json").out)
    assert {int(k): Fraction(v) for k, v in data["outcomes"].items()} == fractions_of(die)


def test_several_expressions_side_by_side(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("odds", "3d6", "4d6kh3", "2d10", "--plot", str(tmp_path / "c.svg"))
    assert result.code == 0, result.err
    header = next(line for line in result.out.splitlines() if "3d6" in line and "2d10" in line and "4d6kh3" in line)
    assert header.index("3d6") < header.index("4d6kh3") < header.index("2d10")
    assert "4d6kh3: mean 15869/1296" in result.out
    assert f"wrote {tmp_path / 'c.svg'}" in result.err
    svg = (tmp_path / "c.svg").read_text()
    assert all(name in svg for name in ("3d6", "4d6kh3", "2d10"))
    data = json.loads(cli("odds", "3d6", "4d6kh3", "2d10", "--json").out)
    assert data["expressions"] == ["3d6", "4d6kh3", "2d10"]
    expected = [fractions_of(3 @ icepool.d6), fractions_of(icepool.d6.highest(4, 3)), fractions_of(2 @ icepool.d10)]
    for k, ps in data["outcomes"].items():
        assert [Fraction(p) for p in ps] == [e.get(int(k), Fraction(0)) for e in expected], k
    assert list(data["outcomes"]) == [str(v) for v in range(2, 21)]
    exact = cli("odds", "3d6", "2d10", "--exact")
    assert "1/216" in exact.out and "1/100" in exact.out


def test_opposed_rolls_and_tests_compare_side_by_side(cli: Callable[..., Result], tmp_path: Path) -> None:
    data = json.loads(cli("odds", "2d6 vs 2d6", "2T+1 vs 2T", "--json").out)
    assert list(data["outcomes"]) == ["A higher", "tie", "B higher"]
    assert data["outcomes"]["tie"] == ["73/648", "35/324"]  # 2T+1 and 2T tie when the dice differ by one
    assert cli("odds", "4dF+2>=3", "3d6>10", "--plot", str(tmp_path / "y.png")).code == 0
    assert (tmp_path / "y.png").stat().st_size > 0


def test_roll_samples_the_new_forms_within_their_odds(cli: Callable[..., Result]) -> None:
    """Seeded: 10,000 rolls of each, every outcome within 4 standard errors of the exact odds ``odds`` prints."""
    for expr in ("2d6 vs 2d6", "d100<=60 vs d100<=55 by quality", "3d6r1", "max(2d6,1d12)", "2d6*3"):
        rolled = json.loads(cli("roll", expr, "--seed", "45", "--times", "10000", "--json").out)["results"]
        exact = {k: Fraction(v) for k, v in json.loads(cli("odds", expr, "--json").out)["outcomes"].items()}
        n = len(rolled)
        assert {str(r) for r in rolled} <= set(exact), expr
        for outcome, p in exact.items():
            share = sum(1 for r in rolled if str(r) == outcome) / n
            se = (float(p) * (1 - float(p)) / n) ** 0.5
            assert abs(share - float(p)) <= 4 * se + 1e-9, (expr, outcome)


def test_a_roll_of_dice_against_dice_shows_both(cli: Callable[..., Result]) -> None:
    out = cli("roll", "d100<=60 vs d100<=55 by quality", "--seed", "3").out
    assert out.startswith("d100<=60 vs d100<=55 by quality: A ") and " vs B " in out and " → " in out
    assert "effekt" in out
    plain = cli("roll", "2d6", "vs", "2d6", "--seed", "3").out
    assert plain.startswith("2d6 vs 2d6: A ") and plain.rstrip().endswith(("A higher", "tie", "B higher"))


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("odds", "d100<=60 vs d100<=55"), "is a yes/no test"),
        (("odds", "2d6 vs 2d6 by chess"), "no opposed rule 'chess' (known: attack, contest, pressure, quality)"),
        (("odds", "2d6", "vs", "2d6", "by", "chess"), "no opposed rule 'chess'"),
        (("odds", "2d6 vs 2d6 by quality"), "write a as d100<=t"),
        (("odds", "d100<=60 vs d100<=55 by quality", "-o", "exceptional=maybe"), "exceptional"),
        (("odds", "d100<=60 vs d100<=55 by quality", "-o", "bogus=1"), "bogus"),
        (("odds", "3d6", "-o", "a=b"), "rule options go with a scenario or with an opposed rule"),
        (("odds", "3d6r7"), "r7 rerolls no face of d6"),
        (("odds", "d6r<7"), "rerolls every face"),
        (("odds", "max(2d6)"), "max takes two or more"),
        (("odds", "highest 5 of 4d6"), "cannot keep 5 of 4"),
        (("odds", "3d6", "4x6"), "cannot read dice expression '4x6': unexpected 'x'"),
        (("odds", "3d6", "2d6", "1d6", "2d4", "3d4", "1d8", "2d8", "1d10", "1d12"), "compare at most 8"),
        (("odds", "50d100*50d100"), "would take about"),
        (("odds", "100d100 vs 100d100"), "would take about"),
        (("roll", "2d6 vs 2d6 by chess"), "no opposed rule"),
        (("roll", "d6r<7"), "rerolls every face"),
    ],
)
def test_bad_forms_are_one_line_and_exit_2(cli: Callable[..., Result], args: tuple[str, ...], fragment: str) -> None:
    result = cli(*args)
    assert result.code == 2, result.out
    assert fragment.lower() in result.err.lower(), result.err
    assert result.err.count("\n") == 1, result.err
    assert "Traceback" not in result.err


def test_rule_names_and_comparisons_are_in_the_help(cli: Callable[..., Result]) -> None:
    out = cli("odds", "--help").out
    assert "by quality" in out and "by pressure" in out and "4d6kh3 2d10" in out


def test_text_from_the_command_line_is_not_markup(cli: Callable[..., Result]) -> None:
    result = cli("odds", "d{1,2}", "[bold]x")
    assert result.code == 2 and "[bold]" in result.err
