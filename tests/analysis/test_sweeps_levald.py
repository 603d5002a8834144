"""The linear algebra of Le våld's block solve (``rulesets/levald/sweeps.py``) against plain references.

Each compiled kernel of a band's solve is checked on small random substochastic chains (numpy, fixed seeds) that
have what a band has: states grouped by Gard pair, several-state strongly connected sets within a pair, steps
forward and back between pairs, self-loops, deadlocked states (no way out) and steps into them, round starts and
strikes back pending. The references are plain: reachability in Python, scipy's strongly connected components and
sparse transpose, numpy's dense inverse and solve, dense matrix powers for the survival. The kernels are called as
:meth:`.blocks.Band.prepare` and :func:`.sweeps.solve_band` call them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from konflikt.rulesets.levald import sweeps as S

Ints = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]
Bools = np.ndarray[Any, np.dtype[np.bool_]]


@dataclass
class Chain:
    """A random band: Q dense and as CSR (by state, targets ascending), Gard pairs, states with a way out."""

    q: Floats
    pair: Ints
    leaves: Bools
    dead: Bools
    """States built with no way out (steps only among such states)."""

    @property
    def n(self) -> int:
        return int(self.q.shape[0])

    def csr(self) -> tuple[Ints, Ints, Floats]:
        m = csr_matrix(self.q)
        m.sort_indices()
        return m.indptr.astype(np.int64), m.indices.astype(np.int64), m.data.astype(np.float64)


def random_chain(seed: int, n: int, pairs: int, same: float, dead: int = 4, doomed: int = 3) -> Chain:
    """``n`` states over ``pairs`` Gard pairs: each live candidate steps to a state of its own pair with chance
    ``same`` (itself included), to another pair's with chance 0.15, into a deadlocked state with chance 0.05; each
    row sums to between 0.6 and 0.95, so every part of Q has spectral radius below 1. A quarter of the live
    candidates have a way out (an exit or an end); ``dead`` states step only among themselves, and ``doomed`` ones
    only among themselves and into the dead (no way out, though not closed)."""
    rng = np.random.default_rng(seed)
    pair = rng.integers(0, pairs, n).astype(np.int64)
    picked = rng.choice(n, dead + doomed, replace=False)
    is_dead = np.zeros(n, dtype=np.bool_)
    is_dead[picked[:dead]] = True
    is_doomed = np.zeros(n, dtype=np.bool_)
    is_doomed[picked[dead:]] = True
    q = np.zeros((n, n))
    for s in range(n):
        if is_dead[s]:
            chance = np.where(is_dead, 0.6, 0.0)
        elif is_doomed[s]:
            chance = np.where(is_dead | is_doomed, 0.5, 0.0)
        else:
            chance = np.where(pair == pair[s], same, 0.15)
            chance = np.where(is_dead, 0.05, chance)
        hit = rng.random(n) < chance
        if not hit.any():
            continue
        w = np.where(hit, rng.uniform(0.1, 1.0, n), 0.0)
        q[s] = w / w.sum() * rng.uniform(0.6, 0.95)
    leaves = (rng.random(n) < 0.25) & ~is_dead & ~is_doomed
    return Chain(q, pair, leaves, is_dead | is_doomed)


@dataclass(frozen=True)
class Case:
    """A random band's recipe (:func:`random_chain`)."""

    seed: int
    states: int
    pairs: int
    same: float
    """The chance of a step within the state's own Gard pair."""
    big: bool
    """Sets over 64 states (the sweeps' work space grows), else some sets of one state."""


CASES = {
    "small sets": Case(1, 40, 12, 0.3, False),
    "pairs of few states": Case(2, 60, 8, 0.25, False),
    "sets over 64 states": Case(3, 150, 2, 0.08, True),
}


@dataclass
class Prepared:
    """A chain through the kernels as ``Band.prepare`` calls them."""

    case: Case
    chain: Chain
    live: Bools
    order: Ints
    bounds: Ints
    parts: tuple[Any, ...]
    """``split``'s answer: forward, within-set and back CSRs (positions), to_dead, inv_off, invs."""
    gt: tuple[Ints, Ints, Floats]
    it: tuple[Ints, Ints, Floats]
    bt: tuple[Ints, Ints, Floats]

    @property
    def m(self) -> int:
        return int(self.order.size)

    def q_live(self) -> Floats:
        """Q between the live states, in solve order."""
        out: Floats = self.chain.q[np.ix_(self.order, self.order)]
        return out

    def set_of(self) -> Ints:
        return np.repeat(np.arange(self.bounds.size - 1), np.diff(self.bounds)).astype(np.int64)


