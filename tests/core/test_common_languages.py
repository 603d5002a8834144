"""The shared engine (the ``common`` catalog) in each language: no catalog miss, no English word in sv/da/pl."""

from __future__ import annotations

import io
import tomllib
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from konflikt.analysis.advice import advise
from konflikt.analysis.questions import whole_conflict_answer
from konflikt.core.actions import Action
from konflikt.core.campaign import Rest
from konflikt.core.conflict import Conflict, new_state, parse_json
from konflikt.core.i18n import speaking
from konflikt.core.odds import OddsParam, OddsQuestion, percent_text
from konflikt.core.options import OptionSet, RuleOption, parse_assignments
from konflikt.core.overrides import parse_settings
from konflikt.core.ruleset import get_ruleset
from konflikt.core.scenario import bundled_examples, find_scenario, load_scenario, read_toml, scenario_from_document
from konflikt.core.stakes import default_stakes
from konflikt.dice import Fudge, Percentile, SuccessPool, SumDice, parse_dice
from konflikt.errors import KonfliktError
from konflikt.reports import find_report
from konflikt.reports.choices import print_choices
from konflikt.reports.figures import report_caption
from konflikt.reports.ladder import figure as ladder_figure
from konflikt.reports.ladder import print_report as print_ladder
from konflikt.reports.round_robin import figure as round_robin_figure
from konflikt.reports.round_robin import print_report as print_round_robin
from konflikt.reports.strong import print_strong
from konflikt.sim.engine import capped_workers, check_count, choose_engine
from konflikt.sim.header import caption, make_folder_for, writable_file
from konflikt.sim.sweep import set_path
from konflikt.store import library
from konflikt.store.db import Store
from tests.core.toy import DOCUMENT
from tests.languages import english_words


@pytest.mark.parametrize(
    ("language", "eighth", "tiny", "almost"),
    [
        ("both", "12.50%", "<0.01%", ">99.99%"),
        ("en", "12.50%", "<0.01%", ">99.99%"),
        ("sv", "12,50\u00a0%", "<0,01\u00a0%", ">99,99\u00a0%"),
        ("da", "12,50\u00a0%", "<0,01\u00a0%", ">99,99\u00a0%"),
        ("pl", "12,50\u00a0%", "<0,01\u00a0%", ">99,99\u00a0%"),
    ],
)
def test_a_chance_is_written_the_languages_way(language: str, eighth: str, tiny: str, almost: str) -> None:
    with speaking(language):
        assert percent_text(Fraction(1, 8)) == eighth
        assert percent_text(1e-6) == tiny
        assert percent_text(1 - 1e-6) == almost
        assert percent_text(Fraction(1)) == ("100.00%" if language in ("en", "both") else "100,00\u00a0%")
        assert percent_text(0) == ("0.00%" if language in ("en", "both") else "0,00\u00a0%")


LANGUAGES = ("sv", "da", "pl", "en")
NAMES = frozenset({"konflikt", "toml", "json", "utf", "gm", "human", "apply", "actions", "true", "false"})
"""Words that stay as they are in every language: the program's name, formats, identifiers a user types."""


def refusal(call: Callable[[], object]) -> str:
    """The message of the KonfliktError (or ValueError) ``call`` raises."""
    try:
        call()
    except (KonfliktError, ValueError) as exc:
        return str(exc)
    raise AssertionError("no refusal")


DANISH = frozenset({"end", "her", "have", "chance"})
"""Danish words (than, here, have, chance) that ``tests.languages.ENGLISH_WORDS`` counts as English."""


def assert_spoken(texts: list[str], language: str, names: frozenset[str] = NAMES) -> None:
    assert all(texts), texts
    if language == "en":
        return
    if language == "da":
        names = names | DANISH
    for text in texts:
        assert not english_words(text, language, names), (text, english_words(text, language, names))


