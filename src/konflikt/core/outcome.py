"""The outcome of a finished conflict."""

from __future__ import annotations

import re
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


_SEPARATORS = (";", ",", ": ")
_COUNTED = re.compile(r"(\S+)×(\d+)")
_PARENTHESES = re.compile(r"\([^()]*(?:\([^()]*\)[^()]*)*\)")


def fate_parts(fate: str, name: str = "") -> list[tuple[str, int]]:
    """The consequences in a fate's words, each with how many times it was taken: the default reading of
    ``ConflictOutcome.participants`` for consequence marginals (``Ruleset.fate_parts`` may replace it).

    The fate is cut at ``;``, ``,`` and ``: `` outside parentheses and quotes; ``Skråma×2`` counts twice; a piece
    with a number outside parentheses (``Omtöckning 16``, ``0 tokens left``) is a resource, not a consequence, and
    is skipped, as is the participant's own ``name``.
    ``"conceded; konsekwencje (consequences): mild 'Zmęczony (tired)'"`` →
    ``[("conceded", 1), ("konsekwencje (consequences)", 1), ("mild 'Zmęczony (tired)'", 1)]``.
    """
    pieces: list[str] = []
    depth, quoted, start, i = 0, False, 0, 0
    while i < len(fate):
        c = fate[i]
        if c == "'" and (quoted or i == 0 or not fate[i - 1].isalnum()):
            quoted = not quoted
        elif not quoted and c == "(":
            depth += 1
        elif not quoted and c == ")":
            depth = max(0, depth - 1)
        elif not quoted and depth == 0:
            sep = next((s for s in _SEPARATORS if fate.startswith(s, i)), None)
            if sep is not None:
                pieces.append(fate[start:i])
                i += len(sep)
                start = i
                continue
        i += 1
    pieces.append(fate[start:])
    parts: list[tuple[str, int]] = []
    for piece in (p.strip() for p in pieces):
        if not piece or piece == name:
            continue
        counted = _COUNTED.findall(piece)
        if counted:
            parts.extend((word, int(k)) for word, k in counted)
        elif not any(ch.isdigit() for ch in _PARENTHESES.sub("", piece)):
            parts.append((piece, 1))
    return parts
