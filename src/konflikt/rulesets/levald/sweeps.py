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

import numba

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
def solve_band(
    entering: Floats, slots: Ints, width_b: int, width_a: int, offset_a: Ints, offset_b: Ints,
    gt_ptr: Ints, gt_src: Ints, gt_w: Floats, it_ptr: Ints, it_src: Ints, it_w: Floats, bt_ptr: Ints,
    bt_src: Ints, bt_w: Floats, bounds: Ints, inv_off: Ints, invs: Floats, start: Floats,
    n_ptr: Ints, n_row: Ints, n_w: Floats, node_hit: Ints, node_pos: Ints, stays: Any, w_ptr: Ints, w_kind: Ints,
    w_w: Floats, kind_da: Ints, kind_db: Ints, kind_zero: Ints, tol: float, relative: float, most: int,
) -> tuple[Floats, Ints, Floats, Floats, Floats, Floats]:  # fmt: skip
    """Every block of one band, in the order ``slots`` (by Omtöckning's sum): the visits of each, its in-band
    exits (a wound that keeps both penalties) added to the later blocks' entering mass before they are solved.

    ``entering``: slot × state × column (changed in place); a slot is (Omtöckning a − the band's lowest) ×
    ``width_b`` + (b − its lowest). Exits are the CSR ``x_*`` over the states (those of the kinds that can stay in
    the band, from some slot), each column an exit target (its kind:
    Omtöckning gained and the column zeroed by the box it ticks, ``kind_zero``; its position among this band's
    states, −1 a deadlocked one). Returns the visits (slot × state × column), the sweeps per slot, the residual and
    its magnitudes per slot and column (:func:`residual`), the mass per slot and column that an in-band exit sent
    into a deadlocked state, and the mass per slot and exit kind that stayed in the band."""
    blocks, n = entering.shape[0], entering.shape[1]
    k = K
    visits = np.zeros((blocks, n, k))
    sweeps = np.zeros(blocks, dtype=np.int64)
    res = np.zeros((blocks, k))
    mag = np.zeros((blocks, k))
    dead = np.zeros((blocks, k))
    stayed = np.zeros((blocks, kind_da.size))
    row = np.zeros(k)
    r_work = np.empty(n * K)
    now_work = np.empty(n * K)
    for b in slots:
        m = entering[b]
        total = 0.0
        for s in range(n):
            total += m[s, 0]
        if total == 0.0:
            continue
        v = visits[b]
        made, _ = sweep_solve(m, gt_ptr, gt_src, gt_w, bt_ptr, bt_src, bt_w, bounds, inv_off, invs, start,
                              max(tol, relative * total), most, v, r_work, now_work)  # fmt: skip
        sweeps[b] = made
        residual(m, v, gt_ptr, gt_src, gt_w, it_ptr, it_src, it_w, bt_ptr, bt_src, bt_w, start, res[b], mag[b])
        oa, ob = offset_a[b], offset_b[b]
        for node in range(n_ptr.size - 1):
            hit = node_hit[node]
            if not stays[b, hit]:
                continue
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
            if x0 == 0.0:
                continue
            pos = node_pos[node]
            for j in range(w_ptr[hit], w_ptr[hit + 1]):
                kind = w_kind[j]
                ta, tb = oa + kind_da[kind], ob + kind_db[kind]
                if ta >= width_a or tb >= width_b:
                    continue  # into another band: sent in one pass over the band's blocks (send)
                target = ta * width_b + tb
                w = w_w[j]
                row[0], row[1], row[2], row[3] = x0 * w, x1 * w, x2 * w, x3 * w
                row[4], row[5], row[6], row[7] = x4 * w, x5 * w, x6 * w, x7 * w
                zero = kind_zero[kind]
                if zero >= 0:
                    row[zero] = 0.0
                stayed[b, kind] += row[0]
                if pos >= 0:
                    for c in range(K):
                        entering[target, pos, c] += row[c]
                else:
                    for c in range(K):
                        dead[target, c] += row[c]
    return visits, sweeps, res, mag, dead, stayed


