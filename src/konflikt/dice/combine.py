"""Dice combined beyond sums: products (``2d6*3``, ``d6*d6``) and the highest or lowest of several independent
expressions (``max(2d6, 1d12)``, ``highest 2 of (1d6, 1d8, 1d10)``).

Each node works on integer ways (:class:`~konflikt.dice.counts.Counts`) like the rest of the language, estimates
its own cost before it is computed, and samples a total from an injected generator. An *operand* is anything with
``counts()``, ``seconds()``, ``size()`` and ``sample_total(rng)``: a group of dice, a bracketed sum, or another node.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

import numpy as np

from konflikt.dice.counts import Counts

PAIR_SECONDS = 1e-6
"""Measured: one pair of outcomes multiplied and added to a dict, in Python, about a microsecond."""
KEEP_SECONDS_PER_UNIT = 2e-6
"""icepool's keep over a pool of mixed dice: about ``outcomes² × dice × kept × 2e-6`` s (as for one kind of die)."""


class Operand(Protocol):
    """An integer-valued roll that can be combined: a group of dice, a bracketed sum, a product, a keep."""

    def counts(self) -> Counts: ...

    def seconds(self) -> float: ...

    def size(self) -> tuple[int, int]:
        """(distinct values at most, bits of its number of equally likely cases): what a sum of it costs."""
        ...

    def sample_total(self, rng: np.random.Generator) -> int: ...


@dataclass(frozen=True)
class Product:
    """``scale × factor₁ × factor₂ × …`` of independent factors (a constant times dice, or dice times dice)."""

    scale: int
    factors: tuple[Operand, ...]

    @cached_property
    def _counts(self) -> Counts:
        weights: dict[int, int] = {self.scale: 1}
        total = 1
        for factor in self.factors:
            part = factor.counts()
            values = [(part.lo + i, w) for i, w in enumerate(part.ways) if w]
            grown: dict[int, int] = {}
            for x, wx in weights.items():
                for y, wy in values:
                    grown[x * y] = grown.get(x * y, 0) + wx * wy
            weights, total = grown, total * part.total
        ways = {v: w for v, w in weights.items() if w}
        counts = Counts.of_weights(ways)
        assert counts.total == total
        return counts

    def counts(self) -> Counts:
        return self._counts

    def seconds(self) -> float:
        pairs = 1
        for factor in self.factors:
            pairs *= factor.size()[0]
        return sum(f.seconds() for f in self.factors) + pairs * PAIR_SECONDS

    def size(self) -> tuple[int, int]:
        width, bits = 1, 0
        for factor in self.factors:
            w, b = factor.size()
            width, bits = width * w, bits + b
        # the products spread over at most the span between the extreme corners
        return width * max(abs(self.scale), 1), bits

    def sample_total(self, rng: np.random.Generator) -> int:
        value = self.scale
        for factor in self.factors:
            value *= factor.sample_total(rng)
        return value


@dataclass(frozen=True)
class KeepOf:
    """The ``count`` highest (``side`` ``h``) or lowest (``l``) of independent rolls, summed: ``max``/``min`` keep 1."""

    side: str
    count: int
    rolls: tuple[Operand, ...]

    @cached_property
    def _counts(self) -> Counts:
        parts = [r.counts() for r in self.rolls]
        if self.count == 1:
            return _extreme(parts, self.side)
        import icepool

        dice = [icepool.Die({c.lo + i: w for i, w in enumerate(c.ways) if w}) for c in parts]
        pool = icepool.Pool(dice)
        kept = (pool.highest(self.count) if self.side == "h" else pool.lowest(self.count)).sum()
        counts = Counts.of_weights({int(v): int(q) for v, q in kept.items() if q})
        total = 1
        for c in parts:
            total *= c.total
        return _rescale(counts, total)

    def counts(self) -> Counts:
        return self._counts

    def seconds(self) -> float:
        own = sum(r.seconds() for r in self.rolls)
        widths = [r.size()[0] for r in self.rolls]
        if self.count == 1:
            return own + sum(widths) * len(widths) * PAIR_SECONDS
        return own + max(widths) ** 2 * len(widths) * self.count * KEEP_SECONDS_PER_UNIT

    def size(self) -> tuple[int, int]:
        widths = sorted((r.size()[0] for r in self.rolls), reverse=True)
        return sum(widths[: self.count]), sum(r.size()[1] for r in self.rolls)

    def sample_total(self, rng: np.random.Generator) -> int:
        values = sorted((r.sample_total(rng) for r in self.rolls), reverse=self.side == "h")
        return sum(values[: self.count])


def _extreme(parts: list[Counts], side: str) -> Counts:
    """The highest (or lowest) of independent rolls: ways(max ≤ v) = ∏ ways(rollᵢ ≤ v), one pass over the values."""
    lo = max(c.lo for c in parts) if side == "h" else min(c.lo for c in parts)
    hi = max(c.hi for c in parts) if side == "h" else min(c.hi for c in parts)
    total = 1
    for c in parts:
        total *= c.total

    def prefix(c: Counts) -> list[int]:
        sums = [0]
        for w in c.ways if side == "h" else reversed(c.ways):
            sums.append(sums[-1] + w)
        return sums

    sums = [prefix(c) for c in parts]

    def beyond(c: Counts, running: list[int], v: int) -> int:
        """Ways of ``c`` at most ``v`` (keeping the highest) or at least ``v`` (keeping the lowest)."""
        seen = v - c.lo + 1 if side == "h" else c.hi - v + 1
        return running[min(max(seen, 0), len(c.ways))]

    previous = 0
    ways: dict[int, int] = {}
    values = range(lo, hi + 1) if side == "h" else range(hi, lo - 1, -1)
    for v in values:
        joint = 1
        for c, running in zip(parts, sums, strict=True):
            joint *= beyond(c, running, v)
        if joint - previous:
            ways[v] = joint - previous
        previous = joint
    counts = Counts.of_weights(ways)
    assert counts.total == total
    return counts


def _rescale(counts: Counts, total: int) -> Counts:
    """Ways out of ``total`` for a distribution icepool reduced to a smaller denominator."""
    factor, rest = divmod(total, counts.total)
    assert rest == 0
    return Counts(counts.lo, tuple(w * factor for w in counts.ways), total)
