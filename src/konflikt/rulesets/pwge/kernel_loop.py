"""PWGE conflicts one at a time, handling by handling, in the order :class:`~.state.PwgeState` plays: a compiled loop.

A conflict is the open floor or a surpriser's frislag (free attack), then an exchange — the declaration, the
target's mothandling (counter), its svarshandling (response), the actor's counter to the response, the secret
turordning (order) bids and their roll, then each deed resolved in turn: a move, or a contest (2T each, the one
behind may top) and, for a hit, the skadeslag (damage roll) with its top, mot-toppa and mot-mot-toppa — then the
endings are checked and the floor moves on. A decision or a roll counts one step exactly where the State records
one, so the length is the reference runner's ``len(state.steps())``; the dry sides are noted after every spend, as
:meth:`PwgeState.note_dry_sides`.

The heuristic's choices are not restated: they are the answers of the real policy read once per feature combination
into :class:`~.kernel_tables.Tables` (which deed to buy, whether to counter or respond). What each step decides — who
can spend, how the heuristic pays, its threshold rules (reserve, topping worth 25 %, the order bids, mot-toppa and
mot-mot-toppa), who is ahead in a contest, the wound level of a hit — is :mod:`.kernel_rules`, written once for this
loop and for the exact model's array flow (:mod:`.kernel_flow`) and compiled here for scalars; what is the loop's own
is the order of the steps and the state's layout.

Why it is one function: :func:`play` is the whole conflict, every hot step below compiled into it (``leaf``: numba
inlines it before LLVM sees it), so no array crosses a call in the exchange. An exchange touches only its actor and
its target, so it is played on their numbers as local values (:data:`Person`: pools, body, wound, out; and the dice
not yet read, :data:`Dice`), which LLVM keeps in registers, and written back to the conflict's state ``s`` when it
ends. Before, every step was a compiled function handed ``s``, ``t`` and the recorded dice: the dice's two arrays
were counted on every call (two atomic operations an array, 68 % of the time) and the state went through memory
between steps. Measured side by side in one process (December 2026, quiet machine): 0.61–0.76 M duels per CPU
second before, 2.2–2.4 M then (2.8–3.6×). A call costs: the contest and the skadeslag as calls instead made the loop
2.5× slower. What seldom runs stays a call (``rule``), so the loop's code and its compilation stay smaller: the
dry-side note (someone can no longer spend; it keeps the dry sides and their groups in ``s``), the turordningsslag
(both bid for the order), a new word of dice, the chase's goal, the next surpriser.

What the registers hold is what the profile asked for (perf by address, December 2026): a third of the loop's time
was spilling the exchange's numbers to the stack and the skid of mispredicted branches. Five numbers a person (not
seven), the groups left in ``s`` and the dice as one unsigned word (no store at every roll, a 2T one look-up in
:data:`TWO_D6`) made the loop 1.13× faster and 25 % quicker to compile; the contest choosing its side by selection
and the floor without a division 1.15× (``docs/history/kernels.md``).
The endings and the floor, once an exchange, read and write ``s`` (int64, laid out by the offsets named below) with
the scenario's tables ``t``, both views without a reference count (:func:`borrowed`). Dice are exact: base-6 digits
of one uniform 32-bit draw below 6¹⁰, ten faces a draw (:func:`roll`); a test hands recorded faces instead
(:class:`Replay`).
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
draw = leaf(uniform.py_func)  # type: ignore[attr-defined]  # Lemire's exact draw, compiled into the loop


STANDING, POINTS, CHASE = range(3)
"""The goal of the conflict's kind: the last side standing (combat, social damage), a number of successful moves
(diplomatic/social), or the chase's catch or escape."""
OPEN, FREE, DONE = range(3)
"""Where a conflict stands between exchanges."""
MAX_STEPS = 1_000_000
"""A safety stop far beyond any real conflict (every handling costs a token or an experience die)."""

