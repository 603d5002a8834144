"""The core's own events (a secret choice made, a GM's correction) name a seat as people read it: the participant's
name where the ruleset knows one, the id where it does not. The state holds the plain name; escaping is Rich's
printer's business (a name with square brackets stays as it is)."""

from __future__ import annotations

import copy
import random

import pytest

from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario, scenario_from_document
from konflikt.core.state import State
from tests.core.toy import DOCUMENT
from tests.examples import renamed

#: A name unlike its id, with what would be Rich markup if it were not kept as text.
NAME = "Zażółć [bold]Gęśl[/bold]"

#: A bundled scenario of every ruleset, the seat renamed, and a value the GM may correct for it.
CORRECTIONS = [
    ("levald/duel", "snurre", "Gard"),
    ("presja/knife_fight", "belzee", "punkty losu"),
    ("fimbulfrost/dragon", "budolf", "rustning"),
    ("pwge/duel", "nova", "handlingspöl"),
]


def to_secret_choice(state: State, seed: int = 1) -> State:
    """Play random legal moves until a simultaneous node (the secret choices)."""
    rng = random.Random(seed)
    for _ in range(200):
        if state.is_simultaneous_node():
            return state
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(list(state.legal_actions())))
    raise AssertionError("no secret choice in 200 steps")


@pytest.mark.parametrize(("name", "seat", "value_name"), CORRECTIONS)
def test_a_correction_names_the_participant(name: str, seat: str, value_name: str) -> None:
    state = new_state(renamed(name, seat, NAME))
    assert state.seat_name(seat) == NAME
    now, lowest, highest = state.correctable()[seat][value_name]
    target = lowest if now != lowest else highest
    state.correct(seat, value_name, target, "read wrong")
    assert state.history()[-1].text == f"The GM corrected {NAME}'s {value_name}: {now} → {target} (read wrong)"
    assert state.history()[-1].data["seat"] == seat


@pytest.mark.parametrize(("name", "seat"), [("levald/duel", "hedda"), ("pwge/duel", "zorak")])
def test_a_secret_choice_names_the_participant_to_everyone_and_to_itself(name: str, seat: str) -> None:
    state = to_secret_choice(new_state(renamed(name, seat, NAME)))
    assert seat in state.waiting_for() and len(state.waiting_for()) > 1
    action = state.legal_actions(seat)[0]
    state.apply_actions({seat: action})
    made = [e for e in state.history() if e.kind == "secret_made"][-1]
    assert made.text == f"{NAME} has made a secret choice" and made.visible_to is None
    own = [e for e in state.history() if e.kind == "secret"][-1]
    assert own.text == f"{NAME} chose {state.describe_action(seat, action)} (secret)"
    assert own.visible_to == frozenset({seat})


def test_every_seat_has_a_name_and_a_ruleset_that_knows_none_keeps_the_id() -> None:
    for name, _, _ in CORRECTIONS:
        scenario = load_scenario(name)
        state = new_state(scenario)
        names = {p.id: p.name for p in scenario.participants()}
        assert {seat: state.seat_name(seat) for seat in names} == names
    doc = copy.deepcopy(DOCUMENT)
    doc["sides"][0]["participants"][0]["name"] = "Ada"
    toy = new_state(scenario_from_document(doc, "toy.toml"))  # a ruleset that keeps no names
    assert [toy.seat_name(seat) for seat in toy.seats()] == ["ada", "bo"]
