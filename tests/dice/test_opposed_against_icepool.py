"""``A vs B`` against icepool 2.1 (the margin ``A - B`` of two independent dice), and ``A vs B by RULE`` against
brute force over every pair of rolls with the rule written out here, independently of the ruleset's code."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konflikt.analysis.dice_questions import opposed_fudge, read_dice
from konflikt.dice import parse_dice
from konflikt.dice.expression import parse_expression
from konflikt.dice.opposed import Opposed
from konflikt.errors import DiceError
from tests.dice.sampling import assert_samples_follow


def fractions_of(die: icepool.Die) -> dict[Any, Fraction]:
    return {k: Fraction(q, die.denominator()) for k, q in die.items() if q}


d6, d10, d12, d20 = icepool.d6, icepool.d10, icepool.d12, icepool.d20
FUDGE = icepool.Die([-1, 0, 1])


def successes(count: int, at_least: int) -> icepool.Die:
    return count @ d6.map(lambda x: int(x >= at_least))


OPPOSED = [
    ("2d6 vs 2d6", 2 @ d6, 2 @ d6),
    ("2T+3 vs 2T+1", 2 @ d6 + 3, 2 @ d6 + 1),
    ("d100 vs d100", icepool.d100, icepool.d100),
    ("4dF+2 vs 4dF", 4 @ FUDGE + 2, 4 @ FUDGE),
    ("3d6 vs 1d20", 3 @ d6, d20),
    ("4d6kh3 vs 3d6", d6.highest(4, 3), 3 @ d6),
    ("max(2d6,d12) vs 2d6r1", icepool.highest(2 @ d6, d12), 2 @ d6.reroll([1], depth="inf")),
    ("2d6*2 VS 3d8", (2 @ d6) * 2, 3 @ icepool.d8),
    ("6d6>=4 vs 5d6>=4", successes(6, 4), successes(5, 4)),
    ("(3d6)+1 vs 20", 3 @ d6 + 1, icepool.Die([20])),
]


@pytest.mark.parametrize(("expr", "a", "b"), OPPOSED, ids=[e for e, _, _ in OPPOSED])
def test_who_is_higher_and_the_margin_agree_with_icepool(expr: str, a: icepool.Die, b: icepool.Die) -> None:
    dice = parse_dice(expr)
    assert isinstance(dice, Opposed)
    margin = a - b
    assert dice.margin() == fractions_of(margin)
    expected = {
        "A higher": fractions_of(margin > 0).get(True, Fraction(0)),
        "tie": fractions_of(margin == 0).get(True, Fraction(0)),
        "B higher": fractions_of(margin < 0).get(True, Fraction(0)),
    }
    assert dice.distribution() == expected
    assert sum(dice.distribution().values()) == 1


@settings(max_examples=50, deadline=None)
@given(
    st.integers(1, 4),
    st.sampled_from([4, 6, 10]),
    st.integers(-3, 3),
    st.integers(1, 4),
    st.sampled_from([4, 6, 10]),
    st.integers(-3, 3),
)
def test_sums_against_sums_match_icepool(n: int, s: int, k: int, m: int, t: int, j: int) -> None:
    dice = parse_dice(f"{n}d{s}{k:+d} vs {m}d{t}{j:+d}")
    assert isinstance(dice, Opposed)
    margin = (n @ icepool.Die(range(1, s + 1)) + k) - (m @ icepool.Die(range(1, t + 1)) + j)
    assert dice.margin() == fractions_of(margin)
    assert dice.distribution()["A higher"] == fractions_of(margin > 0).get(True, Fraction(0))


# ---- rules, against the text's rules written out here ---------------------------------------------------------------


def effect(roll: int) -> int:
    """Le våld's effekt: the tens die plus the units die of a d100 (00, read 100, has effect 0)."""
    return 0 if roll == 100 else roll // 10 + roll % 10


def quality(roll: int, target: int, exceptional: str = "fifth") -> tuple[int, int]:
    if roll > target:
        return (0, 0)
    doubles = roll == 100 or (roll < 100 and roll % 11 == 0)
    special = roll <= target // 5 if exceptional == "fifth" else doubles if exceptional == "doubles" else False
    return (2 if special else 1, effect(roll))


def brute_quality(ta: int, tb: int, exceptional: str = "fifth") -> dict[str, Fraction]:
    ways = {"A wins": 0, "nobody wins": 0, "B wins": 0}
    for x, y in product(range(1, 101), repeat=2):
        qa, qb = quality(x, ta, exceptional), quality(y, tb, exceptional)
        ways["A wins" if qa > qb else "B wins" if qb > qa else "nobody wins"] += 1
    return {k: Fraction(w, 10_000) for k, w in ways.items()}


@pytest.mark.parametrize(("ta", "tb"), [(60, 55), (55, 60), (30, 90), (100, 5), (0, 45), (125, 75)])
def test_quality_is_le_valds_opposed_roll_by_brute_force(ta: int, tb: int) -> None:
    dice = read_dice(f"d100<={ta} vs d100<={tb} by quality")
    assert dice.distribution() == brute_quality(ta, tb)


