"""The dice of the four systems as values: exact distributions, sampling, and dice read from the table.

Each kind of roll knows its outcomes at the granularity the rules need (a sum; successes and 1s; a d100 reading),
so exact analysis enumerates as few branches as possible, while :meth:`Dice.parse` still takes the dice as they
fell at the table (``+ + 0 -``, ``3 5 6 1``, ``47``). The faces themselves are for the narration only:
:meth:`Dice.read_faces` keeps them from typed dice, :meth:`Dice.roll` draws them (the same draws as
:meth:`Dice.sample`) and derives the outcome from them.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any, NamedTuple

import numpy as np

from konflikt.dice.counts import Counts, sum_seconds
from konflikt.dice.distribution import normalise
from konflikt.dice.messages import _, ngettext
from konflikt.errors import DiceError

FUDGE_FACES = {"+": 1, "0": 0, "-": -1, "−": -1, "–": -1, " ": None}
FUDGE_SYMBOLS = {1: "+", 0: "0", -1: "-"}
"""A Fudge face as the presja text writes it (``+ + 0 -``)."""

Faces = tuple[int, ...]
"""The dice of one roll as they fell, die by die (a Fudge die as −1, 0 or +1)."""


class PoolRoll(NamedTuple):
    """A success pool's reading: how many dice showed 4–6, and how many showed 1."""

    successes: int
    ones: int


class Dice(ABC):
    """One roll asked for: its notation, its exact distribution, a sampler and a reader of table dice."""

    notation: str

    @abstractmethod
    def distribution(self) -> dict[Any, Fraction]:
        """Outcome → exact probability (cached)."""

    @abstractmethod
    def sample(self, rng: np.random.Generator) -> Any:
        """One roll from an injected generator."""

    @abstractmethod
    def parse(self, text: str) -> Any:
        """Read the dice as they fell at the table; raise :class:`DiceError` when they do not fit."""

    def roll(self, rng: np.random.Generator) -> tuple[Any, Faces | None]:
        """One roll with its faces: ``(outcome, faces)``, the outcome derived from the faces.

        It draws exactly what :meth:`sample` draws, so a seed gives the same outcome either way (a simulator that
        shows nothing samples; a narrated conflict rolls). ``None`` faces for dice that do not show theirs.
        """
        return self.sample(rng), None

    def read_faces(self, text: str) -> tuple[Any, Faces | None]:
        """:meth:`parse`, with the faces when the dice were typed one by one (``None`` for a typed total)."""
        return self.parse(text), None

    def outcome_of(self, faces: Faces) -> Any:
        """The outcome the given faces make; :class:`DiceError` when they are not faces of this roll."""
        raise DiceError(_("{notation} is not read die by die", notation=self.notation))

    def faces_text(self, faces: Faces) -> str:
        """The faces as they are written at the table (``+ + 0 -``, ``6 3 1 5``)."""
        return " ".join(str(f) for f in faces)

    def coerce(self, value: Any) -> Any:
        """Accept an outcome from JSON (lists become tuples) and check it is possible."""
        outcome = tuple(value) if isinstance(value, list) else value
        if outcome not in self.distribution():
            raise DiceError(
                _("{value} is not a possible result of {notation}", value=repr(value), notation=self.notation)
            )
        return outcome

    def describe(self, outcome: Any) -> str:
        """The outcome in words, for the narrated log."""
        return str(outcome)

    def table_hint(self) -> str:
        """How to type this roll at the table."""
        return _("the total")

    def outcome_label(self, outcome: Any) -> str:
        """The key of an outcome in tables and JSON."""
        return str(outcome)

    def __str__(self) -> str:
        return self.notation


def example(count: int, faces: tuple[str, ...]) -> str:
    """An example of ``count`` dice as typed at the table: exactly as many faces as dice (7 dice, 7 numbers)."""
    return " ".join(faces[i % len(faces)] for i in range(max(count, 1)))


def _ints(text: str) -> list[int]:
    parts = text.replace(",", " ").split()
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise DiceError(_("cannot read {text} as dice: expected whole numbers", text=repr(text))) from None


