"""Text from a scenario, a character or a rule reaches the terminal as written: ``[x1]`` prints as ``[x1]``.

Every command prints through ``cli.render.plain_console`` (no markup); this feeds brackets that Rich would read as
markup (or fail on: ``[/b]``) through the commands that print names, titles and tracks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from konflikt.core.scenario import bundled_examples
from tests.conftest import Result
from tests.languages import with_title

NAME = "Jan [the Bold] [/b] [x1]"
TITLE = "[/b] Bar [bold]x[/bold]"


def bracketed_knife_fight(tmp_path: Path) -> Path:
    text = (bundled_examples() / "presja" / "knife_fight.toml").read_text(encoding="utf-8")
    text = text.replace('name = "Belzee"', f'name = "{NAME}"', 1)
    text = with_title(text, f'"{TITLE}"')
    path = tmp_path / "bracketed.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_run_prints_names_titles_and_tracks_as_written(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("run", str(bracketed_knife_fight(tmp_path)), "--seed", "1")
    assert result.code == 0, result.err
    assert NAME in result.out and TITLE in result.out
    assert "[x1]" in result.out.replace(NAME, "")  # a marked box of the Tor Presji, not only the name


def test_sim_prints_names_as_written(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("sim", str(bracketed_knife_fight(tmp_path)), "-n", "200", "--seed", "1")
    assert result.code == 0, result.err
    assert "[the Bold]" in result.out


def test_rules_prints_source_words_with_brackets_as_written(cli: Callable[..., Result]) -> None:
    result = cli("rules", "levald")
    assert result.code == 0, result.err
    assert "levald — Le våld" in result.out


def test_play_saves_and_odds_print_names_and_titles_as_written(cli: Callable[..., Result], tmp_path: Path) -> None:
    """The table (``play``), the list of saves and the exact odds of a scenario: each prints the bracketed name or
    title as written (Rich markup would drop ``[the Bold]`` and fail on ``[/b]``)."""
    scenario, db = str(bracketed_knife_fight(tmp_path)), str(tmp_path / "k.sqlite")
    played = cli("play", scenario, "--seed", "1", "--db", db)
    assert played.code == 0, played.err
    assert NAME in played.out and "[x1]" in played.out.replace(NAME, "")
    saves = cli("saves", "--db", db)
    assert saves.code == 0 and "[/b] Bar" in saves.out, saves.err
    odds = cli("odds", scenario)
    assert odds.code == 0 and "Jan [the Bold]" in odds.out, odds.err


def test_a_name_holding_an_id_prints_once(
    cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table names the ids in its cells; a cell that already holds a name whose words include an id (Zorak's
    side ``pirater``, "Zoraks pirater (Zorak's pirates)") prints as written, not with the id named inside it."""
    monkeypatch.setenv("COLUMNS", "200")  # each row of the table on one line
    played = cli("play", "pwge/duel", "--seed", "1", "--db", str(tmp_path / "k.sqlite"))
    assert played.code == 0, played.err
    side_row = next(line for line in played.out.splitlines() if re.match(r"│ side +│", line))
    assert "Zoraks pirater (Zorak's" in side_row and "Zoraks Zoraks" not in side_row
