"""PWGE conflicts one at a time, handling by handling, in the order :class:`~.state.PwgeState` plays: a compiled loop.

A conflict is the open floor or a surpriser's frislag (free attack), then an exchange — the declaration, the
target's mothandling (counter), its svarshandling (response), the actor's counter to the response, the secret
turordning (order) bids and their roll, then each deed resolved in turn: a move, or a contest (2T each, the one
behind may top) and, for a hit, the skadeslag (damage roll) with its top, mot-toppa and mot-mot-toppa — then the
endings are checked and the floor moves on. Each of those is a function below of the same name, for one conflict.
A decision or a roll counts one step exactly where the State records one, so the length is the reference runner's
``len(state.steps())``; the dry sides are noted after every spend, as :meth:`PwgeState.note_dry_sides`.

The heuristic's choices are not restated: they are the answers of the real policy read once per feature combination
into :class:`~.kernel_tables.Tables` (which deed to buy, whether to counter or respond). What each step decides — who
can spend, how the heuristic pays, its threshold rules (reserve, topping worth 25 %, the order bids, mot-toppa and
mot-mot-toppa), who is ahead in a contest, the wound level of a hit — is :mod:`.kernel_rules`, written once for this
loop and for the exact model's array flow (:mod:`.kernel_flow`) and compiled here for scalars; what is the loop's own
is the order of the steps (a call each) and the state's layout.

numba compiles the module on first use and caches it (:mod:`konflikt.dice.compiled`). Every rule function takes
two int64 arrays — ``s``, the conflict's state, and ``t``, the scenario's tables, both laid out by the offsets named
below — and scalars: a call hands over two small array structs (a named tuple of the tables' twenty-odd arrays was
copied into every call, 115 µs a duel), and both arrays are views without a reference count (:func:`borrowed`), so
the calls LLVM does not inline cost no atomics. Dice are exact: 2T one uniform draw below 36, 1T below 6; a test
hands recorded faces instead (:class:`Replay`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numba
import numpy as np
from numba.core import cgutils, types
from numba.extending import intrinsic

from konflikt.dice.compile_cache import stamped
from konflikt.dice.compiled import compiled, uniform
from konflikt.rulesets.pwge import kernel_rules as R
from konflikt.rulesets.pwge.kernel_rules import DEADLOCK, GOAL, POOLS, RESPONSE_FIRST, SIM
from konflikt.rulesets.pwge.kernel_tables import CLOSER, FARTHER, MAX_PEOPLE, NO_KEY, NONE, PRESS
from konflikt.rulesets.pwge.rules import LAST_MELEE

Int = np.ndarray
F = TypeVar("F", bound=Callable[..., Any])


def rule(func: F) -> F:
    """A step of the rules: a compiled function."""
    return compiled(func)


def leaf(func: F) -> F:
    """A look-up or a few lines the steps call again and again: compiled into each caller (numba inlines it before
    LLVM sees it; a call, even without an atomic, cost more than the body)."""
    return cast(F, stamped(numba.njit(cache=True, inline="always")(func)))


@intrinsic
def _borrowed(typingctx: Any, array: Any) -> Any:
    """``array`` without its reference count: a view whose memory someone else keeps alive. numba counts the
    references of every array handed to a compiled function, an atomic add and subtract a call, and the rule
    functions are called hundreds of times a conflict; a view without a count costs them a null test."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        view = context.make_array(array)(context, builder, args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)  # type: ignore[no-untyped-call]
        view.parent = cgutils.get_null_value(view.parent.type)  # type: ignore[no-untyped-call]
        return view._getvalue()

    return array(array), codegen


borrowed = cast(Callable[[Any], Any], _borrowed)

# the arithmetic of the steps (:mod:`.kernel_rules`, which the array flow calls on arrays), compiled for scalars
can_spend, pays_with_die, buys, responds = leaf(R.can_spend), leaf(R.pays_with_die), leaf(R.buys), leaf(R.responds)
rich_band, R_bids, both_move, order_of = leaf(R.rich_band), leaf(R.bids), leaf(R.both_move), leaf(R.order_of)
bid_order, defence_mod, contest_result = leaf(R.bid_order), leaf(R.defence_mod), leaf(R.contest_result)
R_top_allowed, R_may_top, tops_contest = leaf(R.top_allowed), leaf(R.may_top), leaf(R.tops_contest)
damage_points, tops_damage, counter_tops = leaf(R.damage_points), leaf(R.tops_damage), leaf(R.counter_tops)
keeps_roll, wound_level = leaf(R.keeps_roll), leaf(R.wound_level)


