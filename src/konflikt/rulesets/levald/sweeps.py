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
    x_ptr: Ints, x_src: Ints, x_pos: Ints, x_w: Floats, kind_da: Ints, kind_db: Ints, kind_zero: Ints,
    tol: float, relative: float, most: int,
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
        for kind in range(kind_da.size):
            ta, tb = oa + kind_da[kind], ob + kind_db[kind]
            if ta >= width_a or tb >= width_b or x_ptr[kind] == x_ptr[kind + 1]:
                continue  # into another band: added in one pass over the band's blocks (send)
            target = ta * width_b + tb
            zero = kind_zero[kind]
            sent = 0.0
            for p in range(x_ptr[kind], x_ptr[kind + 1]):
                s = x_src[p]
                w = x_w[p]
                pos = x_pos[p]
                for j in range(k):
                    row[j] = v[s, j] * w
                if zero >= 0:
                    row[zero] = 0.0
                sent += row[0]
                if pos >= 0:
                    for j in range(k):
                        entering[target, pos, j] += row[j]
                else:
                    for j in range(k):
                        dead[target, j] += row[j]
            stayed[b, kind] += sent
    return visits, sweeps, res, mag, dead, stayed


@compiled
def paired(visits: Floats, active: Ints) -> Floats:
    """The visits of the ``active`` slots two by two: pair × (state × 16) (a state's 8 columns of both side by side),
    what :func:`send` streams the exits past."""
    n = visits.shape[1]
    pairs = (active.size + 1) // 2
    out = np.zeros((pairs, n * 2 * K))
    for i in range(active.size):
        half = (i % 2) * K
        b = active[i]
        for s in range(n):
            for j in range(K):
                out[i // 2, s * 2 * K + half + j] = visits[b, s, j]
    return out


@compiled
def send(
    pairs: Floats, active: Ints, c_ptr: Ints, c_row: Ints, c_w: Floats, col_kind: Ints, col_code: Ints,
    route: Ints, kind_zero: Ints, store: Floats, rows: Ints,
) -> Floats:  # fmt: skip
    """The exits from a band's solved blocks into one later band, added to its waiting mass, by target (``c_*``: the
    exit matrix stored by column, its columns sorted by kind). ``pairs`` are the visits of the ``active`` slots two
    at a time (:func:`paired`); ``route[kind, slot]`` is the later band's slot that this slot's exits of that kind
    enter (−1: elsewhere); ``store`` is the later band's waiting mass (slot × row × column) and ``rows`` its row per
    state code. Returns the mass per slot and exit kind sent.

    Two slots at a time: their visits (a state's 16 floats side by side) stay in the processor's second-level cache
    while the exits stream past, instead of a wide row of every slot fetched from further away for each exit."""
    kinds = route.shape[0]
    slots = route.shape[1]
    left = np.zeros((slots, kinds))
    first_col = np.full(kinds + 1, c_ptr.size - 1, dtype=np.int64)
    for col in range(c_ptr.size - 2, -1, -1):
        first_col[col_kind[col]] = col
    for kind in range(kinds - 1, -1, -1):
        first_col[kind] = min(first_col[kind], first_col[kind + 1])
    for first in range(0, active.size, 2):
        pair = pairs[first // 2]
        b0 = active[first]
        b1 = active[first + 1] if first + 1 < active.size else -1
        for kind in range(kinds):
            slot0 = route[kind, b0]
            slot1 = route[kind, b1] if b1 >= 0 else -1
            if slot0 < 0 and slot1 < 0:
                continue
            zero = kind_zero[kind]
            sent0 = sent1 = 0.0
            for col in range(first_col[kind], first_col[kind + 1]):
                a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 0.0
                c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = 0.0
                for p in range(c_ptr[col], c_ptr[col + 1]):
                    r = c_row[p] * 16
                    w = c_w[p]
                    a0 += pair[r] * w
                    a1 += pair[r + 1] * w
                    a2 += pair[r + 2] * w
                    a3 += pair[r + 3] * w
                    a4 += pair[r + 4] * w
                    a5 += pair[r + 5] * w
                    a6 += pair[r + 6] * w
                    a7 += pair[r + 7] * w
                    c0 += pair[r + 8] * w
                    c1 += pair[r + 9] * w
                    c2 += pair[r + 10] * w
                    c3 += pair[r + 11] * w
                    c4 += pair[r + 12] * w
                    c5 += pair[r + 13] * w
                    c6 += pair[r + 14] * w
                    c7 += pair[r + 15] * w
                row = rows[col_code[col]]
                if slot0 >= 0 and a0 != 0.0:
                    sent0 += a0
                    _add8(store, slot0, row, zero, a0, a1, a2, a3, a4, a5, a6, a7)
                if slot1 >= 0 and c0 != 0.0:
                    sent1 += c0
                    _add8(store, slot1, row, zero, c0, c1, c2, c3, c4, c5, c6, c7)
            left[b0, kind] += sent0
            if b1 >= 0:
                left[b1, kind] += sent1
    return left


@numba.njit(cache=True, inline="always")
def _add8(
    store: Floats, slot: int, r: int, zero: int, x0: float, x1: float, x2: float, x3: float, x4: float, x5: float,
    x6: float, x7: float,
) -> None:  # fmt: skip
    """Add a row of the 8 columns into ``store[slot, r]``, but the column ``zero`` (the box the exit ticks)."""
    store[slot, r, 0] += x0
    store[slot, r, 1] += x1
    store[slot, r, 2] += x2 if zero != 2 else 0.0
    store[slot, r, 3] += x3 if zero != 3 else 0.0
    store[slot, r, 4] += x4 if zero != 4 else 0.0
    store[slot, r, 5] += x5 if zero != 5 else 0.0
    store[slot, r, 6] += x6 if zero != 6 else 0.0
    store[slot, r, 7] += x7 if zero != 7 else 0.0


@compiled
def scatter(entering: Floats, dead: Floats, positions: Ints, store: Floats) -> None:
    """A band's waiting mass (slot × row × column) at its states' positions in the solve (slot × position ×
    column); at a deadlocked state (position < 0) into ``dead`` (slot × column)."""
    slots, rows = store.shape[0], store.shape[1]
    for b in range(slots):
        for i in range(rows):
            if store[b, i, 0] == 0.0:
                continue
            pos = positions[i]
            if pos >= 0:
                for j in range(K):
                    entering[b, pos, j] += store[b, i, j]
            else:
                for j in range(K):
                    dead[b, j] += store[b, i, j]


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
    ptr: Ints, keys: Ints, weights: Floats, grid: int, at: Ints, width_a: int, width_b: int,
) -> tuple[Ints, Ints, Floats, Any, Ints, Ints, Ints, Floats, Ints, Ints, Floats]:  # fmt: skip
    """A band's walked outcomes (:func:`.walk.walk`'s keys, grouped by state) sorted into the in-block steps (CSR
    by state: band index of the target, probability), the exits (state, kind key, target code, probability) and the
    ends (state, end key, probability); and which states can leave (an exit or an end)."""
    n = ptr.size - 1
    q_ptr = np.zeros(n + 1, dtype=np.int64)
    n_in = n_x = n_e = 0
    for i in range(keys.size):
        rest = keys[i] // grid
        if rest >> 24:  # ended
            n_e += 1
        elif rest & 0xFFFFF == 0:  # nothing gained, no box: in the block
            n_in += 1
        else:
            n_x += 1
    q_idx = np.empty(n_in, dtype=np.int64)
    q_w = np.empty(n_in)
    x_src = np.empty(n_x, dtype=np.int64)
    x_kind = np.empty(n_x, dtype=np.int64)
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
            code = key % grid
            rest = key // grid
            if rest >> 24:
                e_src[c] = s
                e_key[c] = rest
                e_w[c] = weights[i]
                c += 1
                leaves[s] = True
            elif rest & 0xFFFFF == 0:
                q_idx[a] = at[code]
                q_w[a] = weights[i]
                a += 1
            else:
                x_src[b] = s
                x_kind[b] = (rest & 0xFFFF) * 16 + ((rest >> 16) & 15)
                x_code[b] = code
                x_w[b] = weights[i]
                b += 1
                leaves[s] = True
        q_ptr[s + 1] = a
    return q_ptr, q_idx, q_w, leaves, x_src, x_kind, x_code, x_w, e_src, e_key, e_w


@compiled
def _counting_order(values: Ints, buckets: int, order: Ints) -> Ints:
    """``order`` stably re-sorted by ``values[order]`` (a counting sort over ``buckets``)."""
    count = np.zeros(buckets + 1, dtype=np.int64)
    for i in order:
        count[values[i] + 1] += 1
    for k in range(buckets):
        count[k + 1] += count[k]
    out = np.empty(order.size, dtype=np.int64)
    for i in order:
        v = values[i]
        out[count[v]] = i
        count[v] += 1
    return out


@compiled
def exit_tables(
    position: Ints, x_src_all: Ints, x_kind: Ints, x_code: Ints, x_w: Floats, grid: int, at: Ints, width_a: int,
    width_b: int, live: int,
) -> tuple[Ints, Ints, Ints, Ints, Ints, Ints, Floats, Ints, Ints, Ints, Floats]:  # fmt: skip
    """The exits of a band's live states: their kinds (key: (Omtöckning a gained × 256 + b gained) × 16 + box + 1),
    their targets (columns: one per (kind, code), by kind) with each column's kind, code and position among
    the live states (−1 deadlocked, −2 not in the band), the exits by target (CSC) and, of the kinds that can stay
    in the band, by kind (offsets per kind; the state, the target's position, the probability)."""
    keep = np.empty(x_src_all.size, dtype=np.int64)
    m = 0
    top = 0
    for i in range(x_src_all.size):
        if position[x_src_all[i]] >= 0:
            keep[m] = i
            m += 1
            top = max(top, x_kind[i])
    keep = keep[:m]
    seen = np.full(top + 1, -1, dtype=np.int64)
    nk = 0
    for i in keep:
        if seen[x_kind[i]] < 0:
            seen[x_kind[i]] = 0
            nk += 1
    kinds = np.flatnonzero(seen >= 0)
    for k in range(nk):
        seen[kinds[k]] = k
    kind_of = np.empty(x_src_all.size, dtype=np.int64)
    for i in keep:
        kind_of[i] = seen[x_kind[i]]
    by = _counting_order(kind_of, nk, keep)
    # the exits in that order, gathered once (read in order from here on)
    code_by = x_code[by]
    kind_by = kind_of[by]
    row_by = position[x_src_all[by]]
    w_by = x_w[by]
    # within a kind, a column per target code (in the order first met)
    col_by = np.empty(m, dtype=np.int64)
    col_here = np.empty(grid, dtype=np.int64)
    stamp = np.full(grid, -1, dtype=np.int64)
    cols = 0
    for j in range(m):
        code = code_by[j]
        if stamp[code] != kind_by[j]:
            stamp[code] = kind_by[j]
            col_here[code] = cols
            cols += 1
        col_by[j] = col_here[code]
    col_kind = np.empty(cols, dtype=np.int64)
    col_code = np.empty(cols, dtype=np.int64)
    col_pos = np.empty(cols, dtype=np.int64)
    c_ptr = np.zeros(cols + 1, dtype=np.int64)
    for j in range(m):
        c_ptr[col_by[j] + 1] += 1
    for col in range(cols):
        c_ptr[col + 1] += c_ptr[col]
    fill = c_ptr[:cols].copy()
    c_row = np.empty(m, dtype=np.int64)
    c_w = np.empty(m)
    for j in range(m):
        col = col_by[j]
        f = fill[col]
        fill[col] += 1
        c_row[f] = row_by[j]
        c_w[f] = w_by[j]
        col_kind[col] = kind_by[j]
        col_code[col] = code_by[j]
    for col in range(cols):
        index = at[col_code[col]]
        col_pos[col] = position[index] if index >= 0 else -2
    # the exits of the kinds that can stay in the band, by kind: (state, target position, probability)
    stays = np.zeros(nk, dtype=np.bool_)
    for k in range(nk):
        base = kinds[k] // 16
        stays[k] = (base >> 8) < width_a and (base & 255) < width_b
    x_ptr = np.zeros(nk + 1, dtype=np.int64)
    for j in range(m):
        if stays[kind_by[j]]:
            x_ptr[kind_by[j] + 1] += 1
    for k in range(nk):
        x_ptr[k + 1] += x_ptr[k]
    x_src = np.empty(x_ptr[nk], dtype=np.int64)
    x_pos = np.empty(x_ptr[nk], dtype=np.int64)
    xw = np.empty(x_ptr[nk])
    f = 0
    for j in range(m):
        if stays[kind_by[j]]:
            x_src[f] = row_by[j]
            x_pos[f] = col_pos[col_by[j]]
            xw[f] = w_by[j]
            f += 1
    return kinds, col_kind, col_code, col_pos, c_ptr, c_row, c_w, x_ptr, x_src, x_pos, xw


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
def staying(keys: Ints, grid: int, width_a: int, width_b: int) -> Ints:
    """The band codes the walked outcomes ``keys`` lead to within a band of ``width_a`` × ``width_b`` blocks: the
    next states in the block, and after a wound that can keep both penalties (:func:`.walk.outcome`'s layout)."""
    out = np.empty(keys.size, dtype=np.int64)
    m = 0
    for i in range(keys.size):
        rest = keys[i] // grid
        if rest >> 24:
            continue
        if ((rest >> 8) & 255) < width_a and (rest & 255) < width_b:
            out[m] = keys[i] % grid
            m += 1
    return out[:m].copy()
