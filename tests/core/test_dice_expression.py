"""The dice language: every construct's exact distribution against icepool (and brute force where small)."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from typing import Any

import icepool
import numpy as np
import pytest

from konflikt.dice import DiceExpression, Fudge, PoolRoll, SumDice, exact_seconds, parse_dice
from konflikt.dice.counts import Counts
from konflikt.errors import DiceError
from tests.conftest import Result


def fractions_of(die: icepool.Die) -> dict[Any, Fraction]:
    total = die.denominator()
    return {k: Fraction(q, total) for k, q in die.items() if q}


FUDGE = icepool.Die([-1, 0, 1])

SUMS = [
    ("4d6kh3", icepool.d6.highest(4, 3)),
    ("4d6k3", icepool.d6.highest(4, 3)),
    ("4d6dl1", icepool.d6.highest(4, 3)),
    ("2d20kl1", icepool.d20.lowest(2, 1)),
    ("3d8dh1", icepool.d8.lowest(3, 2)),
    ("2d10+1d4-2", 2 @ icepool.d10 + icepool.d4 - 2),
    ("1d4-1d6", icepool.d4 - icepool.d6),
    ("-2d4+10", 10 - 2 @ icepool.d4),
    ("d{1,1,2,3}", icepool.Die([1, 1, 2, 3])),
    ("3d{-1,0,0,2}", 3 @ icepool.Die([-1, 0, 0, 2])),
    ("3d6!", 3 @ icepool.d6.explode()),
    ("2d4!2+1", 2 @ icepool.d4.explode(depth=2) + 1),
    ("4d6!kh3", icepool.d6.explode().highest(4, 3)),
    ("2d%", 2 @ icepool.d100),
    ("3T6+1d4", 3 @ icepool.d6 + icepool.d4),
    ("(2d6)+(1dF)", 2 @ icepool.d6 + FUDGE),
    ("40d10", 40 @ icepool.d10),
]


@pytest.mark.parametrize(("expr", "die"), SUMS, ids=[e for e, _ in SUMS])
def test_sums_keep_and_explode_agree_with_icepool(expr: str, die: icepool.Die) -> None:
    assert parse_dice(expr).distribution() == fractions_of(die)


COMPARISONS = [
    ("4dF+2>=3", 4 @ FUDGE + 2 >= 3),
    ("3d6>10", 3 @ icepool.d6 > 10),
    ("(3d6)>5", 3 @ icepool.d6 > 5),
    ("2d10+1d4-2<=8", 2 @ icepool.d10 + icepool.d4 - 2 <= 8),
    ("4d6kh3=12", icepool.d6.highest(4, 3) == 12),
    ("1d20>=15", icepool.d20 >= 15),
    ("1dF+1<0", FUDGE + 1 < 0),
]


@pytest.mark.parametrize(("expr", "die"), COMPARISONS, ids=[e for e, _ in COMPARISONS])
def test_comparisons_agree_with_icepool(expr: str, die: icepool.Die) -> None:
    assert parse_dice(expr).distribution() == fractions_of(die)


def pool_joint(count: int, die: icepool.Die, hit: Callable[[int], bool]) -> dict[PoolRoll, Fraction]:
    joint = count @ die.map(lambda x: icepool.Vector((int(hit(x)), int(x == 1))))
    return {PoolRoll(*map(int, k)): Fraction(q, joint.denominator()) for k, q in joint.items() if q}


POOLS = [
    ("6d6>=4", 6, icepool.d6, lambda x: x >= 4),
    ("5d10>7", 5, icepool.d10, lambda x: x > 7),
    ("4d6<=2", 4, icepool.d6, lambda x: x <= 2),
    ("3d8=8", 3, icepool.d8, lambda x: x == 8),
    ("8d{1,2,3}>=2", 8, icepool.Die([1, 2, 3]), lambda x: x >= 2),
]


@pytest.mark.parametrize(("expr", "count", "die", "hit"), POOLS, ids=[p[0] for p in POOLS])
def test_success_pools_count_successes_and_ones_as_icepool(
    expr: str, count: int, die: icepool.Die, hit: Callable[[int], bool]
) -> None:
    dice = parse_dice(expr)
    assert isinstance(dice, DiceExpression) and dice.pool
    assert dice.distribution() == pool_joint(count, die, hit)
    assert dice.successes() == fractions_of(count @ die.map(lambda x: int(hit(x))))


def test_keep_highest_matches_brute_force() -> None:
    counts: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=4):
        total = sum(sorted(faces)[1:])
        counts[total] = counts.get(total, 0) + 1
    assert parse_dice("4d6kh3").distribution() == {k: Fraction(v, 6**4) for k, v in sorted(counts.items())}


def test_counts_power_matches_repeated_addition() -> None:
    die = Counts.of_faces((1, 2, 2, 5))
    assert die.power(5) == die + die + die + die + die
    assert (-die).fractions() == {-k: p for k, p in die.fractions().items()}


@pytest.mark.parametrize("expr", ["4dF", "3d6", "2T+2", "3T6", "6d6 pool", "d100", "1d20"])
def test_the_systems_notations_keep_their_classes(expr: str) -> None:
    assert not isinstance(parse_dice(expr), DiceExpression)


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("4d6kh5", "cannot keep 5 of 4"),
        ("4d6dl4", "cannot drop 4 of 4"),
        ("d1", "2 to 1000 sides"),
        ("201d6+1", "1 to 200 dice"),
        ("d{1,2", "ends too early"),
        ("3d6>", "ends too early"),
        ("(3d6", "not closed"),
        ("3d6**2", "unexpected '*'"),
        ("5", "at least one die"),
        ("d{3,3}!", "one face cannot explode"),
        ("d{1,1000000000}", "faces lie between"),
    ],
)
def test_bad_expressions_say_what_is_wrong(expr: str, fragment: str) -> None:
    with pytest.raises(DiceError, match=fragment):
        parse_dice(expr)


def test_samples_follow_the_exact_distribution() -> None:
    rng = np.random.default_rng(7)
    for expr in ("4d6kh3", "2d4!+1", "6d6>=4", "4dF+2>=3"):
        dice = parse_dice(expr)
        n = 20_000
        seen: dict[Any, int] = {}
        for _ in range(n):
            outcome = dice.sample(rng)
            seen[outcome] = seen.get(outcome, 0) + 1
        for outcome, p in dice.distribution().items():
            se = (float(p) * (1 - float(p)) / n) ** 0.5
            assert abs(seen.get(outcome, 0) / n - float(p)) <= 4 * se + 1e-9, (expr, outcome)
        assert set(seen) <= set(dice.distribution())


def test_table_reading_of_expressions() -> None:
    assert parse_dice("2d10+1d4-2").parse("13") == 13
    assert parse_dice("3d{1,1,2,3}+1").parse("1 2 3") == 7
    assert parse_dice("6d6>=4").parse("1 4 5 6 2 1") == PoolRoll(3, 2)
    with pytest.raises(DiceError):
        parse_dice("2d10+1d4-2").parse("99")


def test_cost_estimates_refuse_the_huge_and_allow_the_usual() -> None:
    for big in ("100d100", "200d1000", "200T1000", "20d100kh10"):
        assert exact_seconds(parse_dice(big)) > 3
    for small in ("4d6kh3", "2d10+1d4-2", "50d10", "4dF", "6d6>=4", "d100"):
        assert exact_seconds(parse_dice(small)) < 0.5
    assert exact_seconds(SumDice(200, 1000)) > 3 and exact_seconds(Fudge(4)) < 0.1


@pytest.mark.parametrize(
    ("expr", "die"),
    [
        ("4d6kh3", icepool.d6.highest(4, 3)),
        ("2d10+1d4-2", 2 @ icepool.d10 + icepool.d4 - 2),
        ("d{1,1,2,3}", icepool.Die([1, 1, 2, 3])),
    ],
)
def test_odds_json_is_icepool_with_at_least_and_at_most(
    cli: Callable[..., Result], expr: str, die: icepool.Die
) -> None:
    data = json.loads(cli("odds", expr, "--json").out)
    expected = fractions_of(die)
    assert {int(k): Fraction(v) for k, v in data["outcomes"].items()} == expected
    at_least = {k: fractions_of(die >= k)[True] for k in expected}
    at_most = {k: fractions_of(die <= k)[True] for k in expected}
    assert {int(k): Fraction(v) for k, v in data["at_least"].items()} == at_least
    assert {int(k): Fraction(v) for k, v in data["at_most"].items()} == at_most


def test_odds_json_of_a_comparison_and_a_pool(cli: Callable[..., Result]) -> None:
    data = json.loads(cli("odds", "4dF+2>=3", "--json").out)
    assert Fraction(data["outcomes"]["yes"]) == fractions_of(4 @ FUDGE + 2 >= 3)[True]
    pool = json.loads(cli("odds", "6d6>=4", "--json").out)
    expected = fractions_of(6 @ icepool.d6.map(lambda x: int(x >= 4)))
    assert {int(k): Fraction(v) for k, v in pool["outcomes"].items()} == expected
    assert sum(Fraction(v) for v in pool["distributions"]["successes,ones"].values()) == 1


@pytest.mark.parametrize("expr", ["100d100", "200d1000", "200T1000"])
def test_odds_refuses_what_would_take_long_in_one_line(cli: Callable[..., Result], expr: str) -> None:
    result = cli("odds", expr)
    assert result.code == 2
    assert result.err.count("\n") == 1 and "would take about" in result.err


def test_roll_takes_the_language(cli: Callable[..., Result]) -> None:
    data = json.loads(cli("roll", "4d6kh3", "--seed", "3", "--times", "50", "--json").out)
    assert all(3 <= r <= 18 for r in data["results"])
    assert cli("roll", "200d1000", "--seed", "1").code == 0
    pools = json.loads(cli("roll", "6d6>=4", "--seed", "3", "--times", "5", "--json").out)["results"]
    assert all(0 <= s <= 6 and 0 <= o <= 6 - s for s, o in pools)


def test_odds_plot_writes_the_file(cli: Callable[..., Result], tmp_path: Any) -> None:
    out = tmp_path / "kh.svg"
    assert cli("odds", "4d6kh3", "--plot", str(out)).code == 0
    assert "at least" in out.read_text()
    assert cli("odds", "4d6kh3", "--plot", str(tmp_path / "x.txt")).code == 2


def test_odds_plot_that_cannot_be_written_is_one_line(cli: Callable[..., Result], tmp_path: Any) -> None:
    """A plot under a file (no folder can be made there): one line naming the file, exit 2, no internal error."""
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    for target in ("4d6kh3", "presja/knife_fight"):
        result = cli("odds", target, "--plot", str(blocker / "x.svg"))
        assert result.code == 2, result.err
        assert result.err == f"konflikt: error: cannot write {blocker / 'x.svg'}: {blocker} is a file, not a folder\n"


def test_the_bench_question_on_the_language_agrees_with_icepool() -> None:
    from konflikt.analysis.dice_questions import QUESTIONS, dice_sum, dice_sum_icepool

    assert dice_sum(7, 10, 6) == dice_sum_icepool(7, 10, 6)
    assert any(ours is dice_sum for ours, _, _ in QUESTIONS.values())