STANDING, POINTS, CHASE = range(3)
"""The goal of the conflict's kind: the last side standing (combat, social damage), a number of successful moves
(diplomatic/social), or the chase's catch or escape."""
OPEN, FREE, DONE = range(3)
"""Where a conflict stands between exchanges."""
MAX_STEPS = 1_000_000
"""A safety stop far beyond any real conflict (every handling costs a token or an experience die)."""

# the scalars of ``s``, a conflict's state: where the conflict stands, its counts, and the exchange under way
PHASE, FLOOR, PASSES, SP, STEPS, ACTIONS, ENDING, WINNER, DRY_GROUPS, ID = range(10)
ACTOR, TARGET, AKIND, RKIND, ACOUNT, RCOUNT, IS_FREE, R_AT, SNAP, ORDER = range(10, 20)
TOGETHER = 20
"""1 while an action and its response resolve samtidigt (simultaneously): the sides they empty are noted together
when the exchange ends (:meth:`PwgeState.deeds_together`)."""
X = 21
# rows of ``play``'s output, then per participant p: tokens, body points, worst wound, out at ``PERSON + 4 p``
OUT_ENDING, OUT_WINNER, OUT_STEPS, OUT_ACTIONS, PERSON = range(5)


# ``s``, a conflict's state (int64): the scalars above, the contest's two roles (a, b), then per participant and side
C_MOD, C_ROLL, C_ROLLED, C_TOPS, C_DEC = range(X, X + 10, 2)
TOK, XP, BODY, WND, OUT, PTS, DRY_RANK = range(X + 10, X + 10 + 7 * MAX_PEOPLE, MAX_PEOPLE)
"""``DRY_RANK``: when each side's pools ran dry, the number of its group (:attr:`PwgeState.dry_order`); ``NONE``: not
yet."""
DIST = X + 10 + 7 * MAX_PEOPLE
"""Every pair's distance code, ``s[DIST + p * MAX_PEOPLE + q]``."""
SIZE = DIST + MAX_PEOPLE * MAX_PEOPLE
# ``t``, a scenario's tables (int64): these numbers, then where each table starts in ``t`` (its offset at its name)
PEOPLE, SIDES, CODES, SKRAMA, SARAD, ALLVARLIGT, GOAL_KIND, SUCCESSES, FLEEING, ESCAPE = range(10)
FIRST_CHASER, SCORING_MOVES, MEETS_CLOSING, DODGE_KEEPS, MAX_TOPS_RULE, SURPRISERS_N = range(10, 16)
START_PHASE, START_FLOOR, START_SP, START_STEPS, START_ACTIONS = range(16, 21)
TABLES = (
    "SIDE", "ROLL", "ATTRIBUTE", "ARMOUR", "TOKEN_LOSS", "SURPRISERS", "START_TOKENS", "START_XP", "START_BODY",
    "FOE", "TOP_DAMAGE", "START_DIST", "ATK_OK", "ATK_MOD", "ATK_BAND", "PRESS_MOD", "STEP", "DAMAGE_MOD",
    "OPEN_KEY", "OPEN_DEED", "OPEN_WORTH", "FREE_KEY", "FREE_DEED", "RESPONSE", "COUNTER", "COUNTER_RESPONSE",
)  # fmt: skip
"""The tables of :class:`~.kernel_tables.Tables` (same names, upper case; ``START_*`` where every conflict starts),
each flattened into ``t`` in C order; ``t[NAME]`` is where it starts."""
(SIDE, ROLL, ATTRIBUTE, ARMOUR, TOKEN_LOSS, SURPRISERS, START_TOKENS, START_XP, START_BODY, FOE, TOP_DAMAGE,
 START_DIST, ATK_OK, ATK_MOD, ATK_BAND, PRESS_MOD, STEP, DAMAGE_MOD, OPEN_KEY, OPEN_DEED, OPEN_WORTH, FREE_KEY,
 FREE_DEED, RESPONSE, COUNTER, COUNTER_RESPONSE) = range(21, 21 + len(TABLES))  # fmt: skip
HEADER = 21 + len(TABLES)


class Replay(NamedTuple):
    """Recorded d6 faces, conflict by conflict (a row each, 0 after the last), and how many each has used; empty
    (0 rows) to draw from the generator."""

    faces: Int
    used: Int


