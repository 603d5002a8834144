"""Saved conflicts in SQLite: every applied step is committed in its own transaction.

A conflict is stored as its scenario document (characters inlined), option overrides, seed and steps, so a crash
or a killed terminal loses at most the step in progress, and a saved conflict replays on any machine. The file is
marked with an application id; a damaged or foreign file gets a clear error and is never written to. The same file
holds the campaigns' character libraries (:mod:`konflikt.store.library`, schema version 3).
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from konflikt.core.actions import Step
from konflikt.core.conflict import Conflict, PlayInfo, parse_json
from konflikt.errors import KonfliktError, StoreError
from konflikt.store import library
from konflikt.store.library import Ending

APPLICATION_ID = 0x4B4F4E46  # "KONF"
SCHEMA_VERSION = 3
#: Files above this size get ``PRAGMA quick_check`` only; smaller ones the full ``integrity_check`` (indexes too).
FULL_CHECK_BYTES = 64 * 1024 * 1024

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

#: Version 2: which process has a conflict open at the table (one process per open conflict).
SESSIONS = """
CREATE TABLE IF NOT EXISTS sessions (
    conflict_id INTEGER PRIMARY KEY REFERENCES conflicts(id) ON DELETE CASCADE,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started TEXT NOT NULL,
    since TEXT NOT NULL
);
"""

#: The columns konflikt expects in each of its tables (a file with other columns is not one of ours).
COLUMNS = {
    "conflicts": {"id", "title", "ruleset", "created", "updated", "record", "dice", "seats", "finished", "outcome"},
    "steps": {"conflict_id", "idx", "step", "source"},
    "sessions": {"conflict_id", "host", "pid", "started", "since"},
    **library.COLUMNS,
}
#: The schema version that brought each table (a file of an older version lacks it, and is brought up to date).
SINCE = {"sessions": 2} | {name: library.SCHEMA_VERSION for name in library.COLUMNS}


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


HUMAN_SOURCES = ("human", "table", "correction", "declaration")
"""The sources of a step that a person gave: a decision, dice typed at the table, a value the GM corrected by hand,
a goal the GM declared reached.
``undo`` takes these back one at a time, in ``play`` and in the browser alike (one list for both, so a correction
made in the browser is not taken back by ``play --resume --undo 1`` together with the input before it)."""


@dataclass
class Loaded:
    """A saved conflict with how it was being played."""

    id: int
    conflict: Conflict
    sources: list[str]
    dice: str
    seats: dict[str, str]


class NoDatabase(StoreError):
    """A command that reads or changes what is saved was pointed at a database that does not exist (it is not
    created)."""


def _text(data: bytes) -> str:
    """SQLite text as str; text that is not UTF-8 (a damaged page) is a StoreError, not a UnicodeDecodeError."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise StoreError("the save database holds text that is not UTF-8 (damaged); left untouched") from None


def _check_path(path: Path, readonly: bool, create: bool = True) -> None:
    """Refuse, with one line, paths that cannot be a save database: folders, files as folders, read-only files."""
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise StoreError(f"{path}: {parent} is a file, not a folder")
            if not readonly and create and not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
                raise StoreError(f"{path}: read-only folder {parent}; konflikt cannot create a save database there")
            break
    if path.is_dir():
        raise StoreError(f"{path}: is a folder, not a save database")
    if path.exists() and not path.is_file():
        raise StoreError(f"{path}: not a regular file, not a save database")
    if path.exists() and not os.access(path, os.R_OK):
        raise StoreError(f"{path}: not readable (permissions); left untouched")
    if not readonly and path.exists():
        # the permission bits too: as root, os.access says every file is writable
        if not os.access(path, os.W_OK) or not path.stat().st_mode & 0o222:
            raise StoreError(f"{path}: read-only; konflikt needs to write its saves there (use --db for another file)")
        if not os.access(path.parent, os.W_OK | os.X_OK):
            raise StoreError(f"{path}: its folder is read-only; SQLite needs to write a journal beside the file")


