"""Saved conflicts in SQLite: every applied step is committed in its own transaction.

A conflict is stored as its scenario document (characters inlined), option overrides, seed and steps, so a crash
or a killed terminal loses at most the step in progress, and a saved conflict replays on any machine. The file is
marked with an application id; a damaged or foreign file gets a clear error and is never written to. The same file
holds the campaigns' character libraries (:mod:`konflikt.store.library`, schema version 3).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import sqlite3
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from konflikt.core.actions import Step
from konflikt.core.conflict import Conflict, PlayInfo, parse_json
from konflikt.core.messages import _
from konflikt.errors import KonfliktError, StoreError
from konflikt.safe_text import bad_text, escaped
from konflikt.store import library
from konflikt.store.library import Ending

APPLICATION_ID = 0x4B4F4E46  # "KONF"
SCHEMA_VERSION = 4
"""The one schema version of the save database (``PRAGMA user_version``): 1 conflicts and steps, 2 ``sessions``,
3 the character library (:mod:`konflikt.store.library`), 4 conflict ids never reused (``AUTOINCREMENT``), the
browser table's join links (``links``) and leases (``sessions.owner``, ``sessions.lease``)."""
#: Files above this size get ``PRAGMA quick_check`` only; smaller ones the full ``integrity_check`` (indexes too).
FULL_CHECK_BYTES = 64 * 1024 * 1024

CONFLICTS = """
CREATE TABLE {name} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    record TEXT NOT NULL,
    dice TEXT NOT NULL DEFAULT 'auto',
    seats TEXT NOT NULL DEFAULT '{{}}',
    finished INTEGER NOT NULL DEFAULT 0,
    outcome TEXT
)
"""
"""Version 4: ``AUTOINCREMENT``, so the id of a deleted conflict is never given to another (a link, a campaign's
history or a stale page that names it can never reach a conflict it was not made for)."""

SCHEMA = (
    CONFLICTS.format(name="conflicts")
    + """;
CREATE TABLE steps (
    conflict_id INTEGER NOT NULL REFERENCES conflicts(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    step TEXT NOT NULL,
    source TEXT NOT NULL,
    PRIMARY KEY (conflict_id, idx)
);
"""
)

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
#: Version 4: which open store holds the claim (two in one process are two holders), and a lease: a claim with one
#: (a server's) lapses unless it is renewed; one without (``play``'s) lives as long as its process.
SESSIONS_V4 = (
    "ALTER TABLE sessions ADD COLUMN owner TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE sessions ADD COLUMN lease REAL",
)
#: Version 4: the browser table's join links, each bound to the conflict it was made for. Deleting the conflict
#: leaves the token with no conflict (``conflict_id`` NULL): the link answers "this table was deleted", forever.
LINKS = """
CREATE TABLE IF NOT EXISTS links (
    token TEXT PRIMARY KEY,
    table_id INTEGER NOT NULL,
    conflict_id INTEGER REFERENCES conflicts(id) ON DELETE SET NULL,
    seat TEXT NOT NULL,
    made TEXT NOT NULL
);
"""

#: The columns konflikt expects in each of its tables (a file with other columns is not one of ours).
COLUMNS = {
    "conflicts": {"id", "title", "ruleset", "created", "updated", "record", "dice", "seats", "finished", "outcome"},
    "steps": {"conflict_id", "idx", "step", "source"},
    "sessions": {"conflict_id", "host", "pid", "started", "since", "owner", "lease"},
    "links": {"token", "table_id", "conflict_id", "seat", "made"},
    **library.COLUMNS,
}
#: The schema version that brought each table (a file of an older version lacks it, and is brought up to date).
SINCE = {"sessions": 2, "links": 4} | {name: library.SINCE_VERSION for name in library.COLUMNS}
#: The version that brought a column to a table that is older than it.
COLUMN_SINCE = {("sessions", "owner"): 4, ("sessions", "lease"): 4}

LEASE_SECONDS = 30.0
"""How long a server's claim on a conflict lives unless renewed (it renews every :data:`RENEW_SECONDS`)."""
RENEW_SECONDS = 10.0
TOKEN_BYTES = 18
"""A join link's token: ``secrets.token_urlsafe(18)``, 24 characters."""


def expected_columns(name: str, version: int) -> set[str]:
    """The columns of konflikt's table ``name`` in a file of schema ``version``."""
    return {c for c in COLUMNS[name] if version >= COLUMN_SINCE.get((name, c), 0)}


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


