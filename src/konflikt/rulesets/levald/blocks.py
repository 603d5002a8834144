"""Le våld duel odds block by block of Omtöckning: each reachable round start's branches touched once, not once a
round.

**Why blocks.** Omtöckning (daze) never falls within a duel, and every wound that does not end the duel raises it
(``rules.daze_gained``: a Skråma 1, a Lätt the dice, ≥ 1, an Allvarlig dice + effect; a Kritisk or Dödlig takes
the fighter out). So the clockless chain is acyclic across the blocks of (Omtöckning a, Omtöckning b), ordered by
their sum, and inside a block no wound is taken: the wound boxes are constant there and the block's loops run over
x = (distance, initiative holder, why to decide it afresh, Gard a, Gard b) alone — a few thousand states
(``tests/analysis/test_blocks_levald.py`` asserts that every exit goes to a later block).

**One table per pair of penalties.** What a round does to x, and the Omtöckning and the box it adds, reads
Omtöckning only through its penalty (``rules.daze_penalty``: the targets, the heuristic's comparisons), never the
boxes (``test_lumping_levald.py``). So a :class:`Band` — one (penalty a, penalty b) pair — holds one table for every
block in those bands: from each state, the in-block successors (no wound: Gard moves, the distance, the
initiative), the exits (a wound: the Omtöckning gained, the box ticked, the state after) and the ends (a fate:
taken out, dead, left). The table is the compact model's own round (:class:`.propagate.Propagator`'s phases, the
model's memoised tables: the rules' functions and the real heuristic on a real ``LevaldState``), asked for the
band's states only as the solve meets them. A counter-attack's strike back is a state of its own (x, who attacked,
whether the attack succeeded): its target reads the Omtöckning the first strike left, and a round then branches
some sixty ways per strike instead of sixty times sixty.

**The solve.** Mass enters a block as vectors over its band's states, one per wound-box configuration present.
The visits v solve v (I − Q) = m, Q the band's in-block table over the states that can still leave it, by one
sparse LU per band (``scipy.sparse.linalg.splu``, many right-hand sides at once, refactored only when the band
meets new states); the exits v · R go to the later blocks (boxes ticked), the ends to their labels (the State's own
words, :meth:`.model.LevaldModel.end`). States from which no exit can be reached (both fighters too dazed to succeed
at anything, and neither leaving: a deadlock) are found by reverse reachability; mass reaching them plays on to the
round cap and ends as the State's deadlock there (:meth:`.model.LevaldModel.at_cap`), its boxes and Omtöckning
those of its block. The expected length is the visits to round starts summed (the rounds played), the deadlocked
mass counted at the cap (its entry time from a first-moment pass over the same LUs).

**What the cap changes, bounded.** The clockless chain is the duel without ``max_rounds``; a path that ends (or
deadlocks) within the rounds left is the same path under the cap. The rest is bounded: P(T > L) ≤ E[z^T] z^−(L+1)
for z > 1, T the rounds until the end or the deadlock, E[z^T] the same block solve with every round weighted by z
(a band where (I − zQ)⁻¹ is not positive — a solve of the ones vector with an entry ≤ 0 — is where z times the
spectral radius reaches 1: a path entering such a band is counted into the bound whole, by its chance, once — a
third config-free pass carries the chance of being somewhere without having passed such a band — and leaves the
z-weighted mass there. Counting the z-weighted mass instead, z^rounds times the chance, made the bundled duel's
bound 6.1, and counting the chance once per block such a path enters is more than once per path).

**Measured on the bundled duel, and why it does not finish** (``scripts/levald_blocks.py``). The labels are the
State's fate words — fate, every wound box and the exact Omtöckning of both fighters — and they are many: 2,000,000
kernel duels met 19,917 joint labels (2,784 fate words of Snurre's, 813 of Hedda's) over 2,293 pairs of final
Omtöckning. So the configurations entering a block grow as the solve goes on (~70 a block after 300 blocks), each a
right-hand side of the band's LU; after 300 blocks (15 bands, 94,170 band states, 131 CPU s) 1,005 blocks were still
waiting and the pending mass held 7.9 GB, with configurations below 10⁻¹⁰ pruned. The band walks (~0.25 ms a state
in numpy), the refactorisations when a band meets new states, and the solves each take a third of the time; making
any one of them free leaves the run in minutes, not seconds. The bound is the labels' number, not the dynamics:
without the boxes, the chain a round reads (distance, initiative, Gard ×2, Omtöckning ×2) is the same blocks with
one right-hand side each — and that solve finishes: 2,664 blocks, 108 bands, 337,424 band states in 184 CPU s and
4.9 GB, winner and ending within the simulation's intervals. Since the rows are merged by one int64 code each
(:func:`.propagate.unique_rows`; numpy's row sort had taken 44% of the run) it takes 94–100 CPU s (side by side,
1,500 blocks: 174.7 CPU s before, 87.3 after), of which the LU factorisations are now the largest part (312 of
them, 43 s: COLAMD, the best of SuperLU's orderings here, fills a 7,540-state band's 108,576 entries to 2.3
million). Its stated bound is 3.1·10⁻³: the chance of ever entering a band where z = 1.3 passes 1 / the spectral
radius (both fighters too dazed to succeed, a few rounds each way; expected steps in the band up to 70), each such
path counted whole; before, that mass was counted z-weighted (6.1, so the bound read 1.0).

**Without the boxes** (``run(boxes=False)``: what the bundled duel gets). With the boxes, more than
:data:`PENDING_LIMIT` floats of configurations waiting refuse (:class:`TooManyConfigurations`: the bundled duel's
after 41 blocks, some 20 s in); :meth:`.model.LevaldModel.solve_blocks` then runs the same bands again — their
tables walked once, kept — with one right-hand side per block. Its labels are the winner, the ending and each
fighter's fate and exact Omtöckning (:meth:`.model.LevaldModel.without_boxes`: the words say the boxes are not told
apart), and each wound box's chance of being ticked at least once comes from one more config-free column per box
(fighter × box): the mass that has not ticked it, zeroed where an exit or an end ticks it (:data:`UNTOUCHED`), so a
box's chance is the start's mass less what ends in its column. A band's LUs (~30 MB each on the bundled duel's
largest; 6 GB when all were kept) are let go once no waiting block is in it (:attr:`Band.top`).

**Error bound** (absolute, on every probability): the residual of every solve (|m − v (I − Q)| carried through
(I − Q)⁻¹ · 1, the expected steps left in the block; the residual's own rounding added), the float products'
roundings, the mass of box configurations dropped below :data:`PRUNE`, and the cap's share above; without the boxes, the
untouched columns' residuals too.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from konflikt.core.deadline import check_time
from konflikt.errors import KonfliktError
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.model import (
    BOXES,
    DAZE,
    DIST,
    FATE,
    GARD,
    HOLDER,
    REDECIDE,
    ROUNDS,
    SIZE,
    WOUNDS,
    Compact,
    LevaldModel,
    _cleared,
)
from konflikt.rulesets.levald.propagate import Propagator, kept_on, propagator, unique_rows

PRUNE = 1e-17
"""A box configuration entering a block with less mass than this is dropped, its mass added to the error bound."""
Z = 1.3
"""The weight per round of the cap's bound (E[z^T] z^−(L+1)): above 1, below 1 / the slowest band's radius."""
PENDING_LIMIT = 1 << 25
"""The most floats of wound-box configurations that may wait to enter later blocks (256 MiB)."""
BOX_BITS = 6
"""Bits per wound box in a configuration's code (ten boxes: 60 bits of an int64)."""
UNIT_ROUNDOFF = 2.0**-53

