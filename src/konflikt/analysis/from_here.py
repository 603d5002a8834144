"""Who wins from here, answered within a time budget: exact when the solver finishes in time, else estimated.

At the table a player asks "what are my chances?" at any prompt and wants an answer in about a second. The exact
solver (:func:`konflikt.analysis.exact.conflict_odds`) answers small conflicts exactly; it is tried first with part
of the budget, and stopped when its time is up. It is asked in floats (the table shows percentages): a compact
model's float push is within a relative 10⁻¹² or so of the Fractions and costs a fraction of the exact push; the
State-API solver computes Fractions either way. While the game master reads the first prompt, :func:`prepare`
explores the opening's compact chain in a background thread (the model keeps it, ``model_odds._EXPLORED``), so
that every later question from a state that chain holds is only the push. Otherwise the conflict is played out
many times from the current state: by the ruleset's vectorised kernel where it covers the conflict, else by the
reference runner from forks of the state. A kernel that starts from a State (``StartsFrom``) plays from the asked
state itself where it can represent it (a round's start), else from the points the State API's walk reaches next,
each with its exact probability (:func:`kernel_starts`: the bridge the exact odds walk to a model's round starts).
An estimate carries its 95% (Wilson) interval and the number of conflicts played, and is labelled ``≈``.

This module sits above both ``analysis`` and ``sim`` (layer 5, like ``sim.bench``): it is the one place that
chooses between them.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from konflikt.analysis.exact import DEFAULT_MAX_STATES, _apply, conflict_odds, grouped_branches
from konflikt.analysis.horizon import has_horizon, has_propagation
from konflikt.analysis.kernel_warm_up import (
    CompileRefused,
    WarmUp,
    compile_elsewhere,
    compiling_refused,
    payload_of,
)
from konflikt.analysis.model_odds import model_odds, winners_by_values
from konflikt.core.actions import Action
from konflikt.core.batch import Batch, Coded, wilson
from konflikt.core.capabilities import PreparesWinners, StartsFrom
from konflikt.core.deadline import OutOfTime, check_time, deadline
from konflikt.core.i18n import number
from konflikt.core.messages import _
from konflikt.core.ruleset import Policy, get_ruleset
from konflikt.core.scenario import Scenario
from konflikt.core.state import SIMULTANEOUS, State
from konflikt.errors import KonfliktError
from konflikt.sim.reference import numbers
from konflikt.sim.runner import Generators, Runner

BUDGET = 1.5
"""Seconds for one whole answer at a prompt (the issue asks for under 2 s, with the printing)."""
EXACT_SHARE = 0.4
"""The part of the budget the exact solver may use before simulation takes over."""
KERNEL_EXACT_SHARE = 0.25
"""The same at the opening of a scenario a kernel plays: a kernel needs more of the time to start."""
KERNEL_FIRST = 100
KERNEL_CHUNK = 20_000
KERNEL_MAX = 200_000
"""Conflicts a kernel plays at most for one answer (enough for intervals of ±0.2%)."""
KERNEL_AT_LEAST = 2_000
"""Conflicts a kernel plays for an answer even when its time is up (within :data:`KERNEL_GRACE`)."""
KERNEL_GRACE = 0.25
GROWTH = 4
"""A kernel's next chunk of conflicts is at most this many times its last (see :func:`_kernel_runs`)."""
KERNEL_COMPILE_SECONDS = 600.0
"""The most :func:`warm_values` waits for the kernel's warm-up (compiling elsewhere in a fresh install) first."""
VALUES_WARM_SECONDS = 120.0
"""The most wall seconds :func:`warm_values` may take (Le våld's bundled duel: ~20 s on its one thread)."""
CHAIN_WARM_SECONDS = 20.0
"""The most wall seconds :func:`prepare`'s background exploration of the opening's chain may take (beyond it the
chain is out of the table's reach anyway, and the thread would only slow the table down)."""
BRIDGE_MOVES = 20_000
"""The most State-API moves from the asked state to the points a kernel starts from (the rest of a round: the
knife fight's rolls and answers, a few hundred); beyond it the reference runner answers."""
NOBODY = "nobody"
ENGINES = {"exact": "exact", "kernel": "vectorised kernel", "reference": "reference runner"}


