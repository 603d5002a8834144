"""Opening the save database a second time in one process never drops the first connection's locks.

POSIX advisory locks belong to the process and the file: closing *any* descriptor of the file releases all of them
(SQLite's own "How To Corrupt An SQLite Database File", 2.2). A server holding a table's store that opened the same
file again read-only (the console listing campaigns) read its header with a plain ``open()`` and closed it: the
server's lock was gone, another process wrote in the middle of the server's transaction, and the server's later
commits were lost. The header is read only where this process has not opened the file in SQLite already.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from konflikt.store.db import Store

OTHER_WRITER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)
try:
    conn.execute("BEGIN IMMEDIATE")
except sqlite3.OperationalError as exc:
    print("refused:", exc)
else:
    print("wrote in the middle")
    conn.execute("ROLLBACK")
"""


def _other_process_writes(path: Path) -> str:
    done = subprocess.run([sys.executable, "-c", OTHER_WRITER, str(path)], capture_output=True, text=True, timeout=60)
    return done.stdout.strip()


def test_a_read_only_open_in_the_writers_process_keeps_its_lock(tmp_path: Path) -> None:
    path = tmp_path / "saves.sqlite"
    writer = Store.open(path)
    try:
        writer.conn.execute("BEGIN IMMEDIATE")  # a transaction under way: the file is locked for other writers
        assert _other_process_writes(path).startswith("refused")
        reader = Store.open(path, readonly=True)  # the console's read, in the same process
        reader.close()
        assert _other_process_writes(path).startswith("refused"), "the writer's lock was dropped"
        writer.conn.execute("ROLLBACK")
    finally:
        writer.close()
