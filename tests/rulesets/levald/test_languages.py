"""Le våld speaks Swedish, Danish, Polish and English: every bundled scenario (and each with the optional rules that
have words of their own) played to the end through the State API with varied choices and dice, in each language,
with the levald catalog strict (a missing translation raises) and no English word in a Swedish, Danish or Polish
text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from konflikt.core.actions import Action
from konflikt.core.campaign import Rest
from konflikt.core.conflict import new_state
from konflikt.core.i18n import speaking
from konflikt.core.scenario import load_scenario
from konflikt.rulesets.levald.campaign import CAMPAIGN
from konflikt.rulesets.levald.narration import fate_parts
from konflikt.rulesets.levald.rest import aftermath
from konflikt.rulesets.levald.state import LevaldState
from tests.languages import english_words

LANGUAGES = ("sv", "da", "pl", "en")
SCENARIOS = ("levald/duel", "levald/one_against_two")
OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {
        "exceptional": "doubles",
        "two_defence_rolls": True,
        "several_attackers": "one_defence",
        "gard_out_cannot_back": True,
        "free_attack_ignores_gard": True,
        "holder_damaged": "table",
        "after_nobody_wins": "stays",
        "gain_ground_changes_initiative": False,
        "max_rounds": 12,
    },
    {"exceptional": "off", "bypass_dice": "guarded", "deadly_wound": "knocked_out", "allow_leave": False},
)
"""The default rules, and two sets of optional rules that have words of their own."""
OWN_KINDS = frozenset(
    [
        "setup",
        "round",
        "movement",
        "distance",
        "roll",
        "leave",
        "initiative",
        "choice",
        "exchange",
        "attack",
        "damage",
        "gard",
        "ground",
        "condition",
        "subfight",
        "end",
    ]
)
"""The events the levald narration writes (a goal declared or a correction are the common catalog's)."""
PROPER = frozenset(["konflikt", "max_rounds", "allow_leave", "gain_ground_changes_initiative", "false"])
"""Besides the fighters' and the sides' names: the rule options a text names by their identifiers (typed as they
are: ``--option allow_leave=false``)."""
CANDIDATES = (
    *(Action.of(kind) for kind in ("advance", "hold", "retreat", "leave", "attack", "regain", "defend", "counter")),
    *(Action.of("ground", step=step) for step in (-1, 0, 1)),
    Action.of("fight"),
)
"""Choices tried at every decision: those not legal there are asked why."""


def proper_names(state: LevaldState) -> frozenset[str]:
    """The fighters' names and ids (the sides' names are the setup's tables of languages)."""
    return frozenset(word for f in state.fighters for word in (f.name, f.id)) | PROPER


def own_refusal(state: LevaldState, seat: str, action: Action) -> bool:
    """Whether Le våld refuses ``action`` in words of its own (the core's refusal of a choice not offered names the
    choices by their identifiers, in the common catalog)."""
    i = state.index.get(seat, -1)
    if action.kind == "counter":
        return state.phase == "defender" and i == state.dfn
    if action.kind == "leave" and not state.options.allow_leave:
        return True
    return action.kind in ("retreat", "leave") and state.phase == "move" and i >= 0 and state.cannot_back(i)


def texts_of_a_fight(state: LevaldState, rng: np.random.Generator, goal_at: int | None) -> Iterator[str]:
    """Play ``state`` to the end with random legal choices and dice, yielding every text a table reads on the way."""
    yield from (f"{k} {v}" for row in state.setup_facts().values() for k, v in row.items())
    steps = 0
    while not state.is_terminal():
        steps += 1
        if steps % 5 == 0 or state.phase == "init_roll":  # the table changes slowly: a look now and then
            yield from (f"{k} {v}" for row in state.status().values() for k, v in row.items())
            yield from (f"{k} {v}" for row in state.status_pending().values() for k, v in row.items())
        if goal_at is not None and steps == goal_at:
            state.declare_goal(state.sides[0])
            break
        if state.is_chance_node():
            yield state.roll_purpose()
            yield from (label for label, _p in state.roll_stakes())
            yield from state.joint_roll_purposes()
            yield from (label for rows in state.joint_roll_stakes() for label, _p in rows)
            outcomes = state.chance_outcomes()
            pick = rng.choice(len(outcomes), p=[float(p) for _o, p in outcomes])
            state.apply_action(outcomes[pick][0])
            continue
        seats = state.waiting_for() if state.is_simultaneous_node() else (state.current_player(),)
        chosen = {}
        for seat in seats:
            legal = list(state.legal_actions(seat))
            yield from (state.describe_action(seat, a) for a in legal)
            yield from (
                state.why_illegal(seat, a) for a in CANDIDATES if a not in legal and own_refusal(state, seat, a)
            )
            if state.phase == "gm" and rng.random() < 0.6:
                chosen[seat] = Action.of("fight")  # the GM toggles a condition now and then, not for ever
            else:
                chosen[seat] = legal[rng.integers(len(legal))]
        if state.is_simultaneous_node():
            state.apply_actions(chosen)
        else:
            state.apply_action(chosen[seats[0]])
    yield from (e.text for e in state.history() if e.kind in OWN_KINDS)
    yield from (f"{k} {v}" for row in state.status().values() for k, v in row.items())
    outcome = state.outcome()
    yield outcome.summary
    yield state.ending_words(outcome.ending)
    for fate in outcome.participants.values():
        yield fate
        yield from (part for part, _n in fate_parts(fate))
    after = aftermath(state)
    yield from after.lines
    for document in after.characters.values():
        yield from CAMPAIGN.sheet(document, ())
        yield from CAMPAIGN.rest(document, (), Rest(amount=3, unit="rounds"), {"rest_floor_per_wound": True}).lines


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_bundled_fight_reads_in_the_language(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails on a message without a translation (the strict catalog raises) or an English word in a Swedish, Danish
    or Polish text."""
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "levald")
    rng = np.random.default_rng(46)
    texts: dict[str, frozenset[str]] = {}
    with speaking(language):
        for name in SCENARIOS:
            for run, options in enumerate(OPTIONS):
                for seed in range(2):
                    scenario = load_scenario(name)
                    state = new_state(scenario, options)
                    assert isinstance(state, LevaldState)
                    names = proper_names(state)
                    goal_at = 25 if (run, seed) == (0, 1) else None
                    goals = [goal for _name, goal in state.goal_sides().values() if goal]
                    for text in [scenario.title, scenario.description, *goals, *texts_of_a_fight(state, rng, goal_at)]:
                        texts.setdefault(text, names)
    if language == "en":
        return
    found = [(text, words) for text, names in texts.items() if (words := english_words(text, language, names))]
    assert not found, found[:10]


def test_the_bilingual_register_reads_as_before() -> None:
    """``both`` is konflikt's voice before the catalogs, word for word."""
    with speaking("both"):
        state = new_state(load_scenario("levald/duel"), {})
        assert isinstance(state, LevaldState)
        assert state.title == "Tvekamp vid bron (a duel at the bridge)"
        assert state.describe_action("snurre", Action.of("advance")) == "Avancera (advance)"
        state.apply_actions({"snurre": Action.of("advance"), "hedda": Action.of("advance")})
        texts = [e.text for e in state.history()]
        assert "Rörelse (movement) revealed: Snurre Avancera (advance), Hedda Avancera (advance)" in texts
        assert state.status()["snurre"]["Gard (guard)"] == "12/12"


def test_a_choice_has_its_words_in_every_language_the_language_in_use_first() -> None:
    """What a player may type at the table: the movement markers in Swedish, English, Danish and Polish."""
    with speaking("da"):
        state = new_state(load_scenario("levald/duel"), {})
        assert isinstance(state, LevaldState)
        words = state.action_words("snurre", Action.of("advance"))
    assert words[0] == "Avancere"
    assert set(words) == {"Avancere", "Avancera", "Advance", "Nacierać"}


@pytest.mark.parametrize("language", ["sv", "da", "pl"])
def test_the_odds_answers_read_in_the_language(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``konflikt odds levald attack|damage`` and the opposed rules of the dice language: titles, labels, notes, the
    words of the JSON keys and the outcomes."""
    from konflikt.dice.expression import DiceExpression, parse_expression
    from konflikt.rulesets.levald.odds import QUESTIONS, opposed_rules

    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "levald")
    texts: list[str] = []
    with speaking(language):
        answers = [QUESTIONS["attack"].compute(60, 50, "fifth", defences) for defences in (0, 1, 2)]
        answers.append(QUESTIONS["damage"].compute("Svärd", 8, 10, 12, 16))
        for answer in answers:
            texts += [answer.title, answer.label, *answer.notes, *answer.words.values()]
        for rule in opposed_rules({}):
            a, b = parse_expression("d100<=60"), parse_expression("d100<=55")
            assert isinstance(a, DiceExpression) and isinstance(b, DiceExpression)
            judge = rule.bind(a, b)
            assert judge.explain is not None
            texts += [*map(str, judge.outcomes), judge.label, *judge.notes, judge.explain(12, 47)]
    found = [(text, words) for text in texts if (words := english_words(text, language, PROPER))]
    assert not found, found
