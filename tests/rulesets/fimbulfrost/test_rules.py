"""Each rule of the text and each option, as small pure functions and through the state machine."""

from __future__ import annotations

from fractions import Fraction

import pytest

from konflikt.core.actions import Action
from konflikt.core.state import CHANCE
from konflikt.dice import SuccessPool
from konflikt.errors import IllegalActionError
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.rules import (
    absorb,
    buy_back_count,
    compositions,
    consequence_count,
    loss_shares,
    points_below_zero,
)
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from tests.rulesets.fimbulfrost.helpers import (
    ALL,
    NONE,
    act,
    budolf_below_0_in_round1,
    hero,
    present_each_other,
    roll,
    sigrun_and_rudolf_in_round2,
    start,
    to_round2,
)


# ---- pure rules --------------------------------------------------------------------------------------------------
def test_compositions_are_every_split_once() -> None:
    splits = list(compositions(4, 3))
    assert len(splits) == 15  # C(6, 2)
    assert len(set(splits)) == 15
    assert all(sum(s) == 4 and len(s) == 3 for s in splits)


def test_morale_absorbs_damage_first() -> None:
    assert absorb(4, 2, 3) == (3, 0)
    assert absorb(4, 5, 3) == (4, 2)
    assert absorb(2, 0, 4) == (-2, 0)


def test_points_and_consequence_counts() -> None:
    assert points_below_zero(0) == 0 and points_below_zero(-3) == 3 and points_below_zero(2) == 0
    assert consequence_count(3) == 3 and consequence_count(0) == 0
    assert consequence_count(3, per=2) == 2
    assert buy_back_count(2) == 3 and buy_back_count(0) == 1


def test_round3_loss_shared_splits_the_total() -> None:
    assert loss_shares(5, 2, "shared") == [3, 2]
    assert loss_shares(5, 2, "each") == [5, 5]


# ---- round 1 ------------------------------------------------------------------------------------------------------
def test_each_hero_presents_one_hero_by_default() -> None:
    state = start()
    act(state, "present", by="rudolf")  # Rudolf presents Budolf
    assert state.legal_actions() == [Action.of("present", by="budolf")]
    with pytest.raises(IllegalActionError, match="already presented"):
        act(state, "present", by="rudolf")


def test_presenters_any_lets_one_friend_present_everyone() -> None:
    state = start(options={"presenters": "any"})
    act(state, "present", by="rudolf")
    act(state, "present", by="rudolf")
    assert state.presenter == [1, 1]


@pytest.mark.through_cli
def test_split_offers_every_division_between_opponent_and_friend() -> None:
    state = start()
    present_each_other(state)
    roll(state, 2)
    roll(state, 0)
    assert set(state.legal_actions()) == {
        Action.of("split", opponent=2),
        Action.of("split", opponent=1, morale_rudolf=1),
        Action.of("split", opponent=0, morale_rudolf=2),
    }


def test_a_lone_hero_splits_nothing_all_successes_hit_the_opponent() -> None:
    state = start(heroes=[hero("budolf", character="builtin:budolf")])
    act(state, "present", by="budolf")
    roll(state, 2)
    assert state.opp_status == 4 and state.phase == P.R1_ANSWER


def test_morale_bonus_is_added_to_a_friends_status_pool_and_the_rest_stays() -> None:
    """ "man føjer dem som morale-bonus til en vens Status-pulje": the bonus is part of the pool, so what the
    opponent's answer leaves of it still stands against the Kamp roll (the old default threw the rest away)."""
    state = start()
    present_each_other(state)
    roll(state, 0)
    roll(state, 2)
    act(state, "split", opponent=0, morale_budolf=2)
    roll(state, 1)
    act(state, "hit", budolf=1)
    assert state.hstatus == [6, 4] and state.morale == [1, 0]
    act(state, "describe", **ALL)
    act(state, "describe", **ALL)
    roll(state, 0)
    roll(state, 0)
    roll(state, 2)  # the robbers' Kamp: 2 hits on Budolf, the bonus's last point takes one
    act(state, "hit", budolf=2)
    assert state.hstatus[0] == 5 and state.morale[0] == 0