# ---- the tables --------------------------------------------------------------------------------------------------
@leaf
def per_person(t: Int, table: int, p: int) -> int:
    """``table[p]`` (side, roll, attribute, armour, the surprisers, the start's pools; token loss by wound level)."""
    value: int = t[t[table] + p]
    return value


@leaf
def per_pair(t: Int, table: int, p: int, q: int) -> int:
    """``table[p, q]`` (foe, top damage, the start's distances)."""
    value: int = t[t[table] + p * t[PEOPLE] + q]
    return value


@leaf
def weapon_at(t: Int, table: int, p: int, weapon: int, code: int) -> int:
    """``table[p, weapon, code]``: :meth:`PwgeState.attack_mods` (in reach, modifier, range band)."""
    value: int = t[t[table] + (p * 2 + weapon) * t[CODES] + code]
    return value


@leaf
def press_mod(t: Int, p: int, code: int) -> int:
    value: int = t[t[PRESS_MOD] + p * t[CODES] + code]
    return value


@leaf
def step_to(t: Int, p: int, q: int, way: int, code: int) -> int:
    """The code one step closer (way 0) or farther (1) from ``code``, ``NONE`` past the end."""
    value: int = t[t[STEP] + ((p * t[PEOPLE] + q) * 2 + way) * t[CODES] + code]
    return value


@leaf
def damage_mod(t: Int, p: int, deed: int) -> int:
    value: int = t[t[DAMAGE_MOD] + p * 5 + deed]
    return value


@leaf
def choice(t: Int, table: int, p: int, q: int, code: int, other: int) -> int:
    """``table[p, q, code, other]``: the heuristic's open table, frislag and response (``other``: can q spend)."""
    value: int = t[t[table] + ((p * t[PEOPLE] + q) * t[CODES] + code) * 2 + other]
    return value


@leaf
def counters(t: Int, table: int, p: int, q: int, code: int, deed: int, other: int, rich: int) -> bool:
    """Whether p counters q's deed: ``table[p, q, code, deed, other, rich]``."""
    yes: bool = t[t[table] + ((((p * t[PEOPLE] + q) * t[CODES] + code) * 5 + deed) * 2 + other) * 2 + rich] != 0
    return yes


@leaf
def dist(s: Int, p: int, q: int) -> int:
    value: int = s[DIST + p * MAX_PEOPLE + q]
    return value


# ---- the pools ---------------------------------------------------------------------------------------------------
@leaf
def can(s: Int, p: int) -> bool:
    """:meth:`PwgeState.can_spend`: standing with a token left."""
    able: bool = can_spend(s[OUT + p], s[TOK + p])
    return able


@leaf
def able(s: Int, p: int) -> int:
    """:func:`can` as a table index (0 or 1)."""
    return 1 if can(s, p) else 0


@leaf
def purse(s: Int, p: int) -> int:
    """What the heuristic counts as its purse: tokens plus experience dice."""
    total: int = s[TOK + p] + s[XP + p]
    return total


@leaf
def pay(s: Int, p: int) -> None:
    """One token, or as the heuristic chooses an erfarenhetstärning (experience die) instead, while a token remains
    and the pool is down to :data:`~.policies.DIE_WHEN_TOKENS` (:func:`.kernel_rules.pays_with_die`)."""
    if pays_with_die(s[TOK + p], s[XP + p]):
        s[XP + p] -= 1
    else:
        s[TOK + p] -= 1


@leaf
def note_dry(s: Int, t: Int) -> None:
    """:meth:`PwgeState.note_dry_sides`: the sides newly dry in this step form the next group (none while deeds
    resolve together: they are noted when the exchange ends)."""
    if s[TOGETHER]:
        return
    newly = False
    for side in range(t[SIDES]):
        if s[DRY_RANK + side] == NONE and not side_can_act(s, t, side):
            s[DRY_RANK + side] = s[DRY_GROUPS]
            newly = True
    if newly:
        s[DRY_GROUPS] += 1


@leaf
def spend(s: Int, t: Int, p: int) -> None:
    """A step's one spend, and the sides it leaves dry noted (only p's side can be, and only if p can no longer
    spend: every earlier change was noted when it happened)."""
    pay(s, p)
    if not can(s, p):
        note_dry(s, t)


@leaf
def side_can_act(s: Int, t: Int, side: int) -> bool:
    """:func:`endings.side_can_act`: a member who can still spend."""
    for p in range(t[PEOPLE]):  # noqa: SIM110 - numba compiles a loop, not any() over a generator
        if per_person(t, SIDE, p) == side and can(s, p):
            return True
    return False


