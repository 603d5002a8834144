"""PWGE speaks the table's language: every bundled scenario (and a few variants reaching the surprise, the chosen
attribute, experience dice and moves won) played to the end in sv, da, pl and en through the State API, every text
it prints read: no message missing from the pwge catalog, and no English word in a Swedish, Danish or Polish run."""

from __future__ import annotations

import copy
import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.i18n import localized, speaking
from konflikt.core.scenario import Scenario, load_scenario, scenario_from_document
from konflikt.core.state import State
from konflikt.rulesets.pwge.persist import aftermath
from konflikt.rulesets.pwge.rules import parse_distance
from konflikt.rulesets.pwge.state import PwgeState
from tests.examples import example_scenarios
from tests.languages import english_words

NAMES = [name for rid, name in example_scenarios() if rid == "pwge"]
IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b|\b[a-z_]+=[a-z0-9_]+")
"""What a seat types (``no_free_attack``, ``roll=no``) and data fields (``damage_taken``): the same in every
language."""
IDENTIFIERS = {"attack", "free_attack", "distance", "other", "pass", "press", "respond", "counter", "order", "top"}
"""Action kinds: a refusal names the kinds a seat may type (identifiers, the same in every language)."""


def _variant(name: str, change: Any) -> Scenario:
    scenario = load_scenario(name)
    doc: dict[str, Any] = copy.deepcopy(dict(scenario.document))
    change(doc)
    return scenario_from_document(doc, scenario.source)


def _surprise(doc: dict[str, Any]) -> None:
    doc["setup"]["surprise"] = doc["sides"][0]["id"]
    doc.setdefault("options", {})["experience_dice"] = True


def _no_attributes(doc: dict[str, Any]) -> None:
    for side in doc["sides"]:
        for person in side["participants"]:
            person.pop("attribute", None)


def _no_suggestion(doc: dict[str, Any]) -> None:
    doc.setdefault("options", {})["social_distance_and_damage"] = False


def scenarios() -> list[Scenario]:
    return [
        *(load_scenario(name) for name in NAMES),
        _variant("pwge/duel", _surprise),
        _variant("pwge/shootout", _no_attributes),
        _variant("pwge/negotiation", _no_suggestion),
        _variant("pwge/ball", _no_suggestion),
    ]


def _illegal(state: State, seat: str) -> list[str]:
    """Why a few impossible choices are refused: a kind not offered now, another seat out of turn, an attack out of
    reach or on a fallen foe, an unknown seat."""
    assert isinstance(state, PwgeState)
    others = [s for s in state.seats() if s != seat]
    words = [state.why_illegal(seat, Action.of("nonsense")), state.why_illegal("nobody", Action.of("pass"))]
    if others and state.current_player() == seat and state.phase != "order":
        words.append(state.why_illegal(others[0], Action.of("pass")))
    for other in others:
        for weapon in ("melee", "ranged"):
            words.append(state.why_illegal(seat, Action.of("attack", target=other, weapon=weapon)))
    return words


def play(scenario: Scenario, seed: int) -> tuple[list[str], set[str]]:
    """Every text one random playout of ``scenario`` prints, and the proper names among them."""
    rng = random.Random(seed)
    state = new_state(scenario)
    assert isinstance(state, PwgeState)
    texts: list[str] = [localized(scenario.document["title"]), localized(scenario.document.get("description", ""))]
    texts += [goal or "" for _, goal in state.goal_sides().values()]
    for row in state.setup_facts().values():
        texts += [*row, *row.values()]
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < 3000, "a playout that does not end"
        for row, cells in state.status().items():
            texts += [row, *cells, *cells.values()]
        if state.is_chance_node():
            texts.append(state.roll_purpose())
            texts += [words for words, _ in state.roll_stakes()]
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        elif state.is_simultaneous_node():
            choices = {}
            for seat in state.waiting_for():
                legal = state.legal_actions(seat)
                texts += [state.describe_action(seat, a) for a in legal]
                texts += _illegal(state, seat)
                choices[seat] = rng.choice(legal)
            state.apply_actions(choices)
        else:
            seat = state.current_player()
            legal = state.legal_actions(seat)
            texts += [state.describe_action(seat, a) for a in legal]
            texts += _illegal(state, seat)
            passes = [a for a in legal if a.kind == "pass"]
            # pass seldom, so that the conflicts run to their pools' end, not to a deadlock at once
            pick = (
                rng.choice(legal)
                if not passes or rng.random() < 0.1
                else rng.choice([a for a in legal if a.kind != "pass"] or legal)
            )
            state.apply_action(pick)
    texts += [e.text for e in state.history()]
    for row, cells in state.status().items():
        texts += [row, *cells, *cells.values()]
    outcome = state.outcome()
    texts += [outcome.summary, *outcome.participants.values(), state.ending_words(outcome.ending)]
    texts += list(aftermath(state).lines)
    texts += _illegal(state, state.seats()[0])
    names = {f.name for f in state.people} | set(state.seats()) | {"nobody", "nonsense"} | IDENTIFIERS
    names |= {f.melee_name for f in state.people} | {f.ranged_name for f in state.people}
    return texts, names