# the scalars of ``s``, a conflict's state between exchanges: where it stands and its counts
PHASE, FLOOR, PASSES, SP, STEPS, ACTIONS, ENDING, WINNER, DRY_GROUPS, ID, PENDING = range(11)
"""``PENDING``: 1 until the first sides are noted dry, when some side is dry from the start (someone out or without a
token): the State notes it with the first sides that run dry, in the same group."""
X = 11
# rows of ``play``'s output, then per participant p: tokens, body points, worst wound, out at ``PERSON + 4 p``
OUT_ENDING, OUT_WINNER, OUT_STEPS, OUT_ACTIONS, PERSON = range(5)


# ``s``, a conflict's state (int64): the scalars above, then per participant and side
TOK, XP, BODY, WND, OUT, PTS, DRY_RANK = range(X, X + 7 * MAX_PEOPLE, MAX_PEOPLE)
"""``DRY_RANK``: when each side's pools ran dry, the number of its group (:attr:`PwgeState.dry_order`); ``NONE``: not
yet."""
DIST = X + 7 * MAX_PEOPLE
"""Every pair's distance code, ``s[DIST + p * MAX_PEOPLE + q]``."""
SIZE = DIST + MAX_PEOPLE * MAX_PEOPLE
DIGITS_PER_DRAW = 10
DIGITS = 6**DIGITS_PER_DRAW
"""60,466,176: a 32-bit draw below it is rejected 0.04 % of the time (Lemire), and its base-6 digits are ten
independent, exactly uniform faces; a draw per die cost a call into the bit generator each."""
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


# ---- the pools between exchanges ---------------------------------------------------------------------------------
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


@rule
def note_rest(s: Int, t: Int, one: int, other: int, group: int) -> bool:
    """The sides other than ``one`` and ``other`` that were dry before anything was noted (someone out, or without a
    token, from the start), marked in ``group`` at the conflict's first note; whether there were any."""
    newly = False
    for side in range(t[SIDES]):
        if side != one and side != other and s[DRY_RANK + side] == NONE and not side_can_act(s, t, side):
            s[DRY_RANK + side] = group
            newly = True
    return newly


@leaf
def side_can_act(s: Int, t: Int, side: int) -> bool:
    """:func:`endings.side_can_act`: a member who can still spend."""
    for p in range(t[PEOPLE]):  # noqa: SIM110 - numba compiles a loop, not any() over a generator
        if per_person(t, SIDE, p) == side and can(s, p):
            return True
    return False


@leaf
def others_can_act(s: Int, t: Int, p: int) -> int:
    """1 when a member of p's side other than p can still spend (p's side is dry only when p is dry too)."""
    side = per_person(t, SIDE, p)
    for q in range(t[PEOPLE]):
        if q != p and per_person(t, SIDE, q) == side and can(s, q):
            return 1
    return 0


