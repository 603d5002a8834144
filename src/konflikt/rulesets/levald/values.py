"""Who wins from every state of a Le våld duel: the block solve run backward, for the table's question.

The block solve (:mod:`.blocks`) pushes the mass of one start through the blocks of Omtöckning: its answer is for
that start alone, and asked again from a later state of the same duel ("who wins from here", at every prompt) it
costs a whole solve again, seconds. The table asks only who wins, so here the same bands are solved the other way:
for every state of every block the forward solve met, the chance of each side winning from it, x = Q x + r, block
by block from the highest Omtöckning down (a block's exits lead to higher Omtöckning only, already solved). A later
question is then its bridge to the next round starts (:mod:`konflikt.analysis.model_odds`) and a look-up.

**The same tables.** The forward solve is run once from the opening, keeping each band's prepared tables
(:attr:`.blocks.BlockSolver.kept`): the in-block steps split by the sweeps' sets with each set's (I − Q_set)⁻¹, the
ends by kind, the wound nodes by source and each hit class's wounds. A block's x is solved by sweeps over the sets
in reverse solve order (the exact inverse within a set; the steps back, rare, from the last sweep), its right-hand
side the ends' winners and the exits' values, gathered from the blocks they lead to (:func:`exit_sums`). States the
forward solve never reached (no mass entered them) may lead where nothing was solved: their values are unknown
(NaN), and a question that meets one is not answered here.

**The round cap.** The values are the duel's without the cap. With L rounds left, the chance of a path still going
at the cap — the only mass the cap can move (a deadlock ends as one either way) — is at most E[T^k] / L^k (Markov),
T the rounds to an end or a deadlock: E[T], E[T²] and E[T³] are solved with the winners, each from the last
(T = c + T', c = 1 on a round start: E[T^k] = E[Σ_j C(k, j) c^(k−j) T'^j]).

**The bound** (absolute, on each side's chance): the cap's share above, the sweeps' residual times the steps a path
takes (at most 2 E[T] + 1), and the values' storage in float32 (2⁻²⁴ relative per block a path passes, at most
2 E[T] + 1 of them).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from konflikt.core.deadline import check_time
from konflikt.dice.compiled import compiled, side_by_side
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.blocks import BlockSolver, Prepared
from konflikt.rulesets.levald.model import DAZE, FATE, ROUNDS, Compact, LevaldModel

Ints = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]

MOMENTS = 3
"""The moments of the rounds left solved for the cap's bound: E[T], E[T²], E[T³]."""
TOLERANCE = 1e-9
"""Sweeps stop once no value changed by more than this (relative to 1 or the value, the larger); the residual left
is measured and bounded (see the module)."""
MOST_SWEEPS = 10_000
UNIT_ROUNDOFF_32 = 2.0**-24
BINOMIALS = np.array([[comb(k, j) for j in range(MOMENTS + 1)] for k in range(MOMENTS + 1)], dtype=np.float64)
"""C(k, j) for the moments' own parts."""