@leaf
def top_allowed(t: Int, count: int) -> bool:
    """The option ``max_tops_per_roll`` (0: no limit)."""
    allowed: bool = R_top_allowed(t[MAX_TOPS_RULE], count)
    return allowed


@leaf
def roll(bits: Any, dice: Replay, s: Int, count: int) -> int:
    """The sum of ``count`` d6 (2T: 2, 1T: 1): one exactly uniform draw, or the conflict's next recorded faces."""
    if dice.faces.shape[0]:
        j = s[ID]
        total = 0
        for _ in range(count):
            k = dice.used[j]
            if k >= dice.faces.shape[1] or dice.faces[j, k] == 0:
                raise RuntimeError("pwge loop: a conflict rolled more dice than were recorded")
            total += dice.faces[j, k]
            dice.used[j] = k + 1
        return total
    if count == 2:
        u = uniform(bits, 36)
        return u // 6 + u % 6 + 2
    face: int = uniform(bits, 6) + 1
    return face


# ---- endings -----------------------------------------------------------------------------------------------------
@leaf
def finish(s: Int, ending: int, winner: int) -> None:
    s[ENDING], s[WINNER], s[PHASE] = ending, winner, DONE


@rule
def goal_side(s: Int, t: Int) -> int:
    """The goal half of :func:`endings.check`: the side that has reached its goal, or ``NONE``."""
    if t[GOAL_KIND] == POINTS:
        for side in range(t[SIDES]):
            if s[PTS + side] >= t[SUCCESSES]:
                return side
        return NONE
    if t[GOAL_KIND] == STANDING:
        found, standing = NONE, 0
        for side in range(t[SIDES]):
            for p in range(t[PEOPLE]):
                if per_person(t, SIDE, p) == side and s[OUT + p] == 0:
                    found, standing = side, standing + 1
                    break
        return found if standing == 1 else NONE
    return chase_goal(s, t)


@rule
def chase_goal(s: Int, t: Int) -> int:
    """:func:`endings._chase_goal`: every fleer out → the first pursuing side; every pursuer out → the fleers; a
    pursuer at a melee distance of a fleer → the pursuer's side (the first such pair, fleer by fleer); every pair at
    range ``escape`` or more past melee → the fleers."""
    runs = hunts = False
    catcher = NONE
    away = True
    for r in range(t[PEOPLE]):
        if per_person(t, SIDE, r) != t[FLEEING]:
            continue
        runs = runs or s[OUT + r] == 0
        for h in range(t[PEOPLE]):
            if per_person(t, SIDE, h) == t[FLEEING]:
                continue
            hunts = hunts or s[OUT + h] == 0
            if s[OUT + r] == 0 and s[OUT + h] == 0:
                if dist(s, r, h) <= LAST_MELEE and catcher == NONE:
                    catcher = per_person(t, SIDE, h)
                if max(0, dist(s, r, h) - LAST_MELEE) < t[ESCAPE]:
                    away = False
    fleeing: int = t[FLEEING]
    if not runs:
        first: int = t[FIRST_CHASER]
        return first
    if not hunts:
        return fleeing
    if catcher != NONE:
        result: int = catcher
        return result
    return fleeing if away else NONE


@rule
def check_endings(s: Int, t: Int) -> bool:
    """:func:`endings.check`: a goal; else, once some side is dry, all but one dry (pools exhausted: the one left
    wins), or every side dry: the one that ran dry alone and last wins, if any ran dry before it, else a deadlock.
    True: ended."""
    reached = goal_side(s, t)
    if reached != NONE:
        finish(s, GOAL, reached)
        return True
    note_dry(s, t)
    wet, last_wet = 0, NONE
    for side in range(t[SIDES]):
        if side_can_act(s, t, side):
            wet, last_wet = wet + 1, side
    if wet == 0:
        last = s[DRY_GROUPS] - 1
        alone, who = 0, NONE
        for side in range(t[SIDES]):
            if s[DRY_RANK + side] == last:
                alone, who = alone + 1, side
        if alone == 1 and last > 0:
            finish(s, POOLS, who)
        else:
            finish(s, DEADLOCK, NONE)
        return True
    if wet == 1 and t[SIDES] > 1:
        finish(s, POOLS, last_wet)
        return True
    return False


