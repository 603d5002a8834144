"""The text's worked example, Snurre (Kraft 12, Själ 16), played through the state machine."""

from __future__ import annotations

import pytest

from konflikt.rulesets.levald import rules as R
from tests.rulesets.levald.helpers import act, document, fighter, move, roll, state_of


def snurre_state():  # type: ignore[no-untyped-def]
    snurre = {"id": "snurre", "character": "builtin:snurre", "policy": "heuristic", "gard_now": 10}
    doc = document(fighter("gorm", "Svärd"), snurre, distance="Svärd", wield={"snurre": "Spjut"})
    return state_of(doc)


def test_snurre_thresholds_are_6_12_28_38() -> None:
    state = snurre_state()
    assert state.fighters[state.index["snurre"]].limits == (6, 12, 28, 38)


@pytest.mark.through_cli
def test_snurre_worked_example_two_hits() -> None:
    state = snurre_state()
    s = state.index["snurre"]
    assert state.gard[s] == 10
    # Round 1: both hold at Svärd; Gorm (sword) is optimal, Snurre (spear) too close: Gorm attacks, no roll.
    move(state, gorm="hold", snurre="hold")
    assert state.current_player() == "gorm" and state.phase == "attacker"
    act(state, "attack")
    act(state, "defend")
    roll(state, 35, 99)  # attack 35 vs 60: success, effect 3 + 5 = 8; defence 99 fails
    assert state.pending_roll() is not None and state.pending_roll().notation == "3T6"  # Svärd: Skada skyddad 3T6
    roll(state, 10)  # 8 + 10 = 18 damage on 10 Gard: 8 falls through
    assert state.gard[s] == 0
    assert state.wounds[s] == [0, 1, 0, 0, 0]  # a Lätt wound
    assert state.daze[s] == 10  # a Lätt wound gives the weapon's damage (10) as Omtöckning
    assert R.daze_penalty(state.daze[s]) == -10
    act(state, "ground", step=0)
    # Round 2: the initiative stays with Gorm (not damaged, distance unchanged); Snurre's Gard is gone: open dice.
    move(state, gorm="hold", snurre="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 45, 99)  # effect 4 + 5 = 9
    assert state.pending_roll().notation == "3T6"  # Svärd: Skada öppen 3T6
    roll(state, 15)  # 9 + 15 = 24: 12 ≤ 24 < 28 → Allvarlig, and not another Lätt
    assert state.wounds[s] == [0, 1, 1, 0, 0]
    assert state.daze[s] == 34  # an Allvarlig wound gives the whole 24 as Omtöckning
    assert R.daze_penalty(state.daze[s]) == -60
    assert state._defence_target(s) == 40 + 10 - 60  # Stångvapen 40 + Försvarsmod 10, −60%