Rows = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]


class TooManyConfigurations(KonfliktError):
    """More wound-box configurations waiting than :data:`PENDING_LIMIT` floats hold: the fate words would not fit
    in memory (the bundled duel's do not: see the module). The solve without the boxes still answers."""

    def __init__(self, floats: int, met: int, blocks: int, pending: int) -> None:
        self.floats, self.met, self.blocks, self.pending = floats, met, blocks, pending
        super().__init__(
            f"{floats:,} floats of wound-box configurations waiting after {blocks:,} blocks of Omtöckning, with "
            f"{pending:,} blocks still to solve, over {PENDING_LIMIT:,}"
        )


class TooManyBandStates(KonfliktError):
    """More band states met than asked for: the block solve would not finish in reasonable time."""

    def __init__(self, met: int, limit: int, blocks: int, pending: int) -> None:
        self.live, self.met, self.limit, self.blocks, self.pending = met, met, limit, blocks, pending
        where = (
            f"in {blocks:,} blocks of Omtöckning with {pending:,} still to solve"
            if blocks
            else "before its first block of Omtöckning was solved"
        )
        super().__init__(
            f"{met:,} band states (round starts and strike backs per pair of Omtöckning penalties) met {where}, "
            f"over {limit:,}"
        )


def tick_bit(fighter: int, box: int) -> int:
    """What ticking ``box`` of ``fighter`` adds to a configuration's code."""
    return 1 << (BOX_BITS * (fighter * BOXES + box))


def boxes_of(config: int) -> tuple[int, ...]:
    """The ten wound-box counts of a configuration's code (fighter a's five, then fighter b's)."""
    mask = (1 << BOX_BITS) - 1
    return tuple((config >> (BOX_BITS * i)) & mask for i in range(2 * BOXES))


def config_of(boxes: Sequence[int]) -> int:
    code = 0
    for i, n in enumerate(boxes):
        if not 0 <= n < (1 << BOX_BITS) - 1:
            raise OverflowError(f"a wound box ticked {n} times: beyond the configuration code")
        code |= n << (BOX_BITS * i)
    return code


class Grid:
    """State codes of a band: a round start (kind 0) or a strike back pending (kind 1, who attacked, whether the
    attack succeeded), over (distance, holder, why to decide afresh, Gard a, Gard b)."""

    def __init__(self, model: LevaldModel) -> None:
        self.dists = model.last + 1
        self.gards = tuple(f.gard_max + 1 for f in model.fighters)
        self.size = 8 * self.dists * 3 * 4 * self.gards[0] * self.gards[1]
        """Codes run from 0 to ``size`` − 1."""

    def code(self, kind: Rows, att: Rows, succ: Rows, rows: Rows) -> Rows:
        c = (kind * 2 + att) * 2 + succ
        c = c * self.dists + rows[:, DIST]
        c = c * 3 + rows[:, HOLDER] + 1
        c = c * 4 + rows[:, REDECIDE]
        c = c * self.gards[0] + rows[:, GARD]
        out: Rows = c * self.gards[1] + rows[:, GARD + 1]
        return out

    def decode(self, codes: Rows) -> tuple[Rows, Rows, Rows, Rows]:
        """(kind, who attacked, succeeded, compact rows with Omtöckning, boxes and fates zero)."""
        c = codes.copy()
        rows = np.zeros((len(c), SIZE), dtype=np.int64)
        rows[:, GARD + 1] = c % self.gards[1]
        c //= self.gards[1]
        rows[:, GARD] = c % self.gards[0]
        c //= self.gards[0]
        rows[:, REDECIDE] = c % 4
        c //= 4
        rows[:, HOLDER] = c % 3 - 1
        c //= 3
        rows[:, DIST] = c % self.dists
        c //= self.dists
        succ = c % 2
        c //= 2
        att = c % 2
        kind = c // 2
        return kind, att, succ, rows