def percent(p: float) -> str:
    """A chance in whole percent, with a decimal near 0 and 1 where whole percent would say 0% or 100%."""
    if 0 < p < 0.01 or 0.99 < p < 1:
        return f"{p:.1%}"
    return f"{p:.0%}"


@dataclass(frozen=True)
class Chance:
    """One side's chance of winning: exact (``exact`` set, ``low == high == p``) or estimated with its interval."""

    label: str
    p: float
    low: float
    high: float
    exact: Fraction | None = None
    """The Fraction where the solver computed one (the State-API solver); ``None`` for floats and estimates."""


@dataclass(frozen=True)
class FromHere:
    """Who wins from a state: a chance per side (and for nobody), and how it was found.

    Attributes:
        chances: per side, in the scenario's order, then ``nobody`` when it can happen.
        method: ``exact``, ``kernel`` or ``reference`` (the reference runner).
        n: conflicts played for an estimate (0 when exact).
        seconds: the time it took.
        note: why it is an estimate (what stopped the exact solver), or how many states the exact answer took
            (and the floats' relative error bound).
    """

    chances: list[Chance]
    method: str
    n: int
    seconds: float
    note: str = ""

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def line(self) -> str:
        """One line: ``exact: Belzee 43.2%, Massimo 56.8%`` or ``≈ Belzee 43% (38–48%), … — n=400``."""
        if self.exact:
            return "exact: " + ", ".join(f"{c.label} {percent(c.p)}" for c in self.chances)
        if not self.n:
            return f"≈ no conflict played to its end within {self.seconds:.1f} s ({self.method} runner)"
        parts = ", ".join(f"{c.label} {percent(c.p)} ({percent(c.low)}–{percent(c.high)})" for c in self.chances)
        return f"≈ {parts} — 95% intervals, n={self.n:,} ({ENGINES[self.method]})"


@dataclass
class _Sides:
    """The scenario's sides by id, with the names a player reads."""

    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, scenario: Scenario) -> _Sides:
        names = {}
        for side in scenario.sides:
            people = ", ".join(p.name for p in side.participants)
            names[side.id] = side.name if side.name == people else f"{side.name} ({people})"
        return cls(names)

    def rows(
        self, winners: Counter[Hashable], n: int, exact: Mapping[Hashable, Fraction | float] | None
    ) -> list[Chance]:
        """Per side: the conflicts (or the probability, a Fraction or a float) where it is among the winners; then
        nobody."""
        rows: list[Chance] = []
        for side, name in [*self.names.items(), ((), NOBODY)]:
            if exact is not None:
                p: Fraction | float = sum((q for w, q in exact.items() if _won(w, side)), Fraction(0))
                if side == () and not p:
                    continue
                rows.append(Chance(name, float(p), float(p), float(p), p if isinstance(p, Fraction) else None))
            else:
                k = sum(c for w, c in winners.items() if _won(w, side))
                if side == () and not k:
                    continue
                low, high = wilson(k, n)
                rows.append(Chance(name, k / n if n else 0.0, low, high))
        return rows


def _won(winners: Hashable, side: Hashable) -> bool:
    assert isinstance(winners, tuple)
    return winners == () if side == () else side in winners


