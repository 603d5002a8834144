"""The save database: step-by-step commits, undo by truncation, refusal of damaged and foreign files."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from konflikt.core.conflict import Conflict, new_state
from konflikt.core.scenario import scenario_from_document
from konflikt.errors import StoreError
from konflikt.sim.runner import Generators, Runner, seat_policies
from konflikt.store.db import Store
from tests.core.toy import DOCUMENT


def played() -> Conflict:
    scenario = scenario_from_document(DOCUMENT, "toy.toml")
    state = new_state(scenario)
    Runner(seat_policies(scenario), Generators.from_seed(2)).play(state)
    return Conflict.of(state, scenario, {}, 2)


def test_steps_are_committed_one_by_one_and_load_back(tmp_path: Path) -> None:
    conflict = played()
    store = Store.open(tmp_path / "saves.sqlite")
    cid = store.create(Conflict(conflict.scenario, {}, 2), "table", {"ada": "human"})
    for i, step in enumerate(conflict.steps):
        store.append(cid, i, step, "human" if i % 2 else "auto")
    store.close()
    # a second connection (as after a crash) sees every committed step
    loaded = Store.open(tmp_path / "saves.sqlite").load(cid)
    assert loaded.conflict.steps == conflict.steps
    assert loaded.dice == "table"
    assert loaded.seats == {"ada": "human"}
    assert loaded.sources[:2] == ["auto", "human"]
    assert loaded.conflict.replay().history() == conflict.replay().history()


def test_truncate_is_undo(tmp_path: Path) -> None:
    conflict = played()
    store = Store.open(tmp_path / "s.sqlite")
    cid = store.create(conflict)
    store.truncate(cid, 2)
    assert len(store.load(cid).conflict.steps) == 2
    assert store.list()[0].steps == 2


def test_export_and_import_round_trip(tmp_path: Path) -> None:
    conflict = played()
    a = Store.open(tmp_path / "a.sqlite")
    cid = a.create(conflict, "auto", {"bo": "random"}, ["auto"] * len(conflict.steps))
    data = json.loads(json.dumps(a.export(cid)))
    b = Store.open(tmp_path / "b.sqlite")
    again = Conflict.from_json(data)
    new_id = b.create(again, data["play"]["dice"], data["play"]["seats"], data["play"]["sources"])
    assert b.load(new_id).conflict.replay().history() == conflict.replay().history()


def test_a_damaged_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_bytes(b"these are my notes, not a database\n" * 10)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a konflikt save database"):
        Store.open(path)
    assert path.read_bytes() == before


def test_a_foreign_sqlite_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program's SQLite database"):
        Store.open(path)
    assert path.read_bytes() == before


def test_a_truncated_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    store = Store.open(path)
    store.create(played())
    store.close()
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\x00" * 50)
    with pytest.raises(StoreError):
        Store.open(path).list()


def test_missing_conflict_is_named(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no saved conflict 42"):
        Store.open(tmp_path / "s.sqlite").load(42)


def test_checks_leave_a_refused_file_byte_identical_and_read_only_opens_create_nothing(tmp_path: Path) -> None:
    import hashlib

    from konflikt.store.db import NoDatabase

    with pytest.raises(NoDatabase):
        Store.open(tmp_path / "none" / "s.sqlite", readonly=True)
    assert list(tmp_path.iterdir()) == []
    path = tmp_path / "s.sqlite"
    store = Store.open(path)
    store.create(played())
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 9")
    conn.commit()
    conn.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(StoreError, match="newer konflikt"):
        Store.open(path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_one_store_per_open_conflict(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s.sqlite")
    cid = store.create(played())
    store.claim(cid)
    store.claim(cid)  # the same process may claim again
    from konflikt.store.db import _process_started

    parent = os.getppid()
    store.conn.execute("UPDATE sessions SET pid = ?, started = ?", (parent, _process_started(parent)))
    with pytest.raises(StoreError, match=f"conflict {cid} is open in another konflikt"):
        store.claim(cid)
    store.conn.execute("UPDATE sessions SET pid = 999999999")  # a process that is gone: taken over
    store.claim(cid)
    store.close()
    assert Store.open(tmp_path / "s.sqlite").conn.execute("SELECT count(*) FROM sessions").fetchone()[0] == 0