@dataclass
class Prepared:
    """A band's table over its live states, ready for the solves (rebuilt when the band meets new states)."""

    live: Rows
    """Band indices of the states that can still leave the band (the rest deadlock)."""
    position: Rows
    """Band index → position among the live states, −1 for a deadlocked one."""
    lu: Any
    lu_z: Any | None
    """The LU of I − zQ, or ``None`` where it is not positive (z at or beyond the band's radius)."""
    a: Any
    """I − Q over the live states (CSR), for the residuals."""
    steps: Floats
    """(I − Q)⁻¹ · 1: the expected steps in the band from each live state (the residuals' weight)."""
    start: Floats
    """1.0 at a round start, 0.0 at a strike back pending (the rounds counted)."""
    to_trap: Floats
    """Per live state: the probability of a step into a deadlocked state."""
    q_start: Any
    """Q's rows of round starts only (the first-moment pass: a round is played on leaving a round start)."""
    exits: Any
    """live × exit kinds (CSR): the exits' probabilities."""
    exit_da: Rows
    exit_db: Rows
    exit_tick: Rows
    exit_code: Rows
    groups: list[tuple[int, int, int, int, int]]
    """The exit kinds by (Omtöckning a gained, b gained, box ticked or −1): their columns ``lo:hi``."""
    ends: Any
    """live × end kinds (CSR)."""
    end_kinds: list[tuple[int, int, int, int, int]]
    """(Omtöckning a gained, b gained, box ticked or −1, fate a, fate b) of each end kind."""


