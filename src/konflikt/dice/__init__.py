"""Dice as first-class notation: exact distributions as Fractions, sampling from an injected Generator."""

from konflikt.dice.dice import (
    Dice,
    Fudge,
    Percentile,
    PoolRoll,
    SuccessPool,
    SumDice,
    brute_force,
    effect,
    parse_dice,
)
from konflikt.dice.distribution import Distribution, fraction_text, mean

__all__ = [
    "Dice",
    "Distribution",
    "Fudge",
    "Percentile",
    "PoolRoll",
    "SuccessPool",
    "SumDice",
    "brute_force",
    "effect",
    "fraction_text",
    "mean",
    "parse_dice",
]
