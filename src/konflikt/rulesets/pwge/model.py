"""The compact model of a PWGE duel for exact odds: one step is one handling (action) from the open floor, or a pass.

A compact state is the open floor — ``(floor, passes, actions, distance, points ×2, (tokens, experience dice, body
points, wound level, out) ×2)`` — or an end — ``(END, ending, winner, actions, (tokens, body points, wound level,
out) ×2)``. The handling between two open floors is played by the vectorised kernel's own flow
(:class:`~.kernel_flow.Conflicts`: counter, response, counter to the response, the secret order bids and the
turordningsslag, every roll with its topping, the skadeslag's top / mot-toppa / mot-mot-toppa, token loss by wound
level, the endings), whose choices are the heuristic's answers read from the real policy (:mod:`.kernel_tables`);
no rule is restated here. What this module adds is the chance: every conflict row of the kernel is a *branch* with
an exact weight, and each roll splits a row into its outcomes (2T's eleven totals, 1T's six faces) instead of
drawing one. After every sweep of the kernel, rows in the same situation are merged (their weights added), with
the fields of a roll already settled cleared first — the 2T rolls, tops and declines of a finished contest, the
stages of a marked skadeslag — so a handling's inner chance collapses to one distribution per situation: the rolls
of a contest only as far as who won it and what the topping cost, the skadeslag only as far as the damage marked.

Every handling costs at least one token or experience die and a pass moves the floor on (two passes in a row end
the duel), so the graph is acyclic; the actions played ride in the state, so the length's distribution comes with
the outcome. Many open floors are stepped at once (:meth:`PwgeModel.successors_batch`): the kernel's sweeps cost
the same for one row or a thousand.

Covered: one against one, the heuristic on both seats (the kernel's own condition), from any open floor; elsewhere
(a frislag after a surprise, the middle of an exchange) the analysis steps on through the State API and asks again.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from math import gcd
from typing import cast

import numpy as np

from konflikt.core.deadline import check_time
from konflikt.core.model_cache import ModelCache
from konflikt.core.ruleset import Policy
from konflikt.core.state import State
from konflikt.rulesets.pwge import endings
from konflikt.rulesets.pwge.kernel import PwgeKernel
from konflikt.rulesets.pwge.kernel_flow import Conflicts, Phase
from konflikt.rulesets.pwge.kernel_tables import NONE
from konflikt.rulesets.pwge.policies import HeuristicPolicy
from konflikt.rulesets.pwge.state import PwgeState

END = -1
"""The first field of an ended compact state (an open floor's is the floor holder, 0 or 1)."""
TWO_D6: tuple[tuple[int, int], ...] = tuple((s, 6 - abs(s - 7)) for s in range(2, 13))
"""2T: each total with its count of the 36 faces."""
ONE_D6: tuple[tuple[int, int], ...] = tuple((f, 1) for f in range(1, 7))
"""1T: each face once of 6."""
CONTEST_PHASES = (Phase.CROLL, Phase.CCHECK, Phase.CASK)
DAMAGE_PHASES = (Phase.DROLL, Phase.DAUTO, Phase.DATT, Phase.DDEF, Phase.DCCT)
CONTEST_FIELDS = ("c_order", "c_a", "c_b", "c_mod", "c_roll", "c_tops", "c_dec", "c_ask")
"""Read only while a contest runs (``begin_contest`` sets them afresh): cleared outside one so that rows merge."""
DAMAGE_FIELDS = ("d_att", "d_def", "d_mod", "d_arm", "d_roll", "d_stage", "d_tops", "d_ctops")
"""Read only while a skadeslag runs (``contest_done`` sets them afresh)."""
WEIGHT_FIELDS = ("num", "pow6", "origin", "forced", "ids", "steps")
"""Not part of a row's situation: its weight (num / 6^pow6), which open floor it came from, the roll it is to
make, and the kernel's conflict number and step count (the length here is in actions)."""
POW6 = np.array([6**k for k in range(400)], dtype=object)
BATCH_ROWS = 400
"""Open floors stepped together in one run of the kernel's sweeps."""


class Branches(Conflicts):
    """The kernel's conflict rows as weighted branches: a roll splits each row into every outcome of the dice."""

    num: np.ndarray
    pow6: np.ndarray
    origin: np.ndarray
    forced: np.ndarray

    def roll(self, idx: np.ndarray, count: int) -> np.ndarray:
        """The total each row was split to (see :meth:`_split`)."""
        result: np.ndarray = self.forced[idx]
        return result

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

    def on_contest_roll(self, idx: np.ndarray) -> None:
        # the handlers of a sweep each find their rows afresh, so rows may be merged and copied here
        super().on_contest_roll(self._split(Phase.CROLL, TWO_D6, 2))

    def on_damage_roll(self, idx: np.ndarray) -> None:
        super().on_damage_roll(self._split(Phase.DROLL, ONE_D6, 1))

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


Person = tuple[int, int, int, int, int]
"""(tokens, experience dice, body points, wound level, out) of one participant."""


class PwgeModel:
    """A duel at the open floor, as a Markov chain over compact states (see the module)."""

    unit = "actions"

    def __init__(self, conflict: PwgeState) -> None:
        probe = conflict.clone()
        assert isinstance(probe, PwgeState)
        probe.quiet = True
        self.probe = probe
        self.kernel = PwgeKernel.of_state(conflict)
        self.static = self._identity(conflict)
        self._labels: dict[Hashable, Hashable] = {}
        self._memo: dict[Hashable, tuple[int, list[tuple[Hashable, int]]]] = {}

    @staticmethod
    def _identity(conflict: PwgeState) -> Hashable:
        """What must match for another state to be encoded by this model: the people (attributes in use, weapons
        in hand, pools), the kind and setup, the rule options."""
        return (
            repr(conflict.people),
            conflict.kind,
            repr(conflict.setup),
            tuple(sorted((k, repr(conflict.options[k])) for k in conflict.options)),
        )

    def encode(self, state: State) -> Hashable | None:
        if not isinstance(state, PwgeState) or state.phase != "open" or state.ex is not None:
            return None
        if self._identity(state) != self.static:
            return None
        return (
            state.floor,
            state.passes,
            state.actions,
            state.pair(0, 1),
            *state.points,
            *(v for p in range(2) for v in self._person(state, p)),
        )

    @staticmethod
    def _person(state: PwgeState, p: int) -> Person:
        return (state.tokens[p], state.xp[p], state.body[p], state.wounds[p], int(state.out[p]))

    def end(self, compact: Hashable) -> Hashable | None:
        c = cast(tuple[int, ...], compact)
        if c[0] != END:
            return None
        found = self._labels.get(c)
        if found is None:
            _, ending, winner, _, *people = c
            probe = self.probe
            for p in range(2):
                tokens, body, wound, out = people[4 * p : 4 * p + 4]
                probe.tokens[p], probe.body[p], probe.wounds[p], probe.out[p] = tokens, body, wound, bool(out)
            winners = () if winner == NONE else (probe.side_ids[winner],)
            fates = tuple(sorted((f.pid, endings.fate(probe, p)) for p, f in enumerate(probe.people)))
            found = self._labels[c] = (endings.ENDINGS[ending], winners, fates)
        return found

    def length(self, compact: Hashable) -> int:
        c = cast(tuple[int, ...], compact)
        return c[3] if c[0] == END else c[2]

    def successors(self, compact: Hashable) -> tuple[int, Sequence[tuple[Hashable, int]]]:
        found = self._memo.get(compact)
        if found is None:
            return self.successors_batch([compact])[0]
        return found

    def successors_batch(self, compacts: Sequence[Hashable]) -> list[tuple[int, list[tuple[Hashable, int]]]]:
        """One handling on from each open floor, the kernel's rows run together (:data:`BATCH_ROWS` at a time)."""
        todo = [c for c in dict.fromkeys(compacts) if c not in self._memo]
        for k in range(0, len(todo), BATCH_ROWS):
            self._step(todo[k : k + BATCH_ROWS])
        return [self._memo[c] for c in compacts]

    def _rows(self, compacts: Sequence[Hashable]) -> Branches:
        n = len(compacts)
        rows = cast(Branches, self.kernel._conflicts(n, np.random.default_rng(0), None, Branches))
        starts = np.array(compacts, dtype=np.int64)
        rows.floor[:] = starts[:, 0]
        rows.passes[:] = starts[:, 1]
        rows.actions[:] = starts[:, 2]
        rows.set_pair(np.arange(n), np.zeros(n, dtype=np.int64), np.ones(n, dtype=np.int64), starts[:, 3])
        rows.pts[:] = starts[:, 4:6]
        for p in range(2):
            base = 6 + 5 * p
            rows.tok[:, p], rows.xp[:, p], rows.body[:, p] = starts[:, base], starts[:, base + 1], starts[:, base + 2]
            rows.wnd[:, p], rows.out[:, p] = starts[:, base + 3], starts[:, base + 4].astype(bool)
        rows.phase[:] = Phase.OPEN
        rows.num = np.ones(n, dtype=object)
        rows.pow6 = np.zeros(n, dtype=np.int64)
        rows.origin = np.arange(n)
        rows.forced = np.zeros(n, dtype=np.int64)
        return rows

    def _step(self, compacts: Sequence[Hashable]) -> None:
        rows = self._rows(compacts)
        found: list[dict[Hashable, tuple[int, int]]] = [{} for _ in compacts]
        """Per open floor: each successor with its (numerator, power of 6)."""
        while len(rows.phase):
            check_time()  # a batch runs for seconds: the table's time budget (core.deadline) is checked per sweep
            rows.sweep()
            phase = rows.phase
            arrived = (phase == Phase.OPEN) | (phase == Phase.DONE)
            if arrived.any():
                self._harvest(rows, np.flatnonzero(arrived), found)
                rows.take(np.flatnonzero(~arrived))
        for c, ways in zip(compacts, found, strict=True):
            top = max(p for _, p in ways.values())
            nums = [(t, n * 6 ** (top - p)) for t, (n, p) in ways.items()]
            den = 6**top
            common = den
            for _, n in nums:
                common = gcd(common, n)
            self._memo[c] = (den // common, [(t, n // common) for t, n in nums])

    @staticmethod
    def _harvest(rows: Branches, idx: np.ndarray, found: list[dict[Hashable, tuple[int, int]]]) -> None:
        done = rows.phase[idx] == Phase.DONE
        person = [rows.tok[idx], rows.xp[idx], rows.body[idx], rows.wnd[idx], rows.out[idx].astype(np.int64)]
        table = np.column_stack(
            [
                rows.floor[idx],
                rows.passes[idx],
                rows.actions[idx],
                rows.dist[idx, 0, 1],
                rows.pts[idx],
                *(np.column_stack([a[:, p] for a in person]) for p in range(2)),
                rows.ending[idx],
                rows.winner[idx],
            ]
        ).tolist()
        for k, row in enumerate(table):
            if done[k]:
                compact: Hashable = (END, row[16], row[17], row[2], row[6], *row[8:12], *row[13:16])
            else:
                compact = tuple(row[:16])
            i = int(rows.origin[idx[k]])
            n, p = int(rows.num[idx[k]]), int(rows.pow6[idx[k]])
            have = found[i].get(compact)
            if have is None:
                found[i][compact] = (n, p)
            else:
                m, q = have
                top = max(p, q)
                found[i][compact] = (n * 6 ** (top - p) + m * 6 ** (top - q), top)


def exact_model(state: State, policies: Mapping[str, Policy]) -> PwgeModel | str | None:
    """The :class:`PwgeModel` of the duel at ``state``; why not (a string); ``None`` away from the open floor."""
    if not isinstance(state, PwgeState):
        return "not a pwge conflict"
    if len(state.people) != 2 or len(state.side_ids) != 2:
        return f"the pwge model plays one against one; this conflict has {len(state.people)} participants"
    for seat in state.seats():
        if not isinstance(policies.get(seat), HeuristicPolicy):
            return f"the pwge model mirrors the heuristic policy on both seats; {seat} plays another"
    if state.is_terminal() or state.phase != "open" or state.ex is not None:
        return None
    identity = PwgeModel._identity(state)
    return _MODELS.get(identity, lambda: PwgeModel(state))


_MODELS: ModelCache[PwgeModel] = ModelCache()
"""Models by the conflict they were built for: asked again, a model answers from the handlings it has worked out."""

__all__ = ["PwgeModel", "exact_model"]
