"""Exact distributions as Fractions, and the small helpers that build them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping
from contextlib import suppress
from fractions import Fraction
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
L = TypeVar("L", bound=Hashable)

Distribution = dict[K, Fraction]
"""Outcome → probability, summing to 1."""


def normalise(weights: Mapping[K, int | Fraction]) -> dict[K, Fraction]:
    """Turn counts or weights into probabilities, dropping zeros, sorted by outcome where possible."""
    total = sum(weights.values())
    items = [(k, Fraction(w) / total) for k, w in weights.items() if w]
    with suppress(TypeError):  # outcomes that do not order keep their insertion order
        items.sort(key=lambda kv: kv[0])  # type: ignore[arg-type,return-value]
    return dict(items)


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """The distribution of the sum of two independent integer variables."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] += p * q
    return dict(sorted(out.items()))


def power(die: Mapping[int, Fraction], n: int) -> dict[int, Fraction]:
    """The distribution of the sum of ``n`` independent copies of ``die`` (by repeated squaring)."""
    result: dict[int, Fraction] = {0: Fraction(1)}
    base = dict(die)
    while n:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((Fraction(x) * p for x, p in dist.items()), Fraction(0))


def fraction_text(p: Fraction) -> str:
    """``"p/q"`` in lowest terms (``"1"`` and ``"0"`` for the certain and the impossible)."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def decimal_text(p: Fraction, digits: int = 6) -> str:
    """``p`` as a decimal with ``digits`` significant digits (exact when it terminates sooner): ``0.858947``."""
    if p.denominator == 1:
        return str(p.numerator)
    from decimal import Context, Decimal

    value = Context(prec=digits).divide(Decimal(p.numerator), Decimal(p.denominator))
    text = f"{value:f}" if abs(value) >= Decimal("1e-6") else f"{value:e}"
    return text.rstrip("0").rstrip(".") if "." in text and "e" not in text else text


def value_text(p: Fraction, longest: int = 24) -> str:
    """A number for a reader: ``9``; ``7/2 = 3.5``; ``14/3 ≈ 4.66667``; a long fraction only as ``≈ 0.858947``."""
    if p.denominator == 1:
        return str(p.numerator)
    decimal = decimal_text(p)
    exact = Fraction(decimal) == p
    fraction = fraction_text(p)
    if len(fraction) > longest:
        return decimal if exact else f"≈ {decimal}"
    return f"{fraction} {'=' if exact else '≈'} {decimal}"
