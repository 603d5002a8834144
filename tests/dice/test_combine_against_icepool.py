"""Products, ``max``/``min`` and ``highest/lowest N of`` in the dice language against icepool 2.1: ``*`` multiplies
values (``2d6*3`` is ``(2 @ d6) * 3``; ``d6*d6`` two independent dice), ``max``/``min`` are icepool's
``highest``/``lowest`` of independent dice, ``highest N of (…)`` a mixed pool's kept sum."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konflikt.dice import exact_seconds, parse_dice
from konflikt.dice.expression import parse_expression
from konflikt.errors import DiceError
from tests.dice.sampling import assert_samples_follow


def fractions_of(die: icepool.Die) -> dict[Any, Fraction]:
    return {k: Fraction(q, die.denominator()) for k, q in die.items() if q}


d4, d6, d8, d10, d12, d20 = icepool.d4, icepool.d6, icepool.d8, icepool.d10, icepool.d12, icepool.d20
FUDGE = icepool.Die([-1, 0, 1])

PRODUCTS = [
    ("2d6*3", (2 @ d6) * 3),
    ("3*1d6", d6 * 3),
    ("d6*d6", d6 * d6),
    ("-2*d4+1", -2 * d4 + 1),
    ("(2d6+1)*d4", (2 @ d6 + 1) * d4),
    ("1dF*d6", FUDGE * d6),
    ("2*3*d8-1", d8 * 6 - 1),
    ("d4*d4*d4", d4 * d4 * d4),
    ("4d6kh3*2", d6.highest(4, 3) * 2),
    ("d6×2", d6 * 2),
]

EXTREMES = [
    ("max(2d6,1d12)", icepool.highest(2 @ d6, d12)),
    ("max(d20,d20)", d20.highest(2, 1)),
    ("min(2d6, 1d12, d20)", icepool.lowest(2 @ d6, d12, d20)),
    ("min(d6+2,2d4)", icepool.lowest(d6 + 2, 2 @ d4)),
    ("max(1dF,1dF,1dF)+1", FUDGE.highest(3, 1) + 1),
    ("max(d6*d6, 2d10)", icepool.highest(d6 * d6, 2 @ d10)),
    ("2*max(d8,d8)", d8.highest(2, 1) * 2),
    ("max(3,d6)", icepool.highest(icepool.Die([3]), d6)),
]

KEEPS_OF = [
    ("highest 3 of 4d6", d6.highest(4, 3)),
    ("lowest 1 of 2d20", d20.lowest(2, 1)),
    ("HIGHEST 2 of 5d10+1", d10.highest(5, 2) + 1),
    ("highest 2 of (1d6, 1d8, 1d10)", icepool.Pool([d6, d8, d10]).highest(2).sum()),
    ("lowest 2 of (2d6, d12, 3d4)", icepool.Pool([2 @ d6, d12, 3 @ d4]).lowest(2).sum()),
    ("highest 1 of (d4, d6)", icepool.highest(d4, d6)),
    ("highest 3 of (d6, d6, d6)", 3 @ d6),
    ("highest 2 of 4d6r1", d6.reroll([1], depth="inf").highest(4, 2)),
]


@pytest.mark.parametrize(("expr", "die"), PRODUCTS, ids=[e for e, _ in PRODUCTS])
def test_products_agree_with_icepool(expr: str, die: icepool.Die) -> None:
    assert parse_expression(expr).distribution() == fractions_of(die)


@pytest.mark.parametrize(("expr", "die"), EXTREMES, ids=[e for e, _ in EXTREMES])
def test_max_and_min_agree_with_icepool(expr: str, die: icepool.Die) -> None:
    assert parse_expression(expr).distribution() == fractions_of(die)


@pytest.mark.parametrize(("expr", "die"), KEEPS_OF, ids=[e for e, _ in KEEPS_OF])
def test_highest_and_lowest_of_agree_with_icepool(expr: str, die: icepool.Die) -> None:
    assert parse_expression(expr).distribution() == fractions_of(die)


def test_max_and_product_by_brute_force() -> None:
    """``max(d4, 2d3)`` and ``d4*d3`` over every face, without icepool."""
    counts: dict[int, int] = {}
    for a, b, c in product(range(1, 5), range(1, 4), range(1, 4)):
        counts[max(a, b + c)] = counts.get(max(a, b + c), 0) + 1
    assert parse_expression("max(d4, 2d3)").distribution() == {k: Fraction(v, 36) for k, v in counts.items()}
    products: dict[int, int] = {}
    for a, b in product(range(1, 5), range(1, 4)):
        products[a * b] = products.get(a * b, 0) + 1
    assert parse_expression("d4*d3").distribution() == {k: Fraction(v, 12) for k, v in sorted(products.items())}


def test_comparisons_and_pools_take_the_new_forms() -> None:
    assert parse_expression("max(2d6,1d12)>=10").distribution() == fractions_of(icepool.highest(2 @ d6, d12) >= 10)
    assert parse_expression("2d6*2>15").distribution() == fractions_of((2 @ d6) * 2 > 15)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 3), st.sampled_from([4, 6, 8])), min_size=2, max_size=4),
    st.integers(1, 4),
    st.booleans(),
)
def test_mixed_keeps_match_icepool(rolls: list[tuple[int, int]], keep: int, highest: bool) -> None:
    keep = min(keep, len(rolls))
    text = ", ".join(f"{n}d{s}" for n, s in rolls)
    written = f"{'highest' if highest else 'lowest'} {keep} of ({text})"
    dice = [n @ icepool.Die(range(1, s + 1)) for n, s in rolls]
    pool = icepool.Pool(dice)
    expected = (pool.highest(keep) if highest else pool.lowest(keep)).sum()
    assert parse_expression(written).distribution() == fractions_of(expected)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(-3, 4).filter(bool),
    st.integers(1, 3),
    st.sampled_from([4, 6]),
    st.integers(1, 2),
    st.sampled_from([3, 6]),
)
def test_products_match_icepool(scale: int, n: int, sides: int, m: int, other: int) -> None:
    written = f"{scale}*{n}d{sides}*{m}d{other}"
    expected = (n @ icepool.Die(range(1, sides + 1))) * (m @ icepool.Die(range(1, other + 1))) * scale
    assert parse_expression(written).distribution() == fractions_of(expected)


@pytest.mark.parametrize(
    "expr", ["2d6*3", "d6*d6", "max(2d6,1d12)", "min(d20,d20)", "highest 2 of (1d6, 1d8, 1d10)", "lowest 1 of 3d6"]
)
def test_combined_samples_follow_the_exact_distribution(expr: str) -> None:
    """Seeded: every outcome's share of 20,000 rolls within 4 standard errors of its exact probability."""
    assert_samples_follow(parse_expression(expr), seed=45, label=expr)


