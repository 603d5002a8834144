"""The command line speaks Swedish, Danish, Polish and English: ``konflikt --lang L run`` of a scenario of each
ruleset, a scripted ``konflikt --lang L play`` session (help, state, a wrong word, a number off the list, undo, save,
then choices and dice typed to the end), ``odds``, ``sim`` and the refusals, with the ``cli`` catalog strict (a missing
translation raises), and no English word in any message of the ``cli`` catalog printed in a Swedish, Danish or Polish
run. The texts the rulesets and the engine put into those messages (events, status, choices) are their catalogs'
and their own tests'."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from konflikt.cli.i18n import CATALOG
from konflikt.core import i18n
from konflikt.core.i18n import MissingTranslation
from konflikt.core.state import GM
from tests.conftest import Result
from tests.languages import english_words

LANGUAGES = ("sv", "da", "pl", "en")
RUNS = ("levald/duel", "presja/knife_fight", "fimbulfrost/robbers", "pwge/duel")
"""One scenario of each ruleset (the CLI's messages are the same for every scenario of a ruleset)."""
PROPER = frozenset(["konflikt", "gm", "auto", "table", "human", "mcts", "odds", "quality", "by", "vs", "db", "csv"])
"""Words of the CLI's messages that are typed as they are in every language: the program's name, options and their
values (``--dice table``, ``--policy SEAT=human``, ``A vs B by quality``), the GM's seat id."""
ALSO_NATIVE = {"da": frozenset({"her", "have", "end", "chance"})}
"""Danish words that ``tests.languages`` counts as English (here, to have, than, chance); to move there."""
IDENTIFIERS = re.compile(r"\{[a-z_]+\}|--?[a-z][a-z-]*|\b\w+\.[\w.]+|'konflikt [^']*'|\$[A-Z_]+|[A-Z_]+=\S+")
"""Placeholders, options (``--from-step``), dotted keys (``play.seats``), commands quoted whole (``'konflikt roll
3d6 --times 10000'``) and settings (``KONFLIKT_DEBUG=1``): typed as they are in every language."""


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every message of the ``cli`` catalog looked up while the test runs, as the language writes it (the template,
    before its fields are filled in: the fields are names, numbers and the other catalogs' texts)."""
    templates: list[str] = []
    real = i18n._filled

    def recording(text: str, fields: dict[str, Any]) -> str:
        caller = sys._getframe(1).f_locals.get("self")
        if caller is CATALOG:
            templates.append(text)
        return real(text, fields)

    monkeypatch.setattr(i18n, "_filled", recording)
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "cli")
    yield templates


def english_in(templates: list[str], language: str) -> list[tuple[str, list[str]]]:
    """The templates that hold English words (placeholders aside), each with its words."""
    found = []
    for template in dict.fromkeys(templates):
        words = english_words(IDENTIFIERS.sub(" ", template), language, PROPER | ALSO_NATIVE.get(language, set()))
        if words:
            found.append((template, words))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scenario", RUNS)
def test_run_speaks_the_language(cli: Callable[..., Result], said: list[str], language: str, scenario: str) -> None:
    result = cli("--lang", language, "run", scenario, "--seed", "1")
    assert result.code == 0, result.err
    assert "MissingTranslation" not in result.err
    with i18n.speaking(language):
        seed_line = CATALOG.gettext("seed {seed}", seed=1)
        after = CATALOG.gettext("After the conflict")
    assert seed_line in result.out and after in result.out
    assert said, "the run printed no message of the cli catalog"
    if language != "en":
        assert english_in(said, language) == []


def typed(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    """What is typed at the prompts (then the input ends, as Ctrl-D does)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


OPENING = ["help", "hjälp", "state", "läge", "more", "99", "xyzzy", "correct", "declare", "save", "undo", "undo x"]
"""Commands in English and in Swedish, a number off the list, a word of no choice, and the commands that list."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_session_at_the_table_speaks_the_language(
    cli: Callable[..., Result], said: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, language: str
) -> None:
    from konflikt.cli import table as table_module

    # the answers 'odds' and 'advise' would give are prepared beside the table: not asked here, and seconds of work
    monkeypatch.setattr(table_module, "prepare", lambda *args, **kwargs: None)
    monkeypatch.setattr(table_module, "prepared", lambda *args, **kwargs: None)
    db = str(tmp_path / "saves.sqlite")
    typed(monkeypatch, [*OPENING, *["1"] * 120])
    played = cli("--lang", language, "play", "levald/duel", "--policy", "snurre=human", "--seed", "2", "--db", db)
    assert played.code == 0, played.err
    typed(monkeypatch, [*OPENING, *["1"] * 6])  # dice typed at the table, and a stop before the end
    table = cli(
        "--lang", language, "play", "presja/knife_fight", "--policy", "belzee=human", "--dice", "table",
        "--seed", "2", "--db", db,
    )  # fmt: skip
    assert table.code == 0, table.err
    listed = cli("--lang", language, "saves", "--db", db)
    refused = [
        cli("--lang", language, "play", "--db", db),
        cli("--lang", language, "play", "levald/duel", "--dice", "maybe", "--db", db),
        cli("--lang", language, "run", "levald/dul"),
        cli("--lang", language, "run", "levald/duel", "--policy", "nobody=human"),
        cli("--lang", language, "run", "levald/duel", "--seed", "-1"),
    ]
    assert all(r.code == 2 and len(r.err.strip().splitlines()) == 1 for r in refused), [r.err for r in refused]
    with i18n.speaking(language):
        now = CATALOG.gettext("Now")
        stopped = CATALOG.gettext("konflikt: error: {message}", message="")
    assert now in played.out and now in table.out
    assert all(r.err.startswith(stopped) for r in refused)
    assert listed.out.strip()
    if language != "en":
        assert english_in(said, language) == []


@pytest.mark.parametrize("language", ("sv", "da", "pl"))
def test_odds_and_sim_speak_the_language(cli: Callable[..., Result], said: list[str], language: str) -> None:
    for args in (
        ("odds", "fimbulfrost/robbers"),
        ("odds", "2d6 vs 2d6"),
        ("odds", "6d6 pool"),
        ("sim", "presja/knife_fight", "-n", "200", "--seed", "1"),
    ):
        result = cli("--lang", language, *args)
        assert result.code == 0, (args, result.err)
    assert english_in(said, language) == []


def test_every_message_has_a_translation_in_each_language() -> None:
    """The catalogs themselves: every message translated (so a path the tests above do not reach cannot miss) and
    no English word in any Swedish, Danish or Polish message."""
    for language in ("sv", "da", "pl"):
        catalog = CATALOG.translations(language)
        assert catalog is not None
        entries = catalog._catalog.items()  # type: ignore[attr-defined]
        texts = [text for key, text in entries if key and isinstance(text, str)]  # the header's key is ""
        assert english_in(texts, language) == [], language


def test_a_message_missing_in_the_catalog_raises_under_the_strict_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "cli")
    with i18n.speaking("sv"), pytest.raises(MissingTranslation):
        CATALOG.gettext("a message no catalog has")


