"""The dedicated dice questions agree with icepool and with brute force, Fraction for Fraction."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from konflikt.analysis.dice_questions import (
    opposed_fudge,
    opposed_fudge_icepool,
    pool_duel,
    pool_duel_icepool,
    pool_vs_status,
    pool_vs_status_icepool,
)


@pytest.mark.parametrize(("attack", "defence", "dice"), [(3, 2, 4), (0, 0, 1), (-1, 4, 3), (2, 2, 2)])
def test_opposed_fudge(attack: int, defence: int, dice: int) -> None:
    brute: dict[int, Fraction] = {}
    for faces in product((-1, 0, 1), repeat=2 * dice):
        margin = attack + sum(faces[:dice]) - defence - sum(faces[dice:])
        brute[margin] = brute.get(margin, Fraction(0)) + Fraction(1, 9**dice)
    assert opposed_fudge(attack, defence, dice) == brute
    assert opposed_fudge(attack, defence, dice) == opposed_fudge_icepool(attack, defence, dice)


@pytest.mark.parametrize(("dice", "status"), [(6, 4), (3, 1), (2, 3), (5, 0)])
def test_pool_vs_status(dice: int, status: int) -> None:
    brute = Fraction(sum(1 for f in product(range(1, 7), repeat=dice) if sum(x >= 4 for x in f) >= status), 6**dice)
    assert pool_vs_status(dice, status) == brute == pool_vs_status_icepool(dice, status)


def test_pool_duel_by_hand_and_icepool() -> None:
    # one die each, Status 1 each: a round ends when someone scores; both score with 1/4, each alone with 1/4
    assert pool_duel(1, 1, 1, 1) == {"a": Fraction(1, 3), "b": Fraction(1, 3), "both": Fraction(1, 3)}
    for args in [(3, 3, 6, 6), (2, 4, 3, 5), (1, 2, 2, 1)]:
        assert pool_duel(*args) == pool_duel_icepool(*args)
        assert sum(pool_duel(*args).values()) == 1
