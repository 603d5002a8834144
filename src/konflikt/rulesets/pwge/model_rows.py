"""The vectorised kernel's conflict rows as weighted branches, for pwge's exact model (:mod:`.model`).

Every row of :class:`~.kernel_flow.Conflicts` is a branch with an exact weight (numerator / 6^power). A roll splits a
row into every outcome of the dice (2T's eleven totals, 1T's six faces) instead of drawing one; before each split the
rows in the same situation merge, the fields of a finished contest or skadeslag cleared first.

**A contest and a skadeslag are played apart, once per situation** (:class:`Stage`). Between its entry
(``begin_contest``: the 2T rolls still to make; ``contest_done`` setting up the skadeslag) and its exit
(``contest_done(res)``; ``apply_damage``) a stage reads only its own fields, the pools, experience dice, body points
and out-flags of the people, and the dry sides; the rest of the row (the exchange, the distance, the points, the
floor) rides along unread. So the first row in each situation is copied into rows of its own and played through the
stage by the kernel's own handlers, every roll and topping split as above, and what it leaves at the exit — who won
the contest, what the topping cost each, the damage roll that stands — is kept per situation with its weight. Every
later row in that situation (the same duel meets it from thousands of open floors) is split at once into those
outcomes and handed to the exit, the kernel's own ``contest_done`` or ``apply_damage``, as the kernel would have.
:class:`Branches` with ``memo=None`` plays every stage in place instead (the path the memo is tested equal to).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from konflikt.rulesets.pwge.kernel_flow import Conflicts, Phase, at

TWO_D6: tuple[tuple[int, int], ...] = tuple((s, 6 - abs(s - 7)) for s in range(2, 13))
"""2T: each total with its count of the 36 faces."""
ONE_D6: tuple[tuple[int, int], ...] = tuple((f, 1) for f in range(1, 7))
"""1T: each face once of 6."""
CONTEST_PHASES = (Phase.CROLL, Phase.CCHECK, Phase.CASK)
DAMAGE_PHASES = (Phase.DROLL, Phase.DAUTO, Phase.DATT, Phase.DDEF, Phase.DCCT)
CONTEST_FIELDS = ("c_order", "c_a", "c_b", "c_mod", "c_roll", "c_rolled", "c_tops", "c_dec", "c_ask")
"""Read only while a contest runs (``begin_contest`` sets them afresh): cleared outside one so that rows merge."""
DAMAGE_FIELDS = ("d_att", "d_def", "d_mod", "d_arm", "d_roll", "d_stage", "d_tops", "d_ctops")
"""Read only while a skadeslag runs (``contest_done`` sets them afresh)."""
WEIGHT_FIELDS = ("num", "pow6", "origin", "forced", "ids", "steps")
"""Not part of a row's situation: its weight (num / 6^pow6), which open floor it came from, the roll it is to
make, and the kernel's conflict number and step count (the length here is in actions)."""
PURSES = ("tok", "xp", "out", "dry_rank", "dry_groups", "together")
"""What a stage reads of the people and sides besides its own fields: who can still spend, what the heuristic counts
as its purse, and when each side ran dry (a spend that empties a pool is noted, :meth:`Conflicts.note_dry`, unless
an action and its response resolve together)."""
POW6 = np.array([6**k for k in range(400)], dtype=object)


@dataclass(frozen=True)
class Stage:
    """A part of a handling that the model plays apart once per situation (see the module)."""

    name: str
    phase: Phase
    """Where its rows enter: its first roll is due."""
    reads: tuple[str | tuple[str, str], ...]
    """Every field whose value at the entry its handlers read (its own, set afresh at the entry, among them); a pair
    ``(field, role)`` reads one person's value only, the one the role field names (the defender's body points)."""
    leaves: tuple[str, ...]
    """The fields it changes that the exit and what follows read."""
    exit: str
    """The kernel's method its rows leave by (:meth:`Conflicts.contest_done` takes who won as well)."""