@dataclass(frozen=True)
class Fudge(Dice):
    """``NdF``: N Fudge dice, each −1, 0 or +1, summed (plus a fixed modifier)."""

    count: int = 4
    modifier: int = 0

    @property
    def notation(self) -> str:  # type: ignore[override]
        return f"{self.count}dF" + _mod(self.modifier)

    def distribution(self) -> dict[int, Fraction]:
        return _fudge(self.count, self.modifier)

    def sample(self, rng: np.random.Generator) -> int:
        if self.count > 8:
            return int(rng.integers(-1, 2, size=self.count).sum()) + self.modifier
        # one draw over all 3**count faces and a table of their sums: several times faster than count draws
        return fudge_sums(self.count)[int(rng.integers(3**self.count))] + self.modifier

    def roll(self, rng: np.random.Generator) -> tuple[int, Faces]:
        if self.count > 8:
            faces = tuple(int(f) for f in rng.integers(-1, 2, size=self.count))
        else:
            faces = fudge_faces(self.count)[int(rng.integers(3**self.count))]
        return sum(faces) + self.modifier, faces

    def parse(self, text: str) -> int:
        outcome, _faces = self.read_faces(text)
        return outcome

    def read_faces(self, text: str) -> tuple[int, Faces | None]:
        raw = text.strip()
        symbols = [c for c in raw if c not in " ,"]
        if symbols and all(c in FUDGE_FACES for c in symbols) and len(symbols) == self.count:
            faces = tuple(FUDGE_FACES[c] or 0 for c in symbols)
            return sum(faces) + self.modifier, faces
        if re.fullmatch(r"[+\-−]?\d{1,18}", raw):  # a longer number is no total of 200 dice (nor readable past 4,300)
            value = int(raw.replace("−", "-"))
            if value in self.distribution():
                return value, None
            raise DiceError(_("{value} is not a possible total of {notation}", value=raw, notation=self.notation))
        raise DiceError(
            _(
                "cannot read {text} as {notation}: type {count} faces such as '{example}', or the total",
                text=repr(text),
                notation=self.notation,
                count=self.count,
                example=" ".join(["+", "0", "-", "+"][: self.count]),
            )
        )

    def outcome_of(self, faces: Faces) -> int:
        if len(faces) != self.count or not all(type(f) is int and -1 <= f <= 1 for f in faces):
            raise DiceError(
                _(
                    "{faces} are not the {count} faces of {notation} (each −1, 0 or +1)",
                    faces=list(faces),
                    count=self.count,
                    notation=self.notation,
                )
            )
        return sum(faces) + self.modifier

    def faces_text(self, faces: Faces) -> str:
        return " ".join(FUDGE_SYMBOLS[f] for f in faces)

    def table_hint(self) -> str:
        return _(
            "{count} faces (+ 0 -), e.g. '{example}', or the total",
            count=self.count,
            example=example(self.count, ("+", "+", "0", "-")),
        )

    def describe(self, outcome: Any) -> str:
        return f"{int(outcome):+d}"


@cache
def fudge_sums(count: int) -> tuple[int, ...]:
    """The total of ``count`` Fudge dice for each of their 3**count equally likely faces (a sampling table)."""
    return tuple(sum(faces) for faces in product((-1, 0, 1), repeat=count))


@cache
def fudge_faces(count: int) -> tuple[Faces, ...]:
    """The 3**count equally likely faces of ``count`` Fudge dice, in the order of :func:`fudge_sums`."""
    return tuple(product((-1, 0, 1), repeat=count))


@cache
def _fudge(count: int, modifier: int) -> dict[int, Fraction]:
    return Counts.of_faces((-1, 0, 1)).power(count).shift(modifier).fractions()


