"""The rules between conflicts, as a ruleset supplies them to a campaign (``Ruleset.campaign``).

A campaign keeps each character's document (the scenario files' character format) and, beside it, the delayed
effects the rules have set in motion and that the document alone cannot say: an Omdømme lowered for the next fight
only, a death mark that kills a week later. Each ruleset answers three questions about its own characters, in its
own words: what a finished conflict leaves on the sheet (``settle``, after the ``aftermath``), what time does
(``rest``), and how the sheet reads (``sheet``). Nothing here knows any ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Unit = Literal["rounds", "minutes", "hours", "days"]
UNITS: tuple[Unit, ...] = ("rounds", "minutes", "hours", "days")
MINUTES: Mapping[str, int] = {"minutes": 1, "hours": 60, "days": 24 * 60}

Document = Mapping[str, Any]
Pending = Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class Rest:
    """Time passing between conflicts: ``amount`` of one ``unit`` (the texts count rounds, minutes or days)."""

    amount: int
    unit: Unit

    def minutes(self) -> int | None:
        """The rest in minutes; ``None`` for rounds, which only a fight's own clock counts."""
        return self.amount * MINUTES[self.unit] if self.unit in MINUTES else None

    def __str__(self) -> str:
        word = self.unit if self.amount != 1 else self.unit.removesuffix("s")
        return f"{self.amount} {word}"


@dataclass(frozen=True)
class Carried:
    """A character after a between-conflict rule: its document, its delayed effects, and what changed in words."""

    document: dict[str, Any]
    pending: tuple[dict[str, Any], ...] = ()
    lines: tuple[str, ...] = ()


def keep_settled(before: Document, pending: Pending, after: Document) -> Carried:
    """The default ``settle``: the aftermath's document as it is, the delayed effects untouched."""
    return Carried(dict(after), tuple(dict(p) for p in pending))


def nothing_happens(document: Document, pending: Pending, rest: Rest, options: Mapping[str, Any]) -> Carried:
    """The default ``rest``: the text gives time no effect."""
    return Carried(dict(document), tuple(dict(p) for p in pending))


@dataclass(frozen=True)
class CampaignRules:
    """What one ruleset does between conflicts.

    Attributes:
        rest_unit: the unit the text counts rest in (``rounds`` for Le våld's Omtöckning, ``days`` for a death
            mark); ``konflikt campaign rest`` names it.
        settle: ``(document before the conflict, its delayed effects, the aftermath's document)`` → the character
            as the campaign keeps it (a −1 for the next fight only is given back; new delayed effects are set).
        rest: ``(document, delayed effects, rest, rule options)`` → the character after that much time; the
            options are the ruleset's resolved ones (defaults, then ``campaign rest --option``).
        sheet: ``(document, delayed effects)`` → the sheet's lines in the system's words, for ``chars show``.
        fallen: ``document`` → why the character can fight no more (dead), or ``None``.
    """

    rest_unit: Unit
    sheet: Callable[[Document, Pending], list[str]]
    settle: Callable[[Document, Pending, Document], Carried] = keep_settled
    rest: Callable[[Document, Pending, Rest, Mapping[str, Any]], Carried] = nothing_happens
    fallen: Callable[[Document], str | None] = field(default=lambda document: None)
