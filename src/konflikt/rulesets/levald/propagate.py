"""Le våld duel odds by forward propagation: the distribution over round starts, pushed a round at a time in numpy.

**Why not a chain.** :mod:`.model` walks one round start to its ~4,000 next round starts in some 40 ms of Python,
and the reachable set of the bundled duel runs to hundreds of thousands of round starts: materialising a round
matrix per state cannot finish in seconds. But only one question is asked — where the mass of *one* start ends —
so the distribution itself is carried forward instead: the round starts alive after r rounds as numpy columns (the
compact layout of :mod:`.model`: distance, initiative holder, why to decide it afresh, Gard, Omtöckning, the ten
wound boxes, fates) with their probability as float64.

**A round as phases.** The round is applied in the State's order as a sequence of phases — movement (with leaving
and its free attack), initiative, the attacker's and defender's choices, the attack against the defence or the
counter-attack (the strike back a phase of its own, since its target reads the Omtöckning the first strike left),
gaining ground. Each phase groups the live rows by what that phase reads (:meth:`Propagator._expand`: the distance,
the holder, the Omtöckning *penalties*, the Gard of the fighter struck…), asks the compact model once per group for
the phase's grouped branches (the model's own memoised tables: ``_wishes``, ``_contest``, ``_attacker_choice``,
``_defender_choice``, ``_strike``, ``_defended``, ``_grounds`` — so every number comes from :mod:`.rules` and every
decision from the scenario's policy on a real ``LevaldState``), and expands each row by its group's branches. A
phase has at most some sixty branches (a hit's Gard, wound and Omtöckning), so a round costs live rows × branches
per phase, never rows × 4,000. At the round's end rows that are equal are merged (one int64 key per row, mixed
radix over the columns' ranges; ``np.unique`` and ``np.bincount`` of the probabilities).

**What is lumped.** Omtöckning and the wound boxes are kept exact (the end labels, the fate words, read them), but
no phase groups by them: the rules and the heuristic read Omtöckning only through its penalty (``daze_penalty``)
and the wound boxes not at all (a Kritisk or Dödlig wound sets the fate, which is a column of its own). A hit adds
its Omtöckning and ticks its box on every row of the group alike. ``tests/analysis/test_propagate_levald.py``
checks every round against :meth:`.model.LevaldModel.step` on random states (to 1e-15) and whole short duels
against the exact model's Fractions.

**Why the rows cannot be lumped by what the rules read** (``tests/analysis/test_lumping_levald.py``). The wound
boxes can: merged, two rows have the same successors, and each successor's boxes are its start's plus the same
ticks, so the expected count of a box could be carried linearly beside the mass. But that saves little (below).
Omtöckning cannot be lumped into its penalty: what the *next* hit does to the penalty depends on where in its band
of five the Omtöckning stands (a Skråma takes 10 to 11, −10 to −20, but 6 only to 7), so a chain keyed by the
penalty is not a Markov chain, and a row must hold Omtöckning exactly. Nor can the penalty be capped where a
fighter's every target is ≤ 0 (no roll of his can succeed any more): the heuristic's leaving still compares the two
penalties (``policies.LOSING_BADLY``: at −60 against −40 Snurre stays, at −90 he leaves). No rule or policy reads
the rounds played but ``max_rounds`` (the State's deadlock at the cap), so the round is the push's iteration index
and never a column.

**Ends, the cap, and when to stop.** Rows that end (a fate other than fighting) leave the live set with their
labels' parts (Omtöckning, wounds, fates; :func:`.model._cleared`), summed per (label, rounds played). At
``max_rounds`` the mass still fighting ends as the State's deadlock (``at_cap``). Before that, once the mass still
fighting is below :data:`LEFTOVER` it is labelled as at the cap too, and that mass is stated as an absolute error
(``Propagated.leftover``) beside the rounding bound.

**Measured, and what it does not reach** (``scripts/levald_propagation.py``; CPU under load): three rounds of the
bundled duel from Fri in 0.7 s (the exact model over the clockless chain 1.0 s). But the rows alive are the product
of what the rules read — 40, 882, 23,684 and about 2.5 million after rounds 1–4 (40, 676, 17,019 and 761,043 with
the wound boxes left out: lumping the boxes, which no rule reads, saves little; Gard × Omtöckning × the initiative
are what multiply) — while 69% of the mass still fights after round 4, so the bundled duel to 10⁻¹² is out of reach
of any method that lists the live rows. The smallest chain that is still exact — the rows without the wound boxes
(distance, holder, why to decide afresh, Gard ×2, Omtöckning ×2), the boxes carried linearly — is the 761,043 of
round 4 and grows (breadth-first, the same 41, 676, 17,019 and 761,043 states within 1–4 rounds, and from 2%
samples of the frontier at least 1,761,424 and 2,765,030 within 5 and 6, Omtöckning up to 67 and 62;
``scripts/levald_propagation.py --reach``): any method that touches each reachable state's few hundred branches
once does 10⁸–10⁹ operations, and a forward push does them once a round for the dozens of rounds the mass takes to
fall below 10⁻¹². Nor is the mass concentrated on a few rows: dropping the least likely rows summing to 10⁻¹¹ a
round keeps 715,873 of the 760,895 alive after round 4, and even 10⁻⁶ a round keeps 13,629 of 17,017 after round 3
(``scripts/levald_propagation.py --drop``). Its use there is a fast, honest refusal: beyond ``max_live`` rows it
stops within the round (:class:`TooManyLive`, the live count of every round), and the exact solver asks it first.

**Rounding.** Every probability is a sum of products of non-negative floats: per round each row's mass takes one
product and one rounded branch weight per phase (at most :data:`ROUNDINGS_PER_ROUND`), and the merges sum at most
``k`` terms (k − 1 roundings, the largest merge of the run counted, three merges on a row's way through a round);
over R rounds the relative error of a row's mass is at most γ_n, n = R·(ROUNDINGS_PER_ROUND + 3(k − 1)) plus the
sums of the ends into their labels and over the rounds (u = 2⁻⁵³, γ_n = n·u / (1 − n·u)).
:attr:`Propagated.error_bound` states it per run.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from konflikt.core.deadline import check_time
from konflikt.core.thousands import grouped
from konflikt.errors import ModelTooLarge
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.i18n import _
from konflikt.rulesets.levald.model import (
    BOXES,
    CHOICE,
    DAZE,
    DIST,
    FATE,
    FATES,
    GARD,
    HOLDER,
    REDECIDE,
    ROLL,
    ROUNDS,
    SIZE,
    WOUNDS,
    Compact,
    LevaldModel,
    _cleared,
)
from konflikt.rulesets.levald.state import DAMAGED, DEAD, KNOCKED_OUT, LEFT, MOVED

LEFTOVER = 1e-15
"""Stop once the mass still fighting is below this: it is labelled as at the cap, an absolute error stated."""
ROUNDINGS_PER_ROUND = 16
"""Roundings a row's mass takes in a round at most: a rounded branch weight and a product in each of the phases a
round can pass (movement, free attack or initiative, choices, attack, strike back, ground: 7 × 2), and two spare."""
UNIT_ROUNDOFF = 2.0**-53
CHUNK = 250
"""Live rows pushed through a round at a time: their branches (up to ~500 a row) stay within ~40 MB, and a push
beyond ``max_live`` is refused after fewer of them (measured side by side under load on the bundled duel: 1,000 rows
a chunk refused in 3–4 s of CPU at 815 MB peak for the whole ``odds`` command, 250 in about 1 s at 240 MB; the
three-round push of the tests as fast either way)."""
LEFT_CODE, KO_CODE, DEAD_CODE = FATES.index(LEFT), FATES.index(KNOCKED_OUT), FATES.index(DEAD)

Rows = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]
Table = tuple[Rows, Floats]
Branches = list[tuple[tuple[int, ...], float]]
"""A group's branches as the tables below give them: (fields, probability)."""
"""A group's branches: fields (branches × fields) and probabilities."""