def who_wins(
    scenario: Scenario,
    state: State,
    policies: Mapping[str, Policy],
    budget: float = BUDGET,
    seed: int = 0,
    at_opening: bool | None = None,
) -> FromHere:
    """Who wins the conflict from ``state`` on, every seat playing its policy, within about ``budget`` seconds.

    Args:
        policies: seat → policy for every seat (a front end stands a policy in for a human seat).
        seed: the simulation's seed (the same question gets the same estimate).
        at_opening: whether ``state`` is the scenario's opening (no step yet), where a kernel may play it;
            ``None``: read it from ``state.steps()``.
    """
    start = time.monotonic()
    sides = _Sides.of(scenario)
    if state.is_terminal():
        over: dict[Hashable, Fraction] = {state.outcome().winners: Fraction(1)}
        return FromHere(sides.rows(Counter(), 0, over), "exact", 0, 0.0, "the conflict is over")
    opening = not state.steps() if at_opening is None else at_opening
    kernel_made = scenario.ruleset.kernel is not None and not _compiling_elsewhere(scenario, policies)
    covered = kernel_made and (opening or _starts_from(scenario, policies))
    share = budget * (KERNEL_EXACT_SHARE if covered and opening else EXACT_SHARE)
    valued = _by_values(scenario, state, policies, share)
    if valued is not None:
        chances, bound = valued
        how = f"prepared values, floats within {bound:.0e}"
        return FromHere(sides.rows(Counter(), 0, chances), "exact", 0, time.monotonic() - start, how)
    ready = _ready_kernel(scenario, policies) if covered else None
    if isinstance(ready, StartsFrom):
        return _beside_exact(sides, ready, state, policies, start, share, budget, seed)
    odds, why = _exact_try(state, policies, start + share)
    if odds is not None:
        return _exact_answer(sides, odds, time.monotonic() - start)
    end = start + budget
    kernel = _kernel(scenario, state, policies, (end - time.monotonic()) / 2) if covered else None
    played: tuple[Counter[Hashable], int] | None = None
    if isinstance(kernel, StartsFrom):  # from the State itself: a fork of one under way has no steps either
        found = _locked_starts(kernel, state, policies, end)
        if found is not None:
            played = _kernel_runs(lambda n, rng: _winners(found.batches(n, rng)), end, seed)
    elif kernel is not None and opening:
        played = _kernel_runs(lambda n, rng: kernel.run(n, rng).winners.counts(), end, seed)
    if played is not None:
        winners, n = played
        method = "kernel"
    else:
        winners, n = _reference_runs(state, policies, end, seed)
        method = "reference"
    return FromHere(sides.rows(winners, n, None), method, n, time.monotonic() - start, why)


def _exact_try(state: State, policies: Mapping[str, Policy], until: float) -> tuple[Any, str]:
    """The exact solver's odds in floats, stopped at ``until``: (odds, "") or (``None``, why not, in a few words)."""
    share = max(until - time.monotonic(), 0.0)
    try:
        with deadline(until):
            if not _EXACT_LOCK.acquire(timeout=share):  # the warm-up is still exploring the opening's chain
                raise OutOfTime("the opening's chain is still being explored")
            try:
                odds = model_odds(state, policies, DEFAULT_MAX_STATES, exact=False) or conflict_odds(
                    state, policies, DEFAULT_MAX_STATES, use_model=False
                )
            finally:
                _EXACT_LOCK.release()
    except OutOfTime:
        return None, _("the exact solver did not finish in {seconds} s", seconds=number(share, 1))
    except KonfliktError as exc:
        return None, str(exc).split(";")[0].split(": ")[0]  # the reason, not its numbers: the note is one line
    return odds, ""


def _exact_answer(sides: _Sides, odds: Any, seconds: float) -> FromHere:
    bound = odds.error_bound + odds.absolute_bound
    how = f"{odds.states:,} states" + (f", floats within {bound:.0e}" if bound else "")
    return FromHere(sides.rows(Counter(), 0, odds.winners()), "exact", 0, seconds, how)


def _beside_exact(
    sides: _Sides,
    kernel: StartsFrom,
    state: State,
    policies: Mapping[str, Policy],
    start: float,
    share: float,
    budget: float,
    seed: int,
) -> FromHere:
    """Who wins from a State under way where the kernel is ready and starts from States: the exact solver tries on
    a copy of the State in a thread of its own within its share, while the kernel plays here (its loop lets go of
    Python's lock) until the exact answer comes or the time is up. The exact solver's checks of its time are
    seconds apart in places (a Le våld round pushed in floats): the answer waits for it to stop, as it did when the
    two took turns (the next question's solver needs the models), but the kernel has played meanwhile."""
    copy = state.fork()
    solved, done = threading.Event(), threading.Event()
    result: list[tuple[Any, str]] = []

    def solve() -> None:
        try:
            result.append(_exact_try(copy, policies, start + share))
            if result[0][0] is not None:
                solved.set()
        finally:
            done.set()

    threading.Thread(target=solve, name="konflikt-exact-beside", daemon=True).start()
    end = start + budget
    found = _locked_starts(kernel, state, policies, end)
    played = None
    if found is not None:
        played = _kernel_runs(lambda n, rng: _winners(found.batches(n, rng)), end, seed, solved)
    done.wait()  # its share, or its overrun: the next question's solver must find the models free
    if solved.is_set():
        return _exact_answer(sides, result[0][0], time.monotonic() - start)
    why = result[0][1]
    if played is None:
        winners, n = _reference_runs(state, policies, end, seed)
        return FromHere(sides.rows(winners, n, None), "reference", n, time.monotonic() - start, why)
    winners, n = played
    return FromHere(sides.rows(winners, n, None), "kernel", n, time.monotonic() - start, why)


