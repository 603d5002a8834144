"""The linear algebra of one band of Le våld's block solve: the visits of a block by Gauss–Seidel sweeps in the order
of Gard, and how long the mass can stay (compiled with numba).

**Why sweeps, not a factorisation.** Inside a block of Omtöckning a round moves the distance, the initiative and
the Gard of both fighters: Gard rises by one (both regain) or falls (a hit the Gard absorbs), and any wound leaves
the block. A band's matrix I − Q has some 7,500 states and 100,000 entries, but a hit can leave any Gard below, so
a sparse LU fills it to 2.3 million and factoring the bundled duel's 109 bands took 8.3 s alone (measured with
SuperLU and MKL PARDISO). In the order of the Gard pair, ascending, every regain goes forward and only the hits that
Gard absorbs go back — 3% of a step's probability in the busiest band, against the half that leaves — and the
states of one Gard pair form small strongly connected sets (at most ~20 states: the distance and the initiative
moving while nobody hits). So a sweep solves each such set exactly (its small inverse) in that order, pushing the
forward steps on at once and the backward ones into the next sweep; the mass left for the next sweep is the mass
that takes one more absorbed hit, and five to eight sweeps leave less than 10⁻¹⁶ in the busy bands (up to ~40 in the
slow ones, where both fighters are too dazed to hit, which are small).

**What is solved.** ``v (I − Q) = m`` for several columns at once (the mass, the rounds played so far, and the mass
that has not yet ticked each wound box: :mod:`.blocks`): v are the visits. The rounds column gets the mass's own
visits to round starts as a source (``moment``): it is E[rounds played · 1{here}] counted after the round here.

**The residual is the error's measure.** After the sweeps the residual ``m − v (I − Q)`` is computed from the tables
in one more pass (with its own rounding bound). Every unit of residual mass would end somewhere — an exit, an end
or a deadlock — exactly once, so the absolute error of any probability read from the visits is at most the sum of
the residual's magnitudes.

**How long the mass can stay** (:func:`survival`): h(t), the largest chance over the band's states of still being
in the block after t more rounds, bounds every path's time in a block; :mod:`.blocks` uses it for the round cap.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from konflikt.dice.compiled import compiled

Ints = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]

K = 8
"""The columns solved at once (:mod:`.blocks`: the mass, the rounds played, six wound boxes' untouched mass): a
constant, so that numba unrolls the loops over them."""


@compiled
def live_states(n: int, q_ptr: Ints, q_idx: Ints, leaves: Any) -> Any:
    """The states from which a state in ``leaves`` (one with an exit or an end) can be reached along Q."""
    back_count = np.zeros(n + 1, dtype=np.int64)
    for s in range(n):
        for p in range(q_ptr[s], q_ptr[s + 1]):
            back_count[q_idx[p] + 1] += 1
    back_ptr = np.cumsum(back_count)
    back_idx = np.empty(back_ptr[n], dtype=np.int64)
    fill = back_ptr[:n].copy()
    for s in range(n):
        for p in range(q_ptr[s], q_ptr[s + 1]):
            t = q_idx[p]
            back_idx[fill[t]] = s
            fill[t] += 1
    seen = leaves.copy()
    stack = np.empty(n, dtype=np.int64)
    top = 0
    for s in range(n):
        if seen[s]:
            stack[top] = s
            top += 1
    while top:
        top -= 1
        t = stack[top]
        for p in range(back_ptr[t], back_ptr[t + 1]):
            s = back_idx[p]
            if not seen[s]:
                seen[s] = True
                stack[top] = s
                top += 1
    return seen


@compiled
def scc_order(n: int, pair: Ints, q_ptr: Ints, q_idx: Ints, live: Any) -> tuple[Ints, Ints]:
    """The live states in solve order — Gard pair ascending, and within a pair the strongly connected sets of its
    own steps (same Gard pair) in topological order (Tarjan, iteratively) — and the sets' bounds in that order."""
    index = np.full(n, -1, dtype=np.int64)
    low = np.zeros(n, dtype=np.int64)
    on = np.zeros(n, dtype=np.bool_)
    comp = np.full(n, -1, dtype=np.int64)
    stack = np.empty(n, dtype=np.int64)
    call_s = np.empty(n, dtype=np.int64)
    call_p = np.empty(n, dtype=np.int64)
    top = 0
    counter = 0
    ncomp = 0
    for root in range(n):
        if not live[root] or index[root] >= 0:
            continue
        depth = 0
        call_s[0] = root
        call_p[0] = q_ptr[root]
        index[root] = low[root] = counter
        counter += 1
        stack[top] = root
        top += 1
        on[root] = True
        while depth >= 0:
            s = call_s[depth]
            p = call_p[depth]
            if p < q_ptr[s + 1]:
                call_p[depth] = p + 1
                t = q_idx[p]
                if not live[t] or pair[t] != pair[s]:
                    continue
                if index[t] < 0:
                    index[t] = low[t] = counter
                    counter += 1
                    stack[top] = t
                    top += 1
                    on[t] = True
                    depth += 1
                    call_s[depth] = t
                    call_p[depth] = q_ptr[t]
                elif on[t]:
                    low[s] = min(low[s], index[t])
                continue
            if low[s] == index[s]:  # s roots a set: everything above it on the stack
                while True:
                    top -= 1
                    t = stack[top]
                    on[t] = False
                    comp[t] = ncomp
                    if t == s:
                        break
                ncomp += 1
            depth -= 1
            if depth >= 0:
                parent = call_s[depth]
                low[parent] = min(low[parent], low[s])
    # Tarjan completes a set after every set it reaches: the reverse of completion is a topological order
    live_ids = np.flatnonzero(live)
    key = pair[live_ids] * (ncomp + 1) + (ncomp - 1 - comp[live_ids])
    order = live_ids[np.argsort(key, kind="mergesort")]
    c = comp[order]
    heads = np.flatnonzero(np.concatenate((np.ones(1, dtype=np.bool_), c[1:] != c[:-1])))
    bounds = np.empty(heads.size + 1, dtype=np.int64)
    bounds[:-1] = heads
    bounds[-1] = order.size
    return order, bounds


@compiled
def split(
    n: int, q_ptr: Ints, q_idx: Ints, q_w: Floats, order: Ints, bounds: Ints
) -> tuple[Ints, Ints, Floats, Ints, Ints, Floats, Ints, Ints, Floats, Floats, Ints, Floats]:
    """Q in solve order, three ways: the steps forward (to a later set), within the state's own set, and back (to
    an earlier set); each state's probability of stepping into a deadlocked (dead) state; and each set's
    (I − Q_set)⁻¹, flattened (offsets per set)."""
    m = order.size
    pos = np.full(n, -1, dtype=np.int64)
    for i in range(m):
        pos[order[i]] = i
    set_of = np.empty(m, dtype=np.int64)
    for c in range(bounds.size - 1):
        for i in range(bounds[c], bounds[c + 1]):
            set_of[i] = c
    counts = np.zeros((3, m + 1), dtype=np.int64)
    to_dead = np.zeros(m)
    for i in range(m):
        s = order[i]
        for p in range(q_ptr[s], q_ptr[s + 1]):
            j = pos[q_idx[p]]
            if j < 0:
                to_dead[i] += q_w[p]
            else:
                counts[0 if set_of[j] > set_of[i] else (1 if set_of[j] == set_of[i] else 2), i + 1] += 1
    ptrs = np.zeros((3, m + 1), dtype=np.int64)
    for w in range(3):
        for i in range(m):
            ptrs[w, i + 1] = ptrs[w, i] + counts[w, i + 1]
    g_idx = np.empty(ptrs[0, m], dtype=np.int64)
    g_w = np.empty(ptrs[0, m])
    i_idx = np.empty(ptrs[1, m], dtype=np.int64)
    i_w = np.empty(ptrs[1, m])
    b_idx = np.empty(ptrs[2, m], dtype=np.int64)
    b_w = np.empty(ptrs[2, m])
    fill = ptrs[:, :m].copy()
    for i in range(m):
        s = order[i]
        for p in range(q_ptr[s], q_ptr[s + 1]):
            j = pos[q_idx[p]]
            if j < 0:
                continue
            if set_of[j] > set_of[i]:
                g_idx[fill[0, i]] = j
                g_w[fill[0, i]] = q_w[p]
                fill[0, i] += 1
            elif set_of[j] == set_of[i]:
                i_idx[fill[1, i]] = j
                i_w[fill[1, i]] = q_w[p]
                fill[1, i] += 1
            else:
                b_idx[fill[2, i]] = j
                b_w[fill[2, i]] = q_w[p]
                fill[2, i] += 1
    sets = bounds.size - 1
    inv_off = np.zeros(sets + 1, dtype=np.int64)
    for c in range(sets):
        size = bounds[c + 1] - bounds[c]
        inv_off[c + 1] = inv_off[c] + size * size
    invs = np.zeros(inv_off[sets])
    for c in range(sets):
        lo, hi = bounds[c], bounds[c + 1]
        size = hi - lo
        a = np.eye(size)
        for i in range(lo, hi):
            for p in range(ptrs[1, i], ptrs[1, i + 1]):
                a[i - lo, i_idx[p] - lo] -= i_w[p]
        inv = np.linalg.inv(a) if size > 1 else 1.0 / a
        invs[inv_off[c] : inv_off[c + 1]] = inv.ravel()
    return (ptrs[0].copy(), g_idx, g_w, ptrs[1].copy(), i_idx, i_w, ptrs[2].copy(), b_idx, b_w, to_dead, inv_off,
            invs)  # fmt: skip


@compiled
def transposed(ptr: Ints, idx: Ints, w: Floats, n: int) -> tuple[Ints, Ints, Floats]:
    """A CSR's steps by target: (offsets per target, source, probability), the sources of each target ascending."""
    count = np.zeros(n + 1, dtype=np.int64)
    for p in range(idx.size):
        count[idx[p] + 1] += 1
    for t in range(n):
        count[t + 1] += count[t]
    src = np.empty(idx.size, dtype=np.int64)
    tw = np.empty(idx.size)
    fill = count[:n].copy()
    for s in range(n):
        for p in range(ptr[s], ptr[s + 1]):
            t = idx[p]
            src[fill[t]] = s
            tw[fill[t]] = w[p]
            fill[t] += 1
    return count, src, tw


@compiled
def sweep_solve(
    m: Floats, gt_ptr: Ints, gt_src: Ints, gt_w: Floats, bt_ptr: Ints, bt_src: Ints, bt_w: Floats, bounds: Ints,
    inv_off: Ints, invs: Floats, start: Floats, tol: float, most: int, out: Floats, r: Floats, now: Floats,
) -> tuple[int, float]:  # fmt: skip
    """The visits ``v`` with ``v (I − Q) = m`` (the :data:`K` columns at once; column 1, the rounds played, also
    gets column 0's visits to round starts as a source): sweeps in solve order until the mass column sent back to
    earlier sets for another sweep is at most ``tol`` (or ``most`` sweeps). The visits are added into ``out`` (state ×
    column, zero on entry); ``r`` and ``now`` are work space (state × column, flattened). Returns the sweeps made
    and the mass column left unsent.

    Each state gathers what reaches it (``gt_*``: the steps forward, by target; ``bt_*``: the steps back, by target,
    gathered once a sweep for the next one): its 8 columns are summed in registers and stored once (a state's
    columns are 8 adjacent floats, each update written out column by column)."""
    n = m.shape[0]
    v = out.reshape(n * K)
    mm = m.reshape(n * K)
    for q in range(n * K):
        r[q] = mm[q]
    acc = np.zeros(64 * K)
    tmp = np.zeros(64 * K)
    sweeps = 0
    sets = bounds.size - 1
    while True:
        sweeps += 1
        for c in range(sets):
            lo, hi = bounds[c], bounds[c + 1]
            size = hi - lo
            if size * K > acc.size:
                acc = np.zeros(size * K)
                tmp = np.zeros(size * K)
            for a in range(size):
                t8 = (lo + a) * K
                a0, a1, a2, a3 = r[t8], r[t8 + 1], r[t8 + 2], r[t8 + 3]
                a4, a5, a6, a7 = r[t8 + 4], r[t8 + 5], r[t8 + 6], r[t8 + 7]
                for p in range(gt_ptr[lo + a], gt_ptr[lo + a + 1]):
                    s8 = gt_src[p] * K
                    w = gt_w[p]
                    a0 += now[s8] * w
                    a1 += now[s8 + 1] * w
                    a2 += now[s8 + 2] * w
                    a3 += now[s8 + 3] * w
                    a4 += now[s8 + 4] * w
                    a5 += now[s8 + 5] * w
                    a6 += now[s8 + 6] * w
                    a7 += now[s8 + 7] * w
                q = a * K
                acc[q], acc[q + 1], acc[q + 2], acc[q + 3] = a0, a1, a2, a3
                acc[q + 4], acc[q + 5], acc[q + 6], acc[q + 7] = a4, a5, a6, a7
            off = inv_off[c]
            if size == 1:
                inv = invs[off]
                l8 = lo * K
                x0 = acc[0] * inv
                now[l8] = x0
                now[l8 + 1] = (acc[1] + start[lo] * x0) * inv
                for j in range(2, K):
                    now[l8 + j] = acc[j] * inv
                continue
            for b in range(size):
                b0 = b1 = b2 = b3 = b4 = b5 = b6 = b7 = 0.0
                for a in range(size):
                    w = invs[off + a * size + b]
                    q = a * K
                    b0 += acc[q] * w
                    b1 += acc[q + 1] * w
                    b2 += acc[q + 2] * w
                    b3 += acc[q + 3] * w
                    b4 += acc[q + 4] * w
                    b5 += acc[q + 5] * w
                    b6 += acc[q + 6] * w
                    b7 += acc[q + 7] * w
                q = b * K
                tmp[q], tmp[q + 1], tmp[q + 2], tmp[q + 3] = b0, b1, b2, b3
                tmp[q + 4], tmp[q + 5], tmp[q + 6], tmp[q + 7] = b4, b5, b6, b7
            for a in range(size):  # the rounds column's own source: this sweep's visits to round starts
                src = start[lo + a] * tmp[a * K]
                if src != 0.0:
                    for b in range(size):
                        tmp[b * K + 1] += src * invs[off + a * size + b]
            for q in range(size * K):
                now[lo * K + q] = tmp[q]
        for q in range(n * K):
            v[q] += now[q]
        left = 0.0
        for t in range(n):  # what the steps back bring each state: the next sweep's entering mass
            t8 = t * K
            a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 0.0
            for p in range(bt_ptr[t], bt_ptr[t + 1]):
                s8 = bt_src[p] * K
                w = bt_w[p]
                a0 += now[s8] * w
                a1 += now[s8 + 1] * w
                a2 += now[s8 + 2] * w
                a3 += now[s8 + 3] * w
                a4 += now[s8 + 4] * w
                a5 += now[s8 + 5] * w
                a6 += now[s8 + 6] * w
                a7 += now[s8 + 7] * w
            r[t8], r[t8 + 1], r[t8 + 2], r[t8 + 3] = a0, a1, a2, a3
            r[t8 + 4], r[t8 + 5], r[t8 + 6], r[t8 + 7] = a4, a5, a6, a7
            left += a0
        if left <= tol or sweeps >= most:
            return sweeps, left


@compiled
def residual(
    m: Floats, v: Floats, gt_ptr: Ints, gt_src: Ints, gt_w: Floats, it_ptr: Ints, it_src: Ints, it_w: Floats,
    bt_ptr: Ints, bt_src: Ints, bt_w: Floats, start: Floats, res: Floats, mag: Floats,
) -> None:  # fmt: skip
    """Per column, into ``res`` the sum of |m + source − v (I − Q)| (the source: the rounds column's visits to round
    starts), each state gathering its steps in (``*t_*``: by target), and into ``mag`` ‖m‖ + 2‖v‖: the residual's
    own rounding is at most γ_{d+3} of that (d the most steps into one state)."""
    n = m.shape[0]
    flat = v.reshape(n * K)
    mm = m.reshape(n * K)
    for q in range(n * K):
        mag[q % K] += abs(mm[q]) + 2.0 * abs(flat[q])
    for t in range(n):
        t8 = t * K
        a0 = mm[t8] - flat[t8]
        a1 = mm[t8 + 1] - flat[t8 + 1] + start[t] * flat[t8]
        a2 = mm[t8 + 2] - flat[t8 + 2]
        a3 = mm[t8 + 3] - flat[t8 + 3]
        a4 = mm[t8 + 4] - flat[t8 + 4]
        a5 = mm[t8 + 5] - flat[t8 + 5]
        a6 = mm[t8 + 6] - flat[t8 + 6]
        a7 = mm[t8 + 7] - flat[t8 + 7]
        for part in range(3):
            ptr = gt_ptr if part == 0 else (it_ptr if part == 1 else bt_ptr)
            src = gt_src if part == 0 else (it_src if part == 1 else bt_src)
            wt = gt_w if part == 0 else (it_w if part == 1 else bt_w)
            for p in range(ptr[t], ptr[t + 1]):
                s8 = src[p] * K
                w = wt[p]
                a0 += flat[s8] * w
                a1 += flat[s8 + 1] * w
                a2 += flat[s8 + 2] * w
                a3 += flat[s8 + 3] * w
                a4 += flat[s8 + 4] * w
                a5 += flat[s8 + 5] * w
                a6 += flat[s8 + 6] * w
                a7 += flat[s8 + 7] * w
        res[0] += abs(a0)
        res[1] += abs(a1)
        res[2] += abs(a2)
        res[3] += abs(a3)
        res[4] += abs(a4)
        res[5] += abs(a5)
        res[6] += abs(a6)
        res[7] += abs(a7)


@compiled
def survival(
    g_ptr: Ints, g_idx: Ints, g_w: Floats, i_ptr: Ints, i_idx: Ints, i_w: Floats, b_ptr: Ints, b_idx: Ints,
    b_w: Floats, start: Floats, rounds: int, exact: int, small: float,
) -> Floats:  # fmt: skip
    """h(t), t = 0 … ``rounds``: the largest chance over the band's live states of still being in the block after t
    more rounds end (a round ends on reaching a round start; a strike back pending is mid-round). Computed exactly
    for ``exact`` rounds (all of them while it stays above ½), then bounded by h(a + b) ≤ h(a) h(b); 0 once below
    ``small``."""
    n = start.size
    h = np.zeros(rounds + 1)
    h[0] = 1.0 if n else 0.0
    prev = np.ones(n)
    now = np.zeros(n)
    t = 1
    while t <= rounds:
        if t > exact and h[t - 1] < 0.5:
            break
        for pass_ in range(2):  # strikes back pending first: their round ends on their step
            for s in range(n):
                if (start[s] != 0.0) != (pass_ == 1):
                    continue
                total = 0.0
                for ptr, idx, wt in ((g_ptr, g_idx, g_w), (i_ptr, i_idx, i_w), (b_ptr, b_idx, b_w)):
                    for p in range(ptr[s], ptr[s + 1]):
                        i = idx[p]
                        total += wt[p] * (prev[i] if start[i] != 0.0 else now[i])
                now[s] = total
        top = 0.0
        for s in range(n):
            top = max(top, now[s])
        h[t] = top
        if top < small:
            return h
        prev, now = now, prev
        t += 1
    base = t - 1
    for u in range(t, rounds + 1):
        h[u] = h[base] * h[u - base]
        if h[u] < small:
            h[u] = 0.0
            break
    return h


@compiled
def solve_block(
    b: int, entering: Floats, dead: Floats, visits: Floats, sweeps: Ints, res: Floats, mag: Floats, nodes: Floats,
    wounded: Floats, ends: Floats, played: Floats, width_b: int, node_hit: Ints, node_pos: Ints, in_ptr: Ints,
    in_da: Ints, in_db: Ints, in_w: Floats, in_zero: Ints, gt_ptr: Ints, gt_src: Ints, gt_w: Floats, it_ptr: Ints,
    it_src: Ints, it_w: Floats, bt_ptr: Ints, bt_src: Ints, bt_w: Floats, bounds: Ints, inv_off: Ints, invs: Floats,
    start: Floats,
    n_ptr: Ints, n_row: Ints, n_w: Floats, e_ptr: Ints, e_col: Ints, e_w: Floats, to_dead: Floats, tol: float,
    relative: float, most: int,
) -> None:  # fmt: skip
    """Block ``b`` of a band (slot b of each array: blocks of one band share its tables) solved from its entering
    mass (state × column) — first joined by the wounds of the band's earlier blocks that keep both penalties
    (:func:`gather`) — and read off while its visits are still in the cache: into ``visits`` (state ×
    column), ``sweeps``, the residual and its magnitudes per column (:func:`residual`), each wound node's mass
    (``nodes``: node × slot × column; what :func:`gather` and :func:`send` spell out) and the mass per hit class
    (``wounded``, slot × class), the mass that ends per end kind (the ends CSR ``e_*`` by state, its columns the end
    kinds) and column, and :data:`PLAYED`. Writes only slot ``b``: blocks no wound joins can be solved side by side,
    in threads (it holds no lock)."""
    gather(b, nodes, entering, dead, width_b, node_hit, node_pos, in_ptr, in_da, in_db, in_w, in_zero)
    m = entering[b]
    n = m.shape[0]
    total = 0.0
    for s in range(n):
        total += m[s, 0]
    if total == 0.0:
        return
    v = visits[b]
    r_work = np.empty(n * K)
    now_work = np.empty(n * K)
    made, _ = sweep_solve(m, gt_ptr, gt_src, gt_w, bt_ptr, bt_src, bt_w, bounds, inv_off, invs, start,
                          max(tol, relative * total), most, v, r_work, now_work)  # fmt: skip
    sweeps[b] = made
    residual(m, v, gt_ptr, gt_src, gt_w, it_ptr, it_src, it_w, bt_ptr, bt_src, bt_w, start, res[b], mag[b])
    out = ends[b]
    tally = played[b]
    for s in range(n):
        vs = v[s]
        tally[0] += start[s] * vs[0]
        tally[1] += vs[0]
        if to_dead[s] != 0.0:
            for c in range(K):
                tally[2 + c] += to_dead[s] * vs[c]
        for p in range(e_ptr[s], e_ptr[s + 1]):
            w = e_w[p]
            o = out[e_col[p]]
            o[0] += vs[0] * w
            o[1] += vs[1] * w
            o[2] += vs[2] * w
            o[3] += vs[3] * w
            o[4] += vs[4] * w
            o[5] += vs[5] * w
            o[6] += vs[6] * w
            o[7] += vs[7] * w
    for node in range(n_ptr.size - 1):
        x0 = x1 = x2 = x3 = x4 = x5 = x6 = x7 = 0.0
        for p in range(n_ptr[node], n_ptr[node + 1]):
            s = n_row[p]
            w = n_w[p]
            x0 += v[s, 0] * w
            x1 += v[s, 1] * w
            x2 += v[s, 2] * w
            x3 += v[s, 3] * w
            x4 += v[s, 4] * w
            x5 += v[s, 5] * w
            x6 += v[s, 6] * w
            x7 += v[s, 7] * w
        x = nodes[node, b]
        x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] = x0, x1, x2, x3, x4, x5, x6, x7
        wounded[b, node_hit[node]] += x0


