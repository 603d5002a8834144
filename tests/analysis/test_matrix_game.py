"""Zero-sum matrix games: hand-solved games, and the rational simplex against scipy's linprog."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from konflikt.analysis.matrix_game import is_optimal, solve_exact, solve_float
from konflikt.errors import KonfliktError


def test_rock_paper_scissors_with_unequal_payoffs() -> None:
    """Rock beats scissors for 1, paper beats rock for 2, scissors beat paper for 3 (rows and columns R, P, S).

    On paper: the game is symmetric (A = −Aᵀ), so the value is 0 and an optimal mix x makes every column pay 0:
    column R: 2·xP − xS = 0; column P: −2·xR + 3·xS = 0; column S: xR − 3·xP = 0. So xR = 3·xP and xS = 2·xP;
    with xR + xP + xS = 6·xP = 1: x = (1/2, 1/6, 1/3), and the same for the column player by symmetry.
    The solution is unique (the 3 × 3 system above has rank 2, and one line of solutions meets the simplex once).
    """
    a = [[0, -2, 1], [2, 0, -3], [-1, 3, 0]]
    exact = solve_exact(a)
    assert exact.value == 0
    assert exact.row == (F(1, 2), F(1, 6), F(1, 3))
    assert exact.column == (F(1, 2), F(1, 6), F(1, 3))
    floats = solve_float(a)
    assert floats.value == pytest.approx(0, abs=1e-9)
    assert floats.row == pytest.approx([1 / 2, 1 / 6, 1 / 3], abs=1e-9)
    assert floats.column == pytest.approx([1 / 2, 1 / 6, 1 / 3], abs=1e-9)


def test_a_saddle_point_is_played_pure() -> None:
    """Row 0's worst is 2 (column 1), the best of the row minima; column 1's best for the row player is also 2,
    the least of the column maxima: a saddle point, value 2, both sides play it for sure."""
    a = [[4, 2, 3], [1, 0, 5], [3, 1, 2]]
    exact = solve_exact(a)
    assert (exact.value, exact.row, exact.column) == (2, (1, 0, 0), (0, 1, 0))
    floats = solve_float(a)
    assert floats.value == pytest.approx(2)
    assert floats.row == pytest.approx([1, 0, 0], abs=1e-9)
    assert floats.column == pytest.approx([0, 1, 0], abs=1e-9)


def test_a_dominated_row_is_never_played() -> None:
    """Row 2 (1, −1) is worse than row 0 (3, 0) against both columns. The rest, [[3, 0], [0, 1]], makes the column
    player indifferent when 3·x0 = x1, so x = (1/4, 3/4); the row player is indifferent when 3·y0 = y1, so
    y = (1/4, 3/4); the value is 3/4."""
    a = [[3, 0], [0, 1], [1, -1]]
    exact = solve_exact(a)
    assert exact.value == F(3, 4)
    assert exact.row == (F(1, 4), F(3, 4), 0)
    assert exact.column == (F(1, 4), F(3, 4))
    assert solve_float(a).row == pytest.approx([1 / 4, 3 / 4, 0], abs=1e-9)


def test_fractions_stay_exact() -> None:
    """A diagonal game in Fractions. The column player is indifferent when x0·(1/3) = x1·(1/4): x = (3/7, 4/7);
    the row player when y0·(1/3) = y1·(1/4): y = (3/7, 4/7); the value is (3/7)·(1/3) = 1/7."""
    a = [[F(1, 3), 0], [0, F(1, 4)]]
    exact = solve_exact(a)
    assert exact.row == (F(3, 7), F(4, 7))
    assert exact.column == (F(3, 7), F(4, 7))
    assert exact.value == F(1, 7)


@pytest.mark.parametrize("seed", range(40))
def test_the_rational_simplex_agrees_with_linprog(seed: int) -> None:
    rng = np.random.default_rng(seed)
    m, n = (int(k) for k in rng.integers(1, 7, size=2))
    a = rng.integers(-9, 10, size=(m, n)).tolist()
    exact = solve_exact(a)
    assert is_optimal(a, exact)  # checked exactly, independently of the simplex
    floats = solve_float(a)
    assert float(exact.value) == pytest.approx(floats.value, abs=1e-9)
    assert is_optimal(a, floats, tolerance=1e-9)


def test_a_wrong_mix_is_not_optimal() -> None:
    a = [[0, -2, 1], [2, 0, -3], [-1, 3, 0]]
    wrong = solve_exact(a)
    from dataclasses import replace

    assert not is_optimal(a, replace(wrong, row=(F(1, 3), F(1, 3), F(1, 3))))


def test_an_empty_or_ragged_matrix_is_refused() -> None:
    with pytest.raises(KonfliktError, match="at least one row"):
        solve_exact([])
    with pytest.raises(KonfliktError, match="same length"):
        solve_exact([[1, 2], [3]])
