"""What a pending roll can do, in a few labelled chances: the default of :meth:`State.roll_stakes`.

At the table a player asks "what are my chances with this roll?". The raw distribution of a d100 is a hundred rows
of 1/100 and a pool's is pairs like ``0,1``; what matters is a handful of thresholds. A ruleset that knows the
roll's target (Le våld's d100 against a skill, a defender's total) overrides ``State.roll_stakes`` with the chances
in its own words; this default gives the at-least chances of a sum, or of a pool's successes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from konflikt.dice import Dice

MAX_ROWS = 10
"""At most this many thresholds: a long range is shown at evenly spaced points."""


def default_stakes(dice: Dice) -> list[tuple[str, Fraction]]:
    """``(label, chance)`` rows: ``4dF ≥ +1``, or ``successes ≥ 2`` for a pool (with ``at least one 1``)."""
    dist: dict[Any, Fraction] = dice.distribution()
    if dist and all(hasattr(k, "successes") for k in dist):
        successes: dict[int, Fraction] = {}
        ones = Fraction(0)
        for roll, p in dist.items():
            successes[roll.successes] = successes.get(roll.successes, Fraction(0)) + p
            if getattr(roll, "ones", 0):
                ones += p
        rows = _at_least(successes, "successes")
        if ones:
            rows.append(("at least one 1", ones))
        return rows
    if dist and all(isinstance(k, int) and not isinstance(k, bool) for k in dist):
        return _at_least(dist, dice.notation)
    return [(dice.outcome_label(k), p) for k, p in dist.items()][:MAX_ROWS]


def _at_least(dist: dict[int, Fraction], what: str) -> list[tuple[str, Fraction]]:
    values = sorted(dist)[1:]  # "at least the lowest" is certain
    if len(values) > MAX_ROWS:
        step = len(values) / MAX_ROWS
        values = sorted({values[int(i * step)] for i in range(MAX_ROWS)})
    return [(f"{what} ≥ {_signed(v) if 'F' in what else v}", sum((p for k, p in dist.items() if k >= v), Fraction(0)))
            for v in values]  # fmt: skip


def _signed(v: int) -> str:
    return f"{v:+d}"