def test_cost_estimates_of_the_new_forms() -> None:
    for big in ("50d100*50d100", "highest 2 of (20d100, 20d100, 20d100)", "max(100d100, 2d6)"):
        assert exact_seconds(parse_dice(big)) > 3, big
    for small in ("2d6*3", "d%*d%", "max(2d6,1d12)", "highest 2 of (1d6, 1d8, 1d10)", "3d6r1"):
        assert exact_seconds(parse_dice(small)) < 0.5, small


def test_notation_spaces_the_words() -> None:
    assert parse_dice("highest  2 of(1d6,1d8)").notation == "highest 2 of (1d6,1d8)"
    assert parse_dice("max( 2d6 , 1d12 )").notation == "max(2d6,1d12)"
    assert parse_dice("2d10 + 1d4 - 2").notation == "2d10+1d4-2"


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("max(2d6)", "max takes two or more expressions"),
        ("max 2d6, 1d12", "max takes expressions in brackets"),
        ("min(2d6; 1d12)", "unexpected"),
        ("max(2d6 1d12)", "separated by commas"),
        ("highest 5 of 4d6", "cannot keep 5 of 4 dice"),
        ("highest 3 of (d6, d8)", "cannot keep 3 of 2 rolls"),
        ("highest 2 in 4d6", "write highest 2 of 4d6"),
        ("highest 2 of 4d6kh3", "already keeps"),
        ("highest 2 of 3", "takes dice"),
        ("highest of 4d6", "how many to keep"),
        ("3d6**2", "unexpected '*'"),
        ("3d6*", "ends too early"),
        ("max(" + ",".join(["d6"] * 21) + ")", "at most 20"),
    ],
)
def test_bad_combinations_say_what_is_wrong(expr: str, fragment: str) -> None:
    with pytest.raises(DiceError, match=fragment):
        parse_expression(expr)