def _check_file(conn: sqlite3.Connection, path: Path) -> None:
    """konflikt's application id, a known schema version, konflikt's tables, and a database that passes its checks."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {
            name: {row[1] for row in conn.execute(f"PRAGMA table_info({name})")}
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        }
    except (sqlite3.DatabaseError, StoreError, UnicodeDecodeError) as exc:
        raise StoreError(f"{path}: damaged save database ({exc}); left untouched") from None
    if app_id != APPLICATION_ID:
        raise StoreError(f"{path}: another program's SQLite database, not konflikt's; left untouched")
    if version > SCHEMA_VERSION:
        raise StoreError(f"{path}: saved by a newer konflikt (schema {version}); left untouched")
    expected = {name: cols for name, cols in COLUMNS.items() if version >= SINCE.get(name, 0)}
    for name, cols in expected.items():
        if tables.get(name) != cols:
            found = "missing" if name not in tables else f"columns {', '.join(sorted(tables[name]))}"
            raise StoreError(f"{path}: not konflikt's schema (table {name}: {found}); left untouched")
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(1)")]
        # a damaged schema text can leave the columns and pages sound but a key gone ("id INTEGER PRIMARY$KEY"):
        # the first write that cascades then fails, after earlier writes were committed; SQLite says so here
        conn.execute("PRAGMA foreign_key_check").fetchall()
        if problems == ["ok"] and path.stat().st_size <= FULL_CHECK_BYTES:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check(1)")]
    except (sqlite3.DatabaseError, StoreError, UnicodeDecodeError) as exc:
        problems = [str(exc)]
    if problems != ["ok"]:
        problem = " ".join(str(problems[0]).replace("*** in database main ***", "").split())
        raise StoreError(f"{path}: damaged save database ({problem}); left untouched")


def _process_started(pid: int) -> str:
    """When a process started (its /proc start time), so a reused process id is not taken for the old one."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[-1].split()[19]


def _alive(pid: int, started: str) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not started or _process_started(pid) in ("", started)


