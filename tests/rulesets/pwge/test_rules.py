"""The pure rules against the text and the digest's test vectors."""

from __future__ import annotations

import itertools

import pytest

from konflikt.rulesets.pwge.rules import (
    LAST_MELEE,
    closer,
    damage_points,
    diplomatic_penalty,
    farther,
    lose_tokens,
    melee_reach,
    parse_distance,
    pool_size,
    ranged_band,
    relation_step,
    token_loss,
    wound_level,
)

KROPP, DOLK, SVARD, STAV, SPJUT = range(5)
R1 = 5  # ranged distance 1


def test_pool_vector_direct_identity_two_skills_one_other() -> None:
    assert pool_size(4, "direct", 2, 1) == 8 + 4 + 4 - 1 == 15


def test_pool_vector_indirect_identity_alone() -> None:
    assert pool_size(3, "indirect", 0, 0) == 6 + 2 == 8


@pytest.mark.parametrize(
    ("attribute", "fit", "skills", "others"),
    list(itertools.product(range(1, 7), ("direct", "indirect", "none"), range(4), range(4))),
)
def test_pool_follows_the_formula(attribute: int, fit: str, skills: int, others: int) -> None:
    identity = {"direct": 4, "indirect": 2, "none": 0}[fit]
    assert pool_size(attribute, fit, skills, others) == max(0, 2 * attribute + identity + 2 * skills - others)


def test_a_really_good_character_has_about_twenty() -> None:
    assert pool_size(6, "direct", 2, 0) == 20


@pytest.mark.parametrize(("level", "lost"), [(1, 1), (2, 2), (3, 3), (4, 5)])
def test_token_loss_by_wound_level(level: int, lost: int) -> None:
    assert token_loss(level) == lost
    assert lose_tokens(10, level) == 10 - lost


def test_token_loss_floor_two_tokens_allvarligt_skadad() -> None:
    assert lose_tokens(2, 4) == 0


@pytest.mark.parametrize(("damage", "level"), [(0, 0), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 4), (9, 4)])
def test_wound_level_thresholds(damage: int, level: int) -> None:
    assert wound_level(damage, 2, 4, 6) == level


def test_damage_never_below_zero() -> None:
    assert damage_points(3, 5) == 0
    assert damage_points(7, 2) == 5


def test_melee_at_svard_sword_spear_dagger() -> None:
    assert melee_reach(SVARD, SVARD) == "optimal"  # attack with bonus
    assert melee_reach(SVARD, SPJUT) == "short"  # attack without bonus
    assert melee_reach(SVARD, DOLK) == "none"  # no attack (may defend)


def test_no_melee_attack_at_range() -> None:
    assert melee_reach(R1, SPJUT) == "none"


@pytest.mark.parametrize(("ranged", "band"), [(0, 0), (2, 2), (3, 2), (5, 4), (6, 4), (7, None)])
def test_ranged_kort_3_max_6(ranged: int, band: int | None) -> None:
    code = SVARD if ranged == 0 else 4 + ranged
    assert ranged_band(code, 3, 6) == band


def test_exactly_max_is_out_of_range_when_read_literally() -> None:
    assert ranged_band(4 + 6, 3, 6, max_reachable=False) is None
    assert ranged_band(4 + 5, 3, 6, max_reachable=False) == 4


def test_closing_in_arrives_at_the_longest_weapons_distance() -> None:
    longest = max(SVARD, SPJUT)  # a sword against a spear
    assert closer(R1, longest) == SPJUT


def test_ranges_stop_at_max_range_konflikts_own_cap() -> None:
    """The text's ranges go "1 och uppåt"; konflikt tracks them up to [setup] max_range and no farther."""
    assert farther(LAST_MELEE + 11, 2, 12) == LAST_MELEE + 12
    assert farther(LAST_MELEE + 12, 2, 12) is None


def test_leaving_melee_from_the_longest_weapons_distance_is_range_1() -> None:
    assert farther(SPJUT, SPJUT, 10) == R1
    assert farther(DOLK, SPJUT, 10) == SVARD
    assert farther(R1, SPJUT, 10) == R1 + 1
    assert farther(4 + 10, SPJUT, 10) is None
    assert closer(KROPP, SPJUT) is None
    assert closer(STAV, SPJUT) == SVARD


def test_parse_distance() -> None:
    assert parse_distance("Svärd") == SVARD
    assert parse_distance("spear") == SPJUT
    assert parse_distance(3) == 4 + 3
    with pytest.raises(ValueError, match="unknown distance"):
        parse_distance("Yxa")


def test_relation_distance_stays_on_0_to_10() -> None:
    assert relation_step(0, "closer") is None
    assert relation_step(10, "farther") is None
    assert relation_step(5, "closer") == 4
    assert diplomatic_penalty(7) == 3


def test_every_weapon_the_text_names_has_its_length_in_the_armoury() -> None:
    """ "För obeväpnad är vapenlängden Kropp, för dolkar och sköldar är vapenlängden Dolk, för svärd och enhandsyxor
    är vapenlängden Svärd, tvåhandssvärd, tvåhandsyxor och stavar har vapenlängden Stav, och spjut och pålvapen har
    vapenlängden Spjut" — the two-handed axe was missing (issue 43)."""
    from konflikt.rulesets.pwge.models import armoury

    melee = armoury().melee
    named = {
        "obevapnad": "Kropp", "dolk": "Dolk", "skold": "Dolk", "svard": "Svärd", "yxa": "Svärd",
        "tvahandssvard": "Stav", "tvahandsyxa": "Stav", "stav": "Stav", "spjut": "Spjut", "elektrospjut": "Spjut",
    }  # fmt: skip
    assert {key: melee[key].length for key in named} == named
    assert melee["tvahandsyxa"].name == "Tvåhandsyxa" and melee["tvahandsyxa"].gloss == "two-handed axe"


def test_a_two_handed_axe_reaches_stav_and_shorter_not_spjut() -> None:
    from tests.rulesets.pwge.helpers import make, person

    state = make(person("ann", melee_weapon="tvahandsyxa"), setup={"start_distance": "Stav"})
    assert state.attack_mods(0, 1, "melee", 3) == (3, 0, 4)  # Stav: usable, damage 4 (the axe's stand-in)
    assert state.attack_mods(0, 1, "melee", 2) == (3, 0, 4)  # Svärd: shorter, usable
    assert state.attack_mods(0, 1, "melee", 4) is None  # Spjut: longer than the axe
