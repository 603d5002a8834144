"""The systems' dice as the table types and reads them (found missing by `scripts/mutation.sh dice`).

Notation, the hint at the prompt, the words in the log, the dice refused with a reason, and the cost estimate.
Expected values are worked out by hand.
"""

from __future__ import annotations

from fractions import Fraction as F
from re import escape

import numpy as np
import pytest

from konflikt.dice import Dice, Fudge, Percentile, PoolRoll, SuccessPool, SumDice, brute_force, effect, parse_dice
from konflikt.dice.dice import MAX_DICE, exact_seconds, fudge_sums
from konflikt.errors import DiceError


@pytest.mark.parametrize(
    ("expr", "dice"),
    [
        ("4dF+2", Fudge(4, 2)),
        ("4dF-1", Fudge(4, -1)),
        ("dF", Fudge(1, 0)),
        ("2T", SumDice(2, 6, 0, "T")),
        ("2T+2", SumDice(2, 6, 2, "T")),
        ("3T6", SumDice(3, 6, 0, "T6")),
        ("2d6-1", SumDice(2, 6, -1, "d")),
        ("d8", SumDice(1, 8, 0, "d")),
        ("pool 5d6", SuccessPool(5)),
        ("6 d 6 pool", SuccessPool(6)),
        ("1d100", Percentile()),
        ("200d6", SumDice(200, 6)),
        ("2d1000", SumDice(2, 1000)),
        ("2d2", SumDice(2, 2)),
    ],
)
def test_the_systems_rolls_are_read_from_their_notation(expr: str, dice: object) -> None:
    assert parse_dice(expr) == dice


@pytest.mark.parametrize(
    ("dice", "notation"),
    [
        (SumDice(3, 10, 0, "T"), "3T10"),
        (SumDice(3, 6, 0, "T6"), "3T6"),
        (SumDice(2, 6, 2, "T"), "2T+2"),
        (SumDice(2, 6, -2, "d"), "2d6-2"),
        (Fudge(4, 1), "4dF+1"),
        (SuccessPool(3), "3d6 pool"),
        (Percentile(), "d100"),
    ],
)
def test_notation_of_each_kind(dice: object, notation: str) -> None:
    assert str(dice) == notation


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("  ", "empty dice expression"),
        ("201d6", "dice expression '201d6' must roll 1 to 200 dice"),
        ("0P", "dice expression '0P' must roll 1 to 200 dice"),
        ("0dF", "dice expression '0dF' must roll 1 to 200 dice"),
        ("3d", "cannot read dice expression '3d': say how many sides, e.g. 3d6"),
        ("2d1001", "cannot read dice expression '2d1001': dice need 2 to 1000 sides"),
    ],
)
def test_a_dice_expression_refused_says_why(expr: str, message: str) -> None:
    assert MAX_DICE == 200
    with pytest.raises(DiceError, match=f"^{escape(message)}$"):
        parse_dice(expr)


def test_fudge_faces_are_read_with_any_minus_sign_and_the_modifier_added() -> None:
    assert Fudge(4).parse("+ − – -") == -2
    assert Fudge(4, 2).parse("+ + + +") == 6
    assert Fudge(4, 2).parse("+,+,0,0") == 4
    assert Fudge(4).parse("−4") == -4
    assert Fudge(4).parse("+4") == 4
    assert Fudge(2, 1).parse("3") == 3, "a total is the total, modifier included"


def test_fudge_dice_refused_say_why() -> None:
    with pytest.raises(DiceError, match=r"^5 is not a possible total of 4dF$"):
        Fudge(4).parse("5")
    with pytest.raises(DiceError, match=escape("cannot read '+ +' as 3dF: type 3 faces such as '+ 0 -', or the total")):
        Fudge(3).parse("+ +")
    with pytest.raises(DiceError, match=escape("cannot read 'x' as 4dF: type 4 faces such as '+ 0 - +', or the total")):
        Fudge(4).parse("x")


def test_sum_dice_are_read_die_by_die_or_as_the_total() -> None:
    assert SumDice(1, 6, 2, "T").parse("5") == 7, "one die read as its face, the modifier added"
    assert SumDice(1, 6, 2, "T").parse("8") == 8, "a number no die shows is the total"
    assert SumDice(2, 6, 2, "T").parse("6, 6") == 14
    assert SumDice(2, 6, 0).parse("1 6") == 7
    with pytest.raises(DiceError, match=r"^1 is not a possible total of 2d6$"):
        SumDice(2, 6, 0).parse("1")
    with pytest.raises(DiceError, match=escape("cannot read '0 6' as 2d6: type the 2 dice (1–6) or the total")):
        SumDice(2, 6, 0).parse("0 6")
    with pytest.raises(DiceError, match=escape("cannot read '7 1' as 2d6: type the 2 dice (1–6) or the total")):
        SumDice(2, 6, 0).parse("7 1")
    with pytest.raises(DiceError, match=escape("cannot read '3 x' as dice: expected whole numbers")):
        SumDice(2, 6, 0).parse("3 x")