SPENDS = ("tok", "xp", "dry_rank", "dry_groups")
"""What a stage's topping changes: the pools and experience dice, and the dry sides."""
CONTEST = Stage("contest", Phase.CROLL, CONTEST_FIELDS + PURSES, SPENDS, "contest_done")
"""A contest (opposed or difficulty roll, or the turordningsslag): 2T each, the one behind may top; it leaves who won
(``contest_done``'s result) and the spends."""
DAMAGE = Stage(
    "skadeslag", Phase.DROLL, (*DAMAGE_FIELDS, *PURSES, ("body", "d_def")), ("d_roll", *SPENDS), "apply_damage"
)
"""A skadeslag (damage roll): 1T with top, mot-toppa and mot-mot-toppa (the defender's body points decide whether a
mot-toppa is worth it); it leaves the roll that stands and the spends, and ``apply_damage`` marks the damage."""
STAGES = (CONTEST, DAMAGE)


@dataclass
class Settled:
    """A stage's outcomes from one situation: per outcome the exit's argument and the ``leaves`` fields (one
    row of ``values``), and its weight ``num`` / 6^``pow6``."""

    values: np.ndarray
    num: np.ndarray
    pow6: np.ndarray


Memo = dict[str, dict[tuple[int, ...], Settled]]
"""Per stage name: the outcomes of each situation met (the key: the ``reads`` fields in order, flattened)."""