PLAYED = 2 + K
"""Per block: rounds started, the visits' mass, the mass stepping into a deadlocked state per column."""


@compiled
def gather(
    b: int, nodes: Floats, entering: Floats, dead: Floats, width_b: int, node_hit: Ints, node_pos: Ints,
    in_ptr: Ints, in_da: Ints, in_db: Ints, in_w: Floats, in_zero: Ints,
) -> None:  # fmt: skip
    """Into block ``b``'s entering mass (``entering[b]``, state × column; a deadlocked state's into ``dead[b]``) the
    wounds of the band's earlier blocks that keep both penalties: each wound node's mass (``nodes``, node × slot ×
    column, zero where a block is not solved) spelt out by its hit class into the wound kinds that stay in the band
    (``in_*``, per class: the Omtöckning gained, the probability, the column zeroed by the box ticked), read from
    the slot that kind leads here from. A slot is (Omtöckning a − the band's lowest) × ``width_b`` + (b − its
    lowest); reads only earlier slots and writes only slot ``b``."""
    oa, ob = b // width_b, b % width_b
    into, lost = entering[b], dead[b]
    for node in range(nodes.shape[0]):
        hit = node_hit[node]
        pos = node_pos[node]
        for j in range(in_ptr[hit], in_ptr[hit + 1]):
            sa, sb = oa - in_da[j], ob - in_db[j]
            if sa < 0 or sb < 0:
                continue
            x = nodes[node, sa * width_b + sb]
            if x[0] == 0.0:
                continue
            out = into[pos] if pos >= 0 else lost
            w = in_w[j]
            zero = in_zero[j]
            out[0] += x[0] * w
            out[1] += x[1] * w
            for c in range(2, K):
                if c != zero:
                    out[c] += x[c] * w