def test_a_success_pool_counts_4_to_6_as_successes_and_the_1s_apart() -> None:
    assert SuccessPool(6).parse("1 2 3 4 5 6") == PoolRoll(3, 1)
    assert SuccessPool(3).read([1, 1, 4]) == PoolRoll(1, 2)
    assert SuccessPool(3, success_from=5).read([4, 5, 6]) == PoolRoll(2, 0)
    assert SuccessPool(0).parse("") == PoolRoll(0, 0)
    assert SuccessPool(1).successes() == {0: F(1, 2), 1: F(1, 2)}
    assert SuccessPool(1).distribution() == {PoolRoll(0, 0): F(1, 3), PoolRoll(0, 1): F(1, 6), PoolRoll(1, 0): F(1, 2)}
    assert SuccessPool(2, success_from=1).distribution() == {PoolRoll(2, 0): F(1)}
    with pytest.raises(
        DiceError, match=escape("cannot read '3 5' as 3d6 pool: type each of the 3 dice (1–6), e.g. '3 5 6'")
    ):
        SuccessPool(3).parse("3 5")
    with pytest.raises(DiceError, match=escape("cannot read '0' as 1d6 pool: type each of the 1 dice (1–6), e.g. '3'")):
        SuccessPool(1).parse("0")
    with pytest.raises(DiceError, match=escape("(3, 1) is not a possible result of 3d6 pool")):
        SuccessPool(3).coerce((3, 1))
    with pytest.raises(DiceError, match=escape("5 is not a possible result of 4dF")):
        Fudge(4).coerce(5)
    assert Fudge(4).coerce(4) == 4


def test_d100_reads_two_digits_and_00_is_100() -> None:
    p = Percentile()
    assert [p.parse(t) for t in ("00", "100", "0 0", "1", "07", "9 9", "0 7")] == [100, 100, 100, 1, 7, 99, 7]
    for bad in ("0", "101", "1 2 3", "12 3"):
        with pytest.raises(DiceError, match=escape(f"cannot read {bad!r} as d100: type the two digits as read")):
            p.parse(bad)
    assert p.distribution() == {v: F(1, 100) for v in range(1, 101)}


def test_effect_is_tens_plus_units_and_00_has_none() -> None:
    assert [effect(v) for v in (47, 100, 9, 10, 99, 1)] == [11, 0, 9, 1, 18, 1]


def test_the_log_describes_each_kind_of_roll_in_words() -> None:
    assert Fudge(4).describe(2) == "+2"
    assert Fudge(4).describe(-1) == "-1"
    assert Fudge(4).describe(0) == "+0"
    assert SuccessPool(3).describe(PoolRoll(1, 0)) == "1 success, 0×1"
    assert SuccessPool(3).describe(PoolRoll(2, 1)) == "2 successes, 1×1"
    assert SuccessPool(3).describe(PoolRoll(0, 3)) == "0 successes, 3×1"
    assert Percentile().describe(100) == "00 (effect 0)"
    assert Percentile().describe(7) == "07 (effect 7)"
    assert Percentile().describe(47) == "47 (effect 11)"
    assert SumDice(3).describe(11) == "11"


def test_tables_and_json_label_a_pool_roll_by_successes_and_ones() -> None:
    assert SuccessPool(3).outcome_label(PoolRoll(2, 1)) == "2,1"
    assert SumDice(3).outcome_label(11) == "11"


def test_the_prompt_says_how_to_type_each_roll() -> None:
    assert Fudge(4).table_hint() == "4 faces (+ 0 -), e.g. '+ + 0 -', or the total"
    assert SumDice(2).table_hint() == "the 2 dice (1–6), e.g. '3 5'"
    assert SumDice(3, 10).table_hint() == "the 3 dice (1–10), e.g. '3 5 6'"
    assert SumDice(4).table_hint() == "the 4 dice (1–6), e.g. '3 5 6 1'"
    assert SuccessPool(6).table_hint() == "each of the 6 dice, e.g. '3 5 6 1 4 2'"
    assert SuccessPool(0).table_hint() == "each of the 0 dice, e.g. '3'"
    assert Percentile().table_hint() == "the two digits as read, e.g. '47' ('00' is 100)"


