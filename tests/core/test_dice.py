"""Dice: exact distributions against brute-force enumeration and against icepool; table input; notation."""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest

from konflikt.dice import Fudge, Percentile, PoolRoll, SuccessPool, SumDice, brute_force, effect, parse_dice
from konflikt.errors import DiceError


def icepool_fractions(die: icepool.Die) -> dict[int, Fraction]:
    total = die.denominator()
    return {int(k): Fraction(die.quantity(k), total) for k in die.outcomes() if die.quantity(k)}


def test_4df_is_the_textbook_distribution() -> None:
    dist = Fudge(4).distribution()
    assert list(dist) == list(range(-4, 5))
    assert [p * 81 for p in dist.values()] == [1, 4, 10, 16, 19, 16, 10, 4, 1]


@pytest.mark.parametrize("dice", [Fudge(1), Fudge(4), Fudge(3, 2), SumDice(3), SumDice(2, 6, 2, "T"), SumDice(2, 10)])
def test_sums_match_brute_force(dice: Fudge | SumDice) -> None:
    assert dice.distribution() == brute_force(dice)


@pytest.mark.parametrize("count", [0, 1, 2, 4, 6])
def test_success_pool_matches_brute_force(count: int) -> None:
    if count == 0:
        assert SuccessPool(0).distribution() == {PoolRoll(0, 0): Fraction(1)}
        return
    assert SuccessPool(count).distribution() == brute_force(SuccessPool(count))


def test_percentile_matches_brute_force_and_reads_00_as_100() -> None:
    assert Percentile().distribution() == brute_force(Percentile())
    assert Percentile().parse("00") == 100
    assert effect(100) == 0
    assert effect(47) == 11
    assert effect(5) == 5


@pytest.mark.parametrize(
    ("expr", "die"),
    [
        ("4dF", 4 @ icepool.Die([-1, 0, 1])),
        ("3d6", 3 @ icepool.d6),
        ("2T+2", 2 @ icepool.d6 + 2),
        ("3T6", 3 @ icepool.d6),
        ("1d20", icepool.d20),
    ],
)
def test_sums_agree_with_icepool(expr: str, die: icepool.Die) -> None:
    assert parse_dice(expr).distribution() == icepool_fractions(die)


@pytest.mark.parametrize("count", [1, 3, 6, 9])
def test_success_pool_agrees_with_icepool(count: int) -> None:
    successes = icepool.d6.pool(count).keep_outcomes([4, 5, 6]).size()
    assert SuccessPool(count).successes() == icepool_fractions(successes)
    joint = count @ icepool.d6.map(lambda x: icepool.Vector((int(x >= 4), int(x == 1))))
    expected = {PoolRoll(*map(int, k)): Fraction(q, joint.denominator()) for k, q in joint.items()}
    assert SuccessPool(count).distribution() == expected


@pytest.mark.parametrize(
    ("expr", "notation"),
    [
        ("4dF", "4dF"),
        ("dF", "1dF"),
        ("3d6", "3d6"),
        ("2T+2", "2T+2"),
        ("2t+4", "2T+4"),
        ("3T6", "3T6"),
        ("6d6 pool", "6d6 pool"),
        ("6P", "6d6 pool"),
        ("d100", "d100"),
        ("d%", "d100"),
        ("1d6-1", "1d6-1"),
    ],
)
def test_notation(expr: str, notation: str) -> None:
    assert parse_dice(expr).notation == notation


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("", "empty"),
        ("3dx", "cannot read"),
        ("0d6", "1 to 200"),
        ("999d6", "1 to 200"),
        ("3d", "how many sides"),
        ("3d1", "2 to 1000 sides"),
        ("banana", "cannot read"),
    ],
)
def test_bad_expressions_say_why(expr: str, fragment: str) -> None:
    with pytest.raises(DiceError, match=fragment):
        parse_dice(expr)


def test_table_dice_are_read_in_natural_notation() -> None:
    assert Fudge(4).parse("+ + 0 -") == 1
    assert Fudge(4).parse("++0-") == 1
    assert Fudge(4).parse("-3") == -3
    assert SuccessPool(4).parse("3 5 6 1") == PoolRoll(2, 1)
    assert SumDice(3).parse("3 5 6") == 14
    assert SumDice(3).parse("14") == 14
    assert SumDice(2, 6, 2, "T").parse("1 1") == 4
    assert Percentile().parse("47") == 47
    assert Percentile().parse("4 7") == 47


@pytest.mark.parametrize(
    ("dice", "text"),
    [
        (Fudge(4), "+ + 0"),
        (Fudge(4), "5"),
        (SuccessPool(3), "3 5"),
        (SuccessPool(3), "3 5 7"),
        (SumDice(3), "19"),
        (SumDice(3), "1 2 3 4"),
        (Percentile(), "101"),
        (Percentile(), "x"),
    ],
)
def test_table_dice_that_do_not_fit_are_refused(dice: Fudge | SumDice | SuccessPool | Percentile, text: str) -> None:
    with pytest.raises(DiceError):
        dice.parse(text)


@pytest.mark.parametrize("dice", [Fudge(4), SumDice(3), SuccessPool(5), Percentile()])
def test_sampling_matches_the_exact_distribution(dice: Fudge | SumDice | SuccessPool | Percentile) -> None:
    """Seeded sampling within 4 standard errors of the exact probability for every outcome."""
    rng = np.random.default_rng(12345)
    n = 40_000
    counts: dict[object, int] = {}
    for _ in range(n):
        outcome = dice.sample(rng)
        counts[outcome] = counts.get(outcome, 0) + 1
    dist = dice.distribution()
    assert set(counts) <= set(dist)
    for outcome, p in dist.items():
        se = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(counts.get(outcome, 0) / n - float(p)) <= 4 * se + 1e-12, outcome


def test_coerce_accepts_json_lists_and_refuses_impossible_results() -> None:
    assert SuccessPool(3).coerce([2, 1]) == PoolRoll(2, 1)
    with pytest.raises(DiceError):
        SuccessPool(3).coerce([3, 1])
    with pytest.raises(DiceError):
        Fudge(4).coerce(5)