# ---- the floor ---------------------------------------------------------------------------------------------------
@rule
def open_floor(s: Int, t: Int, start: int) -> None:
    """The floor goes to the first participant able to act from ``start`` round the table; nobody: the end."""
    for k in range(t[PEOPLE]):
        who = (start + k) % t[PEOPLE]
        if can(s, who):
            s[FLOOR], s[PHASE] = who, OPEN
            return
    if not check_endings(s, t):
        finish(s, DEADLOCK, NONE)


@rule
def next_surpriser(s: Int, t: Int) -> None:
    """The next surpriser still standing has its frislag; after the last, the floor opens at the first seat."""
    s[SP] += 1
    while s[SP] < t[SURPRISERS_N] and s[OUT + per_person(t, SURPRISERS, s[SP])] != 0:
        s[SP] += 1
    if s[SP] >= t[SURPRISERS_N]:
        open_floor(s, t, 0)
    else:
        s[PHASE] = FREE


@leaf
def declare(s: Int, a: int, j: int, kind: int, free: bool) -> None:
    """A handling (action) or frislag (free attack) from ``a`` at ``j``."""
    s[ACTOR], s[TARGET], s[AKIND], s[RKIND] = a, j, kind, NONE
    s[ACOUNT], s[RCOUNT], s[IS_FREE], s[R_AT] = 0, 0, free, NONE
    s[ACTIONS] += 1
    s[SNAP], s[ORDER] = dist(s, a, j), SIM


@leaf
def best_foe(s: Int, t: Int, table: int, i: int) -> tuple[int, int]:
    """The foe still in the fight that ``i`` values most by the heuristic's ``table`` (open floor or frislag; ties:
    the first), with its value; ``NO_KEY`` when there is none."""
    best, target = NO_KEY, 0
    for q in range(t[PEOPLE]):
        if per_pair(t, FOE, i, q) and s[OUT + q] == 0:
            key = choice(t, table, i, q, dist(s, i, q), able(s, q))
            if key > best:
                best, target = key, q
    return best, target


@rule
def open_table(bits: Any, dice: Replay, s: Int, t: Int) -> None:
    """The floor's holder buys the heuristic's best handling against the foe it values most (ties: the first), or
    passes; as many passes in a row as people able to act: a deadlock."""
    s[STEPS] += 1
    i = s[FLOOR]
    best, target = best_foe(s, t, OPEN_KEY, i)
    code, other = dist(s, i, target), able(s, target)
    if buys(purse(s, i), best, choice(t, OPEN_WORTH, i, target, code, other)):
        s[PASSES] = 0
        spend(s, t, i)
        declare(s, i, target, choice(t, OPEN_DEED, i, target, code, other), False)
        exchange(bits, dice, s, t)
        return
    s[PASSES] += 1
    acting = 0
    for p in range(t[PEOPLE]):
        acting += able(s, p)
    if s[PASSES] >= acting:
        finish(s, DEADLOCK, NONE)
    else:
        open_floor(s, t, i + 1)


@rule
def frislag(bits: Any, dice: Replay, s: Int, t: Int) -> None:
    """A surpriser's frislag (free attack): the heuristic's best reachable one (ties: the larger Action), or none."""
    s[STEPS] += 1
    i = per_person(t, SURPRISERS, s[SP])
    best, target = best_foe(s, t, FREE_KEY, i)
    if best == NO_KEY:
        next_surpriser(s, t)
        return
    declare(s, i, target, choice(t, FREE_DEED, i, target, dist(s, i, target), able(s, target)), True)
    exchange(bits, dice, s, t)


# ---- the exchange ------------------------------------------------------------------------------------------------
@rule
def exchange(bits: Any, dice: Replay, s: Int, t: Int) -> None:
    """After the declaration: mothandling, svarshandling and its counter, turordning, the deeds, the endings."""
    a, j = s[ACTOR], s[TARGET]
    if can(s, j):
        counter(s, t, False)
    if not s[IS_FREE] and can(s, j):
        response(s, t)
        if s[RKIND] != NONE and can(s, a):
            counter(s, t, True)
    if s[RKIND] != NONE and (can(s, a) or can(s, j)):
        order_bids(bits, dice, s, t)
    s[TOGETHER] = s[RKIND] != NONE and s[ORDER] == SIM
    for pos in range(1 if s[RKIND] == NONE else 2):
        resolve_deed(bits, dice, s, t, pos)
    s[TOGETHER] = 0
    end_exchange(s, t)


