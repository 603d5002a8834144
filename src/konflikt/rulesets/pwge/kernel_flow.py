"""PWGE conflicts as array operations, the exact-odds model's engine: every conflict is a row, every decision node
and roll a masked step.

The model (:mod:`.model_rows`) makes each row a branch with an exact weight and splits it at every roll into all
the roll's outcomes; simulation plays the same rules one conflict at a time in :mod:`.kernel_loop`. Both read the
heuristic's answers from :mod:`.kernel_tables` and decide every step by the one copy of its arithmetic in
:mod:`.kernel_rules` (called here on arrays, there compiled for scalars); what each engine has of its own is the
order of the steps — a handler per phase here, a call per step there — and the state's layout. The loop's replays of
the reference's dice and the model's fractions against the State API test each.

Each conflict carries a phase code mirroring :class:`PwgeState`'s phases and sub-stages (the open floor, counter,
response, counter to the response, order, the contest's rolls and its topping, the damage roll's top /
counter-top / counter-counter-top). One pass of :meth:`Conflicts.sweep` runs every phase's handler over the
conflicts in that phase; a handler that stands for a decision or a roll counts one step, exactly where the State
records one, so the conflict length is the reference runner's ``len(state.steps())``. Automatic phases (resolving
the queue, the contest's and the damage roll's bookkeeping) count nothing, like :func:`resolution.advance`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from konflikt.rulesets.pwge import kernel_rules as R
from konflikt.rulesets.pwge.kernel_rules import DEADLOCK, GOAL, POOLS, RESPONSE_FIRST, SIM
from konflikt.rulesets.pwge.kernel_tables import CLOSER, FARTHER, NO_KEY, NONE, PRESS, Tables

Int = np.ndarray


class Phase(IntEnum):
    """Where each conflict stands: :class:`PwgeState`'s phases and the sub-stages of its contests and damage rolls.

    A handler of :meth:`Conflicts.sweep` runs over the conflicts in one phase. Decisions and rolls (the State's
    steps) are ``OPEN``, ``FREE``, ``COUNTER``, ``RESPONSE``, ``CRESP``, ``ORDER``, ``CROLL``, ``CASK``, ``DROLL``,
    ``DATT``, ``DDEF`` and ``DCCT``; ``RESOLVE``, ``CCHECK`` and ``DAUTO`` are bookkeeping; ``DONE`` has ended.
    """

    OPEN = 0
    """The floor: its holder buys a handling (action) or passes."""
    COUNTER = 1
    """The target may buy a mothandling (counter)."""
    RESPONSE = 2
    """The target may buy a svarshandling (response)."""
    CRESP = 3
    """The actor may counter the response."""
    ORDER = 4
    """Both may bid for turordning (order), secretly."""
    CROLL = 5
    """A contest's 2T roll is due."""
    CASK = 6
    """The one behind in a contest decides whether to top."""
    DROLL = 7
    """The skadeslag (damage roll) is due."""
    DATT = 8
    """The attacker may top the damage roll."""
    DDEF = 9
    """The defender may mot-toppa (counter-top)."""
    DCCT = 10
    """The attacker answers a counter-top: mot-mot-toppa or reroll."""
    RESOLVE = 11
    """The exchange's deeds resolve in order."""
    CCHECK = 12
    """A contest's rolls are in: who is behind, and may they top?"""
    DAUTO = 13
    """The damage roll's stages nobody can take are skipped."""
    DONE = 14
    """The conflict has ended."""
    FREE = 15
    """A surpriser's frislag (free attack)."""


SPENDING_PHASES = frozenset(
    {Phase.OPEN, Phase.COUNTER, Phase.RESPONSE, Phase.CRESP, Phase.ORDER, Phase.CASK}
    | {Phase.DATT, Phase.DDEF, Phase.DCCT, Phase.DAUTO}
)
"""The phases whose handlers may empty a pool (a spend, or damage's token loss): the dry sides are noted after."""
ATTACKER, DEFENDER, CCT = range(3)
"""The skadeslag's stages: the attacker's top, the defender's mot-toppa, the attacker's answer to it."""


def at(a: Int, idx: Int, p: Int | int) -> Int:
    """``a[idx, p]`` of a row-major 2-D array, through its flat view (2-D fancy indexing is ~3× slower)."""
    result: Int = np.take(a.reshape(-1), idx * a.shape[1] + p)
    return result