def _shown(value: object) -> str:
    """A column shown by ``saves``: whatever a damaged row holds (a blob, a number) is shown as text."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


class Store:
    """The save database. Open it with :meth:`open`; every write is one transaction."""

    def __init__(self, conn: sqlite3.Connection, path: Path, readonly: bool = False) -> None:
        self.conn = conn
        self.path = path
        self.readonly = readonly
        self._claimed: set[int] = set()

    @classmethod
    def open(cls, path: Path | None = None, *, readonly: bool = False, create: bool = True) -> Store:
        """Open the database, checked before anything is written; refuse damaged or foreign files untouched.

        With ``readonly`` (``saves``, ``export``, ``odds --saved``) the file is opened with ``mode=ro`` and
        nothing is ever created: no folder, no database. Without ``create`` (a command that changes only what is
        saved: resume, edit, delete, rest) it is opened for writing but, missing, refused as with ``readonly``.

        Raises:
            StoreError: missing (read-only), a folder, read-only (for writing), not SQLite, another program's
                database, damaged (fails ``quick_check``/``integrity_check``), or from a newer konflikt.
        """
        path = path or default_path()
        _check_path(path, readonly, create)
        fresh = not path.exists() or path.stat().st_size == 0
        if fresh and (readonly or not create):
            raise NoDatabase(f"{path}: no save database here yet (nothing saved)")
        if not fresh:
            with path.open("rb") as fh:
                if fh.read(16) != b"SQLite format 3\x00":
                    raise StoreError(f"{path}: not a konflikt save database (not SQLite); left untouched")
        if fresh and not readonly:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{path}: cannot create its folder ({exc.strerror or exc})") from None
        uri = f"{path.resolve().as_uri()}?mode={'ro' if readonly else 'rwc'}"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot be opened ({exc})") from None
        conn.text_factory = _text
        try:
            if not fresh:
                _check_file(conn, path)
            store = cls(conn, path, readonly)
            if not readonly:
                store._prepare()
            return store
        except BaseException:
            conn.close()
            raise

    def _prepare(self) -> None:
        """Create konflikt's tables in a new file, or bring an older file up to date (the first write), in one
        transaction: version 1 gains ``sessions``, version 2 the character library."""
        conn = self.conn
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                # version 1 wrote WAL files; the rollback journal lets read-only commands create nothing
                with suppress(sqlite3.OperationalError):
                    conn.execute("PRAGMA journal_mode = DELETE")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                app_id = conn.execute("PRAGMA application_id").fetchone()[0]
                if app_id != APPLICATION_ID:
                    if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                        raise StoreError(f"{self.path}: another program's SQLite database, not konflikt's; untouched")
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                    conn.execute(SESSIONS)
                    for statement in library.SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot be written ({exc})") from None

    def close(self) -> None:
        """Release this process's conflicts and close the connection."""
        for conflict_id in list(self._claimed):
            with suppress(sqlite3.Error, StoreError):
                self.release(conflict_id)
        self.conn.close()

    def claim(self, conflict_id: int) -> None:
        """Mark the conflict open in this process (one process per open conflict at the table).

        A mark left by a process that is gone (killed, crashed) is taken over.

        Raises:
            StoreError: another live konflikt has the conflict open.
        """
        host, pid = socket.gethostname(), os.getpid()
        with self.transaction() as tx:
            row = tx.execute("SELECT host, pid, started, since FROM sessions WHERE conflict_id = ?", (conflict_id,))
            held = row.fetchone()
            mine = held is None or (held[0], held[1]) == (host, pid)
            if not mine and (held[0] != host or _alive(int(held[1]), str(held[2]))):
                where = f"process {held[1]}" + (f" on {held[0]}" if held[0] != host else "")
                raise StoreError(
                    f"conflict {conflict_id} is open in another konflikt ({where}, since {held[3]}); quit it there"
                )
            tx.execute(
                "INSERT OR REPLACE INTO sessions (conflict_id, host, pid, started, since) VALUES (?,?,?,?,?)",
                (conflict_id, host, pid, _process_started(pid), _now()),
            )
        self._claimed.add(conflict_id)

    def release(self, conflict_id: int) -> None:
        with self.transaction() as tx:
            tx.execute(
                "DELETE FROM sessions WHERE conflict_id = ? AND host = ? AND pid = ?",
                (conflict_id, socket.gethostname(), os.getpid()),
            )
        self._claimed.discard(conflict_id)

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
        cast: library.Cast | None = None,
        ending: Ending | None = None,
    ) -> int:
        """Save a new conflict with the steps it has. ``cast`` links it to a campaign (its characters are written
        back when it ends); ``ending`` (a conflict played whole, ``run``) ends it in the same transaction."""
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
            if cast is not None:
                library.link(tx, cur.lastrowid, cast)
            if ending is not None:
                self._end(tx, cur.lastrowid, ending)
            return cur.lastrowid

    def append(self, conflict_id: int, idx: int, step: Step, source: str, ending: Ending | None = None) -> None:
        """Commit one applied step (its own transaction). With the ``ending`` of the conflict's last step, the same
        transaction marks the conflict finished and writes its campaign's characters back (once: a write-back
        already made for this conflict is not made again)."""
        with self.transaction() as tx:
            tx.execute(
                "INSERT INTO steps (conflict_id, idx, step, source) VALUES (?,?,?,?)",
                (conflict_id, idx, json.dumps(step.to_json()), source),
            )
            tx.execute("UPDATE conflicts SET updated = ? WHERE id = ?", (_now(), conflict_id))
            if ending is not None:
                self._end(tx, conflict_id, ending)

    def _end(self, tx: sqlite3.Connection, conflict_id: int, ending: Ending) -> None:
        tx.execute(
            "UPDATE conflicts SET finished = 1, outcome = ?, updated = ? WHERE id = ?",
            (ending.outcome, _now(), conflict_id),
        )
        library.write_back(tx, conflict_id, ending)

    def append_many(self, runs: Iterable[tuple[int, int, Sequence[Step], Sequence[str]]]) -> None:
        """Commit runs of applied steps, ``(conflict_id, first index, steps, sources)``, in one transaction.

        A table server commits what several inputs caused at once (one fsync, not one per step); all or none.
        """
        with self.transaction() as tx:
            for conflict_id, first, steps, sources in runs:
                if len(steps) != len(sources):
                    raise ValueError("one source per step")
                rows = zip(steps, sources, strict=True)
                tx.executemany(
                    "INSERT INTO steps (conflict_id, idx, step, source) VALUES (?,?,?,?)",
                    [
                        (conflict_id, first + i, json.dumps(step.to_json()), source)
                        for i, (step, source) in enumerate(rows)
                    ],
                )
                tx.execute("UPDATE conflicts SET updated = ? WHERE id = ?", (_now(), conflict_id))

    def truncate(self, conflict_id: int, keep: int) -> None:
        """Drop every step from index ``keep`` on (undo), in one transaction; undoing past the end of a campaign's
        conflict gives its characters back as they were before it."""
        with self.transaction() as tx:
            tx.execute("DELETE FROM steps WHERE conflict_id = ? AND idx >= ?", (conflict_id, keep))
            tx.execute(
                "UPDATE conflicts SET updated = ?, finished = 0, outcome = NULL WHERE id = ?", (_now(), conflict_id)
            )
            library.undo_write_back(tx, conflict_id)

    def delete(self, conflict_id: int) -> None:
        """Remove a saved conflict and its steps (``konflikt saves --delete ID``).

        Raises:
            StoreError: there is no such conflict, or another live konflikt has it open.
        """
        if self.conn.execute("SELECT 1 FROM conflicts WHERE id = ?", (conflict_id,)).fetchone() is None:
            raise StoreError(f"no saved conflict {conflict_id} in {self.path}")
        self.claim(conflict_id)
        with self.transaction() as tx:
            tx.execute("DELETE FROM sessions WHERE conflict_id = ?", (conflict_id,))
            tx.execute("DELETE FROM steps WHERE conflict_id = ?", (conflict_id,))
            tx.execute("DELETE FROM conflicts WHERE id = ?", (conflict_id,))
        self._claimed.discard(conflict_id)

    def finish(self, conflict_id: int, outcome: str) -> None:
        """Mark the conflict finished. A campaign's conflict whose last step was saved without its ending (by a
        front end that does not pass one to :meth:`append`) writes its characters back here, once."""
        ending = None
        if library.needs_write_back(self.conn, conflict_id):
            loaded = self.load(conflict_id)
            ending = library.ending_of(loaded.conflict.replay(), loaded.conflict.scenario.title)
        with self.transaction() as tx:
            tx.execute(
                "UPDATE conflicts SET finished = 1, outcome = ?, updated = ? WHERE id = ?",
                (outcome, _now(), conflict_id),
            )
            if ending is not None:
                library.write_back(tx, conflict_id, ending)

    def load(self, conflict_id: int) -> Loaded:
        """A saved conflict, checked as an import is: anything unreadable in the row is one clear error."""
        row = self.conn.execute("SELECT record, dice, seats FROM conflicts WHERE id = ?", (conflict_id,)).fetchone()
        if row is None:
            raise StoreError(f"no saved conflict {conflict_id} in {self.path} (see 'konflikt saves')")
        rows = self.conn.execute(
            "SELECT step, source FROM steps WHERE conflict_id = ? ORDER BY idx", (conflict_id,)
        ).fetchall()
        where = f"saved conflict {conflict_id} in {self.path}"
        try:
            record = parse_json(row[0], "record")
            if not isinstance(record, dict):
                raise KonfliktError("record: not a JSON object")
            record["steps"] = [parse_json(step, "steps") for step, _ in rows]
            record["play"] = {
                "dice": row[1],
                "seats": parse_json(row[2], "seats"),
                "sources": [source for _, source in rows],
            }
            conflict, play = Conflict.from_json(record, where), PlayInfo.from_record(record)
        except KonfliktError as exc:
            message = str(exc).removeprefix(f"{where}: ")
            raise StoreError(f"{where} cannot be read: {message}") from None
        return Loaded(conflict_id, conflict, play.sources, play.dice, dict(play.seats))

    def list(self) -> list[SavedConflict]:
        rows = self.conn.execute(
            "SELECT c.id, c.title, c.ruleset, c.created, c.updated, "
            "(SELECT count(*) FROM steps s WHERE s.conflict_id = c.id), c.finished, c.outcome "
            "FROM conflicts c ORDER BY c.id"
        ).fetchall()
        return [
            SavedConflict(r[0], _shown(r[1]), _shown(r[2]), _shown(r[3]), _shown(r[4]), r[5], bool(r[6]),
                          None if r[7] is None else _shown(r[7]))
            for r in rows
        ]  # fmt: skip

    def export(self, conflict_id: int) -> dict[str, Any]:
        loaded = self.load(conflict_id)
        data = loaded.conflict.to_json()
        data["play"] = {"dice": loaded.dice, "seats": loaded.seats, "sources": loaded.sources}
        return data
