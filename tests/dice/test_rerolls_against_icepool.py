"""Rerolls in the dice language against icepool 2.1, the reference: ``r`` is ``Die.reroll(which, depth='inf')``
(reroll until the face no longer matches), ``ro`` is ``depth=1`` (once, the second roll kept whatever it shows);
each die rerolls on its own, before exploding and before keeping."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konflikt.dice import PoolRoll
from konflikt.dice.expression import DiceExpression, parse_expression
from konflikt.errors import DiceError
from tests.dice.sampling import assert_samples_follow


def fractions_of(die: icepool.Die) -> dict[Any, Fraction]:
    return {k: Fraction(q, die.denominator()) for k, q in die.items() if q}


d6, d10 = icepool.d6, icepool.d10
FUDGE = icepool.Die([-1, 0, 1])

REROLLS = [
    ("3d6r1", 3 @ d6.reroll([1], depth="inf")),
    ("4d6ro1", 4 @ d6.reroll([1], depth=1)),
    ("4d6r<3", 4 @ d6.reroll(lambda x: x < 3, depth="inf")),
    ("2d10ro<=2", 2 @ d10.reroll(lambda x: x <= 2, depth=1)),
    ("1d20r>=19", icepool.d20.reroll(lambda x: x >= 19, depth="inf")),
    ("2d6r=6+3", 2 @ d6.reroll([6], depth="inf") + 3),
    ("4dFr-1", 4 @ FUDGE.reroll([-1], depth="inf")),
    ("3d{1,1,2,3}ro1", 3 @ icepool.Die([1, 1, 2, 3]).reroll([1], depth=1)),
    ("d6ro<7", d6),  # every face rerolled once: the die again (icepool 2.1.3 divides by zero here)
    ("4d6ro1kh3", d6.reroll([1], depth=1).highest(4, 3)),
    ("4d6kh3r1", d6.reroll([1], depth="inf").highest(4, 3)),
    ("2d20r1kl1", icepool.d20.reroll([1], depth="inf").lowest(2, 1)),
    ("3d6r1!", 3 @ d6.reroll([1], depth="inf").explode()),
    ("2d6ro1!2", 2 @ d6.reroll([1], depth=1).explode(depth=2)),
    ("2d6r6!", 2 @ d6.reroll([6], depth="inf").explode()),
    ("3T6r1", 3 @ d6.reroll([1], depth="inf")),
]


@pytest.mark.parametrize(("expr", "die"), REROLLS, ids=[e for e, _ in REROLLS])
def test_rerolls_agree_with_icepool(expr: str, die: icepool.Die) -> None:
    assert parse_expression(expr).distribution() == fractions_of(die)


def test_reroll_by_hand() -> None:
    """``d6r1`` is 2–6 evenly; ``d6ro1``: a 1 is 1/36 (a 1, then a 1 again), any other face 1/6 + 1/36 = 7/36."""
    assert parse_expression("d6r1").distribution() == {v: Fraction(1, 5) for v in range(2, 7)}
    assert parse_expression("d6ro1").distribution() == {1: Fraction(1, 36), **{v: Fraction(7, 36) for v in range(2, 7)}}


def test_a_rerolled_success_pool_counts_successes_and_ones_as_icepool() -> None:
    for expr, count, die, hit in (
        ("6d6r1>=4", 6, d6.reroll([1], depth="inf"), lambda x: x >= 4),
        ("5d6ro1>=5", 5, d6.reroll([1], depth=1), lambda x: x >= 5),
        ("4d10ro<=2>7", 4, d10.reroll(lambda x: x <= 2, depth=1), lambda x: x > 7),
    ):
        dice = parse_expression(expr)
        assert isinstance(dice, DiceExpression) and dice.pool, expr
        joint = count @ die.map(lambda x, h=hit: icepool.Vector((int(h(x)), int(x == 1))))
        expected = {PoolRoll(*map(int, k)): Fraction(q, joint.denominator()) for k, q in joint.items() if q}
        assert dice.distribution() == expected, expr


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-3, 6), min_size=2, max_size=5).filter(lambda f: len(set(f)) > 1),
    st.sampled_from(["=", "<", "<=", ">", ">="]),
    st.integers(-3, 6),
    st.booleans(),
    st.integers(1, 3),
)
def test_rerolls_of_custom_dice_match_icepool(faces: list[int], op: str, target: int, once: bool, count: int) -> None:
    test: Callable[[int], bool] = {
        "=": lambda x: x == target,
        "<": lambda x: x < target,
        "<=": lambda x: x <= target,
        ">": lambda x: x > target,
        ">=": lambda x: x >= target,
    }[op]
    matched = [f for f in faces if test(f)]
    written = f"{count}d{{{','.join(map(str, faces))}}}{'ro' if once else 'r'}{'' if op == '=' else op}{target}"
    if not matched or (not once and len(matched) == len(faces)):
        with pytest.raises(DiceError, match="rerolls"):
            parse_expression(written)
        return
    every = len(matched) == len(faces)  # rerolled once: the die again (icepool 2.1.3 divides by zero here)
    die = icepool.Die(faces) if every else icepool.Die(faces).reroll(test, depth=1 if once else "inf")
    assert parse_expression(written).distribution() == fractions_of(count @ die)


@pytest.mark.parametrize("expr", ["3d6r1", "4d6ro1", "4d6ro1kh3", "3d6r1!", "6d6r1>=4", "2d10ro<=2"])
def test_rerolled_samples_follow_the_exact_distribution(expr: str) -> None:
    """Seeded: every outcome's share of 20,000 rolls within 4 standard errors of its exact probability."""
    assert_samples_follow(parse_expression(expr), seed=2024, label=expr)


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("3d6r7", "r7 rerolls no face of d6"),
        ("3d6r<1", "rerolls no face"),
        ("d6r<7", "rerolls every face of d6 forever"),
        ("3d6r", "ends too early"),
        ("3d6r(", "expected the face to reroll"),
        ("3d6rx", "unexpected 'rx'"),
        ("3d6r1r2", "unexpected 'r'"),
        ("d{1,6}r1!", "left with one face"),
    ],
)
def test_bad_rerolls_say_what_is_wrong(expr: str, fragment: str) -> None:
    with pytest.raises(DiceError, match=fragment):
        parse_expression(expr)
