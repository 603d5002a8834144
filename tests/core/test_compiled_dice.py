"""``konflikt.dice.compiled.uniform``: the compiled kernels' dice are exactly uniform and follow the seed."""

from __future__ import annotations

import math

import numpy as np
import pytest

from konflikt.dice.compiled import compiled, uniform


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
