"""The pure rule functions, case by case, with the digest's test vectors."""

from __future__ import annotations

import pytest

from konflikt.dice import effect
from konflikt.rulesets.levald import rules as R

D = R.DISTANCES.index


def test_thresholds_from_kraft_and_sjal() -> None:
    assert R.thresholds(12, 16) == (6, 12, 28, 38)
    assert R.thresholds(13, 9) == (6, 13, 22, 32)
    assert R.thresholds(13, 9, round_up=True) == (7, 13, 22, 32)


@pytest.mark.parametrize(("daze", "penalty"), [(0, 0), (1, 0), (5, 0), (6, -10), (10, -10), (11, -20), (34, -60)])
def test_daze_penalty_minus_ten_per_started_five_beyond_the_first(daze: int, penalty: int) -> None:
    assert R.daze_penalty(daze) == penalty


def test_quality_equal_level_and_effect_the_defence_holds() -> None:
    attack, defence = R.quality(47, 60), R.quality(38, 50)
    assert attack == (R.SUCCESS, 11) == defence
    assert not R.attack_wins(attack, (defence,))


def test_quality_higher_level_wins() -> None:
    attack, defence = R.quality(12, 60), R.quality(23, 50)
    assert attack[0] == R.EXCEPTIONAL and defence[0] == R.SUCCESS
    assert R.attack_wins(attack, (defence,))


def test_quality_a_failed_defence_loses_to_a_success() -> None:
    attack, defence = R.quality(31, 40), R.quality(55, 30)
    assert attack == (R.SUCCESS, 4) and defence == (0, 0)
    assert R.attack_wins(attack, (defence,))


def test_higher_effect_breaks_a_tie_of_level_unless_switched_off() -> None:
    assert R.attack_wins(R.quality(29, 60), (R.quality(44, 60),))
    assert not R.attack_wins(R.quality(29, 60, by_effect=False), (R.quality(44, 60, by_effect=False),))


def test_two_defence_rolls_must_both_be_beaten() -> None:
    attack = R.quality(29, 60)
    assert R.attack_wins(attack, (R.quality(90, 60), R.quality(41, 60)))
    assert not R.attack_wins(attack, (R.quality(90, 60), R.quality(39, 60)))


def test_a_failed_attack_never_wins() -> None:
    assert not R.attack_wins(R.quality(70, 60), (R.quality(95, 60),))


def test_double_zero_is_a_hundred_with_effect_zero() -> None:
    assert R.level(100, 95) == R.FAILURE
    assert effect(100) == 0
    assert R.level(100, 100) == R.SUCCESS


def test_exceptional_rules() -> None:
    assert R.level(12, 60) == R.EXCEPTIONAL and R.level(13, 60) == R.SUCCESS
    assert R.level(33, 60, "doubles") == R.EXCEPTIONAL and R.level(12, 60, "doubles") == R.SUCCESS
    assert R.level(77, 60, "doubles") == R.FAILURE
    assert R.level(1, 60, "off") == R.SUCCESS
    assert R.level(1, 4) == R.SUCCESS  # 4 // 5 = 0: no exceptional success below a target of 5


def test_targets_of_zero_or_less_always_fail_and_above_a_hundred_always_succeed() -> None:
    assert all(R.level(r, 0) == R.FAILURE for r in range(1, 101))
    assert all(R.level(r, 140) >= R.SUCCESS for r in range(1, 101))


def test_contest_winner() -> None:
    assert R.contest_winner(R.quality(20, 50), R.quality(70, 50)) == 0
    assert R.contest_winner(R.quality(70, 50), R.quality(20, 50)) == 1
    assert R.contest_winner(R.quality(70, 50), R.quality(80, 50)) is None  # both fail
    assert R.contest_winner(R.quality(47, 50), R.quality(38, 50)) is None  # equal level and effect