@dataclass(frozen=True)
class SumDice(Dice):
    """``NdS+K``: N dice of S sides summed, plus K (the texts' ``3T6`` and ``2T+2`` are this with S = 6)."""

    count: int
    sides: int = 6
    modifier: int = 0
    style: str = "d"
    """``d`` (3d6), ``T`` (the Swedish texts' 2T+2, with a modifier) or ``T6`` (their 3T6)."""

    @property
    def notation(self) -> str:  # type: ignore[override]
        if self.style in ("T", "T6"):
            core = f"{self.count}T" if self.style == "T" and self.sides == 6 else f"{self.count}T{self.sides}"
        else:
            core = f"{self.count}d{self.sides}"
        return core + _mod(self.modifier)

    def distribution(self) -> dict[int, Fraction]:
        return _sum_dice(self.count, self.sides, self.modifier)

    def sample(self, rng: np.random.Generator) -> int:
        return int(rng.integers(1, self.sides + 1, size=self.count).sum()) + self.modifier

    def roll(self, rng: np.random.Generator) -> tuple[int, Faces]:
        faces = tuple(int(f) for f in rng.integers(1, self.sides + 1, size=self.count))
        return sum(faces) + self.modifier, faces

    def parse(self, text: str) -> int:
        outcome, _faces = self.read_faces(text)
        return outcome

    def read_faces(self, text: str) -> tuple[int, Faces | None]:
        values = _ints(text)
        if len(values) == self.count and self.count > 1 and all(1 <= v <= self.sides for v in values):
            return sum(values) + self.modifier, tuple(values)
        if len(values) == 1:
            if self.count == 1 and 1 <= values[0] <= self.sides:
                return values[0] + self.modifier, (values[0],)
            if values[0] in self.distribution():
                return values[0], None
            raise DiceError(_("{value} is not a possible total of {notation}", value=values[0], notation=self.notation))
        raise DiceError(
            _(
                "cannot read {text} as {notation}: type the {count} dice (1–{sides}) or the total",
                text=repr(text),
                notation=self.notation,
                count=self.count,
                sides=self.sides,
            )
        )

    def outcome_of(self, faces: Faces) -> int:
        if len(faces) != self.count or not all(type(f) is int and 1 <= f <= self.sides for f in faces):
            raise DiceError(
                _(
                    "{faces} are not the {count} faces of {notation} (each 1–{sides})",
                    faces=list(faces),
                    count=self.count,
                    notation=self.notation,
                    sides=self.sides,
                )
            )
        return sum(faces) + self.modifier

    def table_hint(self) -> str:
        faces = tuple(str(min(f, self.sides)) for f in (3, 5, 6, 1, 4, 2))
        return _(
            "the {count} dice (1–{sides}), e.g. '{example}'",
            count=self.count,
            sides=self.sides,
            example=example(self.count, faces),
        )


@cache
def _sum_dice(count: int, sides: int, modifier: int) -> dict[int, Fraction]:
    return Counts.of_faces(range(1, sides + 1)).power(count).shift(modifier).fractions()


