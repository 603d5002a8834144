"""The character library refuses nonsense in one line (issue 48, 8 and 9): names with a newline, invalid bytes on
the command line, a second line in ``--set``, ``true`` for a number, and a row holding a malformed delayed effect."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result, refused_in_one_line


@pytest.fixture
def db(cli: Callable[..., Result], tmp_path: Path) -> str:
    path = str(tmp_path / "k.sqlite")
    assert cli("chars", "add", "builtin:budolf", "--ruleset", "fimbulfrost", "--db", path).code == 0
    return path


def test_names_with_a_newline_or_a_nul_are_not_names(cli: Callable[..., Result], db: str) -> None:
    for name in ("budolf\n", "bu\x00dolf", "budolf\r"):
        refused_in_one_line(
            cli("chars", "add", "builtin:budolf", "--ruleset", "fimbulfrost", "--name", name, "--db", db), "is not"
        )
        refused_in_one_line(cli("chars", "--campaign", name, "--db", db), "is not a campaign name")
    listed = cli("chars", "--db", db, "--json")
    assert listed.out.count('"name"') == 1


def test_set_takes_one_line_numbers_not_booleans_and_valid_text(cli: Callable[..., Result], db: str) -> None:
    refused_in_one_line(cli("chars", "edit", "budolf", "--set", "omdomme=3\nstatus=60", "--db", db), "one path=value")
    refused_in_one_line(
        cli("chars", "edit", "budolf", "--set", "omdomme=true", "--db", db), "omdomme = true", "a number"
    )
    invalid = b"Bu\xffdolf".decode("utf-8", "surrogateescape")  # as Python reads invalid bytes from argv
    refused_in_one_line(
        cli("chars", "edit", "budolf", "--set", f"name={invalid}", "--db", db), "name", "not valid UTF-8"
    )
    shown = cli("chars", "show", "budolf", "--db", db, "--json")
    assert '"omdomme": 4' in shown.out and '"status": 6' in shown.out


def test_a_malformed_delayed_effect_is_damage_in_one_line(cli: Callable[..., Result], db: str) -> None:
    conn = sqlite3.connect(db)
    conn.execute("""UPDATE characters SET pending = '[{"days": 3}]' WHERE name = 'budolf'""")
    conn.commit()
    conn.close()
    for args in (("chars", "show", "budolf"), ("campaign", "rest", "--days", "1"), ("chars",)):
        refused_in_one_line(cli(*args, "--db", db), "damaged character 'budolf'")
    played = cli("run", "fimbulfrost/robbers", "--campaign", "default", "--db", db, "-q")
    refused_in_one_line(played, "damaged character 'budolf'")