@compiled
def cap_tails(
    solved: Ints, totals: Floats, tails: Floats, h: Floats, by_exit: Floats, kind_da: Ints, kind_db: Ints,
    width_a: int, width_b: int,
) -> tuple[Floats, Floats]:  # fmt: skip
    """The round cap's bound through a band's ``solved`` blocks, in solve order: from the bound on each block's
    entering time's tail (``tails[slot, t]`` ≥ P(entered after t rounds)) and its mass (``totals``), the bound on
    its leaving time's tail and on the chance of still being in it when the rounds run out (the last t), by the
    worst spread of the entering time the bound allows (the entering mass as late as it can be) and h(t)
    (:func:`survival`); each exit's tail is at most its mass (``by_exit``, slot × wound kind), and goes on into the
    later blocks of the band at once (the kinds' Omtöckning gained ``kind_da``, ``kind_db``). Returns per slot the
    chance of still being in it at the cap, and the leaving time's tail bound (slot × t)."""
    slots, rounds = tails.shape[0], tails.shape[1]
    alive = np.zeros(slots)
    out = np.zeros((slots, rounds))
    worst = np.empty(rounds)
    stay = np.empty(rounds)
    for slot in solved:
        total = totals[slot]
        least = total
        for t in range(rounds):
            least = min(least, tails[slot, t])
            worst[t] = least
            stay[t] = 0.0
        before = total
        for t in range(rounds):  # the mass entering at t, stays in the block u more rounds with chance ≤ h(u)
            entered = before - worst[t]
            before = worst[t]
            if entered == 0.0:
                continue
            for u in range(rounds - t):
                if h[u] == 0.0:
                    break
                stay[t + u] += entered * h[u]
        for t in range(rounds):
            out[slot, t] = min(total, worst[t] + stay[t])
        alive[slot] = stay[rounds - 1]
        oa, ob = slot // width_b, slot % width_b
        for kind in range(by_exit.shape[1]):
            mass = by_exit[slot, kind]
            ta, tb = oa + kind_da[kind], ob + kind_db[kind]
            if mass <= 0.0 or ta >= width_a or tb >= width_b:
                continue
            into = tails[ta * width_b + tb]
            for t in range(rounds):
                into[t] += min(mass, out[slot, t])
    return alive, out


