"""The error classes: one base, a few precise kinds.

Messages are lowercase and quote the bad input with its context, so a front end can print one line and stop.
"""


class KonfliktError(ValueError):
    """Base of every error konflikt raises on purpose."""


class IllegalActionError(KonfliktError):
    """A well-formed action that the rules do not allow now (says why)."""


class InvalidActionError(KonfliktError):
    """Text or data that is not an action at all, or not one this ruleset knows."""


class ScenarioError(KonfliktError):
    """A scenario, character or content file that is wrong: names the file, the field path and the value."""


class OptionError(KonfliktError):
    """An unknown rule option, or a value of the wrong type for it."""


class DiceError(KonfliktError):
    """A dice expression or a table roll that cannot be read, or does not fit the roll asked for."""


class ReplayError(KonfliktError):
    """A saved conflict that does not replay (a step that is not legal where it stands)."""


class StoreError(KonfliktError):
    """A save database that is damaged, foreign, or lacks the conflict asked for."""


class ModelTooLarge(KonfliktError):
    """A ruleset's own solver (not the generic one) stopped at its size limit, saying how far it got, so that
    exact analysis can report it as every other state space too large: ``met`` states met, ``pending`` parts still
    waiting, ``per_round`` the starts alive after each round (where it counts rounds)."""

    met: int
    pending: int = 0
    per_round: tuple[int, ...] = ()


__all__ = [
    "DiceError",
    "IllegalActionError",
    "InvalidActionError",
    "KonfliktError",
    "ModelTooLarge",
    "OptionError",
    "ReplayError",
    "ScenarioError",
    "StoreError",
]
