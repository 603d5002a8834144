"""The save database's own thread: every store call of the table server runs there, in the order it was asked.

While the server runs, its connection writes ahead (``journal_mode = WAL`` with ``synchronous = NORMAL``): a
commit appends to the ``-wal`` file and returns, with no wait for the disk (0.2 ms instead of 26 ms a commit on the
development machine, where the rollback journal's fsyncs were the largest part of a step's latency). A committed
step is in the operating system's hands at once, so a server *process* killed at any moment has lost nothing
(the next open of the file, by the server or by ``konflikt play``, reads it back from the ``-wal``); the file stays
whole through a power cut too, though the last steps before it may be lost. When the server stops, the file goes
back to the rollback journal every other command uses (:data:`SERVING`), and the ``-wal`` is folded in.

Steps that queue up while a commit is in progress are committed together, in one transaction
(:meth:`Store.append_many`). Nobody hears of a step before the transaction holding it has committed (the caller
awaits it), so a server killed at any moment has lost no step a page has seen.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from konflikt.core.actions import Step
from konflikt.errors import StoreError
from konflikt.store.db import Store
from konflikt.web.i18n import _

T = TypeVar("T")


@dataclass(frozen=True)
class Append:
    """Steps ``first``, ``first + 1``, … of a conflict, with their sources, to commit."""

    conflict_id: int
    first: int
    steps: Sequence[Step]
    sources: Sequence[str]


SERVING = ("PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL")
"""The server's connection, while it serves (a ``Store`` opens with the rollback journal and ``FULL``)."""
STOPPED = "PRAGMA journal_mode = DELETE"
"""Back to the rollback journal when the server stops (refused while another program has the file open: then
the next ``Store.open`` does it)."""

Write = Append | Callable[[Store], None]
"""One write of a table: steps to append, or any other store call (truncate on undo, finish)."""


@dataclass
class _Job:
    done: Future[Any]
    call: Callable[[Store], Any] | None = None
    writes: Sequence[Write] = ()


class StoreThread:
    """One thread owning the store's connection (SQLite connections stay in the thread that opened them)."""

    def __init__(self, db: Path | None, held: bool = False) -> None:
        self.db = db
        self.held = held
        """The server's: steps are appended only to conflicts this store still claims (and that still exist)."""
        self.path: Path | None = None
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="konflikt-store", daemon=True)
        self._opened: Future[Path] = Future()
        self.commits = 0
        """Transactions that committed steps (fewer than the inputs when they were grouped)."""

    def start(self) -> Path:
        """Open the store in its thread; its errors (a damaged file, a read-only folder) are raised here."""
        self._thread.start()
        self.path = self._opened.result()
        return self.path

    def stop(self) -> None:
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join()

    async def call(self, work: Callable[[Store], T]) -> T:
        """Run ``work(store)`` in the store's thread, after everything asked before it."""
        done: Future[T] = Future()
        self._jobs.put(_Job(done, call=work))
        return await asyncio.wrap_future(done)

    def call_now(self, work: Callable[[Store], T]) -> T:
        """:meth:`call`, waited for in the calling thread (the server's start, before the event loop serves)."""
        done: Future[T] = Future()
        self._jobs.put(_Job(done, call=work))
        return done.result()

    async def write(self, writes: Sequence[Write]) -> None:
        """Commit a table's writes, in order; appends may share a transaction with other tables' appends."""
        if not writes:
            return
        done: Future[None] = Future()
        self._jobs.put(_Job(done, writes=list(writes)))
        await asyncio.wrap_future(done)

    def _run(self) -> None:
        try:
            store = Store.open(self.db)
        except BaseException as exc:
            self._opened.set_exception(exc)
            return
        try:
            for pragma in SERVING:
                store.conn.execute(pragma)
        except sqlite3.Error as exc:
            store.close()
            self._opened.set_exception(StoreError(_("{path}: cannot be written ({error})", path=store.path, error=exc)))
            return
        self._opened.set_result(store.path)
        try:
            job = self._jobs.get()
            while job is not None:
                if job.call is not None:
                    self._call(store, job)
                    job = self._jobs.get()
                    continue
                batch = [job]
                while True:  # gather the writes that queued up while the last commit was on the disk
                    try:
                        job = self._jobs.get_nowait()
                    except queue.Empty:
                        self._commit(store, batch)
                        job = self._jobs.get()
                        break
                    if job is None or job.call is not None:
                        self._commit(store, batch)
                        break
                    batch.append(job)
        finally:
            with suppress(sqlite3.Error):
                store.conn.execute(STOPPED)
            store.close()

    @staticmethod
    def _call(store: Store, job: _Job) -> None:
        assert job.call is not None
        try:
            result = job.call(store)
        except BaseException as exc:
            job.done.set_exception(exc)
        else:
            job.done.set_result(result)

    def _commit(self, store: Store, jobs: list[_Job]) -> None:
        """Appends grouped in one transaction, other writes in order between them; a failure fails its own job."""
        writes = [w for job in jobs for w in job.writes]
        appends = [w for w in writes if isinstance(w, Append)]
        if len(appends) == len(writes):
            try:
                store.append_many([(w.conflict_id, w.first, w.steps, w.sources) for w in appends], held=self.held)
            except Exception:  # one job's bad write must not fail the others: one by one below
                pass
            else:
                self.commits += 1
                for job in jobs:
                    job.done.set_result(None)
                return
        for job in jobs:
            try:
                for w in job.writes:
                    if isinstance(w, Append):
                        store.append_many([(w.conflict_id, w.first, w.steps, w.sources)], held=self.held)
                        self.commits += 1
                    else:
                        w(store)
            except Exception as exc:
                job.done.set_exception(exc)
            else:
                job.done.set_result(None)
