"""Optimal play prepared beside the table: the solved game made in another process while people play, so that
``advise`` never waits on it.

Solving a scenario's game takes from seconds to a minute or two (presja's knife fight about 50 s the first time) and
is pure Python: in the table's own process it would freeze the prompt, and in a thread it would halve the speed of
every ``odds`` asked meanwhile (one interpreter lock). So the table starts a worker process (``python -m
konflikt.analysis.background_solve``, at a lower priority) that solves the game and writes it to the disk cache
(:mod:`.optimal_cache`), or says why it is out of reach; when the worker is done, a thread of the table's process
loads the solution from the cache, and from then on ``advise`` answers from it at once. A scenario solved before
(the same document, options and version) is loaded from the cache without a worker.

Until then :meth:`OptimalInBackground.progress` says how far it is, and the table answers with what it has (the
exact or estimated values under the heuristic, :mod:`.from_here`), saying which.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any

from konflikt.core.conflict import new_state
from konflikt.core.messages import _
from konflikt.core.scenario import Scenario, scenario_from_document
from konflikt.core.state import State

OUT_OF_REACH = 3
"""The worker's exit code when the game is out of reach (its one line on stdout says why)."""
NICE = 10
"""How much lower the worker's priority is: the table's own answers come first on a busy machine."""


class OptimalInBackground:
    """The solved game of one conflict (scenario, rule overrides), made beside the table (see the module)."""

    def __init__(self, scenario: Scenario, overrides: Mapping[str, Any]) -> None:
        self.scenario, self.overrides = scenario, dict(overrides)
        self.started = time.monotonic()
        self.finished_after: float | None = None
        self.why_not = ""
        self._ready = threading.Event()
        self._process: subprocess.Popen[str] | None = None
        self._thread = threading.Thread(target=self._prepare, name="konflikt-optimal", daemon=True)
        self._thread.start()

    # ---- what the table asks -----------------------------------------------------------------------------------
    def ready(self) -> bool:
        """The solution is loaded in this process: :func:`konflikt.analysis.optimal_solve.advice` answers at once."""
        return self._ready.is_set() and not self.why_not

    def done(self) -> bool:
        """Ready, or known to be out of reach."""
        return self._ready.is_set()

    def progress(self) -> str:
        """How far the preparation is, in words for the status line."""
        if self.ready():
            return _("optimal play solved (in {seconds} s)", seconds=round(self.finished_after or 0))
        if self.done():
            return _("optimal play out of reach: {reason}", reason=self.why_not)
        return _(
            "optimal play being solved beside the table ({seconds} s so far)",
            seconds=round(time.monotonic() - self.started),
        )

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the preparation; whether it is done."""
        return self._ready.wait(seconds)

    def stop(self) -> None:
        """End the worker (the table closes)."""
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()

    # ---- the preparation ---------------------------------------------------------------------------------------
    def _prepare(self) -> None:
        try:
            if not self._from_cache():
                self._solve_in_worker()
                if not self.why_not:
                    self._from_cache()
        except Exception as exc:  # the table goes on without optimal advice, and says why
            self.why_not = f"{type(exc).__name__}: {exc}"
        finally:
            self.finished_after = time.monotonic() - self.started
            self._ready.set()

    def _opening(self) -> State:
        return new_state(self.scenario, self.overrides)

    def _from_cache(self) -> bool:
        """Load the solution where the disk cache has it; ``False`` where it has none (nothing solved here)."""
        from konflikt.analysis import optimal_cache
        from konflikt.analysis.optimal_policy import solver_for

        opening = self._opening()
        key = optimal_cache.cache_key(self.scenario.document, dict(opening.options), "equilibrium")
        if not optimal_cache.path_for(key).is_file():
            return False
        solver_for(self.scenario, opening)  # loads it (a damaged file is solved again here, rarely)
        return True

    def _solve_in_worker(self) -> None:
        request = json.dumps(
            {"document": self.scenario.document, "source": self.scenario.source, "overrides": self.overrides},
            ensure_ascii=False,
            default=str,
        )
        self._process = subprocess.Popen(
            [sys.executable, "-m", "konflikt.analysis.background_solve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        said, _err = self._process.communicate(request)
        if self._process.returncode == OUT_OF_REACH:
            self.why_not = said.strip() or _("too large to solve")
        elif self._process.returncode != 0:
            self.why_not = _("the solving process stopped (exit code {code})", code=self._process.returncode)


_PREPARED: dict[str, OptimalInBackground] = {}
_PREPARED_LOCK = threading.Lock()
KEPT = 8
"""How many conflicts' preparations a process keeps (the browser table's server: one per scenario and options)."""


def prepared(scenario: Scenario, overrides: Mapping[str, Any]) -> OptimalInBackground | None:
    """The preparation of optimal play for this scenario and these rule overrides, started now if none is under
    way in this process (one worker per distinct game, however many tables play it); ``None`` where the ruleset has
    no round game, so that the solved game is not kept and the State API answers from the state asked instead."""
    if scenario.ruleset.round_game is None:
        return None
    from konflikt.analysis import optimal_cache

    options = dict(new_state(scenario, overrides).options)
    key = optimal_cache.cache_key(scenario.document, options, "equilibrium")
    with _PREPARED_LOCK:
        found = _PREPARED.get(key)
        if found is None:
            if len(_PREPARED) >= KEPT:
                for old in _PREPARED.values():
                    old.stop()
                _PREPARED.clear()
            found = _PREPARED[key] = OptimalInBackground(scenario, overrides)
        return found


def _work() -> int:
    """The worker: read the conflict from stdin, solve its game into the disk cache; exit 0, or 3 with why not."""
    from konflikt.analysis.optimal_policy import solver_for
    from konflikt.errors import KonfliktError

    if os.name == "posix":
        os.nice(NICE)
    request = json.loads(sys.stdin.read())
    scenario = scenario_from_document(request["document"], request["source"])
    try:
        solver_for(scenario, new_state(scenario, request["overrides"]))
    except KonfliktError as exc:
        print(str(exc).split(";")[0])
        return OUT_OF_REACH
    return 0


if __name__ == "__main__":
    sys.exit(_work())
