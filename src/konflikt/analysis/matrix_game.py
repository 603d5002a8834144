"""Two-player zero-sum matrix games: the value and both sides' optimal mixed strategies.

Le våld's movement is chosen in secret by both fighters at once ("the others look away"): neither sees the other's
marker, so no pure choice is safe against a thinking enemy, and the right play is a mixed strategy. Given the payoff
matrix (row player's payoff: the row side's chance to win after each pair of choices), this module finds it.

Two solvers, which the tests hold to each other:

- :func:`solve_exact`: a rational simplex (Fractions, Bland's rule, so it never cycles) for small matrices; the
  answer is exact, and is what the policies use (a movement node has at most 4 × 4 choices);
- :func:`solve_float`: scipy's ``linprog`` (HiGHS) in floats, for large matrices; scipy is the ``exact`` extra.

The linear programme (the textbook reduction, von Neumann): shift the matrix so every entry is positive (value
``v > 0``); the column player's optimal ``y`` is ``w / sum(w)`` for the ``w`` that maximises ``sum(w)`` subject to
``A w ≤ 1, w ≥ 0``, with ``v = 1 / sum(w)``; the row player's ``x`` is the dual solution, read off the same final
tableau (the slack columns' reduced costs), scaled the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from konflikt.core.messages import _
from konflikt.errors import KonfliktError

Number = int | float | Fraction


@dataclass(frozen=True)
class MatrixSolution:
    """A solved zero-sum game: the value to the row player and an optimal mixed strategy for each side.

    ``row[i]`` is the chance the row player picks row ``i``; ``column[j]`` the column player's chance of column
    ``j``. Exact solutions hold Fractions, float ones floats.
    """

    value: Fraction | float
    row: tuple[Fraction | float, ...]
    column: tuple[Fraction | float, ...]


def _checked(matrix: Sequence[Sequence[Number]]) -> list[list[Number]]:
    rows = [list(r) for r in matrix]
    if not rows or not rows[0]:
        raise KonfliktError(_("a matrix game needs at least one row and one column"))
    if any(len(r) != len(rows[0]) for r in rows):
        raise KonfliktError(_("a matrix game's rows must all have the same length"))
    return rows


def solve_exact(matrix: Sequence[Sequence[Number]]) -> MatrixSolution:
    """The exact value and optimal strategies of a zero-sum game (row player maximises), by a rational simplex.

    Entries may be ints, Fractions or floats (a float is taken at its exact binary value, so prefer Fractions).
    Work grows with the matrix; meant for the small matrices of a decision node (up to a few dozen choices).
    """
    a = [[Fraction(x) for x in r] for r in _checked(matrix)]
    m, n = len(a), len(a[0])
    shift = 1 - min(min(r) for r in a)  # every entry at least 1: the value is positive
    # tableau: m constraint rows [A+shift | I | 1]; the objective row holds reduced costs (maximise sum w)
    width = n + m + 1
    t = [
        [a[i][j] + shift for j in range(n)] + [Fraction(int(k == i)) for k in range(m)] + [Fraction(1)]
        for i in range(m)
    ]
    cost = [Fraction(-1)] * n + [Fraction(0)] * (m + 1)
    basis = [n + i for i in range(m)]
    while True:
        entering = next((j for j in range(width - 1) if cost[j] < 0), None)  # Bland: the lowest index
        if entering is None:
            break
        best: tuple[Fraction, int, int] | None = None
        for i in range(m):
            if t[i][entering] > 0:
                ratio = t[i][-1] / t[i][entering]
                if best is None or (ratio, basis[i]) < best[:2]:
                    best = (ratio, basis[i], i)
        if best is None:  # cannot happen: A + shift > 0 bounds every w
            raise KonfliktError(_("the matrix game's linear programme is unbounded"))
        r = best[2]
        pivot = t[r][entering]
        t[r] = [x / pivot for x in t[r]]
        for i in range(m):
            if i != r and t[i][entering]:
                f = t[i][entering]
                t[i] = [x - f * y for x, y in zip(t[i], t[r], strict=True)]
        f = cost[entering]
        cost = [x - f * y for x, y in zip(cost, t[r], strict=True)]
        basis[r] = entering
    total = cost[-1]  # the optimum of sum(w) = 1 / (value + shift)
    w = [Fraction(0)] * n
    for i, b in enumerate(basis):
        if b < n:
            w[b] = t[i][-1]
    v = 1 / total
    column = tuple(x * v for x in w)
    row = tuple(cost[n + i] * v for i in range(m))
    return MatrixSolution(v - shift, row, column)


def solve_float(matrix: Sequence[Sequence[Number]]) -> MatrixSolution:
    """The value and optimal strategies in floats, by scipy's ``linprog`` (two programmes, one per side).

    Raises:
        KonfliktError: the solver failed.
    """
    import numpy as np
    from scipy.optimize import linprog

    a = np.array([[float(x) for x in r] for r in _checked(matrix)])

    def side(payoff: np.ndarray) -> tuple[float, np.ndarray]:
        """Maximise v over mixed x (rows of ``payoff``) with x·payoff[:, j] ≥ v for every column j."""
        k, cols = payoff.shape
        c = np.zeros(k + 1)
        c[-1] = -1.0  # maximise v
        a_ub = np.hstack([-payoff.T, np.ones((cols, 1))])  # v - x·payoff[:, j] ≤ 0
        a_eq = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
        bounds = [(0.0, None)] * k + [(None, None)]
        res = linprog(c, A_ub=a_ub, b_ub=np.zeros(cols), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
        if not res.success:
            raise KonfliktError(_("linprog could not solve the matrix game: {reason}", reason=res.message))
        x = np.clip(res.x[:k], 0.0, None)
        return float(res.x[-1]), x / x.sum()

    value, x = side(a)
    _value, y = side(-a.T)
    return MatrixSolution(value, tuple(float(p) for p in x), tuple(float(p) for p in y))


def is_optimal(matrix: Sequence[Sequence[Number]], solution: MatrixSolution, tolerance: Number = 0) -> bool:
    """Whether ``solution`` is an equilibrium of ``matrix``: the row mix earns at least the value against every
    column, the column mix concedes at most the value against every row, both mixes are distributions.

    A check independent of how the solution was found (exact with ``tolerance`` 0 and Fractions)."""
    a = [[Fraction(e) for e in r] for r in _checked(matrix)]  # floats at their exact binary values
    v, tol = Fraction(solution.value), Fraction(tolerance)
    x, y = [Fraction(p) for p in solution.row], [Fraction(p) for p in solution.column]
    if len(x) != len(a) or len(y) != len(a[0]) or any(p < -tol for p in (*x, *y)):
        return False
    if abs(sum(x, Fraction(0)) - 1) > tol or abs(sum(y, Fraction(0)) - 1) > tol:
        return False
    earns = all(sum(x[i] * a[i][j] for i in range(len(a))) >= v - tol for j in range(len(a[0])))
    concedes = all(sum(a[i][j] * y[j] for j in range(len(a[0]))) <= v + tol for i in range(len(a)))
    return earns and concedes
