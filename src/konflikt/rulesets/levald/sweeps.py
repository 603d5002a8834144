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
def sweep_solve(
    m: Floats, g_ptr: Ints, g_idx: Ints, g_w: Floats, b_ptr: Ints, b_idx: Ints, b_w: Floats, b_sum: Floats,
    bounds: Ints, inv_off: Ints, invs: Floats, start: Floats, tol: float, most: int,
) -> tuple[Floats, int, float]:  # fmt: skip
    """The visits ``v`` with ``v (I − Q) = m`` (the :data:`K` columns at once; column 1, the rounds played, also
    gets column 0's visits to round starts as a source): sweeps in solve order until the mass column that would be
    sent back to earlier sets (``b_sum``: each state's probability of a step back) is at most ``tol`` (or ``most``
    sweeps). Returns the visits (state × column), the sweeps made, and the mass column left unsent.

    A state's columns are 8 adjacent floats, each step's update written out column by column (numba then keeps
    them in registers)."""
    n = m.shape[0]
    v = np.zeros(n * K)
    acc = m.copy().reshape(n * K)
    now = np.zeros(n * K)
    tmp = np.zeros(64 * K)
    sweeps = 0
    sets = bounds.size - 1
    while True:
        sweeps += 1
        for c in range(sets):
            lo, hi = bounds[c], bounds[c + 1]
            size = hi - lo
            off = inv_off[c]
            if size == 1:
                inv = invs[off]
                a8 = lo * K
                x0 = acc[a8] * inv
                x1 = (acc[a8 + 1] + start[lo] * x0) * inv
                x2 = acc[a8 + 2] * inv
                x3 = acc[a8 + 3] * inv
                x4 = acc[a8 + 4] * inv
                x5 = acc[a8 + 5] * inv
                x6 = acc[a8 + 6] * inv
                x7 = acc[a8 + 7] * inv
                _push(now, acc, lo, x0, x1, x2, x3, x4, x5, x6, x7, g_ptr, g_idx, g_w)
                continue
            if size > 64:
                tmp = np.zeros(size * K)
            for q in range(size * K):
                tmp[q] = 0.0
            for a in range(size):
                a8 = (lo + a) * K
                for b in range(size):
                    w = invs[off + a * size + b]
                    b8 = b * K
                    for j in range(K):
                        tmp[b8 + j] += acc[a8 + j] * w
            for a in range(size):  # the rounds column's own source: this sweep's visits to round starts
                src = start[lo + a] * tmp[a * K]
                if src != 0.0:
                    for b in range(size):
                        tmp[b * K + 1] += src * invs[off + a * size + b]
            for a in range(size):
                a8 = a * K
                _push(now, acc, lo + a, tmp[a8], tmp[a8 + 1], tmp[a8 + 2], tmp[a8 + 3], tmp[a8 + 4], tmp[a8 + 5],
                      tmp[a8 + 6], tmp[a8 + 7], g_ptr, g_idx, g_w)  # fmt: skip
        left = 0.0
        for s in range(n):
            left += now[s * K] * b_sum[s]
            for j in range(K):
                v[s * K + j] += now[s * K + j]
        if left <= tol or sweeps >= most:
            return v.reshape(n, K), sweeps, left
        # the steps back: next sweep's entering mass
        acc[:] = 0.0
        for s in range(n):
            if b_ptr[s] == b_ptr[s + 1]:
                continue
            s8 = s * K
            x0, x1, x2, x3 = now[s8], now[s8 + 1], now[s8 + 2], now[s8 + 3]
            x4, x5, x6, x7 = now[s8 + 4], now[s8 + 5], now[s8 + 6], now[s8 + 7]
            for p in range(b_ptr[s], b_ptr[s + 1]):
                t8 = b_idx[p] * K
                w = b_w[p]
                acc[t8] += x0 * w
                acc[t8 + 1] += x1 * w
                acc[t8 + 2] += x2 * w
                acc[t8 + 3] += x3 * w
                acc[t8 + 4] += x4 * w
                acc[t8 + 5] += x5 * w
                acc[t8 + 6] += x6 * w
                acc[t8 + 7] += x7 * w