def prepare(case: Case) -> Prepared:
    chain = random_chain(case.seed, case.states, case.pairs, case.same)
    n = chain.n
    q_ptr, q_idx, q_w = chain.csr()
    live = S.live_states(n, q_ptr, q_idx, chain.leaves.copy())
    order, bounds = S.scc_order(n, chain.pair, q_ptr, q_idx, live)
    parts = S.split(n, q_ptr, q_idx, q_w, order, bounds)
    g_ptr, g_idx, g_w, i_ptr, i_idx, i_w, b_ptr, b_idx, b_w, *_ = parts
    m = int(order.size)
    gt, it, bt = (
        S.transposed(p, i, w, m) for p, i, w in ((g_ptr, g_idx, g_w), (i_ptr, i_idx, i_w), (b_ptr, b_idx, b_w))
    )
    return Prepared(case, chain, live, order, bounds, parts, gt, it, bt)


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request: pytest.FixtureRequest) -> Prepared:
    return prepare(CASES[request.param])


def dense(ptr: Ints, idx: Ints, w: Floats, m: int) -> Floats:
    out = np.zeros((m, m))
    for s in range(m):
        for p in range(ptr[s], ptr[s + 1]):
            out[s, idx[p]] += w[p]
    return out


def test_the_random_bands_have_what_a_band_has(case: Prepared) -> None:
    """The other tests mean something only if the chains have it: states without a way out and steps into them
    from live states, sets of one state and of several (past 64 in the big case), steps forward and back between
    sets."""
    sizes = np.diff(case.bounds)
    g_idx, b_idx, to_dead = case.parts[1], case.parts[7], case.parts[9]
    assert (~case.live).sum() >= 3 and (to_dead > 0).any()
    assert sizes.max() > (64 if case.case.big else 1)
    assert case.case.big or sizes.min() == 1
    assert g_idx.size > 0 and b_idx.size > 0


def test_live_states_are_those_that_can_reach_a_way_out(case: Prepared) -> None:
    """``live_states`` is reverse reachability from the states with an exit or an end, computed here by a plain
    search over Q's steps."""
    chain = case.chain
    into: dict[int, list[int]] = {}
    for s, t in zip(*np.nonzero(chain.q), strict=True):
        into.setdefault(int(t), []).append(int(s))
    seen = {int(s) for s in np.flatnonzero(chain.leaves)}
    todo = list(seen)
    while todo:
        for s in into.get(todo.pop(), []):
            if s not in seen:
                seen.add(s)
                todo.append(s)
    want = np.zeros(chain.n, dtype=np.bool_)
    want[sorted(seen)] = True
    assert case.live.dtype == np.bool_
    assert (case.live == want).all()
    assert not case.live[chain.dead].any() and case.live.any()


def test_the_solve_order_is_gard_pairs_then_strongly_connected_sets_in_topological_order(case: Prepared) -> None:
    """``scc_order``: a permutation of the live states, Gard pair non-decreasing; each segment of ``bounds`` is one
    strongly connected set of the same-pair steps between live states (scipy's, restricted to those steps); and no
    same-pair step goes from a later set to an earlier one."""
    chain, order, bounds, live = case.chain, case.order, case.bounds, case.live
    assert sorted(order.tolist()) == np.flatnonzero(live).tolist()
    assert (np.diff(chain.pair[order]) >= 0).all()
    assert bounds[0] == 0 and bounds[-1] == order.size and (np.diff(bounds) > 0).all()
    s, t = np.nonzero(chain.q)
    same = live[s] & live[t] & (chain.pair[s] == chain.pair[t])
    graph = csr_matrix((np.ones(same.sum()), (s[same], t[same])), shape=(chain.n, chain.n))
    _, labels = connected_components(graph, directed=True, connection="strong")
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        members = set(order[lo:hi].tolist())
        label = labels[order[lo]]
        assert members == {int(v) for v in np.flatnonzero(live & (labels == label))}
    position = np.full(chain.n, -1)
    position[order] = np.arange(order.size)
    set_of = case.set_of()
    assert (set_of[position[t[same]]] >= set_of[position[s[same]]]).all()