@dataclass
class Propagated:
    """Where the mass of the starts ends: probability per (outcome label, rounds played), and how it was found."""

    ends: dict[tuple[Hashable, int], float]
    error_bound: float
    """Relative bound on each probability from rounding (see the module)."""
    leftover: float
    """Mass still fighting when the push stopped early, labelled as at the cap: an absolute error (0 at the cap)."""
    rounds: int
    """Rounds pushed."""
    live: list[int]
    """Live round starts after each round (before the ends leave)."""
    peak: int
    """The most live round starts in one round."""


class TooManyLive(ModelTooLarge):
    """More round starts alive after a round than asked for (the push would not finish in reasonable time)."""

    def __init__(self, rounds: int, live: int, limit: int, per_round: list[int], whole: bool) -> None:
        self.rounds, self.met, self.limit, self.per_round = rounds, live, limit, tuple(per_round)
        fields = {
            "live": grouped(live),
            "rounds": rounds,
            "limit": grouped(limit),
            "per_round": ", ".join(grouped(n) for n in per_round),
        }
        if whole:
            text = _(
                "{live} round starts alive after round {rounds}, over {limit} (alive after each round: {per_round})",
                **fields,
            )
        else:
            text = _(
                "at least {live} round starts alive after round {rounds}, over {limit} (alive after each round: "
                "{per_round})",
                **fields,
            )
        super().__init__(text)