def cells(a: Int, idx: Int, p: Int | int) -> tuple[Int, Int]:
    """The flat view of a row-major 2-D array and the positions of ``a[idx, p]`` in it, for writing."""
    return a.reshape(-1), idx * a.shape[1] + p


def at3(a: Int, idx: Int, p: Int, q: Int | int) -> Int:
    """``a[idx, p, q]`` of a row-major 3-D array, through its flat view."""
    result: Int = np.take(a.reshape(-1), (idx * a.shape[1] + p) * a.shape[2] + q)
    return result


@dataclass
class Opening:
    """Where every conflict starts: the state after its fixed first steps (a surprise's starting distances).

    Attributes:
        tokens, xp, body: per participant.
        dist: the distance code of every pair, as a matrix.
        phase: ``Phase.OPEN`` (the floor with ``floor``) or ``Phase.FREE`` (the frislag of surpriser number ``sp``).
        surprisers: the surprising side's participants, in order (empty without a surprise).
        steps: steps already taken (each surpriser's choice of starting distance).
        actions: handlingar already declared (none: the opening holds no action).
    """

    tokens: list[int]
    xp: list[int]
    body: list[int]
    dist: Int
    floor: int
    phase: int = Phase.OPEN
    sp: int = 0
    surprisers: tuple[int, ...] = ()
    steps: int = 0
    actions: int = 0