@compiled
def value_sweeps(
    x: Floats, rhs: Floats, start: Floats, sides: int, binomials: Floats, g_ptr: Ints, g_idx: Ints, g_w: Floats,
    i_ptr: Ints, i_idx: Ints, i_w: Floats, b_ptr: Ints, b_idx: Ints, b_w: Floats, bounds: Ints, inv_off: Ints,
    invs: Floats, tol: float, most: int,
) -> tuple[int, float]:  # fmt: skip
    """x = Q x + rhs + own over one block's live states (solve order; state × column, x zero on entry): the first
    ``sides`` columns the winners (``own`` 0), the rest the moments E[T^k], k = 1, 2, …, whose own part is
    ``start`` × (1 + Σ_{j<k} C(k, j) (Q m_j)), with Q m_j = m_j − own_j. Sweeps over the sets last to first, each set
    exactly by its (I − Q_set)⁻¹ (every column at once: a moment's own part reads the lower ones as the last sweep
    left them), the steps forward from this sweep and the steps back from the last. Returns the sweeps made and the
    largest residual left (relative to 1 or the value, the larger)."""
    n, columns = rhs.shape
    moments = columns - sides
    sets = bounds.size - 1
    acc = np.zeros((64, columns))
    own = np.zeros((n, moments))
    out = np.zeros(columns)
    sweeps = 0
    while True:
        sweeps += 1
        change = 0.0
        for c in range(sets - 1, -1, -1):
            lo, hi = bounds[c], bounds[c + 1]
            size = hi - lo
            if size > acc.shape[0]:
                acc = np.zeros((size, columns))
            for a in range(size):
                s = lo + a
                for col in range(columns):
                    acc[a, col] = rhs[s, col]
                for p in range(g_ptr[s], g_ptr[s + 1]):
                    j, w = g_idx[p], g_w[p]
                    for col in range(columns):
                        acc[a, col] += w * x[j, col]
                for p in range(b_ptr[s], b_ptr[s + 1]):
                    j, w = b_idx[p], b_w[p]
                    for col in range(columns):
                        acc[a, col] += w * x[j, col]
            off = inv_off[c]
            for a in range(size):  # the moments' own parts, from the lower moments as the last sweep left them
                s = lo + a
                for k in range(1, moments + 1):
                    part = 1.0
                    for j in range(1, k):
                        part += binomials[k, j] * (x[s, sides + j - 1] - own[s, j - 1])
                    own[s, k - 1] = start[s] * part
                    acc[a, sides + k - 1] += own[s, k - 1]
            for a in range(size):
                s = lo + a
                for col in range(columns):
                    out[col] = 0.0
                for b in range(size):
                    w = invs[off + a * size + b]
                    if w != 0.0:  # an unknown value (NaN) reaches only the states that can reach it
                        for col in range(columns):
                            out[col] += w * acc[b, col]
                for col in range(columns):
                    v = out[col]
                    d = abs(v - x[s, col]) / max(1.0, abs(v))
                    if d > change:
                        change = d
                    x[s, col] = v
        if not change > tol or sweeps >= most:  # NaN values do not keep the sweeps going
            break
    worst = 0.0
    for s in range(n):
        for col in range(columns):
            r = rhs[s, col] - x[s, col]
            if col >= sides:
                r += own[s, col - sides]
            for p in range(g_ptr[s], g_ptr[s + 1]):
                r += g_w[p] * x[g_idx[p], col]
            for p in range(i_ptr[s], i_ptr[s + 1]):
                r += i_w[p] * x[i_idx[p], col]
            for p in range(b_ptr[s], b_ptr[s + 1]):
                r += b_w[p] * x[b_idx[p], col]
            r = abs(r) / max(1.0, abs(x[s, col]))
            if r > worst:
                worst = r
    return sweeps, worst


@compiled
def exit_sums(
    rhs: Floats,
    columns: Ints,
    slot: int,
    n_ptr: Ints,
    n_row: Ints,
    n_w: Floats,
    node_hit: Ints,
    w_ptr: Ints,
    w_kind: Ints,
    w_w: Floats,
    target: Ints,
    base: Ints,
    positions: Ints,
    store: Any,
) -> None:
    """Add to ``rhs`` (state × column) each state's wounds' values: per wound node, its hit class's wounds, each
    leading to the node's state in the block ``slot`` + the Omtöckning gained (``target[kind, slot]``: which of
    ``positions``' rows holds the state's position there, −1 deadlocked, −2 not met; ``base[kind, slot]``: the
    block's first row in ``store``, −1 not solved: unknown, NaN). ``columns`` picks the store's columns."""
    k = columns.size
    val = np.zeros(k)
    for node in range(node_hit.size):
        h = node_hit[node]
        for c in range(k):
            val[c] = 0.0
        for e in range(w_ptr[h], w_ptr[h + 1]):
            kind, w = w_kind[e], w_w[e]
            where = positions[target[kind, slot], node]
            if where == -1:
                continue  # a deadlock: nobody wins, no rounds counted
            first = base[kind, slot]
            if where < 0 or first < 0:
                for c in range(k):
                    val[c] = np.nan
                break
            for c in range(k):
                val[c] += w * store[first + where, columns[c]]
        for q in range(n_ptr[node], n_ptr[node + 1]):
            r, w = n_row[q], n_w[q]
            for c in range(k):
                rhs[r, c] += w * val[c]


@dataclass
class _Found:
    """A solved band's state codes met (ascending) and each one's position among its live states (−1 deadlocked)."""

    codes: Ints
    positions: Ints

    def positions_of(self, codes: Ints) -> Ints:
        """Each code's position (−1 deadlocked, −2 never met)."""
        i = np.minimum(np.searchsorted(self.codes, codes), len(self.codes) - 1)
        out: Ints = np.where(self.codes[i] == codes, self.positions[i], -2)
        return out


