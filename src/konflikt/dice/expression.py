"""The dice language of ``konflikt odds`` and ``konflikt roll``, beyond the four systems' own rolls.

Grammar (spaces are ignored)::

    expr   := sum [cmp INT]                      4dF+2>=3, 3d6>10, 6d6>=4 (a success pool, see below)
    sum    := [+|-] term {(+|-) term}            2d10+1d4-2
    term   := INT | '(' sum ')' | group
    group  := [N] d die [keep] ['!' [DEPTH]]     4d6kh3, 2d20kl1, 4d6dl1, d{1,1,2,3}, 3d6!
            | [N] T [SIDES]                      2T (= 2d6), 3T6
    die    := SIDES | F | % | '{' INT {, INT} '}'
    keep   := kh K | kl K | k K | dh K | dl K     keep / drop the highest or lowest K
    cmp    := >= | <= | > | < | = | ==

A comparison on a lone group of several dice (``6d6>=4``, ``5d10>7``) whose target lies inside one die's faces
is a **success pool**: each die is compared and the successes counted, with the 1s rolled beside them (the
reading the systems' pools use). Any other comparison is a yes/no test of the whole sum (``3d6>10``); write
``(3d6)>5`` to compare a sum whose target a single die could reach. ``!`` explodes the highest face, at most
``DEPTH`` times (9 by default, as in icepool).

Exact distributions: sums by :class:`~konflikt.dice.counts.Counts` (one big-integer product per group); keeping
the highest or lowest by icepool, whose multiset algorithm beats anything simple here; success pools by the
multinomial formula. Each construct has a cost estimate, and :meth:`DiceExpression.exact_seconds` lets a front
end refuse in one line what would take more than a few seconds, before starting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import Any

import numpy as np

from konflikt.dice.counts import Counts, product_seconds, sum_seconds
from konflikt.dice.dice import MAX_DICE, Dice, PoolRoll, _ints, check_numbers
from konflikt.errors import DiceError

MAX_FACES = 1000
MAX_FACE_VALUE = 10_000
MAX_DEPTH = 20
DEFAULT_DEPTH = 9
KEEP_SECONDS_PER_UNIT = 2e-6
"""Measured for icepool's keep-highest: about ``faces² × dice × kept × 2e-6`` s."""

COMPARISONS = {
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    "=": lambda a, b: a == b,
}


@dataclass(frozen=True)
class Group:
    """``N`` dice of one kind: summed, or with the highest/lowest kept, or exploding."""

    count: int
    faces: tuple[int, ...]
    die: str
    """The die as written after ``d`` (``6``, ``F``, ``{1,1,2,3}``)."""
    keep: tuple[str, int] | None = None
    """``("h", k)`` keeps the k highest, ``("l", k)`` the k lowest."""
    explode: int = 0
    """Explode the highest face at most this many times per die (0: never)."""

    def one_die(self) -> Counts:
        base = Counts.of_faces(self.faces)
        if not self.explode:
            return base
        top = max(self.faces)
        hits = self.faces.count(top)
        result = base
        for _ in range(self.explode):
            # a die shows a face below the top (weighted by the rest's total), or the top plus another roll
            lower = {base.lo + i: w * result.total for i, w in enumerate(base.ways) if w and base.lo + i != top}
            again = result.shift(top)
            for i, w in enumerate(again.ways):
                if w:
                    lower[again.lo + i] = lower.get(again.lo + i, 0) + hits * w
            result = Counts.of_weights(lower)
        return result

    def counts(self) -> Counts:
        die = self.one_die()
        if self.keep is None:
            return die.power(self.count)
        import icepool

        pool = icepool.Die({die.lo + i: w for i, w in enumerate(die.ways) if w})
        side, k = self.keep
        kept = pool.highest(self.count, k) if side == "h" else pool.lowest(self.count, k)
        return Counts.of_weights({int(v): int(q) for v, q in kept.items() if q})

    def seconds(self) -> float:
        die = self.one_die()
        if self.keep is None:
            return sum_seconds(len(die.ways), self.count, die.total)
        return len(die.ways) ** 2 * self.count * self.keep[1] * KEEP_SECONDS_PER_UNIT

    def sample(self, rng: np.random.Generator) -> list[int]:
        faces = np.asarray(self.faces)
        rolled = faces[rng.integers(len(faces), size=self.count)].tolist()
        if self.explode:
            top = max(self.faces)
            for i, value in enumerate(rolled):
                total, depth = value, 0
                while value == top and depth < self.explode:
                    value = int(faces[rng.integers(len(faces))])
                    total += value
                    depth += 1
                rolled[i] = total
        if self.keep is not None:
            side, k = self.keep
            ordered = sorted(rolled, reverse=side == "h")
            rolled = ordered[:k]
        return [int(v) for v in rolled]


