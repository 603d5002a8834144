"""The compact model of a PWGE duel for exact odds: one step is one handling (action) from the open floor, or a pass.

A compact state is the open floor — ``(floor, passes, actions, distance, points ×2, (tokens, experience dice, body
points, wound level, out) ×2)`` — or an end — ``(END, ending, winner, actions, (tokens, body points, wound level,
out) ×2)``. The handling between two open floors is played by the vectorised kernel's own flow
(:class:`~.kernel_flow.Conflicts`: counter, response, counter to the response, the secret order bids and the
turordningsslag, every roll with its topping, the skadeslag's top / mot-toppa / mot-mot-toppa, token loss by wound
level, the endings), whose choices are the heuristic's answers read from the real policy (:mod:`.kernel_tables`);
no rule is restated here. What this module adds is the chance: every conflict row of the kernel is a *branch* with
an exact weight (:mod:`.model_rows`). Each contest and each skadeslag is played once per situation it reads (the
modifiers, the purses of the two, the defender's body points), every 2T or 1T roll splitting its rows into the
outcomes instead of drawing one; every later row in that situation is split at once into the outcomes kept — who
won the contest and what the topping cost, the damage roll that stands — and handed on to the kernel's own exit.
Before each split the rows in the same situation merge (their weights added), with the fields of a finished
contest or skadeslag cleared first.

Every handling costs at least one token or experience die and a pass moves the floor on (two passes in a row end
the duel), so the graph is acyclic; the actions played ride in the state, so the length's distribution comes with
the outcome. Many open floors are stepped at once (:meth:`PwgeModel.successors_batch`): the kernel's sweeps cost
the same for one row or a thousand.

Covered: one against one, the heuristic on both seats (the kernel's own condition), from any open floor. A State
saved in the middle of a handling (its counter, response, order bids, contest or skadeslag) or at a frislag is
loaded into one kernel row at its phase (:mod:`.model_entry`) and played on to the next open floors the same way
(:meth:`PwgeModel.enter`); only what the rows cannot hold (a weapon switch or "any other handling" declared by a
player, the choices before the first die) is walked through the State API, which asks again at each State.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from math import gcd
from typing import cast

import numpy as np

from konflikt.core.deadline import check_time
from konflikt.core.model_cache import ModelCache
from konflikt.core.ruleset import Policy
from konflikt.core.state import State
from konflikt.rulesets.pwge import endings
from konflikt.rulesets.pwge.i18n import _
from konflikt.rulesets.pwge.kernel import PwgeKernel
from konflikt.rulesets.pwge.kernel_flow import Phase
from konflikt.rulesets.pwge.kernel_tables import NONE
from konflikt.rulesets.pwge.model_entry import LOADED_PHASES, load, why_not_loaded
from konflikt.rulesets.pwge.model_rows import POW6, Branches, Memo, _groups
from konflikt.rulesets.pwge.policies import HeuristicPolicy
from konflikt.rulesets.pwge.state import PwgeState

END = -1
"""The first field of an ended compact state (an open floor's is the floor holder, 0 or 1)."""
BATCH_ROWS = 5000
"""Open floors stepped together in one run of the kernel's sweeps."""
UNENDED = [0, 1, 3, 4, 5, 7, 12]
"""The columns of a harvested row (:meth:`PwgeModel._harvest`) that an end's compact state leaves out: the floor,
passes, distance, points and experience dice."""


Person = tuple[int, int, int, int, int]
"""(tokens, experience dice, body points, wound level, out) of one participant."""


class PwgeModel:
    """A duel at the open floor, as a Markov chain over compact states (see the module)."""

    unit = "actions"

    def __init__(self, conflict: PwgeState, *, memoise: bool = True) -> None:
        probe = conflict.clone()
        assert isinstance(probe, PwgeState)
        probe.quiet = True
        self.probe = probe
        self.kernel = PwgeKernel.of_state(conflict)
        self.static = self._identity(conflict)
        self._labels: dict[Hashable, Hashable] = {}
        self._memo: dict[Hashable, tuple[int, list[tuple[Hashable, int]]]] = {}
        self._entered: dict[Hashable, list[tuple[Hashable, Fraction]]] = {}
        """The rest of a handling by the ``key()`` and actions of the State saved in it (:meth:`enter`)."""
        self.stages: Memo | None = {} if memoise else None
        """Each contest's and skadeslag's outcomes by the situation it reads (:mod:`.model_rows`); ``None``: every
        one played roll by roll in the rows (the path the memo is tested equal to)."""

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
        return self._floor_of(state)

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
        rows = cast(Branches, self.kernel._conflicts(n, np.random.default_rng(0), Branches))
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
        rows.memo = self.stages
        return rows

    def _step(self, compacts: Sequence[Hashable]) -> None:
        for c, ways in zip(compacts, self._play(self._rows(compacts), len(compacts)), strict=True):
            self._memo[c] = _merged(ways)

    def _play(self, rows: Branches, count: int) -> list[dict[Hashable, tuple[int, int]]]:
        """Sweep ``rows`` (``count`` origins) until every branch has reached an open floor or an end: per origin,
        each compact state reached with its (numerator, power of 6)."""
        found: list[dict[Hashable, tuple[int, int]]] = [{} for _ in range(count)]
        while len(rows.phase):
            check_time()  # a batch runs for seconds: the table's time budget (core.deadline) is checked per sweep
            rows.sweep()
            phase = rows.phase
            arrived = (phase == Phase.OPEN) | (phase == Phase.DONE)
            if arrived.any():
                self._harvest(rows, np.flatnonzero(arrived), found)
                rows.take(np.flatnonzero(~arrived))
        return found

    def why_not_entered(self, state: State) -> str | None:
        """Why :meth:`enter` cannot load ``state`` (``None``: it can)."""
        if not isinstance(state, PwgeState) or self._identity(state) != self.static:
            return _("another conflict than the pwge model's")
        if state.is_terminal():
            return _("the conflict has ended")
        return why_not_loaded(state)

    def enter(self, state: State) -> list[tuple[Hashable, Fraction]] | None:
        """The rest of the handling ``state`` was saved in (:mod:`.model_entry`), played by the kernel's rows as a
        handling from the open floor is: each open floor or end it reaches, with its probability. ``None`` where
        ``state`` cannot be loaded (:meth:`why_not_entered`): the State API walks on from it instead."""
        if self.why_not_entered(state) is not None:
            return None
        assert isinstance(state, PwgeState)
        key = (state.key(), state.actions)  # the actions played ride in the compact states, not in key()
        found = self._entered.get(key)
        if found is None:
            rows = self._rows([self._floor_of(state)])
            load(rows, 0, state)
            den, ways = _merged(self._play(rows, 1)[0])
            found = self._entered[key] = [(c, Fraction(n, den)) for c, n in ways]
        return found

    def _floor_of(self, state: PwgeState) -> Hashable:
        """A compact open floor with ``state``'s tallies: the row :meth:`enter` loads the rest of ``state`` over."""
        return (
            state.floor,
            state.passes,
            state.actions,
            state.pair(0, 1),
            *state.points,
            *(v for p in range(2) for v in self._person(state, p)),
        )

    @staticmethod
    def _harvest(rows: Branches, idx: np.ndarray, found: list[dict[Hashable, tuple[int, int]]]) -> None:
        """The rows at ``idx`` have reached an open floor or an end: merged by (open floor they came from, compact
        state), their weights added to ``found``."""
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
        )
        table[np.ix_(done, UNENDED)] = 0  # what an end's compact state leaves out
        origin = rows.origin[idx]
        order, starts = _groups([origin, done, *table.T], len(idx))
        power = rows.pow6[idx][order]
        top = np.maximum.reduceat(power, starts)
        sizes = np.diff(np.r_[starts, len(idx)])
        summed = np.add.reduceat(rows.num[idx][order] * POW6[np.repeat(top, sizes) - power], starts)
        first = order[starts]
        for row, ended, i, n, p in zip(
            table[first].tolist(), done[first].tolist(), origin[first].tolist(), summed, top.tolist(), strict=True
        ):
            if ended:
                compact: Hashable = (END, row[16], row[17], row[2], row[6], *row[8:12], *row[13:16])
            else:
                compact = tuple(row[:16])
            have = found[i].get(compact)
            if have is None:
                found[i][compact] = (int(n), p)
            else:
                m, q = have
                top_ = max(p, q)
                found[i][compact] = (int(n) * 6 ** (top_ - p) + m * 6 ** (top_ - q), top_)