@numba.njit(cache=True, inline="always")
def _push(
    now: Floats, acc: Floats, s: int, x0: float, x1: float, x2: float, x3: float, x4: float, x5: float, x6: float,
    x7: float, g_ptr: Ints, g_idx: Ints, g_w: Floats,
) -> None:  # fmt: skip
    """State ``s``'s visits this sweep (x0 … x7): kept in ``now``, its entering mass cleared, and pushed along its
    steps forward (into ``acc``, this sweep)."""
    s8 = s * K
    now[s8] = x0
    now[s8 + 1] = x1
    now[s8 + 2] = x2
    now[s8 + 3] = x3
    now[s8 + 4] = x4
    now[s8 + 5] = x5
    now[s8 + 6] = x6
    now[s8 + 7] = x7
    for j in range(K):
        acc[s8 + j] = 0.0
    for p in range(g_ptr[s], g_ptr[s + 1]):
        t8 = g_idx[p] * K
        w = g_w[p]
        acc[t8] += x0 * w
        acc[t8 + 1] += x1 * w
        acc[t8 + 2] += x2 * w
        acc[t8 + 3] += x3 * w
        acc[t8 + 4] += x4 * w
        acc[t8 + 5] += x5 * w
        acc[t8 + 6] += x6 * w
        acc[t8 + 7] += x7 * w


@compiled
def residual(
    m: Floats, v: Floats, g_ptr: Ints, g_idx: Ints, g_w: Floats, i_ptr: Ints, i_idx: Ints, i_w: Floats,
    b_ptr: Ints, b_idx: Ints, b_w: Floats, start: Floats,
) -> Floats:  # fmt: skip
    """Per column, the sum of |m + source − v (I − Q)| (the source: the rounds column's visits to round starts).
    Its own rounding is at most γ_{d+3} (‖m‖ + 2‖v‖) per column (d the most steps into one state)."""
    n = m.shape[0]
    r = m.copy().reshape(n * K)
    flat = v.reshape(n * K)
    for s in range(n):
        s8 = s * K
        for j in range(K):
            r[s8 + j] -= flat[s8 + j]
        r[s8 + 1] += start[s] * flat[s8]
    for s in range(n):
        s8 = s * K
        x0, x1, x2, x3 = flat[s8], flat[s8 + 1], flat[s8 + 2], flat[s8 + 3]
        x4, x5, x6, x7 = flat[s8 + 4], flat[s8 + 5], flat[s8 + 6], flat[s8 + 7]
        for ptr, idx, wt in ((g_ptr, g_idx, g_w), (i_ptr, i_idx, i_w), (b_ptr, b_idx, b_w)):
            for p in range(ptr[s], ptr[s + 1]):
                t8 = idx[p] * K
                w = wt[p]
                r[t8] += x0 * w
                r[t8 + 1] += x1 * w
                r[t8 + 2] += x2 * w
                r[t8 + 3] += x3 * w
                r[t8 + 4] += x4 * w
                r[t8 + 5] += x5 * w
                r[t8 + 6] += x6 * w
                r[t8 + 7] += x7 * w
    res = np.zeros(K)
    for s in range(n):
        for j in range(K):
            res[j] += abs(r[s * K + j])
    return res


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
    g_ptr: Ints, g_idx: Ints, g_w: Floats, i_ptr: Ints, i_idx: Ints, i_w: Floats, b_ptr: Ints, b_idx: Ints,
    b_w: Floats, b_sum: Floats, bounds: Ints, inv_off: Ints, invs: Floats, start: Floats,
    x_ptr: Ints, x_col: Ints, x_w: Floats, col_kind: Ints, col_pos: Ints, kind_da: Ints, kind_db: Ints,
    kind_zero: Ints, tol: float, most: int,
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
    for b in slots:
        m = entering[b]
        total = 0.0
        for s in range(n):
            total += m[s, 0]
        if total == 0.0:
            continue
        v, made, _ = sweep_solve(m, g_ptr, g_idx, g_w, b_ptr, b_idx, b_w, b_sum, bounds, inv_off, invs, start, tol,
                                 most)  # fmt: skip
        visits[b] = v
        sweeps[b] = made
        res[b] = residual(m, v, g_ptr, g_idx, g_w, i_ptr, i_idx, i_w, b_ptr, b_idx, b_w, start)
        for j in range(k):
            total_m = 0.0
            total_v = 0.0
            for s in range(n):
                total_m += abs(m[s, j])
                total_v += abs(v[s, j])
            mag[b, j] = total_m + 2.0 * total_v
        oa, ob = offset_a[b], offset_b[b]
        for s in range(n):
            for p in range(x_ptr[s], x_ptr[s + 1]):
                col = x_col[p]
                kind = col_kind[col]
                ta, tb = oa + kind_da[kind], ob + kind_db[kind]
                if ta >= width_a or tb >= width_b:
                    continue  # into another band: added in one pass over the band's blocks (send)
                w = x_w[p]
                for j in range(k):
                    row[j] = v[s, j] * w
                zero = kind_zero[kind]
                if zero >= 0:
                    row[zero] = 0.0
                target = ta * width_b + tb
                stayed[b, kind] += row[0]
                pos = col_pos[col]
                if pos >= 0:
                    for j in range(k):
                        entering[target, pos, j] += row[j]
                else:
                    for j in range(k):
                        dead[target, j] += row[j]
    return visits, sweeps, res, mag, dead, stayed