def _ready_kernel(scenario: Scenario, policies: Mapping[str, Policy]) -> Any:
    """The kernel made for this scenario and these seats and warmed up, at once (``None`` where there is none
    yet, or its warm-up is still under way)."""
    key = _key(scenario, policies)
    warm = _WARM_UPS.get(key)
    if warm is not None and (not warm.ready.is_set() or warm.failed):
        return None
    found = _KERNELS.get(key)
    return found[1] if found is not None and found[0] is scenario else None


@dataclass
class KernelStarts:
    """Where a kernel's conflicts start from a State (:func:`kernel_starts`): the kernel's starts and the States
    that ended on the way there, each with its exact probability."""

    kernel: StartsFrom
    starts: list[Any]
    ended: list[State]
    weights: list[Fraction]
    """Per start, then per ended State, in that order: they sum to 1."""
    length_key: str | None = None
    """The ruleset's ``length_key``, for the ended States' lengths in its own unit."""

    def batches(self, n: int, rng: np.random.Generator) -> list[Batch]:
        """``n`` conflicts from the State: how many start from each point drawn from their probabilities at once
        (a multinomial: exactly as if each conflict walked the bridge), then each start's share played by the
        kernel; a share that ended on the way is its ended State's outcome, repeated."""
        counts = rng.multinomial(n, np.asarray([float(w) for w in self.weights]) / float(sum(self.weights)))
        out: list[Batch] = []
        for start, k in zip(self.starts, counts.tolist(), strict=False):
            if k:
                out.append(self.kernel.run_from(start, int(k), rng))
        for ended, k in zip(self.ended, counts.tolist()[len(self.starts) :], strict=True):
            if k:
                out.append(_ended_batch(ended, int(k), self.length_key))
        return out


def kernel_starts(
    kernel: StartsFrom, state: State, policies: Mapping[str, Policy], max_moves: int = BRIDGE_MOVES
) -> KernelStarts | None:
    """Where ``kernel``'s conflicts start from ``state``: ``state`` itself where the kernel represents it, else the
    points the State API's walk reaches first (every chance outcome, grouped where the rules read them alike, and
    every policy choice, with its probability, memoised by ``key()`` as the exact odds' bridge is), or ends.
    ``None`` where the walk takes more than ``max_moves`` moves or a policy's choice is not exact (it draws random
    numbers): the reference runner answers then."""
    starts: dict[Hashable, Any] = {}
    ends: dict[Hashable, State] = {}
    memo: dict[Hashable, dict[Hashable, Fraction]] = {}
    moves = 0

    def reach(s: State) -> dict[Hashable, Fraction]:
        nonlocal moves
        check_time()
        if s.is_terminal():
            end = ("end", s.key())
            ends.setdefault(end, s)
            return {end: Fraction(1)}
        key = s.key()
        found = memo.get(key)
        if found is not None:
            return found
        start = kernel.start_from(s)
        if start is not None:
            starts.setdefault(("start", key), start)
            found = {("start", key): Fraction(1)}
        else:
            found = {}
            for p, move in grouped_branches(s, policies):
                moves += 1
                if moves > max_moves:
                    raise _TooFar
                child = s.fork()
                _apply(child, move)
                for where, q in reach(child).items():
                    found[where] = found.get(where, Fraction(0)) + p * q
        memo[key] = found
        return found

    try:
        reached = reach(state)
    except (_TooFar, KonfliktError, RecursionError):
        return None
    order = [k for k in reached if k in starts] + [k for k in reached if k in ends]
    return KernelStarts(
        kernel,
        [starts[k] for k in order if k in starts],
        [ends[k] for k in order if k in ends],
        [reached[k] for k in order],
        get_ruleset(state.ruleset).length_key,
    )