Term = tuple[int, Group | int]
"""A sign (+1 or −1) and a group of dice or a constant."""


@dataclass(frozen=True)
class DiceExpression(Dice):
    """A sum of groups and constants, optionally compared with a number (yes/no) or read as a success pool."""

    terms: tuple[Term, ...]
    compare: tuple[str, int] | None = None
    pool: bool = False
    written: str = ""

    @property
    def notation(self) -> str:  # type: ignore[override]
        return self.written

    # -- exact --------------------------------------------------------------------------------------------------
    def exact_seconds(self) -> float:
        """Estimated seconds to compute the exact distribution (a front end refuses above a few)."""
        if self.pool:
            return 0.0
        groups = [g for _, g in self.terms if isinstance(g, Group)]
        seconds = sum(g.seconds() for g in groups)
        if len(groups) > 1:  # the groups' sums multiplied together: as wide as all of them, as deep as their product
            width = sum(len(g.one_die().ways) * g.count for g in groups)
            bits = sum(g.one_die().total.bit_length() * g.count for g in groups)
            seconds += product_seconds(width, bits)
        return seconds

    def sum_counts(self) -> Counts:
        result = Counts.constant(0)
        for sign, term in self.terms:
            part = term.counts() if isinstance(term, Group) else Counts.constant(term)
            result = result + (part if sign > 0 else -part)
        return result

    @cached_property
    def _distribution(self) -> dict[Any, Fraction]:
        if self.pool:
            return self._pool_distribution()
        sums = self.sum_counts().fractions()
        if self.compare is None:
            return sums
        op, target = self.compare
        yes = sum((p for v, p in sums.items() if COMPARISONS[op](v, target)), Fraction(0))
        return {k: p for k, p in ((False, 1 - yes), (True, yes)) if p}

    def distribution(self) -> dict[Any, Fraction]:
        return self._distribution

    def _pool_group(self) -> Group:
        group = self.terms[0][1]
        assert isinstance(group, Group)
        return group

    def _pool_distribution(self) -> dict[Any, Fraction]:
        """Successes and 1s: each die is a success that is not a 1, a 1 (a success or not), or neither."""
        group = self._pool_group()
        assert self.compare is not None
        op, target = self.compare
        success_one = COMPARISONS[op](1, target)
        w_one = group.faces.count(1)
        w_hit = sum(1 for f in group.faces if f != 1 and COMPARISONS[op](f, target))
        w_rest = len(group.faces) - w_one - w_hit
        n, total = group.count, len(group.faces) ** group.count
        ways: dict[PoolRoll, int] = {}
        for hits in range(n + 1):
            for ones in range(n - hits + 1):
                w = comb(n, hits) * comb(n - hits, ones) * w_hit**hits * w_one**ones * w_rest ** (n - hits - ones)
                if w:
                    key = PoolRoll(hits + (ones if success_one else 0), ones)
                    ways[key] = ways.get(key, 0) + w
        return {k: Fraction(w, total) for k, w in sorted(ways.items())}

    def has_ones(self) -> bool:
        return self.pool and 1 in self._pool_group().faces

    def successes(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for roll, p in self.distribution().items():
            out[roll.successes] = out.get(roll.successes, Fraction(0)) + p
        return dict(sorted(out.items()))

    # -- rolling and reading ------------------------------------------------------------------------------------
    def sample(self, rng: np.random.Generator) -> Any:
        if self.pool:
            group = self._pool_group()
            assert self.compare is not None
            op, target = self.compare
            faces = group.sample(rng)
            return PoolRoll(sum(COMPARISONS[op](f, target) for f in faces), faces.count(1))
        total = 0
        for sign, term in self.terms:
            total += sign * (sum(term.sample(rng)) if isinstance(term, Group) else term)
        if self.compare is None:
            return total
        op, target = self.compare
        return bool(COMPARISONS[op](total, target))

    def parse(self, text: str) -> Any:
        """At the table: a total (or for a lone group, its dice one by one); a pool's dice one by one."""
        values = _ints(text)
        groups = [g for _, g in self.terms if isinstance(g, Group)]
        if self.pool:
            group = groups[0]
            if len(values) == group.count and all(v in group.faces for v in values):
                assert self.compare is not None
                op, target = self.compare
                return PoolRoll(sum(COMPARISONS[op](v, target) for v in values), values.count(1))
        elif self.compare is None:
            if len(values) == 1 and values[0] in self.distribution():
                return values[0]
            simple = len(groups) == 1 and groups[0].keep is None and not groups[0].explode
            if simple and len(values) == groups[0].count and all(v in groups[0].faces for v in values):
                rest = sum(s * t for s, t in self.terms if isinstance(t, int))
                sign = next(s for s, t in self.terms if isinstance(t, Group))
                return sign * sum(values) + rest
        raise DiceError(f"cannot read {text!r} as {self.notation}: type {self.table_hint()}")

    def coerce(self, value: Any) -> Any:
        outcome = PoolRoll(*value) if self.pool and isinstance(value, list | tuple) else value
        try:
            known = outcome in self.distribution()
        except TypeError:  # unhashable (a JSON list for a sum): no possible result either
            known = False
        if not known:
            raise DiceError(f"{value!r} is not a possible result of {self.notation}")
        return outcome

    def table_hint(self) -> str:
        if self.pool:
            return f"each of the {self._pool_group().count} dice"
        return "the total" if self.compare is None else "the roll is computed here; use 'auto'"

    def describe(self, outcome: Any) -> str:
        if self.pool:
            return f"{outcome[0]} success{'es' if outcome[0] != 1 else ''}, {outcome[1]}×1"
        return self.outcome_label(outcome)

    def outcome_label(self, outcome: Any) -> str:
        if isinstance(outcome, bool):
            return "yes" if outcome else "no"
        if self.pool:
            return f"{outcome[0]},{outcome[1]}"
        return str(outcome)


# -- parsing ----------------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(>=|<=|==|[-+()<>=!{},%]|\d+|[A-Za-z]+)")


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    text = text.replace("−", "-").replace("–", "-").strip()
    check_numbers(text)
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or not m.group(1):
            raise DiceError(f"cannot read dice expression {text!r}: unexpected {text[pos:].strip()[:8]!r}")
        word = m.group(1)
        out.extend(["d", "F"] if word.lower() == "df" else [word])
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.i = 0

    def fail(self, why: str) -> DiceError:
        return DiceError(f"cannot read dice expression {self.text!r}: {why}")

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise self.fail("it ends too early")
        self.i += 1
        return token

    def number(self, what: str) -> int:
        token = self.take()
        if not token.isdigit():
            raise self.fail(f"expected {what}, found {token!r}")
        return int(token)

    def expression(self) -> DiceExpression:
        terms, bracketed = self.sum()
        compare = None
        if self.peek() in (">=", "<=", ">", "<", "=", "=="):
            op = self.take().replace("==", "=")
            sign = -1 if self.peek() == "-" else 1
            if self.peek() in ("+", "-"):
                self.take()
            compare = (op, sign * self.number("a number to compare with"))
        if self.peek() is not None:
            raise self.fail(f"unexpected {self.peek()!r}")
        if not any(isinstance(t, Group) for _, t in terms):
            raise self.fail("roll at least one die, e.g. 3d6")
        pool = False
        if compare is not None and not bracketed and len(terms) == 1 and terms[0][0] == 1:
            group = terms[0][1]
            if isinstance(group, Group) and group.count > 1 and group.keep is None and not group.explode:
                op, target = compare
                hits = {f for f in group.faces if COMPARISONS[op](f, target)}
                pool = bool(hits) and hits != set(group.faces)
        return DiceExpression(tuple(terms), compare, pool, re.sub(r"\s+", "", self.text))

    def sum(self) -> tuple[list[Term], bool]:
        terms: list[Term] = []
        sign = 1
        if self.peek() in ("+", "-"):
            sign = -1 if self.take() == "-" else 1
        bracketed = self.peek() == "("
        terms += self.term(sign)
        while self.peek() in ("+", "-"):
            sign = -1 if self.take() == "-" else 1
            bracketed = False
            terms += self.term(sign)
        return terms, bracketed and len(terms) >= 1

    def term(self, sign: int) -> list[Term]:
        token = self.peek()
        if token == "(":
            self.take()
            inner, _ = self.sum()
            if self.peek() != ")":
                raise self.fail("a '(' is not closed")
            self.take()
            return [(sign * s, t) for s, t in inner]
        count = 1
        if token is not None and token.isdigit():
            count = int(self.take())
            if self.peek() is None or not self.peek()[0].isalpha():  # type: ignore[index]
                return [(sign, count)]
        word = self.take()
        if word.lower() == "t":
            sides = self.number("sides") if (self.peek() or "").isdigit() else 6
            if not 2 <= sides <= MAX_FACES:
                raise self.fail(f"dice need 2 to {MAX_FACES} sides")
            return [(sign, self.group(count, tuple(range(1, sides + 1)), f"{sides}"))]
        if word.lower() != "d":
            raise self.fail(f"unexpected {word!r}")
        return [(sign, self.die(count))]

    def die(self, count: int) -> Group:
        token = self.take()
        if token.isdigit():
            sides = int(token)
            if not 2 <= sides <= MAX_FACES:
                raise self.fail(f"dice need 2 to {MAX_FACES} sides")
            return self.group(count, tuple(range(1, sides + 1)), token)
        if token == "%":
            return self.group(count, tuple(range(1, 101)), "%")
        if token.upper() == "F":
            return self.group(count, (-1, 0, 1), "F")
        if token == "{":
            faces: list[int] = []
            while True:
                sign = 1
                if self.peek() in ("-", "+"):
                    sign = -1 if self.take() == "-" else 1
                faces.append(sign * self.number("a face"))
                closing = self.take()
                if closing == "}":
                    break
                if closing != ",":
                    raise self.fail("faces are listed as {1,1,2,3}")
            if len(faces) > MAX_FACES:
                raise self.fail(f"a die has at most {MAX_FACES} faces")
            if any(abs(f) > MAX_FACE_VALUE for f in faces):
                raise self.fail(f"faces lie between -{MAX_FACE_VALUE} and {MAX_FACE_VALUE}")
            return self.group(count, tuple(faces), "{" + ",".join(map(str, faces)) + "}")
        raise self.fail(f"after d comes the sides (6), F, % or faces {{1,2,3}}, not {token!r}")

    def group(self, count: int, faces: tuple[int, ...], die: str) -> Group:
        if not 1 <= count <= MAX_DICE:
            raise self.fail(f"roll 1 to {MAX_DICE} dice at a time")
        keep: tuple[str, int] | None = None
        explode = 0
        while True:  # keep and explode, in either order
            word = (self.peek() or "").lower()
            if keep is None and word in ("k", "kh", "kl", "dh", "dl"):
                self.take()
                keep = self.keep(word, count)
            elif not explode and word == "!":
                self.take()
                explode = self.number("the explosion depth") if (self.peek() or "").isdigit() else DEFAULT_DEPTH
                if not 1 <= explode <= MAX_DEPTH:
                    raise self.fail(f"explode 1 to {MAX_DEPTH} times")
                if len(set(faces)) < 2:
                    raise self.fail("a die with one face cannot explode")
            else:
                break
        return Group(count, faces, die, keep, explode)

    def keep(self, word: str, count: int) -> tuple[str, int]:
        k = self.number("how many dice") if (self.peek() or "").isdigit() else 1
        if word.startswith("d"):
            if not 0 <= k < count:
                raise self.fail(f"cannot drop {k} of {count} dice")
            return ("l", count - k) if word == "dh" else ("h", count - k)
        if not 1 <= k <= count:
            raise self.fail(f"cannot keep {k} of {count} dice")
        return ("l" if word == "kl" else "h", k)


def parse_expression(text: str) -> DiceExpression:
    """Read the dice language (module docstring); raise :class:`DiceError` with what is wrong."""
    return _Parser(text).expression()