@compiled
def node_masses(visits: Floats, active: Ints, n_ptr: Ints, n_row: Ints, n_w: Floats) -> Floats:
    """The mass of each wound node in the ``active`` slots two at a time: pair × node × 16 (both slots' 8 columns
    side by side), what :func:`send` spells out into the later bands."""
    nodes = n_ptr.size - 1
    pairs = (active.size + 1) // 2
    out = np.zeros((pairs, nodes, 2 * K))
    for i in range(active.size):
        half = (i % 2) * K
        b = active[i]
        o = out[i // 2]
        for node in range(nodes):
            x0 = x1 = x2 = x3 = x4 = x5 = x6 = x7 = 0.0
            for p in range(n_ptr[node], n_ptr[node + 1]):
                s = n_row[p]
                w = n_w[p]
                x0 += visits[b, s, 0] * w
                x1 += visits[b, s, 1] * w
                x2 += visits[b, s, 2] * w
                x3 += visits[b, s, 3] * w
                x4 += visits[b, s, 4] * w
                x5 += visits[b, s, 5] * w
                x6 += visits[b, s, 6] * w
                x7 += visits[b, s, 7] * w
            o[node, half], o[node, half + 1], o[node, half + 2], o[node, half + 3] = x0, x1, x2, x3
            o[node, half + 4], o[node, half + 5], o[node, half + 6], o[node, half + 7] = x4, x5, x6, x7
    return out


TARGETS = 16
"""Later bands one :func:`send` call fills at most (their stores a tuple of this length, padded)."""


@compiled
def send(
    masses: Floats, active: Ints, node_code: Ints, node_hit: Ints, group_ptr: Ints, w_ptr: Ints, w_kind: Ints,
    w_w: Floats, route: Ints, kind_zero: Ints, stores: Any, rows: Any,
) -> Floats:  # fmt: skip
    """The wounds from a band's solved blocks into the later bands, added to their waiting mass: each wound node's
    mass (:func:`node_masses`, the ``active`` slots two at a time) spelt out by its hit class into the wound kinds
    (``w_*``), summed per (kind, state) over the nodes of one state. ``route[kind, slot]`` is where that slot's
    wounds of that kind go (later band × 64 + its slot there; −1: a later block of this band); ``stores[t]`` is
    later band t's waiting mass (row × slot × column) and ``rows[t]`` its row per state code (tuples of
    :data:`TARGETS`). Returns the mass per slot and kind sent."""
    kinds = route.shape[0]
    slots = route.shape[1]
    left = np.zeros((slots, kinds))
    acc = np.zeros(kinds * 2 * K)
    touched = np.zeros(kinds, dtype=np.bool_)
    order = np.empty(kinds, dtype=np.int64)
    r0 = np.empty(kinds, dtype=np.int64)
    r1 = np.empty(kinds, dtype=np.int64)
    goes = np.empty(kinds, dtype=np.bool_)
    for first in range(0, active.size, 2):
        pair = masses[first // 2]
        b0 = active[first]
        b1 = active[first + 1] if first + 1 < active.size else -1
        for kind in range(kinds):
            r0[kind] = route[kind, b0]
            r1[kind] = route[kind, b1] if b1 >= 0 else -1
            goes[kind] = r0[kind] >= 0 or r1[kind] >= 0
        for g in range(group_ptr.size - 1):
            used = 0
            for node in range(group_ptr[g], group_ptr[g + 1]):
                x = pair[node]
                x0, x1, x2, x3, x4, x5, x6, x7 = x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]
                y0, y1, y2, y3, y4, y5, y6, y7 = x[8], x[9], x[10], x[11], x[12], x[13], x[14], x[15]
                if x0 == 0.0 and y0 == 0.0:
                    continue
                hit = node_hit[node]
                for j in range(w_ptr[hit], w_ptr[hit + 1]):
                    kind = w_kind[j]
                    if not goes[kind]:
                        continue
                    q = kind * 16
                    if not touched[kind]:
                        touched[kind] = True
                        order[used] = kind
                        used += 1
                        for c in range(16):
                            acc[q + c] = 0.0
                    w = w_w[j]
                    acc[q] += x0 * w
                    acc[q + 1] += x1 * w
                    acc[q + 2] += x2 * w
                    acc[q + 3] += x3 * w
                    acc[q + 4] += x4 * w
                    acc[q + 5] += x5 * w
                    acc[q + 6] += x6 * w
                    acc[q + 7] += x7 * w
                    acc[q + 8] += y0 * w
                    acc[q + 9] += y1 * w
                    acc[q + 10] += y2 * w
                    acc[q + 11] += y3 * w
                    acc[q + 12] += y4 * w
                    acc[q + 13] += y5 * w
                    acc[q + 14] += y6 * w
                    acc[q + 15] += y7 * w
            if used == 0:
                continue
            code = node_code[group_ptr[g]]
            for u in range(used):
                kind = order[u]
                touched[kind] = False
                q = kind * 16
                zero = kind_zero[kind]
                to = r0[kind]
                if to >= 0 and acc[q] != 0.0:
                    left[b0, kind] += acc[q]
                    t = to // 64
                    _add8(stores[t], to % 64, rows[t][code], zero, acc[q], acc[q + 1], acc[q + 2], acc[q + 3],
                          acc[q + 4], acc[q + 5], acc[q + 6], acc[q + 7])  # fmt: skip
                to = r1[kind]
                if to >= 0 and acc[q + 8] != 0.0:
                    left[b1, kind] += acc[q + 8]
                    t = to // 64
                    _add8(stores[t], to % 64, rows[t][code], zero, acc[q + 8], acc[q + 9], acc[q + 10], acc[q + 11],
                          acc[q + 12], acc[q + 13], acc[q + 14], acc[q + 15])  # fmt: skip
    return left


@numba.njit(cache=True, inline="always")
def _add8(
    store: Floats, slot: int, r: int, zero: int, x0: float, x1: float, x2: float, x3: float, x4: float, x5: float,
    x6: float, x7: float,
) -> None:  # fmt: skip
    """Add a row of the 8 columns into ``store[r, slot]``, but the column ``zero`` (the box the exit ticks)."""
    store[r, slot, 0] += x0
    store[r, slot, 1] += x1
    store[r, slot, 2] += x2 if zero != 2 else 0.0
    store[r, slot, 3] += x3 if zero != 3 else 0.0
    store[r, slot, 4] += x4 if zero != 4 else 0.0
    store[r, slot, 5] += x5 if zero != 5 else 0.0
    store[r, slot, 6] += x6 if zero != 6 else 0.0
    store[r, slot, 7] += x7 if zero != 7 else 0.0


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


@compiled
def ends_of(visits: Floats, active: Ints, e_ptr: Ints, e_col: Ints, e_w: Floats, kinds: int) -> Floats:
    """Per slot, end kind and column: the mass of the ``active`` slots' visits that ends by that kind (the ends
    CSR ``e_*`` by state, its columns the end kinds)."""
    slots, n = visits.shape[0], visits.shape[1]
    out = np.zeros((slots, kinds, K))
    for s in range(n):
        for p in range(e_ptr[s], e_ptr[s + 1]):
            kind = e_col[p]
            w = e_w[p]
            for b in active:
                v = visits[b, s]
                o = out[b, kind]
                o[0] += v[0] * w
                o[1] += v[1] * w
                o[2] += v[2] * w
                o[3] += v[3] * w
                o[4] += v[4] * w
                o[5] += v[5] * w
                o[6] += v[6] * w
                o[7] += v[7] * w
    return out


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
