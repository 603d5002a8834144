"""Dice that do not show their faces (survivors of `scripts/mutation.sh dice:dice`): the d100 is rolled as one
number and never read die by die."""

from __future__ import annotations

import numpy as np
import pytest

from konflikt.dice import Percentile
from konflikt.errors import DiceError


def test_a_die_without_faces_rolls_what_it_samples() -> None:
    """The d100 rolls with the generator it is given: the outcome its sample draws from the same seed, no faces.

    Kills ``Dice.roll``: ``self.sample(None)`` (a generator lost: an error, or numbers from no seed).
    """
    for seed in range(20):
        outcome, faces = Percentile().roll(np.random.default_rng(seed))
        assert faces is None
        assert outcome == Percentile().sample(np.random.default_rng(seed))


def test_a_die_without_faces_says_it_is_not_read_die_by_die() -> None:
    """Kills ``Dice.outcome_of``: the refusal without its words."""
    with pytest.raises(DiceError, match="d100 is not read die by die"):
        Percentile().outcome_of((4, 7))
