"""Dice that do not show their faces (survivors of `scripts/mutation.sh dice:dice`): the d100 is rolled as one
number and never read die by die."""

from __future__ import annotations

import numpy as np
import pytest

from konflikt.dice import Fudge, Percentile
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


@pytest.mark.parametrize("count", [8, 9])
def test_fudge_dice_roll_what_they_sample_at_the_switch_from_table_to_die_by_die(count: int) -> None:
    """Up to 8 Fudge dice are drawn from the table of their 3ⁿ faces, from 9 on die by die: a roll (with faces)
    and a sample (the total only) must switch at the same count, or one seed gives two outcomes.

    Kills ``Fudge.roll``: ``count >= 8`` and ``count > 9`` for ``count > 8``.
    """

    for seed in range(20):
        outcome, faces = Fudge(count).roll(np.random.default_rng(seed))
        assert outcome == Fudge(count).sample(np.random.default_rng(seed))
        assert faces is not None and len(faces) == count and sum(faces) == outcome
