"""Avstånd (distances) in the text's words, read from the table and stepped (found by `scripts/mutation.sh pwge`).

The text: "I närstrid finns avstånden Kropp, Dolk, Svärd, Stav och Spjut. Dessa ligger alla inom
avståndsstridsavståndet 0. … Därefter finns avstånd 1 och uppåt."
"""

from __future__ import annotations

import pytest

from konflikt.rulesets.pwge.rules import (
    closer,
    code_of_ranged,
    distance_label,
    farther,
    parse_distance,
    ranged_of,
    relation_step,
)

KROPP, DOLK, SVARD, STAV, SPJUT = range(5)


def test_every_melee_distance_is_named_with_its_gloss() -> None:
    assert [distance_label(c) for c in range(5)] == [
        "Kropp (body)",
        "Dolk (dagger)",
        "Svärd (sword)",
        "Stav (staff)",
        "Spjut (spear)",
    ]


def test_ranged_distances_count_from_1_after_spjut() -> None:
    assert distance_label(5) == "avstånd 1 (range 1)"
    assert distance_label(7) == "avstånd 3 (range 3)"
    assert [ranged_of(c) for c in (KROPP, SPJUT, 5, 9)] == [0, 0, 1, 5]
    assert code_of_ranged(1) == 5


def test_a_ranged_distance_is_read_as_a_number_of_1_or_more() -> None:
    assert parse_distance("2") == 6
    assert parse_distance("kropp") == KROPP
    assert parse_distance("DOLK") == DOLK
    with pytest.raises(ValueError, match=r"^ranged distance 0 must be at least 1 \(0 is a melee distance: name it\)$"):
        parse_distance(0)
    with pytest.raises(ValueError, match=r"^unknown distance 'Yxa' \(melee: Kropp, Dolk, Svärd, Stav, Spjut; ranged"):
        parse_distance("Yxa")


def test_within_melee_one_step_farther_until_the_longest_weapon() -> None:
    """Inside the longest weapon's distance a step back is one melee step; from it, "hamnar man på avstånd 1"."""
    assert farther(KROPP, SVARD, 10) == DOLK
    assert farther(SVARD, SVARD, 10) == 5
    assert farther(STAV, SVARD, 10) == 5, "beyond the longest weapon (after a closer step) out to range 1"
    assert farther(5 + 8, SPJUT, 10) == 5 + 9
    assert farther(5 + 9, SPJUT, 10) is None


def test_from_range_1_closer_is_the_longest_weapons_distance_whichever_it_is() -> None:
    """ "Så fort man går från avstånd 1 till 0 … kommer då in på det längsta vapnets optimala avstånd"."""
    assert closer(5, SVARD) == SVARD
    assert closer(5, KROPP) == KROPP
    assert closer(6, SVARD) == 5


def test_relation_distance_steps_both_ways_on_0_to_10() -> None:
    assert relation_step(5, "farther") == 6
    assert relation_step(1, "closer") == 0
    assert relation_step(9, "farther") == 10
