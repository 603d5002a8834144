"""The dice language of ``konflikt odds`` and ``konflikt roll``, beyond the four systems' own rolls.

Grammar (spaces are ignored; words are read in any case)::

    expr    := side ['vs' side ['by' RULE]]          2d6 vs 2d6, d100<=60 vs d100<=55 by quality
    side    := sum [cmp INT]                         4dF+2>=3, 3d6>10, 6d6>=4 (a success pool, see below)
    sum     := [+|-] product {(+|-) product}         2d10+1d4-2
    product := atom {'*' atom}                       2d6*3, d6*d6, (2d6+1)*2
    atom    := INT | '(' sum ')' | group
             | (max|min) '(' sum {, sum} ')'         max(2d6, 1d12): the higher (lower) of independent rolls
             | (highest|lowest) N of group           highest 3 of 4d6 (= 4d6kh3)
             | (highest|lowest) N of '(' sum {, sum} ')'   highest 2 of (1d6, 1d8, 1d10), summed
    group   := [N] d die {keep | '!' [DEPTH] | reroll}     4d6kh3, 2d20kl1, 4d6dl1, d{1,1,2,3}, 3d6!, 3d6r1
             | [N] T [SIDES] {…the same}                 2T (= 2d6), 3T6
    die     := SIDES | F | % | '{' INT {, INT} '}'
    keep    := kh K | kl K | k K | dh K | dl K      keep / drop the highest or lowest K
    reroll  := r [cmp] INT | ro [cmp] INT           3d6r1, 4d6ro1, 4d6r<3, 2d10ro<=2 (no cmp: =)
    cmp     := >= | <= | > | < | = | ==

A comparison on a lone group of several dice (``6d6>=4``, ``5d10>7``) whose target lies inside one die's faces
is a **success pool**: each die is compared and the successes counted, with the 1s rolled beside them (the
reading the systems' pools use). Any other comparison is a yes/no test of the whole sum (``3d6>10``); write
``(3d6)>5`` to compare a sum whose target a single die could reach. ``!`` explodes the highest face, at most
``DEPTH`` times (9 by default, as in icepool).

Conventions, those of icepool 2.1 (the reference every form is tested against):

- ``r`` rerolls a matching face until it no longer matches (``Die.reroll(which, depth='inf')``: the die without
  those faces); ``ro`` rerolls it once and keeps the second roll whatever it shows (``depth=1``). Each die is
  rerolled on its own, before exploding (an exploding die's extra rolls are rerolled too) and before keeping.
- ``*`` multiplies values (``2d6*3`` is three times one 2d6 roll, not 6d6; ``d6*d6`` multiplies two
  independent d6), as icepool's ``*`` and AnyDice's do; ``3 @ d6`` in icepool is ``3d6`` here.
- ``max``/``min``/``highest N of (…)`` take independent rolls of whole expressions; ``highest N of 4d6`` is the
  keep of one group (``4d6khN``).
- ``A vs B`` rolls the two sides independently: "A higher", "tie" or "B higher", with the margin A−B (a success
  pool's side counts its successes). ``by RULE`` judges the two rolls by a system's rule instead
  (:mod:`konflikt.dice.opposed`; the rules themselves live above this layer and are passed in).

Exact distributions: sums by :class:`~konflikt.dice.counts.Counts` (one big-integer product per group); keeping
the highest or lowest of one kind of die by icepool, whose multiset algorithm beats anything simple here; success
pools by the multinomial formula; products, ``max``/``min`` and mixed keeps by :mod:`konflikt.dice.combine`. Each
construct has a cost estimate, and :meth:`DiceExpression.exact_seconds` lets a front end refuse in one line what
would take more than a few seconds, before starting.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from konflikt.dice.combine import KeepOf, Operand, Product
from konflikt.dice.counts import Counts, product_seconds, sum_seconds
from konflikt.dice.dice import MAX_DICE, Dice, PoolRoll, _ints, check_numbers, successes_text
from konflikt.dice.messages import _
from konflikt.dice.opposed import Opposed
from konflikt.errors import DiceError

if TYPE_CHECKING:
    from konflikt.dice.opposed import OpposedRule

MAX_FACES = 1000
MAX_FACE_VALUE = 10_000
MAX_DEPTH = 20
DEFAULT_DEPTH = 9
KEEP_SECONDS_PER_UNIT = 2e-6
"""Measured for icepool's keep-highest: about ``faces² × dice × kept × 2e-6`` s."""
MAX_ROLLS = 20
"""``max(…)``, ``highest N of (…)``: at most this many expressions, and ``*`` at most this many factors."""

