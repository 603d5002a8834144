"""Leaving the fight, sub-fights of one against several, deadlocks and the end of a fight."""

from __future__ import annotations

import pytest

from konflikt.core.state import CHANCE, TERMINAL
from tests.rulesets.levald.helpers import document, fighter, move, roll, state_of, texts


@pytest.mark.through_cli
def test_leaving_beyond_the_enemys_weapon_is_free() -> None:
    state = state_of(document(fighter("a", "Spjut"), fighter("b", "Svärd"), "Spjut"))
    move(state, a="leave", b="hold")
    roll(state, 20, 90)  # a wins: it retreats to Fri, beyond b's Svärd
    assert state.current_player() == TERMINAL
    assert state.fate == ["left", "fighting"]
    outcome = state.outcome()
    assert outcome.ending == "left" and outcome.winners == ("right",)
    assert "freely" in texts(state)


def test_leaving_within_the_enemys_reach_gives_a_free_undefendable_attack() -> None:
    state = state_of(document(fighter("a", "Svärd"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="leave", b="hold")
    roll(state, 90, 20)  # b wins: the distance holds at Svärd, within b's Spjut
    assert state.current_player() == CHANCE and "gratisanfall" in state.roll_purpose()
    roll(state, 30)  # b's free attack succeeds: no defence roll
    assert state.pending_roll() is not None and state.pending_roll().notation == "1T6"  # Spjut vs Gard
    roll(state, 4)  # 3 + 4 = 7 on a's Gard 12
    assert state.gard[0] == 5
    assert state.fate[0] == "left" and state.current_player() == TERMINAL


def test_a_missed_free_attack_still_lets_the_leaver_go() -> None:
    state = state_of(document(fighter("a", "Svärd"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="leave", b="retreat")  # both wish +1: Stång, still within b's Spjut
    roll(state, 95)
    assert state.fate[0] == "left" and state.gard[0] == 12


def test_the_free_attack_may_ignore_gard_by_option() -> None:
    doc = document(fighter("a", "Svärd"), fighter("b", "Spjut"), "Svärd", {"free_attack_ignores_gard": True})
    state = state_of(doc)
    move(state, a="leave", b="retreat")
    roll(state, 30)
    assert state.pending_roll().notation == "3T6"  # Spjut's open dice
    roll(state, 4)
    assert state.gard[0] == 12 and state.wounds[0] == [0, 1, 0, 0, 0] and state.daze[0] == 4  # 3 + 4 = 7: Lätt


def test_both_leaving_ends_the_fight_without_a_winner() -> None:
    state = state_of(document(fighter("a"), fighter("b"), "Svärd"))
    move(state, a="leave", b="leave")
    assert state.current_player() == TERMINAL
    assert state.outcome().winners == () and state.outcome().ending == "parted"


def test_leaving_can_be_switched_off() -> None:
    state = state_of(document(fighter("a"), fighter("b"), "Svärd", {"allow_leave": False}))
    assert [a.kind for a in state.legal_actions("a")] == ["advance", "hold", "retreat"]


def test_a_fight_without_progress_ends_as_a_deadlock() -> None:
    state = state_of(document(fighter("a"), fighter("b"), "Fri", {"max_rounds": 3}))
    for _ in range(3):
        move(state, a="hold", b="hold")
    assert state.current_player() == TERMINAL
    assert state.outcome().ending == "deadlock" and state.outcome().winners == ()
