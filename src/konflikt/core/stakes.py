"""What a pending roll can do, in a few labelled chances: the default of :meth:`State.roll_stakes`.

At the table a player asks "what are my chances with this roll?". The raw distribution of a d100 is a hundred rows
of 1/100 and a pool's is pairs like ``0,1``; what matters is a handful of thresholds. A ruleset that knows the
roll's target (Le våld's d100 against a skill, a defender's total) overrides ``State.roll_stakes`` with the chances
in its own words; this default gives the at-least chances of a sum, or of a pool's successes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from konflikt.core.messages import _
from konflikt.dice import Dice

MAX_ROWS = 5
"""At most this many thresholds of a sum without a target: those whose chance is nearest 90%, 70%, 50%, 30% and 10%
(a roll with a target says the chances against it instead, ``State.roll_stakes``)."""
QUANTILES = (Fraction(9, 10), Fraction(7, 10), Fraction(1, 2), Fraction(3, 10), Fraction(1, 10))


def default_stakes(dice: Dice, ones: bool = False, need: int | None = None) -> list[tuple[str, Fraction]]:
    """``(label, chance)`` rows: ``4dF ≥ +1``, or ``successes ≥ 2`` for a pool.

    Args:
        ones: add ``at least one 1`` to a pool's rows (only where the rules read the 1s).
        need: a pool's successes needed: the rows up to it, the last one labelled as what is needed.
    """
    dist: dict[Any, Fraction] = dice.distribution()
    if dist and all(hasattr(k, "successes") for k in dist):
        successes: dict[int, Fraction] = {}
        one = Fraction(0)
        for roll, p in dist.items():
            successes[roll.successes] = successes.get(roll.successes, Fraction(0)) + p
            if getattr(roll, "ones", 0):
                one += p
        rows = _at_least(successes, None, upto=need)
        if need is not None and need > max(successes):
            rows.append((_("successes ≥ {n}", n=need), Fraction(0)))
        if ones and one:
            rows.append((_("at least one 1"), one))
        return rows
    if dist and all(isinstance(k, int) and not isinstance(k, bool) for k in dist):
        return _at_least(dist, dice.notation, middle=True)
    return [(dice.outcome_label(k), p) for k, p in dist.items()][:MAX_ROWS]


def _at_least(
    dist: dict[int, Fraction], what: str | None, upto: int | None = None, middle: bool = False
) -> list[tuple[str, Fraction]]:
    """At-least rows: every value (up to ``upto``), or with ``middle`` the :data:`MAX_ROWS` around the middle;
    ``what`` is the roll's notation, ``None`` for a pool's successes."""
    values = sorted(dist)[1:]  # "at least the lowest" is certain
    if upto is not None:
        values = [v for v in values if v <= upto]
    chance = {v: sum((p for k, p in dist.items() if k >= v), Fraction(0)) for v in values}
    if middle and len(values) > MAX_ROWS:
        values = sorted({min(values, key=lambda v: (abs(chance[v] - q), v)) for q in QUANTILES})
    if what is None:
        return [(_("successes ≥ {n}", n=v), chance[v]) for v in values]
    return [(f"{what} ≥ {_signed(v) if 'F' in what else v}", chance[v]) for v in values]


def _signed(v: int) -> str:
    return f"{v:+d}"
