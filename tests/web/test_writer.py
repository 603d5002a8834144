"""The store's own thread: writes in the order asked, grouped into one transaction while the disk is busy."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from konflikt.core.actions import Action, Step
from konflikt.core.conflict import Conflict
from konflikt.core.scenario import load_scenario
from konflikt.store.db import Store
from konflikt.web.writer import Append, StoreThread


def step(n: int) -> Step:
    return Step("snurre", action=Action.of("move", n=n))


def rows(db: Path, cid: int) -> list[tuple[int, str, str]]:
    store = Store.open(db, readonly=True)
    try:
        return [
            (idx, src, text)
            for idx, src, text in store.conn.execute(
                "SELECT idx, source, step FROM steps WHERE conflict_id = ? ORDER BY idx", (cid,)
            )
        ]
    finally:
        store.close()


def test_writes_queued_behind_a_busy_disk_commit_together_in_order_and_a_bad_one_fails_alone(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    writer = StoreThread(db)
    writer.start()
    conflict = Conflict(load_scenario("levald/duel"), {}, 1)

    async def run() -> tuple[int, list[BaseException | None]]:
        cid = await writer.call(lambda store: store.create(conflict))
        gate = threading.Event()
        busy = asyncio.ensure_future(writer.call(lambda store: gate.wait(10)))  # the thread is busy: writes queue up
        await asyncio.sleep(0.05)
        before = writer.commits
        writes = [
            writer.write([Append(cid, i * 2, [step(i * 2), step(i * 2 + 1)], ["human", "policy"])]) for i in range(10)
        ]
        clash = writer.write([Append(cid, 4, [step(99)], ["human"])])  # index 4 is taken by the third write
        tasks = [asyncio.ensure_future(w) for w in (*writes, clash)]
        await asyncio.sleep(0.05)
        gate.set()
        await busy
        results = await asyncio.gather(*tasks, return_exceptions=True)
        return writer.commits - before, [r if isinstance(r, BaseException) else None for r in results]

    try:
        commits, results = asyncio.run(run())
    finally:
        writer.stop()
    assert results[:10] == [None] * 10 and isinstance(results[10], sqlite3.IntegrityError)
    saved = rows(db, 1)
    assert [idx for idx, _, _ in saved] == list(range(20))
    assert [src for _, src, _ in saved] == ["human", "policy"] * 10
    assert all(f'"n": {idx}' in text for idx, _, text in saved)
    # the eleven queued writes: one transaction that failed on the clash, then one by one (ten commits, one refusal)
    assert commits == 10


def test_writes_queued_behind_a_busy_disk_share_one_commit(tmp_path: Path) -> None:
    writer = StoreThread(tmp_path / "k.sqlite")
    writer.start()
    conflict = Conflict(load_scenario("levald/duel"), {}, 1)

    async def run() -> int:
        cids = [await writer.call(lambda store: store.create(conflict)) for _ in range(5)]
        gate = threading.Event()
        busy = asyncio.ensure_future(writer.call(lambda store: gate.wait(10)))
        await asyncio.sleep(0.05)
        before = writer.commits
        tasks = [asyncio.ensure_future(writer.write([Append(c, 0, [step(0)], ["human"])])) for c in cids]
        await asyncio.sleep(0.05)
        gate.set()
        await busy
        await asyncio.gather(*tasks)
        return writer.commits - before

    try:
        assert asyncio.run(run()) == 1
    finally:
        writer.stop()


def test_a_store_that_cannot_be_opened_is_refused_when_the_thread_starts(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    with pytest.raises(Exception, match="is a folder"):
        StoreThread(folder).start()


KILLED_MID_GAME = """
import os, sys, asyncio
from pathlib import Path
from konflikt.core.actions import Action, Step
from konflikt.core.conflict import Conflict
from konflikt.core.scenario import load_scenario
from konflikt.web.writer import Append, StoreThread

writer = StoreThread(Path(sys.argv[1]))
writer.start()

async def run() -> None:
    cid = await writer.call(lambda store: store.create(Conflict(load_scenario("levald/duel"), {}, 1)))
    for i in range(5):
        await writer.write([Append(cid, i, [Step("snurre", action=Action.of("move", n=i))], ["human"])])

asyncio.run(run())
os._exit(0)  # killed: no clean stop, the -wal file is left as it was
"""


def test_steps_committed_by_a_server_process_killed_without_stopping_are_all_read_back(tmp_path: Path) -> None:
    """The server writes ahead (WAL, synchronous NORMAL) while it serves: a killed process has lost no committed
    step, a read-only command reads them, and the next writer folds the ``-wal`` back into the file."""
    db = tmp_path / "k.sqlite"
    subprocess.run([sys.executable, "-c", KILLED_MID_GAME, str(db)], check=True, timeout=60)
    assert {p.name for p in tmp_path.iterdir()} == {"k.sqlite", "k.sqlite-wal", "k.sqlite-shm"}
    assert [idx for idx, _, _ in rows(db, 1)] == list(range(5))
    store = Store.open(db)
    try:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        store.close()
    assert [p.name for p in tmp_path.iterdir()] == ["k.sqlite"]
    assert [idx for idx, _, _ in rows(db, 1)] == list(range(5))


def test_a_stopped_server_leaves_the_file_with_the_rollback_journal_as_every_other_command_writes_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "k.sqlite"
    writer = StoreThread(db)
    writer.start()
    try:
        mode = asyncio.run(writer.call(lambda store: store.conn.execute("PRAGMA journal_mode").fetchone()[0]))
        assert mode == "wal"
    finally:
        writer.stop()
    assert [p.name for p in tmp_path.iterdir()] == ["k.sqlite"]
    store = Store.open(db, readonly=True)
    try:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        store.close()