class Propagator:
    """The forward push of a :class:`~.model.LevaldModel` (one per model: its tables fill as groups are met)."""

    def __init__(self, model: LevaldModel) -> None:
        self.model = model
        f = model.fighters
        self.gard_max = np.array([x.gard_max for x in f], dtype=np.int64)
        self.knocked_out_by_deadly = model.options.deadly_wound == "knocked_out"
        self.gard_damage = bool(model.options.gard_damage_is_damage)
        self.leave_free = np.array(
            [[R.leave_is_free(model.scale_index[d], f[e].length) for d in range(model.last + 1)] for e in (0, 1)]
        )
        self._pens = np.zeros(0, dtype=np.int64)
        self._tables: dict[Hashable, Table] = {}
        self.largest_merge = 1

    # ---- helpers -----------------------------------------------------------------------------------------------
    def pens(self, daze: Rows) -> Rows:
        """Omtöckning's penalty of every row (``rules.daze_penalty``, tabulated as far as the largest met)."""
        top = int(daze.max(initial=0))
        if top >= len(self._pens):
            self._pens = np.array([R.daze_penalty(d) for d in range(2 * top + 16)], dtype=np.int64)
        return self._pens[daze]

    def _expand(
        self, name: str, keys: Sequence[Rows], rows: Rows, make: Callable[[list[int]], Branches]
    ) -> tuple[Rows, Rows, Floats]:
        """Each row of ``rows`` expanded by its group's branches: (parent row index, branch fields, probability).

        The group of a row is its ``keys`` (what the phase reads); ``make`` is called once per new group with a
        representative row (as the compact model's list) and returns (fields, probability) per branch."""
        n = len(rows)
        if not n:
            return np.zeros(0, dtype=np.int64), np.zeros((0, 4), dtype=np.int64), np.zeros(0)
        code = _codes(keys)
        _, first, inv = np.unique(code, return_index=True, return_inverse=True)
        tables: list[Table] = []
        picked = [np.asarray(k, dtype=np.int64)[first].tolist() for k in keys]
        for j, i in enumerate(first.tolist()):
            key = (name, *(col[j] for col in picked))
            found = self._tables.get(key)
            if found is None:
                branches = make(rows[i].tolist())
                fields = np.array([b for b, _ in branches], dtype=np.int64).reshape(len(branches), -1)
                found = self._tables[key] = (fields, np.array([w for _, w in branches], dtype=np.float64))
            tables.append(found)
        counts = np.array([len(t[1]) for t in tables], dtype=np.int64)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        all_fields = np.concatenate([t[0] for t in tables])
        all_weights = np.concatenate([t[1] for t in tables])
        per_row = counts[inv]
        parent = np.repeat(np.arange(n, dtype=np.int64), per_row)
        offsets = np.cumsum(per_row) - per_row
        branch = starts[inv][parent] + (np.arange(len(parent), dtype=np.int64) - offsets[parent])
        return parent, all_fields[branch], all_weights[branch]

    def _hurt(self, s: Rows, dst: Rows, gard: Rows, wound: Rows, gained: Rows, holder: Rows) -> None:
        """Hits on the rows of ``s`` (in place; ``holder`` the initiative holder before them): as
        :meth:`.model.LevaldModel._hurt` — Gard left, Omtöckning gained, the wound box ticked, the fate, and a
        damaged holder must win the initiative afresh."""
        idx = np.arange(len(s))
        s[idx, GARD + dst] = gard
        s[idx, DAZE + dst] += gained
        hurt = wound != R.NO_WOUND
        s[idx[hurt], WOUNDS + dst[hurt] * BOXES + wound[hurt]] += 1
        deadly = wound == R.DODLIG
        knocked = (wound == R.KRITISK) | (deadly & self.knocked_out_by_deadly)
        s[idx[knocked], FATE + dst[knocked]] = KO_CODE
        dead = deadly & (not self.knocked_out_by_deadly)
        s[idx[dead], FATE + dst[dead]] = DEAD_CODE
        damaged = (hurt | self.gard_damage) & (holder == dst)
        s[damaged, REDECIDE] |= DAMAGED

    def _strike_rows(self, name: str, s: Rows, p: Floats, src: Rows, leave: bool) -> tuple[Rows, Floats, Rows, Rows]:
        """An attack no defence roll meets, by ``src`` on the other (``model._strike``): the rows after it, their
        probabilities, the parent rows' indices and whether it succeeded."""
        m = self.model
        dst = 1 - src
        pen_src = self.pens(s[np.arange(len(s)), DAZE + src])
        gard_dst = s[np.arange(len(s)), GARD + dst]

        out_parent, fields, w = self._expand(
            f"{name}{int(leave)}",
            [src, pen_src, gard_dst],
            np.column_stack([src, pen_src, gard_dst]),
            lambda r: _strike_table(m, r[0], r[1], r[2], leave),
        )
        t = s[out_parent].copy()
        q = p[out_parent] * w
        succeeded = fields[:, 0].astype(bool)
        hit = fields[:, 1] >= 0  # Gard left is ≥ 0 for a hit, −1 for a miss
        if hit.any():
            sub = t[hit]
            self._hurt(
                sub, src[out_parent][hit] ^ 1, fields[hit, 1], fields[hit, 2], fields[hit, 3], sub[:, HOLDER].copy()
            )
            t[hit] = sub
        return t, q, out_parent, succeeded

    # ---- one round ------------------------------------------------------------------------------------------------
    def round(self, s: Rows, p: Floats) -> tuple[Rows, Floats]:
        """One round of every live row: the next round starts and the ends (not yet merged)."""
        rows, probs, (t, q, a, succeeded) = self.round_start(s, p)
        if not len(t):
            return rows, probs
        t, q, a, succeeded = _merged_with(t, q, a, succeeded, self)
        back, back_q = self.strike_back(t, q, a, succeeded)
        return np.concatenate([rows, back]), np.concatenate([probs, back_q])

    def round_start(self, s: Rows, p: Floats) -> tuple[Rows, Floats, tuple[Rows, Floats, Rows, Rows]]:
        """A round up to a counter-attack's strike back: the rows that reached the round's end (next round starts
        and ends, not merged), and the rows whose defender countered and still stands, with who attacked and
        whether the attack succeeded (the strike back is :meth:`strike_back`: its target reads the Omtöckning the
        first strike left, so :mod:`.blocks` keeps it a state of its own). Rows may carry trailing columns beyond
        the compact layout (:mod:`.blocks`' parent index): every phase keeps them."""
        m = self.model
        width = s.shape[1]
        done: list[tuple[Rows, Floats]] = []
        pens = self.pens(s[:, DAZE : DAZE + 2])

        # movement: both markers, the contest where the wishes differ, the distance moves
        parent, fields, w = self._expand(
            "move",
            [s[:, DIST], s[:, HOLDER] + 1, -pens[:, 0], -pens[:, 1]],
            s,
            lambda r: _move_table(m, r),
        )
        s, p = s[parent].copy(), p[parent] * w
        moved = fields[:, 0] != s[:, DIST]
        s[:, DIST] = fields[:, 0]
        s[moved, REDECIDE] |= MOVED
        leave0, leave1 = fields[:, 1].astype(bool), fields[:, 2].astype(bool)

        # leaving: both, or one the other's weapon does not reach, leave freely; else the stayer's free attack
        one = leave0 ^ leave1
        both = leave0 & leave1
        if both.any():
            t = s[both].copy()
            t[:, FATE] = LEFT_CODE
            t[:, FATE + 1] = LEFT_CODE
            done.append((t, p[both]))
        if one.any():
            t, q = s[one], p[one]
            leaver = np.where(leave0[one], 0, 1)
            free = self.leave_free[1 - leaver, t[:, DIST]]
            if free.any():
                u = t[free].copy()
                u[np.arange(len(u)), FATE + leaver[free]] = LEFT_CODE
                done.append((u, q[free]))
            if (~free).any():
                u, uq, up, _ = self._strike_rows("free", t[~free], q[~free], 1 - leaver[~free], True)
                who = leaver[~free][up]
                fighting = u[np.arange(len(u)), FATE + who] == 0
                u[np.flatnonzero(fighting), FATE + who[fighting]] = LEFT_CODE
                done.append((u, uq))
        stay = ~(leave0 | leave1)
        s, p = s[stay], p[stay]

        # initiative: kept, or the table, or a contest (nobody: both regain Gard)
        pens = self.pens(s[:, DAZE : DAZE + 2])
        parent, fields, w = self._expand(
            "initiative",
            [s[:, DIST], s[:, HOLDER] + 1, s[:, REDECIDE], -pens[:, 0], -pens[:, 1]],
            s,
            lambda r: _initiative_table(m, r),
        )
        s, p = s[parent].copy(), p[parent] * w
        att = fields[:, 0]
        s[:, HOLDER] = fields[:, 1]
        s[:, REDECIDE] = fields[:, 2]
        nobody = att < 0
        if nobody.any():
            done.append((self._regained(s[nobody]), p[nobody]))
        s, p, att = s[~nobody], p[~nobody], att[~nobody]

        # the attacker's choice (attack or regain), the defender's (defend or counter)
        pens = self.pens(s[:, DAZE : DAZE + 2])
        parent, fields, w = self._expand(
            "choices",
            [att, s[:, DIST], -pens[:, 0], -pens[:, 1], s[:, GARD], s[:, GARD + 1]],
            np.column_stack([s, att]),
            lambda r: _choice_table(m, r[:SIZE], r[-1]),
        )
        s, p, att = s[parent], p[parent] * w, att[parent]
        kind = fields[:, 0]
        regain = kind == 0
        if regain.any():
            done.append((self._regained(s[regain]), p[regain]))
        grounds: list[tuple[Rows, Floats, Rows, Rows]] = []

        # the attack against the defence roll(s)
        defend = kind == 1
        if defend.any():
            t, q, a = s[defend], p[defend], att[defend]
            k = np.arange(len(t))
            pen_a, pen_d = self.pens(t[k, DAZE + a]), self.pens(t[k, DAZE + 1 - a])
            gard_d = t[k, GARD + 1 - a]
            parent, fields, w = self._expand(
                "defended",
                [a, -pen_a, -pen_d, gard_d],
                np.column_stack([a, pen_a, pen_d, gard_d]),
                lambda r: _defended_table(m, r[0], r[1], r[2], r[3]),
            )
            t, q, a = t[parent].copy(), q[parent] * w, a[parent]
            hit = fields[:, 1] >= 0
            if hit.any():
                sub = t[hit]
                self._hurt(sub, 1 - a[hit], fields[hit, 1], fields[hit, 2], fields[hit, 3], sub[:, HOLDER].copy())
                t[hit] = sub
            grounds.append((t, q, a, fields[:, 0]))

        # the counter-attack: the attack, then (the defender still standing) the strike back
        counter = kind == 2
        if counter.any():
            t, q, up, succeeded = self._strike_rows("strike", s[counter], p[counter], att[counter], False)
            a = att[counter][up]
            standing = t[np.arange(len(t)), FATE + 1 - a] == 0
            if (~standing).any():
                grounds.append((t[~standing], q[~standing], a[~standing], succeeded[~standing]))
            countered = (t[standing], q[standing], a[standing], succeeded[standing])
        else:
            none = np.zeros(0, dtype=np.int64)
            countered = (np.zeros((0, width), dtype=np.int64), np.zeros(0), none, none)
        self._gain_ground(grounds, done)
        rows = np.concatenate([d[0] for d in done]) if done else np.zeros((0, width), dtype=np.int64)
        probs = np.concatenate([d[1] for d in done]) if done else np.zeros(0)
        return rows, probs, countered

    def strike_back(self, t: Rows, q: Floats, a: Rows, succeeded: Rows) -> tuple[Rows, Floats]:
        """The countering defender's strike back on the attacker ``a``, then gaining ground (``succeeded``: the
        first attack's success): the round's end rows, not merged."""
        done: list[tuple[Rows, Floats]] = []
        u, uq, back, _ = self._strike_rows("strike", t, q, 1 - a, False)
        self._gain_ground([(u, uq, a[back], succeeded[back])], done)
        rows = np.concatenate([d[0] for d in done]) if done else np.zeros((0, t.shape[1]), dtype=np.int64)
        probs = np.concatenate([d[1] for d in done]) if done else np.zeros(0)
        return rows, probs

    def _gain_ground(self, grounds: list[tuple[Rows, Floats, Rows, Rows]], done: list[tuple[Rows, Floats]]) -> None:
        """Vinna terräng: a successful attacker with both standing may move the distance (rows into ``done``)."""
        m = self.model
        for t, q, a, succeeded in grounds:
            go = succeeded.astype(bool) & (t[:, FATE] == 0) & (t[:, FATE + 1] == 0)
            if (~go).any():
                done.append((t[~go], q[~go]))
            if go.any():
                u, uq, ua = t[go], q[go], a[go]
                parent, fields, w = self._expand(
                    "ground",
                    [ua, u[:, DIST]],
                    np.column_stack([u, ua]),
                    lambda r: _ground_table(m, r[:SIZE], r[-1]),
                )
                u, uq = u[parent].copy(), uq[parent] * w
                changed = fields[:, 0] != u[:, DIST]
                u[:, DIST] = fields[:, 0]
                u[changed, REDECIDE] |= fields[changed, 1]
                done.append((u, uq))

    def _regained(self, s: Rows) -> Rows:
        """Both regain one Gard (``rules.regain_gard``)."""
        t = s.copy()
        for i in (0, 1):
            t[:, GARD + i] = R.regain_gard(t[:, GARD + i], int(self.gard_max[i]))
        return t

    # ---- the push ---------------------------------------------------------------------------------------------------
    def run(
        self,
        starts: Sequence[tuple[Hashable, float | Fraction]],
        max_live: int,
        leftover: float = LEFTOVER,
    ) -> Propagated:
        """The mass of the weighted compact ``starts`` (each with its own clock) pushed to its ends or the cap.

        Raises :class:`TooManyLive` once more than ``max_live`` round starts are alive after a round."""
        m = self.model
        cap = m.cap
        self.largest_merge = 1
        by_round: dict[int, list[tuple[Compact, float]]] = {}
        for c, w in starts:
            compact: Compact = tuple(c)  # type: ignore[arg-type]
            by_round.setdefault(int(compact[ROUNDS]), []).append((compact, float(w)))
        first, last_start = min(by_round), max(by_round)
        s = np.zeros((0, SIZE), dtype=np.int64)
        p = np.zeros(0)
        ends: dict[tuple[Hashable, int], float] = {}
        terms: dict[tuple[Hashable, int], int] = {}
        live: list[int] = []
        stopped_early = 0.0
        r = first
        while True:
            check_time()
            for c, w in by_round.get(r, []):
                label = m.end(c)
                if label is not None:
                    _add_end(ends, terms, label, r, w)
                    continue
                s = np.concatenate([s, np.array([[0, *c[1:]]], dtype=np.int64)])
                p = np.concatenate([p, [w]])
            if r >= cap or (r >= last_start and not len(p)):
                break
            if r >= last_start and float(p.sum()) < leftover:
                stopped_early = float(p.sum())
                break
            s, p = self._step(s, p, r + 1, ends, terms, max_live, live, capped=r + 1 >= cap)
            r += 1
            live.append(len(s))
        for row, w in zip(s.tolist(), p.tolist(), strict=True):
            _add_end(ends, terms, m.at_cap(tuple(row)), cap, w)
        rounds = len(live)
        # per round: the phases' roundings, and three merges on a row's way (after the first strike of a counter,
        # within its chunk, across the chunks); then the sums into each (label, rounds) and over the rounds
        n = rounds * (ROUNDINGS_PER_ROUND + 3 * (self.largest_merge - 1)) + max(terms.values(), default=1) + rounds
        bound = n * UNIT_ROUNDOFF / (1 - n * UNIT_ROUNDOFF)
        return Propagated(ends, bound, stopped_early, rounds, live, max(live, default=0))

    def _step(
        self,
        s: Rows,
        p: Floats,
        r: int,
        ends: dict[tuple[Hashable, int], float],
        terms: dict[tuple[Hashable, int], int],
        max_live: int,
        live: list[int],
        capped: bool = False,
    ) -> tuple[Rows, Floats]:
        """Round ``r`` of every live row, :data:`CHUNK` rows at a time (a round multiplies the rows by up to some
        five hundred before they merge): the ends summed into ``ends``, the next live rows merged. Raises
        :class:`TooManyLive` as soon as the rows merged so far are more than ``max_live`` (they only grow).

        In the ``capped`` round (the last before the round cap) the rows still going end at the cap, and their label
        reads Omtöckning, wounds and fates only: the other columns are cleared before they merge, so the rows are
        never more than those labels and the last round is never refused."""
        rows: list[Rows] = []
        probs: list[Floats] = []
        held = 0
        for at in range(0, len(s), CHUNK):
            check_time()
            t, q = self.round(s[at : at + CHUNK], p[at : at + CHUNK])
            over = (t[:, FATE] != 0) | (t[:, FATE + 1] != 0)
            if over.any():
                self._ends(t[over], q[over], r, ends, terms)
            t, q = t[~over], q[~over]
            if capped:
                t[:, 1:DAZE] = 0
            t, q = self._merge(t, q)
            rows.append(t)
            probs.append(q)
            held += len(t)
            if held > max_live:  # merge what is held: beyond the limit already, the round need not finish
                merged = self._merge(np.concatenate(rows), np.concatenate(probs))
                if len(merged[0]) > max_live:
                    done = at + CHUNK >= len(s)
                    raise TooManyLive(r, len(merged[0]), max_live, [*live, len(merged[0])], done)
                rows, probs, held = [merged[0]], [merged[1]], len(merged[0])
        merged = self._merge(np.concatenate(rows), np.concatenate(probs)) if len(rows) != 1 else (rows[0], probs[0])
        if len(merged[0]) > max_live:
            raise TooManyLive(r, len(merged[0]), max_live, [*live, len(merged[0])], True)
        return merged

    def _ends(
        self,
        t: Rows,
        q: Floats,
        r: int,
        ends: dict[tuple[Hashable, int], float],
        terms: dict[tuple[Hashable, int], int],
    ) -> None:
        """Rows that ended in round ``r``: summed by what their label reads (Omtöckning, wounds, fates)."""
        part = t[:, DAZE:]
        code = _codes(list(part.T))
        uniq, first, inv = np.unique(code, return_index=True, return_inverse=True)
        sums = np.bincount(inv, weights=q, minlength=len(uniq))
        many = np.bincount(inv, minlength=len(uniq))
        m = self.model
        for i, w, k in zip(first.tolist(), sums.tolist(), many.tolist(), strict=True):
            label = m.end(_cleared((r, 0, 0, 0, 0, 0, *part[i].tolist())))
            _add_end(ends, terms, label, r, w, k)

    def _merge(self, t: Rows, q: Floats) -> tuple[Rows, Floats]:
        """Equal rows as one, their probabilities summed."""
        if not len(t):
            return t, q
        code = _codes(list(t.T))
        uniq, first, inv = np.unique(code, return_index=True, return_inverse=True)
        many = np.bincount(inv, minlength=len(uniq))
        self.largest_merge = max(self.largest_merge, int(many.max()))
        summed: Floats = np.asarray(np.bincount(inv, weights=q, minlength=len(uniq)), dtype=np.float64)
        return t[first], summed


