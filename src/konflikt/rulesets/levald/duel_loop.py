"""Le våld duels one at a time, round by round, in the order ``LevaldState`` plays them: a compiled loop.

Each duel is a short vector ``s`` in the rows of :mod:`.duel_rounds` (distance, initiative holder and why it must be
decided afresh, rounds, and per fighter Gard, Omtöckning, fate and wound boxes); a round is :func:`one_round`, and
its parts (:func:`wish`, :func:`movement`, :func:`initiative`, :func:`regain_wish`, :func:`counter_wish`,
:func:`damage`, :func:`gain_ground`) each do what the rule of the same name says, for one duel. The fixed numbers of
the duel are arrays built once by :func:`konflikt.rulesets.levald.kernel.make_kernel`: ``f`` (per fighter, rows
named below), ``rules`` (the options, indices named below), the damage dice and the heuristic defender's table.

numba compiles the module on first use and caches the machine code (:mod:`konflikt.dice.compiled`); dice come from
the kernel's numpy ``Generator`` (d100 exactly uniform, damage dice as a uniform index into the table of every face
combination, or die by die where that table would be too large).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from konflikt.dice.compiled import compiled, uniform
from konflikt.rulesets.levald.duel_rounds import (
    ALLOW_LEAVE,
    ATTACK,
    CORNERED,
    DAMAGED,
    DAZE,
    DEAD,
    DEADLY_KNOCKS_OUT,
    DEFENCE,
    DIST,
    EMPTY_SCRATCH,
    FATE,
    FIGHTING,
    FREE_IGNORES_GARD,
    GARD,
    GARD_DAMAGE_IS_DAMAGE,
    GARD_MAX,
    GROUND_REDECIDES,
    HEURISTIC,
    HOLDER,
    HOLDER_ROLL,
    IDX,
    KNOCKED_OUT,
    LEFT,
    LENGTH,
    LEVEL_CAP,
    LIMITS,
    MAX_ROUNDS,
    MOVED,
    REDECIDE,
    ROUNDS,
    SHIELD,
    STEP_SIZE,
    STRIDSVANA,
    T_COUNTER,
    T_COUNTER_DAMAGE,
    T_DAMAGE,
    T_DEFENCE2,
    TWO_DEFENCE,
    WOUNDS,
)
from konflikt.rulesets.levald.policies import LOSING_BADLY
from konflikt.rulesets.levald.rules import ALLVARLIG, DODLIG, KRITISK, LATT, NO_WOUND, SKRAMA

Int = np.ndarray


@compiled
def daze_penalty(daze: int) -> int:
    """:func:`rules.daze_penalty`: −10 per started five beyond the first five."""
    return -10 * (max(daze - 1, 0) // 5)


@compiled
def quality(table: Int, roll: int, target: int) -> int:
    """:func:`rules.quality` as one comparable number (level × 100 + effect; 0 a failure), from the table."""
    return int(table[min(max(target, 0), 500) * 101 + roll])


@compiled
def d100(bits: Any) -> int:
    roll: int = uniform(bits, 100) + 1
    return roll


@compiled
def choose(bits: Any, f: Int, who: int, heuristic: bool) -> bool:
    """The heuristic's choice for a heuristic seat, a fair coin for a random one (two legal actions)."""
    if f[HEURISTIC, who]:
        return heuristic
    return uniform(bits, 2) == 1


@compiled
def regain(s: Int, f: Int) -> None:
    """ "Båda återfår ett poäng Gard": both regain one Gard, never above the maximum."""
    for me in range(2):
        s[GARD + me] = min(s[GARD + me] + 1, f[GARD_MAX, me])


@compiled
def wish(bits: Any, s: Int, f: Int, scale: Int, rules: Int, me: int, pen: Int) -> tuple[int, bool]:
    """A fighter's secret movement as a change of distance (−1, 0, +1), and whether it is Lämna (leave)."""
    enemy = 1 - me
    if not f[HEURISTIC, me]:
        choice = uniform(bits, 4 if rules[ALLOW_LEAVE] else 3)
        return min(choice - 1, 1), choice == 3
    if rules[ALLOW_LEAVE] and pen[me] <= LOSING_BADLY and pen[me] - pen[enemy] <= LOSING_BADLY:
        return 1, True
    if s[HOLDER] == me:
        return 0, False  # the holder holds
    d, mine = scale[s[DIST]], f[LENGTH, me]
    if d < mine:
        return 1, False
    if d > mine:
        return -1, False
    if s[HOLDER] != enemy:
        return 0, False
    # at my best distance without the initiative: change the distance to force a new decision
    closer = d - 1
    return (-1 if closer >= 0 and closer != f[LENGTH, enemy] else 1), False


