"""The GM declares a side's goal reached: in every ruleset a logged step that ends the conflict with that side the
winner, replayed from a save, said at ``konflikt play``'s prompt (``declare``) and from the browser console.

The texts set goals against each other and let a conflict end without a knock-out (PWGE: "Om ena sidan uppnår sitt
mål innan handlingspölen är slut…", "En utdragen konflikt behöver inte vara dödlig"; Le våld's Omtöckning has no
limit): whether a goal is reached is the table's judgement, so the GM says it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from konflikt.cli.table import TableSession
from konflikt.core.conflict import Conflict
from konflikt.core.scenario import load_scenario
from konflikt.core.state import DECLARATION, GM, GOAL_REACHED, State
from konflikt.errors import IllegalActionError, InvalidActionError
from konflikt.sim.runner import seat_policies
from konflikt.store.db import Store
from tests.web.helpers import frame, new_table, post, serving

SCENARIOS = [
    "presja/knife_fight",
    "presja/skirmish",
    "levald/duel",
    "levald/one_against_two",
    "fimbulfrost/robbers",
    "fimbulfrost/dragon",
    "pwge/duel",
    "pwge/negotiation",
    "pwge/chase",
]


def _played(name: str, steps: int, seed: int = 3) -> tuple[State, Conflict]:
    """The scenario after ``steps`` steps of its heuristic seats and random dice (fewer if it ends before)."""
    scenario = load_scenario(name)
    conflict = Conflict(scenario, {}, seed)
    state = conflict.start()
    heuristic = scenario.ruleset.policy("heuristic")
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            pick = rng.choice(len(outcomes), p=[float(p) for _, p in outcomes])
            state.apply_action(outcomes[int(pick)][0])
        elif state.is_simultaneous_node():
            state.apply_actions({s: heuristic.choose(state, s, rng) for s in state.waiting_for()})
        else:
            state.apply_action(heuristic.choose(state, state.current_player(), rng))
    return state, conflict


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("steps", [0, 1, 5, 12])
def test_a_declared_goal_ends_the_conflict_with_that_side_the_winner(name: str, steps: int) -> None:
    state, conflict = _played(name, steps)
    if state.is_terminal():
        pytest.skip("the conflict ended before the step")
    sides = state.goal_sides()
    scenario_sides = {side.id: (side.name, side.goal) for side in conflict.scenario.sides}
    assert sides == scenario_sides
    winner = list(sides)[-1]
    name_of_winner, stated = sides[winner]
    before = len(state.steps())
    state.declare_goal(winner, "" if stated else "they got what they came for")
    assert state.is_terminal() and state.legal_actions() == ()
    outcome = state.outcome()
    assert outcome.ending == GOAL_REACHED and outcome.winners == (winner,)
    assert set(outcome.participants) == {p.id for side in conflict.scenario.sides for p in side.participants}
    step = state.steps()[-1]
    assert len(state.steps()) == before + 1 and step.node == DECLARATION and step.action is not None
    goal = stated or "they got what they came for"
    assert step.action.to_json() == {"kind": "declare", "side": winner, "goal": goal}
    said = state.history()[-1]
    assert said.kind == GOAL_REACHED and name_of_winner in said.text and goal in said.text
    assert state.invariants() == []
    record = json.loads(json.dumps(Conflict.of(state, conflict.scenario, {}, 3).to_json()))
    again = Conflict.from_json(record).replay()
    assert again.is_terminal() and again.outcome() == outcome
    aftermath = conflict.scenario.ruleset.aftermath
    if aftermath is not None:  # what carries into the next conflict is worked out from a declared end too
        carried = aftermath(again)
        assert set(carried.characters) <= set(outcome.participants)


@pytest.mark.parametrize("name", ["presja/knife_fight", "levald/duel", "fimbulfrost/robbers", "pwge/duel"])
def test_a_declaration_for_no_side_or_without_words_is_refused_and_changes_nothing(name: str) -> None:
    state, _ = _played(name, 3)
    steps, events = state.steps(), state.history()
    with pytest.raises(IllegalActionError, match="is not a side of this conflict"):
        state.declare_goal("nobody", "anything")
    side = next(iter(state.goal_sides()))
    with pytest.raises(InvalidActionError, match="1 to 200 characters"):
        state.declare_goal(side, "x" * 201)
    assert state.steps() == steps and state.history() == events and not state.is_terminal()
    state.declare_goal(side, "the bridge is held")
    with pytest.raises(IllegalActionError, match="the conflict is over"):
        state.declare_goal(side, "again")


def _session(tmp_path: Path, name: str, answers: list[str], human: str) -> tuple[State, str]:
    scenario = load_scenario(name)
    store = Store.open(tmp_path / "s.sqlite")
    conflict = Conflict(scenario, {}, 1)
    cid = store.create(conflict)
    out = io.StringIO()
    console = Console(file=out, width=140)
    given = iter(answers)
    seats = seat_policies(scenario, {human: "human"})
    state = TableSession(console, store, cid, conflict, [], seats, "auto", ask=lambda p, s: next(given)).run()
    saved = store.load(cid).conflict.replay()
    assert saved.is_terminal() == state.is_terminal()
    store.close()
    return state, out.getvalue()


@pytest.mark.parametrize(
    ("name", "human", "said", "winner"),
    [
        ("pwge/negotiation", "nova", "declare Venus molnstäder", "venus"),
        ("levald/duel", "hedda", "declare {side} the bridge is crossed", ""),
        ("presja/knife_fight", "belzee", "declare {side} Massimo got away", ""),
        ("fimbulfrost/robbers", "budolf", "declare {side}", ""),
    ],
)
def test_declare_at_the_play_prompt_ends_the_conflict(
    tmp_path: Path, name: str, human: str, said: str, winner: str
) -> None:
    state, _ = _played(name, 0)
    side = winner or next(iter(state.goal_sides()))
    stated = state.goal_sides()[side][1]
    typed = said.format(side=side)
    if not stated and typed.strip() == f"declare {side}":
        typed += " they won the day"
    ended, screen = _session(tmp_path, name, ["declare", "declare nobody", typed], human)
    assert "declare SIDE [GOAL]" in screen and f"  {side} (" in screen
    assert "'nobody': no side of that name" in screen
    assert ended.is_terminal() and ended.outcome().ending == GOAL_REACHED and ended.outcome().winners == (side,)
    assert "The GM declares that" in screen and f"outcome: {ended.ending_words(GOAL_REACHED)}" in screen
    assert "goal_reached" not in screen  # the ending in words


def test_the_gm_declares_from_the_browser_console_a_player_may_not_and_undo_takes_it_back(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        cid, tokens = new_table(client, "pwge/negotiation", ("nova", "lyra"))
        gm = frame(client, cid, tokens[GM])
        assert [g["side"] for g in gm["goals"]] == ["silverpilen", "venus"]
        assert 'name="type" value="declare"' in gm["html"] and "End the conflict: goal reached" in gm["html"]
        assert frame(client, cid, tokens["nova"])["goals"] == []
        message = {"type": "declare", "side": "venus", "goal": ""}
        assert post(client, cid, tokens["nova"], message) == (400, {"error": "only the GM may declare"})
        code, body = post(client, cid, tokens[GM], message | {"side": "mars"})
        assert code == 400 and "is not a side of this conflict" in body["error"]
        code, body = post(client, cid, tokens[GM], message)
        assert code == 200, body
        assert body["terminal"] and "The GM declares that" in body["events"][-1]["text"]
        assert body["goals"] == []
    with serving(db) as (client, _):  # saved; the GM's undo takes the declaration back
        assert frame(client, cid, tokens[GM])["terminal"]
        assert post(client, cid, tokens[GM], {"type": "undo"})[0] == 200
        after = frame(client, cid, tokens[GM])
        assert not after["terminal"] and [g["side"] for g in after["goals"]] == ["silverpilen", "venus"]