@pytest.mark.parametrize(("option", "in_round2"), [("status_pool", 1), ("next_hit", 0), ("round1", 0)])
def test_morale_option_lasts(option: str, in_round2: int) -> None:
    state = start(options={"morale": option})
    present_each_other(state)
    roll(state, 0)
    roll(state, 2)
    act(state, "split", opponent=0, morale_budolf=2)
    roll(state, 1)
    act(state, "hit", budolf=1)
    assert state.hstatus[0] == 6
    assert state.morale[0] == in_round2


@pytest.mark.through_cli
def test_all_heroes_out_in_round1_the_opponent_wins() -> None:
    state = start(
        heroes=[
            hero("budolf", character="builtin:budolf", status=1),
            hero("rudolf", character="builtin:rudolf", status=1),
        ],
        opponent=hero("dragen", character="builtin:drage"),
    )
    present_each_other(state)
    roll(state, 0)
    roll(state, 0)
    roll(state, 5)
    act(state, "hit", budolf=2, rudolf=3)
    assert state.asks == [("cons", 0, 1, 1), ("cons", 1, 2, 1)]
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    outcome = state.outcome()
    assert outcome.ending == "heroes_out" and outcome.winners == ("fjende",)


@pytest.mark.through_cli
def test_out_at_exactly_zero_costs_nothing() -> None:
    state2 = start(
        heroes=[hero("budolf", character="builtin:budolf"), hero("rudolf", character="builtin:rudolf", status=2)]
    )
    present_each_other(state2)
    roll(state2, 0)
    roll(state2, 0)
    roll(state2, 2)
    act(state2, "hit", rudolf=2)
    assert state2.fate == [0, 1] and state2.asks == []
    assert state2.phase == P.R2_DESCRIBE


@pytest.mark.through_cli
def test_every_point_below_0_is_paid_in_round1_death_forced_when_the_list_runs_out() -> None:
    """ "For hvert point under 0, erhverver de konsekvenser" with death forced last (the old default dropped the
    points the list could not cover); round1_death = false keeps the old reading as an option."""
    for allow in (False, True):
        state = budolf_below_0_in_round1({"round1_death": allow})
        taken = 0
        while state.asks and state.asks[0][1] == 0:
            legal = state.legal_actions()
            assert all(a.kind == "consequence" for a in legal)
            state.apply_action(legal[0])
            taken += 1
        # the dragon's round-1 list: shaken, fled, ran in terror losing all gear (still on the list, though Budolf has
        # no gear: an entry stays choosable until chosen), then death
        assert taken == (4 if allow else 3)
        assert state.fate[0] == (2 if allow else 1)
        assert any(e.kind == "exhausted" for e in state.history()) is not allow


# ---- round 2 ------------------------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_round2_dice_one_per_area_described() -> None:
    state = start()
    to_round2(state)
    assert len(state.legal_actions()) == 8
    act(state, "describe", stil=True, stunt=False, snak=True)
    act(state, "describe", **NONE)
    assert state.dice == [2, 0]
    roll(state, 0)
    assert state.phase == P.R2_KAMP  # Rudolf has no dice: nothing to roll


def test_mishaps_always_option_charges_1s_without_victory() -> None:
    for option, expected in (("defeating_roll", []), ("always", [("mishap", 0, 2, 2)])):
        state = start(options={"mishaps": option})
        to_round2(state)
        act(state, "describe", **ALL)
        act(state, "describe", **ALL)
        roll(state, 0, 2)
        roll(state, 0, 0)
        assert state.asks == expected


def test_weapon_pool_is_off_by_default_and_on_gives_round2_and_round3_dice() -> None:
    state = sigrun_and_rudolf_in_round2()
    act(state, "describe", **ALL)
    assert state.phase == P.R2_DESCRIBE and state.current_player() == "rudolf"
    state = sigrun_and_rudolf_in_round2({"weapon_pool": True})
    act(state, "describe", **ALL)
    assert state.phase == P.R2_WEAPON
    assert state.legal_actions() == [Action.of("weapon", dice=k) for k in range(3)]
    act(state, "weapon", dice=1)
    assert state.dice[0] == 4 and state.pools[0][2] == 1
    act(state, "describe", **ALL)
    roll(state, 0)
    roll(state, 0)
    roll(state, 0)
    assert Action.of("weapon", dice=1) in state.legal_actions()


