"""Konflikty fizyczne speaks Polish, Swedish, Danish and English: every bundled scenario (and each with the optional
rules that have words of their own) played to the end through the State API with varied choices and dice, in each
language, with the presja catalog strict (a missing translation raises) and no English word in a Swedish, Danish or
Polish text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from konflikt.core.actions import Action
from konflikt.core.campaign import Rest
from konflikt.core.conflict import new_state
from konflikt.core.i18n import localized, speaking
from konflikt.core.scenario import load_scenario
from konflikt.core.state import GM
from konflikt.errors import KonfliktError
from konflikt.rulesets.presja.aftermath import aftermath
from konflikt.rulesets.presja.campaign import CAMPAIGN
from konflikt.rulesets.presja.game import round_game
from konflikt.rulesets.presja.model import exact_model
from konflikt.rulesets.presja.odds import PresjaPressure, exchange
from konflikt.rulesets.presja.policies import HeuristicPolicy
from konflikt.rulesets.presja.state import PresjaState
from konflikt.rulesets.presja.track import check_track, check_values, marked_mask, parse_track
from tests.languages import english_words

LANGUAGES = ("sv", "da", "pl", "en")
SCENARIOS = ("presja/knife_fight", "presja/skirmish")
OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {
        "compels": True,
        "gm_sets_order": True,
        "surprise": True,
        "defence_vs_many": "divided",
        "advantage_mobility": True,
        "advantage_personality": True,
        "advantage_numbers": "gm",
        "advantage_flanking": "auto",
        "advantage_surrounded": "auto",
        "advantage_weapon_quality": True,
    },
    {"allow_concede": False, "tactics": False, "invoke_reroll": False, "box_absorbs_less": False},
)
"""The default rules, and two sets of optional rules that have words of their own."""
OWN_KINDS = frozenset(
    [
        "setup",
        "order",
        "edge",
        "compel",
        "exchange",
        "declare",
        "concede",
        "fight_on",
        "roll",
        "reroll",
        "invoke",
        "ignore",
        "advantage",
        "attack",
        "absorb",
        "taken_out",
        "move",
        "end",
    ]
)
"""The events the presja narration writes (a goal declared or a correction are the common catalog's)."""
PROPER = frozenset(["tactics", "tactic", "none", "allow_concede", "may_concede", "konflikt", "campaign", "rest"])
"""Besides the fighters' names and ids, the zones' and sides' ids: the identifiers a text names as they are typed
(``--option allow_concede=false``, ``tactic=none``, ``konflikt campaign rest --minutes 5``)."""
CANDIDATES = (
    Action.of("concede"),
    Action.of("attack", target="zzz", tactic="none"),
    Action.of("attack", target="belzee", tactic="offensive"),
    Action.of("attack", target="massimo", tactic="none"),
    Action.of("attack", target="kasimir", tactic="none"),
    Action.of("attack", target="lis", tactic="none"),
    Action.of("move", to="stajnia", tactic="none"),
    Action.of("move", to="karczma", tactic="none"),
    Action.of("absorb", boxes="1:1", cons="", name="Rana"),
    Action.of("absorb", boxes="4-5:9", cons=""),
)
"""Choices tried at every decision: those not legal there are asked why."""


WEIGHTS = {"attack": 3.0, "absorb": 3.0, "invoke": 2.0, "concede": 0.1, "taken_out": 0.3}
"""How often a kind of choice is picked beside the others: fights long enough to pass every step, now and then a
concession or a refusal of the pressure."""


def proper_names(state: PresjaState) -> frozenset[str]:
    """The fighters' names and ids, the sides' and zones' ids (the status table shows ids as the choices type them),
    and every word of a legal choice typed as it is (``absorb boxes=1:1 cons=mild``, ``fight_on``)."""
    words = {word for f in state.fighters for word in (f.name, f.id)}
    words.update(state.side_ids)
    words.update(state.zone_ids)
    return frozenset(words) | PROPER


def typed_words(actions: list[Action]) -> frozenset[str]:
    """The identifiers of typed choices (``taken_out``, ``mild``, ``fate_point``): a refusal lists them as typed."""
    words: set[str] = set()
    for action in actions:
        words.update(str(action).replace("_", " ").replace("=", " ").replace(":", " ").split())
    return frozenset(words)


def texts_of_a_fight(
    state: PresjaState, rng: np.random.Generator, goal_at: int | None, typed: set[str]
) -> Iterator[str]:
    """Play ``state`` to the end with random legal choices and dice, yielding every text a table reads on the way
    (and adding the words of every legal choice, as typed, to ``typed``)."""
    yield from (f"{k} {v}" for row in state.setup_facts().values() for k, v in row.items())
    yield from state.id_words().values()
    steps = 0
    while not state.is_terminal():
        steps += 1
        if steps % 4 == 0 or state.phase == "absorb":  # the table changes slowly: a look now and then
            yield from (f"{k} {v}" for row in state.status().values() for k, v in row.items())
        if goal_at is not None and steps == goal_at:
            side, (_name, goal) = next(iter(state.goal_sides().items()))
            state.declare_goal(side, goal)
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
        typed.update(typed_words(legal))
        yield state.decision_stake(seat)
        for action in legal:
            yield state.describe_action(seat, action)
            yield state.action_cost(seat, action)
            yield from state.consequences_taken(seat, action)
        for action in CANDIDATES:
            if action not in legal and seat != GM:
                yield state.why_illegal(seat, action)
        weights = [WEIGHTS.get(a.kind, 1.0) for a in legal]
        pick = rng.choice(len(legal), p=[w / sum(weights) for w in weights])
        state.apply_action(legal[pick])
    yield from (e.text for e in state.history() if e.kind in OWN_KINDS)
    yield from (f"{k} {v}" for row in state.status().values() for k, v in row.items())
    outcome = state.outcome()
    yield outcome.summary
    yield state.ending_words(outcome.ending)
    after = aftermath(state)
    yield from after.lines
    for document in after.characters.values():
        yield from CAMPAIGN.sheet(document, ({"effect": "rest", "minutes": 3},))
        yield from CAMPAIGN.settle(document, ({"effect": "rest", "minutes": 3},), document).lines
        options = {"rest_clears_boxes": 5, "rest_clears_mild": 10}
        for minutes in (3, 7, 12):
            yield from CAMPAIGN.rest(document, (), Rest(amount=minutes, unit="minutes"), options).lines


def texts_beside_the_fight() -> Iterator[str]:
    """The odds of one attack, the dice language's pressure, the optimal-play game, and the refusals of bad
    options and carried boxes."""
    answer = exchange(3, 2, weapon=1, armor=1, tactic="offensive")
    yield answer.title
    yield answer.label
    yield from (answer.shown(key) for key in answer.distributions)
    yield from (answer.shown(key) for key in answer.probabilities)
    yield from answer.notes
    judge = PresjaPressure().bind(*_dice_pair())
    yield judge.label
    yield from judge.notes
    yield judge.explain(3, 2)
    for bad in (lambda: exchange(3, 2, tactic="wild"), lambda: exchange(99, 2), lambda: exchange(3, 2, weapon=-1)):
        yield _refusal(bad)
    for text in ("1,x", "3-1", ",".join(["1"] * 30)):
        yield _refusal(lambda text=text: check_track(text))
    for text in ("2,4", "0,4,6", "2,4,60"):
        yield _refusal(lambda text=text: check_values(text))
    yield _refusal(lambda: marked_mask(parse_track("1,1,2-3"), ["2-3", "2-3"]))
    duel = new_state(load_scenario("presja/knife_fight"), {})
    skirmish = new_state(load_scenario("presja/skirmish"), {})
    heuristic = HeuristicPolicy()
    everyone = {seat: heuristic for seat in duel.seats()}
    for reason in (round_game(skirmish, everyone), exact_model(skirmish, everyone), round_game(duel, {})):
        assert isinstance(reason, str)
        yield reason
    while duel.phase != "declare":  # past the invocations for the order of action
        duel.apply_action(duel.legal_actions(duel.current_player())[-1])
    game = round_game(duel, everyone)
    assert game is not None and not isinstance(game, str)
    for action in duel.legal_actions(duel.current_player()):
        if action.kind in ("attack", "defend", "move", "concede"):
            yield game.describe(_decl(duel, action))


def _dice_pair() -> tuple[Any, Any]:
    from konflikt.dice.expression import parse_expression

    return parse_expression("4dF+3"), parse_expression("4dF+2")


def _decl(state: Any, action: Action) -> Any:
    from konflikt.rulesets.presja.game import decl_of

    return decl_of(state, action)


def _refusal(call: Any) -> str:
    try:
        call()
    except KonfliktError as exc:
        return str(exc)
    raise AssertionError("not refused")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_bundled_fight_reads_in_the_language(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails on a message without a translation (the strict catalog raises) or an English word in a Swedish, Danish
    or Polish text."""
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "presja")
    rng = np.random.default_rng(46)
    texts: dict[str, frozenset[str]] = {}
    with speaking(language):
        for name in SCENARIOS:
            for run, options in enumerate(OPTIONS):
                for seed in range(2):
                    scenario = load_scenario(name)
                    state = new_state(scenario, options)
                    assert isinstance(state, PresjaState)
                    typed: set[str] = set()
                    goal_at = 12 if (run, seed) == (0, 1) else None
                    goals = [goal for _name, goal in state.goal_sides().values() if goal]
                    sides = [name for name, _goal in state.goal_sides().values()]
                    fight = list(texts_of_a_fight(state, rng, goal_at, typed))
                    names = proper_names(state) | typed
                    for text in [scenario.title, scenario.description, *goals, *sides, *fight]:
                        texts.setdefault(text, names)
        for text in texts_beside_the_fight():
            texts.setdefault(
                text, PROPER | {"presja", "attack", "defense", "weapon", "armor", "offensive", "wild", "base_track"}
            )
    if language == "en":
        return
    found = [(text, words) for text, names in texts.items() if (words := english_words(text, language, names))]
    assert not found, found[:10]


def test_the_bilingual_register_reads_as_before() -> None:
    """``both`` is konflikt's voice before the catalogs, word for word."""
    with speaking("both"):
        scenario = load_scenario("presja/knife_fight")
        assert localized(scenario.title) == "Walka na noże (knife fight): Belzee vs Massimo"
        state = new_state(scenario, {})
        assert isinstance(state, PresjaState)
        texts = [e.text for e in state.history()]
        assert texts[0] == (
            "Aspekty sytuacyjne (situation aspects): Stół pod ręką (a table at hand); Śliskie od krwi deski "
            "(floorboards slick with blood)"
        )
        assert state.status()["belzee"]["Punkty Losu (fate points)"] == "3"
        assert state.describe_action(GM, Action.of("order", first="belzee")) == (
            "belzee acts next (MG decides the order of action)"
        )


def test_the_kernels_fate_words_follow_the_language_in_use() -> None:
    """The kernel keeps each fate's words once written: per language, so a kernel that labelled fates in Swedish
    (a table at a Swedish seat) labels them in the bilingual register afterwards, as the reference does."""
    from konflikt.rulesets.presja.kernel_labels import Labeller

    state = new_state(load_scenario("presja/knife_fight"), {})
    assert isinstance(state, PresjaState)
    labels = Labeller(state, (0, 1))
    with speaking("sv"):
        swedish = labels.fate(0, 1)
    with speaking("both"):
        bilingual = labels.fate(0, 1)
    assert swedish != bilingual and bilingual.startswith("taken out")
