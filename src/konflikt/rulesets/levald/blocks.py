"""Le våld duel odds block by block of Omtöckning: each reachable state's branches walked once, its visits solved
once, not once a round.

**Why blocks.** Omtöckning (daze) never falls within a duel, and every wound that does not end it raises it
(``rules.daze_gained``: a Skråma 1, a Lätt the dice, ≥ 1, an Allvarlig dice + effect; a Kritisk or Dödlig takes
the fighter out). So the chain without the round clock is acyclic across the blocks of (Omtöckning a, Omtöckning
b), and inside a block no wound is taken: the block's loops run over (distance, initiative holder, why to decide it
afresh, Gard a, Gard b) alone, and a counter-attacker's strike back pending (its target reads the Omtöckning the
first strike left) — a few thousand states.

**One table per pair of penalties.** A round reads Omtöckning only through its penalty (``rules.daze_penalty``: the
targets, the heuristic's comparisons), so a :class:`Band` — one (penalty a, penalty b) pair, up to 6 × 6 blocks —
has one table for all its blocks: from each state, the in-block steps, the exits (a wound: the Omtöckning gained,
the box ticked, the state after) and the ends (a fate). :mod:`.walk` computes it (compiled), from the compact
model's own tables. A band's states are the closure, under its in-block steps, of the states that mass enters
(from earlier bands, and from its own blocks by the wounds that keep both penalties).

**The order of the solve.** Penalties only fall, so the bands are solved one at a time in the order of their
penalties' sum, highest first: everything entering a band is known before it is solved. A band is made (and queued)
only once some wound's mass goes to it. Inside a band the blocks go by their Omtöckning's sum: the blocks of one sum
take no wound from each other, so they are solved side by side (:func:`konflikt.dice.compiled.side_by_side`, one
compiled call per block, the GIL let go), each first gathering the wounds of the band's earlier blocks that keep
both penalties (:func:`.sweeps.gather`). Every exit into later bands is then sent in runs of consecutive slots
(:func:`.sweeps.runs`, :func:`.sweeps.send`), one thread per set of later bands so no two write to one store. While
the kernels run, the main thread walks the tables of queued bands and words the ends met so far (``_meanwhile``);
a band's h(t) is worked out in the background (:func:`konflikt.dice.compiled.in_background`) while its blocks are
solved. Python threads around ``nogil`` kernels rather than numba's ``parallel``: its threading layer is not safe
under the browser table's concurrent calls, and the work splits naturally by block and by target band.

**One block's visits** (:mod:`.sweeps`): v (I − Q) = m by Gauss–Seidel sweeps in the order of Gard (the back steps
are the hits Gard absorbs, rare), the columns at once: the mass; the rounds played (its first moment, for the mean
length of a duel some of whose mass deadlocks: that mass is counted at the cap); and for each fighter's Skråma,
Lätt and Allvarlig the mass that has not ticked that box yet (a box's chance of being ticked at least once is the
mass its column loses; a Kritisk or Dödlig ends the duel, so its chance is read off the ends). The labels are the
winner, the ending and each fighter's fate and exact Omtöckning (the State's words with the wound boxes not told
apart, :meth:`.model.LevaldModel.without_boxes`): the fate words with every box are thousands (2,784 of one fighter
in 2,000,000 kernel duels of the bundled one) and would each need a column.

**Deadlocks.** States from which no exit and no end can be reached (both fighters too dazed to succeed at anything,
and neither leaving) are found by reverse reachability; mass reaching them plays on to the round cap and ends as the
State's deadlock there, with the Omtöckning of its block (:meth:`.model.LevaldModel.at_cap`).

**The round cap, bounded.** The solve is the duel without the cap; a path that ends (or deadlocks) within the rounds
left is the same path under it. The rest — P(a path is still going after the rounds left) — is bounded block by
block: :func:`.sweeps.survival` gives h(t), the largest chance over a band's states of still being in the block after
t more rounds; a block's entering mass has a bound on its time's tail (none for a start: time 0), so the chance of
still being in the block when the rounds run out, and the tail of the time its exits leave, follow by the worst
spread of the entering time that the bound allows (:func:`.sweeps.cap_tails`); each exit's tail is at most its
mass. On the bundled duel (cap 300) the bound is 3.25·10⁻⁴: loose, since the worst spread is assumed at every block
and compounds along a path of blocks (the slowest bands, both fighters too dazed to hit, keep a path ~50 rounds on
average); the mass that deadlocks and so truly meets the cap is 7.6·10⁻⁶.

**Error bound** (absolute, on every probability): each block's residual m − v (I − Q) after the sweeps (every unit
of residual mass would end somewhere exactly once) with its own rounding, the rounding of the tables (γ over the
walk's products and sums, times the visits) and of the exits and ends added up, and the round cap's share above.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from konflikt.core.deadline import check_time
from konflikt.core.thousands import grouped
from konflikt.dice.compiled import in_background, side_by_side, threads
from konflikt.errors import ModelTooLarge
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald import sweeps as S
from konflikt.rulesets.levald.i18n import _
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
from konflikt.rulesets.levald.walk import BandTables, Duel, band_tables, duel_of, walk_band

UNIT_ROUNDOFF = 2.0**-53
TOLERANCE = 1e-13
RELATIVE_TOLERANCE = 1e-10
"""Sweeps stop once the mass that would be sent back for another sweep is at most the larger of ``TOLERANCE`` and
``RELATIVE_TOLERANCE`` times the block's mass (the residual is then measured: the bound sums them over the blocks;
with the roundings ~6·10⁻¹¹ on the bundled duel, all the rest of its bound is the round cap's)."""
MOST_SWEEPS = 10_000
SURVIVAL_EXACT = 32
"""Rounds of a band's h(t) computed exactly once it is below ½; beyond, h(a + b) ≤ h(a) h(b)."""
NEGLIGIBLE = 1e-30
TICKED = 3
"""Wound boxes with a column of their own per fighter: Skråma, Lätt, Allvarlig (a Kritisk or Dödlig ends it)."""
MASS, MOMENT = 0, 1
COLUMNS = 2 + 2 * TICKED
"""The solve's columns: the mass, the rounds played (first moment), and per fighter and ticked box the mass that has
not ticked it."""
assert COLUMNS == S.K

