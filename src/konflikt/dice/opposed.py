"""Dice against dice: ``A vs B`` (who is higher, ties shown, and the margin A−B), or judged by a rule.

Without a rule each side is a number: a sum (``2d6``, ``2T+3``, ``d100``) or a success pool's successes
(``6d6>=4 vs 5d6>=4``); the answer is "A higher", "tie" or "B higher", and the margin A−B comes from one product
of the two sides' integer ways (so ``20d10 vs 20d10`` costs what ``40d10`` does).

With a rule (``d100<=60 vs d100<=55 by quality``) the dice layer only reads the two sides; what decides between
them belongs to a system, above this layer. A front end passes the rules it knows to
:func:`~konflikt.dice.expression.parse_expression`: each :class:`OpposedRule` checks the two sides fit it and
returns a :class:`Judge`, a function of the two sides' raw values (each side's dice without its comparison).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from konflikt.dice.counts import Counts, product_seconds
from konflikt.dice.dice import Dice, _ints
from konflikt.dice.messages import _
from konflikt.errors import DiceError

if TYPE_CHECKING:
    from konflikt.dice.expression import DiceExpression

HIGHER, TIE, LOWER = "A higher", "tie", "B higher"
OUTCOMES = (HIGHER, TIE, LOWER)
JUDGE_SECONDS = 2e-6
"""Measured: one pair of raw values judged by a rule function and added up, about two microseconds."""


@dataclass(frozen=True)
class Judge:
    """A rule bound to two sides: the outcome of each pair of raw values, and how to show the outcomes."""

    decide: Callable[[int, int], Hashable]
    outcomes: tuple[Hashable, ...]
    """Every outcome, in the order they are listed (those that cannot happen are listed with 0); for a numeric
    rule, those always listed, the others added as they occur, in increasing order."""
    label: str
    """What the outcomes are, in words (``winner``, ``presja (pressure) dealt``)."""
    numeric: bool = False
    """The outcomes are ordered numbers: at least / at most mean something."""
    notes: tuple[str, ...] = ()
    explain: Callable[[int, int], str] | None = None
    """The two raw values in the rule's words, for a roll (``A 37 (lyckat, effekt 10) vs B 72 (misslyckat)``)."""


class OpposedRule(Protocol):
    """A system's way of judging two rolls against each other (``by quality``)."""

    @property
    def name(self) -> str:
        """The word after ``by``."""
        ...

    @property
    def doc(self) -> str:
        """One line for help: the system, the sides it takes, how it judges."""
        ...

    def bind(self, a: DiceExpression, b: DiceExpression) -> Judge:
        """The judge of these two sides; :class:`DiceError` naming what does not fit the rule."""
        ...


def as_numbers(a: DiceExpression, b: DiceExpression, rule: str, what: str) -> None:
    """Refuse a side written with a comparison (``2T+3>=7``) for a rule that compares the two rolls as numbers.

    Raises:
        DiceError: naming the rule, what it compares and the side as written.
    """
    for side_name, side in (("A", a), ("B", b)):
        if side.compare is not None:
            raise DiceError(
                _(
                    "'by {rule}' compares {what} as numbers: {side} = {written}",
                    rule=rule,
                    what=what,
                    side=side_name,
                    written=side.written,
                )
            )