class _TooFar(Exception):
    """The walk to a kernel's starts grew beyond its limit."""


def _ended_batch(state: State, k: int, length_key: str | None) -> Batch:
    """``k`` copies of an ended State's outcome as a batch (a conflict that ended on the way to a kernel's start);
    its length counts no steps, as the bridge's are not counted (:class:`~konflikt.core.capabilities.StartsFrom`)."""
    outcome = state.outcome()
    same = np.zeros(k, np.int64)
    rounds = None
    if length_key is not None and isinstance(outcome.data.get(length_key), int):
        rounds = np.full(k, int(outcome.data[length_key]), np.int64)
    return Batch(
        Coded(same, [outcome.winners]),
        Coded(same, [outcome.ending]),
        {pid: Coded(same, [fate]) for pid, fate in outcome.participants.items()},
        np.zeros(k, np.int64),
        {name: np.full(k, value) for name, value in numbers(outcome.data)},
        rounds,
    )


def _winners(batches: Sequence[Batch]) -> Counter[Hashable]:
    return sum((b.winners.counts() for b in batches), Counter())


def _locked_starts(kernel: StartsFrom, state: State, policies: Mapping[str, Policy], end: float) -> KernelStarts | None:
    """:func:`kernel_starts` holding the kernel (its tables grow as it reads starts), within half the time left."""
    wait = max((end - time.monotonic()) / 2, 0.001)
    if not _KERNEL_LOCK.acquire(timeout=wait):
        return None
    try:
        with deadline(time.monotonic() + wait):
            return kernel_starts(kernel, state, policies)
    except OutOfTime:
        return None
    finally:
        _KERNEL_LOCK.release()


def _starts_from(scenario: Scenario, policies: Mapping[str, Policy]) -> bool:
    """Whether the ruleset's kernel for this scenario and these seats (made, or not made yet) can start from a State
    under way (``StartsFrom``); one made for an opening only leaves the answer to the reference runner."""
    found = _KERNELS.get(_key(scenario, policies))
    if found is not None and found[0] is scenario:
        return isinstance(found[1], StartsFrom)
    return True  # not made yet: made when the exact solver has had its share


def choice_odds(
    scenario: Scenario,
    state: State,
    seat: str,
    policies: Mapping[str, Policy],
    budget: float = BUDGET,
    seed: int = 0,
) -> list[tuple[Action, FromHere]]:
    """For each legal choice of ``seat`` now: who wins if it is taken (the budget shared out among them)."""
    legal: Sequence[Action] = list(state.legal_actions(seat))
    end = time.monotonic() + budget
    out: list[tuple[Action, FromHere]] = []
    for i, action in enumerate(legal):
        after = state.fork()
        if state.current_player() == SIMULTANEOUS:
            after.apply_actions({seat: action})
        else:
            after.apply_action(action)
        share = max(0.05, (end - time.monotonic()) / (len(legal) - i))
        out.append((action, who_wins(scenario, after, policies, share, seed, at_opening=False)))
    return out


_KERNELS: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[Scenario, Any]] = {}
"""Kernels made for a scenario and its seats' policies, kept: making one can take a good part of the budget."""
_WARM_UPS: dict[tuple[int, tuple[tuple[str, str], ...]], WarmUp] = {}
"""The warm-up :func:`prepare` started for a scenario and its seats' policies (one scenario at a time)."""

_VALUED: dict[tuple[int, tuple[tuple[str, str], ...]], Any] = {}
"""The scenario and policies whose model holds prepared values (:func:`warm_values`), with that model: one at a
time (its values are let go when another conflict's are prepared)."""
_WARMING: set[tuple[int, tuple[tuple[str, str], ...]]] = set()
"""The scenario and policies whose values are being prepared now."""
_KERNEL_LOCK = threading.Lock()
_EXACT_LOCK = threading.Lock()
"""Held while the exact solver runs (a question, or :func:`prepare`'s exploration of the opening's chain): a
compact model and its kept chain are not shared between threads at once."""