Rows = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]


def untouched_column(tick: int) -> int:
    """The column of the mass that has not ticked box ``tick`` (fighter × 5 + box), −1 for a box without one."""
    fighter, box = divmod(tick, BOXES)
    return 2 + fighter * TICKED + box if tick >= 0 and box < TICKED else -1


class TooManyBandStates(ModelTooLarge):
    """More band states met than asked for: the block solve would not finish in reasonable time."""

    def __init__(self, met: int, limit: int, blocks: int, pending: int) -> None:
        self.met, self.limit, self.blocks, self.pending = met, limit, blocks, pending
        fields = {"met": grouped(met), "limit": grouped(limit)}
        if blocks:
            text = _(
                "{met} band states (round starts and strike backs per pair of daze penalties) met after {blocks} "
                "blocks of daze were solved, with {pending} bands of them still waiting, over {limit}",
                blocks=grouped(blocks),
                pending=grouped(pending),
                **fields,
            )
        else:
            text = _(
                "{met} band states (round starts and strike backs per pair of daze penalties) met before its first "
                "block of daze was solved, over {limit}",
                **fields,
            )
        super().__init__(text)


class Grid:
    """State codes of a band: a round start (kind 0) or a strike back pending (kind 1, who attacked, whether the
    attack succeeded), over (distance, holder, why to decide afresh, Gard a, Gard b)."""

    def __init__(self, model: LevaldModel) -> None:
        self.dists = model.last + 1
        self.gards = tuple(f.gard_max + 1 for f in model.fighters)

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

    def pairs(self, codes: Rows) -> Rows:
        """Each code's Gard pair as one number (Gard a × (Gard b's range) + Gard b): the sweeps' major order."""
        out: Rows = codes % (self.gards[0] * self.gards[1])
        return out


def penalty_range(daze: int) -> tuple[int, int]:
    """The Omtöckning values with the penalty of ``daze`` (``rules.daze_penalty`` only falls as it rises)."""
    penalty = R.daze_penalty(daze)
    low = daze
    while low > 0 and R.daze_penalty(low - 1) == penalty:
        low -= 1
    high = daze
    while R.daze_penalty(high + 1) == penalty:
        high += 1
    return low, high


@dataclass
class Prepared:
    """A band's tables in the sweeps' order, ready for its blocks."""

    position: Rows
    """Band index → position among the live states (solve order), −1 for a deadlocked state."""
    codes: Rows
    """The live states' codes in solve order."""
    g_ptr: Rows
    g_idx: Rows
    g_w: Floats
    """Steps forward (to a later set of the solve order)."""
    i_ptr: Rows
    i_idx: Rows
    i_w: Floats
    """Steps within a state's own set."""
    b_ptr: Rows
    b_idx: Rows
    b_w: Floats
    gt: tuple[Rows, Rows, Floats]
    it: tuple[Rows, Rows, Floats]
    bt: tuple[Rows, Rows, Floats]
    """The steps forward, within a set and back, by target (offsets per target, source, probability): what the
    sweeps gather."""
    bounds: Rows
    inv_off: Rows
    invs: Floats
    start: Floats
    """1.0 at a round start, 0.0 at a strike back pending (a round is played on leaving a round start)."""
    to_dead: Floats
    """Per live state: the probability of a step into a deadlocked state."""
    node_code: Rows
    node_hit: Rows
    node_pos: Rows
    """The wound nodes (one per state after a hit and hit class, sorted by the state): the state's code, the hit
    class, the state's position among the live states (−1 deadlocked, −2 not in the band)."""
    group_ptr: Rows
    """Where each state code's nodes begin."""
    n_ptr: Rows
    n_row: Rows
    n_w: Floats
    """The nodes by source (offsets per node; live state, probability)."""
    w_ptr: Rows
    w_kind: Rows
    w_w: Floats
    """Per hit class (offsets): its wounds' kinds and probabilities."""
    kinds: Rows
    """Wound kinds: (Omtöckning a gained, b gained, box ticked)."""
    kind_zero: Rows
    """Per wound kind: the column its tick zeroes (:func:`untouched_column`), −1 none."""
    wound_weights: Floats
    """Hit class × wound kind: the probability of that wound given a hit of that class (``w_*`` dense)."""
    stays: Any
    """Per hit class: whether one of its wounds can keep both penalties."""
    e_ptr: Rows
    e_col: Rows
    e_w: Floats
    end_kinds: Rows
    """Ends, by live state; end kinds: (Omtöckning a gained, b gained, box ticked or −1, fate a, fate b)."""
    survival: Future[Floats]
    """h(t) for t = 0 … the rounds left (:func:`.sweeps.survival`), worked out while the blocks are solved."""
    widest: int
    """The most terms summed into one exit or end (their rounding)."""
    most_in: int
    """The most steps into one state (the residual's rounding)."""


