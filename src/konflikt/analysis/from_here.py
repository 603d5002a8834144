"""Who wins from here, answered within a time budget: exact when the solver finishes in time, else estimated.

At the table a player asks "what are my chances?" at any prompt and wants an answer in about a second. The exact
solver (:func:`konflikt.analysis.exact.conflict_odds`) answers small conflicts exactly; it is tried first with part
of the budget, and stopped when its time is up. Otherwise the conflict is played out many times from the current
state: by the ruleset's vectorised kernel where it covers the state (a kernel plays from the scenario's opening
only), else by the reference runner from forks of the state. An estimate carries its 95% (Wilson) interval and
the number of conflicts played, and is labelled ``≈``.

This module sits above both ``analysis`` and ``sim`` (layer 5, like ``sim.bench``): it is the one place that
chooses between them.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from konflikt.analysis.exact import DEFAULT_MAX_STATES, conflict_odds, policy_distribution
from konflikt.core.actions import Action
from konflikt.core.batch import wilson
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario
from konflikt.core.state import SIMULTANEOUS, State
from konflikt.errors import KonfliktError
from konflikt.sim.runner import Generators, Runner

BUDGET = 1.5
"""Seconds for one whole answer at a prompt (the issue asks for under 2 s, with the printing)."""
EXACT_SHARE = 0.4
"""The part of the budget the exact solver may use before simulation takes over."""
KERNEL_FIRST = 100
KERNEL_CHUNK = 20_000
KERNEL_MAX = 200_000
"""Conflicts a kernel plays at most for one answer (enough for intervals of ±0.2%)."""
NOBODY = "nobody"
ENGINES = {"exact": "exact", "kernel": "vectorised kernel", "reference": "reference runner"}


def percent(p: float) -> str:
    """A chance in whole percent, with a decimal near 0 and 1 where whole percent would say 0% or 100%."""
    if 0 < p < 0.01 or 0.99 < p < 1:
        return f"{p:.1%}"
    return f"{p:.0%}"


class _OutOfTime(KonfliktError):
    """The exact solver's share of the budget is spent (raised from inside a policy call)."""


@dataclass(frozen=True)
class Chance:
    """One side's chance of winning: exact (``exact`` set, ``low == high == p``) or estimated with its interval."""

    label: str
    p: float
    low: float
    high: float
    exact: Fraction | None = None


@dataclass(frozen=True)
class FromHere:
    """Who wins from a state: a chance per side (and for nobody), and how it was found.

    Attributes:
        chances: per side, in the scenario's order, then ``nobody`` when it can happen.
        method: ``exact``, ``kernel`` or ``reference`` (the reference runner).
        n: conflicts played for an estimate (0 when exact).
        seconds: the time it took.
        note: why it is an estimate (what stopped the exact solver), or how many states the exact answer took.
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

    def rows(self, winners: Counter[Hashable], n: int, exact: Mapping[Hashable, Fraction] | None) -> list[Chance]:
        """Per side: the conflicts (or the probability) where it is among the winners; then nobody."""
        rows: list[Chance] = []
        for side, name in [*self.names.items(), ((), NOBODY)]:
            if exact is not None:
                p = sum((q for w, q in exact.items() if _won(w, side)), Fraction(0))
                if side == () and not p:
                    continue
                rows.append(Chance(name, float(p), float(p), float(p), p))
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


class _Timed:
    """A policy that gives up when the exact solver's time is spent; chooses as the policy it wraps."""

    def __init__(self, policy: Policy, deadline: float) -> None:
        self.policy, self.deadline, self.name = policy, deadline, policy.name

    def action_distribution(self, state: State, seat: str) -> list[tuple[Action, Fraction]]:
        if time.monotonic() > self.deadline:
            raise _OutOfTime("the exact solver's time was up")
        return policy_distribution(self.policy, state, seat)

    def choose(self, state: State, seat: str, rng: np.random.Generator) -> Action:
        return self.policy.choose(state, seat, rng)


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
    deadline = start + budget * EXACT_SHARE
    timed = {seat: _Timed(p, deadline) for seat, p in policies.items()}
    try:
        odds = conflict_odds(state, timed, DEFAULT_MAX_STATES)
    except _OutOfTime:
        why = f"the exact solver did not finish in {budget * EXACT_SHARE:.1f} s"
    except KonfliktError as exc:
        why = str(exc).split(";")[0]
    else:
        seconds = time.monotonic() - start
        return FromHere(sides.rows(Counter(), 0, odds.winners()), "exact", 0, seconds, f"{odds.states:,} states")
    opening = not state.steps() if at_opening is None else at_opening
    end = start + budget
    kernel = _kernel(scenario, state, policies) if opening else None
    if kernel is not None:
        winners, n = _kernel_runs(kernel, end, seed)
        method = "kernel"
    else:
        winners, n = _reference_runs(state, policies, end, seed)
        method = "reference"
    return FromHere(sides.rows(winners, n, None), method, n, time.monotonic() - start, why)


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


def _kernel(scenario: Scenario, state: State, policies: Mapping[str, Policy]) -> Any:
    factory = scenario.ruleset.kernel
    if factory is None:
        return None
    made = factory(scenario, state.options, dict(policies))
    return None if isinstance(made, str) else made


def _kernel_runs(kernel: Any, end: float, seed: int) -> tuple[Counter[Hashable], int]:
    rng = np.random.default_rng(seed)
    winners: Counter[Hashable] = Counter()
    n, chunk = 0, KERNEL_FIRST
    while n < KERNEL_MAX and (n == 0 or time.monotonic() < end):
        began = time.monotonic()
        batch = kernel.run(chunk, rng)
        winners.update(batch.winners.counts())
        n += batch.n
        # the next chunk sized to a quarter of the time left, so the last one ends near the budget
        took = max(time.monotonic() - began, 1e-4)
        chunk = int(min(KERNEL_CHUNK, max(KERNEL_FIRST, chunk * (end - time.monotonic()) / 4 / took)))
    return winners, n


def _reference_runs(
    state: State, policies: Mapping[str, Policy], end: float, seed: int
) -> tuple[Counter[Hashable], int]:
    """Play forks of ``state`` to their end until the time is up (a conflict under way when it is, is dropped)."""
    runner = Runner(_Stopping(policies, end), Generators.from_seed(seed), trusted=True)
    opening = state.fork()
    opening.quiet = True
    winners: Counter[Hashable] = Counter()
    n = 0
    while time.monotonic() < end:
        played = opening.fork()
        try:
            runner.play(played)
        except _OutOfTime:
            break
        winners[played.outcome().winners] += 1
        n += 1
    return winners, n


class _Stopping(dict[str, Any]):
    """Seat → policy, each stopping the conflict it plays when the time is up."""

    def __init__(self, policies: Mapping[str, Policy], end: float) -> None:
        super().__init__({seat: _Until(p, end) for seat, p in policies.items()})


class _Until:
    def __init__(self, policy: Policy, end: float) -> None:
        self.policy, self.end, self.name = policy, end, policy.name

    def choose(self, state: State, seat: str, rng: np.random.Generator) -> Action:
        if time.monotonic() > self.end:
            raise _OutOfTime("the simulation's time was up")
        return self.policy.choose(state, seat, rng)
