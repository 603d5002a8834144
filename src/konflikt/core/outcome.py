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