@compiled
def contest(q: Int, rolls: Int, first: int, f: Int, pen: Int) -> int:
    """An opposed Stridsvana roll: 0 or 1 the winner, −1 nobody (equal quality)."""
    a = quality(q, rolls[first], f[STRIDSVANA, 0] + pen[0])
    b = quality(q, rolls[first + 1], f[STRIDSVANA, 1] + pen[1])
    return 0 if a > b else (1 if b > a else -1)


@compiled
def movement(s: Int, f: Int, scale: Int, rules: Int, q: Int, rolls: Int, pen: Int, wa: int, wb: int) -> None:
    """Same wish: that way (``step_size`` steps); else the Stridsvana winner's, or the option nobody chose."""
    if wa == wb:
        change = wa * rules[STEP_SIZE]
    else:
        won = contest(q, rolls, 0, f, pen)
        change = wa if won == 0 else (wb if won == 1 else -(wa + wb))
    moved = min(max(s[DIST] + change, 0), scale.size - 1)
    if moved != s[DIST]:
        s[REDECIDE] |= MOVED
    s[DIST] = moved


@compiled
def initiative(s: Int, f: Int, rules: Int, q: Int, rolls: Int, pen: Int, d: int) -> bool:
    """Who attacks (``s[HOLDER]``) and whether anyone fights: the holder keeps it; else the initiative table, or an
    opposed Stridsvana roll; when nobody gets it both regain one Gard."""
    if s[HOLDER] >= 0 and s[REDECIDE] == 0:
        return True
    far_a, far_b = d > f[LENGTH, 0], d > f[LENGTH, 1]
    opt_a, opt_b = d == f[LENGTH, 0], d == f[LENGTH, 1]
    if far_a and far_b:  # nobody reaches: the initiative is decided afresh next round
        s[REDECIDE] = s[REDECIDE] if s[REDECIDE] else MOVED
        s[HOLDER] = -1
        regain(s, f)
        return False
    near = not far_a and not far_b
    to_b = far_a or (near and opt_b and not opt_a)
    rolled = near and opt_a == opt_b  # both optimal, or both too close
    # "Om anfallaren blir skadad så slås ett nytt slag för att avgöra initiativ"
    if rules[HOLDER_ROLL] and s[REDECIDE] == DAMAGED and s[HOLDER] >= 0:
        rolled, to_b = True, False
    holder = contest(q, rolls, 2, f, pen) if rolled else int(to_b)
    s[HOLDER] = holder
    s[REDECIDE] = MOVED if holder < 0 else 0
    if holder < 0:
        regain(s, f)
        return False
    return True


@compiled
def regain_wish(s: Int, f: Int, att: int, target: int) -> bool:
    """The heuristic attacker does not attack when it cannot hit (or hardly can while its Gard is down)."""
    return target <= 0 or (target <= 10 and s[GARD + att] < f[GARD_MAX, att])


