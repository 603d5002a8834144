"""The character library in the save database: the schema migration from version 2, and ``konflikt chars``."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from konflikt.store.db import SCHEMA_VERSION, Store
from tests.campaign.helpers import character_file, documents, history_kinds
from tests.conftest import Result

SAVED_BY_MAIN = Path(__file__).parent / "data" / "main_v2.sqlite"
"""Made by konflikt at schema version 2 (``konflikt play fimbulfrost/robbers --seed 3``, ``levald/duel --seed 2``)."""


def version(db: Path) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def test_a_version_2_save_is_migrated_on_the_first_write_and_its_conflicts_load(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copy(SAVED_BY_MAIN, db)
    assert version(db) == 2
    with_old = Store.open(db, readonly=True)
    try:
        before = [(row.id, row.steps, row.outcome) for row in with_old.list()]
        steps = with_old.load(2).conflict.steps
    finally:
        with_old.close()
    assert version(db) == 2, "a read-only open changes nothing"
    store = Store.open(db)
    try:
        assert version(db) == SCHEMA_VERSION == 4
        assert [(row.id, row.steps, row.outcome) for row in store.list()] == before
        assert store.load(2).conflict.steps == steps
        assert store.load(1).conflict.replay().is_terminal()
    finally:
        store.close()
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()
    assert {"campaigns", "characters", "history", "campaign_conflicts", "sessions"} <= tables


def test_chars_reads_a_version_2_save_without_touching_it(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copy(SAVED_BY_MAIN, db)
    before = db.read_bytes()
    result = cli("chars", "--db", str(db), "--json")
    assert result.code == 0 and json.loads(result.out) == []
    assert db.read_bytes() == before


def test_chars_add_show_export_edit_delete(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = str(tmp_path / "c.sqlite")
    added = cli("chars", "add", str(character_file("fimbulfrost", "budolf")), "--ruleset", "fimbulfrost", "--db", db)
    assert added.code == 0, added.err
    listed = json.loads(cli("chars", "--db", db, "--json").out)
    assert [(row["name"], row["ruleset"]) for row in listed] == [("budolf", "fimbulfrost")]
    shown = cli("chars", "show", "budolf", "--db", db)
    assert "Omdømme (reputation) 4; Status 6" in shown.out
    assert "Rustning (armour) 5" in shown.out

    exported = tmp_path / "budolf.toml"
    assert cli("chars", "export", "budolf", "--db", db, "--out", str(exported)).code == 0
    again = cli("chars", "add", str(exported), "--name", "budolf2", "--db", db)  # the file names its ruleset
    assert again.code == 0, again.err
    assert documents(Path(db))["budolf2"] == documents(Path(db))["budolf"]

    edited = cli("chars", "edit", "budolf", "--set", "omdomme=5", "--set", "konsekvenser=['skramme']", "--db", db)
    assert edited.code == 0
    doc = documents(Path(db))["budolf"]
    assert doc["omdomme"] == 5 and doc["konsekvenser"] == ["skramme"]
    assert [kind for kind, _, _ in history_kinds(Path(db), "budolf")] == ["added", "edited"]

    refused = cli("chars", "edit", "budolf", "--set", "omdomme=-3", "--db", db)
    assert refused.code == 2 and refused.err.count("\n") == 1 and "omdomme" in refused.err
    refused = cli("chars", "edit", "budolf", "--set", "kamp=3", "--db", db)  # a hero has no Kamp
    assert refused.code == 2 and "Kamp pool" in refused.err
    assert documents(Path(db))["budolf"]["omdomme"] == 5, "a refused edit changes nothing"

    assert cli("chars", "delete", "budolf2", "--db", db).code == 0
    assert set(documents(Path(db))) == {"budolf"}
    assert cli("chars", "show", "budolf2", "--db", db).code == 2


def test_campaigns_keep_their_own_characters(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = str(tmp_path / "c.sqlite")
    budolf = str(character_file("fimbulfrost", "budolf"))
    assert cli("chars", "add", budolf, "--ruleset", "fimbulfrost", "--db", db, "--campaign", "nord").code == 0
    assert cli("chars", "add", budolf, "--ruleset", "fimbulfrost", "--db", db, "--campaign", "syd").code == 0
    twice = cli("chars", "add", budolf, "--ruleset", "fimbulfrost", "--db", db, "--campaign", "syd")
    assert twice.code == 2 and "already has a character 'budolf'" in twice.err
    cli("chars", "edit", "budolf", "--set", "omdomme=9", "--db", db, "--campaign", "syd")
    assert documents(Path(db), "nord")["budolf"]["omdomme"] == 4
    assert documents(Path(db), "syd")["budolf"]["omdomme"] == 9
    assert documents(Path(db)) == {}


def test_bad_character_files_are_refused_in_one_line(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "X"\nomdomme = "many"\nstatus = 3\n')
    for args, words in (
        (("chars", "add", str(bad), "--ruleset", "fimbulfrost"), "omdomme"),
        (("chars", "add", str(character_file("fimbulfrost", "budolf"))), "--ruleset"),
        (("chars", "add", str(character_file("fimbulfrost", "budolf")), "--ruleset", "nope"), "unknown ruleset"),
        (("chars", "add", str(character_file("fimbulfrost", "budolf")), "--ruleset", "levald"), "budolf"),
        (("chars", "add", str(character_file("fimbulfrost", "budolf")), "--ruleset", "fimbulfrost", "--name", "A B"),
         "not a character name"),
    ):  # fmt: skip
        result = cli(*args, "--db", str(db))
        assert result.code == 2 and result.err.count("\n") == 1 and words in result.err, (args, result.err)
    assert not db.exists() or json.loads(cli("chars", "--db", str(db), "--json").out) == []


def test_changes_with_no_database_refuse_and_create_none(cli: Callable[..., Result], tmp_path: Path) -> None:
    """edit, delete and rest of a campaign that cannot exist yet: the same one line as on an empty database, and
    no save database made for nothing (``chars show`` and ``campaign list`` already create none)."""
    db = tmp_path / "c.sqlite"
    for args, words in (
        (("chars", "edit", "budolf", "--set", "omdomme=5"), "no character 'budolf' in campaign 'default'"),
        (("chars", "delete", "budolf"), "no character 'budolf' in campaign 'default'"),
        (("campaign", "rest", "--days", "1"), "no campaign 'default'"),
    ):
        result = cli(*args, "--db", str(db))
        assert result.code == 2 and result.err.count("\n") == 1 and words in result.err, (args, result.err)
        assert not db.exists(), args


SHEET_WORDS = {"presja": "Punkty Losu", "levald": "Omtöckning", "fimbulfrost": "Omdømme", "pwge": "kroppspoäng"}


@pytest.mark.parametrize("ruleset", sorted(SHEET_WORDS))
def test_every_bundled_character_is_added_shown_and_exported_as_it_was(
    cli: Callable[..., Result], tmp_path: Path, ruleset: str
) -> None:
    db = str(tmp_path / "c.sqlite")
    files = sorted(character_file(ruleset, "x").parent.glob("*.toml"))
    assert files
    for file in files:
        assert cli("chars", "add", f"builtin:{file.stem}", "--ruleset", ruleset, "--db", db).code == 0
        shown = cli("chars", "show", file.stem, "--db", db)
        assert shown.code == 0 and SHEET_WORDS[ruleset] in shown.out, (file.stem, shown.out)
        out = tmp_path / f"{file.stem}.toml"
        assert cli("chars", "export", file.stem, "--db", db, "--out", str(out)).code == 0
        again = cli("chars", "add", str(out), "--name", f"{file.stem}-copy", "--db", db)
        assert again.code == 0, again.err
    docs = documents(Path(db))
    for file in files:
        assert docs[f"{file.stem}-copy"] == docs[file.stem]


@pytest.mark.parametrize("document", ["{not json", "42", '["a list"]'])
def test_a_damaged_library_row_is_one_line_and_left_untouched(
    cli: Callable[..., Result], tmp_path: Path, document: str
) -> None:
    db = tmp_path / "c.sqlite"
    assert cli("chars", "add", "builtin:budolf", "--ruleset", "fimbulfrost", "--db", str(db)).code == 0
    conn = sqlite3.connect(db)
    conn.execute("UPDATE characters SET document = ?", (document,))
    conn.commit()
    conn.close()
    before = db.read_bytes()
    for args in (("chars", "show", "budolf"), ("chars",), ("campaign", "rest", "--days", "1"),
                 ("run", "fimbulfrost/robbers", "--campaign", "default")):  # fmt: skip
        result = cli(*args, "--db", str(db))
        assert result.code == 2 and result.err.count("\n") == 1 and "damaged" in result.err, (args, result.err)
    assert db.read_bytes() == before


def test_a_bundled_character_the_ruleset_lacks_is_named_with_the_ones_it_has(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    """``chars add builtin:budolf --ruleset levald``: one line naming Le våld's bundled characters, as a scenario
    says it, not a path inside konflikt's installation."""
    db = tmp_path / "c.sqlite"
    result = cli("chars", "add", "builtin:budolf", "--ruleset", "levald", "--db", str(db))
    bundled = ", ".join(sorted(p.stem for p in character_file("levald", "x").parent.glob("*.toml")))
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert f"builtin:budolf: no bundled levald character 'budolf' (bundled: {bundled})" in result.err, result.err
    assert "characters/" not in result.err and not db.exists()