@dataclass(frozen=True)
class SuccessPool(Dice):
    """``N`` d6 as a success pool: each 4–6 is a success, each 1 a possible mishap."""

    count: int
    success_from: int = 4

    @property
    def notation(self) -> str:  # type: ignore[override]
        return f"{self.count}d6 pool"

    def distribution(self) -> dict[PoolRoll, Fraction]:
        return _pool(self.count, self.success_from)

    def sample(self, rng: np.random.Generator) -> PoolRoll:
        faces = rng.integers(1, 7, size=self.count)
        return PoolRoll(int((faces >= self.success_from).sum()), int((faces == 1).sum()))

    def roll(self, rng: np.random.Generator) -> tuple[PoolRoll, Faces]:
        faces = tuple(int(f) for f in rng.integers(1, 7, size=self.count))
        return self.read(list(faces)), faces

    def read(self, faces: list[int]) -> PoolRoll:
        return PoolRoll(sum(f >= self.success_from for f in faces), sum(f == 1 for f in faces))

    def parse(self, text: str) -> PoolRoll:
        outcome, _faces = self.read_faces(text)
        return outcome

    def read_faces(self, text: str) -> tuple[PoolRoll, Faces]:
        values = _ints(text)
        if self.count == 0 and not values:
            return PoolRoll(0, 0), ()
        if len(values) != self.count or not all(1 <= v <= 6 for v in values):
            raise DiceError(
                _(
                    "cannot read {text} as {notation}: type each of the {count} dice (1–6), e.g. '{example}'",
                    text=repr(text),
                    notation=self.notation,
                    count=self.count,
                    example=" ".join(["3", "5", "6", "1", "4", "2"][: max(self.count, 1)]),
                )
            )
        return self.read(values), tuple(values)

    def outcome_of(self, faces: Faces) -> PoolRoll:
        if len(faces) != self.count or not all(type(f) is int and 1 <= f <= 6 for f in faces):
            raise DiceError(
                _(
                    "{faces} are not the {count} dice of {notation} (each 1–6)",
                    faces=list(faces),
                    count=self.count,
                    notation=self.notation,
                )
            )
        return self.read(list(faces))

    def coerce(self, value: Any) -> PoolRoll:
        outcome = PoolRoll(*value) if isinstance(value, list | tuple) else value
        if outcome not in self.distribution():
            raise DiceError(
                _("{value} is not a possible result of {notation}", value=repr(value), notation=self.notation)
            )
        return outcome

    def describe(self, outcome: Any) -> str:
        s, ones = outcome
        return successes_text(s, ones)

    def outcome_label(self, outcome: Any) -> str:
        return f"{outcome[0]},{outcome[1]}"

    def table_hint(self) -> str:
        return _(
            "each of the {count} dice, e.g. '{example}'",
            count=self.count,
            example=example(self.count, ("3", "5", "6", "1", "4", "2")),
        )

    def successes(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for roll, p in self.distribution().items():
            out[roll.successes] = out.get(roll.successes, Fraction(0)) + p
        return dict(sorted(out.items()))


@cache
def _pool(count: int, success_from: int) -> dict[PoolRoll, Fraction]:
    """Trinomial: each die is a success, a 1, or neither."""
    from math import comb

    p_success = Fraction(7 - success_from, 6)
    p_one = Fraction(1, 6) if success_from > 1 else Fraction(0)
    p_blank = 1 - p_success - p_one
    weights: dict[PoolRoll, Fraction] = {}
    for s in range(count + 1):
        for o in range(count - s + 1):
            b = count - s - o
            w = comb(count, s) * comb(count - s, o) * p_success**s * p_one**o * p_blank**b
            if w:
                weights[PoolRoll(s, o)] = w
    return normalise(weights)


@dataclass(frozen=True)
class Percentile(Dice):
    """``d100`` read from two d10: 1–100 (``00`` is 100); its *effect* is tens + units (``00`` has effect 0)."""

    @property
    def notation(self) -> str:  # type: ignore[override]
        return "d100"

    def distribution(self) -> dict[int, Fraction]:
        return {v: Fraction(1, 100) for v in range(1, 101)}

    def sample(self, rng: np.random.Generator) -> int:
        return int(rng.integers(1, 101))

    def parse(self, text: str) -> int:
        raw = text.strip()
        if re.fullmatch(r"\d{1,3}", raw):
            value = 100 if raw in ("00", "100") else int(raw)
            if 1 <= value <= 100:
                return value
        digits = raw.split()
        if len(digits) == 2 and all(re.fullmatch(r"\d", d) for d in digits):
            value = int(digits[0]) * 10 + int(digits[1])
            return 100 if value == 0 else value
        raise DiceError(
            _("cannot read {text} as d100: type the two digits as read, e.g. '47' or '00'", text=repr(text))
        )

    def describe(self, outcome: Any) -> str:
        return _("{roll} (effect {effect})", roll=_d100_text(int(outcome)), effect=effect(int(outcome)))

    def table_hint(self) -> str:
        return _("the two digits as read, e.g. '47' ('00' is 100)")


def effect(value: int) -> int:
    """Le våld's *Effekt*: the sum of the tens die and the units die (47 → 11; 100, read 00 → 0)."""
    if value == 100:
        return 0
    return value // 10 + value % 10


def successes_text(successes: int, ones: int) -> str:
    """A pool's outcome in words: ``2 successes, 1×1``."""
    return ngettext("{n} success, {ones}×1", "{n} successes, {ones}×1", successes, ones=ones)


def _d100_text(value: int) -> str:
    return "00" if value == 100 else f"{value:02d}"


def _mod(modifier: int) -> str:
    return "" if modifier == 0 else f"{modifier:+d}"


_SUM = re.compile(r"(\d*)\s*([dDtT])\s*(\d*)\s*(?:([+\-])\s*(\d+))?")
_FUDGE = re.compile(r"(\d*)\s*d\s*F\s*(?:([+\-])\s*(\d+))?", re.IGNORECASE)
_POOL = re.compile(r"(?:(\d+)\s*d\s*6\s*pool|pool\s*(\d+)\s*d\s*6|(\d+)\s*[pP])", re.IGNORECASE)
_D100 = re.compile(r"(?:1?d100|d%)", re.IGNORECASE)

MAX_DICE = 200
#: Numbers in a dice expression (counts, sides, modifiers, comparisons) have at most this many digits: more is a
#: slip of the keyboard (and fits in 64 bits), and past 4,300 digits Python will not even read the number.
MAX_DIGITS = 18
_LONG_NUMBER = re.compile(r"\d{" + str(MAX_DIGITS + 1) + ",}")


def check_numbers(expr: str) -> None:
    """Refuse a number of more than :data:`MAX_DIGITS` digits anywhere in ``expr``, before anything reads it."""
    if m := _LONG_NUMBER.search(expr):
        shown = expr if len(expr) <= 40 else expr[:40] + "…"
        raise DiceError(
            _(
                "dice expression {expr} has a number of {digits} digits: numbers in dice expressions have at most "
                "{most} digits",
                expr=repr(shown),
                digits=len(m.group()),
                most=MAX_DIGITS,
            )
        )


def parse_dice(expr: str) -> Dice:
    """Read dice notation: the systems' rolls ``4dF``, ``3d6``, ``2T+2``, ``3T6``, ``6d6 pool`` (or ``6P``),
    ``d100``, and anything else in the dice language of :mod:`konflikt.dice.expression` (``4d6kh3``, ``2d10+1d4-2``,
    ``4dF+2>=3``, ``d{1,1,2,3}``, ``6d6>=4``).

    Raises:
        DiceError: the expression is not one of these, or asks for no dice or too many.
    """
    text = expr.strip()
    if not text:
        raise DiceError(_("empty dice expression"))
    check_numbers(text)
    if _D100.fullmatch(text):
        return Percentile()
    if m := _POOL.fullmatch(text):
        count = int(next(g for g in m.groups() if g is not None))
        return SuccessPool(_count(count, expr))
    if m := _FUDGE.fullmatch(text):
        count = _count(int(m.group(1) or 1), expr)
        sign = -1 if m.group(2) == "-" else 1
        return Fudge(count, sign * int(m.group(3) or 0))
    if m := _SUM.fullmatch(text):
        count = _count(int(m.group(1) or 1), expr)
        style = ("T6" if m.group(3) else "T") if m.group(2) in "tT" else "d"
        if not m.group(3) and style == "d":
            raise DiceError(_("cannot read dice expression {expr}: say how many sides, e.g. 3d6", expr=repr(expr)))
        sides = int(m.group(3) or 6)
        if sides < 2 or sides > 1000:
            raise DiceError(_("cannot read dice expression {expr}: dice need 2 to 1000 sides", expr=repr(expr)))
        sign = -1 if m.group(4) == "-" else 1
        return SumDice(count, sides, sign * int(m.group(5) or 0), style)
    from konflikt.dice.expression import parse_expression

    return parse_expression(text)


def exact_seconds(dice: Dice) -> float:
    """Estimated seconds to compute ``dice.distribution()`` exactly (front ends refuse what takes too long)."""
    if isinstance(dice, SumDice):
        return sum_seconds(dice.sides, dice.count, dice.sides)
    if isinstance(dice, Fudge):
        return sum_seconds(3, dice.count, 3)
    estimate = getattr(dice, "exact_seconds", None)
    return float(estimate()) if callable(estimate) else 0.0


def _count(count: int, expr: str) -> int:
    if not 1 <= count <= MAX_DICE:
        raise DiceError(_("dice expression {expr} must roll 1 to {most} dice", expr=repr(expr), most=MAX_DICE))
    return count


def brute_force(dice: Dice) -> dict[Any, Fraction]:
    """Plain enumeration of every face of every die: the reference the fast code is tested against."""
    if isinstance(dice, Fudge):
        faces: list[tuple[int, ...]] = list(product((-1, 0, 1), repeat=dice.count))
        return normalise(_count_by(faces, lambda f: sum(f) + dice.modifier))
    if isinstance(dice, SumDice):
        faces = list(product(range(1, dice.sides + 1), repeat=dice.count))
        return normalise(_count_by(faces, lambda f: sum(f) + dice.modifier))
    if isinstance(dice, SuccessPool):
        faces = list(product(range(1, 7), repeat=dice.count))
        return normalise(_count_by(faces, lambda f: dice.read(list(f))))
    if isinstance(dice, Percentile):
        faces = list(product(range(10), repeat=2))
        return normalise(_count_by(faces, lambda f: 100 if f == (0, 0) else f[0] * 10 + f[1]))
    raise TypeError(f"no brute force for {dice!r}")


def _count_by(faces: list[tuple[int, ...]], key: Any) -> dict[Any, int]:
    counts: dict[Any, int] = {}
    for f in faces:
        k = key(f)
        counts[k] = counts.get(k, 0) + 1
    return counts
