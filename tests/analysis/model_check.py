"""Helpers of the model-vs-State-API tests: random reachable states, and one round of both, side by side.

The State API is the oracle: from a state the model encodes, every chance outcome and policy choice is enumerated
(``analysis.exact.branches``, exact Fractions) until each branch reaches the next state the model encodes, or ends.
That distribution over (next compact state or end label, marks on the way) must equal the model's own successors,
Fraction for Fraction.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from math import sqrt
from typing import Any

import numpy as np

from konflikt.analysis.exact import _apply, branches
from konflikt.core.ruleset import Policy
from konflikt.core.state import CHANCE, State

Outcome = tuple[str, Hashable, frozenset[Hashable]]


def step(state: State, policies: Mapping[str, Policy], rng: np.random.Generator) -> None:
    """One move of the conflict: a chance outcome drawn with its exact odds, or the policies' choice."""
    ways = branches(state, policies)
    if state.current_player() == CHANCE or len(ways) > 1:
        probs = np.array([float(p) for p, _ in ways])
        _, move = ways[int(rng.choice(len(ways), p=probs / probs.sum()))]
    else:
        _, move = ways[0]
    _apply(state, move)


def reachable(
    start: State, policies: Mapping[str, Policy], encode: Callable[[State], Any], seed: int, count: int
) -> list[State]:
    """``count`` states the model encodes, met on random playthroughs from ``start`` (all different)."""
    rng = np.random.default_rng(seed)
    found: dict[Hashable, State] = {}
    for _ in range(count * 20):
        state = start.fork()
        stop = int(rng.integers(0, 12))
        met = 0
        while not state.is_terminal():
            if encode(state) is not None:
                if met == stop:
                    found.setdefault(state.key(), state)
                    break
                met += 1
            step(state, policies, rng)
        if len(found) >= count:
            break
    return list(found.values())


def state_api_round(
    state: State,
    policies: Mapping[str, Policy],
    encode: Callable[[State], Any],
    label: Callable[[State], Hashable],
    held: Callable[[State], list[Hashable]],
) -> dict[Outcome, Fraction]:
    """From ``state`` through the State API to the next encodable states or ends, with the marks gained."""
    before = set(held(state))
    out: dict[Outcome, Fraction] = {}
    stack: list[tuple[State, Fraction]] = []
    for p, move in branches(state, policies):
        child = state.fork()
        _apply(child, move)
        stack.append((child, p))
    while stack:
        s, w = stack.pop()
        gained = frozenset(set(held(s)) - before)
        if s.is_terminal():
            key: Outcome = ("end", label(s), gained)
        else:
            compact = encode(s)
            if compact is None:
                for p, move in branches(s, policies):
                    child = s.fork()
                    _apply(child, move)
                    stack.append((child, w * p))
                continue
            key = ("state", compact, gained)
        out[key] = out.get(key, Fraction(0)) + w
    return out


def model_round(model: Any, compact: Hashable) -> dict[Outcome, Fraction]:
    """The model's successors of ``compact`` in the same terms (an ended successor by its label)."""
    den, ways = model.successors(compact)
    out: dict[Outcome, Fraction] = {}
    for t, w in ways:
        marks = frozenset(model.marks(compact, t)) if hasattr(model, "marks") else frozenset()
        label = model.end(t)
        key: Outcome = ("end", label, marks) if label is not None else ("state", t, marks)
        out[key] = out.get(key, Fraction(0)) + Fraction(w, den)
    return out


def assert_within_4_se(exact: Mapping[Any, Fraction] | Mapping[Any, float], counts: Mapping[Any, int], n: int) -> None:
    """Each label's share of ``n`` simulated conflicts lies within 4 standard errors (at least 1/n) of its exact
    probability; a label only one side has counts as 0 on the other."""
    for label in set(exact) | set(counts):
        p = float(exact.get(label, 0))
        se = max(sqrt(p * (1 - p) / n), 1 / n)
        assert abs(counts.get(label, 0) / n - p) <= 4 * se, (label, counts.get(label, 0) / n, p)


def assert_within_4se(
    what: str, ref: Mapping[Any, int], n_ref: int, ker: Mapping[Any, int], n_ker: int, frequent: float = 0.01
) -> int:
    """Every label frequent in either run: |kernel − reference| ≤ 4 two-sample standard errors. Returns how many."""
    checked = 0
    for label in set(ref) | set(ker):
        p_ref, p_ker = ref.get(label, 0) / n_ref, ker.get(label, 0) / n_ker
        pooled = (ref.get(label, 0) + ker.get(label, 0)) / (n_ref + n_ker)
        if max(p_ref, p_ker) < frequent:
            continue
        se = sqrt(pooled * (1 - pooled) * (1 / n_ref + 1 / n_ker))
        assert abs(p_ker - p_ref) <= 4 * se, f"{what} {label!r}: kernel {p_ker:.4f}, reference {p_ref:.4f}, SE {se:.4f}"
        checked += 1
    return checked