COMPARISONS = {
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    "=": lambda a, b: a == b,
}
COMPARISON_TOKENS = (">=", "<=", ">", "<", "=", "==")


@dataclass(frozen=True)
class Group:
    """``N`` dice of one kind: summed, or with the highest/lowest kept, exploding, or rerolling some faces."""

    count: int
    faces: tuple[int, ...]
    die: str
    """The die as written after ``d`` (``6``, ``F``, ``{1,1,2,3}``)."""
    keep: tuple[str, int] | None = None
    """``("h", k)`` keeps the k highest, ``("l", k)`` the k lowest."""
    explode: int = 0
    """Explode the highest face at most this many times per die (0: never)."""
    reroll: tuple[str, int] | None = None
    """Reroll the faces that compare so (``("<", 3)``): until they do not (``r``), or once (``ro``)."""
    reroll_once: bool = False

    def rerolls(self, face: int) -> bool:
        return self.reroll is not None and COMPARISONS[self.reroll[0]](face, self.reroll[1])

    def rerolled(self) -> Counts:
        """One die after its rerolls (before exploding). ``r``: the faces that do not match, equally likely.
        ``ro``: out of n² cases, a face f shows ``n·[f kept] + m`` ways (m faces rerolled once, then any face)."""
        if self.reroll is None:
            return Counts.of_faces(self.faces)
        n, m = len(self.faces), sum(1 for f in self.faces if self.rerolls(f))
        weights: dict[int, int] = {}
        for f in self.faces:
            kept = not self.rerolls(f)
            w = (n * kept + m) if self.reroll_once else int(kept)
            weights[f] = weights.get(f, 0) + w
        return Counts.of_weights({f: w for f, w in weights.items() if w})

    def one_die(self) -> Counts:
        base = self.rerolled()
        if not self.explode:
            return base
        top = base.hi
        hits = base.ways[-1]
        result = base
        for _round in range(self.explode):
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
        counts = Counts.of_weights({int(v): int(q) for v, q in kept.items() if q})
        factor, rest = divmod(die.total**self.count, counts.total)  # icepool may reduce the denominator
        assert rest == 0
        return Counts(counts.lo, tuple(w * factor for w in counts.ways), counts.total * factor)

    def seconds(self) -> float:
        die = self.one_die()
        if self.keep is None:
            return sum_seconds(len(die.ways), self.count, die.total)
        return len(die.ways) ** 2 * self.count * self.keep[1] * KEEP_SECONDS_PER_UNIT

    def size(self) -> tuple[int, int]:
        die = self.one_die()
        return len(die.ways) * self.count, die.total.bit_length() * self.count

    def _draw(self, faces: np.ndarray, rng: np.random.Generator) -> int:
        """One die rolled, and rerolled as its ``r``/``ro`` says."""
        value = int(faces[rng.integers(len(faces))])
        while self.rerolls(value):
            value = int(faces[rng.integers(len(faces))])
            if self.reroll_once:
                break
        return value

    def sample(self, rng: np.random.Generator) -> list[int]:
        faces = np.asarray(self.faces)
        rolled = faces[rng.integers(len(faces), size=self.count)].tolist()
        if self.reroll is not None:
            for i, value in enumerate(rolled):
                if self.rerolls(value):
                    rolled[i] = value = int(faces[rng.integers(len(faces))])
                    while not self.reroll_once and self.rerolls(value):
                        rolled[i] = value = int(faces[rng.integers(len(faces))])
        if self.explode:
            top = self.rerolled().hi
            for i, value in enumerate(rolled):
                total, depth = value, 0
                while value == top and depth < self.explode:
                    value = self._draw(faces, rng)
                    total += value
                    depth += 1
                rolled[i] = total
        if self.keep is not None:
            side, k = self.keep
            ordered = sorted(rolled, reverse=side == "h")
            rolled = ordered[:k]
        return [int(v) for v in rolled]

    def sample_total(self, rng: np.random.Generator) -> int:
        return sum(self.sample(rng))