Dice = tuple[Any, int]
"""The faces not yet read from the last word, as an unsigned number below ``6 ** left``, and ``left``: kept in
registers through the exchange and in local numbers of :func:`play` between exchanges (no memory between two
rolls). Unsigned, so that ``// 36`` and ``% 36`` are a multiplication and a shift, without the sign corrections of
Python's floor division that numba compiles for a signed number."""
TWO_D6 = np.array([pair // 6 + pair % 6 + 2 for pair in range(36)], dtype=np.int64)
"""The 2T sum of a pair of digits ``0 … 35`` (a module constant: numba freezes it into the loop's code)."""


@rule
def refill(bits: Any, faces: Int, used: Int, row: int, count: int) -> Dice:
    """A new word of faces: ten from one exactly uniform 32-bit draw below 6¹⁰, or the conflict's next ``count``
    recorded faces (a test's :class:`Replay`), as the same base-6 digits. A call: a word lasts about four rolls,
    and one copy of the draw and of the replay serves every roll of the loop (compiled into each roll, the loop
    took 40 % longer to compile and ran no faster)."""
    if faces.shape[0] == 0:
        return np.uint64(draw(bits, DIGITS)), DIGITS_PER_DRAW
    word, scale = 0, 1
    for _ in range(count):
        k = used[row]
        if k >= faces.shape[1] or faces[row, k] == 0:
            raise RuntimeError("pwge loop: a conflict rolled more dice than were recorded")
        word += (faces[row, k] - 1) * scale
        scale *= 6
        used[row] = k + 1
    return np.uint64(word), count


@leaf
def roll(bits: Any, faces: Int, used: Int, row: int, dice: Dice, count: int) -> tuple[int, Dice]:
    """The sum of ``count`` d6 (2T: 2, 1T: 1) read as base-6 digits of the word (a face left over when a 2T needs
    two is dropped, and a new word drawn, :func:`refill`); and the dice after."""
    word, left = dice
    if left < count:
        word, left = refill(bits, faces, used, row, count)
    if count == 2:
        total: int = TWO_D6[word % np.uint64(36)]
        return total, (word // np.uint64(36), left - 2)
    face: int = np.int64(word % np.uint64(6)) + 1  # type: ignore[assignment]  # numba's int
    return face, (word // np.uint64(6), left - 1)


# ---- the two people of an exchange, as numbers -------------------------------------------------------------------
Person = tuple[int, int, int, int, int]
"""One of the exchange's two people as local numbers: tokens, experience dice, body points, worst wound, out. Only
the actor and the target change during an exchange, so the loop plays it on these numbers (registers, no memory
between the steps) and writes them back when it ends. What changes seldom stays in ``s``: the dry sides and their
groups are written there by :func:`noted` (a call), so the exchange's code carries five numbers a person, not seven,
and no group counts (fewer values than registers spilled to the stack between the steps)."""


@leaf
def person(s: Int, p: int) -> Person:
    return (s[TOK + p], s[XP + p], s[BODY + p], s[WND + p], s[OUT + p])


@leaf
def keep(s: Int, p: int, who: Person) -> None:
    """``who`` written back as participant ``p``."""
    s[TOK + p], s[XP + p], s[BODY + p], s[WND + p], s[OUT + p] = who


@leaf
def p_can(who: Person) -> bool:
    able: bool = can_spend(who[4], who[0])
    return able


@leaf
def p_purse(who: Person) -> int:
    return who[0] + who[1]


@leaf
def p_pay(who: Person) -> Person:
    """One token, or as the heuristic chooses an erfarenhetstärning (experience die) instead, while a token remains
    and the pool is down to :data:`~.policies.DIE_WHEN_TOKENS` (:func:`.kernel_rules.pays_with_die`)."""
    tok, xp, body, wnd, out = who
    die = 1 if pays_with_die(tok, xp) else 0  # arithmetic, not a branch the processor would guess
    return (tok - 1 + die, xp - die, body, wnd, out)


@leaf
def dried(s: Int, t: Int, who: Person, p: int, group: int) -> bool:
    """p's side marked dry in ``group`` if it has just run dry (p, as ``who``, and every other member unable to
    spend; the others' numbers in ``s`` are current: only p and its foe change in an exchange); whether it was."""
    side = per_person(t, SIDE, p)
    newly = s[DRY_RANK + side] == NONE and not can_spend(who[4], who[0]) and others_can_act(s, t, p) == 0
    if newly:
        s[DRY_RANK + side] = group
    return newly


@rule
def noted(s: Int, t: Int, x: Person, y: Person, px: int, py: int) -> None:
    """:meth:`PwgeState.note_dry_sides` inside an exchange of ``px`` (``x``) and ``py`` (``y``): only their sides
    can run dry there (and, at a conflict's first note, sides dry from the start: ``PENDING``); the newly dry form
    the next group. Called only when someone can no longer spend, so it is a call rather than compiled into every
    spend (less code)."""
    group = s[DRY_GROUPS]
    newly_x = dried(s, t, x, px, group)
    newly_y = dried(s, t, y, py, group)
    newly = newly_x or newly_y
    if s[PENDING]:
        newly = note_rest(s, t, per_person(t, SIDE, px), per_person(t, SIDE, py), group) or newly
        s[PENDING] = 0
    if newly:
        s[DRY_GROUPS] = group + 1


@leaf
def top_allowed(limit: int, count: int) -> bool:
    """The option ``max_tops_per_roll`` (0: no limit)."""
    allowed: bool = R_top_allowed(limit, count)
    return allowed


@leaf
def spent(s: Int, t: Int, x: Person, y: Person, px: int, py: int, together: bool) -> tuple[Person, Person]:
    """x's one spend, and the sides it leaves dry noted (none while deeds resolve together: they are noted when the
    exchange ends, :meth:`PwgeState.deeds_together`)."""
    x = p_pay(x)
    if not together and not p_can(x):
        noted(s, t, x, y, px, py)
    return x, y


# ---- the contest -------------------------------------------------------------------------------------------------
@leaf
def contest(
    bits: Any, faces: Int, used: Int, row: int, dice: Dice, s: Int, t: Int, steps: int, x: Person, y: Person,
    px: int, py: int, together: bool, b: int, ordering: bool, a_mod: int, b_mod: int,
) -> tuple[int, int, Person, Person, Dice]:  # fmt: skip
    """2T + modifier each, x against y (against a difficulty, ``b`` is ``NONE`` and its 2T + ``b_mod`` nobody's, as
    the State rolls it); the one behind may top (reroll for a token) until someone declines or cannot, as
    :func:`.kernel_rules.tops_contest` has the heuristic decide (a top lets the other decide again). Returns 0: x
    ahead; 1: y ahead (a tie holds for y); 2: a tie in the turordningsslag (order roll), deciding nothing — with
    the steps, both people and the dice after."""
    limit = t[MAX_TOPS_RULE]
    steps += 2
    a_roll, dice = roll(bits, faces, used, row, dice, 2)
    b_roll, dice = roll(bits, faces, used, row, dice, 2)
    a_roll += a_mod
    b_roll += b_mod
    a_tops = b_tops = 0
    a_declined = b_declined = False
    while True:
        res: int = contest_result(a_roll, b_roll, ordering)
        may_a = R_may_top(0, a_declined, p_can(x), top_allowed(limit, a_tops))
        may_b = R_may_top(b, b_declined, p_can(y), top_allowed(limit, b_tops))
        a_asked = (res != 0) & may_a  # a is behind (or tied in the order roll) and may top
        b_asked = (not a_asked) & ((res == 0) | ((res == 2) & (not may_a))) & may_b
        if not (a_asked or b_asked):
            return res, steps, x, y, dice
        # The side asked as ``me`` against ``them``: one decision, spend and reroll for either side, its numbers
        # chosen by selection rather than by a branch on who is behind (a coin toss the processor cannot guess,
        # the loop's most costly branch in the profile).
        me, them = x if a_asked else y, y if a_asked else x
        p_me, p_them = px if a_asked else py, py if a_asked else px
        own, own_mod, other = a_roll if a_asked else b_roll, a_mod if a_asked else b_mod, b_roll if a_asked else a_roll
        tops = a_tops if a_asked else b_tops
        steps += 1
        if tops_contest(own, own_mod, other, a_asked, tops, p_purse(me), (not a_asked) & (not ordering)):
            me, them = spent(s, t, me, them, p_me, p_them, together)
            x, y = me if a_asked else them, them if a_asked else me
            a_declined = b_declined = False
            steps += 1
            new, dice = roll(bits, faces, used, row, dice, 2)
            new += own_mod
            a_roll, b_roll = new if a_asked else a_roll, b_roll if a_asked else new
            a_tops, b_tops = a_tops + a_asked, b_tops + b_asked
        else:
            a_declined, b_declined = a_declined | a_asked, b_declined | b_asked


order_contest = rule(contest.py_func)  # type: ignore[attr-defined]
"""The turordningsslag (order roll) as a call: both bid for the order seldom (near a conflict's end), and a second
copy of :func:`contest` compiled into :func:`play` made its code larger than the processor's instruction cache."""


# ---- the skadeslag (damage roll) ---------------------------------------------------------------------------------
@leaf
def skadeslag(
    bits: Any, faces: Int, used: Int, row: int, dice: Dice, s: Int, t: Int, steps: int, x: Person, y: Person,
    px: int, py: int, together: bool, mod: int, armour: int,
) -> tuple[int, Person, Person, Dice]:  # fmt: skip
    """x hits y: 1T + ``mod``; x may top (reroll) a low face; then y may mot-toppa (counter-top) a serious one,
    which x answers with mot-mot-toppa (keep the roll; y may counter again) or a reroll; the roll that stands is
    marked (:func:`wounded`)."""
    limit = t[MAX_TOPS_RULE]
    tops = ctops = 0
    while True:
        steps += 1
        face, dice = roll(bits, faces, used, row, dice, 1)
        total = face + mod
        if p_can(x) and top_allowed(limit, tops):
            steps += 1
            if tops_damage(face, p_purse(x)):
                x, y = spent(s, t, x, y, px, py, together)
                tops += 1
                continue
        stands = False
        while True:  # y's mot-toppa, as long as x keeps the roll
            if not (p_can(y) and top_allowed(limit, ctops)):
                stands = True
                break
            steps += 1
            if not counter_tops(damage_points(total, armour), t[SARAD], y[2], face, p_purse(y), ctops):
                stands = True
                break
            y, x = spent(s, t, y, x, py, px, together)
            ctops += 1
            if not p_can(x):
                break
            steps += 1
            if not keeps_roll(face, p_purse(x)):
                break
            x, y = spent(s, t, x, y, px, py, together)  # mot-mot-toppa
        if stands:
            y = wounded(t, y, total, armour)
            if not together and not p_can(y):
                noted(s, t, y, x, py, px)
            return steps, x, y, dice


@leaf
def wounded(t: Int, who: Person, total: int, armour: int) -> Person:
    """Points past the armour off the body; the wound level (skråma, lätt, sårad, allvarligt) costs its tokens and
    is kept if worse; at 0 body points the defender is out."""
    tok, xp, body, wnd, out = who
    points = damage_points(total, armour)
    level = wound_level(points, t[SKRAMA], t[SARAD], t[ALLVARLIGT])
    tok = max(0, tok - per_person(t, TOKEN_LOSS, level))
    body -= points
    wnd = max(wnd, level)
    if body <= 0:
        out = 1
    return (tok, xp, body, wnd, out)


# ---- the exchange ------------------------------------------------------------------------------------------------
@leaf
def exchange(
    bits: Any, faces: Int, used: Int, row: int, dice: Dice, s: Int, t: Int, a: int, j: int, akind: int, free: bool
) -> Dice:
    """A handling (action) or frislag (free attack) from ``a`` at ``j``, declared: the actor's spend (not for a
    frislag), mothandling (counter), svarshandling (response) and its counter, turordning (order), the deeds.

    Played on local numbers (:data:`Person`), written back at the end; returns the dice after."""
    steps = s[STEPS]
    x, y = person(s, a), person(s, j)
    if not free:
        x, y = spent(s, t, x, y, a, j, False)
    s[ACTIONS] += 1
    d = dist(s, a, j)
    snap = d
    acount = rcount = False
    rkind, r_at = NONE, NONE
    if p_can(y):  # the target's mothandling (counter) against the action
        steps += 1
        if counters(t, COUNTER, j, a, d, akind, 1 if p_can(x) else 0, rich_band(p_purse(y))):
            y, x = spent(s, t, y, x, j, a, False)
            acount = True
    if not free and p_can(y):  # the svarshandling (response)
        steps += 1
        reach = d
        if t[MEETS_CLOSING] and akind == CLOSER and not acount:
            landing = step_to(t, a, j, 0, d)
            if landing != NONE:
                reach = landing  # against an uncountered closing, made at the distance it lands at
        if responds(p_purse(y)):
            rkind = choice(t, RESPONSE, j, a, reach, 1 if p_can(x) else 0)
        if rkind != NONE:
            y, x = spent(s, t, y, x, j, a, False)
            if rkind < CLOSER and reach != d:
                r_at = reach
        if rkind != NONE and p_can(x):  # the actor's counter to the response
            steps += 1
            if counters(t, COUNTER_RESPONSE, a, j, d, rkind, 1 if p_can(y) else 0, rich_band(p_purse(x))):
                x, y = spent(s, t, x, y, a, j, False)
                rcount = True
    order = SIM
    if rkind != NONE and (p_can(x) or p_can(y)):
        # the secret turordning (order) bids: each bids when it can, its purse is above the reserve, not both
        # move, and the other is near the end; both bidding roll for it
        steps += 1
        both = both_move(akind, rkind)
        first = not both and R_bids(p_can(x), p_purse(x), y[2], per_pair(t, TOP_DAMAGE, a, j), y[0])
        second = not both and R_bids(p_can(y), p_purse(y), x[2], per_pair(t, TOP_DAMAGE, j, a), x[0])
        if first:
            x = p_pay(x)
        if second:
            y = p_pay(y)
        if not (p_can(x) and p_can(y)):  # bids are secret: sides left dry by both ran dry together
            noted(s, t, x, y, a, j)
        if first and second:
            won, steps, x, y, dice = order_contest(
                bits, faces, used, row, dice, s, t, steps, x, y, a, j, False, j, True,
                per_person(t, ATTRIBUTE, a), per_person(t, ATTRIBUTE, j),
            )  # fmt: skip
            order = order_of(won)
        else:
            order = bid_order(first, second)
    together = rkind != NONE and order == SIM
    for pos in range(1 if rkind == NONE else 2):
        is_action = (pos == 0) == (order != RESPONSE_FIRST)
        if is_action:
            da, dt, kind, countered, xx, yy = a, j, akind, acount, x, y
        else:
            da, dt, kind, countered, xx, yy = j, a, rkind, rcount, y, x
        steps, xx, yy, d, dice = deed(
            bits, faces, used, row, dice, s, t, steps, xx, yy, together,
            da, dt, kind, countered, pos, order == SIM, d, snap, NONE if is_action else r_at,
        )  # fmt: skip
        if is_action:
            x, y = xx, yy
        else:
            x, y = yy, xx
    keep(s, a, x)
    keep(s, j, y)
    s[DIST + a * MAX_PEOPLE + j] = s[DIST + j * MAX_PEOPLE + a] = d
    s[STEPS] = steps
    return dice


@leaf
def deed(
    bits: Any, faces: Int, used: Int, row: int, dice: Dice, s: Int, t: Int, steps: int, x: Person, y: Person,
    together: bool, da: int, dt: int, kind: int, countered: bool, pos: int, simultaneous: bool, d: int, snap: int,
    r_at: int,
) -> tuple[int, Person, Person, int, Dice]:  # fmt: skip
    """The deed at queue position ``pos``, of ``da`` (x) at ``dt`` (y): skipped if someone fell before it (unless
    simultaneous); a move steps, or is contested when countered; an attack in reach or a press is a contest; won,
    a move steps (if it still can), a press scores where moves score, a hit is the skadeslag. Returns the steps,
    both people, the pair's distance and the dice after."""
    if not simultaneous and pos > 0 and (x[4] != 0 or y[4] != 0):
        return steps, x, y, d, dice
    b = dt if countered else NONE
    if kind in (CLOSER, FARTHER):
        new = step_to(t, da, dt, kind - CLOSER, d)
        if new == NONE:
            return steps, x, y, d, dice
        if not countered:
            return steps, x, y, new, dice
        a_mod, b_mod = per_person(t, ROLL, da), per_person(t, ROLL, dt)
    elif kind == PRESS:
        a_mod, b_mod = press_mod(t, da, d), per_person(t, ROLL, dt) if countered else 0
    else:
        code = snap if simultaneous else d
        if r_at != NONE:
            code = r_at  # a response that meets someone closing in
        if not weapon_at(t, ATK_OK, da, kind, code):
            return steps, x, y, d, dice
        band = weapon_at(t, ATK_BAND, da, kind, code)
        a_mod = weapon_at(t, ATK_MOD, da, kind, code)
        b_mod = defence_mod(band, countered, per_person(t, ROLL, dt), t[DODGE_KEEPS])
    won, steps, x, y, dice = contest(
        bits, faces, used, row, dice, s, t, steps, x, y, da, dt, together, b, False, a_mod, b_mod
    )
    if won != 0:
        return steps, x, y, d, dice
    if kind in (CLOSER, FARTHER):
        new = step_to(t, da, dt, kind - CLOSER, d)
        if new != NONE:
            d = new
    elif kind == PRESS and t[SCORING_MOVES]:
        s[PTS + per_person(t, SIDE, da)] += 1
    else:
        armour = 0 if kind == PRESS else per_person(t, ARMOUR, dt)
        steps, x, y, dice = skadeslag(
            bits, faces, used, row, dice, s, t, steps, x, y, da, dt, together, damage_mod(t, da, kind), armour
        )
    return steps, x, y, d, dice


# ---- endings -----------------------------------------------------------------------------------------------------
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


@leaf
def ended(s: Int, t: Int) -> bool:
    """:func:`endings.check`: a goal; else, once some side is dry, all but one dry (pools exhausted: the one left
    wins), or every side dry: the one that ran dry alone and last wins, if any ran dry before it, else a deadlock.
    True: ended. One pass over the people marks, a bit per side, who stands and who can spend (a loop per side and
    member, as the State asks, cost a fifth of a duel); the sides newly dry are noted on the way."""
    standing = wet = 0
    for p in range(t[PEOPLE]):
        bit = 1 << per_person(t, SIDE, p)
        if s[OUT + p] == 0:
            standing |= bit
        if can(s, p):
            wet |= bit
    reached = NONE
    if t[GOAL_KIND] == STANDING:
        if standing != 0 and standing & (standing - 1) == 0:  # the last side standing
            for side in range(t[SIDES]):
                if standing >> side & 1:
                    reached = side
    elif t[GOAL_KIND] == POINTS:
        for side in range(t[SIDES]):
            if s[PTS + side] >= t[SUCCESSES]:
                reached = side
                break
    else:
        reached = chase_goal(s, t)
    if reached != NONE:
        finish(s, GOAL, reached)
        return True
    s[PENDING] = 0  # :meth:`PwgeState.note_dry_sides`
    newly = False
    wet_sides, last_wet = 0, NONE
    for side in range(t[SIDES]):
        if wet >> side & 1:
            wet_sides, last_wet = wet_sides + 1, side
        elif s[DRY_RANK + side] == NONE:
            s[DRY_RANK + side] = s[DRY_GROUPS]
            newly = True
    if newly:
        s[DRY_GROUPS] += 1
    if wet_sides == 0:
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
    if wet_sides == 1 and t[SIDES] > 1:
        finish(s, POOLS, last_wet)
        return True
    return False


@rule
def check_endings(s: Int, t: Int) -> bool:
    """:func:`ended`, called where nobody can take the floor."""
    done: bool = ended(s, t)
    return done


# ---- the floor ---------------------------------------------------------------------------------------------------
@leaf
def open_floor(s: Int, t: Int, start: int) -> None:
    """The floor goes to the first participant able to act from ``start`` (at most the number of people) round the
    table; nobody: the end. Round the table by a subtraction: a remainder by a number read from ``t`` is a division,
    some 40 cycles, after every exchange."""
    people = t[PEOPLE]
    for k in range(people):
        who = start + k
        if who >= people:
            who -= people
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
def finish(s: Int, ending: int, winner: int) -> None:
    s[ENDING], s[WINNER], s[PHASE] = ending, winner, DONE


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


@leaf
def passed(s: Int, t: Int, i: int) -> None:
    """The floor's holder passes; as many passes in a row as people able to act: a deadlock. (Compiled into the
    loop: as a call, with its two array arguments, it cost 3 % of a duel.)"""
    s[PASSES] += 1
    acting = 0
    for p in range(t[PEOPLE]):
        acting += able(s, p)
    if s[PASSES] >= acting:
        finish(s, DEADLOCK, NONE)
    else:
        open_floor(s, t, i + 1)


@leaf
def end_exchange(s: Int, t: Int, actor: int, free: bool) -> None:
    """The endings, then the next frislag or the floor after the actor."""
    if ended(s, t):
        return
    if free:
        next_surpriser(s, t)
        return
    s[PASSES] = 0
    open_floor(s, t, actor + 1)


# ---- the batch ---------------------------------------------------------------------------------------------------
@leaf
def start(s: Int, t: Int, j: int, pending: int) -> None:
    """Conflict ``j`` where every conflict starts (``pending``: some side is dry there, :data:`PENDING`)."""
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
    s[PENDING] = pending


@rule
def dry_at_start(s: Int, t: Int) -> int:
    """1 when some side is dry where every conflict starts (:data:`PENDING`)."""
    start(s, t, 0, 0)
    for side in range(t[SIDES]):
        if not side_can_act(s, t, side):
            return 1
    return 0


@compiled
def play(rng: Any, t: Int, dice: Replay, out: Int) -> None:
    """Play ``out.shape[1]`` conflicts, each to its end: its ending, winner (side number, ``NONE``: nobody), steps
    and actions, and per participant tokens, body points, worst wound and out, in the rows of ``out``."""
    bits = rng.bit_generator
    owned = np.zeros(SIZE, np.int64)
    s = borrowed(owned)  # ``owned`` keeps the memory until the end
    t = borrowed(t)  # the caller holds the tables
    faces, used = borrowed(dice.faces), borrowed(dice.used)  # and the recorded dice
    pending = dry_at_start(s, t)
    unread = (np.uint64(0), 0)  # the faces of the last word not yet read: kept from conflict to conflict
    for row in range(out.shape[1]):
        start(s, t, row, pending)
        while s[PHASE] != DONE:
            s[STEPS] += 1
            free = s[PHASE] == FREE
            if free:  # a surpriser's frislag: the heuristic's best reachable one (ties: the larger Action), or none
                i = per_person(t, SURPRISERS, s[SP])
                best, target = best_foe(s, t, FREE_KEY, i)
                if best == NO_KEY:
                    next_surpriser(s, t)
                    continue
                kind = choice(t, FREE_DEED, i, target, dist(s, i, target), able(s, target))
            else:  # the floor's holder buys the heuristic's best handling against the foe it values most, or passes
                i = s[FLOOR]
                best, target = best_foe(s, t, OPEN_KEY, i)
                code, other = dist(s, i, target), able(s, target)
                if not buys(purse(s, i), best, choice(t, OPEN_WORTH, i, target, code, other)):
                    passed(s, t, i)
                    continue
                s[PASSES] = 0
                kind = choice(t, OPEN_DEED, i, target, code, other)
            unread = exchange(bits, faces, used, row, unread, s, t, i, target, kind, free)
            end_exchange(s, t, i, free)
            if s[STEPS] > MAX_STEPS:
                raise RuntimeError("pwge loop: a conflict did not end")
        out[OUT_ENDING, row], out[OUT_WINNER, row] = s[ENDING], s[WINNER]
        out[OUT_STEPS, row], out[OUT_ACTIONS, row] = s[STEPS], s[ACTIONS]
        for p in range(t[PEOPLE]):
            at = PERSON + 4 * p
            out[at, row], out[at + 1, row], out[at + 2, row], out[at + 3, row] = (
                s[TOK + p],
                s[BODY + p],
                s[WND + p],
                s[OUT + p],
            )
    owned[0] = 0  # the state's memory lives until here