def core_refusals(tmp_path: Path) -> list[str]:
    """The main refusals of scenario files, conflict files, options, actions and odds questions."""
    duel = tomllib.loads(Path(str(bundled_examples() / "levald" / "duel.toml")).read_text(encoding="utf-8"))
    wrong_seed = {**duel, "seed": "abc"}
    extra = {**duel, "colour": 3, "seed": -1}
    twice = {**duel, "sides": [duel["sides"][0], duel["sides"][0]]}
    folder = tmp_path / "folder.toml"
    folder.mkdir(exist_ok=True)
    broken = tmp_path / "broken.toml"
    broken.write_text("title = ", encoding="utf-8")
    option = RuleOption("rounds", int, 3, "rounds", minimum=1, maximum=9)
    choice = RuleOption("stance", str, "low", "stance", choices=("low", "high"))
    flag = RuleOption("open", bool, False, "open")
    question = OddsQuestion("exchange", "doc", (OddsParam("attack", int, 0, "dice", required=True),), lambda **_: None)
    return [
        refusal(lambda: scenario_from_document(wrong_seed, "duel.toml")),
        refusal(lambda: scenario_from_document(extra, "duel.toml")),
        refusal(lambda: scenario_from_document(twice, "duel.toml")),
        refusal(lambda: scenario_from_document({**duel, "ruleset": "nix"}, "duel.toml")),
        refusal(lambda: find_scenario("nix/nada")),
        refusal(lambda: read_toml(folder)),
        refusal(lambda: read_toml(broken)),
        refusal(lambda: read_toml(tmp_path / "gone.toml")),
        refusal(lambda: parse_json("[", "save.json")),
        refusal(lambda: Conflict.from_json({"format": "x"}, "save.json")),
        refusal(lambda: option.coerce(12)),
        refusal(lambda: option.coerce(0)),
        refusal(lambda: option.coerce("x")),
        refusal(lambda: choice.coerce("mid")),
        refusal(lambda: flag.coerce("maybe")),
        refusal(lambda: OptionSet(option).resolve({"nix": 1})),
        refusal(lambda: parse_assignments(["nix"])),
        refusal(lambda: Action.parse("attack target")),
        refusal(lambda: Action.parse("")),
        refusal(lambda: question.ask({"defence": "1"})),
        refusal(lambda: question.ask({})),
        refusal(lambda: question.ask({"attack": "x"})),
        refusal(lambda: get_ruleset("nix")),
        refusal(lambda: parse_settings(["hedda"])),
        refusal(lambda: parse_settings(["a..b=1"])),
        refusal(lambda: parse_settings(["a=[x, y]"])),
        refusal(lambda: load_scenario("levald/duel", settings=["hedda.kraftt=14"])),
        refusal(lambda: load_scenario("levald/duel", settings=["nix=1"])),
        refusal(lambda: load_scenario("levald/duel", settings=["hedda=1"])),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cores_refusals_speak_the_language(language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "common")
    monkeypatch.chdir(tmp_path)
    with speaking(language):
        texts = core_refusals(Path("."))
    inputs = "duel nix nada folder broken gone save attack target stance open rounds exchange low high mid maybe abc"
    inputs += " hedda kraft kraftt levald x y a b path value"
    assert_spoken(texts, language, NAMES | set(inputs.split()) | {"defence", "dice", "snurres", "conflict"})


def test_both_reads_as_before(tmp_path: Path) -> None:
    with speaking("both"):
        texts = core_refusals(tmp_path)
    assert texts[0] == "duel.toml: seed = 'abc': input should be a valid integer"
    assert texts[10] == "option 'rounds' must be at most 9, not 12"


def engine_texts() -> list[str]:
    """The State API's own events and refusals, the dice's words at the table, the stakes and the advice."""
    scenario = scenario_from_document(DOCUMENT, "toy.toml")
    state = new_state(scenario)
    texts = [advise(scenario, state, "ada", iterations=8).note]
    state.apply_actions({"ada": Action.of("guard")})
    texts += [e.text for e in state.history() if e.kind in ("secret", "secret_made")]
    texts += [
        refusal(lambda: state.apply_actions({"ada": Action.of("strike")})),
        refusal(lambda: state.apply_action(Action.of("strike"))),
        refusal(lambda: state.correct("ada", "points", 1, "slip")),
        refusal(lambda: state.declare_goal("west")),
        refusal(lambda: state.outcome()),
        state.why_illegal("bo", Action.of("flee")),
        state.ending_words("goal_reached"),
        advise(scenario, state, "ada").note,
    ]
    pool, d100 = SuccessPool(3), Percentile()
    texts += [pool.describe((2, 1)), pool.describe((1, 0)), pool.table_hint(), d100.describe(47), d100.table_hint()]
    texts += [SumDice(2, 6).table_hint(), Fudge(4).table_hint(), parse_dice("4d6kh3").table_hint()]
    texts += [label for label, _p in default_stakes(pool, ones=True, need=4)]
    toy = scenario_from_document(DOCUMENT, "toy.toml")
    opening = new_state(toy)
    seats = {"ada": toy.ruleset.policy("random"), "bo": toy.ruleset.policy("random")}
    for exact in (True, False):
        answer = whole_conflict_answer(toy, opening, seats, exact=exact)
        texts += [answer.title, answer.label, *answer.notes, *answer.words.values()]
    texts.append(refusal(lambda: whole_conflict_answer(toy, opening, {**seats, "bo": None})))
    texts += [
        refusal(lambda: SumDice(2, 6).parse("1 2 3")),
        refusal(lambda: Fudge(4).parse("+ +")),
        refusal(lambda: pool.parse("7")),
        refusal(lambda: d100.parse("abc")),
        refusal(lambda: d100.coerce(0)),
        refusal(lambda: parse_dice("")),
        refusal(lambda: parse_dice("3d")),
        refusal(lambda: parse_dice("300d6")),
        *(refusal(lambda e=e: parse_dice(e)) for e in ("4d6kh5", "d{1,2", "3d6 vs 2d6 vs 1d6", "max(2d6)", "4d6x")),
        refusal(lambda: parse_dice("3d6 vs 2d6").parse("x")),
        parse_dice("3d6 vs 2d6").table_hint(),
    ]
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_engine_speaks_the_language(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "common")
    with speaking(language):
        texts = engine_texts()
    names = {"ada", "bo", "west", "strike", "guard", "flee", "points", "slip", "toy", "duel", "random", "heuristic"}
    names |= {"vs", "max", "kh", "x"}
    assert_spoken(texts, language, NAMES | names | {"policy", "seat", "state", "api"})


def test_the_engine_reads_as_before_in_both() -> None:
    with speaking("both"):
        texts = engine_texts()
    assert "ada chose guard (secret)" in texts
    assert "47 (effect 11)" in texts
    assert "2 successes, 1×1" in texts


def sim_texts(folder: Path) -> list[str]:
    """The simulation's caption, notes and refusals."""
    toy = scenario_from_document(DOCUMENT, "toy.toml")
    header = {"scenario": "toy.toml", "digest": "ab12", "n": 1000, "seed": 1, "engine": "reference", "konflikt": "1"}
    (folder / "block").write_text("", encoding="utf-8")
    texts = [caption(header), choose_engine(toy, {}, {}, "auto")[2], choose_engine(toy, {}, {}, "reference")[2]]
    texts += [capped_workers(10_000)[1] or ""]
    texts += [
        refusal(lambda: check_count(2**60)),
        refusal(lambda: choose_engine(toy, {}, {}, "fast")),
        refusal(lambda: choose_engine(toy, {}, {}, "vectorised")),
        refusal(lambda: make_folder_for(folder / "block" / "out.csv")),
        refusal(lambda: writable_file(folder)),
        refusal(lambda: set_path({"sides": []}, "sides[2].name", "x")),
        refusal(lambda: set_path({"a": 1}, "a.b", "x")),
    ]
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_simulation_speaks_the_language(language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "common")
    monkeypatch.chdir(tmp_path)
    with speaking(language):
        texts = sim_texts(Path("."))
    names = {"toy", "ab", "reference", "auto", "vectorised", "fast", "block", "out", "csv", "sides", "name", "wilson"}
    assert_spoken(texts, language, NAMES | names | {"state", "api", "workers", "engine", "toy"})


def store_texts(folder: Path) -> list[str]:
    """The save database's and the character library's refusals."""
    (folder / "notes.db").write_text("not a database at all, only words", encoding="utf-8")
    (folder / "saves").mkdir(exist_ok=True)
    texts = [
        refusal(lambda: Store.open(folder / "saves")),
        refusal(lambda: Store.open(folder / "notes.db")),
        refusal(lambda: Store.open(folder / "none.db", create=False)),
        refusal(lambda: library.check_name("Bad Name")),
        refusal(lambda: library.check_name("Bad Name", library.N_("a campaign name"))),
    ]
    store = Store.open(folder / "konflikt.db")
    try:
        texts += [
            refusal(lambda: store.load(7)),
            refusal(lambda: library.get(store.conn, "saga", "budolf")),
            refusal(lambda: library.rest(store.conn, "saga", Rest(1, "days"))),
        ]
    finally:
        store.close()
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_store_speaks_the_language(language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "common")
    monkeypatch.chdir(tmp_path)
    with speaking(language):
        texts = store_texts(Path("."))
    names = {"saves", "notes", "db", "none", "bad", "name", "saga", "budolf", "sir", "rudolf", "konflikt", "chars"}
    assert_spoken(texts, language, NAMES | names | {"add", "campaign", "sqlite"})


def report_texts() -> list[str]:
    """The choices report's tables and lines, and a report asked for that does not exist."""
    from rich.console import Console

    row = {"kind": "stance", "option": "guard", "share": 0.25, "alternative_cost_pp": 1.5}
    rollout_row = {**row, "share_se": 0.01, "heuristic_share": 0.5, "alternative_cost_se_pp": 0.2}
    concede = {
        "right_share": 0.5,
        "cost_elsewhere_pp": 2.0,
        "note": "x",
        "states": [{"seat": "ada", "where": "r1", "reach": 0.5}],
    }
    data = {
        "scenarios": [
            {"method": "optimal", "title": "Toy duel", "rows": [row], "scope": "s", "concede": concede},
            {
                "method": "rollout",
                "title": "Toy duel",
                "rows": [rollout_row],
                "scope": "s",
                "decisions": {"stance": 4},
                "gain_pp": {"stance": {"mean": 1.0, "se": 0.5}},
                "seconds": 3.0,
            },
        ]
    }
    console = Console(width=400, record=True, color_system=None, file=io.StringIO())
    print_choices(data, console)
    rating = {"share_vs_baseline": 0.5, "share_se": 0.01, "duels_vs_baseline": 4, "rating": 0.0}
    rating |= {"p_beats_baseline": 0.5, "p_low": 0.4, "p_high": 0.6}
    mirror = {"share_a": 0.5, "se": 0.01}
    entrants = [
        {"name": "Spjut", "english": "spear", "reference": 3},
        {"name": "Yxa", "english": "axe", "reference": 2},
    ]
    robin = {
        "title": "Vapen",
        "n": 10,
        "seed": 1,
        "levels": [60],
        "level_unit": "%",
        "entrant_word": "vapen",
        "reference_name": "Bra",
        "baseline": "Spjut",
        "entrants": entrants,
        "engines": ["reference"],
        "by_level": {
            60: {
                "ratings": {"Spjut": rating | {"duels_vs_baseline": 0}, "Yxa": rating},
                "mirrors": {"Spjut": mirror, "Yxa": mirror},
                "spearman": 0.5,
            }
        },
    }
    print_round_robin(robin, console)
    strong = {
        "policy": "rollout:8",
        "n": 4,
        "by_level": {60: {"Spjut": {"heuristic_share": 0.5, "heuristic_se": 0.1, "share": 0.5, "se": 0.1}}},
    }
    print_strong(robin, strong, console)
    row = {"name": "Rövare", "method": "exact", "p_win": 0.5, "p_win_low": 0.4, "p_win_high": 0.6, "kamp": 3}
    row |= {"p_victory": 0.5, "consequences_budolf": 1.0, "p_death_budolf": 0.1, "consequences_opponent": 2.0}
    ladder = {
        "title": "Fiender",
        "n": 1000,
        "seed": 1,
        "numbers": ["kamp"],
        "heroes": ["budolf"],
        "names": {"budolf": "Budolf"},
        "endings": {"victory": "sejr"},
        "rows": [row],
    }
    print_ladder(ladder, console)
    header = {"scenario": "duel.toml", "options": {}, "policies": {"a": "heuristic", "b": "heuristic"}, "n": 1000}
    header |= {"seed": 1, "engine": "kernel", "konflikt": "1", "command": "report levald-weapons"}
    robin |= {"level_name": "Bra", "level_unit": "%"}
    row |= {"bundled": False, "level": 3, "consequences_budolf_se": 0.1, "consequences_opponent_se": 0.1}
    ladder |= {"level_words": "kamp"}
    texts = [console.export_text(), refusal(lambda: find_report("nix-nada")), report_caption(header, "x")]
    for fig in (round_robin_figure(robin), ladder_figure(ladder)):
        texts += [t.get_text() for t in fig.texts]
        for ax in fig.axes:
            texts += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
            legend = ax.get_legend()
            texts += [t.get_text() for t in legend.get_texts()] if legend is not None else []
    return [t for t in texts if t]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_reports_speak_the_language(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "common")
    with speaking(language):
        texts = report_texts()
    names = {"toy", "duel", "stance", "guard", "ada", "nix", "nada", "cpu", "levald", "weapons", "presja", "choices"}
    names |= {"spjut", "yxa", "vapen", "bra", "rollout", "reference", "budolf", "kamp", "sejr", "fiender", "rövare"}
    names |= {"bradley", "terry", "spearman", "csv", "json", "konflikt", "report", "help", "docs", "search", "md"}
    names |= {"heuristic", "kernel", "toml"}
    assert_spoken(texts, language, NAMES | names | {"fimbulfrost", "opponents", "pwge", "pp", "p"})