def _merged(ways: dict[Hashable, tuple[int, int]]) -> tuple[int, list[tuple[Hashable, int]]]:
    """Each successor's (numerator, power of 6) over one denominator, reduced."""
    top = max(p for _, p in ways.values())
    nums = [(t, n * 6 ** (top - p)) for t, (n, p) in ways.items()]
    common = den = 6**top
    for _ways, n in nums:
        common = gcd(common, n)
    return den // common, [(t, n // common) for t, n in nums]


def exact_model(state: State, policies: Mapping[str, Policy]) -> PwgeModel | str | None:
    """The :class:`PwgeModel` of the duel at ``state``; why not (a string); ``None`` where it neither starts there
    (the open floor) nor enters there (the middle of a handling it can load, :meth:`PwgeModel.enter`)."""
    if not isinstance(state, PwgeState):
        return _("not a pwge conflict")
    if len(state.people) != 2 or len(state.side_ids) != 2:
        return _(
            "the pwge model plays one against one; this conflict has {count} participants", count=len(state.people)
        )
    for seat in state.seats():
        if not isinstance(policies.get(seat), HeuristicPolicy):
            return _("the pwge model mirrors the heuristic policy on both seats; {seat} plays another", seat=seat)
    if state.is_terminal():
        return None
    at_floor = state.phase == "open" and state.ex is None
    if not at_floor and (state.phase not in LOADED_PHASES or why_not_loaded(state) is not None):
        return None
    identity = PwgeModel._identity(state)
    return _MODELS.get(identity, lambda: PwgeModel(state))


_MODELS: ModelCache[PwgeModel] = ModelCache()
"""Models by the conflict they were built for: asked again, a model answers from the handlings it has worked out."""

__all__ = ["PwgeModel", "exact_model"]