def test_split_partitions_the_live_steps_forward_within_and_back(case: Prepared) -> None:
    """``split``: Q's steps between live states (in solve order) are exactly the forward steps (to a later set),
    the within-set steps and the back steps (to an earlier set), each once; ``to_dead`` is each live state's
    probability of stepping into a state that is not live; each set's block is (I − Q_set)⁻¹ (numpy's inverse)."""
    m = case.m
    g_ptr, g_idx, g_w, i_ptr, i_idx, i_w, b_ptr, b_idx, b_w, to_dead, inv_off, invs = case.parts
    set_of = case.set_of()
    forward, within, back = dense(g_ptr, g_idx, g_w, m), dense(i_ptr, i_idx, i_w, m), dense(b_ptr, b_idx, b_w, m)
    q = case.q_live()
    assert g_idx.size + i_idx.size + b_idx.size == np.count_nonzero(q)
    assert (forward + within + back == q).all()
    later = set_of[None, :] > set_of[:, None]
    equal = set_of[None, :] == set_of[:, None]
    assert (forward[~later] == 0).all() and (within[~equal] == 0).all() and (back[later | equal] == 0).all()
    into_dead = case.chain.q[case.order][:, ~case.live].sum(axis=1)
    np.testing.assert_allclose(to_dead, into_dead, rtol=1e-14, atol=0)
    assert inv_off.size == case.bounds.size
    for c in range(case.bounds.size - 1):
        lo, hi = case.bounds[c], case.bounds[c + 1]
        size = hi - lo
        block = invs[inv_off[c] : inv_off[c + 1]].reshape(size, size)
        want = np.linalg.inv(np.eye(size) - q[lo:hi, lo:hi])
        np.testing.assert_allclose(block, want, rtol=1e-12, atol=1e-15 * np.abs(want).max())


def test_transposed_is_the_csr_by_target(case: Prepared) -> None:
    """``transposed`` of each part equals scipy's transpose as CSR: offsets per target, sources ascending, the same
    probabilities."""
    g_ptr, g_idx, g_w, i_ptr, i_idx, i_w, b_ptr, b_idx, b_w, *_ = case.parts
    m = case.m
    for (ptr, idx, w), (t_ptr, t_src, t_w) in zip(
        ((g_ptr, g_idx, g_w), (i_ptr, i_idx, i_w), (b_ptr, b_idx, b_w)), (case.gt, case.it, case.bt), strict=True
    ):
        want = csr_matrix((w, idx, ptr), shape=(m, m)).T.tocsr()
        want.sort_indices()
        assert t_ptr.tolist() == want.indptr.tolist()
        assert t_src.tolist() == want.indices.tolist()
        assert t_w.tolist() == want.data.tolist()


def sources(case: Prepared, seed: int) -> tuple[Floats, Floats]:
    """Entering mass (live state × 8 columns, some rows empty) and the round starts (1.0) among the live states."""
    rng = np.random.default_rng(seed)
    m = np.ascontiguousarray(rng.uniform(0.0, 1.0, (case.m, S.K)) * (rng.random((case.m, 1)) < 0.5))
    start = (rng.random(case.m) < 0.7).astype(np.float64)
    assert start.min() == 0.0 and start.max() == 1.0
    return m, start


def dense_visits(case: Prepared, m: Floats, start: Floats) -> Floats:
    """v (I − Q) = m for every column; the rounds column (1) with the mass's visits to round starts added."""
    a = np.eye(case.m) - case.q_live()
    v: Floats = np.linalg.solve(a.T, m)
    v[:, 1] = np.linalg.solve(a.T, m[:, 1] + start * v[:, 0])
    return v


