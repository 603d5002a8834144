"""Dice as first-class notation: exact distributions as Fractions, sampling from an injected Generator."""

from konflikt.dice.dice import (
    Dice,
    Faces,
    Fudge,
    Percentile,
    PoolRoll,
    SuccessPool,
    SumDice,
    brute_force,
    effect,
    exact_seconds,
    parse_dice,
)
from konflikt.dice.distribution import Distribution, fraction_text, mean
from konflikt.dice.expression import DiceExpression, parse_expression

__all__ = [
    "Dice",
    "DiceExpression",
    "Distribution",
    "Faces",
    "Fudge",
    "Percentile",
    "PoolRoll",
    "SuccessPool",
    "SumDice",
    "brute_force",
    "effect",
    "exact_seconds",
    "fraction_text",
    "mean",
    "parse_dice",
    "parse_expression",
]
