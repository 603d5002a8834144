"""Odds of a compact model whose round clock is only a horizon: the clockless chain, stepped round by round.

Where no rule or policy reads the rounds played except the cap (Le våld's ``max_rounds``), the clock in a compact
state only copies every state once per round it can be met in. A model says so with three optional hooks (see
``docs/architecture.md``, "Compact models"): ``clock(c)`` splits a compact state into the clockless state and the
rounds played, ``step(u)`` is one round of a clockless state (ends by the rules only), ``at_cap(u)`` the outcome of
a conflict still going when the rounds run out, and ``cap`` the rounds. The clockless chain has loops (a round of
regaining Gard can lead back where it started); the cap makes the horizon finite, so the chain is solved forward:

* **floats**: the transition matrix (``scipy.sparse`` CSR, column u holding u's successors, the ends' columns
  empty) times the vector of where the mass stands, once per round from the start's round to the cap. The mass that
  reaches an end in round r ends with length r; what still goes at the cap ends as ``at_cap`` says, at length cap.
  Each product sums non-negative terms, so an entry's relative error grows by at most γ_{d+1} per round (d the
  most successors summed into one state, one more rounding for the rounded weight, u = 2⁻⁵³); over R rounds
  γ_{R(d+1)+1}, plus the sums of the ends into their labels. :attr:`..compact.Solved.error_bound` states that bound.
* **exactly** (``--exact``): the same rounds with integer numerators over one common denominator per round
  (reduced by the numerators' gcd each round): the same answer in Fractions, slower, under the time limit
  (``core/deadline.py``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from math import gcd, lcm
from typing import Any

from konflikt.analysis.compact import CHECK_EVERY, UNIT_ROUNDOFF, Chain, Label, Solved, explore
from konflikt.analysis.exact import StateSpaceTooLarge
from konflikt.core.capabilities import ClocklessChain, Propagates, SolvesBlocks
from konflikt.core.deadline import check_time
from konflikt.errors import KonfliktError, ModelTooLarge


class Clockless:
    """A model's clockless chain, in the terms :func:`..compact.explore` walks: ``step`` as the successors."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.unit: str = model.unit
        self.successors = model.step
        self.end = model.end

    @staticmethod
    def encode(state: object) -> None:
        return None  # the model encodes; this view only steps

    @staticmethod
    def length(compact: Hashable) -> int:
        return 0  # the clock is the solver's (the round it steps)


def has_propagation(model: object) -> bool:
    """Whether ``model`` pushes its float odds forward itself (``propagate(weighted, max_live)``: Le våld)."""
    return isinstance(model, Propagates)


def propagate_odds(
    model: Any, weighted: Sequence[tuple[Hashable, Fraction]], max_states: int
) -> tuple[int, Solved[float]]:
    """Floats by the model's forward propagation: the most round starts alive in one round, and the probability
    of every (label, length) within the model's stated relative bound (plus the mass it stopped with, absolute).

    Raises:
        StateSpaceTooLarge: more than ``max_states`` round starts alive after some round.
    """
    try:
        pushed = model.propagate(weighted, max_states)
    except ModelTooLarge as exc:  # the model's own refusal, with the starts alive in the round that stopped it
        before = sum(exc.per_round[:-1])
        raise StateSpaceTooLarge(before, exc.met, max_states, why=f"by forward propagation: {exc}") from None
    return int(pushed.peak), Solved(dict(pushed.ends), {}, float(pushed.error_bound) + float(pushed.leftover), "pushed")


def has_blocks(model: object) -> bool:
    """Whether ``model`` solves its float odds without the clock itself (``solve_blocks(weighted, max_states)``:
    Le våld, block by block of Omtöckning), giving each label's probability and the mean length, not the
    length's distribution."""
    return isinstance(model, SolvesBlocks)


def blocks_odds(model: Any, weighted: Sequence[tuple[Hashable, Fraction]], max_states: int) -> Any:
    """The model's block solve (``ends`` by label, ``mean_length`` — E[length · 1] over the starts' mass —,
    ``error_bound`` absolute, ``states``).

    Raises:
        StateSpaceTooLarge: more than ``max_states`` states met (the model's own count, its exception's
            ``met``), or starts the model's solve does not take (a ``ValueError``: said so).
    """
    try:
        return model.solve_blocks(weighted, max_states)
    except ModelTooLarge as exc:  # before ValueError, which it is: the model's own refusals keep their count
        raise StateSpaceTooLarge(exc.met, exc.pending, max_states, why=f"by blocks: {exc}") from None
    except KonfliktError:
        raise
    except ValueError as exc:
        raise StateSpaceTooLarge(0, 0, max_states, why=f"the block solve: {exc}") from None


def has_horizon(model: object) -> bool:
    """Whether ``model`` offers the clockless chain (``clock``, ``step``, ``at_cap``, ``cap``)."""
    return isinstance(model, ClocklessChain)


def solve_horizon(
    model: Any, weighted: Sequence[tuple[Hashable, Fraction]], max_states: int, exact: bool
) -> tuple[Chain, Solved[Fraction] | Solved[float]]:
    """The explored clockless chain, and the probability of every (outcome label, length) from the weighted
    compact starts (each with its own clock)."""
    clocked = [(*model.clock(c), w) for c, w in weighted]
    cap = int(model.cap)
    # a state first met k rounds on holds mass k rounds after its start at the earliest: past cap − 1 none is stepped
    depth = cap - min(rounds for _, rounds, _ in clocked)
    chain = explore(Clockless(model), [u for u, _, _ in clocked], max_states, depth)
    ids = {s: i for i, s in enumerate(chain.states[: len(clocked)])}
    starts: dict[tuple[int, int], Fraction] = {}
    for u, rounds, w in clocked:
        key = (ids[u], rounds)
        starts[key] = starts.get(key, Fraction(0)) + w
    if exact:
        return chain, forward_exact(chain, starts, cap, model.at_cap)
    return chain, forward_float(chain, starts, cap, model.at_cap)


