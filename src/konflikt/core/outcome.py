"""The outcome of a finished conflict."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ConflictOutcome:
    """How a conflict ended.

    Attributes:
        ending: the kind of ending in the ruleset's words (``taken_out``, ``conceded``, ``deadlock``...).
        winners: ids of the winning sides (empty for a deadlock or a draw).
        summary: one sentence for people.
        participants: participant id → its fate in words (``standing``, ``taken out``, ``Lätt wound``...).
        data: numbers for statistics (remaining tracks, tokens, consequences...), JSON-friendly.
    """

    ending: str
    winners: tuple[str, ...]
    summary: str
    participants: Mapping[str, str] = field(default_factory=dict)
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "ending": self.ending,
            "winners": list(self.winners),
            "summary": self.summary,
            "participants": dict(self.participants),
            "data": dict(self.data),
        }


@dataclass(frozen=True, slots=True)
class Aftermath:
    """What the rules say happens after a conflict, as it carries into the next one.

    Attributes:
        characters: participant id → its character document (the scenario files' character format), after the
            ruleset's between-conflict rules (recovery, rest, consequences bought, distances kept).
        lines: the same in words, in the system's terms, for the table (``Belzee: boxes cleared; mild gone``).
    """

    characters: Mapping[str, Mapping[str, Any]]
    lines: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"characters": {pid: dict(doc) for pid, doc in self.characters.items()}, "lines": list(self.lines)}