@leaf
def counter(s: Int, t: Int, answers_response: bool) -> None:
    """A mothandling (counter): the target against the action, or the actor against the response; the table holds
    the heuristic's answer by distance, deed, whether the other can still spend, and a purse above 1."""
    s[STEPS] += 1
    a, j = s[ACTOR], s[TARGET]
    me, them = (a, j) if answers_response else (j, a)
    kind = s[RKIND] if answers_response else s[AKIND]
    table = COUNTER_RESPONSE if answers_response else COUNTER
    rich = rich_band(purse(s, me))
    if counters(t, table, me, them, dist(s, me, them), kind, able(s, them), rich):
        spend(s, t, me)
        s[RCOUNT if answers_response else ACOUNT] = 1


@leaf
def response(s: Int, t: Int) -> None:
    """A svarshandling (response), when the purse is above the reserve and one; in a physical conflict, against an
    uncountered closing, made at the distance the closing lands at."""
    s[STEPS] += 1
    a, j = s[ACTOR], s[TARGET]
    now = dist(s, j, a)
    reach = now
    if t[MEETS_CLOSING] and s[AKIND] == CLOSER and not s[ACOUNT]:
        landing = step_to(t, a, j, 0, now)
        if landing != NONE:
            reach = landing
    deed = choice(t, RESPONSE, j, a, reach, able(s, a)) if responds(purse(s, j)) else NONE
    if deed != NONE:
        spend(s, t, j)
        s[RKIND] = deed
        if deed < CLOSER and reach != now:
            s[R_AT] = reach


@leaf
def order_bids(bits: Any, dice: Replay, s: Int, t: Int) -> None:
    """The secret turordning (order) bids: each bids when it can, its purse is above the reserve, not both move, and
    the other is near the end (body within a top damage roll, or 3 tokens or fewer); both bidding roll for it."""
    s[STEPS] += 1
    a, j = s[ACTOR], s[TARGET]
    both = both_move(s[AKIND], s[RKIND])
    first = not both and bids(s, t, a, j)
    second = not both and bids(s, t, j, a)
    if first:
        pay(s, a)
    if second:
        pay(s, j)
    if not (can(s, a) and can(s, j)):
        note_dry(s, t)  # bids are secret: sides left dry by both ran dry together
    if first and second:
        won = contest(bits, dice, s, t, True, a, j, per_person(t, ATTRIBUTE, a), per_person(t, ATTRIBUTE, j))
        s[ORDER] = order_of(won)
    else:
        s[ORDER] = bid_order(first, second)


@leaf
def bids(s: Int, t: Int, p: int, foe: int) -> bool:
    bid: bool = R_bids(can(s, p), purse(s, p), s[BODY + foe], per_pair(t, TOP_DAMAGE, p, foe), s[TOK + foe])
    return bid


@leaf
def end_exchange(s: Int, t: Int) -> None:
    """The endings, then the next frislag or the floor after the actor."""
    if check_endings(s, t):
        return
    if s[IS_FREE]:
        next_surpriser(s, t)
        return
    s[PASSES] = 0
    open_floor(s, t, s[ACTOR] + 1)


# ---- resolution --------------------------------------------------------------------------------------------------
@rule
def resolve_deed(bits: Any, dice: Replay, s: Int, t: Int, pos: int) -> None:
    """The deed at queue position ``pos``: skipped if someone fell before it (unless simultaneous); a move steps,
    or is contested when countered; an attack in reach or a press is a contest, won: :func:`deed_succeeds`."""
    is_action = (pos == 0) == (s[ORDER] != RESPONSE_FIRST)
    da, dt = (s[ACTOR], s[TARGET]) if is_action else (s[TARGET], s[ACTOR])
    kind = s[AKIND] if is_action else s[RKIND]
    countered = (s[ACOUNT] if is_action else s[RCOUNT]) != 0
    simultaneous = s[ORDER] == SIM
    if not simultaneous and pos > 0 and (s[OUT + da] != 0 or s[OUT + dt] != 0):
        return
    now = dist(s, da, dt)
    if kind in (CLOSER, FARTHER):
        new = step_to(t, da, dt, kind - CLOSER, now)
        if new == NONE:
            return
        if not countered:
            set_pair(s, da, dt, new)
            return
        won = contest(bits, dice, s, t, False, da, dt, per_person(t, ROLL, da), per_person(t, ROLL, dt))
    elif kind == PRESS:
        b_mod = per_person(t, ROLL, dt) if countered else 0
        won = contest(bits, dice, s, t, False, da, dt if countered else NONE, press_mod(t, da, now), b_mod)
    else:
        code = s[SNAP] if simultaneous else now
        if not is_action and s[R_AT] != NONE:
            code = s[R_AT]  # a response that meets someone closing in
        if not weapon_at(t, ATK_OK, da, kind, code):
            return
        band = weapon_at(t, ATK_BAND, da, kind, code)
        b_mod = defence_mod(band, countered, per_person(t, ROLL, dt), t[DODGE_KEEPS])
        a_mod = weapon_at(t, ATK_MOD, da, kind, code)
        won = contest(bits, dice, s, t, False, da, dt if countered else NONE, a_mod, b_mod)
    if won == 0:
        deed_succeeds(bits, dice, s, t, da, dt, kind)