class Band:
    """One (penalty a, penalty b) pair: its states met so far, their transitions, and the LUs."""

    def __init__(self, solver: BlockSolver, daze: tuple[int, int]) -> None:
        self.solver = solver
        self.daze = daze
        """The Omtöckning the band's rows are walked at (any of the band: only the penalties are read)."""
        self.at = np.full(solver.grid.size, -1, dtype=np.int64)
        """State code → band index (−1: not met)."""
        self.codes: list[int] = []
        self.done = 0
        """States whose transitions are in the lists below (the first ``done`` of ``codes``)."""
        self.q: list[tuple[Rows, Rows, Floats]] = []
        self.x: list[tuple[Rows, Rows, Rows, Rows, Rows, Floats]] = []
        self.e: list[tuple[Rows, Rows, Floats]] = []
        self.end_kind: dict[tuple[int, int, int, int, int], int] = {}
        self.prepared: Prepared | None = None
        self.top = _same_penalty_up_to(daze[0]) + _same_penalty_up_to(daze[1])
        """The largest sum of Omtöckning of a block in this band: once the solve has passed it, the band's LUs
        (most of a solve's memory: ~30 MB each for the bundled duel's largest bands) are let go."""

    def add(self, codes: Rows, *, close: bool = True, limit: int | None = None) -> None:
        """Make ``codes`` states of the band with their tables, and (``close``) everything they reach within the
        band; without ``close`` only ``codes`` are walked (the tests' look at one round)."""
        self._met(codes)
        while self.done < len(self.codes):
            check_time()
            batch = np.array(self.codes[self.done :], dtype=np.int64)
            first = self.done
            self.done = len(self.codes)
            self._walk(batch, first)
            self.prepared = None
            if not close:
                return
            met = sum(len(b.codes) for b in self.solver.bands.values())
            if limit is not None and met > limit:
                raise TooManyBandStates(met, limit, 0, 0)

    def _met(self, codes: Rows) -> None:
        new = np.unique(codes[self.at[codes] < 0])
        self.at[new] = np.arange(len(self.codes), len(self.codes) + len(new))
        self.codes.extend(new.tolist())

    def _walk(self, batch: Rows, first: int) -> None:
        """One round (or strike back) of each state of ``batch`` (band indices from ``first``), classified."""
        s = self.solver
        kind, att, succ, rows = s.grid.decode(batch)
        rows[:, DAZE], rows[:, DAZE + 1] = self.daze
        parent = np.arange(first, first + len(batch), dtype=np.int64)
        wide = np.column_stack([rows, parent])
        outs: list[tuple[Rows, Floats, Rows, Rows, Rows]] = []
        zero = np.zeros(0, dtype=np.int64)
        starts = kind == 0
        if starts.any():
            t, q, (m, mq, ma, msucc) = s.push.round_start(wide[starts], np.ones(int(starts.sum())))
            outs.append((t, q, np.zeros(len(t), dtype=np.int64), np.zeros(len(t), dtype=np.int64), zero[:0]))
            outs.append((m, mq, np.ones(len(m), dtype=np.int64), ma, np.asarray(msucc, dtype=np.int64)))
        if (~starts).any():
            t, q = s.push.strike_back(wide[~starts], np.ones(int((~starts).sum())), att[~starts], succ[~starts])
            outs.append((t, q, np.zeros(len(t), dtype=np.int64), np.zeros(len(t), dtype=np.int64), zero[:0]))
        reached: list[Rows] = [zero]
        for t, q, k, a, sc in outs:
            if len(t):
                reached.append(self._classify(t, q, k, a, sc if len(sc) else np.zeros(len(t), dtype=np.int64)))
        self._met(np.concatenate(reached))

    def _classify(self, t: Rows, q: Floats, kind: Rows, att: Rows, succ: Rows) -> Rows:
        """Sort a walk's rows into in-block steps, exits and ends; returns the in-block states reached."""
        parent = t[:, SIZE]
        da, db = t[:, DAZE] - self.daze[0], t[:, DAZE + 1] - self.daze[1]
        boxes = t[:, WOUNDS : WOUNDS + 2 * BOXES]
        ticks = boxes.sum(axis=1)
        assert int(ticks.max(initial=0)) <= 1, "one strike ticks one box at most"
        tick = np.where(ticks > 0, boxes.argmax(axis=1), -1)
        ended = (t[:, FATE] != 0) | (t[:, FATE + 1] != 0)
        inside = ~ended & (da == 0) & (db == 0) & (tick < 0)
        wounded = ~ended & ~inside
        assert bool(((da[wounded] + db[wounded]) > 0).all()), "a wound that does not end the duel raises Omtöckning"
        code = self.solver.grid.code(kind, att, succ, t)
        self.q.append(_summed(parent[inside], code[inside], q[inside]))
        if wounded.any():
            keys = np.column_stack([parent[wounded], da[wounded], db[wounded], tick[wounded], code[wounded]])
            uniq, inv = unique_rows(keys)
            w: Floats = np.bincount(inv.ravel(), weights=q[wounded], minlength=len(uniq)).astype(np.float64)
            u: Rows = uniq.astype(np.int64)
            self.x.append((u[:, 0], u[:, 1], u[:, 2], u[:, 3], u[:, 4], w))
        if ended.any():
            ends = np.column_stack([da[ended], db[ended], tick[ended], t[ended, FATE], t[ended, FATE + 1]])
            uniq, inv = unique_rows(ends)
            ids = np.array([self._end_id(tuple(r)) for r in uniq.tolist()], dtype=np.int64)
            self.e.append(_summed(parent[ended], ids[inv.ravel()], q[ended]))
        reached: Rows = code[inside]
        return reached

    def _end_id(self, kind: tuple[int, ...]) -> int:
        found = self.end_kind.get(kind)  # type: ignore[arg-type]
        if found is None:
            found = self.end_kind[kind] = len(self.end_kind)  # type: ignore[index]
        return found

    def prepare(self) -> Prepared:
        """The band's matrices over its states, the deadlocked ones found, the LUs factored."""
        if self.prepared is not None:
            return self.prepared
        import scipy.sparse as sp
        from scipy.sparse.linalg import splu

        n = len(self.codes)
        assert self.done == n
        qp, qc, qw = (np.concatenate([q[i] for q in self.q]) for i in range(3))
        qcol = self.at[qc]
        q = sp.csr_matrix((qw, (qp, qcol)), shape=(n, n))
        leaves = np.zeros(n, dtype=bool)
        for x in self.x:
            leaves[x[0]] = True
        for e in self.e:
            leaves[e[0]] = True
        live = _reaching(q, leaves)
        position = np.full(n, -1, dtype=np.int64)
        position[live] = np.arange(len(live))
        q_live = q[live][:, live]
        to_trap = np.asarray(q[live].sum(axis=1)).ravel() - np.asarray(q_live.sum(axis=1)).ravel()
        eye = sp.identity(len(live), format="csr")
        a = (eye - q_live).tocsr()
        lu = splu(a.tocsc())
        steps = lu.solve(np.ones(len(live)))
        kinds = self.solver.grid.decode(np.array(self.codes, dtype=np.int64)[live])[0]
        start = (kinds == 0).astype(np.float64)
        q_start = sp.diags(start) @ q_live
        lu_z = splu((eye - Z * q_start - (q_live - q_start)).tocsc())
        if not bool((lu_z.solve(np.ones(len(live))) > 0).all()):
            lu_z = None
        xs = [np.concatenate([x[i] for x in self.x]) if self.x else np.zeros(0, dtype=np.int64) for i in range(5)]
        xw = np.concatenate([x[5] for x in self.x]) if self.x else np.zeros(0)
        assert bool(((xs[1] + xs[2]) > 0).all()), "every exit goes to a later block (Omtöckning only rises)"
        keep = position[xs[0]] >= 0
        kinds_x = np.column_stack([xs[1], xs[2], xs[3], xs[4]])[keep]
        uniq, inv = unique_rows(kinds_x)
        exits = sp.csr_matrix((xw[keep], (position[xs[0][keep]], inv.ravel())), shape=(len(live), len(uniq)))
        ep, ei, ew = (np.concatenate([e[i] for e in self.e]) if self.e else np.zeros(0) for i in range(3))
        ep, ei = ep.astype(np.int64), ei.astype(np.int64)
        keep = position[ep] >= 0
        ends = sp.csr_matrix((ew[keep], (position[ep[keep]], ei[keep])), shape=(len(live), len(self.end_kind)))
        end_kinds = sorted(self.end_kind, key=self.end_kind.__getitem__)
        heads = np.flatnonzero(np.any(np.diff(uniq[:, :3], axis=0) != 0, axis=1)) + 1 if len(uniq) else uniq[:0, 0]
        cuts = [0, *heads.tolist(), len(uniq)] if len(uniq) else [0]
        groups = [(int(uniq[lo, 0]), int(uniq[lo, 1]), int(uniq[lo, 2]), lo, hi) for lo, hi in itertools.pairwise(cuts)]
        self.prepared = Prepared(
            live, position, lu, lu_z, a, steps, start, to_trap, q_start.tocsr(), exits,
            uniq[:, 0], uniq[:, 1], uniq[:, 2], uniq[:, 3], groups, ends, end_kinds,
        )  # fmt: skip
        return self.prepared