TARGETS = 16
"""Later bands one :func:`send` call fills at most (their stores a tuple of this length, padded)."""


@compiled
def runs(route: Ints) -> tuple[Ints, Ints, Ints, Ints, Ints]:
    """``route[kind, slot]`` (later band × 64 + its slot there, −1: none) as runs: per kind (offsets), the later
    band, the first slot here, the first slot there and the length of each stretch of slots that go to consecutive
    slots of one later band (a row of blocks, or more when the bands are as wide)."""
    kinds, slots = route.shape
    ptr = np.zeros(kinds + 1, dtype=np.int64)
    count = 0
    for pass_ in range(2):
        if pass_ == 1:
            band = np.empty(count, dtype=np.int64)
            here = np.empty(count, dtype=np.int64)
            there = np.empty(count, dtype=np.int64)
            length = np.empty(count, dtype=np.int64)
            count = 0
        for kind in range(kinds):
            slot = 0
            while slot < slots:
                to = route[kind, slot]
                if to < 0:
                    slot += 1
                    continue
                n = 1
                while slot + n < slots and route[kind, slot + n] == to + n:
                    n += 1
                if pass_ == 1:
                    band[count], here[count], there[count], length[count] = to // 64, slot, to % 64, n
                count += 1
                slot += n
            ptr[kind + 1] = count
    return ptr, band, here, there, length