# ---- round 3 ------------------------------------------------------------------------------------------------------
def _round3(**kwargs: object) -> FimbulfrostState:
    state = start(**kwargs)  # type: ignore[arg-type]
    to_round2(state)
    act(state, "describe", **ALL)
    act(state, "describe", **NONE)
    roll(state, 0)
    roll(state, 0)
    assert state.phase == P.R3_TURN
    return state


@pytest.mark.through_cli
def test_round3_options_once_each_and_turns_alternate() -> None:
    state = _round3()
    assert state.current_player() == "budolf"
    act(state, "armour", dice=5)
    assert state.current_player() == "rudolf"
    # Rudolf described nothing in round 2: nothing to tell wilder
    assert all(a.kind != "wilder" for a in state.legal_actions())
    act(state, "armour", dice=1)
    assert state.current_player() == "budolf"
    assert all(a.kind != "armour" for a in state.legal_actions())
    act(state, "wilder", by="rudolf")
    # Budolf has used every option, and Rudolf has nothing left to take: on to the roll
    assert state.phase == P.R3_ROLL and state.dice == [6, 1]
    assert state.pools == [[0, 0, 0], [5, 0, 0]]


def test_wilder_without_round2_deeds_with_the_option_off() -> None:
    state = _round3(options={"wilder_needs_round2": False})
    act(state, "done")
    assert Action.of("wilder", by="budolf") in state.legal_actions()


def test_borrowed_time_and_questions_are_off_by_default() -> None:
    state = _round3()
    kinds = {a.kind for a in state.legal_actions()}
    assert "borrowed_time" not in kinds and "answer" not in kinds
    state = _round3(options={"borrowed_time": True, "questions": True, "question_dice": 3})
    act(state, "borrowed_time")
    act(state, "answer")
    act(state, "answer")
    assert state.dice == [5, 3] and state.borrowed == [1, 0]


@pytest.mark.through_cli
def test_maneuvers_give_their_dice_once() -> None:
    state = start(heroes=[hero("sigrun", character="builtin:sigrun"), hero("rudolf", character="builtin:rudolf")])
    act(state, "present", by="rudolf")
    act(state, "present", by="sigrun")
    roll(state, 0)
    roll(state, 0)
    roll(state, 0)
    act(state, "describe", **NONE)
    act(state, "describe", **NONE)
    roll(state, 0)  # the robbers' Kamp
    act(state, "maneuver", id="skjoldmur")
    act(state, "done")
    assert state.dice[0] == 2
    assert Action.of("maneuver", id="skjoldmur") not in state.legal_actions()


def test_round3_shared_loss_option() -> None:
    state = _round3(options={"round3_loss": "shared"})
    act(state, "done")
    act(state, "done")
    assert state.opp_status == 4 and state.asks == [("cons", 0, 2, 3), ("cons", 1, 2, 3)]


def test_points_per_consequence_option() -> None:
    state = _round3(options={"points_per_consequence": 3})
    act(state, "done")
    act(state, "done")
    assert state.asks == [("cons", 0, 2, 3), ("cons", 1, 2, 3)]


def test_key_ignores_round1_ones_and_clears_round_scratch() -> None:
    a, b = start(), start()
    for s, ones in ((a, 0), (b, 2)):
        present_each_other(s)
        roll(s, 1, ones)
    assert a.key() == b.key()
    c, d = start(), start()
    to_round2(c)
    assert c.rolls == [None, None] and c.presenter == [-1, -1]
    to_round2(d)
    assert c.key() == d.key()


def test_round3_loss_every_hero_option_includes_heroes_already_out() -> None:
    for mode, expected in (("each", [("cons", 0, 5, 3)]), ("every", [("cons", 0, 5, 3), ("cons", 1, 5, 3)])):
        rudolf = hero("rudolf", character="builtin:rudolf", status=2)
        state = start(heroes=[hero("budolf", character="builtin:budolf"), rudolf], options={"round3_loss": mode})
        present_each_other(state)
        roll(state, 1)
        roll(state, 0)
        act(state, "split", opponent=1)
        roll(state, 2)
        act(state, "hit", rudolf=2)  # Rudolf out at exactly 0
        act(state, "describe", **NONE)
        roll(state, 0)  # the robbers' Kamp
        act(state, "done")
        assert state.opp_status == 5
        assert state.asks == expected