@leaf
def set_pair(s: Int, p: int, q: int, code: int) -> None:
    s[DIST + p * MAX_PEOPLE + q] = s[DIST + q * MAX_PEOPLE + p] = code


@leaf
def deed_succeeds(bits: Any, dice: Replay, s: Int, t: Int, da: int, dt: int, kind: int) -> None:
    """A won move steps (if it still can); a won press scores a move where moves score; else a hit: the skadeslag."""
    if kind in (CLOSER, FARTHER):
        new = step_to(t, da, dt, kind - CLOSER, dist(s, da, dt))
        if new != NONE:
            set_pair(s, da, dt, new)
    elif kind == PRESS and t[SCORING_MOVES]:
        s[PTS + per_person(t, SIDE, da)] += 1
    else:
        skadeslag(bits, dice, s, t, da, dt, damage_mod(t, da, kind), 0 if kind == PRESS else per_person(t, ARMOUR, dt))


# ---- the contest -------------------------------------------------------------------------------------------------
@rule
def contest(bits: Any, dice: Replay, s: Int, t: Int, ordering: bool, a: int, b: int, a_mod: int, b_mod: int) -> int:
    """2T + modifier each (against a difficulty, ``b`` is ``NONE`` and its 2T + ``b_mod`` nobody's, as the State
    rolls it); the one behind may top (reroll for a token) until someone declines or cannot. Returns 0: a ahead;
    1: b ahead (a tie holds for b); 2: a tie in the turordningsslag (order roll), deciding nothing."""
    s[C_MOD + 0], s[C_MOD + 1] = a_mod, b_mod
    for role in range(2):
        s[C_ROLLED + role] = s[C_TOPS + role] = s[C_DEC + role] = 0
    while True:
        for role in range(2):
            if not s[C_ROLLED + role]:
                s[STEPS] += 1
                s[C_ROLL + role] = roll(bits, dice, s, 2) + s[C_MOD + role]
                s[C_ROLLED + role] = 1
        res: int = contest_result(s[C_ROLL + 0], s[C_ROLL + 1], ordering)
        may_a = may_top(s, t, 0, a)
        if (res == 1 or res == 2) and may_a:
            role = 0
        elif (res == 0 or (res == 2 and not may_a)) and may_top(s, t, 1, b):
            role = 1
        else:
            return res
        top_or_accept(s, t, ordering, role, a if role == 0 else b)


@leaf
def may_top(s: Int, t: Int, role: int, person: int) -> bool:
    asked: bool = R_may_top(person, s[C_DEC + role], can(s, max(person, 0)), top_allowed(t, s[C_TOPS + role]))
    return asked


@leaf
def top_or_accept(s: Int, t: Int, ordering: bool, role: int, me: int) -> None:
    """The one behind tops or accepts, as :func:`.kernel_rules.tops_contest` has the heuristic decide; a top lets
    the other decide again."""
    s[STEPS] += 1
    defending = role == 1 and not ordering
    own, other, tops = s[C_ROLL + role], s[C_ROLL + 1 - role], s[C_TOPS + role]
    if tops_contest(own, s[C_MOD + role], other, role == 0, tops, purse(s, me), defending):
        spend(s, t, me)
        s[C_DEC + 0] = s[C_DEC + 1] = 0
        s[C_TOPS + role] += 1
        s[C_ROLLED + role] = 0
    else:
        s[C_DEC + role] = 1