@compiled
def send(
    masses: Floats, live: Any, node_code: Ints, node_hit: Ints, w_ptr: Ints, w_kind: Ints, w_w: Floats,
    run_ptr: Ints, run_band: Ints, run_here: Ints, run_there: Ints, run_length: Ints, kind_zero: Ints,
    first: int, count: int, stores: Any, rows: Any,
) -> None:  # fmt: skip
    """A band's wounds into the later bands ``first`` … ``first`` + ``count`` − 1 (the runs' band numbers; ``count``
    at most :data:`TARGETS`),
    added to their waiting mass: each live wound node's mass (node × slot × column, :func:`solve_block`'s) spelt out
    by its hit class into the wound kinds (``w_*``), each kind's slots carried along its runs (:func:`runs`) to the
    later band's slots at once. ``stores[t]`` is later band ``first`` + t's waiting mass (row × slot × column, a
    row's slots side by side: a run reads and writes one stretch) and ``rows[t]`` its row per state code (tuples of
    :data:`TARGETS`); the box a wound ticks zeroes its column (``kind_zero``)."""
    for node in range(masses.shape[0]):
        if not live[node]:
            continue
        x = masses[node].ravel()
        code = node_code[node]
        hit = node_hit[node]
        for j in range(w_ptr[hit], w_ptr[hit + 1]):
            kind = w_kind[j]
            w = w_w[j]
            zero = kind_zero[kind]
            w2 = w if zero != 2 else 0.0
            w3 = w if zero != 3 else 0.0
            w4 = w if zero != 4 else 0.0
            w5 = w if zero != 5 else 0.0
            w6 = w if zero != 6 else 0.0
            w7 = w if zero != 7 else 0.0
            for r in range(run_ptr[kind], run_ptr[kind + 1]):
                t = run_band[r] - first
                if t < 0 or t >= count:
                    continue
                out = stores[t][rows[t][code]].ravel()
                a, b = run_here[r] * K, run_there[r] * K
                for _ in range(run_length[r]):
                    out[b] += x[a] * w
                    out[b + 1] += x[a + 1] * w
                    out[b + 2] += x[a + 2] * w2
                    out[b + 3] += x[a + 3] * w3
                    out[b + 4] += x[a + 4] * w4
                    out[b + 5] += x[a + 5] * w5
                    out[b + 6] += x[a + 6] * w6
                    out[b + 7] += x[a + 7] * w7
                    a += K
                    b += K