def test_quality_takes_the_rulesets_options() -> None:
    doubles = read_dice("d100<=60 vs d100<=55 by quality", {"exceptional": "doubles"})
    assert doubles.distribution() == brute_quality(60, 55, "doubles")
    assert doubles.distribution() != read_dice("d%<=60 vs d%<=55 by quality").distribution()


@pytest.mark.parametrize(("ta", "tb"), [(60, 55), (40, 70), (85, 30), (50, 50), (10, 95)])
def test_attack_wins_as_le_valds_attack_question(ta: int, tb: int) -> None:
    """``by attack``: the attack must succeed with higher quality; equal to ``odds levald attack``'s answer."""
    from konflikt.rulesets.levald.odds import attack_odds

    dice = read_dice(f"d100<={ta} vs d100<={tb} by attack")
    wins = sum(
        Fraction(1, 10_000)
        for x, y in product(range(1, 101), repeat=2)
        if quality(x, ta)[0] and quality(x, ta) > quality(y, tb)
    )
    assert dice.distribution() == {"attack wins": wins, "defence holds": 1 - wins}
    assert wins == attack_odds(ta, tb).wins


@pytest.mark.parametrize(("attack", "defence"), [(3, 2), (0, 0), (1, 4), (5, -1), (-2, 2)])
def test_pressure_is_presjas_margin_from_zero(attack: int, defence: int) -> None:
    dice = read_dice(f"4dF{attack:+d} vs 4dF{defence:+d} by pressure")
    margin = fractions_of((4 @ FUDGE + attack) - (4 @ FUDGE + defence))
    assert margin == opposed_fudge(attack, defence)
    expected = {k: p for k, p in margin.items() if k > 0}
    expected[0] = sum((p for k, p in margin.items() if k <= 0), Fraction(0))
    assert dice.distribution() == dict(sorted(expected.items()))


@pytest.mark.parametrize(("a", "b"), [(3, 1), (0, 0), (1, 4), (2, 2), (5, 0)])
def test_contest_is_pwges_opposed_roll_ties_to_b(a: int, b: int) -> None:
    dice = read_dice(f"2T+{a} vs 2T+{b} by contest")
    wins = fractions_of((2 @ d6 + a) > (2 @ d6 + b)).get(True, Fraction(0))
    assert dice.distribution() == {"A wins": wins, "B holds": 1 - wins}


@pytest.mark.parametrize(
    "expr",
    ["2d6 vs 2d6", "d100 vs d100", "6d6>=4 vs 5d6>=4", "d100<=60 vs d100<=55 by quality", "4dF+3 vs 4dF+2 by pressure"],
)
def test_opposed_samples_follow_the_exact_distribution(expr: str) -> None:
    """Seeded: every outcome's share of 20,000 rolls within 4 standard errors of its exact probability."""
    assert_samples_follow(read_dice(expr), seed=45, label=expr)


def test_a_roll_shows_both_sides_and_reads_them_at_the_table() -> None:
    dice = read_dice("d100<=60 vs d100<=55 by quality")
    outcome, faces = dice.roll(np.random.default_rng(3))
    assert outcome == dice.sample(np.random.default_rng(3))
    assert dice.faces_text(faces).startswith("A ") and " vs B " in dice.faces_text(faces)
    assert dice.parse("18 24") == "A wins"  # both succeed; effekt 9 against 6
    assert dice.parse("82 09") == "B wins"
    plain = parse_dice("2d6 vs 2d6")
    assert plain.parse("7 7") == "tie"
    with pytest.raises(DiceError, match="A's number and B's number"):
        plain.parse("13 2")


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("d100<=60 vs d100<=55", "is a yes/no test"),
        ("2d6 vs 2d6 vs 2d6", "one 'vs' at a time"),
        ("2d6 vs", "ends too early"),
        ("vs 2d6", "unexpected 'vs'"),
        ("2d6 vs 2d6 by", "ends too early"),
        ("2d6 vs 2d6 by chess", "no opposed rule 'chess' (known: attack, contest, pressure, quality)"),
        ("2d6 vs 2d6 by quality", "write A as d100<=T"),
        ("d100<=60 vs d100<55 by quality", "write B as d100<=T"),
        ("d100<=60 vs 2d100<=55 by attack", "write B as d100<=T"),
        ("4dF>=1 vs 4dF by pressure", "as numbers: A = 4dF>=1"),
        ("2T vs 2T>7 by contest", "as numbers: B = 2T>7"),
        ("2d6 vs 2d6 by quality extra", "unexpected 'extra'"),
        ("5 vs 3", "roll at least one die on one side"),
    ],
)
def test_bad_opposed_rolls_say_what_is_wrong(expr: str, fragment: str) -> None:
    with pytest.raises(DiceError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        read_dice(expr)


def test_without_the_rules_by_names_none() -> None:
    with pytest.raises(DiceError, match="no opposed rule 'quality' \\(known: none here\\)"):
        parse_expression("d100<=60 vs d100<=55 by quality")