def test_the_sweeps_solve_the_visits(case: Prepared) -> None:
    """``sweep_solve``: Gauss–Seidel sweeps in solve order (each set by its inverse, back steps into the next sweep)
    give the dense solve of v (I − Q) = m for the mass and box columns, and for the rounds column the dense solve
    with the mass's visits to round starts as its source, to 1e-12 relative; more than one sweep is needed (back
    steps), and the mass left unsent is within the tolerance asked."""
    m, start = sources(case, 7)
    inv_off, invs = case.parts[10], case.parts[11]
    out = np.zeros((case.m, S.K))
    r = np.empty(case.m * S.K)
    now = np.empty(case.m * S.K)
    tol = 1e-30
    sweeps, left = S.sweep_solve(m, *case.gt, *case.bt, case.bounds, inv_off, invs, start, tol, 10_000, out, r, now)
    assert 1 < sweeps < 10_000
    assert 0 <= left <= tol
    want = dense_visits(case, m, start)
    np.testing.assert_allclose(out, want, rtol=1e-12, atol=1e-15 * np.abs(want).max())


def test_the_sweeps_stop_at_the_most_sweeps_asked(case: Prepared) -> None:
    """With ``most`` 1 a single sweep is made, and the mass it sends back (the first back step's) is returned: the
    visits of column 0 then solve v (I − Q_forward − Q_within) = m, the back steps left out."""
    m, start = sources(case, 8)
    inv_off, invs = case.parts[10], case.parts[11]
    out = np.zeros((case.m, S.K))
    r, now = np.empty(case.m * S.K), np.empty(case.m * S.K)
    sweeps, left = S.sweep_solve(m, *case.gt, *case.bt, case.bounds, inv_off, invs, start, 0.0, 1, out, r, now)
    g_ptr, g_idx, g_w, i_ptr, i_idx, i_w, b_ptr, b_idx, b_w, *_ = case.parts
    no_back = dense(g_ptr, g_idx, g_w, case.m) + dense(i_ptr, i_idx, i_w, case.m)
    v0 = np.linalg.solve((np.eye(case.m) - no_back).T, m[:, 0])
    back = dense(b_ptr, b_idx, b_w, case.m)
    assert sweeps == 1
    np.testing.assert_allclose(out[:, 0], v0, rtol=1e-12, atol=1e-15 * np.abs(v0).max())
    assert left == pytest.approx(float((v0 @ back).sum()), rel=1e-12)
    assert left > 0


def residual_of(case: Prepared, m: Floats, v: Floats, start: Floats) -> tuple[Floats, Floats]:
    res = np.zeros(S.K)
    mag = np.zeros(S.K)
    S.residual(m, np.ascontiguousarray(v), *case.gt, *case.it, *case.bt, start, res, mag)
    return res, mag


def test_the_residual_is_what_the_visits_leave_unsolved(case: Prepared) -> None:
    """``residual``: per column the sum of |m + source − v (I − Q)| (the source: the rounds column's visits to round
    starts) and ‖m‖ + 2‖v‖. For the dense solution it is at rounding level; for visits perturbed by 0.1% it equals
    the residual computed densely here, to 1e-12."""
    m, start = sources(case, 9)
    v = dense_visits(case, m, start)
    res, mag = residual_of(case, m, v, start)
    np.testing.assert_allclose(mag, np.abs(m).sum(axis=0) + 2 * np.abs(v).sum(axis=0), rtol=1e-14)
    assert (res <= 1e-13 * mag).all()
    rng = np.random.default_rng(10)
    off = v * (1 + 1e-3 * rng.standard_normal(v.shape))
    res, mag = residual_of(case, m, off, start)
    source = m.copy()
    source[:, 1] += start * off[:, 0]
    want = np.abs(source - (np.eye(case.m) - case.q_live()).T @ off).sum(axis=0)
    assert (want > 1e-6).all()
    np.testing.assert_allclose(res, want, rtol=1e-12)
    np.testing.assert_allclose(mag, np.abs(m).sum(axis=0) + 2 * np.abs(off).sum(axis=0), rtol=1e-14)


# ---- how long the mass can stay --------------------------------------------------------------------------------------
def survival_chain(seed: int, n: int) -> tuple[Floats, Floats]:
    """Q (row sums 0.7 to 0.97) over round starts (start 1.0) and strikes back pending (0.0); a strike back pending
    steps only to round starts (its step ends the round)."""
    rng = np.random.default_rng(seed)
    start = (rng.random(n) < 0.7).astype(np.float64)
    start[:2] = (1.0, 0.0)
    q = np.zeros((n, n))
    for s in range(n):
        hit = rng.random(n) < 0.3
        if start[s] == 0.0:
            hit &= start == 1.0
        hit[rng.choice(np.flatnonzero(start == 1.0))] = True
        w = np.where(hit, rng.uniform(0.1, 1.0, n), 0.0)
        q[s] = w / w.sum() * rng.uniform(0.7, 0.97)
    return q, start