def _add_end(
    ends: dict[tuple[Hashable, int], float],
    terms: dict[tuple[Hashable, int], int],
    label: Hashable,
    r: int,
    w: float,
    k: int = 1,
) -> None:
    key = (label, r)
    ends[key] = ends.get(key, 0.0) + w
    terms[key] = terms.get(key, 0) + k


def _merged_with(t: Rows, q: Floats, a: Rows, succeeded: Rows, prop: Propagator) -> tuple[Rows, Floats, Rows, Rows]:
    """Rows after the first strike of a counter merged (with who attacked and whether it succeeded as columns)."""
    width = t.shape[1]
    wide = np.column_stack([t, a, succeeded.astype(np.int64)])
    rows, probs = prop._merge(wide, q)
    return rows[:, :width].copy(), probs, rows[:, width].copy(), rows[:, width + 1].copy()


def _codes(columns: Sequence[Rows]) -> Rows:
    """One int64 per row from small non-negative-shifted int columns (mixed radix over each column's range)."""
    code = np.zeros(len(columns[0]) if len(columns) else 0, dtype=np.int64)
    scale = 1
    for col in columns:
        col = np.asarray(col, dtype=np.int64)
        if not len(col):
            return code
        low, high = int(col.min()), int(col.max())
        span = high - low + 1
        if span == 1:
            continue
        if scale * span >= 2**62:
            raise OverflowError("the rows' columns span more than an int64")  # not met by a duel's small ints
        code += (col - low) * scale
        scale *= span
    return code