# ---- movement: every pair of wishes, with and without a winner ---------------------------------------------------
ADV, HOLD, RET = -1, 0, 1


@pytest.mark.parametrize(
    ("a", "b", "winner", "change"),
    [
        (ADV, ADV, None, -1),
        (HOLD, HOLD, None, 0),
        (RET, RET, None, 1),
        (ADV, HOLD, 0, -1),
        (ADV, HOLD, 1, 0),
        (ADV, HOLD, None, 1),  # nobody wins: retreat, the option nobody chose
        (HOLD, ADV, None, 1),
        (ADV, RET, 0, -1),
        (ADV, RET, 1, 1),
        (ADV, RET, None, 0),  # nobody wins: hold
        (RET, ADV, None, 0),
        (HOLD, RET, 0, 0),
        (HOLD, RET, 1, 1),
        (HOLD, RET, None, -1),  # nobody wins: advance
        (RET, HOLD, None, -1),
        (RET, HOLD, 0, 1),
        (HOLD, ADV, 1, -1),
        (RET, ADV, 1, -1),
    ],
)
def test_movement_table(a: int, b: int, winner: int | None, change: int) -> None:
    assert R.movement_change(a, b, winner) == change


def test_same_wish_moves_by_the_step_size() -> None:
    assert R.movement_change(ADV, ADV, None, step=2) == -2


def test_moving_beyond_kropp_or_fri_keeps_the_distance() -> None:
    scale = R.distance_scale(False)
    assert scale == ("Kropp", "Sköld", "Dolk", "Svärd", "Stång", "Spjut", "Fri")
    assert R.move(0, -1, len(scale) - 1) == 0
    assert R.move(6, 1, len(scale) - 1) == 6
    assert R.distance_scale(True).index("Klo") == R.distance_scale(True).index("Spjut") + 1


def test_leaving_is_free_only_beyond_the_enemys_weapon() -> None:
    assert R.leave_is_free(D("Spjut"), D("Svärd"))
    assert not R.leave_is_free(D("Svärd"), D("Svärd"))
    assert not R.leave_is_free(D("Dolk"), D("Svärd"))


# ---- initiative ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b", "result"),
    [
        ("too_far", "too_far", "none"),
        ("too_far", "optimal", "b"),
        ("too_far", "too_close", "b"),
        ("optimal", "too_far", "a"),
        ("too_close", "too_far", "a"),
        ("optimal", "too_close", "a"),
        ("too_close", "optimal", "b"),
        ("optimal", "optimal", "roll"),
        ("too_close", "too_close", "roll"),
    ],
)
def test_initiative_table(a: R.Reach, b: R.Reach, result: str) -> None:
    assert R.initiative(a, b) == result


@pytest.mark.parametrize(
    ("a", "b", "result"),
    [
        ("optimal", "too_close", "roll"),
        ("too_close", "optimal", "roll"),
        ("optimal", "optimal", "roll"),
        ("too_close", "too_close", "roll"),
        ("optimal", "too_far", "a"),
        ("too_close", "too_far", "a"),
        ("too_far", "optimal", "b"),
        ("too_far", "too_far", "none"),
    ],
)
def test_a_damaged_holder_rolls_anew_unless_one_is_too_far(a: R.Reach, b: R.Reach, result: str) -> None:
    assert R.initiative_afresh(a, b, damaged_holder_rolls=True) == result
    assert R.initiative_afresh(a, b, damaged_holder_rolls=False) == R.initiative(a, b)


def test_initiative_vectors_of_the_digest() -> None:
    sword, spear = D("Svärd"), D("Spjut")
    at = D("Svärd")
    assert R.initiative(R.reach(at, sword), R.reach(at, spear)) == "a"
    at = D("Dolk")
    assert R.initiative(R.reach(at, sword), R.reach(at, spear)) == "roll"
    at = D("Spjut")
    assert (R.reach(at, sword), R.reach(at, spear)) == ("too_far", "optimal")
    assert R.initiative(R.reach(at, sword), R.reach(at, spear)) == "b"


