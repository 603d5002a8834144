"""Rolls narrated as the text writes them ("Gracz wyrzucił + + 0 -"): the four faces and their total (issue 12).

The faces live in the step beside the outcome, for the narration only: exact analysis still branches on the nine
totals of 4dF, not on the 81 faces, and a roll known only by its total is narrated by the total, as before.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from konflikt.core.actions import Step
from konflikt.core.conflict import Conflict
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE
from konflikt.errors import DiceError
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.rulesets.presja.helpers import act, duel, knife_fight, roll, texts

A = {"skill": 2, "weapon": "noz", "fate_points": 2, "aspects": ["Zwinny (nimble)"]}
B = {"skill": 2, "weapon": "noz", "fate_points": 0}


def _the_texts_exchange():  # type: ignore[no-untyped-def]
    state = knife_fight()
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    roll(state, "+ + 0 -")  # Gracz wyrzucił + + 0 -
    roll(state, "0 0 + +")  # MG wyrzucił 0 0 + +
    return state


@pytest.mark.through_cli
def test_a_roll_typed_face_by_face_is_narrated_with_its_faces_and_total() -> None:
    """Fails on the narration that showed the total only (``rzuca 4dF (rolls): +1 →``)."""
    belzee, massimo = texts(_the_texts_exchange(), "roll")
    assert "Belzee rzuca 4dF (rolls): + + 0 - = +1 → Walka na noże (knife fighting) +2, 4dF +1 = bardzo dobry" in belzee
    assert "Massimo rzuca 4dF (rolls): 0 0 + + = +2 → Sztylety (daggers) +3, 4dF +2 = znakomity" in massimo


def test_the_faces_are_in_the_step_and_the_event_but_not_in_the_outcome() -> None:
    state = _the_texts_exchange()
    chance = [s for s in state.steps() if s.node == CHANCE]
    assert [(s.outcome, s.faces) for s in chance] == [(1, (1, 1, 0, -1)), (2, (0, 0, 1, 1))]
    rolls = [e for e in state.history() if e.kind == "roll"]
    assert [(e.data["dice"], e.data["faces"]) for e in rolls] == [(1, [1, 1, 0, -1]), (2, [0, 0, 1, 1])]


def test_a_typed_total_is_narrated_by_the_total_alone() -> None:
    state = knife_fight()
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    roll(state, "+1")
    belzee = texts(state, "roll")[0]
    assert "Belzee rzuca 4dF (rolls): +1 → Walka na noże (knife fighting) +2, 4dF +1 = bardzo dobry" in belzee
    assert state.steps()[-1].faces is None


def test_a_reroll_shows_the_new_faces() -> None:
    state = duel(A, B)
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "- 0 0 0")
    act(state, "invoke", aspect="own:1", effect="reroll")
    roll(state, "+ + 0 +")
    assert "przerzuca (rerolls) 4dF: +0 → + + 0 + = +3; Atak i Obrona now 5" in texts(state, "reroll")[0]


def test_faces_that_make_another_total_are_refused() -> None:
    state = knife_fight()
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    with pytest.raises(DiceError, match=r"the faces \+ \+ 0 - make \+1, not \+2"):
        state.apply_action(2, faces=(1, 1, 0, -1))
    with pytest.raises(DiceError, match="not the 4 faces of 4dF"):
        state.apply_action(1, faces=(1, 0))
    assert state.current_player() == CHANCE and not [s for s in state.steps() if s.node == CHANCE]


def test_a_seeded_conflict_draws_faces_that_make_each_total_and_replays_from_its_record() -> None:
    """Sampled rolls draw the faces and read the total from them; the saved steps replay to the same words, and the
    same steps without their faces (an older record) replay to the same conflict, narrated by totals."""
    sc = load_scenario("presja/knife_fight")
    state = knife_fight()
    Runner(seat_policies(sc), Generators.from_seed(5)).play(state)
    chance = [s for s in state.steps() if s.node == CHANCE]
    assert chance and all(s.faces is not None and sum(s.faces) == s.outcome for s in chance)
    record = Conflict(sc, {}, 5, state.steps())
    again = Conflict.from_json(record.to_json()).replay()
    assert [e.text for e in again.history()] == [e.text for e in state.history()]
    bare = [Step(s.node, s.action, s.outcome, s.joint) for s in state.steps()]
    old = Conflict(sc, {}, 5, bare).replay()
    assert old.outcome() == state.outcome()
    old_rolls = [e.text for e in old.history() if e.kind == "roll"]
    assert old_rolls and all(" = " not in t.split("→")[0] for t in old_rolls)


@pytest.mark.through_cli
def test_exact_analysis_still_branches_on_the_nine_totals() -> None:
    state = knife_fight()
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    outcomes = dict(state.chance_outcomes())
    assert sorted(outcomes) == list(range(-4, 5))
    assert outcomes[0] == Fraction(19, 81) and sum(outcomes.values()) == 1
    fork = state.fork()
    fork.apply_action(0, checked=False)  # what the exact solver does: no faces, the same key as a typed roll
    typed = state.fork()
    typed.apply_action(0, faces=(1, -1, 0, 0))
    assert fork.key() == typed.key()