class TableGone(StoreError):
    """A write or a link for a conflict that has been deleted: a stale table writes nothing."""


def legacy_links(path: Path) -> list[tuple[int, str, str]]:
    """The join links an older server kept in ``<db>.links.json`` (table id, seat, token); none where the file is
    missing or unreadable (its tokens then open nothing)."""
    try:
        data = json.loads(path.with_name(path.name + ".links.json").read_text(encoding="utf-8"))
        tables = data.get("tables", {}) if isinstance(data, dict) else {}
        return [
            (int(table), str(seat), str(token))
            for table, seats in tables.items()
            for seat, token in seats.items()
            if str(table).isascii() and str(table).isdigit() and len(str(table)) <= 18
        ]
    except (OSError, ValueError, TypeError, AttributeError, RecursionError):
        return []


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _readable(value: Any, text: str) -> Any:
    """A saved record or step as read: a lone surrogate a correction's reason (or an older import) brought in is
    kept as its visible escape, so every page, frame and export of the conflict can be written (it was a 500 on
    every page of the table, after a restart too)."""
    return escaped(value) if isinstance(text, str) and _ESCAPED_SURROGATE.search(text) else value


def _text(data: bytes) -> str:
    """SQLite text as str; text that is not UTF-8 (a damaged page) is a StoreError, not a UnicodeDecodeError."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise StoreError(_("the save database holds text that is not UTF-8 (damaged); left untouched")) from None


def _check_path(path: Path, readonly: bool, create: bool = True) -> None:
    """Refuse, with one line, paths that cannot be a save database: folders, files as folders, read-only files."""
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise StoreError(_("{path}: {parent} is a file, not a folder", path=path, parent=parent))
            if not readonly and create and not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
                raise StoreError(
                    _(
                        "{path}: read-only folder {parent}; konflikt cannot create a save database there",
                        path=path,
                        parent=parent,
                    )
                )
            break
    if path.is_dir():
        raise StoreError(_("{path}: is a folder, not a save database", path=path))
    if path.exists() and not path.is_file():
        raise StoreError(_("{path}: not a regular file, not a save database", path=path))
    if path.exists() and not os.access(path, os.R_OK):
        raise StoreError(_("{path}: not readable (permissions); left untouched", path=path))
    if not readonly and path.exists():
        # the permission bits too: as root, os.access says every file is writable
        if not os.access(path, os.W_OK) or not path.stat().st_mode & 0o222:
            raise StoreError(
                _("{path}: read-only; konflikt needs to write its saves there (use --db for another file)", path=path)
            )
        if not os.access(path.parent, os.W_OK | os.X_OK):
            raise StoreError(
                _("{path}: its folder is read-only; SQLite needs to write a journal beside the file", path=path)
            )


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
        if "readonly database" in str(exc) and _journal(path):
            raise StoreError(
                _(
                    "{path}: a write was cut short here (a hot journal) and this account may not write the file to "
                    "finish it; open it once with 'konflikt play --resume' as its owner; left untouched",
                    path=path,
                )
            ) from None
        raise StoreError(
            _("{path}: damaged save database ({problem}); left untouched", path=path, problem=exc)
        ) from None
    if app_id != APPLICATION_ID:
        raise StoreError(_("{path}: another program's SQLite database, not konflikt's; left untouched", path=path))
    if version > SCHEMA_VERSION:
        raise StoreError(
            _("{path}: saved by a newer konflikt (schema {version}); left untouched", path=path, version=version)
        )
    expected = {name: expected_columns(name, version) for name in COLUMNS if version >= SINCE.get(name, 0)}
    for name, cols in expected.items():
        if tables.get(name) != cols:
            found = (
                _("missing") if name not in tables else _("columns {columns}", columns=", ".join(sorted(tables[name])))
            )
            raise StoreError(
                _(
                    "{path}: not konflikt's schema (table {name}: {found}); left untouched",
                    path=path,
                    name=name,
                    found=found,
                )
            )
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
        raise StoreError(_("{path}: damaged save database ({problem}); left untouched", path=path, problem=problem))


_OPEN_HERE: Counter[tuple[int, int]] = Counter()
"""The database files this process has open in SQLite (device, inode) → how many stores. Such a file is never
opened and closed by plain ``open()`` here again: closing any descriptor of a file drops every POSIX lock the
process holds on it, so a header read beside a server's store let another process write in the middle of the
server's transaction (SQLite's "How To Corrupt An SQLite Database File", 2.2)."""


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def _open_here(path: Path) -> bool:
    """Whether a store of this process has ``path`` open (its header was checked then; reading it again by plain
    ``open()`` would drop that store's locks)."""
    key = _file_id(path)
    return key is not None and _OPEN_HERE[key] > 0


def _journal(path: Path) -> bool:
    """A write left unfinished beside the file: a rollback journal or a write-ahead log with something in it."""
    for suffix in ("-journal", "-wal"):
        side = path.with_name(path.name + suffix)
        with suppress(OSError):
            if side.stat().st_size > 0:
                return True
    return False


def _recover(path: Path) -> None:
    """Before a read-only open: finish what a killed writer left (a hot journal rolled back, a write-ahead log
    read in), as the next writing open (``play --resume``) would. SQLite does that only on a connection that may
    write, so a read-only one took a recoverable save for a damaged one ("attempt to write a readonly
    database"). Only konflikt's own files, and only where the file and its folder may be written."""
    if not _journal(path) or not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK | os.X_OK):
        return
    if _open_here(path):
        return  # this process's own store would have recovered it; reading the header here would drop its locks
    try:
        with path.open("rb") as fh:
            header = fh.read(100)
    except OSError:
        return
    if len(header) < 72 or int.from_bytes(header[68:72], "big") != APPLICATION_ID:
        return  # another program's file: its journal is its own business
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None, timeout=10)
    except sqlite3.Error:
        return
    try:
        conn.execute("PRAGMA schema_version").fetchone()  # the first read rolls a hot journal back
    except sqlite3.Error:
        pass  # damaged after all: the read-only open says so
    finally:
        conn.close()


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


