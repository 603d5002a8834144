"""The solver over a ruleset's compact model (:class:`konflikt.core.ruleset.ExactModel`): exact odds in seconds.

A model's state is a tuple of small integers and one step of it is one round of the system, computed by the rules
code itself; there is no Python ``State`` to copy per node. The reachable states are enumerated breadth-first and
numbered; each keeps its successors as (id, probability) pairs. Then:

* **acyclic** (the round clock is in the compact state, so every step moves it on): the probability mass of the
  start is pushed through the states in topological order (Kahn's order of the explored graph): each state's mass
  is final once all its predecessors are done. Every end is reached with its round count, so the distribution of
  the length comes with the outcome. In floats each mass is a sum of products of non-negative numbers, so its
  relative error is at most γ_k = k·u / (1 − k·u) (u = 2⁻⁵³, k the longest chain of roundings into it: a product,
  a rounded probability and a sum per step): :attr:`Solved.error_bound` states that bound, computed per run.
* **cyclic** (a model without the clock): the expected visits ``x`` solve ``(I − Qᵀ) x = e_start``
  (``scipy.sparse.linalg.spsolve``); an end's probability is Σ x_u P(u → end). Exactly, the graph goes to the
  State-API solver's component-by-component Gauss–Jordan over Fractions (:func:`..exact.solve_graph`).

Measured (``konflikt bench``): for the knife fight pushing floats in pure Python beats building a sparse matrix
and a triangular solve, and the exact push with integer numerators over each round's common denominator costs a
few times the float one; both are dwarfed by the exploration, which calls the rules.
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Generic, TypeVar

from konflikt.analysis.exact import StateSpaceTooLarge
from konflikt.core.capabilities import Marks, StepsInBatches
from konflikt.core.deadline import check_time
from konflikt.core.messages import _
from konflikt.core.ruleset import ExactModel
from konflikt.errors import KonfliktError

Label = Hashable
P = TypeVar("P", Fraction, float)
K = TypeVar("K", bound=Hashable)
UNIT_ROUNDOFF = 2.0**-53
CHECK_EVERY = 1023
"""The time limit is checked at every state whose id is a multiple of 1,024 (a check costs about 0.1 µs)..."""
CHECK_EXPLORING = 15
"""...and every 16 states while exploring, where a model's successors can take milliseconds a state (presja's knife
fight: 2 ms, an exchange of a dozen declarations): 1,024 of them overran a 0.4 s share by seconds."""


@dataclass
class Chain:
    """The explored model: state ids in breadth-first order, successors by id, ends with their labels."""

    states: list[Hashable]
    den: list[int]
    """Each state's denominator: its successors' probabilities are numerator / den."""
    edges: list[Sequence[tuple[int, int]]]
    """Successors of each state as (id, numerator) (none for an end)."""
    ends: dict[int, Label]
    lengths: dict[int, int]
    """The length (rounds played) at each end."""
    marks: dict[tuple[int, int], list[Hashable]]
    """What happens on an edge that the labels leave out (the model's optional ``marks(before, after)``): each
    mark's probability is summed over the edges that carry it (a mark happens at most once in a conflict)."""
    marked_from: dict[int, dict[Hashable, int]] = field(default_factory=dict)
    """The same marks by the state they leave: each mark with the sum of the numerators of the edges that carry it
    (the pushes add a mark's share once per state, not once per edge: exactly, one addition of big integers per
    state and mark instead of one Fraction per edge)."""
    layered: bool = False
    """Every edge goes from one breadth-first level to the next (a round clock in the state): the ids' own order is
    then a topological order, and no sort is needed."""

    @property
    def size(self) -> int:
        return len(self.states)

    @property
    def edge_count(self) -> int:
        return sum(len(e) for e in self.edges)


def explore(model: ExactModel, starts: Sequence[Hashable], max_states: int, depth: int | None = None) -> Chain:
    """Every compact state reachable from ``starts``, breadth-first (ids in the order first met); with ``depth``,
    only those within ``depth`` steps, and the states first met at that depth are left without successors."""
    index: dict[Hashable, int] = {}
    chain = Chain([], [], [], {}, {}, {})
    states, dens, all_edges = chain.states, chain.den, chain.edges
    queue: deque[int] = deque()
    level: list[int] = []
    layered = True
    for s in starts:
        if s not in index:
            index[s] = len(states)
            states.append(s)
            dens.append(1)
            all_edges.append(())
            level.append(0)
            queue.append(index[s])
    successors, end, length = model.successors, model.end, model.length
    marks = model.marks if isinstance(model, Marks) else None
    batch = model.successors_batch if isinstance(model, StepsInBatches) else None
    stepped: dict[int, tuple[int, Sequence[tuple[Hashable, int]]]] = {}
    """Successors worked out ahead, a level at a time, by a model that steps many states at once."""
    collecting = gc.isenabled()
    gc.disable()  # millions of small tuples, none of them cyclic: the collector would only rescan them
    try:
        while queue:
            u = queue.popleft()
            if not u & CHECK_EXPLORING:
                check_time()
            s = states[u]
            label = end(s)
            if label is not None:
                chain.ends[u] = label
                chain.lengths[u] = length(s)
                continue
            if depth is not None and level[u] >= depth:
                continue
            if batch is None:
                den, ways = successors(s)
            else:
                if u not in stepped:
                    ahead = [v for v in (u, *queue) if end(states[v]) is None]
                    stepped.update(zip(ahead, batch([states[v] for v in ahead]), strict=True))
                den, ways = stepped.pop(u)
            if not ways:
                raise KonfliktError(
                    _("the exact model of this conflict has no way on from {state}, which has not ended", state=repr(s))
                )
            edges: list[tuple[int, int]] = []
            below = level[u] + 1
            for t, w in ways:
                v = index.get(t)
                if v is not None:
                    if layered and level[v] != below:
                        layered = False
                else:
                    v = index[t] = len(states)
                    if v >= max_states:
                        raise StateSpaceTooLarge(
                            v - len(queue), len(queue), max_states, f"over {max_states:,} compact states"
                        )
                    states.append(t)
                    dens.append(1)
                    all_edges.append(())
                    level.append(below)
                    queue.append(v)
                edges.append((v, w))
                if marks is not None:
                    made = marks(s, t)
                    if made:
                        chain.marks[u, v] = made
                        summed = chain.marked_from.setdefault(u, {})
                        for mark in made:
                            summed[mark] = summed.get(mark, 0) + w
            dens[u] = den
            all_edges[u] = edges
    finally:
        if collecting:
            gc.enable()
    chain.layered = layered
    return chain


def topological(chain: Chain) -> list[int] | None:
    """Kahn's order of the states (each after all its predecessors), or ``None`` when the graph has a cycle."""
    if chain.layered:
        return list(range(chain.size))
    indegree = [0] * chain.size
    for edges in chain.edges:
        for v, _w in edges:
            indegree[v] += 1
    ready = [u for u in range(chain.size) if indegree[u] == 0]
    order: list[int] = []
    while ready:
        u = ready.pop()
        order.append(u)
        for v, _w in chain.edges[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                ready.append(v)
    return order if len(order) == chain.size else None


@dataclass
class Solved(Generic[P]):
    """Where the mass of the starts ends: probability per (outcome label, length)."""

    ends: dict[tuple[Label, int], P]
    marks: dict[Hashable, P]
    """Each mark's probability (see :attr:`Chain.marks`)."""
    error_bound: float
    """A bound on the relative (so also the absolute) error of each probability: 0 when exact."""
    method: str
    """How it was solved: ``forward`` (acyclic, in topological order) or ``sparse`` / ``gauss-jordan`` (cyclic)."""
    has_lengths: bool = True
    """Whether the lengths are those of the ends (acyclic); a cyclic model gives its ends' lengths as 0."""


def solve_exact(chain: Chain, starts: Sequence[tuple[int, Fraction]]) -> Solved[Fraction]:
    """Exact probabilities (Fractions) of every (label, length) from the weighted starts."""
    order = topological(chain)
    if order is None:
        return _cyclic_exact(chain, starts)
    # integer numerators over one denominator per state: a state's mass is num[u] / dmass[u]
    num: dict[int, int] = {}
    dmass: dict[int, int] = {}
    for u, p in starts:
        _add(num, dmass, u, p.numerator, p.denominator)
    end_num: dict[tuple[Label, int], int] = {}
    end_den: dict[tuple[Label, int], int] = {}
    mark_num: dict[Hashable, int] = {}
    mark_den: dict[Hashable, int] = {}
    edges, ends, dens, marked_from = chain.edges, chain.ends, chain.den, chain.marked_from
    for u in order:
        if not u & CHECK_EVERY:
            check_time()
        n = num.pop(u, 0)
        if not n:
            continue
        d = dmass.pop(u)
        if u in ends:
            _add(end_num, end_den, (ends[u], chain.lengths[u]), n, d)
            continue
        dd = d * dens[u]
        for v, w in edges[u]:
            _add(num, dmass, v, n * w, dd)
        for mark, w in marked_from.get(u, {}).items():
            _add(mark_num, mark_den, mark, n * w, dd)
    out = {key: Fraction(n, end_den[key]) for key, n in end_num.items()}
    marked = {mark: Fraction(n, mark_den[mark]) for mark, n in mark_num.items()}
    return Solved(out, marked, 0.0, "forward")


def _add(num: dict[K, int], den: dict[K, int], v: K, n: int, d: int) -> None:
    """num[v]/den[v] += n/d, keeping a common denominator (the lcm; no gcd of the numerators on the way)."""
    have = den.get(v)
    if have is None:
        num[v], den[v] = n, d
    elif have == d:
        num[v] += n
    else:
        common = lcm(have, d)
        num[v] = num[v] * (common // have) + n * (common // d)
        den[v] = common


def solve_float(chain: Chain, starts: Sequence[tuple[int, Fraction]]) -> Solved[float]:
    """float64 probabilities of every (label, length), with a stated bound on their relative error."""
    order = topological(chain)
    if order is None:
        return _cyclic_float(chain, starts)
    n_states = chain.size
    mass = [0.0] * n_states
    depth = [0] * n_states
    """Roundings on the longest chain into each state's mass (see the module docstring)."""
    arrivals = [0] * n_states
    for u, p in starts:
        mass[u] += float(p)
        arrivals[u] += 1
    out: dict[tuple[Label, int], float] = {}
    summed: dict[tuple[Label, int], int] = {}
    marked: dict[Hashable, float] = {}
    marks_summed: dict[Hashable, int] = {}
    worst = 0
    edges, ends, dens, marked_from = chain.edges, chain.ends, chain.den, chain.marked_from
    for u in order:
        if not u & CHECK_EVERY:
            check_time()
        m = mass[u]
        if not m:
            continue
        k = depth[u] + max(arrivals[u] - 1, 0) + 1  # the sums into it, and the rounded start
        if u in ends:
            key = (ends[u], chain.lengths[u])
            out[key] = out.get(key, 0.0) + m
            summed[key] = summed.get(key, 0) + 1
            worst = max(worst, k)
            continue
        share = m / dens[u]
        k += 3  # m / den, × numerator (exact integers below 2⁵³), the sum into the child
        for v, w in edges[u]:
            mass[v] += share * w
            arrivals[v] += 1
            if k > depth[v]:
                depth[v] = k
        made = marked_from.get(u)
        if made:
            for mark, w in made.items():  # w: the numerators of the edges carrying it, summed exactly
                marked[mark] = marked.get(mark, 0.0) + share * w
                marks_summed[mark] = marks_summed.get(mark, 0) + 1
            worst = max(worst, k)
    worst += max([*summed.values(), *marks_summed.values(), 1]) - 1
    ku = worst * UNIT_ROUNDOFF
    return Solved(out, marked, ku / (1 - ku), "forward")


def _cyclic_float(chain: Chain, starts: Sequence[tuple[int, Fraction]]) -> Solved[float]:
    """Expected visits by one sparse solve, then each end's share; the bound from the solve's residual."""
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse.linalg import spsolve

    n = chain.size
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for u, edges in enumerate(chain.edges):
        for v, w in edges:
            if v not in chain.ends:
                rows.append(v)
                cols.append(u)
                vals.append(w / chain.den[u])
    q_t = sp.csr_matrix((vals, (rows, cols)), shape=(n, n))
    system = (sp.identity(n, format="csr") - q_t).tocsc()
    b = np.zeros(n)
    for u, p in starts:
        b[u] += float(p)
    visits = spsolve(system, b)
    out: dict[tuple[Label, int], float] = {}
    marked: dict[Hashable, float] = {}
    for (u, v), marks in chain.marks.items():
        p_uv = dict(chain.edges[u])[v] / chain.den[u]
        for mark in marks:
            marked[mark] = marked.get(mark, 0.0) + float(visits[u]) * p_uv
    for u, edges in enumerate(chain.edges):
        for v, w in edges:
            if v in chain.ends:
                key = (chain.ends[v], 0)
                out[key] = out.get(key, 0.0) + float(visits[u]) * w / chain.den[u]
    for u, _w in starts:
        if u in chain.ends:
            key = (chain.ends[u], 0)
            out[key] = out.get(key, 0.0) + float(b[u])
    residual = float(np.abs(system @ visits - b).max())
    total = max(float(np.abs(visits).sum()), 1.0)
    return Solved(out, marked, max(residual * total, n * UNIT_ROUNDOFF), "sparse", has_lengths=False)


def _cyclic_exact(chain: Chain, starts: Sequence[tuple[int, Fraction]]) -> Solved[Fraction]:
    """The State-API solver's exact component-by-component solve, over the model's graph."""
    from konflikt.analysis.exact import Graph, solve_graph

    labels: list[Label] = []
    label_ids: dict[Label, int] = {}
    graph = Graph(list(range(chain.size)), [1] * chain.size, [[] for _ in range(chain.size)], {})
    for u, edges in enumerate(chain.edges):
        if u in chain.ends:
            graph.labels[u] = chain.ends[u]
            continue
        graph.den[u] = chain.den[u]
        graph.edges[u] = [(w, v, 0) for v, w in edges]

    def outcome(node: int) -> int:
        lab = graph.labels[node]
        if lab not in label_ids:
            label_ids[lab] = len(labels)
            labels.append(lab)
        return label_ids[lab]

    values = solve_graph(graph, outcome, lambda child, step: None)
    out: dict[tuple[Label, int], Fraction] = {}
    for u, w in starts:
        d, nums = values[u]
        for o, v in nums.items():
            key = (labels[o], 0)
            out[key] = out.get(key, Fraction(0)) + w * Fraction(v, d)
    if chain.marks:
        raise KonfliktError(_("marks of a model with cycles are not solved exactly yet: use floats"))
    return Solved(out, {}, 0.0, "gauss-jordan", has_lengths=False)
