"""Server-rolled dice with their faces: the one dice path of ``konflikt play`` and ``sim`` (:meth:`Dice.roll`).

A chance outcome is a sufficient statistic (a 4dF total, a pool's successes and 1s), so the engine's sampler never
produces faces; :meth:`Dice.roll` draws them with exactly the numbers :meth:`Dice.sample` draws and derives the
outcome from them. The web table rolls through it too, so a seed gives the same dice in the browser, at the
terminal and in a simulation (it once drew Fudge dice one by one, and its rolls differed from ``play``'s).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from konflikt.core.actions import ChanceOutcome
from konflikt.core.odds import percent_text
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
    meaning: tuple[str, ...] = ()
    """What the roll did, as the log says it to everyone (the events of its step that every seat sees): against
    what target, success or not, the effect."""

    def to_json(self) -> dict[str, object]:
        return {
            "step": self.step,
            "purpose": self.purpose,
            "notation": self.notation,
            "faces": list(self.faces) if self.faces is not None else None,
            "result": self.result,
            "source": self.source,
            "meaning": list(self.meaning),
        }


def shown_faces(dice: Dice, outcome: ChanceOutcome, faces: Faces | None) -> tuple[str, ...] | None:
    """The faces a page shows for a roll, however it was made: rolled by konflikt, by a player's Roll button, or
    typed from physical dice die by die (the step keeps them); a d100 typed as one number as its two d10 (47 → 4 7,
    100 → 0 0); ``None`` for a total typed without its dice."""
    if faces is not None:
        return tuple(dice.faces_text(faces).split())
    if isinstance(dice, Percentile):
        value = int(cast(int, outcome))
        return tuple("00" if value == 100 else f"{value:02d}")
    return None


percent = percent_text
"""The chance as the odds tables write it (:func:`konflikt.core.odds.percent_text`)."""


def roll_faces(dice: Dice, rng: np.random.Generator) -> tuple[ChanceOutcome, Faces | None, tuple[str, ...] | None]:
    """Roll ``dice`` as ``play`` does: the outcome, the faces for the step record, and the faces as shown.

    A d100 has no faces in the record (it is read as one number); the page shows its two d10 as read from the
    outcome (47 → 4 7, 100 → 0 0). Dice that show no faces at all are shown as ``None``.
    """
    outcome, faces = dice.roll(rng)
    return outcome, faces, shown_faces(dice, outcome, faces)
