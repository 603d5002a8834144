"""The ``pool`` odds question against plain enumeration and against icepool."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import icepool
import pytest

from konflikt.core.ruleset import get_ruleset
from konflikt.errors import KonfliktError
from konflikt.rulesets.fimbulfrost.odds import pool_answer
from konflikt.rulesets.fimbulfrost.rules import dice_needed, p_defeat


def brute(dice: int) -> dict[tuple[int, int], Fraction]:
    counts: dict[tuple[int, int], int] = {}
    for faces in product(range(1, 7), repeat=dice):
        key = (sum(f >= 4 for f in faces), sum(f == 1 for f in faces))
        counts[key] = counts.get(key, 0) + 1
    return {k: Fraction(v, 6**dice) for k, v in counts.items()}


def icepool_joint(dice: int) -> dict[tuple[int, int], Fraction]:
    die = icepool.Die([icepool.Vector((1, 0))] * 3 + [icepool.Vector((0, 1))] + [icepool.Vector((0, 0))] * 2)
    total = dice @ die
    return {(int(v[0]), int(v[1])): Fraction(q, total.denominator()) for v, q in total.items()}


@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
def test_joint_distribution_matches_brute_force_and_icepool(dice: int) -> None:
    answer = pool_answer(dice, 2)
    joint = {
        tuple(int(x) for x in k.split(",")): p for k, p in answer.distributions["succeser,1'ere (successes, ones)"]
    }
    assert joint == brute(dice)
    assert joint == icepool_joint(dice)


@pytest.mark.parametrize(("dice", "status"), [(3, 1), (4, 3), (6, 6), (7, 6), (12, 5), (2, 3)])
def test_defeat_chance_matches_icepool(dice: int, status: int) -> None:
    successes = icepool.d6.pool(dice).keep_outcomes([4, 5, 6]).size()
    expected = Fraction(sum(q for s, q in successes.items() if s >= status), successes.denominator())
    answer = pool_answer(dice, status)
    assert answer.probabilities["overvundet (opponent defeated)"] == expected
    assert p_defeat(dice, status) == expected


def test_successes_distribution_and_brute_force_defeat() -> None:
    answer = pool_answer(4, 3)
    assert dict(answer.outcomes) == {
        "0": Fraction(1, 16),
        "1": Fraction(4, 16),
        "2": Fraction(6, 16),
        "3": Fraction(4, 16),
        "4": Fraction(1, 16),
    }
    joint = brute(4)
    assert answer.probabilities["overvundet uden ulykker (defeated with no 1s)"] == sum(
        p for (s, o), p in joint.items() if s >= 3 and o == 0
    )
    per_roll = "forventede ulykker pr. slag (expected mishap consequences per roll: 1s counted in winning rolls only)"
    assert answer.probabilities[per_roll] == sum(p * o for (s, o), p in joint.items() if s >= 3)


def test_the_question_is_registered_with_its_parameters() -> None:
    question = get_ruleset("fimbulfrost").odds["pool"]
    answer = question.ask({"dice": "7", "status": "6"})
    assert answer.probabilities["overvundet (opponent defeated)"] == Fraction(8, 128)
    with pytest.raises(KonfliktError, match="needs --status"):
        question.ask({"dice": "3"})
    with pytest.raises(KonfliktError, match="--status takes"):
        pool_answer(3, 0)
    with pytest.raises(KonfliktError, match="--dice takes"):
        pool_answer(-1, 2)


def test_zero_dice_never_defeat() -> None:
    assert pool_answer(0, 1).probabilities["overvundet (opponent defeated)"] == 0


def test_dice_needed_is_the_fewest_dice() -> None:
    n = dice_needed(4, Fraction(19, 20))
    assert p_defeat(n, 4) >= Fraction(19, 20) > p_defeat(n - 1, 4)


def test_mishaps_per_roll_and_given_a_victory_are_both_shown_and_labelled() -> None:
    """6d6 against Status 4: one 1 per roll, 3/16 mishap consequences per roll (wins only), 6/11 given a victory."""
    probabilities = pool_answer(6, 4).probabilities
    assert probabilities["forventede 1'ere pr. slag (expected 1s per roll, win or not)"] == 1
    assert probabilities[
        "forventede ulykker pr. slag (expected mishap consequences per roll: 1s counted in winning rolls only)"
    ] == Fraction(3, 16)
    given = "forventede ulykker givet sejr (expected mishap consequences given that the roll defeats)"
    assert probabilities[given] == Fraction(6, 11)
    joint = brute(6)
    wins = sum(p for (s, _), p in joint.items() if s >= 4)
    assert probabilities[given] == sum(p * o for (s, o), p in joint.items() if s >= 4) / wins