def _residual(prep: Prepared, rhs: Floats, visits: Floats, widest: int) -> float:
    """What solving ``visits (I − Q) = rhs`` (columns at once) may have got wrong: the residual and its own rounding,
    carried through the expected steps left in the block."""
    res = np.abs(rhs - (prep.a.T @ visits))
    scale = np.abs(rhs) + (abs(prep.a).T @ np.abs(visits))
    return float(prep.steps @ (res + 4 * UNIT_ROUNDOFF * widest * scale).sum(axis=1))


def _same_penalty_up_to(daze: int) -> int:
    """The largest Omtöckning with the penalty of ``daze`` (``rules.daze_penalty`` only falls as it rises)."""
    penalty = R.daze_penalty(daze)
    while R.daze_penalty(daze + 1) == penalty:
        daze += 1
    return daze


def _summed(parent: Rows, col: Rows, w: Floats) -> tuple[Rows, Rows, Floats]:
    """Equal (parent, column) pairs as one, their probabilities summed."""
    if not len(parent):
        return parent, col, w
    keys = np.column_stack([parent, col])
    uniq, inv = unique_rows(keys)
    summed: Floats = np.bincount(inv.ravel(), weights=w, minlength=len(uniq)).astype(np.float64)
    u: Rows = uniq.astype(np.int64)
    return u[:, 0], u[:, 1], summed


def _reaching(q: Any, leaves: np.ndarray[Any, np.dtype[np.bool_]]) -> Rows:
    """The states from which a state in ``leaves`` is reachable along Q (reverse breadth-first)."""
    back = q.T.tocsr()
    seen = leaves.copy()
    frontier = np.flatnonzero(leaves)
    while len(frontier):
        nxt = np.unique(back.indices[np.concatenate([np.arange(back.indptr[i], back.indptr[i + 1]) for i in frontier])])
        nxt = nxt[~seen[nxt]]
        seen[nxt] = True
        frontier = nxt
    return np.flatnonzero(seen)


MOMENT, ZMASS, FRESH = range(3)
"""The config-free passes, one column each: E[rounds played · 1{here}] (the first moment); E[z^rounds · 1{here}]
(the cap's bound); P(here, and no block of a band beyond z's reach on the way) (what such a block counts into the
cap's bound whole, each path once)."""
PASSES = 3
UNTOUCHED = PASSES
"""Without the boxes, one more config-free column per wound box (fighter × box, from here on): P(here, and that box
not ticked on the way) — a box's chance of being ticked at least once is what its column loses."""


@dataclass
class Entering:
    """Mass waiting to enter one block: parts of (configurations, state codes, configurations × states mass),
    and config-free parts of (state codes, states × :data:`PASSES` values)."""

    parts: list[tuple[Rows, Rows, Floats]] = field(default_factory=list)
    free: list[tuple[Rows, Floats]] = field(default_factory=list)


@dataclass(frozen=True)
class Progress:
    """How far a block solve has come, after one more block."""

    daze: tuple[int, int]
    """The block just solved: (Omtöckning a, Omtöckning b)."""
    blocks: int
    bands: int
    states: int
    """Band states met so far."""
    pending: int
    """Blocks with mass waiting to enter them."""
    configs: int
    """Wound-box configurations that entered the block just solved."""
    pruned: float
    mass: float
    """The probability that entered the block just solved (all its configurations)."""


@dataclass
class Blocks:
    """The duel's odds by blocks: probability per outcome label, and how they were found."""

    ends: dict[Hashable, float]
    mean_length: float
    """Rounds played, times the starts' mass (E[length · 1]; the mean where the starts weigh 1): the capped duel's
    (the deadlocked mass at the cap), the rest without the cap (its share bounded in :attr:`error_bound`)."""
    error_bound: float
    """Absolute, on every probability (see the module)."""
    cap_bound: float
    """The part of :attr:`error_bound` that the round cap may change (P(T > rounds left), bounded)."""
    pruned: float
    blocks: int
    states: int
    """Band states met (round starts and strike backs pending, per penalty pair)."""
    deadlocked: float
    boxes: bool = True
    """Whether the labels tell the wound boxes apart (the State's own fate words); without them each fighter's fate
    and exact Omtöckning (:meth:`.model.LevaldModel.without_boxes`), and :attr:`marks` holds the boxes."""
    marks: dict[Hashable, float] = field(default_factory=dict)
    """Without the boxes: each wound box (:meth:`.model.LevaldModel.wound_mark`) → its chance of being ticked at
    least once by the end."""


