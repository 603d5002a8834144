"""The compact-model solver (``analysis/compact.py``) on toy chains with known answers.

A duel of tokens: each round one of three things happens with probability 1/3 each — the first loses a token, the
second does, or nothing (a loop). Without a clock the loops only slow it down: the first wins from (i, j) when j
tosses of a fair coin come up before i (Pascal's problem of points, Σ_{k<i} C(j−1+k, k) / 2^(j+k)), which checks the
cyclic solvers. With a round cap the states carry the
round and the graph is acyclic; a memoised recursion written here is the oracle, for the outcome and the length.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from functools import cache
from math import comb

import pytest

from konflikt.analysis.compact import explore, solve_exact, solve_float, topological
from konflikt.analysis.exact import StateSpaceTooLarge


class Ruin:
    """(tokens of the first, of the second) without a clock: a chain with loops."""

    unit = "rounds"

    def successors(self, s: Hashable) -> tuple[int, list[tuple[Hashable, int]]]:
        a, b = s  # type: ignore[misc]
        return 3, [((a - 1, b), 1), ((a, b - 1), 1), ((a, b), 1)]

    def end(self, s: Hashable) -> Hashable | None:
        a, b = s  # type: ignore[misc]
        return "second" if a == 0 else "first" if b == 0 else None

    def length(self, s: Hashable) -> int:
        return 0

    def encode(self, state: object) -> None:
        return None


class ClockedRuin(Ruin):
    """(tokens, tokens, round) with a cap: every step moves the round on, so the graph is acyclic."""

    def __init__(self, cap: int) -> None:
        self.cap = cap

    def successors(self, s: Hashable) -> tuple[int, list[tuple[Hashable, int]]]:
        a, b, r = s  # type: ignore[misc]
        return 3, [((a - 1, b, r + 1), 1), ((a, b - 1, r + 1), 1), ((a, b, r + 1), 1)]

    def end(self, s: Hashable) -> Hashable | None:
        a, b, r = s  # type: ignore[misc]
        if a == 0 or b == 0:
            return "second" if a == 0 else "first"
        return "deadlock" if r >= self.cap else None

    def length(self, s: Hashable) -> int:
        return int(s[2])  # type: ignore[index]

    def marks(self, before: Hashable, after: Hashable) -> list[Hashable]:
        """The first's first lost token, as a mark."""
        return ["first bleeds"] if before[0] == 3 and after[0] == 2 else []  # type: ignore[index]


def oracle(a: int, b: int, cap: int) -> dict[tuple[str, int], Fraction]:
    @cache
    def go(a: int, b: int, r: int) -> tuple[tuple[tuple[str, int], Fraction], ...]:
        if a == 0 or b == 0:
            return ((("second" if a == 0 else "first", r), Fraction(1)),)
        if r >= cap:
            return ((("deadlock", r), Fraction(1)),)
        out: dict[tuple[str, int], Fraction] = {}
        for child in ((a - 1, b), (a, b - 1), (a, b)):
            for k, p in go(*child, r + 1):
                out[k] = out.get(k, Fraction(0)) + p / 3
        return tuple(out.items())

    return dict(go(a, b, 0))


@pytest.mark.parametrize(("a", "b"), [(1, 1), (2, 3), (4, 1)])
def test_loops_solve_to_the_gamblers_ruin_exactly_and_in_floats(a: int, b: int) -> None:
    chain = explore(Ruin(), [(a, b)], 1000)
    assert topological(chain) is None
    exact = solve_exact(chain, [(0, Fraction(1))])
    assert exact.method == "gauss-jordan"
    first = sum((Fraction(comb(b - 1 + k, k), 2 ** (b + k)) for k in range(a)), Fraction(0))
    assert exact.ends == {("first", 0): first, ("second", 0): 1 - first}
    floats = solve_float(chain, [(0, Fraction(1))])
    assert floats.method == "sparse" and not floats.has_lengths
    for key, p in exact.ends.items():
        assert abs(floats.ends[key] - float(p)) <= floats.error_bound


@pytest.mark.parametrize(("a", "b", "cap"), [(1, 1, 1), (3, 2, 6), (3, 4, 12)])
def test_the_clocked_chain_pushes_forward_to_the_oracle(a: int, b: int, cap: int) -> None:
    chain = explore(ClockedRuin(cap), [(a, b, 0)], 100_000)
    assert topological(chain) is not None
    exact = solve_exact(chain, [(0, Fraction(1))])
    assert exact.method == "forward"
    assert exact.ends == oracle(a, b, cap)
    assert sum(exact.ends.values()) == 1
    floats = solve_float(chain, [(0, Fraction(1))])
    assert 0 < floats.error_bound < 1e-13
    assert set(floats.ends) == set(exact.ends)
    for key, p in exact.ends.items():
        assert abs(floats.ends[key] - float(p)) <= floats.error_bound * float(p)


def test_a_mark_sums_the_mass_over_the_edges_that_carry_it() -> None:
    chain = explore(ClockedRuin(8), [(3, 3, 0)], 100_000)
    exact = solve_exact(chain, [(0, Fraction(1))])

    # the first loses a token before the cap unless all 8 rounds pass without it: (2/3)^8 (the second may win first:
    # then the first never bleeds, which the oracle below counts by brute force)
    @cache
    def bleeds(a: int, b: int, r: int) -> Fraction:
        if a == 2:
            return Fraction(1)
        if b == 0 or r >= 8:
            return Fraction(0)
        return (bleeds(a - 1, b, r + 1) + bleeds(a, b - 1, r + 1) + bleeds(a, b, r + 1)) / 3

    assert exact.marks == {"first bleeds": bleeds(3, 3, 0)}
    floats = solve_float(chain, [(0, Fraction(1))])
    assert abs(floats.marks["first bleeds"] - float(bleeds(3, 3, 0))) <= floats.error_bound


def test_weighted_starts_mix_their_answers() -> None:
    model = ClockedRuin(5)
    chain = explore(model, [(1, 2, 0), (2, 1, 0)], 100_000)
    mixed = solve_exact(chain, [(0, Fraction(1, 4)), (1, Fraction(3, 4))])
    want: dict[tuple[str, int], Fraction] = {}
    for start, w in (((1, 2), Fraction(1, 4)), ((2, 1), Fraction(3, 4))):
        for k, p in oracle(*start, 5).items():
            want[k] = want.get(k, Fraction(0)) + w * p
    assert mixed.ends == want


def test_too_many_states_says_how_many_it_saw() -> None:
    with pytest.raises(StateSpaceTooLarge, match=r"compact states.*estimate: more than"):
        explore(ClockedRuin(200), [(30, 30, 0)], 500)