Term = tuple[int, "Group | int | Operand"]
"""A sign (+1 or −1) and a group of dice, a constant, or a combination (:mod:`konflikt.dice.combine`)."""


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

    def rolls_dice(self) -> bool:
        return not all(isinstance(t, int) for _, t in self.terms)

    def raw(self) -> DiceExpression:
        """The sum without its comparison (a side of ``A vs B by RULE`` gives the rule its dice)."""
        return self if self.compare is None else DiceExpression(self.terms, written=self.written)

    # -- exact --------------------------------------------------------------------------------------------------
    def exact_seconds(self) -> float:
        """Estimated seconds to compute the exact distribution (a front end refuses above a few)."""
        if self.pool:
            return 0.0
        parts = [t for _, t in self.terms if not isinstance(t, int)]
        seconds = sum(p.seconds() for p in parts)
        if len(parts) > 1:  # the parts' sums multiplied together: as wide as all of them, as deep as their product
            sizes = [p.size() for p in parts]
            seconds += product_seconds(sum(w for w, _ in sizes), sum(b for _, b in sizes))
        return seconds

    def seconds(self) -> float:
        return self.exact_seconds()

    def size(self) -> tuple[int, int]:
        sizes = [t.size() for _, t in self.terms if not isinstance(t, int)]
        return max(sum(w for w, _ in sizes), 1), sum(b for _, b in sizes)

    def sum_counts(self) -> Counts:
        result = Counts.constant(0)
        for sign, term in self.terms:
            part = Counts.constant(term) if isinstance(term, int) else term.counts()
            result = result + (part if sign > 0 else -part)
        return result

    @cached_property
    def _counts(self) -> Counts:
        return self.sum_counts()

    def counts(self) -> Counts:
        """The sum's integer ways (its comparison aside), computed once."""
        return self._counts

    @cached_property
    def _distribution(self) -> dict[Any, Fraction]:
        if self.pool:
            return self._pool_distribution()
        sums = self.counts().fractions()
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

    @cached_property
    def _pool_ways(self) -> tuple[dict[PoolRoll, int], int]:
        """Successes and 1s as integer ways: each die is a success that is not a 1, a 1 (a success or not), or
        neither, weighted by the die after its rerolls."""
        group = self._pool_group()
        assert self.compare is not None
        op, target = self.compare
        success_one = COMPARISONS[op](1, target)
        die = group.rerolled()
        weights = {die.lo + i: w for i, w in enumerate(die.ways) if w}
        w_one = weights.get(1, 0)
        w_hit = sum(w for f, w in weights.items() if f != 1 and COMPARISONS[op](f, target))
        w_rest = die.total - w_one - w_hit
        n = group.count
        ways: dict[PoolRoll, int] = {}
        for hits in range(n + 1):
            for ones in range(n - hits + 1):
                w = comb(n, hits) * comb(n - hits, ones) * w_hit**hits * w_one**ones * w_rest ** (n - hits - ones)
                if w:
                    key = PoolRoll(hits + (ones if success_one else 0), ones)
                    ways[key] = ways.get(key, 0) + w
        return dict(sorted(ways.items())), die.total**n

    def _pool_distribution(self) -> dict[Any, Fraction]:
        ways, total = self._pool_ways
        return {k: Fraction(w, total) for k, w in ways.items()}

    def success_counts(self) -> Counts:
        """A success pool's successes as integer ways (a side of ``A vs B``)."""
        ways, _ones = self._pool_ways
        successes: dict[int, int] = {}
        for roll, w in ways.items():
            successes[roll.successes] = successes.get(roll.successes, 0) + w
        return Counts.of_weights(successes)

    def has_ones(self) -> bool:
        return self.pool and 1 in self._pool_group().faces

    def successes(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for roll, p in self.distribution().items():
            out[roll.successes] = out.get(roll.successes, Fraction(0)) + p
        return dict(sorted(out.items()))

    # -- rolling and reading ------------------------------------------------------------------------------------
    def sample_total(self, rng: np.random.Generator) -> int:
        total = 0
        for sign, term in self.terms:
            total += sign * (term if isinstance(term, int) else term.sample_total(rng))
        return total

    def sample(self, rng: np.random.Generator) -> Any:
        if self.pool:
            group = self._pool_group()
            assert self.compare is not None
            op, target = self.compare
            faces = group.sample(rng)
            return PoolRoll(sum(COMPARISONS[op](f, target) for f in faces), faces.count(1))
        total = self.sample_total(rng)
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
            only_groups = all(isinstance(t, Group | int) for _, t in self.terms)
            simple = (
                only_groups
                and len(groups) == 1
                and groups[0].keep is None
                and not groups[0].explode
                and groups[0].reroll is None
            )
            if simple and len(values) == groups[0].count and all(v in groups[0].faces for v in values):
                rest = sum(s * t for s, t in self.terms if isinstance(t, int))
                sign = next(s for s, t in self.terms if isinstance(t, Group))
                return sign * sum(values) + rest
        raise DiceError(
            _(
                "cannot read {text} as {notation}: type {hint}",
                text=repr(text),
                notation=self.notation,
                hint=self.table_hint(),
            )
        )

    def coerce(self, value: Any) -> Any:
        outcome = PoolRoll(*value) if self.pool and isinstance(value, list | tuple) else value
        try:
            known = outcome in self.distribution()
        except TypeError:  # unhashable (a JSON list for a sum): no possible result either
            known = False
        if not known:
            raise DiceError(
                _("{value} is not a possible result of {notation}", value=repr(value), notation=self.notation)
            )
        return outcome

    def table_hint(self) -> str:
        if self.pool:
            return _("each of the {count} dice", count=self._pool_group().count)
        return _("the total") if self.compare is None else _("the roll is computed here; use 'auto'")

    def describe(self, outcome: Any) -> str:
        if self.pool:
            return successes_text(outcome[0], outcome[1])
        return self.outcome_label(outcome)

    def outcome_label(self, outcome: Any) -> str:
        if isinstance(outcome, bool):
            return "yes" if outcome else "no"
        if self.pool:
            return f"{outcome[0]},{outcome[1]}"
        return str(outcome)


# -- parsing ----------------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(>=|<=|==|[-+()<>=!{},%*]|\d+|[A-Za-z]+)")
FUNCTIONS = {"max": "h", "min": "l"}
KEEPS = {"highest": "h", "lowest": "l"}


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    text = text.replace("−", "-").replace("–", "-").replace("×", "*").strip()
    check_numbers(text)
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or not m.group(1):
            raise DiceError(
                _(
                    "cannot read dice expression {expr}: unexpected {found}",
                    expr=repr(text),
                    found=repr(text[pos:].strip()[:8]),
                )
            )
        word = m.group(1)
        if word.lower().startswith("df"):  # 4dF, and 4dFr-1: the die, then what follows it
            out += ["d", "F"] + ([word[2:]] if len(word) > 2 else [])
        else:
            out.append(word)
        pos = m.end()
    return out


SPACED = ("highest", "lowest", "of", "vs", "by")
"""Words written with a space either side in an expression's notation (``highest 3 of 4d6``, ``2d6 vs 2d6``)."""


def _written(tokens: list[str]) -> str:
    """An expression as it is shown: its tokens without spaces, except around the words of :data:`SPACED`."""
    out = ""
    for i, token in enumerate(tokens):
        if i and (token.lower() in SPACED or tokens[i - 1].lower() in SPACED):
            out += " "
        out += token
    return out


class _Parser:
    def __init__(self, text: str, rules: Mapping[str, OpposedRule] | None = None) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.rules = rules
        self.i = 0

    def fail(self, why: str) -> DiceError:
        return DiceError(_("cannot read dice expression {expr}: {why}", expr=repr(self.text), why=why))

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def word(self) -> str:
        """The next token in lower case ('' at the end)."""
        return (self.peek() or "").lower()

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise self.fail(_("it ends too early"))
        self.i += 1
        return token

    def expect(self, token: str, why: str) -> None:
        if self.word() != token:
            found = self.peek()
            raise self.fail(
                _("{why}, found {found}", why=why, found=repr(found))
                if found is not None
                else _("{why}: it ends too early", why=why)
            )
        self.take()

    def number(self, what: str) -> int:
        token = self.take()
        if not token.isdigit():
            raise self.fail(_("expected {what}, found {found}", what=what, found=repr(token)))
        return int(token)

    def signed(self, what: str) -> int:
        sign = -1 if self.peek() == "-" else 1
        if self.peek() in ("+", "-"):
            self.take()
        return sign * self.number(what)

    # -- the whole: one side, or two against each other -------------------------------------------------------
    def expression(self) -> DiceExpression | Opposed:
        start = self.i
        first = self.side()
        if self.word() != "vs":
            self.end()
            if not first.rolls_dice():
                raise self.fail(_("roll at least one die, e.g. 3d6"))
            return first
        a_text = _written(self.tokens[start : self.i])
        self.take()
        start = self.i
        second = self.side()
        b_text = _written(self.tokens[start : self.i])
        if self.word() == "vs":
            raise self.fail(_("one 'vs' at a time: A vs B"))
        if not first.rolls_dice() and not second.rolls_dice():
            raise self.fail(_("roll at least one die on one side, e.g. 3d6 vs 12"))
        a = replace(first, written=a_text)
        b = replace(second, written=b_text)
        written = f"{a_text} vs {b_text}"
        if self.word() != "by":
            self.end()
            for name, side in (("A", a), ("B", b)):
                if side.compare is not None and not side.pool:
                    raise self.fail(
                        _(
                            "{name} = {written} is a yes/no test, with no number to compare: compare sums or pools, "
                            "or judge the two rolls by a rule ('… by quality')",
                            name=name,
                            written=side.written,
                        )
                    )
            return Opposed(a, b, written)
        self.take()
        rule_name = self.take().lower()
        self.end()
        return self.opposed_by(a, b, written, rule_name)

    def opposed_by(self, a: DiceExpression, b: DiceExpression, written: str, name: str) -> Opposed:
        rules = self.rules or {}
        if name not in rules:
            known = ", ".join(sorted(rules)) or _("none here")
            raise self.fail(_("no opposed rule {name} (known: {known})", name=repr(name), known=known))
        judge = rules[name].bind(a, b)
        return Opposed(a, b, f"{written} by {name}", name, judge)

    def end(self) -> None:
        if self.peek() is not None:
            raise self.fail(_("unexpected {found}", found=repr(self.peek())))

    def side(self) -> DiceExpression:
        terms, bracketed = self.sum()
        compare = None
        if self.peek() in COMPARISON_TOKENS:
            op = self.take().replace("==", "=")
            compare = (op, self.signed("a number to compare with"))
        if self.peek() is not None and self.word() not in ("vs", "by"):
            raise self.fail(_("unexpected {found}", found=repr(self.peek())))
        pool = False
        if compare is not None and not bracketed and len(terms) == 1 and terms[0][0] == 1:
            group = terms[0][1]
            if isinstance(group, Group) and group.count > 1 and group.keep is None and not group.explode:
                op, target = compare
                shown = {f for f in group.faces if not (group.reroll and not group.reroll_once and group.rerolls(f))}
                hits = {f for f in shown if COMPARISONS[op](f, target)}
                pool = bool(hits) and hits != shown
        return DiceExpression(tuple(terms), compare, pool, _written(self.tokens))

    # -- sums, products, atoms ----------------------------------------------------------------------------------
    def sum(self) -> tuple[list[Term], bool]:
        terms: list[Term] = []
        sign = 1
        if self.peek() in ("+", "-"):
            sign = -1 if self.take() == "-" else 1
        bracketed = self.peek() == "("
        terms += self.product(sign)
        while self.peek() in ("+", "-"):
            sign = -1 if self.take() == "-" else 1
            bracketed = False
            terms += self.product(sign)
        return terms, bracketed and len(terms) >= 1

    def product(self, sign: int) -> list[Term]:
        parts = [self.atom()]
        while self.peek() == "*":
            self.take()
            parts.append(self.atom())
            if len(parts) > MAX_ROLLS:
                raise self.fail(_("multiply at most {most} factors", most=MAX_ROLLS))
        if len(parts) == 1:
            return [(sign * s, t) for s, t in parts[0]]
        scale, factors = 1, list[Operand]()
        for part in parts:
            if all(isinstance(t, int) for _, t in part):
                scale *= sum(s * t for s, t in part if isinstance(t, int))
            elif len(part) == 1:
                s, t = part[0]
                assert not isinstance(t, int)
                scale *= s
                factors.append(t)
            else:
                factors.append(DiceExpression(tuple(part)))
        if not factors:
            return [(sign, scale)]
        if scale == 0:
            return [(sign, 0)]
        return [(sign, Product(scale, tuple(factors)))]

    def rolls(self, what: str) -> tuple[Operand, ...]:
        """``( sum {, sum} )``: the independent rolls of ``max``, ``min`` or ``highest N of``."""
        self.expect("(", _("{what} takes expressions in brackets, e.g. {what}(2d6, 1d12)", what=what))
        found: list[Operand] = []
        while True:
            terms, _end = self.sum()
            if len(terms) == 1 and terms[0][0] == 1 and not isinstance(terms[0][1], int):
                found.append(terms[0][1])
            else:
                found.append(DiceExpression(tuple(terms)))
            if len(found) > MAX_ROLLS:
                raise self.fail(_("{what} takes at most {most} expressions", what=what, most=MAX_ROLLS))
            token = self.take()
            if token == ")":
                return tuple(found)
            if token != ",":
                raise self.fail(
                    _("{what}'s expressions are separated by commas, found {found}", what=what, found=repr(token))
                )

    def atom(self) -> list[Term]:
        token = self.peek()
        word = self.word()
        if token == "(":
            self.take()
            inner, _end = self.sum()
            if self.peek() != ")":
                raise self.fail(_("a '(' is not closed"))
            self.take()
            return inner
        if word in FUNCTIONS:
            self.take()
            found = self.rolls(word)
            if len(found) < 2:
                raise self.fail(_("{word} takes two or more expressions, e.g. {word}(2d6, 1d12)", word=word))
            return [(1, KeepOf(FUNCTIONS[word], 1, found))]
        if word in KEEPS:
            return [(1, self.keep_of(word))]
        count = 1
        if token is not None and token.isdigit():
            count = int(self.take())
            if self.word() not in ("d", "t"):
                return [(1, count)]
        word = self.take().lower()
        if word == "t":
            sides = self.number("sides") if (self.peek() or "").isdigit() else 6
            if not 2 <= sides <= MAX_FACES:
                raise self.fail(_("dice need 2 to {most} sides", most=MAX_FACES))
            return [(1, self.group(count, tuple(range(1, sides + 1)), f"{sides}"))]
        if word != "d":
            raise self.fail(_("unexpected {found}", found=repr(token)))
        return [(1, self.die(count))]

    def keep_of(self, word: str) -> Group | KeepOf:
        """``highest N of 4d6`` (one group's keep) or ``highest N of (1d6, 1d8, 1d10)`` (independent rolls)."""
        self.take()
        n = self.number(f"how many to keep after {word!r}")
        self.expect("of", _("write {word} {n} of 4d6, or {word} {n} of (1d6, 1d8)", word=word, n=n))
        if self.peek() == "(":
            found = self.rolls(f"{word} {n} of")
            if not 1 <= n <= len(found):
                raise self.fail(_("cannot keep {n} of {count} rolls", n=n, count=len(found)))
            return KeepOf(KEEPS[word], n, found)
        atom = self.atom()
        group = atom[0][1] if len(atom) == 1 else None
        if not isinstance(group, Group):
            raise self.fail(_("{word} {n} of takes dice (4d6) or rolls in brackets ((1d6, 1d8))", word=word, n=n))
        if group.keep is not None:
            raise self.fail(_("{word} {n} of a group that already keeps some of its dice", word=word, n=n))
        if not 1 <= n <= group.count:
            raise self.fail(_("cannot keep {n} of {count} dice", n=n, count=group.count))
        return replace(group, keep=(KEEPS[word], n))

    def die(self, count: int) -> Group:
        token = self.take()
        if token.isdigit():
            sides = int(token)
            if not 2 <= sides <= MAX_FACES:
                raise self.fail(_("dice need 2 to {most} sides", most=MAX_FACES))
            return self.group(count, tuple(range(1, sides + 1)), token)
        if token == "%":
            return self.group(count, tuple(range(1, 101)), "%")
        if token.upper() == "F":
            return self.group(count, (-1, 0, 1), "F")
        if token == "{":
            faces: list[int] = []
            while True:
                faces.append(self.signed("a face"))
                closing = self.take()
                if closing == "}":
                    break
                if closing != ",":
                    raise self.fail(_("faces are listed as {example}", example="{1,1,2,3}"))
            if len(faces) > MAX_FACES:
                raise self.fail(_("a die has at most {most} faces", most=MAX_FACES))
            if any(abs(f) > MAX_FACE_VALUE for f in faces):
                raise self.fail(_("faces lie between -{most} and {most}", most=MAX_FACE_VALUE))
            return self.group(count, tuple(faces), "{" + ",".join(map(str, faces)) + "}")
        raise self.fail(_("after d comes the sides (6), F, % or faces {{1,2,3}}, not {found}", found=repr(token)))

    def group(self, count: int, faces: tuple[int, ...], die: str) -> Group:
        if not 1 <= count <= MAX_DICE:
            raise self.fail(_("roll 1 to {most} dice at a time", most=MAX_DICE))
        keep: tuple[str, int] | None = None
        explode = 0
        reroll: tuple[str, int] | None = None
        once = False
        while True:  # keep, explode and reroll, in any order
            word = self.word()
            if keep is None and word in ("k", "kh", "kl", "dh", "dl"):
                self.take()
                keep = self.keep(word, count)
            elif not explode and word == "!":
                self.take()
                explode = self.number("the explosion depth") if (self.peek() or "").isdigit() else DEFAULT_DEPTH
                if not 1 <= explode <= MAX_DEPTH:
                    raise self.fail(_("explode 1 to {most} times", most=MAX_DEPTH))
                if len(set(faces)) < 2:
                    raise self.fail(_("a die with one face cannot explode"))
            elif reroll is None and word in ("r", "ro"):
                self.take()
                once = word == "ro"
                op = self.take().replace("==", "=") if self.peek() in COMPARISON_TOKENS else "="
                reroll = (op, self.signed(f"the face to reroll after {word!r} (3d6{word}1, 3d6{word}<3)"))
                matched = [f for f in faces if COMPARISONS[op](f, reroll[1])]
                written = f"{word}{'' if op == '=' else op}{reroll[1]}"
                if not matched:
                    raise self.fail(_("{written} rerolls no face of d{die}", written=written, die=die))
                if not once and len(matched) == len(faces):
                    raise self.fail(
                        _("{written} rerolls every face of d{die} forever (ro rerolls once)", written=written, die=die)
                    )
            else:
                break
        left = {f for f in faces if reroll is None or once or not COMPARISONS[reroll[0]](f, reroll[1])}
        if explode and len(left) < 2:
            raise self.fail(_("a die left with one face by its reroll cannot explode"))
        return Group(count, faces, die, keep, explode, reroll, once)

    def keep(self, word: str, count: int) -> tuple[str, int]:
        k = self.number("how many dice") if (self.peek() or "").isdigit() else 1
        if word.startswith("d"):
            if not 0 <= k < count:
                raise self.fail(_("cannot drop {k} of {count} dice", k=k, count=count))
            return ("l", count - k) if word == "dh" else ("h", count - k)
        if not 1 <= k <= count:
            raise self.fail(_("cannot keep {n} of {count} dice", n=k, count=count))
        return ("l" if word == "kl" else "h", k)


def parse_expression(text: str, rules: Mapping[str, OpposedRule] | None = None) -> DiceExpression | Opposed:
    """Read the dice language (module docstring); raise :class:`DiceError` with what is wrong.

    ``rules``: the opposed rules ``A vs B by NAME`` may name (name → rule); none without them."""
    return _Parser(text, rules).expression()
