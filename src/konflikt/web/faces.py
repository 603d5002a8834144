"""Server-rolled dice with their faces, read back through the dice's own table reader.

A chance outcome is a sufficient statistic (a 4dF total, a pool's successes and 1s), so the engine's sampler never
produces faces. To show the dice on the players' screens the web table draws the faces and reads them exactly as a
GM's typed dice are read (:meth:`Dice.parse`), so the outcome is one the rules accept by construction.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from konflikt.core.actions import ChanceOutcome
from konflikt.dice import Dice
from konflikt.dice.dice import Fudge, Percentile, SuccessPool, SumDice

FUDGE_SYMBOL = {-1: "-", 0: "0", 1: "+"}


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


def roll_faces(dice: Dice, rng: np.random.Generator) -> tuple[ChanceOutcome, tuple[str, ...] | None]:
    """Roll ``dice`` face by face; ``None`` faces for a kind of dice this module does not know (sampled instead)."""
    if isinstance(dice, Fudge):
        faces = tuple(FUDGE_SYMBOL[int(f)] for f in rng.integers(-1, 2, size=dice.count))
    elif isinstance(dice, SumDice):
        faces = tuple(str(int(f)) for f in rng.integers(1, dice.sides + 1, size=dice.count))
    elif isinstance(dice, SuccessPool):
        faces = tuple(str(int(f)) for f in rng.integers(1, 7, size=dice.count))
    elif isinstance(dice, Percentile):
        faces = tuple(str(int(f)) for f in rng.integers(0, 10, size=2))
    else:
        outcome: ChanceOutcome = dice.sample(rng)
        return outcome, None
    read: ChanceOutcome = dice.parse(" ".join(faces))
    return read, faces