def forward_float(chain: Chain, starts: dict[tuple[int, int], Fraction], cap: int, at_cap: Any) -> Solved[float]:
    """float64 probabilities of every (label, length), round by round (see the module for the bound)."""
    import numpy as np
    import scipy.sparse as sp

    n = chain.size
    counts = np.fromiter((len(e) for e in chain.edges), dtype=np.int64, count=n)
    nnz = int(counts.sum())
    rows = np.empty(nnz, dtype=np.int64)
    vals = np.empty(nnz, dtype=np.float64)
    at = 0
    for u, edges in enumerate(chain.edges):
        if not edges:
            continue
        k = len(edges)
        den = chain.den[u]
        rows[at : at + k] = [v for v, _ in edges]
        vals[at : at + k] = [w / den for _, w in edges]
        at += k
    cols = np.repeat(np.arange(n, dtype=np.int64), counts)
    step = sp.csr_matrix((vals, (rows, cols)), shape=(n, n))
    in_degree = int(np.bincount(rows, minlength=n).max()) if nnz else 0

    end_ids = np.fromiter(chain.ends, dtype=np.int64, count=len(chain.ends))
    labels: list[Label] = []
    label_of: dict[Label, int] = {}
    for u in chain.ends:
        label_of.setdefault(chain.ends[u], len(labels))
        if len(label_of) > len(labels):
            labels.append(chain.ends[u])
    end_label = np.array([label_of[chain.ends[int(u)]] for u in end_ids], dtype=np.int64)
    per_label = np.bincount(end_label, minlength=len(labels)) if len(end_ids) else np.zeros(0, dtype=np.int64)

    out: dict[tuple[Label, int], float] = {}
    first = min(r for _, r in starts)
    last_start = max(r for _, r in starts)
    mass = np.zeros(n)
    rounds_stepped = 0
    for r in range(first, cap + 1):
        check_time()
        for (u, start_round), w in starts.items():
            if start_round == r:
                if u in chain.ends:
                    key = (chain.ends[u], r)
                    out[key] = out.get(key, 0.0) + float(w)
                else:
                    mass[u] += float(w)
        if r == cap or (r >= last_start and not mass.any()):
            break
        mass = step @ mass
        rounds_stepped += 1
        if len(end_ids):
            reached = mass[end_ids]
            if reached.any():
                for i, p in enumerate(np.bincount(end_label, weights=reached, minlength=len(labels))):
                    if p:
                        out[labels[i], r + 1] = out.get((labels[i], r + 1), 0.0) + float(p)
                mass[end_ids] = 0.0
    capped: dict[Label, int] = {}
    for still in np.flatnonzero(mass).tolist():
        label = at_cap(chain.states[still])
        out[label, cap] = out.get((label, cap), 0.0) + float(mass[still])
        capped[label] = capped.get(label, 0) + 1
    summed = max([*per_label.tolist(), *capped.values(), 1]) + rounds_stepped  # into a label, then over lengths
    ku = (rounds_stepped * (in_degree + 1) + 1 + summed) * UNIT_ROUNDOFF
    return Solved(out, {}, ku / (1 - ku), "horizon")


def forward_exact(chain: Chain, starts: dict[tuple[int, int], Fraction], cap: int, at_cap: Any) -> Solved[Fraction]:
    """Exact probabilities of every (label, length): the rounds of :func:`forward_float` in integers."""
    out: dict[tuple[Label, int], Fraction] = {}
    edges, ends, dens = chain.edges, chain.ends, chain.den
    first = min(r for _, r in starts)
    last_start = max(r for _, r in starts)
    num: dict[int, int] = {}
    denominator = 1
    for r in range(first, cap + 1):
        check_time()
        for (u, start_round), w in starts.items():
            if start_round != r:
                continue
            if u in ends:
                key = (ends[u], r)
                out[key] = out.get(key, Fraction(0)) + w
                continue
            common = lcm(denominator, w.denominator)
            num = {v: x * (common // denominator) for v, x in num.items()}
            num[u] = num.get(u, 0) + w.numerator * (common // w.denominator)
            denominator = common
        if r == cap or (r >= last_start and not num):
            break
        scale = lcm(*(dens[u] for u in num)) if num else 1
        after: dict[int, int] = {}
        for i, (u, x) in enumerate(num.items()):
            if not i & CHECK_EVERY:
                check_time()
            factor = x * (scale // dens[u])
            for v, weight in edges[u]:
                after[v] = after.get(v, 0) + factor * weight
        denominator *= scale
        num = {}
        for v, x in after.items():
            if v in ends:
                key = (ends[v], r + 1)
                out[key] = out.get(key, Fraction(0)) + Fraction(x, denominator)
            else:
                num[v] = x
        common = gcd(denominator, *num.values())
        if common > 1:
            num = {v: x // common for v, x in num.items()}
            denominator //= common
    for u, x in num.items():
        key = (at_cap(chain.states[u]), cap)
        out[key] = out.get(key, Fraction(0)) + Fraction(x, denominator)
    return Solved(out, {}, 0.0, "horizon")