def unique_rows(keys: Rows) -> tuple[Rows, Rows]:
    """``np.unique(keys, axis=0, return_inverse=True)``, the rows coded as one int64 each first: the same sorted
    rows (the first column most significant) and inverse, without sorting rows as opaque bytes (ten times slower
    on the block solve's tables). Rows whose columns span more than an int64 take numpy's way."""
    if not len(keys):
        return keys, np.zeros(0, dtype=np.int64)
    try:
        code = _codes(list(keys.T[::-1]))
    except OverflowError:
        uniq, inv = np.unique(keys, axis=0, return_inverse=True)
        return uniq, inv.ravel()
    _, first, inv = np.unique(code, return_index=True, return_inverse=True)
    found: Rows = keys[first]
    return found, inv.ravel()


# ---- the phases' branches, from the compact model's own tables ------------------------------------------------------
def _move_table(m: LevaldModel, s: list[int]) -> list[tuple[tuple[int, ...], float]]:
    """Both secret markers and, where the wishes differ, the contest: (distance after, leaves 0, leaves 1)."""
    out: dict[tuple[int, ...], float] = {}
    for kinds, count in m._wishes(s):
        w = count / CHOICE**2
        wish = (R.WISH[kinds[0]], R.WISH[kinds[1]])
        leaves = (int(kinds[0] == "leave"), int(kinds[1] == "leave"))
        if wish[0] == wish[1]:
            ways = [(R.movement_change(wish[0], wish[1], None, m.options.step_size), 1.0)]
        else:
            ways = [
                (R.movement_change(wish[0], wish[1], winner, m.options.step_size), k / ROLL**2)
                for winner, k in m._contest(s)
            ]
        for change, k in ways:
            key = (R.move(s[DIST], change, m.last), *leaves)
            out[key] = out.get(key, 0.0) + w * k
    return list(out.items())


