"""The clockless solver (``analysis/horizon.py``) on the token duel of ``test_compact.py`` with known answers.

The duel's clock only caps it: the clockless chain has loops (a round where nobody loses a token), and stepping its
mass round by round to the cap must give the memoised recursion's outcome and length exactly (``oracle``), from
starts met at different rounds too, and in floats within the stated bound.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import pytest

from konflikt.analysis.exact import StateSpaceTooLarge
from konflikt.analysis.horizon import has_horizon, solve_horizon
from tests.analysis.test_compact import Ruin, oracle


class HorizonRuin(Ruin):
    """(tokens, tokens, round) as the model encodes it; the clockless chain is :class:`Ruin`'s, capped."""

    def __init__(self, cap: int) -> None:
        self.cap = cap

    def clock(self, s: Hashable) -> tuple[Hashable, int]:
        a, b, r = s  # type: ignore[misc]
        return (a, b), r

    def step(self, s: Hashable) -> tuple[int, list[tuple[Hashable, int]]]:
        return self.successors(s)

    def at_cap(self, s: Hashable) -> Hashable:
        return "deadlock"


@pytest.mark.parametrize(("a", "b", "cap"), [(1, 1, 1), (3, 2, 6), (3, 4, 12), (2, 2, 40)])
def test_the_clockless_chain_steps_to_the_oracle(a: int, b: int, cap: int) -> None:
    model = HorizonRuin(cap)
    assert has_horizon(model) and not has_horizon(Ruin())
    chain, exact = solve_horizon(model, [((a, b, 0), Fraction(1))], 100_000, exact=True)
    assert chain.size <= (a + 1) * (b + 1)  # no copy per round
    assert exact.ends == oracle(a, b, cap)
    assert sum(exact.ends.values()) == 1
    _, floats = solve_horizon(model, [((a, b, 0), Fraction(1))], 100_000, exact=False)
    assert 0 < floats.error_bound < 1e-12
    assert set(floats.ends) == set(exact.ends)
    for key, p in exact.ends.items():
        assert abs(floats.ends[key] - float(p)) <= floats.error_bound * float(p), key


def test_starts_at_different_rounds_keep_their_own_horizon() -> None:
    """A start at round 3 of a cap of 7 has four rounds left: its answer is the oracle's for cap 4, three later."""
    model = HorizonRuin(7)
    starts = [((2, 1, 3), Fraction(1, 4)), ((1, 2, 0), Fraction(3, 4))]
    for exact in (True, False):
        _, solved = solve_horizon(model, starts, 100_000, exact=exact)
        want: dict[tuple[str, int], Fraction] = {}
        for (label, n), p in oracle(2, 1, 4).items():
            want[label, n + 3] = want.get((label, n + 3), Fraction(0)) + p / 4
        for key, p in oracle(1, 2, 7).items():
            want[key] = want.get(key, Fraction(0)) + p * 3 / 4
        if exact:
            assert solved.ends == want
        else:
            assert set(solved.ends) == set(want)
            for key, p in want.items():
                assert abs(solved.ends[key] - float(p)) <= solved.error_bound * float(p)


def test_only_the_states_within_the_horizon_are_explored() -> None:
    """Two rounds from (50, 50) meet at most the states two tokens away; a wider duel does not count against it."""
    chain, _ = solve_horizon(HorizonRuin(2), [((50, 50, 0), Fraction(1))], 6, exact=True)
    assert chain.size == 6  # (50,50); (49,50) (50,49); (48,50) (49,49) (50,48)
    with pytest.raises(StateSpaceTooLarge):
        solve_horizon(HorizonRuin(3), [((50, 50, 0), Fraction(1))], 6, exact=True)