# ---- one statement of each rule (engineering review) -------------------------------------------------------------
@pytest.mark.through_cli
def test_4_6_succeeds_is_one_rule_the_rolls_follow() -> None:
    """ "4-6 er succeser": every roll the state asks for reads successes from SUCCESS_FROM, and the exact success
    distribution is the binomial of P_SUCCESS."""
    from konflikt.rulesets.fimbulfrost.rules import P_SUCCESS, SUCCESS_FROM, success_distribution

    state = start()
    present_each_other(state)
    pool = state.pending_roll()
    assert isinstance(pool, SuccessPool) and pool.success_from == SUCCESS_FROM == 4
    assert Fraction(1, 2) == P_SUCCESS
    assert success_distribution(3) == (Fraction(1, 8), Fraction(3, 8), Fraction(3, 8), Fraction(1, 8))


@pytest.mark.through_cli
def test_the_engine_counts_points_below_zero_with_the_one_rule() -> None:
    """A hero knocked to Status −1 buys points_below_zero(−1) = 1 consequence.

    Deliberate mutation that fails it: ``points_below_zero`` returning ``max(0, -status - 1)``."""
    assert points_below_zero(-2) == 2
    state = start(
        heroes=[hero("budolf", character="builtin:budolf", status=1), hero("rudolf", character="builtin:rudolf")]
    )
    present_each_other(state)
    roll(state, 0)
    roll(state, 0)
    roll(state, 2)  # the robbers' answer
    act(state, "hit", budolf=2)  # Status 1 − 2 = −1
    assert state.asks == [("cons", 0, points_below_zero(state.hstatus[0]), 1)] and state.hstatus[0] == -1


@pytest.mark.through_cli
def test_round3_options_are_one_set_of_bits_for_state_policy_and_kernel() -> None:
    from konflikt.rulesets.fimbulfrost import kernel, policies
    from konflikt.rulesets.fimbulfrost.rules import Round3Option, maneuver_bit

    assert maneuver_bit(0) == Round3Option.MANEUVER and maneuver_bit(2) == 4 * Round3Option.MANEUVER
    state = _round3()
    act(state, "armour", dice=1)
    assert state.used[0] == Round3Option.ARMOUR and type(state.used[0]) is int
    assert "Round3Option" in vars(kernel) and "Round3Option" in vars(policies)


# ---- zero dice -----------------------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_a_hero_with_0_dice_in_round_1_rolls_nothing_and_splits_nothing() -> None:
    """Omdømme 1 presenting himself: 1 − 1 = 0 dice. No roll is asked of him, and the friend still rolls.

    Deliberate mutation that fails it: in ``FimbulfrostState._advance`` the round-1 skip of a hero with no dice
    (``self._dice_of(self.cursor) == 0`` → ``== -1``)."""
    state = start(
        heroes=[hero("budolf", character="builtin:budolf", omdomme=1), hero("rudolf", character="builtin:rudolf")]
    )
    act(state, "present", by="budolf")  # Budolf presents himself: 0 dice
    act(state, "present", by="rudolf")  # Rudolf presents himself: 2 dice
    assert state.pending_roll() == SuccessPool(2)
    assert "Rudolf" in state.roll_purpose()
    assert any("has no dice to roll (0d6)" in e.text for e in state.history())
    roll(state, 1)
    act(state, "split", opponent=1)
    assert state.opp_status == 5 and state.phase == P.R1_ANSWER


@pytest.mark.through_cli
@pytest.mark.parametrize(("field", "phase_after"), [("omdomme", P.R2_DESCRIBE), ("kamp", P.R3_TURN)])
def test_an_opponent_with_omdomme_or_kamp_0_does_not_answer(field: str, phase_after: int) -> None:
    """Deliberate mutation that fails it: in ``FimbulfrostState._advance``, ``self.opp.kamp == 0`` → ``== -1`` (the
    Kamp case; the Omdømme case likewise)."""
    opponent = hero("roeverne", character="builtin:roeverbanden", **{field: 0})
    state = start(opponent=opponent)
    present_each_other(state)
    roll(state, 0)
    roll(state, 0)
    if field == "kamp":
        roll(state, 0)  # the robbers' Omdømme answer: nothing
        act(state, "describe", **ALL)
        act(state, "describe", **ALL)
        roll(state, 0)
        roll(state, 0)
    assert state.phase == phase_after and state.current_player() != CHANCE
    assert any("has no dice for this (0d6): no answer" in e.text for e in state.history())
    assert state.hstatus == [6, 4]