@compiled
def scatter(entering: Floats, dead: Floats, positions: Ints, store: Floats) -> None:
    """A band's waiting mass (row × slot × column) at its states' positions in the solve (slot × position ×
    column); at a deadlocked state (position < 0) into ``dead`` (slot × column)."""
    rows, slots = store.shape[0], store.shape[1]
    for i in range(rows):
        pos = positions[i]
        for b in range(slots):
            if store[i, b, 0] == 0.0:
                continue
            if pos >= 0:
                for j in range(K):
                    entering[b, pos, j] += store[i, b, j]
            else:
                for j in range(K):
                    dead[b, j] += store[i, b, j]


# ---- a band's tables from its walked rounds ------------------------------------------------------------------------
@compiled
def classify(
    ptr: Ints, keys: Ints, weights: Floats, grid: int, at: Ints
) -> tuple[Ints, Ints, Floats, Any, Ints, Ints, Ints, Floats, Ints, Ints, Floats]:  # fmt: skip
    """A band's walked outcomes (:func:`.walk.walk`'s keys, grouped by state) sorted into the in-block steps (CSR
    by state: band index of the target, probability), the wound nodes (state, hit class, the state after the hit,
    probability) and the ends (state, end key, probability); and which states can leave (a wound or an end)."""
    n = ptr.size - 1
    q_ptr = np.zeros(n + 1, dtype=np.int64)
    n_in = n_x = n_e = 0
    for i in range(keys.size):
        rest = keys[i] // grid
        if rest >> 24 == 1:
            n_e += 1
        elif rest >> 24 == 2:
            n_x += 1
        elif rest == 0:
            n_in += 1
        else:
            raise ValueError("an outcome that is neither a step, a wound node nor an end")
    q_idx = np.empty(n_in, dtype=np.int64)
    q_w = np.empty(n_in)
    x_src = np.empty(n_x, dtype=np.int64)
    x_hit = np.empty(n_x, dtype=np.int64)
    x_code = np.empty(n_x, dtype=np.int64)
    x_w = np.empty(n_x)
    e_src = np.empty(n_e, dtype=np.int64)
    e_key = np.empty(n_e, dtype=np.int64)
    e_w = np.empty(n_e)
    leaves = np.zeros(n, dtype=np.bool_)
    a = b = c = 0
    for s in range(n):
        for i in range(ptr[s], ptr[s + 1]):
            key = keys[i]
            rest = key // grid
            if rest >> 24 == 1:
                e_src[c] = s
                e_key[c] = rest
                e_w[c] = weights[i]
                c += 1
                leaves[s] = True
            elif rest >> 24 == 2:
                x_src[b] = s
                x_hit[b] = rest & 0xFFFFFF
                x_code[b] = key % grid
                x_w[b] = weights[i]
                b += 1
                leaves[s] = True
            else:
                q_idx[a] = at[key % grid]
                q_w[a] = weights[i]
                a += 1
        q_ptr[s + 1] = a
    return q_ptr, q_idx, q_w, leaves, x_src, x_hit, x_code, x_w, e_src, e_key, e_w


