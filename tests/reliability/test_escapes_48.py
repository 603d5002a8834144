"""No text from a file reaches a terminal raw (issue 48, 5): a title or name holding ``\\x1b]2;…\\x07\\x1b[2J`` (set
the window's title, clear the screen) is printed by ``saves``, ``chars``, ``chars show``, ``chars export`` and the
narration of ``run`` and ``play`` with its control characters shown as escapes."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from konflikt.core.scenario import bundled_examples
from konflikt.safe_text import shown
from tests.conftest import Result

HOSTILE = "\\u001b]2;pwned\\u0007\\u001b[2J\\u009b31m\\u202e"
"""As a TOML file spells it."""
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]")


def clean(text: str) -> bool:
    return RAW.search(text) is None


def test_shown_writes_every_control_character_as_an_escape() -> None:
    assert shown("a\x1b]2;x\x07\x1b[2J\tb\nc\x9b\u202e") == "a\\x1b]2;x\\x07\\x1b[2J\tb\nc\\x9b\\u202e"
    assert shown("a\nb", newlines=False) == "a\\x0ab"
    assert shown("lone \ud800") == "lone \\ud800"
    assert shown("Zażółć gęślą jaźń, Omdømme, Tvekamp vid bron") == "Zażółć gęślą jaźń, Omdømme, Tvekamp vid bron"


def test_titles_and_names_never_reach_the_terminal_raw(cli: Callable[..., Result], tmp_path: Path) -> None:
    duel = (bundled_examples() / "levald" / "duel.toml").read_text()
    hostile = duel.replace('title = "Tvekamp vid bron (a duel at the bridge)"', f'title = "Tvekamp{HOSTILE}"')
    hostile = hostile.replace('name = "Snurre"', f'name = "Snurre{HOSTILE}"')
    assert hostile.count(HOSTILE) == 2
    scenario = tmp_path / "duel.toml"
    scenario.write_text(hostile)
    db = str(tmp_path / "k.sqlite")

    ran = cli("run", str(scenario), "--seed", "1")
    assert ran.code == 0, ran.err
    assert clean(ran.out) and "Tvekamp\\x1b]2;pwned" in ran.out and "\\x1b[2J\\x9b31m\\u202e" in ran.out
    played = cli("play", str(scenario), "--seed", "1", "--db", db)
    assert played.code == 0, played.err
    assert clean(played.out) and "\\x1b]2;pwned" in played.out
    listed = cli("saves", "--db", db)
    assert listed.code == 0 and clean(listed.out) and "\\x1b" in listed.out

    character = tmp_path / "budolf.toml"
    character.write_text(f'ruleset = "fimbulfrost"\nname = "Budolf{HOSTILE}"\nrole = "hero"\nomdomme = 4\nstatus = 6\n')
    added = cli("chars", "add", str(character), "--db", db)
    assert added.code == 0, added.err
    for args in (("chars",), ("chars", "show", "budolf"), ("chars", "export", "budolf")):
        result = cli(*args, "--db", db)
        assert result.code == 0, result.err
        assert clean(result.out), (args, result.out)
        assert "Budolf\\x1b]2;pwned" in result.out or "Budolf\\u001b]2;pwned" in result.out, (args, result.out)
    exported = tmp_path / "again.toml"
    assert cli("chars", "export", "budolf", "--db", db, "--out", str(exported)).code == 0
    assert cli("chars", "add", str(exported), "--name", "budolf2", "--db", db).code == 0  # the same name, read back
    shown_again = cli("chars", "show", "budolf2", "--db", db, "--json")
    assert '"name": "Budolf\\u001b]2;pwned' in shown_again.out
