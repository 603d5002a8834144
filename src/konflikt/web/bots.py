"""A policy that thinks long decides apart: in a worker process, on a copy of the state, within a budget.

``mcts:20000`` or a first ``optimal`` solve may think for minutes, in pure Python. The table server never runs such
a decision on its event loop, nor in one of its own threads: a thread would hold the interpreter lock for up to the
switch interval each time the event loop, a table's thread or the store's asked for it, and every other table's
taps would wait (measured: a tap's p95 went from 19–37 ms to 104–203 ms beside an all-``mcts`` table on the
development machine). Decisions go to worker processes instead (``python -m konflikt.web.bots``, at a lower
priority, at most :data:`WORKERS` of them, kept between decisions): the state, the policy and the step's generator
are pickled to the worker, its action pickled back. Past the budget the worker is killed (no thread to stop by
hand), and the caller lets the ruleset's heuristic decide instead, saying so to the GM.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Callable
from typing import IO, Any

from konflikt.core.actions import Action
from konflikt.core.i18n import BILINGUAL, current, number
from konflikt.core.ruleset import Policy
from konflikt.core.state import State
from konflikt.web.i18n import _

NICE = 10
"""How much lower a worker's priority is: the tables' taps come first on a busy machine."""
WORKERS = max(1, min(4, os.cpu_count() or 1))
"""Worker processes at most (each holds an interpreter with konflikt: about 60 MB); more decisions wait their turn."""
START_SECONDS = 120.0
"""How long a worker may take to start (imports; not part of a decision's budget)."""
READY = b"konflikt-bots ready\n"


def _write(stream: IO[bytes], payload: bytes) -> None:
    stream.write(struct.pack(">I", len(payload)) + payload)
    stream.flush()


def _read(stream: IO[bytes]) -> bytes | None:
    head = stream.read(4)
    if len(head) < 4:
        return None
    (size,) = struct.unpack(">I", head)
    body = stream.read(size)
    return body if len(body) == size else None


class Worker:
    """One worker process and its pipes (used by one decision at a time)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "konflikt.web.bots"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        with contextlib.suppress(OSError):  # lower at once, not after its imports (a second of a core)
            os.setpriority(os.PRIO_PROCESS, self.process.pid, NICE)
        assert self.process.stdout is not None
        if self.process.stdout.readline() != READY:
            self.kill()
            raise RuntimeError("the bots' worker process did not start")

    def ask(self, request: bytes) -> tuple[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        _write(self.process.stdin, request)
        answer = _read(self.process.stdout)
        if answer is None:
            raise RuntimeError("the bots' worker process ended")
        kind, value = pickle.loads(answer)
        return str(kind), value

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()


class Bots:
    """The server's worker processes for the decisions of policies that think long."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.slots = asyncio.Semaphore(workers)
        self.idle: list[Worker] = []
        self.busy: set[Worker] = set()

    async def decide(
        self, policy: Policy, state: State, seat: str, rng: Any, seconds: float
    ) -> tuple[Action | None, Callable[[str], str] | None]:
        """``policy.choose(state, seat, rng)`` in a worker process, awaited up to ``seconds`` (the wait for a free
        worker and its start are not part of it).

        Returns the action, or ``None`` and why (past the budget, or the policy failed), as a function that says it
        of the seat (``Hedda (mcts)``) in the language of the page that reads it: the caller then lets the heuristic
        decide.
        """
        request = pickle.dumps((policy, state, seat, rng), protocol=pickle.HIGHEST_PROTOCOL)
        async with self.slots:
            worker = self.idle.pop() if self.idle else None
            if worker is None or not worker.alive():
                try:
                    worker = await asyncio.wait_for(asyncio.to_thread(Worker), START_SECONDS)
                except (TimeoutError, OSError, RuntimeError) as exc:
                    detail = " ".join(str(exc).split())[:120]
                    return None, lambda who: _(
                        "{who} could not start its worker process ({detail}): the heuristic decided instead",
                        who=who,
                        detail=detail,
                    )
            self.busy.add(worker)
            try:
                kind, value = await asyncio.wait_for(asyncio.to_thread(worker.ask, request), seconds)
            except TimeoutError:
                worker.kill()  # it is still thinking: stopped, and a fresh one starts for the next decision
                return None, lambda who: _(
                    "{who} took longer than its budget of {seconds} s a decision: the heuristic decided instead",
                    who=who,
                    seconds=format(seconds, "g") if current() in ("en", BILINGUAL) else number(seconds, 1),
                )
            except (OSError, RuntimeError, pickle.PickleError, EOFError) as exc:
                worker.kill()
                return None, _failed(str(exc))
            except asyncio.CancelledError:
                worker.kill()
                raise
            finally:
                self.busy.discard(worker)
            self.idle.append(worker)
            if kind != "ok" or not isinstance(value, Action):
                return None, _failed(str(value))
            return value, None

    def close(self) -> None:
        for worker in [*self.idle, *self.busy]:
            worker.kill()
        self.idle.clear()
        self.busy.clear()


def _failed(why: str) -> Callable[[str], str]:
    detail = " ".join(why.split())[:200]
    return lambda who: _("{who} failed ({detail}): the heuristic decided instead", who=who, detail=detail)


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """The worker's loop (its priority lowered by the server as it starts it): a pickled ``(policy, state, seat,
    rng)`` in, a pickled ``("ok", action)`` or ``("error", message)`` out, until its input ends."""
    stdout.write(READY)
    stdout.flush()
    while (request := _read(stdin)) is not None:
        try:
            policy, state, seat, rng = pickle.loads(request)
            answer: tuple[str, Any] = ("ok", policy.choose(state, seat, rng))
        except Exception as exc:  # said to the server in one line, the worker goes on
            answer = ("error", f"{type(exc).__name__}: {exc}")
        _write(stdout, pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