class Branches(Conflicts):
    """The kernel's conflict rows as weighted branches (see the module)."""

    num: np.ndarray
    pow6: np.ndarray
    origin: np.ndarray
    forced: np.ndarray
    memo: Memo | None = None
    """The stages' outcomes by situation; ``None``: every stage played in place, roll by roll."""
    capture: Stage | None = None
    """Set on the rows a stage is played apart in: its exit records the outcome instead of going on."""
    captured: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]

    def roll(self, idx: np.ndarray, count: int) -> np.ndarray:
        """The total each row was split to (see :meth:`_split`)."""
        result: np.ndarray = self.forced[idx]
        return result

    # ---- the stages: played apart (memo) or roll by roll ------------------------------------------------------
    def on_contest_roll(self, idx: np.ndarray) -> None:
        # the handlers of a sweep each find their rows afresh, so rows may be merged and copied here
        if self.memo is None:
            super().on_contest_roll(self._split(Phase.CROLL, TWO_D6, 2))
        else:
            self._settle(CONTEST)

    def on_damage_roll(self, idx: np.ndarray) -> None:
        if self.memo is None:
            super().on_damage_roll(self._split(Phase.DROLL, ONE_D6, 1))
        else:
            self._settle(DAMAGE)

    def contest_done(self, idx: np.ndarray, res: np.ndarray) -> None:
        if self.capture is CONTEST:
            self._record(idx, res)
        else:
            super().contest_done(idx, res)

    def apply_damage(self, idx: np.ndarray) -> None:
        if self.capture is DAMAGE:
            self._record(idx, np.zeros(len(idx), dtype=np.int64))
        else:
            super().apply_damage(idx)

    def _record(self, idx: np.ndarray, argument: np.ndarray) -> None:
        """A row leaves the stage played apart: keep its outcome and weight, and take it out of play."""
        stage = self.capture
        assert stage is not None
        if not len(idx):
            return
        values = np.column_stack([argument, *(self._flat(name, idx) for name in stage.leaves)])
        self.captured.append((self.origin[idx], values, self.num[idx], self.pow6[idx]))
        self.phase[idx] = Phase.DONE

    def _flat(self, name: str | tuple[str, str], idx: np.ndarray) -> np.ndarray:
        """A field's values at ``idx``, one row each (a person's own with a role: see :attr:`Stage.reads`)."""
        if isinstance(name, tuple):
            field, role = name
            own: np.ndarray = at(getattr(self, field), idx, getattr(self, role)[idx])
            return own.reshape(len(idx), 1)
        column: np.ndarray = getattr(self, name)[idx].reshape(len(idx), -1).astype(np.int64)
        return column

    def _settle(self, stage: Stage) -> None:
        """Every row at the stage's entry split into its situation's outcomes (played apart where new) and handed
        to the exit."""
        assert self.memo is not None
        keep, num, pow6 = self._merged()
        entering = self.phase[keep] == stage.phase
        at, others = np.flatnonzero(entering), np.flatnonzero(~entering)
        rows = keep[at]
        reads = np.column_stack([self._flat(name, rows) for name in stage.reads])
        order, starts = _groups(list(reads.T), len(rows))
        first = order[starts]
        opens = np.zeros(len(rows), dtype=np.int64)
        opens[starts] = 1
        inverse = np.empty(len(rows), dtype=np.int64)
        inverse[order] = np.cumsum(opens) - 1  # each row's situation, numbered as ``keys``
        keys = [tuple(k) for k in reads[first].tolist()]
        table = self.memo.setdefault(stage.name, {})
        new = [j for j, k in enumerate(keys) if k not in table]
        if new:
            for j, settled in zip(new, self._play_apart(stage, rows[first[new]]), strict=True):
                table[keys[j]] = settled
        outcomes = [table[k] for k in keys]
        sizes = np.array([len(o.num) for o in outcomes])
        begins = np.cumsum(sizes) - sizes
        counts = sizes[inverse]
        total = int(counts.sum())
        pick = np.repeat(begins[inverse], counts) + np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        source = np.repeat(at, counts)
        values = np.concatenate([o.values for o in outcomes])[pick]
        self.take(np.concatenate([keep[others], keep[source]]))
        self.num = np.concatenate([num[others], num[source] * np.concatenate([o.num for o in outcomes])[pick]])
        self.pow6 = np.concatenate([pow6[others], pow6[source] + np.concatenate([o.pow6 for o in outcomes])[pick]])
        targets = np.arange(len(others), len(others) + total)
        column = 1
        for name in stage.leaves:
            array = getattr(self, name)
            width = array[0].size if array.ndim > 1 else 1
            array[targets] = values[:, column : column + width].reshape((total, *array.shape[1:]))
            column += width
        if stage is CONTEST:
            self.contest_done(targets, values[:, 0])
        else:
            self.apply_damage(targets)
            self.note_dry(targets)  # as the skadeslag's handler does after marking it

    def _play_apart(self, stage: Stage, rows: np.ndarray) -> list[Settled]:
        """Copies of ``rows`` (one per situation) played through the stage roll by roll: each one's outcomes."""
        apart = copy.copy(self)
        apart.take(rows)
        n = len(rows)
        apart.memo, apart.capture, apart.captured = None, stage, []
        apart.origin = np.arange(n)
        apart.num = np.ones(n, dtype=object)
        apart.pow6 = np.zeros(n, dtype=np.int64)
        apart.forced = np.zeros(n, dtype=np.int64)
        while len(apart.phase):
            apart.sweep()
            apart.take(np.flatnonzero(apart.phase != Phase.DONE))
        origin = np.concatenate([c[0] for c in apart.captured])
        values = np.concatenate([c[1] for c in apart.captured])
        num = np.concatenate([c[2] for c in apart.captured])
        power = np.concatenate([c[3] for c in apart.captured])
        order, starts = _groups([origin, *values.T], len(origin))
        top = np.maximum.reduceat(power[order], starts)
        sizes = np.diff(np.r_[starts, len(origin)])
        scaled = num[order] * POW6[np.repeat(top, sizes) - power[order]]
        summed = np.add.reduceat(scaled, starts)
        who = origin[order[starts]]
        found: list[list[int]] = [[] for _ in range(n)]
        for group, i in enumerate(who.tolist()):
            found[i].append(group)
        settled = []
        for groups in found:
            at = np.array(groups, dtype=np.int64)
            weights = np.empty(len(at), dtype=object)
            weights[:] = list(summed[at])
            settled.append(Settled(values[order[starts[at]]], weights, top[at]))
        return settled

    # ---- splitting and merging rows ---------------------------------------------------------------------------
    def _split(self, phase: int, outcomes: tuple[tuple[int, int], ...], dice: int) -> np.ndarray:
        """Merge the rows in the same situation, then copy each row in ``phase`` once per outcome of the dice (the
        copies go to the end), each weighted by its count of 6^``dice``; return the rows that now roll."""
        k = len(outcomes)
        keep, num, pow6 = self._merged()
        rolls = np.flatnonzero(self.phase[keep] == phase)
        m, n = len(rolls), len(keep)
        self.take(np.concatenate([keep, np.tile(keep[rolls], k - 1)]))
        self.num = np.concatenate([num, np.tile(num[rolls], k - 1)])
        self.pow6 = np.concatenate([pow6, np.tile(pow6[rolls], k - 1)])
        rolling = np.concatenate([rolls, np.arange(n, n + (k - 1) * m)])
        self.forced[rolling] = np.repeat(np.array([v for v, _ in outcomes]), m)
        counts = np.repeat(np.array([c for _, c in outcomes], dtype=object), m)
        self.num[rolling] = self.num[rolling] * counts
        self.pow6[rolling] += dice
        return rolling

    def _merged(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Clear what no later step reads, then find the rows in the same situation: one row of each (to keep),
        and its summed weight (numerator, power of 6)."""
        phase = self.phase
        idle = ~np.isin(phase, CONTEST_PHASES)
        for name in CONTEST_FIELDS:
            getattr(self, name)[idle] = 0
        idle = ~np.isin(phase, DAMAGE_PHASES)
        for name in DAMAGE_FIELDS:
            getattr(self, name)[idle] = 0
        if self.max_tops == 0:
            self.d_tops[:] = 0  # read only against a limit on tops
        n = len(phase)
        columns = [self.origin]
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray) and name not in WEIGHT_FIELDS and name != "surprisers":
                flat = value.reshape(n, -1)
                columns += [flat[:, k] for k in range(flat.shape[1])]
        order, starts = _groups(columns, n)
        if len(starts) == n:
            return np.arange(n), self.num, self.pow6
        power = self.pow6[order]
        top = np.maximum.reduceat(power, starts)
        sizes = np.diff(np.r_[starts, n])
        scaled = self.num[order] * POW6[np.repeat(top, sizes) - power]
        num = np.empty(len(starts), dtype=object)
        num[:] = list(np.add.reduceat(scaled, starts))
        return order[starts], num, top


def _groups(columns: Sequence[np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Equal rows among ``n`` rows of integer columns: an order of the rows with equal ones together, and where
    each group starts in it.

    Each row is packed, column by column in mixed radix (each column's own range; constant columns left out), into
    as few int64 words as hold it, and the words sorted together: exact, and far faster than sorting whole rows
    (``np.unique(axis=0)``)."""
    words: list[np.ndarray] = []
    word: np.ndarray | None = None
    room = 1
    for column in columns:
        low, high = int(column.min()), int(column.max())
        if low == high:
            continue
        size = high - low + 1
        if word is None or room * size >= 1 << 62:
            if word is not None:
                words.append(word)
            word, room = np.zeros(n, dtype=np.int64), 1
        word = word * size + (column.astype(np.int64) - low)
        room *= size
    if word is None:
        return np.arange(n), np.zeros(1, dtype=np.int64)
    words.append(word)
    order = words[0].argsort(kind="stable") if len(words) == 1 else np.lexsort(words[::-1])
    new = np.zeros(n, dtype=bool)
    new[0] = True
    for w in words:
        ranked = w[order]
        new[1:] |= ranked[1:] != ranked[:-1]
    return order, np.flatnonzero(new)


__all__ = ["CONTEST", "DAMAGE", "STAGES", "Branches", "Memo", "Settled", "Stage"]
