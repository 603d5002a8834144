"""A kernel made ready for the table's first ``odds`` while the game master reads the first prompt, without
slowing the table down.

A kernel's first run loads its compiled loop from numba's cache (well under a second), or, in a fresh install or
after the loop's source changed, compiles it: 15 CPU seconds for Le våld's duel. numba's compiler is Python code:
compiled in a thread of the table's process it holds the GIL half the time for all those seconds, and the table's
own answers (the exact solver, the reference runner) run at half speed beside it. So the warm-up first tries to
load in this process with compiling refused; when the loop is not in the cache, a separate process (lower
priority, ended with the table) compiles it into the cache, and this process then loads it from there. While that
process works, ``odds`` answers without the kernel and without waiting for it (:attr:`WarmUp.elsewhere`).

The separate process is this module run as a program: the scenario's document, its options and the seats' policy
names come on stdin (pickled), and it builds the same kernel and plays it once.
"""

from __future__ import annotations

import atexit
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from typing import Any

import numpy as np

from konflikt.core.capabilities import PreparesWinners
from konflikt.core.options import Options
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario, scenario_from_document

FIRST_RUN = 100
"""Conflicts the warm-up plays: enough to load (or compile) everything a real answer will use."""
NICENESS = 5
"""The compiling process's lower priority: on a busy machine the table comes first."""


class CompileRefused(BaseException):
    """Raised in the warm-up thread when numba starts compiling there (a BaseException: no kernel's ``except
    Exception`` can take it for one of its own errors)."""


@contextmanager
def compiling_refused() -> Iterator[None]:
    """Inside: a numba compilation started by this thread raises :class:`CompileRefused` before it begins (one
    loaded from the cache does not). Other threads compile as usual. Without numba, nothing is refused."""
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover - numba is a dependency
        yield
        return
    me = threading.get_ident()

    class Refuse(event.Listener):
        def on_start(self, ev: Any) -> None:
            if threading.get_ident() == me:
                raise CompileRefused

        def on_end(self, ev: Any) -> None:
            pass

    with event.install_listener("numba:compile", Refuse()):
        yield


class WarmUp:
    """One opening's kernel being made ready in a background thread.

    Attributes:
        ready: set when the kernel has played once in this process (``kernel``), or it turned out it cannot
            (``kernel`` stays ``None``; ``failed`` when by an error, which making it again will show).
        elsewhere: the kernel's loop is being compiled in a separate process now: waiting for it would take
            seconds, so an answer should not.
        seconds: wall seconds the warm-up took, once ready.
    """

    def __init__(self) -> None:
        self.ready = threading.Event()
        self.elsewhere = False
        self.kernel: Any = None
        self.failed = False
        self.seconds = 0.0

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for :attr:`ready`; ``False`` at once when the compiling is (or goes) elsewhere."""
        end = time.monotonic() + seconds
        while not self.elsewhere:
            if self.ready.wait(min(0.02, max(end - time.monotonic(), 0.0))):
                return True
            if time.monotonic() >= end:
                return False
        return False

    def start(self, make: Callable[[], Any], play_once: Callable[[Any], None], payload: Mapping[str, Any]) -> None:
        """Make the kernel (``make``; ``None``: no kernel fits) and play it once (``play_once``), in a daemon
        thread; ``payload`` is what :func:`compile_elsewhere` sends the separate process."""
        threading.Thread(target=self._run, args=(make, play_once, payload), name="konflikt-kernel-warm-up",
                         daemon=True).start()  # fmt: skip

    def _run(self, make: Callable[[], Any], play_once: Callable[[Any], None], payload: Mapping[str, Any]) -> None:
        started = time.monotonic()
        try:
            kernel = make()
            if kernel is None:
                return
            try:
                with compiling_refused():
                    play_once(kernel)
            except CompileRefused:
                self.elsewhere = True
                try:
                    compile_elsewhere(payload)
                finally:
                    self.elsewhere = False
                play_once(kernel)  # from the cache now (compiled here after all if the cache cannot be written)
            self.kernel = kernel
        except Exception:
            self.failed = True  # the question asked later makes the kernel again, and says what failed
        finally:
            self.seconds = time.monotonic() - started
            self.ready.set()


def payload_of(scenario: Scenario, options: Options, policies: Mapping[str, Policy]) -> dict[str, Any]:
    """What the separate process needs to build the same kernel."""
    return {
        "document": scenario.document,
        "source": scenario.source,
        "options": dict(options),
        "policies": {seat: policy.name for seat, policy in policies.items()},
    }


_RUNNING: set[subprocess.Popen[bytes]] = set()


def _end_running() -> None:
    for process in list(_RUNNING):
        process.kill()


atexit.register(_end_running)


def compile_elsewhere(payload: Mapping[str, Any]) -> bool:
    """Run this module as a program to build the kernel of ``payload`` and play it once, which compiles its loop
    into numba's cache; wait for it. ``True`` when it finished well. It is killed when this process exits, and a
    Ctrl-C at the table reaches it too (same process group)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "konflikt.analysis.kernel_warm_up"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # not the terminal: the table's end must not wait for this process's
    )
    _RUNNING.add(process)
    try:
        assert process.stdin is not None
        with process.stdin:
            process.stdin.write(pickle.dumps(dict(payload)))
        return process.wait() == 0
    except OSError:
        return False
    finally:
        _RUNNING.discard(process)


def main() -> None:
    """The separate process: build the kernel described on stdin and play it once; or, with ``values`` in the
    payload, prepare the compact model's values from the opening (``prepare_winners``: Le våld), which compiles the
    kernels they need."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # the table's Ctrl-C ends it without a traceback
    with suppress(OSError):  # not permitted: at the usual priority then
        os.nice(NICENESS)
    payload = pickle.load(sys.stdin.buffer)
    scenario = scenario_from_document(payload["document"], payload["source"])
    ruleset = scenario.ruleset
    policies = {seat: ruleset.policy(name) for seat, name in payload["policies"].items()}
    if payload.get("values"):
        from konflikt.core.conflict import new_state

        state = new_state(scenario, payload["options"])
        assert ruleset.exact_model is not None
        model = ruleset.exact_model(state, policies)
        if not isinstance(model, PreparesWinners):
            raise SystemExit("no model with values")
        model.prepare_winners(state)
        return
    assert ruleset.kernel is not None
    made = ruleset.kernel(scenario, Options(payload["options"]), policies)
    if isinstance(made, str):
        raise SystemExit(f"no kernel: {made}")
    made.run(FIRST_RUN, np.random.default_rng(0))


if __name__ == "__main__":
    main()
