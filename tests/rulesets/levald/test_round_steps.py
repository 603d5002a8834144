"""A round's steps across a sub-fight of several pairs, and who strikes a fighter who leaves.

The text: "Rundorna delas in i följande moment: Deklarera rörelse … Bestäm initiativ … Slå anfalls- och
försvarsslag … Markera skada … Vinna terräng" — each step runs for every pair of the sub-fight before the next, so
damage marked in one pair never re-decides another pair's initiative in the same round, and gaining ground comes
last. "Man kan lämna en strid … men fienden får då ett gratisanfall": the enemies the leaver is engaged with.
"""

from __future__ import annotations

import pytest

from konflikt.core.state import CHANCE, SIMULTANEOUS, TERMINAL
from konflikt.rulesets.levald.state import LevaldState
from tests.rulesets.levald.helpers import act, document, fighter, move, roll, state_of, texts


def _solo_against_two_spears() -> LevaldState:
    """Solo (sword) against x and y (spears) at Svärd: solo optimal, both spears too close — solo attacks in both
    pairs. Round 1 solo lets both be, so both pairs keep solo's initiative into round 2."""
    state = state_of(document(fighter("solo"), [fighter("x", "Spjut"), fighter("y", "Spjut")], "Svärd"))
    move(state, solo="hold", x="hold", y="hold")
    act(state, "regain")  # solo–x
    act(state, "regain")  # solo–y
    assert state.rounds == 1 and state.current_player() == SIMULTANEOUS
    move(state, solo="hold", x="hold", y="hold")
    return state


@pytest.mark.through_cli
def test_every_pairs_choices_come_before_any_roll_of_the_round() -> None:
    state = _solo_against_two_spears()
    assert state.phase == "attacker" and (state.att, state.dfn) == (0, 1)
    act(state, "attack")
    act(state, "counter")  # x counters: within its spear's reach
    assert state.phase == "attacker" and (state.att, state.dfn) == (0, 2)  # solo–y chooses before x's rolls
    act(state, "attack")
    act(state, "defend")
    assert state.current_player() == CHANCE and state.roll_purpose().startswith("Solo's anfallsslag")


def test_damage_in_one_pair_does_not_re_decide_anothers_initiative_in_the_same_round() -> None:
    """x's counter-attack damages solo, the holder of solo–y too: solo–y keeps the initiative this round (it was
    settled before any roll) and rolls anew in the next, as "Om anfallaren blir skadad så slås ett nytt slag"."""
    state = _solo_against_two_spears()
    act(state, "attack")
    act(state, "counter")
    act(state, "attack")
    act(state, "defend")
    round_two = len(state.history())
    roll(state, 95)  # solo's attack on x fails
    roll(state, 20, 3)  # x's counter: success, effect 2 + 1T6 3 = 5 on solo's Gard 12
    assert state.gard[0] == 7
    assert state.phase == "attack_roll" and (state.att, state.dfn) == (0, 2)  # no initiative roll for solo–y
    roll(state, 50, 90, 10)  # solo hits y: effect 5 + 3T6 10 = 15 on y's Gard 12
    act(state, "ground", step=0)
    this_round = "\n".join(e.text for e in state.history()[round_two:])
    assert "a new roll" not in this_round and "Stridsvana" not in this_round
    move(state, solo="hold", x="hold", y="hold")
    assert state.phase == "init_roll"  # the next round: solo–x rolls anew, and so will solo–y
    roll(state, 20, 90)
    assert state.phase == "init_roll" and state.active == 1
    assert texts(state).count("anfallaren blev skadad (the attacker was damaged): a new roll") == 2


def test_gaining_ground_comes_last_in_the_round_after_every_pairs_rolls() -> None:
    state = _solo_against_two_spears()
    for _ in range(2):
        act(state, "attack")
        act(state, "defend")
    roll(state, 50, 90, 3)  # solo's attack on x succeeds and hits
    assert state.phase == "attack_roll" and state.dfn == 2  # not solo–x's gain ground yet
    roll(state, 50, 90, 3)
    assert state.phase == "ground" and state.active == 0
    act(state, "ground", step=1)
    assert state.phase == "ground" and state.active == 1
    act(state, "ground", step=0)
    assert state.rounds == 2 and [state.scale[d] for d in state.dist] == ["Stång", "Svärd"]


def test_a_leaver_takes_free_attacks_only_from_the_enemies_it_is_engaged_with() -> None:
    """Two against two: a1 fights b1 in the first sub-fight; b2, engaged with a2 and never moved from the start
    distance of its pair with a1, gets no free attack when a1 leaves."""
    doc = document([fighter("a1"), fighter("a2")], [fighter("b1"), fighter("b2")], "Svärd")
    state = state_of(doc)
    assert state.simultaneous_seats() == ("a1", "b1")
    move(state, a1="leave", b1="hold")
    roll(state, 90, 20)  # b1 wins the movement contest: the distance holds at Svärd
    assert "within reach of B1 (Svärd): each gets a gratisanfall" in texts(state)
    assert "B2 (Svärd)" not in texts(state)
    assert state.roll_purpose().startswith("B1's gratisanfall")
    roll(state, 95)  # b1's free attack misses
    assert state.fate[0] == "left" and state.current_player() != TERMINAL
    assert state.phase in ("attacker", "init_roll", "move")  # a2 fights on; nobody else struck at a1
    free_rolls = [e.text for e in state.history() if e.kind == "roll" and "gratisanfall" in e.text]
    assert free_rolls == ["B1: gratisanfall (free attack) 95 mot (vs) 60 → misslyckat (failure), effekt (effect) 14"]


def test_a_leaver_beyond_its_engaged_enemys_reach_goes_freely_whatever_other_pairs_say() -> None:
    doc = document([fighter("a1"), fighter("a2")], [fighter("b1", "Kortsvärd"), fighter("b2", "Spjut")], "Spjut")
    state = state_of(doc)
    move(state, a1="leave", b1="leave")  # both leave a1–b1; b2 (spear, in reach at Spjut) is a2's enemy
    assert state.fate[:3] == ["left", "fighting", "left"]
    assert not [e for e in state.history() if e.kind == "roll" and "gratisanfall" in e.text]