@dataclass
class Tally:
    """What the blocks add up to while they are solved."""

    ends: dict[Hashable, float] = field(default_factory=dict)
    found: list[tuple[Rows, Floats]] = field(default_factory=list)
    """Ends met, as (Omtöckning a, b, configuration, fate a, fate b) rows and their probabilities."""
    played: int = 0
    rounds: float = 0.0
    deadlocked: float = 0.0
    moment_trapped: float = 0.0
    residual: float = 0.0
    pruned: float = 0.0
    zsum: float = 0.0
    z_lost: float = 0.0
    """The chance of entering a block whose band z passes (``Prepared.lu_z`` is ``None``) at all: a path through
    one is counted into the cap's bound whole, once, and is in neither the z-weighted mass nor this after it."""
    blocks: int = 0
    widest: int = 1
    untouched: Floats = field(default_factory=lambda: np.zeros(2 * BOXES))
    """Without the boxes: per (fighter × box), the mass that ended with that box never ticked on the way."""
    pending_floats: int = 0

    def end(self, daze: tuple[int, int], config: Rows, fates: Rows, p: Floats) -> None:
        """Ends with the configurations ``config`` (fates per row, two columns) at Omtöckning ``daze``."""
        keep = p > 0
        if keep.any():
            n = int(keep.sum())
            rows = np.column_stack([np.full(n, daze[0]), np.full(n, daze[1]), config[keep], fates[keep]])
            self.found.append((rows, p[keep]))
            if not fates[keep].any():
                self.deadlocked += float(p[keep].sum())