def check_storable(conflict: Conflict, seats: dict[str, str] | None = None) -> dict[str, Any]:
    """The conflict's record without its steps, once every text in it (the steps' and the seats' too) is one a
    database can hold: called before a database is opened (``import``: a refused import creates no file) and again
    by :meth:`Store.create`.

    Raises:
        StoreError: a lone surrogate (JSON can spell one; no UTF-8 encoder takes it), naming the field.
    """
    record = conflict.to_json()
    record["steps"] = []
    bad = bad_text({"record": record, "steps": [step.to_json() for step in conflict.steps], "seats": seats or {}})
    if bad is not None:
        # refused here, in one line, not half way through the write
        raise StoreError(_("{field}: text that is not valid Unicode (a lone surrogate); nothing was saved", field=bad))
    return record


class Store:
    """The save database. Open it with :meth:`open`; every write is one transaction."""

    def __init__(self, conn: sqlite3.Connection, path: Path, readonly: bool = False) -> None:
        self.conn = conn
        self.path = path
        self.readonly = readonly
        self.owner = secrets.token_hex(8)
        """This open store as a claim's holder: two stores of one process (a server and a command) are two."""
        self._claimed: set[int] = set()
        self._file: tuple[int, int] | None = None

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
            raise NoDatabase(_("{path}: no save database here yet (nothing saved)", path=path))
        if not fresh and not _open_here(path):
            with path.open("rb") as fh:
                if fh.read(16) != b"SQLite format 3\x00":
                    raise StoreError(_("{path}: not a konflikt save database (not SQLite); left untouched", path=path))
        if fresh and not readonly:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    _("{path}: cannot create its folder ({reason})", path=path, reason=exc.strerror or exc)
                ) from None
        if readonly and not fresh:
            _recover(path)
        uri = f"{path.resolve().as_uri()}?mode={'ro' if readonly else 'rwc'}"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10)
        except sqlite3.Error as exc:
            raise StoreError(_("{path}: cannot be opened ({reason})", path=path, reason=exc)) from None
        conn.text_factory = _text
        try:
            if not fresh:
                _check_file(conn, path)
            store = cls(conn, path, readonly)
            if not readonly:
                store._prepare()
            store._file = _file_id(path)  # the file exists now (a new one is made by the first write)
            if store._file is not None:
                _OPEN_HERE[store._file] += 1
            return store
        except BaseException:
            conn.close()
            raise

    def _prepare(self) -> None:
        """Create konflikt's tables in a new file, or bring an older file up to date (the first write), in one
        transaction: version 1 gains ``sessions``, version 2 the character library, version 3 ids never reused and
        the join links (:meth:`_migrate_to_4`), every row kept."""
        conn = self.conn
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                # version 1 wrote WAL files; the rollback journal lets read-only commands create nothing
                with suppress(sqlite3.OperationalError):
                    conn.execute("PRAGMA journal_mode = DELETE")
            old = conn.execute("PRAGMA user_version").fetchone()[0]
            ours = conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
            # rebuilding the conflicts table (version 4) drops and renames it: foreign keys off while it does
            # (a no-op inside a transaction, so here), checked whole before the commit
            rebuild = ours and old < 4
            conn.execute(f"PRAGMA foreign_keys = {'OFF' if rebuild else 'ON'}")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                app_id = conn.execute("PRAGMA application_id").fetchone()[0]
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if app_id != APPLICATION_ID:
                    if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                        raise StoreError(
                            _("{path}: another program's SQLite database, not konflikt's; untouched", path=self.path)
                        )
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(SESSIONS)
                    for statement in SESSIONS_V4:
                        conn.execute(statement)
                    conn.execute(LINKS)
                    for statement in library.SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                    version = SCHEMA_VERSION
                if version != SCHEMA_VERSION:
                    conn.execute(SESSIONS)
                    for statement in library.SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    if version < 4:
                        if not rebuild:  # another konflikt migrated it between our look and our transaction
                            raise StoreError(_("{path}: changed while it was opened; try again", path=self.path))
                        self._migrate_to_4()
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            if rebuild:
                conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            raise StoreError(_("{path}: cannot be written ({reason})", path=self.path, reason=exc)) from None

    def _migrate_to_4(self) -> None:
        """Version 3 → 4 inside the caller's transaction: the conflicts table rebuilt with ``AUTOINCREMENT`` (every
        row kept, ids and all), ``sessions`` gains its owner and lease, and ``links`` is made, holding the tokens of
        an older server's ``<db>.links.json`` (bound to the conflict that has the id now, or to none where it is
        gone). The ids already given out (conflicts, the library's history, the old links) are never given again."""
        conn = self.conn
        conn.execute(CONFLICTS.format(name="conflicts_v4"))
        conn.execute(
            "INSERT INTO conflicts_v4 (id, title, ruleset, created, updated, record, dice, seats, finished, outcome) "
            "SELECT id, title, ruleset, created, updated, record, dice, seats, finished, outcome FROM conflicts"
        )
        conn.execute("DROP TABLE conflicts")
        conn.execute("ALTER TABLE conflicts_v4 RENAME TO conflicts")
        for statement in SESSIONS_V4:
            conn.execute(statement)
        conn.execute(LINKS)
        legacy = legacy_links(self.path)
        known = {row[0] for row in conn.execute("SELECT id FROM conflicts")}
        for table_id, seat, token in legacy:
            conn.execute(
                "INSERT OR IGNORE INTO links (token, table_id, conflict_id, seat, made) VALUES (?,?,?,?,?)",
                (token, table_id, table_id if table_id in known else None, seat, _now()),
            )
        used = [
            *(row[0] for row in conn.execute("SELECT max(id) FROM conflicts")),
            *(row[0] for row in conn.execute("SELECT max(conflict_id) FROM history")),
            *(table_id for table_id, _, _ in legacy),
        ]
        highest = max((int(n) for n in used if isinstance(n, int)), default=0)
        conn.execute("DELETE FROM sqlite_sequence WHERE name = 'conflicts'")
        conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('conflicts', ?)", (highest,))
        problems = conn.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise StoreError(
                _(
                    "{path}: cannot be brought to schema 4 (foreign key {problem}); left untouched",
                    path=self.path,
                    problem=problems[0],
                )
            )

    def close(self) -> None:
        """Release this store's conflicts and close the connection."""
        for conflict_id in list(self._claimed):
            with suppress(sqlite3.Error, StoreError):
                self.release(conflict_id)
        self.conn.close()
        if self._file is not None and _OPEN_HERE[self._file] > 0:
            _OPEN_HERE[self._file] -= 1
            self._file = None

    def _holder(self, held: Sequence[Any] | None) -> str | None:
        """Who else holds a claim that is still live (``None``: nobody, or it is ours, or it has lapsed)."""
        if held is None:
            return None
        h_host, h_pid, h_started, h_since, h_owner, h_lease = held
        if (h_host, h_pid, h_owner) == (socket.gethostname(), os.getpid(), self.owner):
            return None
        here = h_host == socket.gethostname()
        where = _("process {pid}", pid=h_pid) if here else _("process {pid} on {host}", pid=h_pid, host=h_host)
        if h_lease is not None:
            if time.time() >= float(h_lease) or (here and not _alive(int(h_pid), str(h_started))):
                return None  # a server that stopped renewing its claim, or is gone
            return _(
                "open at a konflikt serve table ({where}, since {since}); stop that server, or wait until its claim "
                "lapses ({seconds} s after its last renewal)",
                where=where,
                since=h_since,
                seconds=round(LEASE_SECONDS),
            )
        if here and not _alive(int(h_pid), str(h_started)):
            return None
        return _("open in another konflikt ({where}, since {since}); quit it there", where=where, since=h_since)

    def claim(self, conflict_id: int, lease: float | None = None) -> None:
        """Mark the conflict open in this store (one holder per open conflict at the table).

        With ``lease`` (seconds: a server), the claim lapses unless :meth:`renew` renews it; without, it lives as
        long as this process. A claim whose process is gone (killed, crashed) or whose lease has lapsed is taken
        over.

        Raises:
            StoreError: another live holder has the conflict open.
        """
        host, pid = socket.gethostname(), os.getpid()
        with self.transaction() as tx:
            row = tx.execute(
                "SELECT host, pid, started, since, owner, lease FROM sessions WHERE conflict_id = ?", (conflict_id,)
            )
            other = self._holder(row.fetchone())
            if other is not None:
                raise StoreError(_("conflict {id} is {holder}", id=conflict_id, holder=other))
            tx.execute(
                "INSERT OR REPLACE INTO sessions (conflict_id, host, pid, started, since, owner, lease) "
                "VALUES (?,?,?,?,?,?,?)",
                (
                    conflict_id, host, pid, _process_started(pid), _now(), self.owner,
                    None if lease is None else time.time() + lease,
                ),
            )  # fmt: skip
        self._claimed.add(conflict_id)

    def renew(self, lease: float) -> set[int]:
        """Renew the leases of this store's claims for ``lease`` seconds more; the conflicts whose claim it no
        longer holds (taken over after it lapsed, or deleted) are returned and forgotten."""
        until = time.time() + lease
        lost: set[int] = set()
        with self.transaction() as tx:
            for conflict_id in sorted(self._claimed):
                cur = tx.execute(
                    "UPDATE sessions SET lease = ? WHERE conflict_id = ? AND host = ? AND pid = ? AND owner = ?",
                    (until, conflict_id, socket.gethostname(), os.getpid(), self.owner),
                )
                if cur.rowcount != 1:
                    lost.add(conflict_id)
        self._claimed -= lost
        return lost

    def holds(self, tx: sqlite3.Connection, conflict_id: int) -> None:
        """Inside a transaction: refuse to write to a conflict that is gone, or that this store no longer holds.

        Raises:
            TableGone: the conflict was deleted.
            StoreError: another konflikt has taken it over.
        """
        if tx.execute("SELECT 1 FROM conflicts WHERE id = ?", (conflict_id,)).fetchone() is None:
            self._claimed.discard(conflict_id)
            raise TableGone(_("conflict {id} was deleted", id=conflict_id))
        row = tx.execute(
            "SELECT 1 FROM sessions WHERE conflict_id = ? AND host = ? AND pid = ? AND owner = ?",
            (conflict_id, socket.gethostname(), os.getpid(), self.owner),
        ).fetchone()
        if row is None:
            self._claimed.discard(conflict_id)
            raise StoreError(
                _("conflict {id} was taken over by another konflikt after this one's claim lapsed", id=conflict_id)
            )

    def release(self, conflict_id: int) -> None:
        with self.transaction() as tx:
            tx.execute(
                "DELETE FROM sessions WHERE conflict_id = ? AND host = ? AND pid = ? AND owner = ?",
                (conflict_id, socket.gethostname(), os.getpid(), self.owner),
            )
        self._claimed.discard(conflict_id)

    # ---- join links (the browser table) ---------------------------------------------------------------------------
    def links(self) -> list[tuple[str, int, int | None, str]]:
        """Every join link: ``(token, the table id it was made for, the conflict it opens or None, seat)``."""
        if not self.readonly or "links" in self._tables():
            rows = self.conn.execute("SELECT token, table_id, conflict_id, seat FROM links ORDER BY table_id, seat")
            return [(str(t), int(i), None if c is None else int(c), str(s)) for t, i, c, s in rows.fetchall()]
        return []

    def link(self, conflict_id: int, seats: Sequence[str]) -> dict[str, str]:
        """The conflict's join links by seat, making the missing ones (one transaction); each token is bound to this
        conflict and dropped with it.

        Raises:
            TableGone: there is no such conflict (deleted).
        """
        with self.transaction() as tx:
            if tx.execute("SELECT 1 FROM conflicts WHERE id = ?", (conflict_id,)).fetchone() is None:
                raise TableGone(_("conflict {id} was deleted", id=conflict_id))
            rows = tx.execute("SELECT seat, token FROM links WHERE conflict_id = ?", (conflict_id,)).fetchall()
            tokens = {str(seat): str(token) for seat, token in rows}
            for seat in seats:
                if seat not in tokens:
                    tokens[seat] = secrets.token_urlsafe(TOKEN_BYTES)
                    tx.execute(
                        "INSERT INTO links (token, table_id, conflict_id, seat, made) VALUES (?,?,?,?,?)",
                        (tokens[seat], conflict_id, conflict_id, seat, _now()),
                    )
        return tokens

    def exists(self, conflict_id: int) -> bool:
        return self.conn.execute("SELECT 1 FROM conflicts WHERE id = ?", (conflict_id,)).fetchone() is not None

    def _tables(self) -> set[str]:
        return {str(row[0]) for row in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

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
        record = check_storable(conflict, seats)
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

    def append_many(self, runs: Iterable[tuple[int, int, Sequence[Step], Sequence[str]]], held: bool = False) -> None:
        """Commit runs of applied steps, ``(conflict_id, first index, steps, sources)``, in one transaction.

        A table server commits what several inputs caused at once (one fsync, not one per step); all or none. With
        ``held`` (the server) each conflict must still exist and be claimed by this store (:meth:`holds`).
        """
        with self.transaction() as tx:
            for conflict_id, first, steps, sources in runs:
                if held:
                    self.holds(tx, conflict_id)
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

    def truncate(self, conflict_id: int, keep: int, held: bool = False) -> None:
        """Drop every step from index ``keep`` on (undo), in one transaction; undoing past the end of a campaign's
        conflict gives its characters back as they were before it. ``held``: as :meth:`append_many`."""
        with self.transaction() as tx:
            if held:
                self.holds(tx, conflict_id)
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
            raise StoreError(_("no saved conflict {id} in {path}", id=conflict_id, path=self.path))
        self.claim(conflict_id)
        with self.transaction() as tx:
            # its join links stay, bound to no conflict: they answer "this table was deleted" and open nothing
            tx.execute("UPDATE links SET conflict_id = NULL WHERE conflict_id = ?", (conflict_id,))
            tx.execute("DELETE FROM sessions WHERE conflict_id = ?", (conflict_id,))
            tx.execute("DELETE FROM steps WHERE conflict_id = ?", (conflict_id,))
            tx.execute("DELETE FROM conflicts WHERE id = ?", (conflict_id,))
        self._claimed.discard(conflict_id)

    def finish(self, conflict_id: int, outcome: str, held: bool = False) -> None:
        """Mark the conflict finished. A campaign's conflict whose last step was saved without its ending (by a
        front end that does not pass one to :meth:`append`) writes its characters back here, once. ``held``: as
        :meth:`append_many`."""
        ending = None
        if library.needs_write_back(self.conn, conflict_id):
            loaded = self.load(conflict_id)
            ending = library.ending_of(loaded.conflict.replay(), loaded.conflict.scenario.title)
        with self.transaction() as tx:
            if held:
                self.holds(tx, conflict_id)
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
            raise StoreError(
                _("no saved conflict {id} in {path} (see 'konflikt saves')", id=conflict_id, path=self.path)
            )
        rows = self.conn.execute(
            "SELECT step, source FROM steps WHERE conflict_id = ? ORDER BY idx", (conflict_id,)
        ).fetchall()
        where = _("saved conflict {id} in {path}", id=conflict_id, path=self.path)
        try:
            record = _readable(parse_json(row[0], "record"), row[0])
            if not isinstance(record, dict):
                raise KonfliktError(_("record: not a JSON object"))
            record["steps"] = [_readable(parse_json(step, "steps"), step) for step, _ in rows]
            record["play"] = {
                "dice": row[1],
                "seats": parse_json(row[2], "seats"),
                "sources": [source for _, source in rows],
            }
            conflict, play = Conflict.from_json(record, where), PlayInfo.from_record(record)
        except KonfliktError as exc:
            message = str(exc).removeprefix(f"{where}: ")
            raise StoreError(_("{where} cannot be read: {problem}", where=where, problem=message)) from None
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
