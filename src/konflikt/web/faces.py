"""Server-rolled dice with their faces: the one dice path of ``konflikt play`` and ``sim`` (:meth:`Dice.roll`).

A chance outcome is a sufficient statistic (a 4dF total, a pool's successes and 1s), so the engine's sampler never
produces faces; :meth:`Dice.roll` draws them with exactly the numbers :meth:`Dice.sample` draws and derives the
outcome from them. The web table rolls through it too, so a seed gives the same dice in the browser, at the
terminal and in a simulation (it once drew Fudge dice one by one, and its rolls differed from ``play``'s).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from konflikt.core.actions import ChanceOutcome
from konflikt.dice import Dice
from konflikt.dice.dice import Faces, Percentile


@dataclass(frozen=True)
class Roll:
    """One roll as the table saw it: what for, which dice, the faces when konflikt rolled them, and the result."""

    step: int
    purpose: str
    notation: str
    faces: tuple[str, ...] | None
    result: str
    source: str

    def to_json(self) -> dict[str, object]:
        return {
            "step": self.step,
            "purpose": self.purpose,
            "notation": self.notation,
            "faces": list(self.faces) if self.faces is not None else None,
            "result": self.result,
            "source": self.source,
        }


def roll_faces(dice: Dice, rng: np.random.Generator) -> tuple[ChanceOutcome, Faces | None, tuple[str, ...] | None]:
    """Roll ``dice`` as ``play`` does: the outcome, the faces for the step record, and the faces as shown.

    A d100 has no faces in the record (it is read as one number); the page shows its two d10 as read from the
    outcome (47 → 4 7, 100 → 0 0). Dice that show no faces at all are shown as ``None``.
    """
    outcome, faces = dice.roll(rng)
    if faces is not None:
        return outcome, faces, tuple(dice.faces_text(faces).split())
    if isinstance(dice, Percentile):
        value = int(outcome)
        return outcome, None, tuple("00" if value == 100 else f"{value:02d}")
    return outcome, None, None