class BlockSolver:
    """The block solve of one :class:`~.model.LevaldModel` (kept on it: its bands' tables fill once)."""

    def __init__(self, model: LevaldModel) -> None:
        self.model = model
        self.push: Propagator = propagator(model)
        self.grid = Grid(model)
        self.bands: dict[tuple[int, int], Band] = {}
        self._labels: dict[tuple[int, int, int, int, int, bool], Hashable] = {}
        self.limit: int | None = None
        """The most band states a run may meet (its ``max_states``)."""
        self.boxes = True
        """Whether this run tells the wound boxes apart (:meth:`run`)."""

    def band(self, daze: tuple[int, int]) -> Band:
        key = (R.daze_penalty(daze[0]), R.daze_penalty(daze[1]))
        found = self.bands.get(key)
        if found is None:
            found = self.bands[key] = Band(self, daze)
        return found

    def label(self, daze: tuple[int, int], config: int, fates: tuple[int, int]) -> Hashable:
        key = (daze[0], daze[1], config, *fates, self.boxes)
        found = self._labels.get(key)
        if found is None:
            compact = (0, 0, 0, 0, 0, 0, *daze, *boxes_of(config), *fates)
            found = self.model.at_cap(compact) if fates == (0, 0) else self.model.end(_cleared(compact))
            if not self.boxes:
                found = self.model.without_boxes(found)
            self._labels[key] = found
        return found

    def bit(self, tick: int) -> int:
        """What a tick of box ``tick`` (fighter × box, −1 none) adds to a configuration's code in this run."""
        return tick_bit(tick // BOXES, tick % BOXES) if tick >= 0 and self.boxes else 0

    @property
    def passes(self) -> int:
        """The config-free columns of this run: :data:`PASSES`, and without the boxes one per box."""
        return PASSES if self.boxes else PASSES + 2 * BOXES

    def run(
        self,
        starts: Sequence[tuple[Hashable, float | Fraction]],
        max_states: int | None = None,
        progress: Callable[[Progress], None] | None = None,
        boxes: bool = True,
    ) -> Blocks:
        """The mass of the weighted compact ``starts`` (each at the start of a round) solved block by block;
        ``progress`` is told after every block how far the solve has come (``scripts/levald_blocks.py``).

        ``boxes=False`` does not tell the wound boxes apart: one right-hand side per block, not one per
        configuration of boxes, and each box's chance of being ticked at least once instead (:attr:`Blocks.marks`).
        With the boxes, more than :data:`PENDING_LIMIT` floats of configurations waiting raises
        :class:`TooManyConfigurations`.

        Starts at different rounds played are refused (``ValueError``): the cap's bound and the deadlock's
        length read one count of rounds left (the bridge from a mid-round state meets one round)."""
        m = self.model
        self.limit = max_states
        self.boxes = boxes
        tally = Tally()
        pending: dict[tuple[int, int], Entering] = {}
        heap: list[tuple[int, tuple[int, int]]] = []
        played = {int(tuple(c)[ROUNDS]) for c, _ in starts}  # type: ignore[arg-type]
        if len(played) > 1:
            raise ValueError(f"starts at different rounds played ({sorted(played)}): the block solve takes one")
        tally.played = played.pop() if played else 0
        for c, w in starts:
            compact: Compact = tuple(c)  # type: ignore[arg-type]
            wounds = compact[WOUNDS : WOUNDS + 2 * BOXES]
            untouched = [] if boxes else [0.0 if n else float(w) for n in wounds]
            label = m.end(compact)
            if label is not None:
                if not boxes:  # as an end met in a block: configuration none, the words without the boxes
                    label = self.label((compact[DAZE], compact[DAZE + 1]), 0, (compact[FATE], compact[FATE + 1]))
                    tally.untouched += np.array(untouched)
                tally.ends[label] = tally.ends.get(label, 0.0) + float(w)
                continue
            zero = np.zeros(1, dtype=np.int64)
            code = self.grid.code(zero, zero, zero, np.array([compact], dtype=np.int64))
            config = np.array([config_of(wounds) if boxes else 0], dtype=np.int64)
            entering = self._entering_block(pending, heap, (compact[DAZE], compact[DAZE + 1]))
            entering.parts.append((config, code, np.array([[float(w)]])))
            tally.pending_floats += 1
            entering.free.append((code, np.array([[0.0, float(w), float(w), *untouched]])))
        try:
            self._solve_waiting(pending, heap, tally, progress)
        finally:  # what is left waiting, refused or not, needs none of the LUs
            self._let_go(None)
        self._labelled(tally)
        left = m.cap - tally.played
        cap_bound = min(1.0, tally.zsum * Z ** -(left + 1) + tally.z_lost)
        mass = sum(float(w) for _, w in starts)
        mean = tally.played * mass + tally.rounds + left * tally.deadlocked - tally.moment_trapped
        products = 4 * tally.widest * max(tally.blocks, 1) * UNIT_ROUNDOFF
        bound = tally.residual + products + tally.pruned + cap_bound
        states = sum(len(b.codes) for b in self.bands.values())
        marks = {} if boxes else {m.wound_mark(*divmod(i, BOXES)): mass - u for i, u in enumerate(tally.untouched)}
        return Blocks(
            tally.ends, mean, bound, cap_bound, tally.pruned, tally.blocks, states, tally.deadlocked, boxes, marks
        )

    def _solve_waiting(
        self,
        pending: dict[tuple[int, int], Entering],
        heap: list[tuple[int, tuple[int, int]]],
        tally: Tally,
        progress: Callable[[Progress], None] | None,
    ) -> None:
        """The blocks waiting, in order of their Omtöckning's sum (each exit enters a later one), and the limits."""
        while heap:
            check_time()
            _, daze = heapq.heappop(heap)
            waiting = pending.pop(daze, None)
            if waiting is None:
                continue
            tally.pending_floats -= sum(part.size for _, _, part in waiting.parts)
            self._block(daze, waiting, tally, pending, heap)
            self._let_go(heap[0][0] if heap else None)
            met = sum(len(b.codes) for b in self.bands.values())
            if self.boxes and tally.pending_floats > PENDING_LIMIT:
                raise TooManyConfigurations(tally.pending_floats, met, tally.blocks, len(pending))
            if progress is not None:
                configs = len({int(c) for cfg, _, _ in waiting.parts for c in cfg})
                mass = float(sum(part.sum() for _, _, part in waiting.parts))
                progress(Progress(daze, tally.blocks, len(self.bands), met, len(pending), configs, tally.pruned, mass))
            if self.limit is not None and met > self.limit:
                raise TooManyBandStates(met, self.limit, tally.blocks, len(pending))

    def _let_go(self, next_sum: int | None) -> None:
        """The LUs of the bands no block still waiting is in (every band's where ``next_sum`` is ``None``): the
        tables stay (a later run on this model reuses them and factors again)."""
        for band in self.bands.values():
            if band.prepared is not None and (next_sum is None or band.top < next_sum):
                band.prepared = None

    def _labelled(self, tally: Tally) -> None:
        """The ends met, summed per (Omtöckning, boxes, fates) and labelled by the State's own words."""
        if not tally.found:
            return
        rows = np.concatenate([r for r, _ in tally.found])
        p = np.concatenate([q for _, q in tally.found])
        uniq, inv = unique_rows(rows)
        sums = np.bincount(inv.ravel(), weights=p, minlength=len(uniq))
        for (da, db, config, fa, fb), q in zip(uniq.tolist(), sums.tolist(), strict=True):
            label = self.label((da, db), config, (fa, fb))
            tally.ends[label] = tally.ends.get(label, 0.0) + q

    def _entering_block(
        self, pending: dict[tuple[int, int], Entering], heap: list[tuple[int, tuple[int, int]]], daze: tuple[int, int]
    ) -> Entering:
        found = pending.get(daze)
        if found is None:
            found = pending[daze] = Entering()
            heapq.heappush(heap, (daze[0] + daze[1], daze))
        return found

    def _block(
        self,
        daze: tuple[int, int],
        entering: Entering,
        tally: Tally,
        pending: dict[tuple[int, int], Entering],
        heap: list[tuple[int, tuple[int, int]]],
    ) -> None:
        """Solve one block: the visits of every configuration entering it, its ends, deadlocks and exits."""
        tally.blocks += 1
        band = self.band(daze)
        codes_met = [c for _, c, _ in entering.parts] + [c for c, _ in entering.free]
        band.add(np.concatenate(codes_met), limit=self.limit)
        prep = band.prepare()
        n = len(prep.live)
        configs = np.unique(np.concatenate([c for c, _, _ in entering.parts] or [np.zeros(0, dtype=np.int64)]))
        totals = np.zeros(len(configs))
        for cfg, _, part in entering.parts:
            totals[np.searchsorted(configs, cfg)] += part.sum(axis=1)
        light = totals < PRUNE
        tally.pruned += float(totals[light].sum())
        kept = np.flatnonzero(~light)
        col = np.full(len(configs), -1, dtype=np.int64)
        col[kept] = np.arange(len(kept))
        kept_configs = configs[kept]
        rhs = np.zeros((n, len(kept)))
        no_fates = np.zeros((len(kept), 2), dtype=np.int64)
        trapped = np.zeros(len(kept))
        for cfg, codes, part in entering.parts:
            c = col[np.searchsorted(configs, cfg)]
            pos = prep.position[band.at[codes]]
            use = c >= 0
            live = pos >= 0
            if (~live).any():  # entering a deadlocked state: the deadlock at the cap, this block's boxes
                np.add.at(trapped, c[use], part[use][:, ~live].sum(axis=1))
            rhs[np.ix_(pos[live], c[use])] += part[use][:, live].T
        tally.end(daze, kept_configs, no_fates, trapped)
        total_visits = np.zeros(n)
        if len(kept) and n:
            visits = np.maximum(prep.lu.solve(rhs, trans="T"), 0.0)
            tally.widest = max(tally.widest, n, int(np.diff(prep.exits.indptr).max(initial=1)))
            tally.residual += _residual(prep, rhs, visits, tally.widest)
            total_visits = visits.sum(axis=1)
            tally.rounds += float(prep.start @ total_visits)
            e = (prep.ends.T @ visits).T  # configs × end kinds
            for j, (da, db, tick, fa, fb) in enumerate(prep.end_kinds):
                bit = self.bit(tick)
                fates = np.tile(np.array([fa, fb], dtype=np.int64), (len(kept), 1))
                tally.end((daze[0] + da, daze[1] + db), kept_configs + bit, fates, e[:, j])
            tally.end(daze, kept_configs, no_fates, prep.to_trap @ visits)  # a step into a deadlocked state
            if prep.exits.shape[1]:
                out = np.asarray((prep.exits.T @ visits).T)  # configs × exit kinds
                for da, db, tick, lo, hi in prep.groups:
                    part = out[:, lo:hi]
                    cols = np.flatnonzero(part.any(axis=0))
                    rows = np.flatnonzero(part.any(axis=1))
                    if not len(cols):
                        continue
                    bit = self.bit(tick)
                    target = self._entering_block(pending, heap, (daze[0] + da, daze[1] + db))
                    target.parts.append((kept_configs[rows] + bit, prep.exit_code[lo + cols], part[np.ix_(rows, cols)]))
                    tally.pending_floats += len(rows) * len(cols)
        # config-free: the first moment (rounds played before a deadlock) and the cap's bound (PASSES)
        rhs_free, trapped_free = self._pass(band, prep, entering.free)  # a FRESH path trapped: labelled at the cap
        tally.moment_trapped += float(trapped_free[MOMENT])
        tally.zsum += float(trapped_free[ZMASS])
        if not self.boxes:
            tally.untouched += trapped_free[UNTOUCHED:]  # trapped: no box ticked again
        if not n:
            return
        played_v = prep.start * total_visits
        # the moment, the fresh chance and the untouched boxes solve with the same LU: one call
        columns = np.column_stack([rhs_free[:, MOMENT] + prep.q_start.T @ total_visits, rhs_free[:, FRESH:]])
        solved = prep.lu.solve(columns, trans="T")
        moment, fresh, untouched = solved[:, 0], solved[:, 1], np.maximum(solved[:, 2:], 0.0)
        if not self.boxes:
            self._untouched_ends(prep, rhs_free[:, UNTOUCHED:], untouched, tally)
        tally.moment_trapped += float(prep.to_trap @ (moment + played_v))
        if prep.lu_z is None:  # z at or beyond this band's radius: the chance of coming here counted whole
            tally.z_lost += float(rhs_free[:, FRESH].sum())
            zweight = fresh = np.zeros(n)
        else:
            zweight = prep.lu_z.solve(rhs_free[:, ZMASS], trans="T") * (1 + (Z - 1) * prep.start)
            fresh = np.maximum(fresh, 0.0)
        tally.zsum += float(zweight @ (np.asarray(prep.ends.sum(axis=1)).ravel() + prep.to_trap))
        out_free = np.asarray(prep.exits.T @ np.column_stack([moment + played_v, zweight, fresh, untouched]))
        for da, db, tick, lo, hi in prep.groups:
            cols = lo + np.flatnonzero(out_free[lo:hi].any(axis=1))
            if len(cols):
                target = self._entering_block(pending, heap, (daze[0] + da, daze[1] + db))
                vals = out_free[cols]
                if tick >= 0 and not self.boxes:
                    vals[:, UNTOUCHED + tick] = 0.0  # that box is ticked on the way out
                target.free.append((prep.exit_code[cols], vals))

    def _untouched_ends(self, prep: Prepared, rhs: Floats, untouched: Floats, tally: Tally) -> None:
        """The untouched boxes' mass that ends here (a fate, or a step into a deadlock) without ticking them, and
        their solves' residuals into the bound (as the configurations')."""
        e = np.asarray(prep.ends.T @ untouched)  # end kinds × boxes
        for j, (_, _, tick, _, _) in enumerate(prep.end_kinds):
            row = e[j].copy()
            if tick >= 0:
                row[tick] = 0.0
            tally.untouched += row
        tally.untouched += prep.to_trap @ untouched
        tally.residual += _residual(prep, rhs, untouched, tally.widest)

    def _pass(self, band: Band, prep: Prepared, parts: list[tuple[Rows, Floats]]) -> tuple[Floats, Floats]:
        """The config-free passes' entering vectors over the live states (live × :attr:`passes`), and their parts
        entering deadlocked ones."""
        width = self.passes
        out = np.zeros((len(prep.live), width))
        trapped = np.zeros(width)
        for codes, vals in parts:
            at = prep.position[band.at[codes]]
            ok = at >= 0
            np.add.at(out, at[ok], vals[ok])
            trapped += vals[~ok].sum(axis=0)
        return out, trapped


def block_solver(model: LevaldModel) -> BlockSolver:
    """The model's block solver, kept on it (its bands' tables are filled once)."""
    return kept_on(model, "_block_solver", BlockSolver)
