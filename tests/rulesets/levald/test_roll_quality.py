"""Roll quality and who wins an attack, rule by rule (found missing by `scripts/mutation.sh levald`).

The text: "Om anfallsslaget vinns (anfallsslaget lyckas och kvaliteten är högre än försvarsslaget) så gör den som
slog anfallsslaget skada på den andre."
"""

from __future__ import annotations

from konflikt.rulesets.levald import rules as R


def test_the_quality_of_a_roll_follows_the_chosen_exceptional_rule() -> None:
    """The level inside a quality is read with the option for exceptional successes, not always a fifth."""
    assert R.quality(33, 60, "doubles") == (R.EXCEPTIONAL, 6)
    assert R.quality(12, 60, "doubles") == (R.SUCCESS, 3)
    assert R.quality(5, 60, "off") == (R.SUCCESS, 5)
    assert R.quality(12, 60) == (R.EXCEPTIONAL, 3)


def test_without_effect_breaking_ties_every_success_has_effect_0() -> None:
    """Equal levels are equal quality: the effect is left out (0) of every success."""
    assert R.quality(29, 60, by_effect=False) == (R.SUCCESS, 0)
    assert R.quality(11, 60, by_effect=False) == (R.EXCEPTIONAL, 0)
    assert R.quality(70, 60, by_effect=False) == (R.FAILURE, 0)


def test_an_attack_that_succeeds_beats_a_failed_defence_whatever_its_effect() -> None:
    """ "anfallsslaget lyckas": the level decides that the attack succeeded, not the dice's sum."""
    assert R.attack_wins(R.quality(29, 60, by_effect=False), (R.quality(90, 60, by_effect=False),))
    assert R.attack_wins(R.quality(100, 100), (R.quality(95, 50),)), "00 read as 100 succeeds at 100, effect 0"


def test_with_doubles_00_is_a_double_too_when_it_succeeds() -> None:
    """The ``doubles`` option: 11, 22, … 99 and 00 (read as 100) that succeed are exceptional."""
    assert R.level(100, 100, "doubles") == R.EXCEPTIONAL
    assert R.level(100, 99, "doubles") == R.FAILURE
    assert R.level(99, 99, "doubles") == R.EXCEPTIONAL
    assert R.level(98, 99, "doubles") == R.SUCCESS