@compiled
def node_tables(
    position: Ints, x_src: Ints, x_hit: Ints, x_code: Ints, x_w: Floats, at: Ints, classes: int,
) -> tuple[Ints, Ints, Ints, Ints, Ints, Ints, Floats]:  # fmt: skip
    """The wound nodes of a band's live states: one per (state after the hit, hit class), sorted by the state, with
    each node's state code, hit class and position among the live states (−1 deadlocked, −2 not in the band), where
    each state code's nodes begin (offsets), and the nodes by source (CSC: offsets per node, live state,
    probability)."""
    m = 0
    for i in range(x_src.size):
        if position[x_src[i]] >= 0:
            m += 1
    keys = np.empty(m, dtype=np.int64)
    index = np.empty(m, dtype=np.int64)
    j = 0
    for i in range(x_src.size):
        if position[x_src[i]] >= 0:
            keys[j] = x_code[i] * classes + x_hit[i]
            index[j] = i
            j += 1
    order = np.argsort(keys, kind="mergesort")
    nodes = 0
    last = -1
    for j in order:
        if keys[j] != last:
            last = keys[j]
            nodes += 1
    node_code = np.empty(nodes, dtype=np.int64)
    node_hit = np.empty(nodes, dtype=np.int64)
    node_pos = np.empty(nodes, dtype=np.int64)
    c_ptr = np.zeros(nodes + 1, dtype=np.int64)
    c_row = np.empty(m, dtype=np.int64)
    c_w = np.empty(m)
    node = -1
    last = -1
    for f in range(m):
        j = order[f]
        if keys[j] != last:
            last = keys[j]
            node += 1
            node_code[node] = keys[j] // classes
            node_hit[node] = keys[j] % classes
            band_index = at[node_code[node]]
            node_pos[node] = position[band_index] if band_index >= 0 else -2
        c_ptr[node + 1] = f + 1
        c_row[f] = position[x_src[index[j]]]
        c_w[f] = x_w[index[j]]
    groups = 0
    for k in range(nodes):
        if k == 0 or node_code[k] != node_code[k - 1]:
            groups += 1
    group_ptr = np.empty(groups + 1, dtype=np.int64)
    g = 0
    for k in range(nodes):
        if k == 0 or node_code[k] != node_code[k - 1]:
            group_ptr[g] = k
            g += 1
    group_ptr[groups] = nodes
    return node_code, node_hit, node_pos, group_ptr, c_ptr, c_row, c_w


