"""The GM declares a side's goal reached (``State.declare_goal``): the conflict ends where it stands, that side wins."""

from __future__ import annotations

import json

import pytest

from konflikt.core.conflict import Conflict
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE, DECLARATION, GOAL_REACHED, TERMINAL
from konflikt.errors import IllegalActionError, InvalidActionError
from konflikt.rulesets.presja.aftermath import aftermath
from konflikt.rulesets.presja.state import PresjaState
from tests.rulesets.presja.helpers import act, duel, pass_edges, pass_invocations, roll

KNIFE = {"skill": 2, "weapon": "noz", "fate_points": 0}


def _knife_fight() -> tuple[PresjaState, Conflict]:
    scenario = load_scenario("presja/knife_fight")
    conflict = Conflict(scenario, {}, 1)
    state = conflict.start()
    assert isinstance(state, PresjaState)
    pass_edges(state)
    return state, conflict


def _to_belzees_hit(state: PresjaState) -> None:
    """The text's exchange: Massimo's presja 3 waits for Belzee's choice."""
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    roll(state, "+ + 0 -")
    roll(state, "0 0 + +")
    pass_invocations(state)
    assert state.phase == "absorb" and state.current_player() == "belzee"


def test_the_sides_and_their_stated_goals() -> None:
    state, _ = _knife_fight()
    assert state.goal_sides() == {
        "strona_belzee": ("Belzee", "repay Massimo for every insult"),
        "strona_massimo": ("Massimo", "put the upstart in his place"),
    }
    assert duel(KNIFE, KNIFE).goal_sides() == {"s0": ("s0", None), "s1": ("s1", None)}


def test_at_an_absorb_choice_the_hit_is_not_taken_and_everything_else_stands() -> None:
    state, _ = _knife_fight()
    _to_belzees_hit(state)
    b = state.index["belzee"]
    act(state, "absorb", boxes="1:1", cons="mild", name="Rozcięta_dłoń")  # the text's choice, exchange 1
    while state.phase == "compel":
        act(state, "pass")
    _to_belzees_hit(state)  # exchange 2: the same rolls, presja 3 again
    state.declare_goal("strona_belzee")  # Belzee gets away with his honour: the GM's word
    assert state.current_player() == TERMINAL and state.legal_actions("belzee") == ()
    out = state.outcome()
    assert out.ending == GOAL_REACHED and out.winners == ("strona_belzee",)
    assert out.summary == (
        "Belzee reaches its goal (repay Massimo for every insult) after 2 exchange(s): the MG's (GM's) word"
    )
    assert out.participants == {"belzee": "standing; konsekwencje (consequences): mild 'Rozcięta dłoń'",
                                "massimo": "standing"}  # fmt: skip
    assert state.marked[b] == 0b1 and state.cons[b] == [1, 0, 0], "the second hit is not taken"
    assert state.history()[-1].kind == GOAL_REACHED
    carried = aftermath(state).characters["belzee"]
    assert carried["consequences"] == {"mild": "Rozcięta dłoń"} and carried["marked_boxes"] == ["1"]
    assert carried.get("fate_points", 3) == state.fate_points[b]


def test_mid_exchange_and_at_a_chance_node_no_roll_is_made_and_no_hit_is_dealt() -> None:
    state, _ = _knife_fight()
    act(state, "attack", target="massimo", tactic=None)
    state.declare_goal("strona_massimo", "Massimo's friends carry Belzee out")
    assert state.is_terminal() and state.outcome().winners == ("strona_massimo",)
    assert not [e for e in state.history() if e.kind in ("roll", "attack")]
    state, _ = _knife_fight()
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    roll(state, "+ + 0 -")
    act(state, "fight_on")
    assert state.current_player() == CHANCE
    state.declare_goal("strona_belzee", "the watch arrives and Massimo runs")
    assert state.is_terminal() and state.pending_roll() is None and state.chance_outcomes() == []
    assert "the watch arrives and Massimo runs" in state.outcome().summary


def test_in_the_window_to_concede_the_declaration_ends_it_too() -> None:
    state, _ = _knife_fight()
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    roll(state, "- - - -")
    assert state.phase == "concede_window"
    state.declare_goal("strona_massimo")
    assert state.is_terminal() and state.window == [] and state.outcome().ending == GOAL_REACHED


def test_a_declared_goal_is_saved_and_replayed() -> None:
    state, conflict = _knife_fight()
    _to_belzees_hit(state)
    state.declare_goal("strona_massimo", "Belzee is thrown out of the tavern")
    step = state.steps()[-1]
    assert step.node == DECLARATION and step.action is not None
    record = json.loads(json.dumps(Conflict.of(state, conflict.scenario, {}, 1).to_json()))
    again = Conflict.from_json(record).replay()
    assert again.is_terminal() and again.outcome() == state.outcome()
    assert again.history()[-1].text == state.history()[-1].text


def test_no_side_of_the_conflict_or_no_goal_in_words_is_refused_and_changes_nothing() -> None:
    state, _ = _knife_fight()
    _to_belzees_hit(state)
    steps = state.steps()
    with pytest.raises(IllegalActionError, match="'belzee' is not a side of this conflict"):
        state.declare_goal("belzee")  # a participant, not its side
    plain = duel(KNIFE, KNIFE)
    with pytest.raises(InvalidActionError, match="the scenario states no goal for s0"):
        plain.declare_goal("s0")
    assert state.steps() == steps and state.phase == "absorb" and not plain.is_terminal()
    plain.declare_goal("s0", "the door is barred")
    assert plain.outcome().winners == ("s0",)
    with pytest.raises(IllegalActionError, match="the conflict is over"):
        plain.declare_goal("s1", "too late")