def brute_survival(q: Floats, start: Floats, rounds: int) -> Floats:
    """The largest chance over the states of still being in the chain after t round ends: with A = Q_SS + Q_SP Q_PS
    (a round from a round start, through a strike back or not), a round start's is (Aᵗ 1) and a strike back's
    (Q_PS Aᵗ⁻¹ 1), by dense matrix powers."""
    s, p = start == 1.0, start == 0.0
    a = q[np.ix_(s, s)] + q[np.ix_(s, p)] @ q[np.ix_(p, s)]
    h = np.ones(rounds + 1)
    for t in range(1, rounds + 1):
        power = np.linalg.matrix_power(a, t - 1)
        ones = np.ones(int(s.sum()))
        h[t] = max((a @ power @ ones).max(), (q[np.ix_(p, s)] @ power @ ones).max())
    return h


def survival_of(q: Floats, start: Floats, rounds: int, exact: int, small: float, seed: int) -> Floats:
    """``survival`` with Q handed over as three CSR parts, its entries dealt out at random (the kernel reads the
    forward, within-set and back steps alike)."""
    rng = np.random.default_rng(seed)
    deal = rng.integers(0, 3, q.shape)
    parts: list[Any] = []
    for k in range(3):
        m = csr_matrix(np.where(deal == k, q, 0.0))
        m.sort_indices()
        parts += [m.indptr.astype(np.int64), m.indices.astype(np.int64), m.data.astype(np.float64)]
    h: Floats = S.survival(*parts, start, rounds, exact, small)
    return h


@pytest.mark.parametrize("exact", [1, 4, 30])
def test_survival_is_exact_then_a_submultiplicative_bound(exact: int) -> None:
    """``survival``: h(t) equals the brute force (dense powers of the two-step round) while computed exactly — the
    first ``exact`` rounds and on while h ≥ ½ — and beyond is h(base) h(t − base), an upper bound of the true value
    since the true h is submultiplicative (every round ends at a round start), as the exact part shows."""
    q, start = survival_chain(5, 30)
    rounds = 60
    h = survival_of(q, start, rounds, exact, 0.0, 6)
    want = brute_survival(q, start, rounds)
    below = [t for t in range(exact, rounds + 1) if want[t] < 0.5]
    base = below[0] if below else rounds
    assert 3 < base < rounds  # both phases are met
    assert h.shape == (rounds + 1,) and h[0] == 1.0
    np.testing.assert_allclose(h[: base + 1], want[: base + 1], rtol=1e-12)
    for t in range(base + 1, rounds + 1):
        assert h[t] == h[base] * h[t - base]
    for a in range(base + 1):
        for b in range(base + 1 - a):
            assert h[a + b] <= h[a] * h[b] * (1 + 1e-12)
    assert (h >= want * (1 - 1e-12)).all()
    assert (np.diff(want) <= 0).all() and want[-1] > 0


@pytest.mark.parametrize("exact", [1, 200])
def test_survival_is_zero_once_below_small(exact: int) -> None:
    """``survival`` stops at ``small``, in the exact rounds or past them: after the first value below it every value
    is 0, and the true values from there on are below ``small`` too; before it the values are upper bounds of the
    brute force's, equal to them where all rounds are computed exactly."""
    q, start = survival_chain(5, 30)
    rounds, small = 200, 1e-4
    h = survival_of(q, start, rounds, exact, small, 6)
    want = brute_survival(q, start, rounds)
    first = int(np.flatnonzero(h < small)[0])
    assert 1 < first < rounds
    assert (h[first + 1 :] == 0).all()
    assert (want[first:] < small).all()
    assert (h[:first] >= small).all() and (h[:first] >= want[:first] * (1 - 1e-12)).all()
    if exact == rounds:
        np.testing.assert_allclose(h[: first + 1], want[: first + 1], rtol=1e-12)