@pytest.mark.parametrize("language", ["sv", "da", "pl", "en"])
def test_every_text_of_every_scenario_is_in_the_language(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """No catalog miss (strict: a miss raises) and, but for English, no English word outside proper names."""
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "pwge")
    with speaking(language):
        for scenario in scenarios():
            for seed in (1, 2):
                texts, names = play(scenario, seed)
                if language == "en":
                    continue
                found = {t: english_words(IDENTIFIER.sub(" ", t), language, frozenset(names)) for t in texts}
                assert not {t: w for t, w in found.items() if w}, scenario.title


def test_the_bilingual_register_reads_as_before() -> None:
    """``both`` is the register konflikt spoke before it had catalogs: the text's terms with English glosses."""
    with speaking("both"):
        state = new_state(load_scenario("pwge/duel"))
        assert isinstance(state, PwgeState)
        texts = [e.text for e in state.history()]
        assert texts[0] == "PWGE: strid (combat)"
        assert texts[1] == (
            "Kapten Nova (Silverpilen (the Silver Arrow's crew)): handlingspöl (action pool) 12 tokens = 2×Smidighet "
            "4 +2 identity fits indirectly +2×1 fitting skill −0 others on the side; 2 erfarenhetstärningar "
            "(experience dice)"
        )
        assert state.status()["nova"]["marker (tokens)"] == "12/12"
        assert localized(load_scenario("pwge/duel").document["title"]) == (
            "Duell på asteroiden Kerberos (duel on the asteroid Kerberos)"
        )


def test_a_start_distance_may_be_typed_in_each_language() -> None:
    assert {parse_distance(word) for word in ("Svärd", "sword", "sværd", "miecz")} == {2}
    assert {parse_distance(word) for word in ("Spjut", "spear", "spyd", "włócznia")} == {4}


def test_the_words_change_with_the_language() -> None:
    state = new_state(load_scenario("pwge/duel"))
    assert isinstance(state, PwgeState)
    with speaking("sv"):
        assert state.status()["nova"]["marker"]
    with speaking("da"):
        assert state.status()["nova"]["markører"]
    with speaking("pl"):
        assert state.status()["nova"]["żetony"]
    with speaking("en"):
        assert state.status()["nova"]["tokens"]


@pytest.mark.parametrize("language", ["sv", "da", "pl", "en"])
def test_the_sheet_rest_report_and_odds_are_in_the_language(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The campaign's sheet and rest, the choices report's labels and the odds' titles, for every bundled
    character: no catalog miss, no English word outside proper names and identifiers."""
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "pwge")
    from konflikt.core.campaign import Rest
    from konflikt.rulesets.pwge.campaign import rest_between, sheet
    from konflikt.rulesets.pwge.odds import QUESTIONS
    from konflikt.rulesets.pwge.reports import option

    folder = Path(__file__).parents[3] / "src" / "konflikt" / "rulesets" / "pwge" / "content" / "characters"
    with speaking(language):
        texts: list[str] = []
        names: set[str] = set()
        for path in sorted(folder.glob("*.toml")):
            doc = tomllib.loads(path.read_text(encoding="utf-8"))
            doc |= {"damage_taken": 3, "diplomatic_distance": {"Lyra": 6}, "social_distance": {"Quill": 7}}
            names |= {doc["name"], "Lyra", "Quill", *doc.get("attributes", {}), *doc.get("skills", {})}
            texts += sheet(doc, [])
            for per_day in (0, 2):
                for rest in (Rest(2, "days"), Rest(3, "hours")):
                    texts += [
                        line.replace(str(rest), "")  # the rest's own words are the common catalog's
                        for line in rest_between(doc, [], rest, {"healing_per_day": per_day}).lines
                    ]
        for kind, args in (
            ("attack", {"target": "b", "weapon": "melee"}),
            ("distance", {"target": "b", "way": "closer"}),
            ("other", {"target": "b", "roll": "yes"}),
            ("respond", {"deed": "distance", "way": "farther"}),
            ("counter", {"pay": "die"}),
            ("order", {}),
            ("top", {}),
            ("counter_top", {}),
            ("counter_counter_top", {}),
            ("reroll", {}),
            ("accept", {}),
            ("no_response", {}),
            ("pass", {}),
        ):
            found = option(Action.of(kind, **args))
            assert found is not None
            texts += list(found)
        texts += [QUESTIONS["opposed"].compute(5, 4).title]
        texts += [QUESTIONS["ranged"].compute(5, "2T+2").title]
        texts += [QUESTIONS["ranged"].compute(5, "2T+2").notes[0]]
        texts += [QUESTIONS["topping"].compute(5, 5, 2, 1).title]
        if language != "en":
            found_words = {t: english_words(IDENTIFIER.sub(" ", t), language, frozenset(names)) for t in texts}
            assert not {t: w for t, w in found_words.items() if w}
