"""``konflikt play`` and friends at the command line: clear one-line refusals; nothing is lost or overwritten."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result


def test_a_damaged_database_is_refused_and_not_overwritten(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "saves.sqlite"
    db.write_text("my campaign notes\n" * 20)
    before = db.read_bytes()
    for args in (("saves",), ("play", "fimbulfrost/robbers"), ("export", "1")):
        result = cli(*args, "--db", str(db))
        assert result.code == 2
        assert "not a konflikt save database" in result.err
        assert result.err.count("\n") == 1
    assert db.read_bytes() == before


def test_run_save_import_and_export_round_trip(cli: Callable[..., Result], tmp_path: Path) -> None:
    saved = tmp_path / "conflict.json"
    assert cli("run", "fimbulfrost/robbers", "--seed", "3", "--save", str(saved)).code == 0
    db = tmp_path / "s.sqlite"
    result = cli("import", str(saved), "--db", str(db))
    assert result.code == 0 and "imported as conflict 1" in result.out
    listed = json.loads(cli("saves", "--db", str(db), "--json").out)
    assert listed[0]["ruleset"] == "fimbulfrost"
    played = json.loads(cli("run", "fimbulfrost/robbers", "--seed", "3", "--json").out)["outcome"]["summary"]
    assert listed[0]["finished"] and listed[0]["outcome"] == played, "a finished conflict is listed as finished"
    exported = json.loads(cli("export", "1", "--db", str(db)).out)
    assert exported["steps"] == json.loads(saved.read_text())["steps"]


def test_play_needs_a_scenario_or_a_resume(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    assert "name a SCENARIO" in cli("play", "--db", db).err
    assert "no saved conflict 9" in cli("play", "--resume", "9", "--db", db).err
    assert not (tmp_path / "s.sqlite").exists(), "a resume of nothing creates no save database"
    assert "--dice takes auto or table" in cli("play", "presja/knife_fight", "--dice", "maybe", "--db", db).err


def test_a_tampered_import_is_refused(cli: Callable[..., Result], tmp_path: Path) -> None:
    saved = tmp_path / "conflict.json"
    cli("run", "fimbulfrost/robbers", "--seed", "3", "--save", str(saved))
    data = json.loads(saved.read_text())
    data["steps"][0] = {"node": "@chance", "outcome": [99, 0]}
    saved.write_text(json.dumps(data))
    result = cli("import", str(saved), "--db", str(tmp_path / "s.sqlite"))
    assert result.code == 2
    assert "step 0" in result.err or "not a possible result" in result.err