def _key(scenario: Scenario, policies: Mapping[str, Policy]) -> tuple[int, tuple[tuple[str, str], ...]]:
    return id(scenario), tuple(sorted((seat, p.name) for seat, p in policies.items()))


def prepare(scenario: Scenario, state: State, policies: Mapping[str, Policy]) -> None:
    """Make the kernel for this opening and run it once, in the background, while the table reads the first
    prompt: making a kernel and its first run (tables built, compiled code loaded) take most of a second, and
    compiling it, where numba's cache does not have it yet, many (in a separate process:
    :mod:`konflikt.analysis.kernel_warm_up`). Where the ruleset has a compact model, the opening's chain is
    explored meanwhile too (:func:`warm_chain`), or, where the model prepares each side's chance from every state
    (Le våld), those are worked out (:func:`ensure_values`, also for a table resumed at a round's start)."""
    warm = None
    if not state.steps():
        if _keeps_chain(state, policies):
            warm_chain(state, policies)
        if scenario.ruleset.kernel is not None:
            warm = _warm_kernel(scenario, state, policies)
    ensure_values(scenario, state, policies, after=warm)  # from the opening, or a table resumed at a round's start


def _warm_kernel(scenario: Scenario, state: State, policies: Mapping[str, Policy]) -> WarmUp:
    """The kernel of this opening made and played once in the background (:class:`WarmUp`)."""

    def make() -> Any:
        with _KERNEL_LOCK:
            return _made_kernel(scenario, state, policies)

    def play_once(kernel: Any) -> None:
        with _KERNEL_LOCK:
            kernel.run(KERNEL_FIRST, np.random.default_rng(0))

    warm = WarmUp()
    _WARM_UPS.clear()
    _WARM_UPS[_key(scenario, policies)] = warm
    warm.start(make, play_once, payload_of(scenario, state.options, policies))
    return warm


def _keeps_chain(state: State, policies: Mapping[str, Policy]) -> bool:
    """Whether a compact model answers from ``state`` by a chain it keeps for the next question: not where the
    ruleset has none or refuses these seats (the State API answers: nothing to keep), nor where the model pushes its
    floats itself or steps a clockless chain to the cap (levald: nothing kept either, and its refusal of the bundled
    duel costs seconds and most of a gigabyte). ``None`` from the factory (the opening is no round's start: the
    bridge leads to one) is given the benefit of the doubt."""
    factory = get_ruleset(state.ruleset).exact_model
    if factory is None:
        return False
    made = factory(state, policies)
    if isinstance(made, str):
        return False
    return made is None or not (has_propagation(made) or has_horizon(made))


def warm_chain(state: State, policies: Mapping[str, Policy]) -> threading.Thread:
    """Solve the conflict from ``state`` in floats in a background thread, within :data:`CHAIN_WARM_SECONDS`: the
    compact model keeps the chain it explored, so each later question from a state it holds (every step of the
    conflict, at the table) is only the float push, a tenth of a second for the knife fight instead of two. A
    question asked meanwhile waits for it within its share of the budget (:data:`_EXACT_LOCK`), else estimates.
    Out of reach (too many states, out of time, no model covers it) the warm-up just ends."""
    opening = state.fork()
    started = threading.Event()

    def explore() -> None:
        with _EXACT_LOCK:
            started.set()
            try:
                with deadline(time.monotonic() + CHAIN_WARM_SECONDS):
                    model_odds(opening, policies, DEFAULT_MAX_STATES, exact=False)
            except KonfliktError:
                pass

    thread = threading.Thread(target=explore, name="konflikt-chain-warm-up", daemon=True)
    thread.start()
    started.wait(1.0)  # holding the lock before a question can be asked
    return thread


def _values_model(state: State, policies: Mapping[str, Policy]) -> Any:
    """The compact model at ``state`` where it can prepare each side's chance from every state (``prepare_winners``:
    Le våld's duel, whose block solve keeps nothing for the next question otherwise), else ``None``."""
    factory = get_ruleset(state.ruleset).exact_model
    made = factory(state, policies) if factory is not None else None
    if not isinstance(made, PreparesWinners):
        return None
    return made


