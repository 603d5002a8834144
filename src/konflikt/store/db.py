"""Saved conflicts in SQLite: every applied step is committed in its own transaction.

A conflict is stored as its scenario document (characters inlined), option overrides, seed and steps, so a crash
or a killed terminal loses at most the step in progress, and a saved conflict replays on any machine. The file is
marked with an application id; a damaged or foreign file gets a clear error and is never written to.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from konflikt.core.actions import Step
from konflikt.core.conflict import Conflict
from konflikt.core.errors import KonfliktError, StoreError

APPLICATION_ID = 0x4B4F4E46  # "KONF"
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE conflicts (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    record TEXT NOT NULL,
    dice TEXT NOT NULL DEFAULT 'auto',
    seats TEXT NOT NULL DEFAULT '{}',
    finished INTEGER NOT NULL DEFAULT 0,
    outcome TEXT
);
CREATE TABLE steps (
    conflict_id INTEGER NOT NULL REFERENCES conflicts(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    step TEXT NOT NULL,
    source TEXT NOT NULL,
    PRIMARY KEY (conflict_id, idx)
);
"""


def default_path() -> Path:
    return Path(user_data_dir("konflikt", appauthor=False)) / "konflikt.sqlite"


@dataclass(frozen=True)
class SavedConflict:
    """One row of ``konflikt saves``."""

    id: int
    title: str
    ruleset: str
    created: str
    updated: str
    steps: int
    finished: bool
    outcome: str | None


@dataclass
class Loaded:
    """A saved conflict with how it was being played."""

    id: int
    conflict: Conflict
    sources: list[str]
    dice: str
    seats: dict[str, str]


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


class Store:
    """The save database. Open it with :meth:`open`; every write is one transaction."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    @classmethod
    def open(cls, path: Path | None = None) -> Store:
        """Open (or create) the database; refuse damaged or foreign files without touching them.

        Raises:
            StoreError: the file is not SQLite, is another program's database, or is from a newer konflikt.
        """
        path = path or default_path()
        existed = path.exists() and path.stat().st_size > 0
        if path.exists() and path.is_dir():
            raise StoreError(f"{path}: is a folder, not a save database")
        if existed:
            with path.open("rb") as fh:
                if fh.read(16) != b"SQLite format 3\x00":
                    raise StoreError(f"{path}: not a konflikt save database (not SQLite); left untouched")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(path, isolation_level=None)
            conn.execute("PRAGMA foreign_keys = ON")
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: damaged save database ({exc}); left untouched") from None
        if existed and (app_id != APPLICATION_ID and (tables or app_id)):
            conn.close()
            raise StoreError(f"{path}: another program's SQLite database, not konflikt's; left untouched")
        if app_id == APPLICATION_ID and version > SCHEMA_VERSION:
            conn.close()
            raise StoreError(f"{path}: saved by a newer konflikt (schema {version}); left untouched")
        if app_id != APPLICATION_ID:
            conn.executescript(
                f"BEGIN; {SCHEMA} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
                " COMMIT;"
            )
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        return cls(conn, path)

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def create(
        self,
        conflict: Conflict,
        dice: str = "auto",
        seats: dict[str, str] | None = None,
        sources: list[str] | None = None,
    ) -> int:
        record = conflict.to_json()
        record["steps"] = []
        with self.transaction() as tx:
            cur = tx.execute(
                "INSERT INTO conflicts (title, ruleset, created, updated, record, dice, seats) VALUES (?,?,?,?,?,?,?)",
                (
                    conflict.scenario.title,
                    conflict.scenario.ruleset.id,
                    _now(),
                    _now(),
                    json.dumps(record, ensure_ascii=False),
                    dice,
                    json.dumps(seats or {}),
                ),
            )
            known = list(sources or [])
            for idx, step in enumerate(conflict.steps):
                source = known[idx] if idx < len(known) else "imported"
                tx.execute(
                    "INSERT INTO steps (conflict_id, idx, step, source) VALUES (?,?,?,?)",
                    (cur.lastrowid, idx, json.dumps(step.to_json()), source),
                )
            assert cur.lastrowid is not None
            return cur.lastrowid

    def append(self, conflict_id: int, idx: int, step: Step, source: str) -> None:
        """Commit one applied step (its own transaction)."""
        with self.transaction() as tx:
            tx.execute(
                "INSERT INTO steps (conflict_id, idx, step, source) VALUES (?,?,?,?)",
                (conflict_id, idx, json.dumps(step.to_json()), source),
            )
            tx.execute("UPDATE conflicts SET updated = ? WHERE id = ?", (_now(), conflict_id))

    def truncate(self, conflict_id: int, keep: int) -> None:
        """Drop every step from index ``keep`` on (undo), in one transaction."""
        with self.transaction() as tx:
            tx.execute("DELETE FROM steps WHERE conflict_id = ? AND idx >= ?", (conflict_id, keep))
            tx.execute(
                "UPDATE conflicts SET updated = ?, finished = 0, outcome = NULL WHERE id = ?", (_now(), conflict_id)
            )

    def finish(self, conflict_id: int, outcome: str) -> None:
        with self.transaction() as tx:
            tx.execute(
                "UPDATE conflicts SET finished = 1, outcome = ?, updated = ? WHERE id = ?",
                (outcome, _now(), conflict_id),
            )

    def load(self, conflict_id: int) -> Loaded:
        row = self.conn.execute("SELECT record, dice, seats FROM conflicts WHERE id = ?", (conflict_id,)).fetchone()
        if row is None:
            raise StoreError(f"no saved conflict {conflict_id} in {self.path} (see 'konflikt saves')")
        rows = self.conn.execute(
            "SELECT step, source FROM steps WHERE conflict_id = ? ORDER BY idx", (conflict_id,)
        ).fetchall()
        try:
            record = json.loads(row[0])
            record["steps"] = [json.loads(step) for step, _ in rows]
            conflict = Conflict.from_json(record, f"saved conflict {conflict_id}")
        except (json.JSONDecodeError, KonfliktError) as exc:
            raise StoreError(f"saved conflict {conflict_id} in {self.path} cannot be read: {exc}") from None
        return Loaded(conflict_id, conflict, [source for _, source in rows], row[1], json.loads(row[2]))

    def list(self) -> list[SavedConflict]:
        rows = self.conn.execute(
            "SELECT c.id, c.title, c.ruleset, c.created, c.updated, "
            "(SELECT count(*) FROM steps s WHERE s.conflict_id = c.id), c.finished, c.outcome "
            "FROM conflicts c ORDER BY c.id"
        ).fetchall()
        return [SavedConflict(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7]) for r in rows]

    def export(self, conflict_id: int) -> dict[str, Any]:
        loaded = self.load(conflict_id)
        data = loaded.conflict.to_json()
        data["play"] = {"dice": loaded.dice, "seats": loaded.seats, "sources": loaded.sources}
        return data