def test_fudge_sampling_table_lists_every_face_combination() -> None:
    assert fudge_sums(1) == (-1, 0, 1)
    assert fudge_sums(2) == (-2, -1, 0, -1, 0, 1, 0, 1, 2)


def test_many_fudge_dice_are_sampled_die_by_die_within_their_range() -> None:
    rng = np.random.default_rng(7)
    rolls = [Fudge(10, 3).sample(rng) for _ in range(2000)]
    assert min(rolls) >= -7 and max(rolls) <= 13
    assert abs(sum(rolls) / len(rolls) - 3) < 0.2, "mean 3: 10 dice of mean 0, +3 (SE 0.06)"
    assert len(set(rolls)) > 9


def test_small_fudge_and_sum_dice_sample_within_their_range_with_the_modifier() -> None:
    rng = np.random.default_rng(11)
    fudge = [Fudge(4, 2).sample(rng) for _ in range(2000)]
    assert (min(fudge), max(fudge)) == (-2, 6)
    sums = [SumDice(2, 6, 1).sample(rng) for _ in range(2000)]
    assert (min(sums), max(sums)) == (3, 13)
    pools = {SuccessPool(1).sample(rng) for _ in range(200)}
    assert pools == {PoolRoll(0, 0), PoolRoll(0, 1), PoolRoll(1, 0)}


def test_exact_cost_is_estimated_by_faces_dice_and_cases() -> None:
    assert exact_seconds(SumDice(2)) == pytest.approx(1.7594e-07, rel=1e-3)  # (11 × 14) ** 1.585 × 6e-11
    assert exact_seconds(Fudge(2)) == pytest.approx(3.9493e-08, rel=1e-3)  # (5 × 12) ** 1.585 × 6e-11
    assert exact_seconds(SumDice(1)) == 0.0
    assert exact_seconds(Percentile()) == 0.0


def test_brute_force_knows_every_kind_and_refuses_others() -> None:
    assert brute_force(Fudge(1, 1)) == {0: F(1, 3), 1: F(1, 3), 2: F(1, 3)}
    assert brute_force(SumDice(1, 2, -1)) == {0: F(1, 2), 1: F(1, 2)}
    with pytest.raises(TypeError, match="no brute force for"):
        brute_force(parse_dice("4d6kh3"))


def test_an_outcome_from_json_of_the_wrong_shape_is_refused_with_the_reason() -> None:
    with pytest.raises(DiceError, match=escape("[1, 2] is not a possible result of 4dF")):
        Fudge(4).coerce([1, 2])
    with pytest.raises(DiceError, match=escape("5 is not a possible result of 3d6 pool")):
        SuccessPool(3).coerce(5)
    assert SuccessPool(3).coerce(PoolRoll(1, 0)) == PoolRoll(1, 0)


def test_a_stray_letter_among_fudge_faces_is_refused_not_skipped() -> None:
    with pytest.raises(DiceError, match="cannot read"):
        Fudge(2).parse("X+X+")


def test_a_roll_of_a_new_kind_is_typed_as_its_total_by_default() -> None:
    """The defaults of :class:`Dice` for a kind of roll that says nothing more."""

    class Coin(Dice):
        notation = "coin"

        def distribution(self) -> dict[int, F]:
            return {0: F(1, 2), 1: F(1, 2)}

        def sample(self, rng: np.random.Generator) -> int:
            return int(rng.integers(2))

        def parse(self, text: str) -> int:
            return int(text)

    assert Coin().table_hint() == "the total"
    assert Coin().describe(1) == "1"
    assert Coin().outcome_label(0) == "0"
    assert Coin().coerce(1) == 1
    assert str(Coin()) == "coin"


def test_one_die_is_read_as_its_face_from_1_to_its_sides() -> None:
    """``1T+2`` read as the die showed: 1 → 3 and 6 → 8 (the faces at both ends)."""
    assert SumDice(1, 6, 2, "T").parse("1") == 3
    assert SumDice(1, 6, 2, "T").parse("6") == 8


def test_a_pool_needs_each_of_its_dice_and_no_more() -> None:
    for pool, text in ((SuccessPool(3), ""), (SuccessPool(1), ""), (SuccessPool(0), "3")):
        with pytest.raises(DiceError, match="cannot read"):
            pool.parse(text)
    six = "cannot read '1' as 6d6 pool: type each of the 6 dice (1–6), e.g. '3 5 6 1 4 2'"
    with pytest.raises(DiceError, match=escape(six)):
        SuccessPool(6).parse("1")