def prepares_values(state: State, policies: Mapping[str, Policy]) -> bool:
    """Whether the table prepares each side's chance from every state for this conflict (:func:`warm_values`)."""
    return _values_model(state, policies) is not None


def ensure_values(
    scenario: Scenario, state: State, policies: Mapping[str, Policy], after: WarmUp | None = None
) -> threading.Thread | None:
    """Start :func:`warm_values` where this conflict's model prepares values, none are ready or on the way for it,
    and ``state`` is a round's start (the browser table calls it with each question; the terminal table at its first
    prompt). Returns the warm-up's thread, or ``None`` where none was started."""
    key = _key(scenario, policies)
    if key in _VALUED or _WARMING or state.is_terminal() or _values_model(state, policies) is None:
        return None  # one warm-up at a time: each is ~20 CPU seconds
    return warm_values(scenario, state, policies, after)


def warm_values(
    scenario: Scenario, state: State, policies: Mapping[str, Policy], after: WarmUp | None = None
) -> threading.Thread:
    """Prepare each side's chance from every state of the duel from ``state`` (a round start) in a background
    thread, within :data:`VALUES_WARM_SECONDS`: every later "who wins from here" is then the bridge to the next round
    starts and a look-up (Le våld's duel: ~0.1 s instead of a whole solve). The model works them out on a twin of
    its own, so questions asked meanwhile are answered as before (the exact solver, else an estimate); out of reach
    (too many states, out of time) the warm-up just ends. Where numba's cache lacks the kernels it needs (a fresh
    install), a separate process prepares the same values once to compile them
    (:func:`kernel_warm_up.compile_elsewhere`, at a lower priority; about a minute for the bundled duel), and the
    warm-up then loads them.

    numba is imported in the calling thread, or, ``after`` a kernel's warm-up, once that has loaded it: two
    threads importing numba at once can find it half made ("no attribute 'start_event'")."""
    if after is None:
        import konflikt.dice.compiled  # noqa: F401 (numba, imported here before any thread of ours imports it)
    model = _values_model(state, policies)
    opening = state.fork()
    key = _key(scenario, policies)
    _WARMING.add(key)

    def build() -> None:
        if after is not None:  # its thread imports numba, and any compiling it starts elsewhere goes first
            after.ready.wait(KERNEL_COMPILE_SECONDS)
        from konflikt.dice.compiled import one_thread

        try:  # in this thread alone, loading the compiled kernels: compiling them here would stall the table
            if model is None:
                return
            for attempt in range(2):
                try:
                    with deadline(time.monotonic() + VALUES_WARM_SECONDS), one_thread(), compiling_refused():
                        model.prepare_winners(opening, DEFAULT_MAX_STATES * 4)
                    break
                except CompileRefused:  # not in numba's cache (a fresh install): compiled by a separate process
                    payload = payload_of(scenario, opening.options, policies) | {"values": True}
                    if attempt or not compile_elsewhere(payload):
                        return
        except (KonfliktError, ValueError):
            return
        finally:
            _WARMING.discard(key)
        with _EXACT_LOCK:
            for valued in _VALUED.values():  # one conflict's values at a time (~170 MB for the bundled duel)
                if valued is not model:
                    valued.winner_values = None
            _VALUED.clear()
            _VALUED[key] = model

    thread = threading.Thread(target=build, name="konflikt-values-warm-up", daemon=True)
    thread.start()
    return thread


def _by_values(
    scenario: Scenario, state: State, policies: Mapping[str, Policy], wait: float
) -> tuple[dict[Hashable, float], float] | None:
    """Who wins by a model's prepared values (:func:`warm_values`), where they were prepared for this scenario and
    these policies, are ready within ``wait`` seconds and reach every round start the bridge from ``state`` leads
    to; else ``None``."""
    if _key(scenario, policies) not in _VALUED:
        return None
    if not _EXACT_LOCK.acquire(timeout=wait):
        return None
    try:
        with deadline(time.monotonic() + wait):
            return winners_by_values(state, policies)
    except OutOfTime:
        return None
    finally:
        _EXACT_LOCK.release()