def _initiative_table(m: LevaldModel, s: list[int]) -> list[tuple[tuple[int, ...], float]]:
    """(attacker or −1 for nobody, the holder after, why to decide afresh after) as ``model._initiative``."""
    holder, redecide = s[HOLDER], s[REDECIDE]
    f = m.fighters
    d = m.scale_index[s[DIST]]
    if holder >= 0 and not redecide and R.keeps_initiative(d, f[holder].length):
        return [((holder, holder, redecide), 1.0)]
    only_damaged = redecide == DAMAGED and holder >= 0
    damaged_roll = only_damaged and m.options.holder_damaged == "roll"
    decision = R.initiative_afresh(R.reach(d, f[0].length), R.reach(d, f[1].length), damaged_roll)
    if decision == "none":
        return [((-1, -1, redecide or MOVED), 1.0)]
    if decision == "roll":
        t = s.copy()
        t[REDECIDE] = 0
        return [((-1, -1, MOVED) if w is None else (w, w, 0), k / ROLL**2) for w, k in m._contest(t)]
    att = 0 if decision == "a" else 1
    return [((att, att, 0), 1.0)]


def _choice_table(m: LevaldModel, s: list[int], att: int) -> list[tuple[tuple[int, ...], float]]:
    """The attacker's choice then the defender's: 0 regain, 1 defend, 2 counter."""
    t = s.copy()
    t[HOLDER] = att
    out: list[tuple[tuple[int, ...], float]] = []
    for kind, count in m._attacker_choice(t, att):
        if kind == "regain":
            out.append(((0,), count / CHOICE))
            continue
        for defence, k in m._defender_choice(t, att):
            out.append(((2 if defence == "counter" else 1,), count * k / CHOICE**2))
    return out


