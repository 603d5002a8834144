"""Schema version 4 (issue 48): conflict ids never reused, join links bound to their conflict, claims with leases;
an older file is brought up to it on its first write with every row kept."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from konflikt.core.conflict import Conflict
from konflikt.errors import StoreError
from konflikt.store import db as store_db
from konflikt.store.db import SCHEMA_VERSION, Store, TableGone
from tests.store.test_store import played

SAVED_BY_V3 = Path(__file__).parent / "data" / "main_v3.sqlite"
"""Made by konflikt at schema version 3: ``play fimbulfrost/robbers --seed 3``, ``levald/duel --seed 2``,
``presja/knife_fight --seed 1``, ``chars add builtin:budolf``, then ``saves --delete 3``."""


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [tuple(row) for row in conn.execute(sql).fetchall()]
    finally:
        conn.close()


def test_one_schema_version() -> None:
    from konflikt.store import library

    assert SCHEMA_VERSION == 4
    assert not hasattr(library, "SCHEMA_VERSION"), "the library names the version that brought it, not its own"


def test_a_deleted_conflicts_id_is_never_given_again(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s.sqlite")
    try:
        first = store.create(played())
        second = store.create(played())
        store.delete(second)
        third = store.create(played())
        store.delete(first)
        store.delete(third)
        fourth = store.create(played())
    finally:
        store.close()
    assert (first, second, third, fourth) == (1, 2, 3, 4)


def test_a_version_3_save_is_migrated_with_every_row_and_its_old_links(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copy(SAVED_BY_V3, db)
    legacy = {"admin": "k" * 24, "tables": {"1": {"budolf": "tok-one", "gm": "tok-gm"}, "3": {"belzee": "tok-three"}}}
    (tmp_path / "old.sqlite.links.json").write_text(json.dumps(legacy))
    assert rows(db, "PRAGMA user_version") == [(3,)]
    conflicts = rows(db, "SELECT * FROM conflicts ORDER BY id")
    steps = rows(db, "SELECT * FROM steps ORDER BY conflict_id, idx")
    characters = rows(db, "SELECT * FROM characters")
    before = db.read_bytes()
    Store.open(db, readonly=True).close()
    assert db.read_bytes() == before, "a read-only open migrates nothing"

    store = Store.open(db)
    try:
        assert [row.id for row in store.list()] == [1, 2]
        assert store.load(2).conflict.replay().is_terminal()
        links = {token: (table, conflict, seat) for token, table, conflict, seat in store.links()}
        assert links == {
            "tok-one": (1, 1, "budolf"),
            "tok-gm": (1, 1, "gm"),
            "tok-three": (3, None, "belzee"),  # conflict 3 was deleted: its link opens nothing
        }
        new = store.create(Conflict(store.load(1).conflict.scenario, {}, 5))
        assert new == 4, "not 3: the deleted conflict's id (an old link names it) is never given again"
    finally:
        store.close()
    assert rows(db, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert rows(db, "SELECT * FROM conflicts WHERE id < 4 ORDER BY id") == conflicts
    assert rows(db, "SELECT * FROM steps WHERE conflict_id < 4 ORDER BY conflict_id, idx") == steps
    assert rows(db, "SELECT * FROM characters") == characters
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]
    assert rows(db, "PRAGMA foreign_key_check") == []
    assert "AUTOINCREMENT" in str(rows(db, "SELECT sql FROM sqlite_master WHERE name = 'conflicts'")[0][0])


def test_links_are_bound_to_their_conflict_and_outlive_it_as_deleted(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "s.sqlite")
    try:
        cid = store.create(played())
        tokens = store.link(cid, ["ada", "gm"])
        assert store.link(cid, ["ada", "gm", "bo"]) == tokens | {"bo": store.link(cid, ["bo"])["bo"]}
        store.delete(cid)
        assert {c for _, _, c, _ in store.links()} == {None}
        with pytest.raises(TableGone):
            store.link(cid, ["ada"])
    finally:
        store.close()


def test_a_lease_lapses_unless_renewed_and_two_stores_of_one_process_are_two_holders(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = tmp_path / "s.sqlite"
    server, command = Store.open(db), Store.open(db)
    try:
        cid = server.create(Conflict(played().scenario, {}, 2))
        server.claim(cid, lease=60)
        with pytest.raises(StoreError, match=f"conflict {cid} is open at a konflikt serve table"):
            command.claim(cid)
        with pytest.raises(StoreError, match="open at a konflikt serve table"):
            command.delete(cid)
        assert server.renew(60) == set()
        clock = store_db.time.time()
        monkeypatch.setattr(store_db.time, "time", lambda: clock + 61)  # the server stopped renewing it
        command.claim(cid)  # taken over
        monkeypatch.undo()
        assert server.renew(60) == {cid}, "the server learns that it lost the claim"
        with pytest.raises(StoreError, match="taken over"):
            server.append_many([(cid, 0, played().steps[:1], ["human"])], held=True)
        assert command.load(cid).conflict.steps == []
        with pytest.raises(StoreError, match=f"conflict {cid} is open in another konflikt"):
            server.claim(cid, lease=60)  # play's claim lives as long as its process
    finally:
        command.close()
        server.close()