def _compiling_elsewhere(scenario: Scenario, policies: Mapping[str, Policy]) -> bool:
    warm = _WARM_UPS.get(_key(scenario, policies))
    return warm is not None and warm.elsewhere


def _kernel(scenario: Scenario, state: State, policies: Mapping[str, Policy], wait: float) -> Any:
    """The ruleset's kernel for this scenario and these policies; ``None`` where it has none that fits, or when
    :func:`prepare`'s warm-up has not made it ready after ``wait`` seconds, or is compiling it in its own process
    (the reference runner answers then, with all the time there is)."""
    warm = _WARM_UPS.get(_key(scenario, policies))
    if warm is not None:
        if not warm.wait(wait):
            return None
        if not warm.failed:
            return warm.kernel
    if not _KERNEL_LOCK.acquire(timeout=max(wait, 0.001)):
        return None
    try:
        return _made_kernel(scenario, state, policies)
    finally:
        _KERNEL_LOCK.release()


def _made_kernel(scenario: Scenario, state: State, policies: Mapping[str, Policy]) -> Any:
    factory = scenario.ruleset.kernel
    if factory is None:
        return None
    key = _key(scenario, policies)
    found = _KERNELS.get(key)
    if found is None or found[0] is not scenario:
        made = factory(scenario, state.options, dict(policies))
        _KERNELS.clear()  # one scenario at a time is played at a table
        found = _KERNELS[key] = (scenario, None if isinstance(made, str) else made)
    return found[1]


def _kernel_runs(
    play: Callable[[int, np.random.Generator], Counter[Hashable]],
    end: float,
    seed: int,
    stop: threading.Event | None = None,
) -> tuple[Counter[Hashable], int]:
    """Chunks of conflicts played by the kernel (``play(n, rng)``: the winners of ``n`` conflicts) until the time is
    up (a chunk is not interrupted: each is sized to end within the time left), or ``stop`` is set."""
    rng = np.random.default_rng(seed)
    batches: list[Counter[Hashable]] = []
    done, chunk = 0, KERNEL_FIRST
    while done < KERNEL_MAX and (time.monotonic() < end or _short(done, end)):
        if stop is not None and stop.is_set():
            break
        began = time.monotonic()
        with _KERNEL_LOCK:
            batches.append(play(chunk, rng))
        done += chunk
        # the next chunk sized to a quarter of the time left, so the last one ends near the budget, and at most
        # GROWTH times this one: a kernel that fills its tables as it meets new states (presja) plays its first
        # hundred conflicts fast after the warm-up and the next thousands at a hundredth of that rate
        took = max(time.monotonic() - began, 1e-4)
        fits = chunk * (end - time.monotonic()) / 4 / took
        chunk = int(min(KERNEL_CHUNK, GROWTH * chunk, max(KERNEL_FIRST, fits)))
    winners: Counter[Hashable] = sum(batches, Counter())
    return winners, sum(winners.values())


def _short(done: int, end: float) -> bool:
    """Whether a kernel that has played ``done`` conflicts by the end of its time plays on a little: its first chunk
    in any case, then up to :data:`KERNEL_AT_LEAST` within :data:`KERNEL_GRACE` seconds more (a few chunks of a few
    milliseconds each, where the exact solver's try overran its share: a choice's whole budget at the table is a
    tenth of a second)."""
    return not done or (done < KERNEL_AT_LEAST and time.monotonic() < end + KERNEL_GRACE)


def _reference_runs(
    state: State, policies: Mapping[str, Policy], end: float, seed: int
) -> tuple[Counter[Hashable], int]:
    """Play forks of ``state`` to their end until the time is up (a conflict under way when it is, is dropped)."""
    runner = Runner(dict(policies), Generators.from_seed(seed), trusted=True)
    opening = state.fork()
    opening.quiet = True
    ends: list[Hashable] = []
    try:
        with deadline(end):
            while time.monotonic() < end:
                played = opening.fork()
                runner.play(played)
                ends.append(played.outcome().winners)
    except OutOfTime:
        pass
    return Counter(ends), len(ends)
