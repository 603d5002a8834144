"""Rolls narrated with the dice as they fell (``4d6: 6 3 1 5 → 2 succes(er)``), not by class (issue 14).

The faces live in the step beside the outcome, for the narration only: the chance outcome stays (successes, 1s), so
exact analysis branches as before and its odds are the pinned ones; a roll known only by its outcome (exact
analysis, an older record) is narrated by class, as before.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from konflikt.core.actions import Step
from konflikt.core.conflict import Conflict, new_state
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE
from konflikt.dice import PoolRoll
from konflikt.errors import DiceError
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.rulesets.fimbulfrost.helpers import ALL, act, faces, present_each_other, roll, start, to_round2
from tests.rulesets.fimbulfrost.test_exact import PINNED


@pytest.mark.through_cli
def test_a_hero_roll_typed_die_by_die_shows_each_die() -> None:
    """Fails on the narration by class: ``4d6: [4–6] [4–6] [1] [2–3]``."""
    state = start()
    present_each_other(state)
    faces(state, "6 3 1 5")
    faces(state, "4 2 2")
    budolf, rudolf = (e.text for e in state.history() if e.kind == "roll")
    assert "Budolf rolls Omdømme, 4d6: 6 3 1 5 → 2 succes(er) (4–6, successes)" in budolf
    assert "Rudolf rolls Omdømme, 3d6: 4 2 2 → 1 succes(er)" in rudolf
    assert [s.faces for s in state.steps() if s.node == CHANCE] == [(6, 3, 1, 5), (4, 2, 2)]


@pytest.mark.through_cli
def test_the_opponents_roll_and_a_round_2_roll_show_their_dice_and_their_1s() -> None:
    state = start()
    to_round2(state, b=0, r=0, robbers=0)
    act(state, "describe", **ALL)
    act(state, "describe", **ALL)
    faces(state, "1 6 2")
    text = state.history()[-1].text
    assert "Budolf rolls Stil, Stunt og Snak, 3d6: 1 6 2 → 1 succes(er) (4–6, successes), 1×1" in text


def test_an_outcome_without_faces_is_shown_by_class() -> None:
    state = start()
    present_each_other(state)
    roll(state, 2, 1)
    assert "4d6: [4–6] [4–6] [1] [2–3] → 2 succes(er)" in state.history()[-1].text


def test_faces_that_make_another_outcome_are_refused() -> None:
    state = start()
    present_each_other(state)
    with pytest.raises(DiceError, match="make 2 successes, 1×1, not 3 successes"):
        state.apply_action(PoolRoll(3, 1), faces=(6, 3, 1, 5))
    with pytest.raises(DiceError, match="not the 4 dice of 4d6 pool"):
        state.apply_action(PoolRoll(2, 1), faces=(6, 1, 5))
    assert state.steps()[-1].node != CHANCE


def test_a_seeded_conflict_draws_dice_that_make_each_outcome_and_replays_from_its_record() -> None:
    """Sampled rolls draw the dice and count the outcome from them; the record replays to the same words; without
    its faces (an older record) it replays to the same conflict, narrated by class."""
    sc = load_scenario("fimbulfrost/robbers")
    state = new_state(sc)
    Runner(seat_policies(sc), Generators.from_seed(3)).play(state)
    chance = [s for s in state.steps() if s.node == CHANCE]
    assert chance and all(s.faces is not None for s in chance)
    for step in chance:
        assert step.faces is not None
        assert step.outcome == (sum(f >= 4 for f in step.faces), sum(f == 1 for f in step.faces))
    again = Conflict.from_json(Conflict(sc, {}, 3, state.steps()).to_json()).replay()
    assert [e.text for e in again.history()] == [e.text for e in state.history()]
    bare = Conflict(sc, {}, 3, [Step(s.node, s.action, s.outcome, s.joint) for s in state.steps()]).replay()
    assert bare.outcome() == state.outcome()
    assert any("[4–6]" in e.text or "[2–3]" in e.text for e in bare.history() if e.kind == "roll")


@pytest.mark.through_cli
def test_exact_analysis_still_branches_on_successes_and_1s_without_faces() -> None:
    """The odds themselves are unchanged: ``test_exact.py`` pins the robbers' 1058293171/1073741824 for the heroes
    (and the dragon's) against the solver in the normal suite. Here: the branches are the (successes, 1s) outcomes,
    15 for 4 dice, not the 1,296 faces, and a roll applied as the solver applies it (no faces) keys as a typed one."""
    state = start()
    present_each_other(state)
    outcomes = dict(state.chance_outcomes())
    assert set(outcomes) == {(s, o) for s in range(5) for o in range(5 - s)}
    assert sum(outcomes.values()) == 1 and outcomes[(0, 0)] == Fraction(2**4, 6**4)
    solver, typed = state.fork(), state.fork()
    solver.apply_action((2, 1), checked=False)
    typed.apply_action(PoolRoll(2, 1), faces=(6, 3, 1, 5))
    assert solver.key() == typed.key()
    assert PINNED["robbers"][("helte",)] == Fraction(1058293171, 1073741824)