@compiled
def counter_wish(s: Int, f: Int, table: Int, att: int, dfn: int) -> bool:
    """The heuristic defender counters when its Gard soaks (≥ half) and the table says it pays."""
    if s[GARD + dfn] * 2 < f[GARD_MAX, dfn]:
        return False
    lm = min(max(s[DAZE + dfn] - 1, 0) // 5, f[LEVEL_CAP, dfn])
    le = min(max(s[DAZE + att] - 1, 0) // 5, f[LEVEL_CAP, att])
    return bool(table[dfn, lm, le, int(s[GARD + att] > 0), int(s[GARD + dfn] > 0)])


@compiled
def roll_dice(bits: Any, dice: Int, tables: Int, which: int) -> int:
    """One damage roll of weapon dice ``which`` (src × 2 + guarded): a uniform index into the table of every face
    combination's sum, or die by die (``dice[which]`` = count, sides, modifier, table size)."""
    count, sides, modifier, size = dice[which, 0], dice[which, 1], dice[which, 2], dice[which, 3]
    if size:
        return int(tables[which, uniform(bits, size)])
    total: int = modifier
    for _ in range(count):
        total += uniform(bits, sides) + 1
    return total


@compiled
def damage(
    bits: Any,
    s: Int,
    f: Int,
    rules: Int,
    q: Int,
    effect: Int,
    counts: Int,
    dice: Int,
    tables: Int,
    src: int,
    roll: int,
    free: bool,
) -> int:
    """A hit by ``src``: effect + dice on Gard first, the thresholds, wounds, Omtöckning, fates. Returns the dice."""
    dst = 1 - src
    exceptional = quality(q, roll, f[ATTACK, src] + daze_penalty(s[DAZE + src])) >= 200
    shielded_by_gard = counts[src, dst] and not (free and rules[FREE_IGNORES_GARD])
    gard = s[GARD + dst]
    guarded = gard > 0 and shielded_by_gard and not exceptional
    rolled = roll_dice(bits, dice, tables, src * 2 + int(guarded))
    eff = effect[roll]
    total = eff + rolled
    wound = NO_WOUND
    if guarded and (total < gard or (total == gard and not rules[EMPTY_SCRATCH])):
        s[GARD + dst] = gard - total  # Gard absorbs it all
    else:
        compared = total - gard if guarded else total
        if guarded:
            s[GARD + dst] = 0
        wound = SKRAMA
        for k in range(4):
            wound += int(compared >= f[LIMITS + k, dst])
    # Skråma: 1 Omtöckning; Lätt: the dice; Allvarlig: dice + effect; Kritisk and Dödlig: none (the fighter is out)
    if wound == SKRAMA:
        s[DAZE + dst] += 1
    elif wound == LATT:
        s[DAZE + dst] += rolled
    elif wound == ALLVARLIG:
        s[DAZE + dst] += rolled + eff
    if wound >= 0:
        s[WOUNDS + dst * 5 + wound] += 1
    if wound == KRITISK or (wound == DODLIG and rules[DEADLY_KNOCKS_OUT]):
        s[FATE + dst] = KNOCKED_OUT
    elif wound == DODLIG:
        s[FATE + dst] = DEAD
    if s[HOLDER] == dst and (wound != NO_WOUND or rules[GARD_DAMAGE_IS_DAMAGE]):
        s[REDECIDE] |= DAMAGED
    return rolled


@compiled
def ground_score(f: Int, scale: Int, pos: int, att: int) -> int:
    """The heuristic's 2·[d = mine] − 1.5·[d = theirs] + 0.5·[d ≤ mine] − 0.5·[d ≤ theirs], times two."""
    d, mine, theirs = scale[pos], f[LENGTH, att], f[LENGTH, 1 - att]
    return 4 * int(d == mine) - 3 * int(d == theirs) + int(d <= mine) - int(d <= theirs)


@compiled
def gain_ground(bits: Any, s: Int, f: Int, scale: Int, rules: Int, att: int) -> None:
    """Vinna terräng: the successful attacker follows or not (a cornered defender: follow in or stand)."""
    other = 1 - 2 * f[CORNERED, 1 - att]  # −1 (follow in) against a cornered defender, else +1
    moved = min(max(s[DIST] + other, 0), scale.size - 1)
    step = choose(bits, f, att, ground_score(f, scale, moved, att) > ground_score(f, scale, s[DIST], att))
    if step and moved != s[DIST]:
        if rules[GROUND_REDECIDES]:
            s[REDECIDE] |= MOVED
        s[DIST] = moved


@compiled
def settled(s: Int, f: Int, scale: Int, rules: Int) -> bool:
    """Two heuristics whose future no die can change any more: they would repeat regain rounds until
    ``max_rounds``, where the reference runner plays them out to a deadlock; the loop goes there at once.

    Both so dazed that their Stridsvana target is 0 or less (every movement and initiative roll fails), and either
    both attack targets 0 or less too, or both standing at their common weapon length without the initiative; and
    not dazed enough apart to leave. Nobody is ever damaged again; every round both regain one Gard."""
    if not (f[HEURISTIC, 0] and f[HEURISTIC, 1]):
        return False
    pa, pb = daze_penalty(s[DAZE]), daze_penalty(s[DAZE + 1])
    if f[STRIDSVANA, 0] + pa > 0 or f[STRIDSVANA, 1] + pb > 0:
        return False
    harmless = f[ATTACK, 0] + pa <= 0 and f[ATTACK, 1] + pb <= 0
    if f[LENGTH, 0] == f[LENGTH, 1]:
        harmless = harmless or (s[HOLDER] < 0 and scale[s[DIST]] == f[LENGTH, 0])
    if not harmless:
        return False
    leaves = (pa <= LOSING_BADLY and pa - pb <= LOSING_BADLY) or (pb <= LOSING_BADLY and pb - pa <= LOSING_BADLY)
    return not (rules[ALLOW_LEAVE] and leaves)


@compiled
def one_round(
    bits: Any,
    s: Int,
    f: Int,
    scale: Int,
    rules: Int,
    q: Int,
    effect: Int,
    counts: Int,
    dice: Int,
    tables: Int,
    counter_table: Int,
    rolls: Int,
    traced: Int,
) -> None:
    """One round of one duel, as ``LevaldState`` plays it. ``rolls``: its six d100 (movement a, b; initiative a,
    b; attack; defence); ``traced`` receives the other dice drawn (−1 where none)."""
    for k in range(6):
        rolls[k] = d100(bits)
    pen = np.empty(2, dtype=np.int64)
    pen[0], pen[1] = daze_penalty(s[DAZE]), daze_penalty(s[DAZE + 1])
    wa, leave_a = wish(bits, s, f, scale, rules, 0, pen)
    wb, leave_b = wish(bits, s, f, scale, rules, 1, pen)
    movement(s, f, scale, rules, q, rolls, pen, wa, wb)
    d = scale[s[DIST]]
    # Lämna (leave): both leave; one leaves freely beyond the enemy's weapon, or under a gratisanfall
    leaver = 1 if leave_b else 0
    chased = False
    if leave_a and leave_b:
        s[FATE], s[FATE + 1] = LEFT, LEFT
    elif leave_a or leave_b:
        if d > f[LENGTH, 1 - leaver]:
            s[FATE + leaver] = LEFT
        else:
            chased = True
    fighting = not (leave_a or leave_b) and initiative(s, f, rules, q, rolls, pen, d)
    att = s[HOLDER] if fighting else 0
    dfn = 1 - att
    src = 1 - leaver if chased else att  # who rolls the attack: the attacker, or the chaser of a leaver
    att_target = f[ATTACK, src] + pen[src]
    attacking = False
    counter = False
    if fighting:
        if choose(bits, f, att, regain_wish(s, f, att, att_target)):
            regain(s, f)
        else:
            attacking = True
            if d <= f[LENGTH, dfn]:
                counter = choose(bits, f, dfn, counter_wish(s, f, counter_table, att, dfn))
    attack_quality = quality(q, rolls[4], att_target)
    defence_target = f[DEFENCE, dfn] + pen[dfn]
    defence_quality = quality(q, rolls[5], defence_target)
    if rules[TWO_DEFENCE]:
        second = d100(bits)
        traced[T_DEFENCE2] = second
        if f[SHIELD, dfn]:
            defence_quality = max(defence_quality, quality(q, second, defence_target))
    # the first hit: the main attack (won against the defence, or any success against a counter-attack), or the
    # free attack on a fighter leaving within reach
    if attack_quality > 0 and (chased or (attacking and (counter or attack_quality > defence_quality))):
        traced[T_DAMAGE] = damage(bits, s, f, rules, q, effect, counts, dice, tables, src, rolls[4], chased)
    if chased and s[FATE + leaver] == FIGHTING:
        s[FATE + leaver] = LEFT
    # the counter-attack, with the Omtöckning just received; a defender taken out makes none
    if counter and s[FATE + dfn] == FIGHTING:
        roll = d100(bits)
        traced[T_COUNTER] = roll
        if quality(q, roll, f[ATTACK, dfn] + daze_penalty(s[DAZE + dfn])) > 0:
            traced[T_COUNTER_DAMAGE] = damage(bits, s, f, rules, q, effect, counts, dice, tables, dfn, roll, False)
    if attacking and attack_quality > 0 and s[FATE] == FIGHTING and s[FATE + 1] == FIGHTING:
        gain_ground(bits, s, f, scale, rules, att)


@compiled
def play(
    rng: Any,
    n: int,
    start: Int,
    f: Int,
    scale: Int,
    rules: Int,
    q: Int,
    effect: Int,
    counts: Int,
    dice: Int,
    tables: Int,
    counter_table: Int,
    out: Int,
    trace_d100: Int,
    trace_other: Int,
) -> None:
    """Play ``n`` duels from ``start``; duel j's final vector goes to ``out[:, j]``. With a trace (``trace_d100``
    of shape (max_rounds, 6, n), ``trace_other`` (4, max_rounds, n), −1 filled) every die is recorded by round."""
    bits = rng.bit_generator
    s = np.empty(start.size, dtype=np.int64)
    rolls = np.empty(6, dtype=np.int64)
    traced = np.empty(4, dtype=np.int64)
    keep = trace_d100.shape[0] > 0
    for j in range(n):
        s[:] = start
        s[IDX] = j
        while True:
            traced[:] = -1
            one_round(bits, s, f, scale, rules, q, effect, counts, dice, tables, counter_table, rolls, traced)
            if keep:
                r = s[ROUNDS]
                trace_d100[r, :, j] = rolls
                trace_other[:, r, j] = traced
            s[ROUNDS] += 1
            if settled(s, f, scale, rules):
                for me in range(2):
                    s[GARD + me] = min(s[GARD + me] + rules[MAX_ROUNDS] - s[ROUNDS], f[GARD_MAX, me])
                s[ROUNDS] = rules[MAX_ROUNDS]
            if s[FATE] != FIGHTING or s[FATE + 1] != FIGHTING or s[ROUNDS] >= rules[MAX_ROUNDS]:
                break
        out[:, j] = s
