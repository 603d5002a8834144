"""Gard: the guarded dice while any Gard is left, and the point regained (found by `scripts/mutation.sh levald`).

The text: "Om anfallsslaget lyckades och det finns Gard kvar, slå skyddad skadepotential" and "Båda återfår ett
poäng Gard".
"""

from __future__ import annotations

import numpy as np

from konflikt.rulesets.levald import rules as R


def test_one_point_of_gard_left_is_gard_kvar() -> None:
    assert R.uses_guarded_dice(1, counts=True, exceptional=False)
    assert not R.uses_guarded_dice(0, counts=True, exceptional=False)


def test_a_point_of_gard_is_regained_up_to_the_maximum() -> None:
    assert R.regain_gard(3, 10) == 4
    assert R.regain_gard(9, 10) == 10
    assert R.regain_gard(10, 10) == 10
    assert R.regain_gard(4, 10, points=0) == 4


def test_the_kernel_regains_gard_for_a_whole_batch_with_the_same_rule() -> None:
    gard = np.array([3, 9, 10, 10])
    assert R.regain_gard(gard, 10, np.array([1, 1, 1, 0])).tolist() == [4, 10, 10, 10]