def test_counter_only_within_ones_own_reach() -> None:
    assert R.may_counter(D("Svärd"), D("Svärd"))
    assert R.may_counter(D("Dolk"), D("Svärd"))
    assert not R.may_counter(D("Stång"), D("Svärd"))


# ---- damage paths -------------------------------------------------------------------------------------------------
SNURRE = R.thresholds(12, 16)


def test_damage_path_gard_runs_out_and_the_rest_is_compared() -> None:
    assert R.apply_hit(10, 8, 10, True, SNURRE, False) == (0, R.LATT, 8)


def test_damage_path_gard_holds() -> None:
    assert R.apply_hit(20, 8, 10, True, SNURRE, False) == (2, R.NO_WOUND, 0)


def test_damage_path_gard_exactly_emptied_a_skrama_unless_empty_gard_scratch_is_off() -> None:
    assert R.apply_hit(18, 8, 10, True, SNURRE, False) == (0, R.NO_WOUND, 0)
    assert R.apply_hit(18, 8, 10, True, SNURRE, True) == (0, R.SKRAMA, 0)


def test_far_man_14_poang_i_skada_sa_flyttar_man_ner_gemet_14_steg() -> None:
    """The text's paper-clip example: 14 points of damage on Gard move the clip down 14 steps, and no wound."""
    assert R.apply_hit(20, 4, 10, True, SNURRE, True) == (20 - 14, R.NO_WOUND, 0)


def test_damage_path_open_compares_everything() -> None:
    assert R.apply_hit(0, 9, 15, False, SNURRE, False) == (0, R.ALLVARLIG, 24)
    assert R.apply_hit(0, 2, 3, False, SNURRE, False) == (0, R.SKRAMA, 5)
    assert R.apply_hit(0, 10, 18, False, SNURRE, False) == (0, R.KRITISK, 28)
    assert R.apply_hit(0, 18, 20, False, SNURRE, False) == (0, R.DODLIG, 38)


def test_bypassed_gard_is_left_untouched() -> None:
    assert R.apply_hit(10, 8, 10, False, SNURRE, False) == (10, R.ALLVARLIG, 18)


def test_which_dice_and_whether_gard_counts() -> None:
    assert R.uses_guarded_dice(5, True, False)
    assert not R.uses_guarded_dice(0, True, False)
    assert not R.uses_guarded_dice(5, True, True)  # exceptional success ignores Gard
    assert not R.uses_guarded_dice(5, False, False)
    assert R.gard_counts(prepared=True, ranged=False, shield=False)
    assert not R.gard_counts(prepared=False, ranged=False, shield=True)
    assert not R.gard_counts(prepared=True, ranged=True, shield=False)
    assert R.gard_counts(prepared=True, ranged=True, shield=True)


def test_wound_levels_at_each_threshold() -> None:
    assert [R.wound_level(d, SNURRE) for d in (5, 6, 11, 12, 27, 28, 37, 38)] == [
        R.SKRAMA,
        R.LATT,
        R.LATT,
        R.ALLVARLIG,
        R.ALLVARLIG,
        R.KRITISK,
        R.KRITISK,
        R.DODLIG,
    ]


def test_daze_gained_by_level() -> None:
    assert R.daze_gained(R.NO_WOUND, 8, 10) == 0
    assert R.daze_gained(R.SKRAMA, 8, 10) == 1
    assert R.daze_gained(R.LATT, 8, 10) == 10
    assert R.daze_gained(R.ALLVARLIG, 9, 15) == 24


def test_rest_recovers_one_a_round_down_to_one_per_wound() -> None:
    assert R.rest(34, 2, 10) == 24
    assert R.rest(34, 2, 100) == 2
    assert R.rest(34, 2, 100, floor_per_wound=False) == 0
    assert R.rest(0, 0, 5) == 0