@dataclass
class _Band:
    """A kept band: its prepared tables (let go once its values are solved), the states it met, each solved slot's
    first row in the store (−1 not solved)."""

    key: tuple[int, int]
    low: tuple[int, int]
    width: tuple[int, int]
    found: _Found
    prep: Prepared | None
    solved: list[int]
    base: Ints


class WinnerValues:
    """Each side's chance of winning from every state the opening's block solve met (see the module).

    ``sides``: the winners' tuples with a column each (a win nobody has, ``()``, is the rest)."""

    def __init__(self, model: LevaldModel, start: Hashable, max_states: int | None = None) -> None:
        self.model = model
        solver = BlockSolver(model)
        solver.kept = []
        self.opening = solver.run([(start, 1.0)], max_states)
        """The forward solve's answer from the opening (what the values there must agree with)."""
        kept = solver.kept
        solver.kept = None
        self.grid = solver.grid
        self.cap = model.cap
        fates = np.unique(np.concatenate([prep.end_kinds[:, 3:5] for _, prep, _ in kept]), axis=0)
        sides: list[Hashable] = []
        self.fate_column: dict[tuple[int, int], int] = {}
        """Fates (a, b) → the column of their winners (−1: nobody)."""
        for fa, fb in fates.tolist():
            winners = solver.label((0, 0), (fa, fb))[1]  # type: ignore[index]
            if winners and winners not in sides:
                sides.append(winners)
            self.fate_column[fa, fb] = sides.index(winners) if winners else -1
        self.sides = sides
        self.columns = len(sides) + MOMENTS
        rows = 0
        self.bands: dict[tuple[int, int], _Band] = {}
        for band, prep, solved in kept:
            key = (R.daze_penalty(band.low[0]), R.daze_penalty(band.low[1]))
            base = np.full(band.slots, -1, dtype=np.int64)
            for slot in solved:
                base[slot] = rows
                rows += len(prep.codes)
            codes = np.flatnonzero(band.at >= 0)
            found = _Found(codes, prep.position[band.at[codes]])
            self.bands[key] = _Band(key, band.low, band.width, found, prep, solved, base)  # type: ignore[arg-type]
        self.store = np.full((rows, self.columns), np.nan, dtype=np.float32)
        self.residual = 0.0
        self.sweeps = 0
        for entry in reversed(self.bands.values()):  # a band's wounds lead to bands solved later forward
            check_time()
            self._solve(entry)
        for entry in self.bands.values():  # the tables are no longer needed: the codes met and the store answer
            entry.prep = None

    def _solve(self, entry: _Band) -> None:
        prep = entry.prep
        assert prep is not None
        n = len(prep.codes)
        wb = entry.width[1]
        sides = len(self.sides)
        target, base, positions = self._targets(entry)
        ends = np.zeros((n, sides))
        column_of = np.array([self.fate_column[fa, fb] for fa, fb in prep.end_kinds[:, 3:5].tolist()], dtype=np.int64)
        states = np.repeat(np.arange(n), np.diff(prep.e_ptr))
        columns = column_of[prep.e_col] if len(prep.e_col) else np.zeros(0, dtype=np.int64)
        won = columns >= 0
        np.add.at(ends, (states[won], columns[won]), prep.e_w[won])
        start = prep.start
        tables = (prep.g_ptr, prep.g_idx, prep.g_w, prep.i_ptr, prep.i_idx, prep.i_w, prep.b_ptr, prep.b_idx,
                  prep.b_w, prep.bounds, prep.inv_off, prep.invs)  # fmt: skip
        diagonals: dict[int, list[int]] = {}
        for slot in entry.solved:
            diagonals.setdefault(slot // wb + slot % wb, []).append(slot)

        every = np.arange(self.columns, dtype=np.int64)
        told: list[tuple[int, float]] = []

        def block(slot: int) -> Callable[[], None]:
            def solve() -> None:
                # the ends' winners, then what the exits bring (the moments' own parts are the sweeps')
                rhs = np.zeros((n, self.columns))
                rhs[:, :sides] = ends
                exit_sums(rhs, every, slot, prep.n_ptr, prep.n_row, prep.n_w, prep.node_hit, prep.w_ptr,
                          prep.w_kind, prep.w_w, target, base, positions, self.store)  # fmt: skip
                x = np.zeros_like(rhs)
                told.append(value_sweeps(x, rhs, start, sides, BINOMIALS, *tables, TOLERANCE, MOST_SWEEPS))
                first = entry.base[slot]
                self.store[first : first + n] = x

            return solve

        for diagonal in sorted(diagonals, reverse=True):  # a block's in-band wounds lead to a higher sum only
            check_time()
            side_by_side([block(slot) for slot in diagonals[diagonal]])
        self.sweeps += sum(sweeps for sweeps, _ in told)
        self.residual = max([self.residual, *(worst for _, worst in told)])

    def _targets(self, entry: _Band) -> tuple[Ints, Ints, Ints]:
        """Per (wound kind, slot) the row of ``positions`` for the band the wound leads to and that block's first
        row in the store (its ``base``, −1 when not solved), with ``positions``: per target band, each wound node's
        state's position there (−1 deadlocked, −2 not met)."""
        prep = entry.prep
        assert prep is not None
        wa, wb = entry.width
        kinds = len(prep.kinds)
        slots = wa * wb
        oa, ob = np.divmod(np.arange(slots), wb)
        ta = oa[None, :] + prep.kinds[:, 0, None]
        tb = ob[None, :] + prep.kinds[:, 1, None]
        target = np.zeros((kinds, slots), dtype=np.int64)
        base = np.full((kinds, slots), -1, dtype=np.int64)
        position_rows = [prep.node_pos]
        bands = {entry.key: 0}
        for k in range(kinds):
            for slot in range(slots):
                a, b = int(ta[k, slot]), int(tb[k, slot])
                if a < wa and b < wb:
                    base[k, slot] = entry.base[a * wb + b]
                    continue
                da, db = entry.low[0] + a, entry.low[1] + b
                key = (R.daze_penalty(da), R.daze_penalty(db))
                there = self.bands.get(key)
                if there is None:
                    target[k, slot] = -1
                    continue
                row = bands.get(key)
                if row is None:
                    row = bands[key] = len(position_rows)
                    position_rows.append(there.found.positions_of(prep.node_code))
                target[k, slot] = row
                base[k, slot] = there.base[(da - there.low[0]) * there.width[1] + (db - there.low[1])]
        position_rows.append(np.full(len(prep.node_code), -2, dtype=np.int64))  # a band never made: not met
        target[target < 0] = len(position_rows) - 1
        return target, base, np.array(position_rows, dtype=np.int64)

    def at(self, starts: Sequence[tuple[Hashable, Fraction | float]]) -> tuple[dict[Hashable, float], float] | None:
        """Each winners' tuple's chance from the weighted compact round ``starts`` (the model's), and the absolute
        bound on each; ``None`` where a start was not met by the opening's solve, or leads where nothing was."""
        model = self.model
        grid = self.grid
        out: dict[Hashable, float] = {}
        bound = 0.0
        for c, w in starts:
            compact: Compact = tuple(c)  # type: ignore[arg-type]
            weight = float(w)
            label = model.end(compact)
            if label is not None:
                winners = label[1]  # type: ignore[index]
                out[winners] = out.get(winners, 0.0) + weight
                continue
            daze = (compact[DAZE], compact[DAZE + 1])
            entry = self.bands.get((R.daze_penalty(daze[0]), R.daze_penalty(daze[1])))
            if entry is None or compact[FATE] or compact[FATE + 1]:
                return None
            zero = np.zeros(1, dtype=np.int64)
            code = int(grid.code(zero, zero, zero, np.array([compact], dtype=np.int64))[0])
            slot = (daze[0] - entry.low[0]) * entry.width[1] + (daze[1] - entry.low[1])
            position = int(entry.found.positions_of(np.array([code]))[0])
            if position == -2 or entry.base[slot] < 0:
                return None
            if position == -1:  # deadlocked: it plays on to the cap and nobody wins
                out[()] = out.get((), 0.0) + weight
                continue
            values = self.store[entry.base[slot] + position].astype(np.float64)
            if np.isnan(values).any():
                return None
            sides = len(self.sides)
            for side, p in zip(self.sides, values[:sides].tolist(), strict=True):
                out[side] = out.get(side, 0.0) + weight * p
            out[()] = out.get((), 0.0) + weight * max(0.0, 1.0 - float(values[:sides].sum()))
            left = max(1, self.cap - int(compact[ROUNDS]))
            moments = values[sides:]
            cap = min(1.0, *(float(m) / left ** (k + 1) for k, m in enumerate(moments.tolist())))
            steps = 2 * float(moments[0]) + 1
            bound += weight * (cap + steps * (self.residual + 2 * UNIT_ROUNDOFF_32))
        return out, bound