class Conflicts:
    """The arrays of ``n`` conflicts of one scenario (participants numbered as the state numbers them).

    Args:
        t: the scenario's tables.
        start: where every conflict starts.
        goal: the side that reached its goal, per conflict (``NONE``: nobody yet).
    """

    def __init__(
        self,
        n: int,
        t: Tables,
        rng: np.random.Generator,
        *,
        start: Opening,
        goal: Callable[[Conflicts, Int], Int],
        scoring_moves: bool,
        meets_closing: bool,
        dodge_keeps: bool,
        max_tops: int,
    ) -> None:
        self.t, self.rng, self.goal = t, rng, goal
        self.scoring_moves, self.dodge_keeps, self.max_tops = scoring_moves, dodge_keeps, max_tops
        self.meets_closing = meets_closing
        """Physical conflicts: a response to an uncountered closing is made where the closing lands."""
        z = np.zeros(n, dtype=np.int64)
        self.surprisers = np.array(start.surprisers, dtype=np.int64)
        self.ids = np.arange(n)
        self.tok = np.tile(np.array(start.tokens, dtype=np.int64), (n, 1))
        self.xp = np.tile(np.array(start.xp, dtype=np.int64), (n, 1))
        self.body = np.tile(np.array(start.body, dtype=np.int64), (n, 1))
        self.wnd = np.zeros((n, t.people), dtype=np.int64)
        self.out = self.body <= 0
        """Out of the conflict; from the start when earlier damage left no body points."""
        self.pts = np.zeros((n, t.sides), dtype=np.int64)
        self.dry_rank = np.full((n, t.sides), NONE, dtype=np.int64)
        """When each side's pools ran dry: the number of the step group (:attr:`PwgeState.dry_order`), NONE: not."""
        self.dry_groups = z.copy()
        self.dist = np.tile(start.dist.astype(np.int16), (n, 1, 1))
        """Every pair's distance code (a matrix per conflict; int16 keeps large sides small in memory)."""
        self.phase = z + start.phase
        self.floor = z + start.floor
        self.sp = z + start.sp
        self.passes = z.copy()
        self.steps = z + start.steps
        self.actions = z + start.actions
        """Handlingar (actions) declared, frislag included: the length in the text's unit (``PwgeState.actions``)."""
        self.ending = z + NONE
        self.winner = z + NONE
        # the exchange: the action (actor → target), the response, the order and the queue position
        self.actor, self.target, self.akind, self.rkind = z.copy(), z.copy(), z.copy(), z + NONE
        self.acount = np.zeros(n, dtype=bool)
        self.rcount = np.zeros(n, dtype=bool)
        self.free = np.zeros(n, dtype=bool)
        self.r_at = z + NONE
        """The distance code a response is made at when it meets someone closing in (NONE: the usual one)."""
        self.snap, self.order, self.pos = z.copy(), z.copy(), z.copy()
        self.together = np.zeros(n, dtype=bool)
        """An action and its response resolving samtidigt (simultaneously): the sides they empty are noted together
        when the exchange ends (:meth:`PwgeState.deeds_together`)."""
        # the contest: roles a and b (b = NONE for a difficulty), modifiers, rolls, which are made, tops, declined
        self.c_order = np.zeros(n, dtype=bool)
        self.c_a, self.c_b = z.copy(), z.copy()
        self.c_mod = np.zeros((n, 2), dtype=np.int64)
        self.c_roll = np.zeros((n, 2), dtype=np.int64)
        self.c_rolled = np.zeros((n, 2), dtype=bool)
        """Whether each role's 2T is made (a total can be any number, −1 too: a move at a long diplomatic distance)."""
        self.c_tops = np.zeros((n, 2), dtype=np.int64)
        self.c_dec = np.zeros((n, 2), dtype=bool)
        self.c_ask = z.copy()
        # the damage roll
        self.d_att, self.d_def, self.d_mod, self.d_arm, self.d_roll = z.copy(), z.copy(), z.copy(), z.copy(), z.copy()
        self.d_stage, self.d_tops, self.d_ctops = z.copy(), z.copy(), z.copy()

    def take(self, keep: Int) -> None:
        """Keep only the conflicts at ``keep`` (finished ones leave the arrays)."""
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray) and name != "surprisers":
                setattr(self, name, value[keep])

    # ---- small helpers ---------------------------------------------------------------------------------------
    def can(self, idx: Int, p: Int | int) -> Int:
        """:meth:`PwgeState.can_spend`: standing with a token left."""
        k = idx * self.t.people + p
        able: Int = R.can_spend(np.take(self.out.reshape(-1), k), np.take(self.tok.reshape(-1), k))
        return able

    def purse(self, idx: Int, p: Int) -> Int:
        """What the heuristic counts as its purse: tokens plus experience dice."""
        k = idx * self.t.people + p
        total: Int = np.take(self.tok.reshape(-1), k) + np.take(self.xp.reshape(-1), k)
        return total

    def spend(self, idx: Int, p: Int) -> None:
        """Pay one token, or as the heuristic chooses an erfarenhetstärning (experience die) instead, while a token
        remains and the pool is down to :data:`DIE_WHEN_TOKENS`."""
        k = idx * self.t.people + p
        tok, xp = self.tok.reshape(-1), self.xp.reshape(-1)
        left = np.take(tok, k)
        use_xp = R.pays_with_die(left, np.take(xp, k))
        xp[k[use_xp]] -= 1
        tok[k[~use_xp]] -= 1

    def top_allowed(self, count: Int) -> Int:
        allowed: Int = R.top_allowed(self.max_tops, count)
        return allowed

    def roll(self, idx: Int, count: int) -> Int:
        """The sum of ``count`` d6 for each conflict at ``idx`` (2T: 2, 1T: 1)."""
        faces = self.rng.integers(1, 7, size=(len(idx), count))
        total: Int = faces.sum(axis=1)
        return total

    def set_pair(self, idx: Int, p: Int, q: Int, code: Int) -> None:
        people = self.t.people
        flat = self.dist.reshape(-1)
        flat[(idx * people + p) * people + q] = code
        flat[(idx * people + q) * people + p] = code

    # ---- endings -----------------------------------------------------------------------------------------------
    def finish(self, idx: Int, ending: int, winner: Int | int) -> None:
        self.ending[idx] = ending
        self.winner[idx] = winner
        self.phase[idx] = Phase.DONE

    def wet(self, idx: Int) -> Int:
        """Per conflict at ``idx`` and side: whether the side has a standing member who can still spend."""
        result = np.zeros((len(idx), self.t.sides), dtype=bool)
        for p in range(self.t.people):
            result[:, self.t.side[p]] |= self.can(idx, p)
        return result

    def note_dry(self, idx: Int, wet: Int | None = None) -> None:
        """:meth:`PwgeState.note_dry_sides`: the sides newly dry in this step form the next group (not while an
        action and its response resolve together: they are noted when the exchange ends)."""
        apart = ~self.together[idx]
        if not apart.all():
            idx = idx[apart]
            wet = None if wet is None else wet[apart]
        dry = ~(self.wet(idx) if wet is None else wet)
        some = dry.any(axis=1)  # the usual case: every side can still spend
        if not some.any():
            return
        idx, dry = idx[some], dry[some]
        rank = self.dry_rank[idx]
        newly = dry & (rank == NONE)
        self.dry_rank[idx] = np.where(newly, self.dry_groups[idx, None], rank)
        self.dry_groups[idx[newly.any(axis=1)]] += 1

    def check(self, idx: Int) -> Int:
        """:func:`endings.check`: a goal; else, once some side is dry, all but one dry (pools exhausted: the one
        left wins), or every side dry: the one that ran dry alone and last wins, if any ran dry before it, else a
        deadlock; True = ended."""
        side = self.goal(self, idx)
        won = side >= 0
        self.finish(idx[won], GOAL, side[won])
        wet = self.wet(idx)
        self.note_dry(idx, wet)
        count = wet.sum(axis=1)
        rank = self.dry_rank[idx]
        last = self.dry_groups[idx] - 1
        in_last = rank == last[:, None]
        alone_last = (in_last.sum(axis=1) == 1) & (last > 0)
        none = ~won & (count == 0)
        self.finish(idx[none & alone_last], POOLS, np.argmax(in_last, axis=1)[none & alone_last])
        self.finish(idx[none & ~alone_last], DEADLOCK, NONE)
        one = ~won & (count == 1) & (self.t.sides > 1)
        self.finish(idx[one], POOLS, np.argmax(wet, axis=1)[one])
        ended: Int = won | none | one
        return ended

    def open_floor(self, idx: Int, start: Int) -> None:
        """The floor goes to the first participant able to act from ``start`` round the table."""
        people = self.t.people
        found = np.zeros(len(idx), dtype=bool)
        for k in range(people):
            who = (start + k) % people
            take = ~found & self.can(idx, who)
            self.floor[idx[take]] = who[take]
            found |= take
        self.phase[idx] = Phase.OPEN
        none = idx[~found]
        if len(none):
            self.phase[none] = Phase.DONE
            rest = none[~self.check(none)]
            self.finish(rest, DEADLOCK, NONE)

    # ---- the open table and declarations ------------------------------------------------------------------------
    def on_open(self, idx: Int) -> None:
        t = self.t
        self.steps[idx] += 1
        i = self.floor[idx]
        best = np.full(len(idx), NO_KEY, dtype=np.int64)
        target = np.zeros(len(idx), dtype=np.int64)
        for q in range(t.people):
            valid = t.foe[i, q] & ~self.out[idx, q]
            key = t.open_key[i, q, at3(self.dist, idx, i, q), self.can(idx, q).astype(np.int64)]
            better = valid & (key > best)
            best = np.where(better, key, best)
            target = np.where(better, q, target)
        where = (i, target, at3(self.dist, idx, i, target), self.can(idx, target).astype(np.int64))
        acting = R.buys(self.purse(idx, i), best, t.open_worth[where])
        choice = np.where(acting, t.open_deed[where], NONE)
        passing = ~acting
        pi, who = idx[passing], i[passing]
        self.passes[pi] += 1
        able = self.can(pi, 0).astype(np.int64)
        for p in range(1, t.people):
            able += self.can(pi, p)
        stuck = self.passes[pi] >= able
        self.finish(pi[stuck], DEADLOCK, NONE)
        self.open_floor(pi[~stuck], who[~stuck] + 1)
        d, a, j = idx[acting], i[acting], target[acting]
        self.passes[d] = 0
        self.spend(d, a)
        self.declare(d, a, j, choice[acting], free=False)

    def declare(self, d: Int, a: Int, j: Int, kind: Int, *, free: bool) -> None:
        """A handling (action) or frislag (free attack) from ``a`` at ``j``: the target may counter it."""
        self.actor[d], self.target[d], self.akind[d], self.rkind[d] = a, j, kind, NONE
        self.acount[d] = False
        self.rcount[d] = False
        self.free[d] = free
        self.actions[d] += 1
        self.snap[d], self.order[d], self.pos[d] = at3(self.dist, d, a, j), SIM, 0
        answers = self.can(d, j)
        self.phase[d[answers]] = Phase.COUNTER
        self.after_counter(d[~answers])

    def on_free(self, idx: Int) -> None:
        """A surpriser's frislag (free attack): the heuristic's best reachable one, or none."""
        t = self.t
        self.steps[idx] += 1
        i = self.surprisers[self.sp[idx]]
        best = np.full(len(idx), NO_KEY, dtype=np.int64)
        target = np.zeros(len(idx), dtype=np.int64)
        for q in range(t.people):
            valid = t.foe[i, q] & ~self.out[idx, q]
            key = t.free_key[i, q, at3(self.dist, idx, i, q), self.can(idx, q).astype(np.int64)]
            better = valid & (key > best)
            best = np.where(better, key, best)
            target = np.where(better, q, target)
        attacks = best > NO_KEY
        self.next_surpriser(idx[~attacks])
        d, a, j = idx[attacks], i[attacks], target[attacks]
        kind = t.free_deed[a, j, at3(self.dist, d, a, j), self.can(d, j).astype(np.int64)]
        self.declare(d, a, j, kind, free=True)

    def next_surpriser(self, idx: Int) -> None:
        """The next surpriser still standing has its frislag; after the last, the floor opens at the first seat."""
        count = len(self.surprisers)
        self.sp[idx] += 1
        waiting = idx
        while len(waiting):
            past = self.sp[waiting] >= count
            self.open_floor(waiting[past], np.zeros(int(past.sum()), dtype=np.int64))
            waiting = waiting[~past]
            down = self.out[waiting, self.surprisers[self.sp[waiting]]]
            self.phase[waiting[~down]] = Phase.FREE
            waiting = waiting[down]
            self.sp[waiting] += 1

    def after_counter(self, idx: Int) -> None:
        may = ~self.free[idx] & self.can(idx, self.target[idx])
        self.phase[idx[may]] = Phase.RESPONSE
        self.to_order(idx[~may])

    def to_order(self, idx: Int) -> None:
        bid = (self.rkind[idx] != NONE) & (self.can(idx, self.actor[idx]) | self.can(idx, self.target[idx]))
        self.phase[idx[bid]] = Phase.ORDER
        self.queue(idx[~bid])

    def queue(self, idx: Int) -> None:
        self.pos[idx] = 0
        self.together[idx] = (self.rkind[idx] != NONE) & (self.order[idx] == SIM)
        self.phase[idx] = Phase.RESOLVE

    def on_counter(self, idx: Int, response: bool) -> None:
        t = self.t
        self.steps[idx] += 1
        a, j = self.actor[idx], self.target[idx]
        me, them = (a, j) if response else (j, a)
        kind = self.rkind[idx] if response else self.akind[idx]
        table = t.counter_response if response else t.counter
        other = self.can(idx, them).astype(np.int64)
        rich = R.rich_band(self.purse(idx, me))
        yes = table[me, them, at3(self.dist, idx, me, them), kind, other, rich]
        self.spend(idx[yes], me[yes])
        if response:
            self.rcount[idx[yes]] = True
            self.to_order(idx)
        else:
            self.acount[idx[yes]] = True
            self.after_counter(idx)

    def on_response(self, idx: Int) -> None:
        self.steps[idx] += 1
        a, j = self.actor[idx], self.target[idx]
        other = self.can(idx, a).astype(np.int64)
        now = at3(self.dist, idx, j, a)
        reach = now
        if self.meets_closing:
            closing = (self.akind[idx] == CLOSER) & ~self.acount[idx]
            landing = self.t.step[a, j, 0, now]
            reach = np.where(closing & (landing != NONE), landing, now)
        wants = self.t.response[j, a, reach, other]
        choice = np.where(R.responds(self.purse(idx, j)), wants, NONE)
        some = choice != NONE
        r = idx[some]
        self.spend(r, j[some])
        self.rkind[r] = choice[some]
        meets = some & (choice < CLOSER) & (reach != now)
        self.r_at[idx] = np.where(meets, reach, NONE)
        answers = self.can(r, a[some])
        self.phase[r[answers]] = Phase.CRESP
        self.to_order(r[~answers])
        self.queue(idx[~some])

    def on_order(self, idx: Int) -> None:
        t = self.t
        self.steps[idx] += 1
        a, j = self.actor[idx], self.target[idx]
        both_move = R.both_move(self.akind[idx], self.rkind[idx])
        bids = []
        for p, foe in ((a, j), (j, a)):
            near = (at(self.body, idx, foe), t.top_damage[p, foe], at(self.tok, idx, foe))
            bids.append(R.bids(self.can(idx, p), self.purse(idx, p), *near) & ~both_move)
        first, second = bids
        for p, bid in ((a, first), (j, second)):
            self.spend(idx[bid], p[bid])
        roll = first & second
        r = idx[roll]
        self.c_order[r] = True
        self.c_a[r], self.c_b[r] = a[roll], j[roll]
        self.c_mod[r, 0], self.c_mod[r, 1] = t.attribute[a[roll]], t.attribute[j[roll]]
        self.begin_contest(r)
        single = ~roll
        self.order[idx[single]] = R.bid_order(first, second)[single]
        self.queue(idx[single])

    # ---- resolution ------------------------------------------------------------------------------------------
    def deed(self, idx: Int) -> tuple[Int, Int, Int, Int]:
        """The deed at the queue position: (its actor, its target, its kind, countered)."""
        first = self.order[idx] != RESPONSE_FIRST
        is_action = (self.pos[idx] == 0) == first
        a, j = self.actor[idx], self.target[idx]
        actor = np.where(is_action, a, j)
        target = np.where(is_action, j, a)
        kind = np.where(is_action, self.akind[idx], self.rkind[idx])
        countered = np.where(is_action, self.acount[idx], self.rcount[idx])
        return actor, target, kind, countered

    def on_resolve(self, idx: Int) -> None:
        while len(idx):
            self.resolve_once(idx)
            idx = idx[self.phase[idx] == Phase.RESOLVE]

    def resolve_once(self, idx: Int) -> None:
        t = self.t
        length = np.where(self.rkind[idx] == NONE, 1, 2)
        over = self.pos[idx] >= length
        self.end_exchange(idx[over])
        idx = idx[~over]
        da, dt, kind, countered = self.deed(idx)
        simultaneous = self.order[idx] == SIM
        gone = ~simultaneous & (self.pos[idx] > 0) & (at(self.out, idx, da) | at(self.out, idx, dt))
        self.pos[idx[gone]] += 1
        live = ~gone
        now = at3(self.dist, idx, da, dt)
        moving = live & ((kind == CLOSER) | (kind == FARTHER))
        target = t.step[da, dt, np.where(kind == FARTHER, 1, 0), now]
        fails = moving & (target == NONE)
        free = moving & ~fails & ~countered
        self.set_pair(idx[free], da[free], dt[free], target[free])
        self.pos[idx[fails | free]] += 1
        contested = moving & ~fails & countered
        pressing = live & (kind == PRESS)
        attacking = live & (kind < CLOSER)
        code = np.where(simultaneous, self.snap[idx], now)
        is_response = (self.pos[idx] == 0) == (self.order[idx] == RESPONSE_FIRST)
        meeting = is_response & (self.rkind[idx] != NONE) & (self.r_at[idx] != NONE)
        code = np.where(meeting, self.r_at[idx], code)
        weapon = np.minimum(kind, 1)
        reach = t.atk_ok[da, weapon, code]
        self.pos[idx[attacking & ~reach]] += 1
        attacking &= reach
        band = np.where(attacking, t.atk_band[da, weapon, code], 0)  # a move or a press has none
        a_mod = np.where(attacking, t.atk_mod[da, weapon, code], np.where(pressing, t.press_mod[da, now], 0))
        a_mod = np.where(contested, t.roll[da], a_mod)
        b_mod = R.defence_mod(band, countered, t.roll[dt], self.dodge_keeps)
        start = contested | pressing | attacking
        s = idx[start]
        self.c_order[s] = False
        self.c_a[s] = da[start]
        self.c_b[s] = np.where(countered, dt, NONE)[start]
        self.c_mod[s, 0], self.c_mod[s, 1] = a_mod[start], b_mod[start]
        self.begin_contest(s)

    def begin_contest(self, idx: Int) -> None:
        self.c_roll[idx] = 0  # no roll yet (cleared, so that rows in the same situation merge)
        self.c_rolled[idx] = False
        self.c_tops[idx] = 0
        self.c_dec[idx] = False
        self.phase[idx] = Phase.CROLL

    def end_exchange(self, idx: Int) -> None:
        self.together[idx] = False
        ended = self.check(idx)
        rest = idx[~ended]
        free = self.free[rest]
        self.next_surpriser(rest[free])
        rest = rest[~free]
        self.passes[rest] = 0
        self.open_floor(rest, self.actor[rest] + 1)

    # ---- the contest: rolls, topping, the result ------------------------------------------------------------------
    def on_contest_roll(self, idx: Int) -> None:
        self.steps[idx] += 1
        role = np.where(self.c_rolled[idx, 0], 1, 0)
        flat, k = cells(self.c_roll, idx, role)
        flat[k] = self.roll(idx, 2) + at(self.c_mod, idx, role)
        flat, k = cells(self.c_rolled, idx, role)
        flat[k] = True
        self.phase[idx[self.c_rolled[idx].all(axis=1)]] = Phase.CCHECK

    def result(self, idx: Int) -> Int:
        """0: a ahead; 1: b ahead (a tie holds for b); 2: a tie that decides nothing (the order roll)."""
        result: Int = R.contest_result(self.c_roll[idx, 0], self.c_roll[idx, 1], self.c_order[idx])
        return result

    def on_contest_check(self, idx: Int) -> None:
        res = self.result(idx)
        ok = np.zeros((len(idx), 2), dtype=bool)
        for role, person in ((0, self.c_a[idx]), (1, self.c_b[idx])):
            can = self.can(idx, np.maximum(person, 0))
            ok[:, role] = R.may_top(person, self.c_dec[idx, role], can, self.top_allowed(self.c_tops[idx, role]))
        ask_a = ((res == 1) | (res == 2)) & ok[:, 0]
        ask_b = ((res == 0) | ((res == 2) & ~ok[:, 0])) & ok[:, 1]
        asking = ask_a | ask_b
        self.c_ask[idx[asking]] = np.where(ask_a, 0, 1)[asking]
        self.phase[idx[asking]] = Phase.CASK
        self.contest_done(idx[~asking], res[~asking])

    def on_contest_ask(self, idx: Int) -> None:
        self.steps[idx] += 1
        role = self.c_ask[idx]
        me = np.where(role == 0, self.c_a[idx], self.c_b[idx])
        defending = (role == 1) & ~self.c_order[idx]
        own, other, tops = at(self.c_roll, idx, role), at(self.c_roll, idx, 1 - role), at(self.c_tops, idx, role)
        top = R.tops_contest(own, at(self.c_mod, idx, role), other, role == 0, tops, self.purse(idx, me), defending)
        tp = idx[top]
        self.spend(tp, me[top])
        self.c_dec[tp] = False
        flat, k = cells(self.c_tops, tp, role[top])
        flat[k] += 1
        flat, k = cells(self.c_roll, tp, role[top])
        flat[k] = 0
        flat, k = cells(self.c_rolled, tp, role[top])
        flat[k] = False
        self.phase[tp] = Phase.CROLL
        acc = idx[~top]
        flat, k = cells(self.c_dec, acc, role[~top])
        flat[k] = True
        self.phase[acc] = Phase.CCHECK

    def contest_done(self, idx: Int, res: Int) -> None:
        t = self.t
        ordering = self.c_order[idx]
        o = idx[ordering]
        self.order[o] = R.order_of(res[ordering])
        self.queue(o)
        idx, res = idx[~ordering], res[~ordering]
        self.phase[idx] = Phase.RESOLVE
        lost = res != 0
        self.pos[idx[lost]] += 1
        idx = idx[~lost]
        da, dt, kind, _ = self.deed(idx)
        moving = (kind == CLOSER) | (kind == FARTHER)
        target = t.step[da, dt, np.where(kind == FARTHER, 1, 0), at3(self.dist, idx, da, dt)]
        moved = moving & (target != NONE)
        self.set_pair(idx[moved], da[moved], dt[moved], target[moved])
        scoring = (kind == PRESS) & self.scoring_moves
        self.pts[idx[scoring], t.side[da[scoring]]] += 1
        self.pos[idx[moving | scoring]] += 1
        hit = ~moving & ~scoring
        h, ha, hd, hk = idx[hit], da[hit], dt[hit], kind[hit]
        self.d_att[h], self.d_def[h] = ha, hd
        self.d_mod[h] = t.damage_mod[ha, hk]
        self.d_arm[h] = np.where(hk == PRESS, 0, t.armour[hd])
        self.d_stage[h], self.d_tops[h], self.d_ctops[h] = ATTACKER, 0, 0
        self.phase[h] = Phase.DROLL

    # ---- the damage roll: top, counter-top, counter-counter-top ----------------------------------------------------
    def on_damage_roll(self, idx: Int) -> None:
        self.steps[idx] += 1
        self.d_roll[idx] = self.roll(idx, 1) + self.d_mod[idx]
        self.phase[idx] = Phase.DAUTO

    def on_damage_auto(self, idx: Int) -> None:
        att, dfd = self.d_att[idx], self.d_def[idx]
        first = self.d_stage[idx] == ATTACKER
        asks = first & self.can(idx, att) & self.top_allowed(self.d_tops[idx])
        self.phase[idx[asks]] = Phase.DATT
        self.d_stage[idx[first & ~asks]] = DEFENDER
        second = self.d_stage[idx] == DEFENDER
        asks = second & self.can(idx, dfd) & self.top_allowed(self.d_ctops[idx])
        self.phase[idx[asks]] = Phase.DDEF
        self.apply_damage(idx[second & ~asks])
        third = self.d_stage[idx] == CCT
        asks = third & self.can(idx, att)
        self.phase[idx[asks]] = Phase.DCCT
        again = idx[third & ~asks]
        self.d_stage[again] = ATTACKER
        self.phase[again] = Phase.DROLL

    def on_damage_attacker(self, idx: Int) -> None:
        self.steps[idx] += 1
        att = self.d_att[idx]
        top = R.tops_damage(self.d_roll[idx] - self.d_mod[idx], self.purse(idx, att))
        tp = idx[top]
        self.spend(tp, att[top])
        self.d_tops[tp] += 1
        self.phase[tp] = Phase.DROLL
        keep = idx[~top]
        self.d_stage[keep] = DEFENDER
        self.phase[keep] = Phase.DAUTO

    def on_damage_defender(self, idx: Int) -> None:
        self.steps[idx] += 1
        me = self.d_def[idx]
        points = R.damage_points(self.d_roll[idx], self.d_arm[idx])
        face = self.d_roll[idx] - self.d_mod[idx]
        body, purse = at(self.body, idx, me), self.purse(idx, me)
        worth = R.counter_tops(points, self.t.thresholds[1], body, face, purse, self.d_ctops[idx])
        w = idx[worth]
        self.spend(w, me[worth])
        self.d_ctops[w] += 1
        self.d_stage[w] = CCT
        self.phase[w] = Phase.DAUTO
        self.apply_damage(idx[~worth])

    def on_damage_answer(self, idx: Int) -> None:
        self.steps[idx] += 1
        att = self.d_att[idx]
        face = self.d_roll[idx] - self.d_mod[idx]
        keep = R.keeps_roll(face, self.purse(idx, att))
        k = idx[keep]
        self.spend(k, att[keep])
        self.d_stage[k] = DEFENDER
        self.phase[k] = Phase.DAUTO
        again = idx[~keep]
        self.d_stage[again] = ATTACKER
        self.phase[again] = Phase.DROLL

    def apply_damage(self, idx: Int) -> None:
        t = self.t
        j = self.d_def[idx]
        points = R.damage_points(self.d_roll[idx], self.d_arm[idx])
        level = R.wound_level(points, *t.thresholds)
        k = idx * t.people + j
        tok, body, wnd, out = (a.reshape(-1) for a in (self.tok, self.body, self.wnd, self.out))
        tok[k] = np.maximum(0, tok[k] - t.token_loss[level])
        body[k] -= points
        wnd[k] = np.maximum(wnd[k], level)
        out[k] |= body[k] <= 0
        self.pos[idx] += 1
        self.phase[idx] = Phase.RESOLVE

    # ---- driving ---------------------------------------------------------------------------------------------
    def sweep(self) -> None:
        """One pass over every phase's handler (a conflict may pass several in one sweep)."""
        handlers: tuple[tuple[int, Callable[[Int], None]], ...] = (
            (Phase.FREE, self.on_free),
            (Phase.OPEN, self.on_open),
            (Phase.COUNTER, lambda i: self.on_counter(i, False)),
            (Phase.RESPONSE, self.on_response),
            (Phase.CRESP, lambda i: self.on_counter(i, True)),
            (Phase.ORDER, self.on_order),
            (Phase.RESOLVE, self.on_resolve),
            (Phase.CROLL, self.on_contest_roll),
            (Phase.CCHECK, self.on_contest_check),
            (Phase.CASK, self.on_contest_ask),
            (Phase.CCHECK, self.on_contest_check),
            (Phase.RESOLVE, self.on_resolve),
            (Phase.DROLL, self.on_damage_roll),
            (Phase.DAUTO, self.on_damage_auto),
            (Phase.DATT, self.on_damage_attacker),
            (Phase.DDEF, self.on_damage_defender),
            (Phase.DCCT, self.on_damage_answer),
            (Phase.DAUTO, self.on_damage_auto),
        )
        for phase, handler in handlers:
            idx = np.flatnonzero(self.phase == phase)
            if len(idx):
                handler(idx)
                if phase in SPENDING_PHASES:
                    self.note_dry(idx)