@compiled
def end_tables(position: Ints, e_src: Ints, e_key: Ints, e_w: Floats, live: int) -> tuple[Ints, Ints, Ints, Floats]:
    """The ends of a band's live states by state (CSR) over their kinds (key: the outcome key without the code,
    sorted)."""
    m = 0
    for i in range(e_src.size):
        if position[e_src[i]] >= 0:
            m += 1
    keys = np.empty(m, dtype=np.int64)
    j = 0
    for i in range(e_src.size):
        if position[e_src[i]] >= 0:
            keys[j] = e_key[i]
            j += 1
    kinds = np.unique(keys)
    count = np.zeros(live + 1, dtype=np.int64)
    for i in range(e_src.size):
        r = position[e_src[i]]
        if r >= 0:
            count[r + 1] += 1
    e_ptr = np.cumsum(count)
    e_col = np.empty(e_ptr[live], dtype=np.int64)
    w = np.empty(e_ptr[live])
    fill = e_ptr[:live].copy()
    for i in range(e_src.size):
        r = position[e_src[i]]
        if r >= 0:
            e_col[fill[r]] = np.searchsorted(kinds, e_key[i])
            w[fill[r]] = e_w[i]
            fill[r] += 1
    return kinds, e_ptr, e_col, w


@compiled
def staying(keys: Ints, grid: int, width_a: int, width_b: int, class_stays: Any) -> Ints:
    """The band codes the walked outcomes ``keys`` lead to within a band of ``width_a`` × ``width_b`` blocks: the
    next states in the block, and the states after the wound nodes whose hit class has a wound that can keep both
    penalties (``class_stays``) (:func:`.walk.outcome`'s layout)."""
    out = np.empty(keys.size, dtype=np.int64)
    m = 0
    for i in range(keys.size):
        rest = keys[i] // grid
        if rest == 0 or (rest >> 24 == 2 and class_stays[rest & 0xFFFFFF]):
            out[m] = keys[i] % grid
            m += 1
    return out[:m].copy()
