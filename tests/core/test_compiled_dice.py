"""``konflikt.dice.compiled``: the compiled kernels' dice are exactly uniform (or exactly binomial) and follow the
seed."""

from __future__ import annotations

import math
from math import comb

import numpy as np
import pytest

from konflikt.dice.compiled import compiled, successes, uniform, uniform_at
from konflikt.rulesets.fimbulfrost.kernel_loop import GROUP, NONZERO, ones


@compiled
def _draws(rng: np.random.Generator, n: int, bound: int) -> np.ndarray:
    bits = rng.bit_generator
    out = np.empty(n, dtype=np.int64)
    for k in range(n):
        out[k] = uniform(bits, bound)
    return out


@pytest.mark.parametrize("bound", [2, 6, 100])
def test_every_value_within_4_standard_errors(bound: int) -> None:
    n = 200_000
    counts = np.bincount(_draws(np.random.default_rng(7), n, bound), minlength=bound)
    assert len(counts) == bound
    p = 1 / bound
    se = math.sqrt(n * p * (1 - p))
    assert np.abs(counts - n * p).max() <= 4 * se


def test_both_4df_from_one_draw_pass_a_chi_square_test() -> None:
    # 6561 = 81 × 81 values: the chi-square statistic lies within 4 standard deviations of its mean (df = 6560)
    bound, n = 6561, 656_100
    counts = np.bincount(_draws(np.random.default_rng(7), n, bound), minlength=bound)
    assert len(counts) == bound
    chi2 = float(((counts - n / bound) ** 2 / (n / bound)).sum())
    df = bound - 1
    assert abs(chi2 - df) <= 4 * math.sqrt(2 * df)


def test_a_bound_near_two_to_the_32_is_exactly_uniform() -> None:
    # bound 3 · 2³⁰: multiply-and-shift alone maps 4 words to every 3 values, giving multiples of 3 two words each
    # (1/2 of the draws instead of 1/3); the rejection of the low words below 2³² mod bound evens it out
    bound = 3 << 30
    n = 60_000
    share = np.count_nonzero(_draws(np.random.default_rng(8), n, bound) % 3 == 0) / n
    assert abs(share - 1 / 3) <= 4 * math.sqrt(1 / 3 * 2 / 3 / n)


def test_the_same_seed_gives_the_same_dice_and_the_generator_moves_on() -> None:
    rng = np.random.default_rng(3)
    first = _draws(rng, 50, 100)
    assert first.tolist() == _draws(np.random.default_rng(3), 50, 100).tolist()
    assert first.tolist() != _draws(rng, 50, 100).tolist()
    assert first.min() >= 0 and first.max() < 100


@compiled
def _draws_at(words: np.ndarray, n: int, bound: int) -> np.ndarray:
    out = np.full(n, -1, dtype=np.int64)
    pos = 0
    for k in range(n):
        value, pos = uniform_at(words, pos, bound)
        if value < 0:
            break
        out[k] = value
    return out


def test_a_buffer_of_words_gives_the_dice_the_bit_generator_gives() -> None:
    # the presja kernel reads 32-bit words from a buffer (two from each 64-bit draw, low half first): the very values
    # uniform() draws from the same generator; a buffer that runs out says so and gives no value
    words = np.random.default_rng(4).bit_generator.random_raw(500).view(np.uint32)
    assert _draws_at(words, 1000, 6561).tolist() == _draws(np.random.default_rng(4), 1000, 6561).tolist()
    short = _draws_at(words[:10], 20, 6561)
    assert short[:10].tolist() == _draws(np.random.default_rng(4), 10, 6561).tolist() and (short[10:] == -1).all()


@compiled
def _successes(rng: np.random.Generator, n: int, dice: int) -> np.ndarray:
    bits = rng.bit_generator
    word, left = np.uint64(0), 0
    out = np.empty(n, dtype=np.int64)
    for k in range(n):
        out[k], word, left = successes(bits, word, left, dice + k % 2)  # rolls of two sizes share the 64-bit draws
    return out


@compiled
def _ones(rng: np.random.Generator, n: int, others: int) -> np.ndarray:
    bits = rng.bit_generator
    out = np.empty(n, dtype=np.int64)
    for k in range(n):
        out[k] = ones(bits, others)
    return out


def _within_4_se(counts: np.ndarray, exact: list[float]) -> None:
    """Every value expected at least 20 times within 4 standard errors, and so the rare ones taken together."""
    n = int(counts.sum())
    rare = [k for k, p in enumerate(exact) if n * p < 20]
    cells = [([k], p) for k, p in enumerate(exact) if n * p >= 20] + [(rare, sum(exact[k] for k in rare))]
    for ks, p in cells:
        se = math.sqrt(n * p * (1 - p))
        got = int(counts[ks].sum())
        assert abs(got - n * p) <= 4 * se + 1e-9, (ks, got, n * p)


@pytest.mark.parametrize("dice", [1, 3, 12, 63, 70])
def test_successes_are_binomial_with_p_one_half(dice: int) -> None:
    # 63 and 64 dice: one draw short of a word and a whole word; 70 and 71: more than a word
    got = _successes(np.random.default_rng(9), 100_000, dice)
    for size in (dice, dice + 1):
        counts = np.bincount(got[size - dice :: 2], minlength=size + 1)
        assert len(counts) == size + 1
        _within_4_se(counts, [comb(size, k) / 2**size for k in range(size + 1)])


def test_the_digit_table_gives_each_count_of_ones_as_often_as_the_faces_do() -> None:
    # k dice that did not succeed, as the k base-3 digits of u < 3^k: exactly C(k, r) · 2^(k − r) of the 3^k values
    # show r ones (digits 0), for every group size; and the table's own entries by hand
    assert NONZERO[:10].tolist() == [0, 1, 1, 1, 2, 2, 1, 2, 2, 1]  # 0, 1, 2, 10, 11, 12, 20, 21, 22, 100 in base 3
    for k in range(GROUP + 1):
        counts = np.bincount(k - NONZERO[: 3**k].astype(np.int64), minlength=k + 1)
        assert counts.tolist() == [comb(k, r) * 2 ** (k - r) for r in range(k + 1)]


@pytest.mark.parametrize("others", [1, 3, 20, 27])
def test_the_ones_among_dice_that_did_not_succeed_are_binomial_with_p_one_third(others: int) -> None:
    # 20 and 27 dice: groups of 8 and the rest, each one draw
    counts = np.bincount(_ones(np.random.default_rng(11), 100_000, others), minlength=others + 1)
    assert len(counts) == others + 1
    _within_4_se(counts, [comb(others, k) * 2 ** (others - k) / 3**others for k in range(others + 1)])