class Band:
    """One (penalty a, penalty b) pair: its states, their walked rounds, the mass waiting to enter its blocks, and
    its prepared tables."""

    def __init__(self, solver: BlockSolver, daze: tuple[int, int], left: int) -> None:
        self.solver = solver
        self.daze = daze
        """The Omtöckning the band's rounds are walked at (any of the band: only the penalties are read)."""
        self.low = tuple(penalty_range(d)[0] for d in daze)
        self.width = tuple(penalty_range(d)[1] - penalty_range(d)[0] + 1 for d in daze)
        """Each fighter's Omtöckning values in the band: from ``low``, ``width`` of them."""
        self.slots = self.width[0] * self.width[1]
        """The band's blocks: slot (a − lowest a) × width b + (b − lowest b)."""
        self.store = np.zeros((16, self.slots, COLUMNS))
        """The mass waiting to enter each block: row (the band index of a state) × slot × column (a state's slots side
        by side: the wounds from one state into one band land close together)."""
        self.tails = np.zeros((self.slots, left + 1))
        """Per block, the bound on its entering time's tail (P(entered after t rounds), t = 0 … rounds left)."""
        self._tables: BandTables | None = None
        self._class_stays: Any = None
        self.at = np.full(solver.duel.grid, -1, dtype=np.int64)
        """State code → band index (−1: not met)."""
        self.codes = np.zeros(0, dtype=np.int64)
        self.offsets: list[Rows] = []
        self.keys: list[Rows] = []
        self.weights: list[Floats] = []
        self.walked = 0
        self.merged = 1
        """The most leaves summed into one of a state's outcomes (the tables' rounding)."""

    @property
    def tables(self) -> BandTables:
        """The band's tables (:func:`.walk.band_tables`), made when first needed (or while other bands' blocks are
        solved, :meth:`BlockSolver._meanwhile`)."""
        if self._tables is None:
            self._tables = band_tables(self.solver.model, self.solver.duel, self.daze, self.solver.memo)
            off, wound_kinds, _ = self._tables.wounds
            fits = (wound_kinds[:, 0] < self.width[0]) & (wound_kinds[:, 1] < self.width[1])
            self._class_stays = np.logical_or.reduceat(np.append(fits, False), off[:-1]) & (off[1:] > off[:-1])
        return self._tables

    @property
    def class_stays(self) -> Any:
        """Per hit class: whether one of its wounds can keep both penalties (land in a later block of this band)."""
        self.tables  # noqa: B018 (made with the tables)
        return self._class_stays

    def close(self, codes: Rows, limit: int | None = None) -> None:
        """Add ``codes`` and every state they reach within the band: by in-block steps, and by the wounds that can
        keep both penalties (from the band's lowest Omtöckning)."""
        grid = self.solver.duel.grid
        self._met(codes)
        while self.walked < len(self.codes):
            check_time()
            batch = self.codes[self.walked :]
            self.walked = len(self.codes)
            offsets, keys, weights, merged = walk_band(self.solver.duel, self.tables, batch)
            self.merged = max(self.merged, merged)
            self.offsets.append(offsets)
            self.keys.append(keys)
            self.weights.append(weights)
            self._met(S.staying(keys, grid, self.width[0], self.width[1], self.class_stays))
            if limit is not None and self.solver.states() > limit:
                raise TooManyBandStates(self.solver.states(), limit, 0, 0)

    def _met(self, codes: Rows) -> None:
        new = np.unique(codes[self.at[codes] < 0])
        self.at[new] = np.arange(len(self.codes), len(self.codes) + len(new))
        self.codes = np.concatenate([self.codes, new])

    def slot(self, daze: tuple[int, int]) -> int:
        return (daze[0] - self.low[0]) * self.width[1] + (daze[1] - self.low[1])

    def reserve(self, codes: Rows) -> None:
        """Rows in the store for mass entering at ``codes``."""
        self._met(codes)
        if len(self.codes) > self.store.shape[0]:
            grown = np.zeros((max(len(self.codes), 2 * self.store.shape[0]), self.slots, COLUMNS))
            grown[: self.store.shape[0]] = self.store
            self.store = grown

    def prepare(self, rounds: int) -> Prepared:
        """The band's tables over its states, the deadlocked ones found, in the sweeps' order; h(t) to ``rounds``."""
        grid = self.solver.duel.grid
        n = len(self.codes)
        shifts = np.cumsum([0] + [len(k) for k in self.keys[:-1]])
        ptr = np.concatenate([[0]] + [o[1:] + s for o, s in zip(self.offsets, shifts, strict=True)]).astype(np.int64)
        keys = np.concatenate(self.keys)
        weights = np.concatenate(self.weights)
        q_ptr, q_idx, q_w, leaves, x_src, x_hit, x_code, x_w, e_src, e_key, e_w = S.classify(
            ptr, keys, weights, grid, self.at
        )
        assert bool((q_idx >= 0).all()), "a band is closed under its in-block steps"
        live = S.live_states(n, q_ptr, q_idx, leaves)
        order, bounds = S.scc_order(n, self.solver.grid.pairs(self.codes), q_ptr, q_idx, live)
        g_ptr, g_idx, g_w, i_ptr, i_idx, i_w, b_ptr, b_idx, b_w, to_dead, inv_off, invs = S.split(
            n, q_ptr, q_idx, q_w, order, bounds
        )
        position = np.full(n, -1, dtype=np.int64)
        position[order] = np.arange(len(order))
        kind, *_ = self.solver.grid.decode(self.codes[order])
        start = (kind == 0).astype(np.float64)
        w_ptr, wound_kinds, w_w = self.tables.wounds
        node_code, node_hit, node_pos, group_ptr, n_ptr, n_row, n_w = S.node_tables(
            position, x_src, x_hit, x_code, x_w, self.at, len(w_ptr) - 1
        )
        kind_keys, w_kind = np.unique((wound_kinds[:, 0] * 256 + wound_kinds[:, 1]) * 16 + wound_kinds[:, 2] + 1,
                                      return_inverse=True)  # fmt: skip
        kinds = np.column_stack([(kind_keys // 16) >> 8, (kind_keys // 16) & 255, kind_keys % 16 - 1]).astype(np.int64)
        w_kind = w_kind.ravel().astype(np.int64)
        weights_by_class = np.zeros((len(w_ptr) - 1, len(kinds)))
        np.add.at(weights_by_class, (np.repeat(np.arange(len(w_ptr) - 1), np.diff(w_ptr)), w_kind), w_w)
        end_keys, e_ptr, e_col, e_w2 = S.end_tables(position, e_src, e_key, e_w, len(order))
        end_kinds = np.column_stack(
            [
                (end_keys >> 8) & 255,
                end_keys & 255,
                ((end_keys >> 16) & 15) - 1,
                (end_keys >> 22) & 3,
                (end_keys >> 20) & 3,
            ]
        ).astype(np.int64)
        survival = in_background(
            lambda: S.survival(
                g_ptr, g_idx, g_w, i_ptr, i_idx, i_w, b_ptr, b_idx, b_w, start, rounds, SURVIVAL_EXACT, NEGLIGIBLE
            )
        )
        widest = int(max(np.diff(n_ptr).max(initial=1), np.diff(w_ptr).max(initial=1), len(order)))
        most_in = int(np.bincount(np.concatenate([g_idx, i_idx, b_idx]), minlength=1).max(initial=0))
        live_n = len(order)
        gt, it, bt = (S.transposed(ptr, idx, w, live_n) for ptr, idx, w in ((g_ptr, g_idx, g_w), (i_ptr, i_idx, i_w),
                                                                            (b_ptr, b_idx, b_w)))  # fmt: skip
        return Prepared(
            position, self.codes[order], g_ptr, g_idx, g_w, i_ptr, i_idx, i_w, b_ptr, b_idx, b_w, gt, it, bt, bounds,
            inv_off, invs, start, to_dead, node_code, node_hit, node_pos, group_ptr, n_ptr, n_row, n_w, w_ptr,
            w_kind, w_w, kinds, np.array([untouched_column(int(t)) for t in kinds[:, 2]], dtype=np.int64),
            weights_by_class, self.class_stays, e_ptr, e_col, e_w2, end_kinds, survival, widest, most_in,
        )  # fmt: skip


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
    """Bands with mass waiting to enter them."""
    mass: float
    """The probability that entered the block just solved."""


@dataclass
class Blocks:
    """The duel's odds by blocks: probability per outcome label, and how they were found."""

    ends: dict[Hashable, float]
    mean_length: float
    """Rounds played, times the starts' mass (E[length · 1]; the mean where the starts weigh 1): the capped duel's
    (the deadlocked mass at the cap), the rest without the cap (its share bounded in :attr:`error_bound`)."""
    error_bound: float
    """Absolute, on every probability and mark (see the module)."""
    cap_bound: float
    """The part of :attr:`error_bound` that the round cap may change (P(a path still going at the cap), bounded)."""
    blocks: int
    states: int
    """Band states met (round starts and strike backs pending, per penalty pair)."""
    deadlocked: float
    marks: dict[Hashable, float] = field(default_factory=dict)
    """Each wound box (:meth:`.model.LevaldModel.wound_mark`) → its chance of being ticked at least once by the end."""
    sweeps: int = 0
    """Sweeps made over all blocks."""


@dataclass
class Tally:
    """What the blocks add up to while they are solved."""

    found: list[tuple[Rows, Floats]] = field(default_factory=list)
    """Ends met, as (Omtöckning a, b, fate a, fate b) rows and their probabilities (fates 0, 0: a deadlock)."""
    played: int = 0
    rounds: float = 0.0
    deadlocked: float = 0.0
    moment_dead: float = 0.0
    residual: float = 0.0
    rounding: float = 0.0
    cap: float = 0.0
    blocks: int = 0
    blocks_told: int = 0
    """Blocks the progress reports have told of (in solve order)."""
    sweeps: int = 0
    untouched: Floats = field(default_factory=lambda: np.zeros(COLUMNS))
    """Per column, the mass that ended (or deadlocked) with it: for a box's column, the mass that never ticked it."""
    terminal: Floats = field(default_factory=lambda: np.zeros(2 * BOXES))
    """Per (fighter × box), the mass that ended by ticking a Kritisk or Dödlig."""

    def ends(self, daze_a: Rows, daze_b: Rows, fates: Rows, values: Floats) -> None:
        """Mass (rows of columns) ending at Omtöckning (``daze_a``, ``daze_b``) with ``fates`` (fate a, fate b per
        row; 0, 0: deadlocked)."""
        some = values[:, MASS] > 0
        if not some.any():
            return
        rows = np.column_stack([daze_a[some], daze_b[some], fates[some, 0], fates[some, 1]])
        self.found.append((rows.astype(np.int64), values[some, MASS].copy()))
        self.untouched += values[some].sum(axis=0)

    def end(self, daze: tuple[int, int], fates: tuple[int, int], values: Floats) -> None:
        """Mass (a row of columns) ending at Omtöckning ``daze`` with ``fates`` (0, 0: deadlocked at the cap)."""
        if fates == (0, 0) and values[MASS] > 0:
            self.deadlocked += float(values[MASS])
            self.moment_dead += float(values[MOMENT])
        self.ends(np.array([daze[0]]), np.array([daze[1]]), np.array([fates]), values[None, :])


class BlockSolver:
    """The block solve of one :class:`~.model.LevaldModel` (kept on it)."""

    def __init__(self, model: LevaldModel) -> None:
        self.model = model
        self.grid = Grid(model)
        self.duel: Duel = duel_of(model)
        self.memo: dict[Hashable, Any] = {}
        """The model's tables as the bands' walks read them (:func:`.walk.band_tables`), kept across runs."""
        self.bands: dict[tuple[int, int], Band] = {}
        self._labels: dict[tuple[int, int, int, int], Hashable] = {}
        self.limit: int | None = None
        """The most band states a run may meet (its ``max_states``)."""
        self.left = 0
        """The rounds left to the cap in this run."""
        self.queue: list[tuple[int, tuple[int, int]]] = []
        """The bands mass waits to enter and not yet solved, by the sum of their penalties (highest first)."""
        self.queued: set[tuple[int, int]] = set()
        self.untabled: list[Band] = []
        """Queued bands whose tables may not be made yet (:meth:`_meanwhile`)."""
        self.kept: list[tuple[Band, Prepared, list[int]]] | None = None
        """Where a run is asked to keep them (a list, not ``None``): each solved band, its prepared tables and its
        solved slots in solve order, with the band's index of state codes (:mod:`.values` runs the solve backward over
        them)."""
        self.tally = Tally()
        self.worded = 0
        """Entries of the tally's ends whose words are known (:meth:`_meanwhile`)."""

    def states(self) -> int:
        return sum(len(b.codes) for b in self.bands.values())

    def band(self, daze: tuple[int, int]) -> Band:
        """The band of ``daze``, made when first met (:meth:`enter` queues it)."""
        key = (R.daze_penalty(daze[0]), R.daze_penalty(daze[1]))
        found = self.bands.get(key)
        if found is None:
            found = self.bands[key] = Band(self, daze, self.left)
        return found

    def enter(self, band: Band) -> None:
        """Mass waits to enter ``band``: queued to be solved (highest penalties first), once."""
        key = (R.daze_penalty(band.daze[0]), R.daze_penalty(band.daze[1]))
        if key not in self.queued:
            self.queued.add(key)
            heapq.heappush(self.queue, (-(key[0] + key[1]), key))
            self.untabled.append(band)

    def _meanwhile(self) -> bool:
        """Python work the answer needs, done while the kernels of a band run: one queued band's tables made, or
        the words of some ends met so far; False when none is left."""
        while self.untabled:
            band = self.untabled.pop()
            if band._tables is None:
                band.tables  # noqa: B018 (made on first reading)
                return True
        found = self.tally.found
        if self.worded < len(found):
            rows, _ = found[self.worded]
            self.worded += 1
            for da, db, fa, fb in np.unique(rows, axis=0).tolist():
                self.label((da, db), (fa, fb))
            return True
        return False

    def label(self, daze: tuple[int, int], fates: tuple[int, int]) -> Hashable:
        """The State's words for an end at Omtöckning ``daze`` with ``fates`` (0, 0: the deadlock at the cap), the
        wound boxes not told apart."""
        key = (daze[0], daze[1], *fates)
        found = self._labels.get(key)
        if found is None:
            compact = (0, 0, 0, 0, 0, 0, *daze, *([0] * 2 * BOXES), *fates)
            found = self.model.at_cap(compact) if fates == (0, 0) else self.model.end(_cleared(compact))
            found = self._labels[key] = self.model.without_boxes(found)
        return found

    def run(
        self,
        starts: Sequence[tuple[Hashable, float | Fraction]],
        max_states: int | None = None,
        progress: Callable[[Progress], None] | None = None,
    ) -> Blocks:
        """The mass of the weighted compact ``starts`` (each at the start of a round) solved band by band, block by
        block; ``progress`` is told after every block how far the solve has come (``scripts/levald_blocks.py``).

        Starts at different rounds played are refused (``ValueError``): the cap's bound and the deadlock's length
        read one count of rounds left (the bridge from a mid-round state meets one round)."""
        m = self.model
        self.limit = max_states
        tally = self.tally = Tally()
        self.worded = 0
        played = {int(tuple(c)[ROUNDS]) for c, _ in starts}  # type: ignore[arg-type]
        if len(played) > 1:
            raise ValueError(f"starts at different rounds played ({sorted(played)}): the block solve takes one")
        tally.played = played.pop() if played else 0
        left = self.left = m.cap - tally.played
        self.bands, self.queue, self.queued, self.untabled = {}, [], set(), []
        mass = 0.0
        before = np.zeros(2 * BOXES)
        """Per (fighter × box): the starts' mass with that box already ticked."""
        for c, w in starts:
            compact: Compact = tuple(c)  # type: ignore[arg-type]
            weight = float(w)
            mass += weight
            wounds = compact[WOUNDS : WOUNDS + 2 * BOXES]
            before += weight * (np.array(wounds) > 0)
            values = np.zeros(COLUMNS)
            values[MASS] = weight
            for tick in range(2 * BOXES):
                column = untouched_column(tick)
                if column >= 0 and not wounds[tick]:
                    values[column] = weight
            daze = (compact[DAZE], compact[DAZE + 1])
            if m.end(compact) is not None:
                tally.end(daze, (compact[FATE], compact[FATE + 1]), values)
                continue
            zero = np.zeros(1, dtype=np.int64)
            code = self.grid.code(zero, zero, zero, np.array([compact], dtype=np.int64))
            band = self.band(daze)
            band.reserve(code)
            band.store[band.at[code[0]], band.slot(daze)] += values
            self.enter(band)
        while self.queue:
            check_time()
            _, key = heapq.heappop(self.queue)
            self._band(self.bands[key], tally, left, progress)
        return self._answer(tally, mass, left, before)

    def _band(self, band: Band, tally: Tally, left: int, progress: Callable[[Progress], None] | None) -> None:
        """Solve every block of one band: its entering mass gathered, its in-band wounds followed, its exits into
        later bands and its ends tallied."""
        stored = len(band.codes)
        if not stored or not band.store[:stored, :, MASS].any():  # made as a target, but nothing came
            self._let_go(band)
            return
        try:
            band.close(band.codes.copy(), self.limit)
        except TooManyBandStates as refused:  # told with how far the solve came
            raise TooManyBandStates(refused.met, refused.limit, tally.blocks, len(self.queue) + 1) from None
        prep = band.prepare(left)
        wa, wb = band.width
        slots = band.slots
        n = len(prep.codes)
        entering = np.zeros((slots, n, COLUMNS))
        dead = np.zeros((slots, COLUMNS))
        S.scatter(entering, dead, prep.position[:stored], band.store[:stored])
        band.store = np.zeros((0, 0, COLUMNS))
        offset_a = np.repeat(np.arange(wa), wb)
        offset_b = np.tile(np.arange(wb), wa)
        order = np.argsort(offset_a + offset_b, kind="stable").astype(np.int64)
        visits = np.zeros((slots, n, COLUMNS))
        sweeps = np.zeros(slots, dtype=np.int64)
        res, mag = np.zeros((slots, COLUMNS)), np.zeros((slots, COLUMNS))
        classes = len(prep.w_ptr) - 1
        masses = np.zeros((len(prep.n_ptr) - 1, slots, COLUMNS))
        wounded = np.zeros((slots, classes))
        by_end = np.zeros((slots, len(prep.end_kinds), COLUMNS))
        played = np.zeros((slots, S.PLAYED))
        in_band = _in_band(prep, wa, wb)

        def solve(slot: int) -> Callable[[], None]:
            return lambda: S.solve_block(
                slot, entering, dead, visits, sweeps, res, mag, masses, wounded, by_end, played, wb, prep.node_hit,
                prep.node_pos, *in_band, *prep.gt, *prep.it, *prep.bt,
                prep.bounds, prep.inv_off, prep.invs, prep.start, prep.n_ptr, prep.n_row, prep.n_w, prep.e_ptr,
                prep.e_col, prep.e_w, prep.to_dead, TOLERANCE, RELATIVE_TOLERANCE, MOST_SWEEPS,
            )  # fmt: skip

        # the blocks of one Omtöckning sum take no wound from each other: solved side by side, each first gathering
        # the wounds of the earlier blocks that keep both penalties
        sums = offset_a + offset_b
        entered = entering[:, :, MASS].any(axis=1) | (dead[:, MASS] > 0)
        steps = {(int(da), int(db)) for da, db in zip(in_band[1].tolist(), in_band[2].tolist(), strict=True)}
        for diagonal in range(int(sums.max()) + 1):
            check_time()
            here = [
                slot
                for slot in np.flatnonzero(sums == diagonal).tolist()
                if entered[slot]
                or any(
                    oa >= da and ob >= db and played[(oa - da) * wb + ob - db, 1] > 0
                    for oa, ob in [divmod(slot, wb)]
                    for da, db in steps
                )
            ]
            side_by_side([solve(slot) for slot in here], self._meanwhile)
        # the wounds into later bands: routed by (wound kind, slot) to a later band's slot
        # every wound of a block leaves it, into a later block of the band or a later band: by kind, its class's mass
        by_exit = wounded @ prep.wound_weights
        route, targets = self._routes(band, prep.kinds, by_exit.T > 0)
        if targets:
            class_of_entry = np.repeat(np.arange(classes), np.diff(prep.w_ptr))
            for t, target in enumerate(targets):
                kinds_here = ((route >= 0) & (route // 64 == t)).any(axis=1)
                reached = np.zeros(classes, dtype=bool)
                reached[class_of_entry[kinds_here[prep.w_kind]]] = True
                target.reserve(prep.node_code[reached[prep.node_hit]])
            # each thread sends into its own later bands (up to TARGETS a call), so none writes where another does
            run_tables = S.runs(route)
            live = masses[:, :, MASS].any(axis=1)

            def send(lo: int, hi: int) -> Callable[[], None]:
                chunk = targets[lo:hi]
                pad = S.TARGETS - len(chunk)
                stores = tuple(t.store for t in chunk) + (_NO_STORE,) * pad
                rows = tuple(t.at for t in chunk) + (_NO_ROWS,) * pad
                return lambda: S.send(
                    masses, live, prep.node_code, prep.node_hit, prep.w_ptr, prep.w_kind, prep.w_w, *run_tables,
                    prep.kind_zero, lo, len(chunk), stores, rows,
                )  # fmt: skip

            size = min(S.TARGETS, -(-len(targets) // threads()))
            side_by_side(
                [send(lo, min(lo + size, len(targets))) for lo in range(0, len(targets), size)], self._meanwhile
            )
        for target in targets:
            self.enter(target)
        totals = entering[:, :, MASS].sum(axis=1) + dead[:, MASS]
        solved = [slot for slot in order.tolist() if totals[slot] > 0]
        if self.kept is not None:
            self.kept.append((band, prep, solved))
        self._account(band, prep, tally, solved, totals, sweeps, res, mag, dead, by_end, played)
        # the round cap: the tail of the time the mass spends, through each block in order, and on through its exits
        alive, tail_out = S.cap_tails(
            np.array(solved, dtype=np.int64), totals, band.tails, prep.survival.result(), by_exit,
            prep.kinds[:, 0].copy(), prep.kinds[:, 1].copy(), wa, wb,
        )  # fmt: skip
        tally.cap += float(alive.sum())
        kind, slot_from = np.nonzero((route >= 0) & (by_exit.T > 0))
        bound = np.minimum(by_exit[slot_from, kind][:, None], tail_out[slot_from])
        to = route[kind, slot_from]
        for t in np.unique(to // 64).tolist():
            there = to // 64 == t
            np.add.at(targets[t].tails, to[there] % 64, bound[there])
        if progress is not None:
            for slot in solved:
                tally.blocks_told += 1
                daze = (band.low[0] + slot // wb, band.low[1] + slot % wb)
                progress(Progress(daze, tally.blocks_told, len(self.bands), self.states(), len(self.queue),
                                  float(totals[slot])))  # fmt: skip
        self._let_go(band)

    def _routes(self, band: Band, kinds: Rows, wounded: Any) -> tuple[Rows, list[Band]]:
        """Where each wound kind from each slot goes when it leaves the band (``wounded[kind, slot]``: some mass
        takes it): ``route[kind, slot]`` = the later band's index among the returned ones × 64 + its slot there (−1:
        a later block of this band, or no mass); the later bands, made as first met."""
        wa, wb = band.width
        oa, ob = np.divmod(np.arange(band.slots), wb)
        ta, tb = oa[None, :] + kinds[:, 0, None], ob[None, :] + kinds[:, 1, None]
        leaves = ((ta >= wa) | (tb >= wb)) & wounded
        a, b = band.low[0] + ta[leaves], band.low[1] + tb[leaves]
        dazes = np.unique(np.concatenate([a, b]))
        penalty = dict(zip(dazes.tolist(), (R.daze_penalty(d) for d in dazes.tolist()), strict=True))
        pair = np.array([penalty[x] for x in a.tolist()]) * 1_000_000 + np.array([penalty[x] for x in b.tolist()])
        _, first, which = np.unique(pair, return_index=True, return_inverse=True)
        targets = [self.band((int(a[i]), int(b[i]))) for i in first.tolist()]
        low_a = np.array([t.low[0] for t in targets], dtype=np.int64)
        low_b = np.array([t.low[1] for t in targets], dtype=np.int64)
        width_b = np.array([t.width[1] for t in targets], dtype=np.int64)
        which = which.ravel()
        route = np.full(leaves.shape, -1, dtype=np.int64)
        route[leaves] = which * 64 + (a - low_a[which]) * width_b[which] + (b - low_b[which])
        return route, targets

    def _account(
        self, band: Band, prep: Prepared, tally: Tally, solved: list[int], totals: Floats, sweeps: Rows,
        res: Floats, mag: Floats, dead: Floats, by_end: Floats, played: Floats,
    ) -> None:  # fmt: skip
        """The solved blocks' ends, deadlocks, rounds and error terms, into the tally (a slot not solved has
        nothing in any of them)."""
        tally.blocks += len(solved)
        tally.sweeps += int(sweeps.sum())
        residual = np.maximum(res[:, MASS], res[:, 2:].max(axis=1, initial=0.0))
        tally.residual += float(residual.sum()) + _gamma(int(prep.most_in) + 3) * float(mag.max(axis=1).sum())
        tally.rounding += _gamma(band.merged + 64) * float(played[:, 1].sum()) + _gamma(prep.widest) * float(
            totals[solved].sum()
        )
        tally.rounds += float(played[:, 0].sum())
        oa, ob = np.divmod(np.arange(band.slots), band.width[1])
        daze_a, daze_b = band.low[0] + oa, band.low[1] + ob
        # deadlocks: mass entering a deadlocked state, or stepping into one
        deadlocks = dead + played[:, 2:]
        tally.ends(daze_a, daze_b, np.zeros((band.slots, 2), dtype=np.int64), deadlocks)
        tally.deadlocked += float(deadlocks[:, MASS].sum())
        tally.moment_dead += float(deadlocks[:, MOMENT].sum())
        # ends: a ticked box's column zeroed (the mass no longer has it untouched); Kritisk and Dödlig counted apart
        end_zero = np.array([untouched_column(int(t)) for t in prep.end_kinds[:, 2]], dtype=np.int64)
        zeroing = np.flatnonzero(end_zero >= 0)
        by_end[:, zeroing, end_zero[zeroing]] = 0.0
        terminal = np.flatnonzero((prep.end_kinds[:, 2] >= 0) & (end_zero < 0))
        np.add.at(tally.terminal, prep.end_kinds[terminal, 2], by_end[:, terminal, MASS].sum(axis=0))
        kinds = len(prep.end_kinds)
        tally.ends(
            np.repeat(daze_a, kinds) + np.tile(prep.end_kinds[:, 0], band.slots),
            np.repeat(daze_b, kinds) + np.tile(prep.end_kinds[:, 1], band.slots),
            np.tile(prep.end_kinds[:, 3:5], (band.slots, 1)),
            by_end.reshape(-1, COLUMNS),
        )

    def _let_go(self, band: Band) -> None:
        """A solved band's walks, index and store (no later band enters it: penalties only fall)."""
        band.offsets, band.keys, band.weights = [], [], []
        if self.kept is None:
            band.at = np.zeros(0, dtype=np.int64)
        band.tails = np.zeros((0, 0))

    def _answer(self, tally: Tally, mass: float, left: int, before: Floats) -> Blocks:
        ends: dict[Hashable, float] = {}
        if tally.found:
            rows = np.concatenate([r for r, _ in tally.found])
            p = np.concatenate([q for _, q in tally.found])
            uniq, inv = np.unique(rows, axis=0, return_inverse=True)
            sums = np.bincount(inv.ravel(), weights=p, minlength=len(uniq))
            for (da, db, fa, fb), q in zip(uniq.tolist(), sums.tolist(), strict=True):
                label = self.label((da, db), (fa, fb))
                ends[label] = ends.get(label, 0.0) + q
        marks: dict[Hashable, float] = {}
        for tick in range(2 * BOXES):
            column = untouched_column(tick)
            ticked = mass - tally.untouched[column] if column >= 0 else before[tick] + tally.terminal[tick]
            marks[self.model.wound_mark(*divmod(tick, BOXES))] = max(0.0, ticked)
        mean = tally.played * mass + tally.rounds + left * tally.deadlocked - tally.moment_dead
        cap = min(1.0, tally.cap)
        bound = tally.residual + tally.rounding + cap
        return Blocks(ends, mean, bound, cap, tally.blocks, self.states(), tally.deadlocked, marks, tally.sweeps)


def _in_band(prep: Prepared, wa: int, wb: int) -> tuple[Rows, Rows, Rows, Floats, Rows]:
    """Per hit class (offsets), its wound kinds that can keep both penalties in a band ``wa`` × ``wb`` blocks wide:
    the Omtöckning each gains, its probability and the column it zeroes (what :func:`.sweeps.gather` reads)."""
    class_of_entry = np.repeat(np.arange(len(prep.w_ptr) - 1), np.diff(prep.w_ptr))
    da, db = prep.kinds[prep.w_kind, 0], prep.kinds[prep.w_kind, 1]
    stays = (da < wa) & (db < wb)
    ptr = np.zeros(len(prep.w_ptr), dtype=np.int64)
    ptr[1:] = np.cumsum(np.bincount(class_of_entry[stays], minlength=len(prep.w_ptr) - 1))
    return ptr, da[stays].copy(), db[stays].copy(), prep.w_w[stays].copy(), prep.kind_zero[prep.w_kind[stays]].copy()


_NO_STORE = np.zeros((1, 1, COLUMNS))
_NO_ROWS = np.zeros(1, dtype=np.int64)
"""What pads :func:`.sweeps.send`'s tuples of later bands (never written: no route leads there)."""


def _gamma(n: int) -> float:
    """γ_n = n u / (1 − n u): the relative error of n roundings."""
    return n * UNIT_ROUNDOFF / (1 - n * UNIT_ROUNDOFF)


def block_solver(model: LevaldModel) -> BlockSolver:
    """The model's block solver, kept on it (the model's tables the bands read are filled once)."""
    found: BlockSolver | None = getattr(model, "_block_solver", None)
    if found is None:
        found = BlockSolver(model)
        model._block_solver = found  # type: ignore[attr-defined]
    return found
