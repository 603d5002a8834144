"""The error classes, re-exported from :mod:`konflikt.errors` (which sits below ``core`` and ``dice``)."""

from konflikt.errors import (
    DiceError,
    IllegalActionError,
    InvalidActionError,
    KonfliktError,
    OptionError,
    ReplayError,
    ScenarioError,
    StoreError,
)

__all__ = [
    "DiceError",
    "IllegalActionError",
    "InvalidActionError",
    "KonfliktError",
    "OptionError",
    "ReplayError",
    "ScenarioError",
    "StoreError",
]
