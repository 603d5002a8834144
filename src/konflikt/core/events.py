"""Events: what happened at each step, with the numbers and the words that explain it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

GM_SEAT = "@gm"
"""``konflikt.core.state.GM``, here as a constant: ``visible`` runs for every event of every view (a function-local
import of it cost more than the rest of ``view`` on a long log)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One explained happening.

    Attributes:
        kind: a short machine word (``roll``, ``pressure``, ``taken_out``...).
        text: the explanation in words, in the system's own terms with English beside them.
        step: index of the step that produced it (``-1`` for set-up).
        data: the numbers behind the text, JSON-friendly.
        visible_to: seats that may see it; ``None`` means everyone (secret choices name only their owner).
    """

    kind: str
    text: str
    step: int
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: frozenset[str] | None = None

    def visible(self, seat: str) -> bool:
        return self.visible_to is None or seat == GM_SEAT or seat in self.visible_to

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "step": self.step,
            "text": self.text,
            "data": dict(self.data),
        }
        if self.visible_to is not None:
            data["visible_to"] = sorted(self.visible_to)
        return data
