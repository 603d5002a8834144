"""Fimbulfrost speaks Swedish, Danish, Polish and English: every bundled scenario (and a conflict with every round-3
option on) played to the end through the State API with varied choices and dice, in each language, with the
fimbulfrost catalog strict (a missing translation raises) and no English word in a Swedish, Danish or Polish text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from konflikt.core.actions import Action
from konflikt.core.campaign import Rest
from konflikt.core.conflict import new_state
from konflikt.core.i18n import speaking
from konflikt.core.scenario import Scenario, load_scenario
from konflikt.rulesets.fimbulfrost import RULESET
from konflikt.rulesets.fimbulfrost.campaign import CAMPAIGN
from konflikt.rulesets.fimbulfrost.carry import aftermath
from konflikt.rulesets.fimbulfrost.reports import choice_group
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from tests.languages import english_words
from tests.rulesets.fimbulfrost.helpers import hero, scenario

LANGUAGES = ("sv", "da", "pl", "en")
OWN_KINDS = frozenset(
    [
        "start",
        "present",
        "roll",
        "split",
        "answer",
        "damage",
        "total",
        "describe",
        "round",
        "end",
        "describe_outcome",
        "buy_back",
        "loss",
        "consequence",
        "exhausted",
        "weapon",
        "armour",
        "gear",
        "wilder",
        "maneuver",
        "borrowed_time",
        "done",
        "stay_out",
        "spare",
    ]
)
"""The events the fimbulfrost narration writes (the core's own, a goal declared or a correction, are the common
catalog's)."""
PROPER = frozenset(
    [
        "Budolf",
        "Rudolf",
        "Sigrun",
        "Røverbanden",
        "Dragen",
        "Heksen",
        "Gengangeren",
        "Ulveflokken",
        "helte",
        "drage",
        "roevere",
        "fjende",
        "skjoldmur",
        "round1_death",
        "consequence_must_cost",
        "presenters",
        "konflikt",
    ]
)

ALSO_NATIVE = {"da": frozenset({"her"})}
"""Words of the English list that are also this language's own, not yet in ``tests.languages.ALSO_NATIVE``
(Danish "her" is "here": "Kampen ender her", the text's own words)."""


def scenarios() -> list[Scenario]:
    """The bundled scenarios and a conflict with every optional rule that has words of its own."""
    options = {
        "weapon_pool": True,
        "borrowed_time": True,
        "questions": True,
        "buy_back": True,
        "mishaps": "always",
        "points_per_consequence": 2,
    }
    sigrun = scenario(
        heroes=[hero("sigrun", character="builtin:sigrun"), hero("rudolf", character="builtin:rudolf")],
        opponent=hero("heksen", character="builtin:heks"),
        options=options,
    )
    return [load_scenario("fimbulfrost/robbers"), load_scenario("fimbulfrost/dragon"), sigrun]


def side_names(state: FimbulfrostState) -> list[str]:
    """The sides' names are the scenario's (a name, not a text of the catalog: "Heltene (the heroes)")."""
    return [name for _sid, name, _goal in state.sides]


def texts_of_a_conflict(state: FimbulfrostState, rng: np.random.Generator, goal_at: int | None) -> Iterator[str]:
    """Play ``state`` to the end with random legal choices and dice, yielding every text a table reads on the way."""
    yield from (f"{k} {v}" for row in state.setup_facts().values() for k, v in row.items())
    yield from state.id_words().values()
    steps = 0
    while not state.is_terminal():
        steps += 1
        yield from (f"{k} {v}" for row in state.status().values() for k, v in row.items())
        if goal_at is not None and steps == goal_at and state.goal_sides()[state.hero_side][1]:
            state.declare_goal(state.hero_side)
            break
        if state.is_chance_node():
            yield state.roll_purpose()
            yield from (label for label, _p in state.roll_stakes())
            outcomes = state.chance_outcomes()
            pick = rng.choice(len(outcomes), p=[float(p) for _o, p in outcomes])
            state.apply_action(outcomes[pick][0])
            continue
        seat = state.current_player()
        legal = list(state.legal_actions(seat))
        yield state.decision_stake(seat)
        yield from (state.describe_action(seat, a) for a in legal)
        for illegal in (Action.of("consequence", entry="ydmyget"), Action.of("consequence", entry="doed")):
            if illegal not in legal and state.asks:
                yield state.why_illegal(seat, illegal)
        if state.asks and state.asks[0][0] != "back":
            yield state.why_illegal(seat, Action.of("consequence", entry="ingen-saadan"))
            taken = state.opp_taken if state.asks[0][0] == "opp" else state.taken[state.asks[0][1]]
            if taken:
                yield state.why_illegal(seat, Action.of("consequence", entry=taken[0]))
        if state.phase == 0 and state.cursor > 0:
            yield state.why_illegal(seat, Action.of("present", by=state.hero_ids[0]))
        for action in legal:
            group = choice_group(action)
            if group is not None:
                yield from group
        state.apply_action(legal[rng.integers(len(legal))])
    yield from (e.text for e in state.history() if e.kind in OWN_KINDS)
    yield from (f"{k} {v}" for row in state.status().values() for k, v in row.items())
    outcome = state.outcome()
    yield outcome.summary
    yield state.ending_words(outcome.ending)
    yield from outcome.participants.values()
    after = aftermath(state)
    yield from after.lines
    for pid, document in after.characters.items():
        before = dict(state.chars[state.hero_ids.index(pid)].model_dump()) if pid in state.hero_ids else {}
        carried = CAMPAIGN.settle(before, (), document)
        yield from carried.lines
        yield from CAMPAIGN.sheet(carried.document, carried.pending)
        rested = CAMPAIGN.rest(carried.document, carried.pending, Rest(3, "days"), {})
        yield from rested.lines
        yield from CAMPAIGN.sheet(rested.document, rested.pending)
        yield from CAMPAIGN.rest(carried.document, carried.pending, Rest(2, "hours"), {}).lines
        if CAMPAIGN.fallen is not None and (fallen := CAMPAIGN.fallen(rested.document)) is not None:
            yield fallen


def all_texts(language: str) -> list[str]:
    texts: list[str] = []
    with speaking(language):
        for k, source in enumerate(scenarios()):
            for seed in range(6):
                state = new_state(source)
                assert isinstance(state, FimbulfrostState)
                goal_at = 9 if seed == 5 else None
                sides = side_names(state)
                for text in texts_of_a_conflict(state, np.random.default_rng(100 * k + seed), goal_at):
                    for name in sides:
                        text = text.replace(name, "")
                    texts.append(text)
            texts += [source.title, source.description]
            texts += [goal for _sid, _name, goal in ((s.id, s.name, s.goal) for s in source.sides) if goal]
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_whole_conflict_speaks_the_language(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "fimbulfrost")
    texts = all_texts(language)  # a missing translation raises MissingTranslation
    assert len(texts) > 500
    if language == "en":
        return
    allowed = PROPER | ALSO_NATIVE.get(language, frozenset())
    found = {word: text for text in texts for word in english_words(text, language, allowed)}
    assert not found, found


def test_the_bilingual_register_reads_as_before() -> None:
    with speaking("both"):
        state = new_state(load_scenario("fimbulfrost/robbers"))
        assert state.history()[0].text == (
            "Kamp (combat) in three rounds: Budolf, Rudolf against Røverbanden (Omdømme 2, Kamp 3, Status 6). "
            "Runde (round) 1: Omdømme (reputation)."
        )
        assert load_scenario("fimbulfrost/robbers").title == (
            "Budolf og Rudolf møder en bande røvere (Budolf and Rudolf meet a robber band)"
        )


def test_the_text_terms_in_each_language() -> None:
    """The start line names the opponent's numbers in each language's own words (the glossary of the guide)."""
    expected = {
        "da": "Kamp i tre runder: Budolf, Rudolf mod Røverbanden (Omdømme 2, Kamp 3, Status 6). Runde 1: Omdømme.",
        "sv": "Strid i tre rundor: Budolf, Rudolf mot Røverbanden (Rykte 2, Kamp 3, Status 6). Runda 1: Rykte.",
        "pl": (
            "Walka w trzech rundach: Budolf, Rudolf przeciw Røverbanden (Reputacja 2, Walka 3, Status 6). "
            "Runda 1: Reputacja."
        ),
        "en": (
            "Combat in three rounds: Budolf, Rudolf against Røverbanden (Reputation 2, Fight 3, Status 6). "
            "Round 1: Reputation."
        ),
    }
    for language, line in expected.items():
        with speaking(language):
            assert new_state(load_scenario("fimbulfrost/robbers")).history()[0].text == line


def test_consequences_have_words_in_every_language() -> None:
    """Every bundled list entry carries Swedish and Polish words beside the Danish and English."""
    state = new_state(load_scenario("fimbulfrost/robbers"))
    assert isinstance(state, FimbulfrostState)
    for lst in state.catalogue.lists.values():
        assert lst.sv and lst.pl
        for entry in lst.entries:
            assert entry.sv and entry.pl, entry.id
    assert Path(RULESET.content_dir or "").is_dir()


def other_texts() -> list[str]:
    """The odds question's labels, the solver's words for its choices and states, and a refused character."""
    from konflikt.core.state import GM
    from konflikt.errors import KonfliktError, ScenarioError
    from konflikt.rulesets.fimbulfrost.game import round_game
    from konflikt.rulesets.fimbulfrost.odds import pool_answer
    from konflikt.rulesets.fimbulfrost.policies import HeuristicPolicy

    answer = pool_answer(7, 6)
    texts = [answer.title, answer.label, *answer.distributions, *answer.probabilities, *answer.notes]
    for dice, status in ((99, 6), (3, 0)):
        with pytest.raises(KonfliktError) as refused:
            pool_answer(dice, status)
        texts.append(str(refused.value))
    state = new_state(load_scenario("fimbulfrost/robbers"))
    policies = {seat: HeuristicPolicy() for seat in (*state.seats(), GM)}
    game = round_game(state, policies)
    assert game is not None and not isinstance(game, str)
    started = game.start(state)
    assert started is not None
    compact, _length, made = started
    texts.append(game.describe_state(compact))
    texts += [game.describe(c) for c in game.choices(compact, made)]
    texts += [game.describe(Action.of(kind, dice=2)) for kind in ("armour", "gear", "weapon")]
    texts += [game.describe(Action.of("describe", stil=True, stunt=False, snak=True))]
    texts.append(game.describe_state(("end", "x")))
    with pytest.raises(ScenarioError) as refused_scenario:
        scenario(heroes=[hero("budolf", character="builtin:budolf", kamp=3)])
    texts.append(str(refused_scenario.value).split(":", 1)[-1])
    return texts


@pytest.mark.parametrize("language", ("sv", "da", "pl"))
def test_odds_solver_and_refusals_speak_the_language(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "fimbulfrost")
    with speaking(language):
        texts = [re.sub(r"\w+=\S+", "", text) for text in other_texts()]  # an action's own fields are typed as is
    found = {word: text for text in texts for word in english_words(text, language, PROPER | {"kamp", "kampen"})}
    assert not found, found
