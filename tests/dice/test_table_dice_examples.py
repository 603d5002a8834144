"""The systems' dice at the table: the example typed, a pool's 1s, a long number refused (survivors of
`scripts/mutation.sh dice:dice`, the whole module run in one go).

Expected values are worked out by hand.
"""

from __future__ import annotations

from re import escape

import numpy as np
import pytest

from konflikt.dice import SuccessPool, SumDice, parse_dice
from konflikt.errors import DiceError


def test_the_example_of_many_dice_cycles_through_six_different_faces() -> None:
    """The prompt's example for 6d6 is ``3 5 6 1 4 2`` and for 8d6 it starts over: ``3 5 6 1 4 2 3 5``.

    Kills ``SumDice.table_hint``: the example's fifth face 5 for 4 and its sixth 3 for 2.
    """
    assert SumDice(6, 6).table_hint() == "the 6 dice (1–6), e.g. '3 5 6 1 4 2'"
    assert SumDice(8, 6).table_hint() == "the 8 dice (1–6), e.g. '3 5 6 1 4 2 3 5'"
    assert SumDice(6, 4).table_hint() == "the 6 dice (1–4), e.g. '3 4 4 1 4 2'"


def test_a_pool_that_succeeds_from_2_counts_its_1s_apart() -> None:
    """With successes from 2 every die is a success or a 1: the two counts of every roll add up to the dice.

    Kills ``SuccessPool.sample``: the 1s counted as ``faces == 2`` (with successes from 4 the 2s and 1s are
    alike, so only a pool that succeeds from 2 tells them apart).
    """
    pool = SuccessPool(4, success_from=2)
    rng = np.random.default_rng(3)
    rolls = [pool.sample(rng) for _ in range(200)]
    assert all(r.successes + r.ones == 4 for r in rolls)
    assert {r.ones for r in rolls} >= {0, 1, 2}


def test_a_number_too_long_is_refused_with_the_expression_shown() -> None:
    """More than 18 digits: refused, the expression shown as typed, or its first 40 characters and ``…``.

    Kills ``check_numbers``: ``shown = None``, the shortening always (``… and False``) or never (``… or True``),
    ``< 40`` and ``<= 41`` for ``<= 40``, 41 characters kept, ``XX…XX`` for ``…``, the message ``None``.
    """
    short = "d" + "9" * 19
    with pytest.raises(DiceError, match=f"dice expression '{short}' has a number of 19 digits"):
        parse_dice(short)
    forty = "2d6+" + "1" * 36
    with pytest.raises(DiceError, match=escape(f"dice expression '{forty}' has a number of 36 digits")):
        parse_dice(forty)
    with pytest.raises(DiceError, match=escape(f"dice expression '{forty}…' has a number of 37 digits")):
        parse_dice(forty + "1")
    long = "2d6+" + "1" * 50
    with pytest.raises(DiceError, match=escape(f"dice expression '{long[:40]}…' has a number of 50 digits")):
        parse_dice(long)