# ---- the skadeslag (damage roll) ---------------------------------------------------------------------------------
@rule
def skadeslag(bits: Any, dice: Replay, s: Int, t: Int, att: int, dfd: int, mod: int, armour: int) -> None:
    """1T + ``mod``; the attacker may top (reroll) a low face; then the defender may mot-toppa (counter-top) a
    serious one, which the attacker answers with mot-mot-toppa (keep the roll; the defender may counter again) or
    a reroll; the roll that stands is marked (:func:`apply_damage`)."""
    tops = ctops = 0
    while True:
        s[STEPS] += 1
        total = roll(bits, dice, s, 1) + mod
        face = total - mod
        if can(s, att) and top_allowed(t, tops):
            s[STEPS] += 1
            if tops_damage(face, purse(s, att)):
                spend(s, t, att)
                tops += 1
                continue
        while True:  # the defender's mot-toppa, as long as the attacker keeps the roll
            if not (can(s, dfd) and top_allowed(t, ctops)):
                apply_damage(s, t, dfd, total, armour)
                return
            s[STEPS] += 1
            points = damage_points(total, armour)
            if not counter_tops(points, t[SARAD], s[BODY + dfd], face, purse(s, dfd), ctops):
                apply_damage(s, t, dfd, total, armour)
                return
            spend(s, t, dfd)
            ctops += 1
            if not can(s, att):
                break
            s[STEPS] += 1
            if not keeps_roll(face, purse(s, att)):
                break
            spend(s, t, att)  # mot-mot-toppa: the roll stands, the defender may answer again


@leaf
def apply_damage(s: Int, t: Int, j: int, total: int, armour: int) -> None:
    """Points past the armour off the body; the wound level (skråma, lätt, sårad, allvarligt) costs its tokens and
    is kept if worse; at 0 body points the defender is out."""
    points = damage_points(total, armour)
    level = wound_level(points, t[SKRAMA], t[SARAD], t[ALLVARLIGT])
    s[TOK + j] = max(0, s[TOK + j] - per_person(t, TOKEN_LOSS, level))
    s[BODY + j] -= points
    s[WND + j] = max(s[WND + j], level)
    if s[BODY + j] <= 0:
        s[OUT + j] = 1
    if not can(s, j):
        note_dry(s, t)


# ---- the batch ---------------------------------------------------------------------------------------------------
@rule
def start(s: Int, t: Int, j: int) -> None:
    """Conflict ``j`` where every conflict starts."""
    s[:X] = 0
    s[PHASE], s[FLOOR], s[SP] = t[START_PHASE], t[START_FLOOR], t[START_SP]
    s[STEPS], s[ACTIONS], s[ID] = t[START_STEPS], t[START_ACTIONS], j
    s[ENDING] = s[WINNER] = NONE
    for p in range(t[PEOPLE]):
        s[TOK + p], s[XP + p] = per_person(t, START_TOKENS, p), per_person(t, START_XP, p)
        s[BODY + p], s[WND + p] = per_person(t, START_BODY, p), 0
        s[OUT + p] = 1 if s[BODY + p] <= 0 else 0  # earlier damage left no body points: out from the start
        for q in range(t[PEOPLE]):
            s[DIST + p * MAX_PEOPLE + q] = per_pair(t, START_DIST, p, q)
    for side in range(t[SIDES]):
        s[PTS + side], s[DRY_RANK + side] = 0, NONE


@compiled
def play(rng: Any, t: Int, dice: Replay, out: Int) -> None:
    """Play ``out.shape[1]`` conflicts, each to its end: its ending, winner (side number, ``NONE``: nobody), steps
    and actions, and per participant tokens, body points, worst wound and out, in the rows of ``out``."""
    bits = rng.bit_generator
    owned = np.zeros(SIZE, np.int64)
    s = borrowed(owned)  # ``owned`` keeps the memory until the end
    t = borrowed(t)  # the caller holds the tables
    for j in range(out.shape[1]):
        start(s, t, j)
        while s[PHASE] != DONE:
            if s[PHASE] == FREE:
                frislag(bits, dice, s, t)
            else:
                open_table(bits, dice, s, t)
            if s[STEPS] > MAX_STEPS:
                raise RuntimeError("pwge loop: a conflict did not end")
        out[OUT_ENDING, j], out[OUT_WINNER, j] = s[ENDING], s[WINNER]
        out[OUT_STEPS, j], out[OUT_ACTIONS, j] = s[STEPS], s[ACTIONS]
        for p in range(t[PEOPLE]):
            row = PERSON + 4 * p
            out[row, j], out[row + 1, j], out[row + 2, j] = s[TOK + p], s[BODY + p], s[WND + p]
            out[row + 3, j] = s[OUT + p]
    owned[0] = 0  # the state's memory lives until here
