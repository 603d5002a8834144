"""Every test vector of the digest's table (shared/rules/fimbulfrost.md), played through the state machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from konflikt.core.actions import Action
from konflikt.dice import SuccessPool
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.rules import loss_shares, presentation_dice
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from tests.rulesets.fimbulfrost.helpers import act, faces, hero, roll, start, to_round2

DESCRIBE_ALL = {"stil": True, "stunt": True, "snak": True}


@pytest.mark.through_cli
def test_vector_presenting_omdomme_4_self_3_dice_friend_4_dice() -> None:
    assert presentation_dice(4, by_self=True) == 3
    assert presentation_dice(4, by_self=False) == 4
    alone = start(heroes=[hero("budolf", character="builtin:budolf")])
    assert alone.legal_actions() == [Action.of("present", by="budolf")]
    act(alone, "present", by="budolf")
    assert alone.pending_roll() == SuccessPool(3)


@pytest.mark.through_cli
def test_vector_robbers_round1_2d6_at_most_2_successes() -> None:
    state = start()
    act(state, "present", by="rudolf")
    act(state, "present", by="budolf")
    roll(state, 0)
    roll(state, 0)
    assert state.pending_roll() == SuccessPool(2)
    assert {r.successes for r, _ in state.chance_outcomes()} == {0, 1, 2}


def _round2_at_status_1() -> FimbulfrostState:
    state = start()
    to_round2(state, 3, 2)  # robbers 6 - 5 = 1
    assert state.opp_status == 1
    act(state, "describe", **DESCRIBE_ALL)
    act(state, "describe", **DESCRIBE_ALL)
    return state


@pytest.mark.through_cli
def test_vector_defeat_by_651_and_411_opponent_at_minus_2_heroes_buy_1_and_2() -> None:
    state = _round2_at_status_1()
    faces(state, "6 5 1")
    faces(state, "4 1 1")
    assert state.opp_status == -2
    assert state.asks == [("opp", 0, 2, 2), ("mishap", 0, 1, 2), ("mishap", 1, 2, 2)]


@pytest.mark.through_cli
def test_vector_opponent_consequences_are_optional() -> None:
    state = _round2_at_status_1()
    faces(state, "6 5 1")
    faces(state, "4 1 1")
    assert Action.of("spare") in state.legal_actions()
    act(state, "consequence", entry="modstander-flygter")
    assert state.current_player() == "rudolf"  # the heroes take turns buying
    act(state, "spare")
    assert state.opp_taken == ["modstander-flygter"]


@pytest.mark.through_cli
def test_vector_roll_112_against_status_5_no_self_consequences_opponent_rolls_kamp() -> None:
    state = start(heroes=[hero("budolf", character="builtin:budolf")])
    act(state, "present", by="budolf")
    roll(state, 1)
    roll(state, 0)  # robbers at 5, answer 0
    act(state, "describe", **DESCRIBE_ALL)
    faces(state, "1 1 2")
    assert state.opp_status == 5
    assert state.asks == []
    assert state.phase == P.R2_KAMP and state.pending_roll() == SuccessPool(3)


@pytest.mark.through_cli
def test_vector_hero_out_status_2_takes_4_minus_2_two_consequences() -> None:
    state = start(
        heroes=[hero("budolf", character="builtin:budolf", status=2), hero("rudolf", character="builtin:rudolf")],
        opponent=hero("ulv", character="builtin:ulveflok"),
    )
    act(state, "present", by="rudolf")
    act(state, "present", by="budolf")
    roll(state, 0)
    roll(state, 0)
    roll(state, 0)
    act(state, "describe", **DESCRIBE_ALL)
    act(state, "describe", **DESCRIBE_ALL)
    roll(state, 0)
    roll(state, 0)
    roll(state, 4)
    act(state, "hit", budolf=4)
    assert state.hstatus[0] == -2 and state.fate[0] == 1
    assert state.asks == [("cons", 0, 2, 2)]


def test_vector_buy_back_at_minus_2_costs_3_and_returns_at_status_1() -> None:
    state = start(
        heroes=[hero("budolf", character="builtin:budolf", status=2), hero("rudolf", character="builtin:rudolf")],
        opponent=hero("ulv", character="builtin:ulveflok"),
        options={"buy_back": True},
    )
    act(state, "present", by="rudolf")
    act(state, "present", by="budolf")
    roll(state, 0)
    roll(state, 0)
    roll(state, 0)
    act(state, "describe", **DESCRIBE_ALL)
    act(state, "describe", **DESCRIBE_ALL)
    roll(state, 0)
    roll(state, 0)
    roll(state, 4)
    act(state, "hit", budolf=4)
    assert state.legal_actions() == [Action.of("buy_back"), Action.of("stay_out")]
    act(state, "buy_back")
    assert state.hstatus[0] == 1 and state.fate[0] == 0
    assert state.asks == [("cons", 0, 3, 2)]
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert len(state.taken[0]) == 3
    assert state.phase == P.R3_TURN  # Budolf is back in the fight for round 3


@pytest.mark.through_cli
def test_vector_lost_round3_status_3_left_two_heroes_each_buy_3() -> None:
    assert loss_shares(3, 2, "each") == [3, 3]
    state = start(opponent=hero("ulv", character="builtin:ulveflok"))
    act(state, "present", by="rudolf")
    act(state, "present", by="budolf")
    roll(state, 2)
    roll(state, 0)
    act(state, "split", opponent=2)
    roll(state, 0)
    act(state, "describe", **DESCRIBE_ALL)
    act(state, "describe", **DESCRIBE_ALL)
    roll(state, 1)
    roll(state, 1)  # wolves 7 - 4 = 3
    roll(state, 0)
    act(state, "done")
    act(state, "done")
    assert state.opp_status == 3 and state.result == 2
    assert state.asks == [("cons", 0, 3, 3), ("cons", 1, 3, 3)]


@pytest.mark.through_cli
def test_vector_death_is_the_fifth_of_five_forced_then_and_offered_before(tmp_path: Path) -> None:
    lists = tmp_path / "lister.toml"
    entries = "".join(
        f'[[lists.runde3.entries]]\nid = "e{k}"\nda = "e{k}"\nen = "e{k}"\nseverity = {k}\n' for k in range(1, 5)
    )
    lists.write_text(
        '[lists.runde3]\nda = "fem"\nen = "five"\n'
        + '[[lists.runde3.entries]]\nid = "doed"\nda = "Død"\nen = "death"\nseverity = 10\ndeath = true\n'
        + entries,
        encoding="utf-8",
    )
    state = start(
        heroes=[hero("budolf", character="builtin:budolf")],
        opponent=hero("ulv", character="builtin:ulveflok", status=9),
        setup={"konsekvenslister": str(lists)},
    )
    act(state, "present", by="budolf")
    roll(state, 0)
    roll(state, 0)
    act(state, "describe", stil=False, stunt=False, snak=False)
    roll(state, 0)
    act(state, "done")
    assert state.asks == [("cons", 0, 9, 3)]
    for k in range(4):
        legal = state.legal_actions()
        assert legal[-1] == Action.of("consequence", entry="doed")  # offered, never forbidden
        assert len(legal) == 5 - k
        state.apply_action(legal[0])
    assert state.legal_actions() == [Action.of("consequence", entry="doed")]
    act(state, "consequence", entry="doed")
    assert state.fate[0] == 2 and state.is_terminal()
    assert state.outcome().data["dead"] == 1