@dataclass(frozen=True)
class Opposed(Dice):
    """``A vs B``: two independent rolls compared (higher, tie, lower), or judged by a named rule."""

    a: DiceExpression
    b: DiceExpression
    written: str
    rule: str | None = None
    judge: Judge | None = field(default=None, compare=False)

    @property
    def notation(self) -> str:  # type: ignore[override]
        return self.written

    # -- the values compared ------------------------------------------------------------------------------------
    def side_counts(self, side: DiceExpression) -> Counts:
        """What a side puts on the table: its raw sum for a rule; else its sum, or a pool's successes."""
        if self.judge is None and side.pool:
            return side.success_counts()
        return side.raw().counts()

    def side_value(self, side: DiceExpression, rng: np.random.Generator) -> int:
        if self.judge is None and side.pool:
            return int(side.sample(rng).successes)
        return side.raw().sample_total(rng)

    # -- exact ----------------------------------------------------------------------------------------------------
    def exact_seconds(self) -> float:
        seconds = self.a.raw().exact_seconds() + self.b.raw().exact_seconds()
        (wa, ba), (wb, bb) = self.a.raw().size(), self.b.raw().size()
        if self.judge is None:
            return seconds + product_seconds(wa + wb, ba + bb)
        return seconds + wa * wb * JUDGE_SECONDS

    def margin(self) -> dict[int, Fraction]:
        """The distribution of A − B (the sides' numbers, without a rule)."""
        return self._margin

    @cached_property
    def _margin(self) -> dict[int, Fraction]:
        return (self.side_counts(self.a) + -self.side_counts(self.b)).fractions()

    @cached_property
    def _distribution(self) -> dict[Any, Fraction]:
        if self.judge is None:
            margin = self.margin()
            zero = Fraction(0)
            return {
                HIGHER: sum((p for m, p in margin.items() if m > 0), zero),
                TIE: margin.get(0, zero),
                LOWER: sum((p for m, p in margin.items() if m < 0), zero),
            }
        a, b = self.side_counts(self.a), self.side_counts(self.b)
        ways: dict[Hashable, int] = dict.fromkeys(self.judge.outcomes, 0)
        for i, wa in enumerate(a.ways):
            if not wa:
                continue
            for j, wb in enumerate(b.ways):
                if wb:
                    outcome = self.judge.decide(a.lo + i, b.lo + j)
                    if outcome not in ways and not self.judge.numeric:
                        raise DiceError(f"rule {self.rule!r} gave an outcome it does not list: {outcome!r}")
                    ways[outcome] = ways.get(outcome, 0) + wa * wb
        total = a.total * b.total
        keys = sorted(ways) if self.judge.numeric else list(ways)  # type: ignore[type-var]
        return {k: Fraction(ways[k], total) for k in keys}

    def distribution(self) -> dict[Any, Fraction]:
        return self._distribution

    def outcome_order(self) -> tuple[Hashable, ...]:
        return OUTCOMES if self.judge is None else self.judge.outcomes

    # -- rolling and reading --------------------------------------------------------------------------------------
    def decide(self, a: int, b: int) -> Any:
        if self.judge is not None:
            return self.judge.decide(a, b)
        return HIGHER if a > b else TIE if a == b else LOWER

    def sample(self, rng: np.random.Generator) -> Any:
        return self.roll(rng)[0]

    def roll(self, rng: np.random.Generator) -> tuple[Any, tuple[int, ...]]:
        a, b = self.side_value(self.a, rng), self.side_value(self.b, rng)
        return self.decide(a, b), (a, b)

    def faces_text(self, faces: tuple[int, ...]) -> str:
        a, b = faces
        if self.judge is not None and self.judge.explain is not None:
            return self.judge.explain(a, b)
        return f"A {a} vs B {b}"

    def parse(self, text: str) -> Any:
        """At the table: the two sides' numbers, A's first (``7 5``)."""
        values = _ints(text)
        if len(values) == 2:
            a, b = values
            a_counts, b_counts = self.side_counts(self.a), self.side_counts(self.b)
            if _possible(a_counts, a) and _possible(b_counts, b):
                return self.decide(a, b)
        raise DiceError(
            _(
                "cannot read {text} as {notation}: type {hint}",
                text=repr(text),
                notation=self.notation,
                hint=self.table_hint(),
            )
        )

    def table_hint(self) -> str:
        return _("A's number and B's number, e.g. '7 5'")

    def coerce(self, value: Any) -> Any:
        try:
            known = value in self.distribution()
        except TypeError:
            known = False
        if not known:
            raise DiceError(
                _("{value} is not a possible result of {notation}", value=repr(value), notation=self.notation)
            )
        return value

    def describe(self, outcome: Any) -> str:
        return str(outcome)


def _possible(counts: Counts, value: int) -> bool:
    return counts.lo <= value <= counts.hi and counts.ways[value - counts.lo] > 0