def _hit_fields(succeeded: bool, hit: Any) -> tuple[int, int, int, int]:
    """(succeeded, Gard left or −1 for no hit, wound, Omtöckning gained)."""
    if hit is None:
        return (int(succeeded), -1, R.NO_WOUND, 0)
    return (int(succeeded), *hit)


def _strike_table(m: LevaldModel, src: int, pen: int, gard: int, leave: bool) -> list[tuple[tuple[int, ...], float]]:
    target = m.fighters[src].attack_base + pen
    return [
        (_hit_fields(ok, hit if ok else None), k / m.strike_total)
        for (ok, hit), k in m._strike(src, 1 - src, target, gard, leave)
    ]


def _defended_table(m: LevaldModel, att: int, pen_a: int, pen_d: int, gard: int) -> list[tuple[tuple[int, ...], float]]:
    f = m.fighters
    target, defence = f[att].attack_base + pen_a, f[1 - att].defence_base + pen_d
    ways = m._defended(att, 1 - att, target, defence, gard)
    return [(_hit_fields(ok, hit), k / m.defended_total) for (ok, hit), k in ways]


def _ground_table(m: LevaldModel, s: list[int], att: int) -> list[tuple[tuple[int, ...], float]]:
    """Vinna terräng: (distance after, the flag to set) as ``model._ground`` tabulates it."""
    here = s[DIST]
    if (att, here) not in m._grounds:
        m._ground(s, CHOICE, {}, att, True)
    return [((there, redecide), count / CHOICE) for there, redecide, count in m._grounds[att, here]]


Kept = TypeVar("Kept")


def kept_on(model: LevaldModel, name: str, make: Callable[[LevaldModel], Kept]) -> Kept:
    """A solver made once per model and kept on it (its tables are the model's groups, filled once)."""
    found: Kept | None = getattr(model, name, None)
    if found is None:
        found = make(model)
        setattr(model, name, found)
    return found


def propagator(model: LevaldModel) -> Propagator:
    """The model's propagator, kept on it."""
    return kept_on(model, "_propagator", Propagator)