def test_both_reads_as_before(cli: Callable[..., Result]) -> None:
    """The bilingual register keeps the English lines the tool printed before it had catalogs."""
    result = cli("--lang", "both", "run", "levald/duel", "--seed", "1")
    assert "\nseed 1" in result.out.replace("│ ", "\n") and "After the conflict" in result.out
    assert "side Snurre: Snurre (heuristic) — goal:" in result.out
    from konflikt.cli.prompts import seat_label

    with i18n.speaking("both"):
        assert seat_label(None, GM) == "the GM (prowadzący / spelledare / spilleder)"  # type: ignore[arg-type]


@pytest.mark.parametrize("language", ("sv", "da", "pl"))
def test_the_odds_summary_reads_each_language_s_fates_alike(cli: Callable[..., Result], language: str) -> None:
    """Who is out of the fight and who dies is read from the fate's words: the same numbers in every language."""

    def numbers(text: str) -> list[str]:
        return [n.replace(",", ".") for n in re.findall(r"\d+[.,]\d+", text)]

    for scenario in ("fimbulfrost/dragon", "presja/knife_fight"):
        both = cli("--lang", "both", "odds", scenario)
        spoken = cli("--lang", language, "odds", scenario)
        assert both.code == spoken.code == 0, spoken.err
        assert numbers(spoken.out) == numbers(both.out), (scenario, spoken.out, both.out)
