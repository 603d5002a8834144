"""A hot journal is not damage (issue 48, 7): after a writer is killed mid-transaction, read-only commands recover the
save as ``play --resume`` does (they said "damaged save database (attempt to write a readonly database)")."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result

SAVED_BY_V3 = Path(__file__).parent / "data" / "main_v3.sqlite"
KILLED_WRITER = r"""
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA cache_size = 1")  # pages spill into the file before the commit: the journal is hot
conn.execute("BEGIN IMMEDIATE")
conn.execute("UPDATE steps SET step = step || ?", (" " * 3000,))
os.kill(os.getpid(), 9)
"""


def test_read_only_commands_recover_a_hot_journal(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    shutil.copy(SAVED_BY_V3, db)
    assert cli("chars", "add", "builtin:budolf", "--ruleset", "fimbulfrost", "--name", "b2", "--db", str(db)).code == 0
    before = json.loads(cli("export", "1", "--db", str(db)).out)
    subprocess.run([sys.executable, "-c", KILLED_WRITER, str(db)], check=False)
    journal = db.with_name(db.name + "-journal")
    assert journal.stat().st_size > 0, "the killed writer left a hot journal"
    for args in (("saves",), ("saves", "--json"), ("export", "1"), ("chars",), ("campaign", "list")):
        result = cli(*args, "--db", str(db))
        assert result.code == 0, (args, result.err)
        assert "damaged" not in result.err
    assert not journal.exists() or journal.stat().st_size == 0
    assert json.loads(cli("export", "1", "--db", str(db)).out) == before, "rolled back to the last commit"