@compiled
def send(
    visits: Floats, c_ptr: Ints, c_row: Ints, c_w: Floats, col_kind: Ints, col_code: Ints, route: Ints,
    kind_zero: Ints, stores: Any, rows: Any,
) -> Floats:  # fmt: skip
    """The exits from a band's solved blocks into later bands, added to those bands' waiting mass, by target (``c_*``:
    the exit matrix stored by column). ``visits`` is slot × state × column; ``route[kind, slot]`` is where that
    slot's exits of that kind go: (target band × 64 + its slot), −1 staying in the band; ``stores[t]`` is target
    band t's waiting mass (slot × row × column) and ``rows[t]`` its row per state code. Returns the mass per slot
    and exit kind that left.

    Two slots at a time: their visits (a state's 16 floats side by side) stay in the processor's second-level cache
    while the exits stream past, instead of a wide row of every slot fetched from further away for each exit."""
    slots, n = visits.shape[0], visits.shape[1]
    kinds = route.shape[0]
    left = np.zeros((slots, kinds))
    pairs = np.empty((slots + 1) // 2 * 2, dtype=np.int64)
    count = 0
    for b in range(slots):
        going = False
        for kind in range(kinds):
            if route[kind, b] >= 0:
                going = True
        if going:
            pairs[count] = b
            count += 1
    # the columns are sorted by kind: each kind's range
    first_col = np.full(kinds + 1, c_ptr.size - 1, dtype=np.int64)
    for col in range(c_ptr.size - 2, -1, -1):
        first_col[col_kind[col]] = col
    for kind in range(kinds - 1, -1, -1):
        first_col[kind] = min(first_col[kind], first_col[kind + 1])
    pair = np.zeros(n * 2 * K)
    empty = np.zeros((1, 1, K))
    no_rows = np.zeros(1, dtype=np.int64)
    for first in range(0, count, 2):
        b0 = pairs[first]
        b1 = pairs[first + 1] if first + 1 < count else -1
        for s in range(n):
            for j in range(K):
                pair[s * 16 + j] = visits[b0, s, j]
                pair[s * 16 + K + j] = visits[b1, s, j] if b1 >= 0 else 0.0
        for kind in range(kinds):
            to0 = route[kind, b0]
            to1 = route[kind, b1] if b1 >= 0 else -1
            if to0 < 0 and to1 < 0:
                continue
            store0 = stores[to0 // 64] if to0 >= 0 else empty
            rows0 = rows[to0 // 64] if to0 >= 0 else no_rows
            store1 = stores[to1 // 64] if to1 >= 0 else empty
            rows1 = rows[to1 // 64] if to1 >= 0 else no_rows
            slot0, slot1 = to0 % 64, to1 % 64
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
                code = col_code[col]
                if to0 >= 0 and a0 != 0.0:
                    sent0 += a0
                    _add8(store0, slot0, rows0[code], zero, a0, a1, a2, a3, a4, a5, a6, a7)
                if to1 >= 0 and c0 != 0.0:
                    sent1 += c0
                    _add8(store1, slot1, rows1[code], zero, c0, c1, c2, c3, c4, c5, c6, c7)
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
    row = store[slot, r]
    row[0] += x0
    row[1] += x1
    row[2] += x2 if zero != 2 else 0.0
    row[3] += x3 if zero != 3 else 0.0
    row[4] += x4 if zero != 4 else 0.0
    row[5] += x5 if zero != 5 else 0.0
    row[6] += x6 if zero != 6 else 0.0
    row[7] += x7 if zero != 7 else 0.0


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
def by_kind(visits: Floats, ptr: Ints, col: Ints, w: Floats, col_kind: Ints, kinds: int) -> Floats:
    """Per slot, kind and column: the visits times the CSR ``ptr, col, w`` summed by the kind of each column (the
    ends by end kind, or the exits by exit kind)."""
    blocks, n = visits.shape[0], visits.shape[1]
    k = K
    out = np.zeros((blocks, kinds, k))
    for b in range(blocks):
        for s in range(n):
            if visits[b, s, 0] == 0.0:
                continue
            for p in range(ptr[s], ptr[s + 1]):
                kind = col_kind[col[p]]
                for j in range(k):
                    out[b, kind, j] += visits[b, s, j] * w[p]
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
    position: Ints, x_src: Ints, x_kind: Ints, x_code: Ints, x_w: Floats, grid: int, at: Ints, width_a: int,
    width_b: int, live: int,
) -> tuple[Ints, Ints, Ints, Ints, Ints, Floats, Ints, Ints, Floats, Ints]:  # fmt: skip
    """The exits of a band's live states: their kinds (key: (Omtöckning a gained × 256 + b gained) × 16 + box + 1),
    their targets (columns: one per (kind, code), in that order) with each column's kind, code and position among
    the live states (−1 deadlocked, −2 not in the band), the exits by target (CSC) and, of the kinds that can stay
    in the band, by state (CSR)."""
    keep = np.empty(x_src.size, dtype=np.int64)
    m = 0
    for i in range(x_src.size):
        if position[x_src[i]] >= 0:
            keep[m] = i
            m += 1
    keep = keep[:m]
    seen = np.full(256 * 256 * 16, -1, dtype=np.int64)
    kinds_list = np.empty(m, dtype=np.int64)
    nk = 0
    for i in keep:
        key = x_kind[i]
        if seen[key] < 0:
            kinds_list[nk] = key
            nk += 1
            seen[key] = 0
    kinds = np.sort(kinds_list[:nk])
    for k in range(nk):
        seen[kinds[k]] = k
    kind_of = np.empty(x_src.size, dtype=np.int64)
    for i in keep:
        kind_of[i] = seen[x_kind[i]]
    by = _counting_order(x_code, grid, keep)
    by = _counting_order(kind_of, nk, by)
    col_of = np.empty(x_src.size, dtype=np.int64)
    cols = 0
    last_kind = last_code = -1
    for i in by:
        if kind_of[i] != last_kind or x_code[i] != last_code:
            last_kind, last_code = kind_of[i], x_code[i]
            cols += 1
        col_of[i] = cols - 1
    col_kind = np.empty(cols, dtype=np.int64)
    col_code = np.empty(cols, dtype=np.int64)
    col_pos = np.empty(cols, dtype=np.int64)
    c_ptr = np.zeros(cols + 1, dtype=np.int64)
    c_row = np.empty(m, dtype=np.int64)
    c_w = np.empty(m)
    for j in range(m):
        i = by[j]
        col = col_of[i]
        col_kind[col] = kind_of[i]
        col_code[col] = x_code[i]
        index = at[x_code[i]]
        col_pos[col] = position[index] if index >= 0 else -2
        c_ptr[col + 1] = j + 1
        c_row[j] = position[x_src[i]]
        c_w[j] = x_w[i]
    # the kinds that can stay in the band, by state (the walk's order is by state already)
    stays = np.zeros(nk, dtype=np.bool_)
    for k in range(nk):
        base = kinds[k] // 16
        stays[k] = (base >> 8) < width_a and (base & 255) < width_b
    count = np.zeros(live + 1, dtype=np.int64)
    for i in keep:
        if stays[kind_of[i]]:
            count[position[x_src[i]] + 1] += 1
    x_ptr = np.cumsum(count)
    x_col = np.empty(x_ptr[live], dtype=np.int64)
    xw = np.empty(x_ptr[live])
    fill = x_ptr[:live].copy()
    for i in keep:
        if stays[kind_of[i]]:
            r = position[x_src[i]]
            x_col[fill[r]] = col_of[i]
            xw[fill[r]] = x_w[i]
            fill[r] += 1
    return kinds, col_kind, col_code, col_pos, c_ptr, c_row, c_w, x_ptr, x_col, xw


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
