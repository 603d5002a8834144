"""Exact distributions and how their numbers are written (found missing by `scripts/mutation.sh dice`).

Every expected value here is worked out by hand (counting faces), never by the functions under test.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from konflikt.dice.counts import Counts, pack, slot_bits, sum_seconds, unpack
from konflikt.dice.distribution import convolve, decimal_text, fraction_text, mean, normalise, power, value_text

D3 = {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}


def test_weights_become_probabilities_in_outcome_order_without_the_impossible() -> None:
    result = normalise({2: 1, 1: 3, 3: 0})
    assert result == {1: F(3, 4), 2: F(1, 4)}
    assert list(result) == [1, 2]


def test_outcomes_without_an_order_keep_the_order_given() -> None:
    assert list(normalise({"b": 1, 2: 1, "a": 2})) == ["b", 2, "a"]


def test_the_sum_of_two_coins_is_1_2_1_over_4() -> None:
    coin = {0: F(1, 2), 1: F(1, 2)}
    assert convolve(coin, coin) == {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}
    assert list(convolve({1: F(1, 2), 0: F(1, 2)}, {0: F(1)})) == [0, 1]


@pytest.mark.parametrize(
    ("n", "ways"),
    [
        (0, {0: 1}),
        (1, {1: 1, 2: 1, 3: 1}),
        (2, {2: 1, 3: 2, 4: 3, 5: 2, 6: 1}),
        (3, {3: 1, 4: 3, 5: 6, 6: 7, 7: 6, 8: 3, 9: 1}),
        (4, {4: 1, 5: 4, 6: 10, 7: 16, 8: 19, 9: 16, 10: 10, 11: 4, 12: 1}),
    ],
)
def test_n_d3_summed_counts_every_face_combination(n: int, ways: dict[int, int]) -> None:
    total = 3**n
    assert power(D3, n) == {k: F(w, total) for k, w in ways.items()}


def test_the_mean_weights_each_outcome_by_its_chance() -> None:
    assert mean({1: F(1, 2), 4: F(1, 2)}) == F(5, 2)
    assert mean({-3: F(1, 4), 1: F(3, 4)}) == 0
    assert mean({}) == 0


def test_a_fraction_is_written_in_lowest_terms_a_whole_number_alone() -> None:
    assert fraction_text(F(6, 8)) == "3/4"
    assert fraction_text(F(2)) == "2"
    assert fraction_text(F(0)) == "0"


@pytest.mark.parametrize(
    ("p", "digits", "text"),
    [
        (F(1, 3), 6, "0.333333"),
        (F(2, 3), 6, "0.666667"),
        (F(2, 3), 3, "0.667"),
        (F(1, 8), 6, "0.125"),
        (F(-1, 4), 6, "-0.25"),
        (F(5, 2), 6, "2.5"),
        (F(5), 6, "5"),
        (F(1000001, 1000000), 6, "1"),
        (F(1, 10**6), 6, "0.000001"),
        (F(1, 10**7), 6, "1e-7"),
    ],
)
def test_decimals_have_six_significant_digits_without_trailing_zeros(p: F, digits: int, text: str) -> None:
    assert decimal_text(p, digits) == text


def test_a_number_for_a_reader_says_whether_the_decimal_is_exact() -> None:
    assert value_text(F(9)) == "9"
    assert value_text(F(7, 2)) == "7/2 = 3.5"
    assert value_text(F(14, 3)) == "14/3 ≈ 4.66667"
    assert value_text(F(123, 10**30)) == "1.23e-28", "a long fraction only as its decimal, exact"
    assert value_text(F(1, 3 * 10**30)) == "≈ 3.33333e-31"
    assert value_text(F(1, 3000), longest=5) == "≈ 0.000333333"
    assert value_text(F(1, 3000), longest=6) == "1/3000 ≈ 0.000333333"


def test_counts_of_faces_count_a_repeated_face_twice() -> None:
    assert Counts.of_faces([1, 1, 2]) == Counts(1, (2, 1), 3)
    assert Counts.of_faces(range(-1, 2)) == Counts(-1, (1, 1, 1), 3)
    assert Counts.of_weights({0: 1, 2: 3}) == Counts(0, (1, 0, 3), 4)
    assert Counts.constant(5) == Counts(5, (1,), 1)
    assert Counts(2, (1, 0, 3), 4).hi == 4


def test_counts_add_negate_shift_and_power_as_dice_do() -> None:
    d2 = Counts.of_faces([1, 2])
    assert d2 + d2 == Counts(2, (1, 2, 1), 4)
    assert d2 + Counts.constant(3) == Counts(4, (1, 1), 2)
    assert -Counts.of_faces([1, 2, 2]) == Counts(-2, (2, 1), 3)
    assert d2.shift(-3) == Counts(-2, (1, 1), 2)
    three_d6 = (1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1)
    assert Counts.of_faces(range(1, 7)).power(3) == Counts(3, three_d6, 216)
    assert Counts.of_weights({0: 1, 2: 1}).fractions() == {0: F(1, 2), 2: F(1, 2)}


def test_coefficients_get_whole_bytes_with_a_bit_to_spare() -> None:
    assert [slot_bits(n) for n in (0, 1, 127, 128, 255, 32767, 32768)] == [8, 8, 8, 16, 16, 16, 24]
    assert pack((1, 2), 8) == 1 + 2 * 256
    assert pack((1, 2), 16) == 1 + 2 * 65536
    assert unpack(1 + 2 * 256, 8, 2) == (1, 2)
    assert unpack(1 + 2 * 256, 8, 3) == (1, 2, 0)
    assert unpack(1 + 2 * 65536, 16, 2) == (1, 2)


def test_one_die_costs_no_time_to_sum_and_more_dice_cost_more() -> None:
    assert sum_seconds(6, 1, 6) == 0.0
    assert sum_seconds(6, 2, 6) == pytest.approx(1.7594e-07, rel=1e-3)  # (11 coefficients × 14 bits) ** 1.585 × 6e-11
    assert sum_seconds(6, 3, 6) > sum_seconds(6, 2, 6)
