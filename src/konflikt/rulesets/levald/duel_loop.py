"""Le våld duels one at a time, round by round, in the order ``LevaldState`` plays them: a compiled loop.

Each duel is a short vector ``s`` in the rows of :mod:`.duel_rounds` (distance, initiative holder and why it must be
decided afresh, rounds, and per fighter Gard, Omtöckning, fate and wound boxes). :func:`play` is the round: the six
d100, the movement wishes (:func:`wish`) and :func:`movement`, Lämna (leave), :func:`initiative`, attack or regain
(:func:`regain_wish`), defend or counter (:func:`counter_wish`), the hit (:func:`damage_dice`, :func:`hit`,
:func:`daze_gained`, :func:`fate_after`), the counter-attack and :func:`gain_ground` — each helper does what the rule
of the same name says. The fixed numbers of the duel are arrays built once by
:func:`konflikt.rulesets.levald.kernel.make_kernel`: ``f`` (per fighter, rows named in :mod:`.duel_rounds`),
``rules`` (the options), the damage dice and their tables, and the heuristic defender's table.

The loop is one function on purpose, its helpers given numbers only: numba counts the references of every array a
compiled function is handed (an atomic add on entry and a subtract on exit, a call to the runtime each), and the
earlier loop, a round function and its helpers each given the duel's arrays, spent nine tenths of its time on
that. The d100 quality and effect tables are module constants, which numba freezes into the code; the cache is
keyed on every konflikt module this one imports (:mod:`konflikt.dice.compile_cache`), so a changed row or table of
:mod:`.duel_rounds` recompiles the loop by itself.

numba compiles the module on first use and caches the machine code (:mod:`konflikt.dice.compiled`); dice come from
the kernel's numpy ``Generator``: a round's six d100 from two exactly uniform draws below 100³ (three d100 each, its
base-100 digits), damage dice as a uniform index into the table of every face combination, or die by die where that
table would be too large.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from konflikt.dice.compiled import compiled, uniform
from konflikt.rulesets.levald.duel_rounds import (
    ALLOW_LEAVE,
    ATTACK,
    ATTACKING,
    CORNERED,
    COUNTER,
    COUNTS,
    DAMAGED,
    DAZE,
    DEAD,
    DEADLY_KNOCKS_OUT,
    DEFENCE,
    DIST,
    EMPTY_SCRATCH,
    ENTRY,
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
    KNOCKED_OUT,
    LEAVE_A,
    LEAVE_B,
    LEFT,
    LENGTH,
    LEVEL_CAP,
    LIMITS,
    MAX_ROUNDS,
    MOVED,
    QUALITY,
    REDECIDE,
    REVEALED,
    ROLES,
    ROLL_A,
    ROLL_ATTACK,
    ROLL_EFFECT,
    ROUNDS,
    SHIELD,
    STEP_SIZE,
    STRIDSVANA,
    T_COUNTER,
    T_COUNTER_DAMAGE,
    T_DAMAGE,
    T_DEFENCE2,
    TARGET_MAX,
    TWO_DEFENCE,
    WISH_A,
    WISH_B,
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
def quality(roll: int, target: int) -> int:
    """:func:`rules.quality` as one comparable number (level × 100 + effect; 0 a failure), from the table."""
    return int(QUALITY[min(max(target, 0), TARGET_MAX) * 101 + roll])


@compiled
def d100(bits: Any) -> int:
    roll: int = uniform(bits, 100) + 1
    return roll


@compiled
def three_d100(bits: Any) -> tuple[int, int, int]:
    """Three d100 from one exactly uniform draw below 100³: its three base-100 digits, each uniform and independent."""
    u = uniform(bits, 1_000_000)
    return u // 10_000 + 1, u // 100 % 100 + 1, u % 100 + 1


@compiled
def choose(bits: Any, heuristic: bool, choice: bool) -> bool:
    """The heuristic's choice for a heuristic seat, a fair coin for a random one (two legal actions)."""
    if heuristic:
        return choice
    return uniform(bits, 2) == 1


@compiled
def wish(
    bits: Any, heuristic: bool, allow_leave: bool, me: int, holder: int, d: int, mine: int, theirs: int, pen: int,
    enemy_pen: int,
) -> tuple[int, bool]:  # fmt: skip
    """A fighter's secret movement as a change of distance (−1, 0, +1), and whether it is Lämna (leave): at
    distance ``d`` with weapon length ``mine`` against ``theirs``, daze penalties ``pen`` and ``enemy_pen``."""
    if not heuristic:
        choice = uniform(bits, 4 if allow_leave else 3)
        return min(choice - 1, 1), choice == 3
    if allow_leave and pen <= LOSING_BADLY and pen - enemy_pen <= LOSING_BADLY:
        return 1, True
    if holder == me:
        return 0, False  # the holder holds
    if d < mine:
        return 1, False
    if d > mine:
        return -1, False
    if holder != 1 - me:
        return 0, False
    # at my best distance without the initiative: change the distance to force a new decision
    closer = d - 1
    return (-1 if closer >= 0 and closer != theirs else 1), False


@compiled
def contest(roll_a: int, roll_b: int, target_a: int, target_b: int) -> int:
    """An opposed Stridsvana roll: 0 or 1 the winner, −1 nobody (equal quality)."""
    a, b = quality(roll_a, target_a), quality(roll_b, target_b)
    return 0 if a > b else (1 if b > a else -1)


@compiled
def movement(wish_a: int, wish_b: int, step: int, won: int) -> int:
    """The change of distance: the same wish that way (``step`` steps); else the contest winner's (``won``), or on
    a tie the option nobody chose."""
    if wish_a == wish_b:
        return wish_a * step
    return wish_a if won == 0 else (wish_b if won == 1 else -(wish_a + wish_b))


@compiled
def initiative(
    holder: int, redecide: int, d: int, length_a: int, length_b: int, holder_roll: bool, roll_a: int, roll_b: int,
    target_a: int, target_b: int,
) -> tuple[int, int]:  # fmt: skip
    """Who attacks after the movement, and why to decide afresh next time: (holder or −1 nobody, ``REDECIDE`` bits).
    The holder keeps it while its weapon reaches (:func:`rules.keeps_initiative`); else the initiative table by
    reach, or an opposed Stridsvana roll (``roll_a``, ``roll_b``)."""
    if holder >= 0 and redecide == 0 and d <= (length_a if holder == 0 else length_b):
        return holder, 0
    far_a, far_b = d > length_a, d > length_b
    opt_a, opt_b = d == length_a, d == length_b
    if far_a and far_b:  # nobody reaches: the initiative is decided afresh next round
        return -1, redecide if redecide else MOVED
    near = not far_a and not far_b
    to_b = far_a or (near and opt_b and not opt_a)
    rolled = near and opt_a == opt_b  # both optimal, or both too close
    # "Om anfallaren blir skadad så slås ett nytt slag för att avgöra initiativ" — the one too far stays
    # "automatiskt försvarare" (rules.initiative_afresh)
    if holder_roll and redecide == DAMAGED and holder >= 0 and near:
        rolled, to_b = True, False
    won = contest(roll_a, roll_b, target_a, target_b) if rolled else int(to_b)
    return won, MOVED if won < 0 else 0


@compiled
def regain_wish(gard: int, gard_max: int, target: int) -> bool:
    """The heuristic attacker does not attack when it cannot hit (or hardly can while its Gard is down)."""
    return target <= 0 or (target <= 10 and gard < gard_max)


@compiled
def soaks(gard: int, gard_max: int) -> bool:
    """The heuristic defender counters only while its Gard soaks a hit (at least half of it left)."""
    return gard * 2 >= gard_max


@compiled
def level(daze: int, cap: int) -> int:
    """The daze level (started fives beyond the first) as the counter table's index, capped where nothing changes."""
    return min(max(daze - 1, 0) // 5, cap)


@compiled
def damage_dice(bits: Any, count: int, sides: int, modifier: int) -> int:
    """``count``T``sides`` + ``modifier`` die by die (the dice whose table of face combinations would be too large)."""
    total = modifier
    for _ in range(count):
        total += uniform(bits, sides) + 1
    return total


@compiled
def hit(
    total: int, gard: int, guarded: bool, empty_scratch: bool, light: int, serious: int, critical: int, deadly: int
) -> tuple[int, int]:
    """:func:`rules.apply_hit`: (Gard left, the wound or ``NO_WOUND``). Guarded, the damage is marked on Gard first
    and only what overflows meets the thresholds (exactly emptying Gard wounds only with ``empty_scratch``)."""
    if guarded and (total < gard or (total == gard and not empty_scratch)):
        return gard - total, NO_WOUND  # Gard absorbs it all
    compared = total - gard if guarded else total
    wound = SKRAMA + int(compared >= light) + int(compared >= serious) + int(compared >= critical)
    return (0 if guarded else gard), wound + int(compared >= deadly)


@compiled
def daze_gained(wound: int, dice: int, effect: int) -> int:
    """:func:`rules.daze_gained`: Skråma 1 Omtöckning; Lätt the dice; Allvarlig dice + effect; Kritisk and Dödlig
    none (the fighter is out)."""
    if wound == SKRAMA:
        return 1
    if wound == LATT:
        return dice
    if wound == ALLVARLIG:
        return dice + effect
    return 0


@compiled
def fate_after(wound: int, deadly_knocks_out: bool) -> int:
    """Kritisk knocks out; Dödlig kills (or knocks out under ``deadly_wound = knocked_out``); lesser wounds none."""
    if wound == KRITISK or (wound == DODLIG and deadly_knocks_out):
        return KNOCKED_OUT
    return DEAD if wound == DODLIG else FIGHTING


@compiled
def ground_score(d: int, mine: int, theirs: int) -> int:
    """The heuristic's 2·[d = mine] − 1.5·[d = theirs] + 0.5·[d ≤ mine] − 0.5·[d ≤ theirs], times two."""
    return 4 * int(d == mine) - 3 * int(d == theirs) + int(d <= mine) - int(d <= theirs)


@compiled
def followed(pos: int, cornered: bool, last: int) -> int:
    """Vinna terräng: the distance position if the attacker follows: a step back against a defender who gives
    ground, a step in against a cornered one (who stands), within the scale's ``0 … last``."""
    return min(max(pos - 1 if cornered else pos + 1, 0), last)


@compiled
def gain_ground(bits: Any, heuristic: bool, d: int, d_moved: int, mine: int, theirs: int) -> bool:
    """Vinna terräng: whether the successful attacker follows (from distance ``d`` to ``d_moved``): the heuristic
    when it scores better there, a random seat by a coin."""
    return choose(bits, heuristic, ground_score(d_moved, mine, theirs) > ground_score(d, mine, theirs))


@compiled
def settled(
    heuristics: bool, daze_a: int, daze_b: int, stridsvana_a: int, stridsvana_b: int, attack_a: int, attack_b: int,
    same_length_unheld: bool, allow_leave: bool,
) -> bool:  # fmt: skip
    """Two heuristics whose future no die can change any more: they would repeat regain rounds until
    ``max_rounds``, where the reference runner plays them out to a deadlock; the loop goes there at once.

    Both so dazed that their Stridsvana target is 0 or less (every movement and initiative roll fails), and either
    both attack targets 0 or less too, or both standing at their common weapon length without the initiative
    (``same_length_unheld``); and not dazed enough apart to leave. Nobody is ever damaged again; every round both
    regain one Gard."""
    if not heuristics:
        return False
    pa, pb = daze_penalty(daze_a), daze_penalty(daze_b)
    if stridsvana_a + pa > 0 or stridsvana_b + pb > 0:
        return False
    if not ((attack_a + pa <= 0 and attack_b + pb <= 0) or same_length_unheld):
        return False
    leaves = (pa <= LOSING_BADLY and pa - pb <= LOSING_BADLY) or (pb <= LOSING_BADLY and pb - pa <= LOSING_BADLY)
    return not (allow_leave and leaves)


@compiled
def play(
    rng: Any,
    n: int,
    start: Int,
    f: Int,
    scale: Int,
    rules: Int,
    dice: Int,
    tables: Int,
    counter_table: Int,
    entry: Int,
    out: Int,
    trace_d100: Int,
    trace_other: Int,
) -> None:
    """Play ``n`` duels from ``start``; duel j's final vector goes to ``out[:, j]``. ``entry`` says where in its
    first round each duel starts: ``entry[ENTRY]`` 0 at the round's start; 1 with the secret movement revealed
    (``entry[WISH_A:ROLL_A]``: each fighter's wish and whether it leaves) and the movement contest's first roll
    ``entry[ROLL_A]`` made where it is not −1; 2 with the movement, leaving and initiative done (in ``start``), the
    attack chosen or not yet, the defender's answer and the attack roll where made (a batch started from a State in
    the middle of a round: :data:`~.duel_rounds.ENTRY`). With a trace
    (``trace_d100`` of shape (max_rounds, 6, n), ``trace_other`` (4, max_rounds, n), −1 filled) every die is
    recorded by round: the six d100 (movement a, b; initiative a, b; attack; defence), then a second defence roll,
    the counter-attack roll and the damage dice of the hit and of the counter (−1 where none)."""
    bits = rng.bit_generator
    s = np.empty(start.size, dtype=np.int64)
    rolls = np.empty(6, dtype=np.int64)
    traced = np.empty(4, dtype=np.int64)
    pen = np.empty(2, dtype=np.int64)
    keep = trace_d100.shape[0] > 0
    last = scale.size - 1
    step, max_rounds = rules[STEP_SIZE], rules[MAX_ROUNDS]
    allow_leave, two_defence, holder_roll = rules[ALLOW_LEAVE] != 0, rules[TWO_DEFENCE] != 0, rules[HOLDER_ROLL] != 0
    free_ignores_gard, empty_scratch = rules[FREE_IGNORES_GARD] != 0, rules[EMPTY_SCRATCH] != 0
    deadly_knocks_out, gard_damage_is_damage = rules[DEADLY_KNOCKS_OUT] != 0, rules[GARD_DAMAGE_IS_DAMAGE] != 0
    ground_redecides = rules[GROUND_REDECIDES] != 0
    heuristics = f[HEURISTIC, 0] != 0 and f[HEURISTIC, 1] != 0
    for j in range(n):
        s[:] = start
        first = True
        while True:
            if keep:
                traced[:] = -1
            rolls[0], rolls[1], rolls[2] = three_d100(bits)
            rolls[3], rolls[4], rolls[5] = three_d100(bits)
            pen[0], pen[1] = daze_penalty(s[DAZE]), daze_penalty(s[DAZE + 1])
            holder, d = s[HOLDER], scale[s[DIST]]
            roles = first and entry[ENTRY] == ROLES  # movement, leaving and initiative done by the State already
            first_round, first = first, False
            leaver, chased, fighting = 0, False, s[HOLDER] >= 0
            if not roles:
                # the secret movement: both wishes, then the same wish that way or the Stridsvana contest
                if first_round and entry[ENTRY] == REVEALED:  # as the State revealed them (and the first roll, if made)
                    wa, leave_a, wb, leave_b = entry[WISH_A], entry[LEAVE_A] != 0, entry[WISH_B], entry[LEAVE_B] != 0
                    if entry[ROLL_A] >= 0:
                        rolls[0] = entry[ROLL_A]
                else:
                    wa, leave_a = wish(bits, f[HEURISTIC, 0] != 0, allow_leave, 0, holder, d, f[LENGTH, 0],
                                       f[LENGTH, 1], pen[0], pen[1])  # fmt: skip
                    wb, leave_b = wish(bits, f[HEURISTIC, 1] != 0, allow_leave, 1, holder, d, f[LENGTH, 1],
                                       f[LENGTH, 0], pen[1], pen[0])  # fmt: skip
                won = -1
                if wa != wb:
                    won = contest(rolls[0], rolls[1], f[STRIDSVANA, 0] + pen[0], f[STRIDSVANA, 1] + pen[1])
                moved = min(max(s[DIST] + movement(wa, wb, step, won), 0), last)
                if moved != s[DIST]:
                    s[REDECIDE] |= MOVED
                s[DIST] = moved
                d = scale[moved]
                # Lämna (leave): both leave; one leaves freely beyond the enemy's weapon, or under a gratisanfall
                leaver = 1 if leave_b else 0
                if leave_a and leave_b:
                    s[FATE], s[FATE + 1] = LEFT, LEFT
                elif leave_a or leave_b:
                    if d > f[LENGTH, 1 - leaver]:
                        s[FATE + leaver] = LEFT
                    else:
                        chased = True
                fighting = False
                if not (leave_a or leave_b):
                    s[HOLDER], s[REDECIDE] = initiative(
                        s[HOLDER], s[REDECIDE], d, f[LENGTH, 0], f[LENGTH, 1], holder_roll, rolls[2], rolls[3],
                        f[STRIDSVANA, 0] + pen[0], f[STRIDSVANA, 1] + pen[1],
                    )  # fmt: skip
                    fighting = s[HOLDER] >= 0
                    if not fighting:  # nobody gets the initiative: both regain one Gard
                        for me in range(2):
                            s[GARD + me] = min(s[GARD + me] + 1, f[GARD_MAX, me])
            att = s[HOLDER] if fighting else 0
            dfn = 1 - att
            src = 1 - leaver if chased else att  # who rolls the attack: the attacker, or the chaser of a leaver
            att_target = f[ATTACK, src] + pen[src]
            attacking = counter = False
            if roles and entry[ATTACKING] == 1:  # the attack chosen (and the defender's answer, where it is)
                attacking = True
                if entry[COUNTER] >= 0:
                    counter = entry[COUNTER] == 1
                elif d <= f[LENGTH, dfn]:
                    pays = soaks(s[GARD + dfn], f[GARD_MAX, dfn]) and counter_table[
                        dfn, level(s[DAZE + dfn], f[LEVEL_CAP, dfn]), level(s[DAZE + att], f[LEVEL_CAP, att]),
                        int(s[GARD + att] > 0), int(s[GARD + dfn] > 0)
                    ]  # fmt: skip
                    counter = choose(bits, f[HEURISTIC, dfn] != 0, pays)
                if entry[ROLL_ATTACK] >= 0:
                    rolls[4] = entry[ROLL_ATTACK]
            elif fighting:
                if choose(bits, f[HEURISTIC, att] != 0, regain_wish(s[GARD + att], f[GARD_MAX, att], att_target)):
                    for me in range(2):  # "Båda återfår ett poäng Gard"
                        s[GARD + me] = min(s[GARD + me] + 1, f[GARD_MAX, me])
                else:
                    attacking = True
                    if d <= f[LENGTH, dfn]:
                        pays = soaks(s[GARD + dfn], f[GARD_MAX, dfn]) and counter_table[
                            dfn, level(s[DAZE + dfn], f[LEVEL_CAP, dfn]), level(s[DAZE + att], f[LEVEL_CAP, att]),
                            int(s[GARD + att] > 0), int(s[GARD + dfn] > 0)
                        ]  # fmt: skip
                        counter = choose(bits, f[HEURISTIC, dfn] != 0, pays)
            attack_quality = quality(rolls[4], att_target)
            defence_target = f[DEFENCE, dfn] + pen[dfn]
            defence_quality = quality(rolls[5], defence_target)
            if two_defence:
                second = d100(bits)
                traced[T_DEFENCE2] = second
                if f[SHIELD, dfn]:
                    defence_quality = max(defence_quality, quality(second, defence_target))
            # the first hit: the main attack (won against the defence, or any success against a counter-attack), or
            # the free attack on a fighter leaving within reach; then the counter-attack, with the Omtöckning just
            # received (a defender taken out makes none)
            for blow in range(2):
                if blow == 0:
                    striker, roll = src, rolls[4]
                    beaten = counter or attack_quality > defence_quality
                    lands = attack_quality > 0 and (chased or (attacking and beaten))
                else:
                    if chased and s[FATE + leaver] == FIGHTING:
                        s[FATE + leaver] = LEFT
                    if not (counter and s[FATE + dfn] == FIGHTING):
                        break
                    striker, roll = dfn, d100(bits)
                    traced[T_COUNTER] = roll
                    lands = quality(roll, f[ATTACK, dfn] + daze_penalty(s[DAZE + dfn])) > 0
                if not lands:
                    continue
                # the hit: effect + dice, on Gard first unless exceptional (or a free attack that ignores Gard)
                target = 1 - striker
                exceptional = quality(roll, f[ATTACK, striker] + daze_penalty(s[DAZE + striker])) >= 200
                shielded = f[COUNTS, striker] != 0 and not (blow == 0 and chased and free_ignores_gard)
                gard = s[GARD + target]
                guarded = gard > 0 and shielded and not exceptional
                which = striker * 2 + int(guarded)
                size = dice[which, 3]
                if size:
                    rolled = tables[which, uniform(bits, size)]
                else:
                    rolled = damage_dice(bits, dice[which, 0], dice[which, 1], dice[which, 2])
                traced[T_DAMAGE if blow == 0 else T_COUNTER_DAMAGE] = rolled
                effect = ROLL_EFFECT[roll]
                t = LIMITS
                s[GARD + target], wound = hit(effect + rolled, gard, guarded, empty_scratch, f[t, target],
                                              f[t + 1, target], f[t + 2, target], f[t + 3, target])  # fmt: skip
                s[DAZE + target] += daze_gained(wound, rolled, effect)
                if wound != NO_WOUND:
                    s[WOUNDS + target * 5 + wound] += 1
                    if wound >= KRITISK:
                        s[FATE + target] = fate_after(wound, deadly_knocks_out)
                if s[HOLDER] == target and (wound != NO_WOUND or gard_damage_is_damage):
                    s[REDECIDE] |= DAMAGED
            # Vinna terräng: the successful attacker may follow (a cornered defender: follow in, or stand)
            if attacking and attack_quality > 0 and s[FATE] == FIGHTING and s[FATE + 1] == FIGHTING:
                ground = followed(s[DIST], f[CORNERED, dfn] != 0, last)
                follows = gain_ground(bits, f[HEURISTIC, att] != 0, scale[s[DIST]], scale[ground], f[LENGTH, att],
                                      f[LENGTH, dfn])  # fmt: skip
                if follows and ground != s[DIST]:
                    if ground_redecides:
                        s[REDECIDE] |= MOVED
                    s[DIST] = ground
            if keep:
                r = s[ROUNDS]
                trace_d100[r, :, j] = rolls
                trace_other[:, r, j] = traced
            s[ROUNDS] += 1
            same_length_unheld = f[LENGTH, 0] == f[LENGTH, 1] and s[HOLDER] < 0 and scale[s[DIST]] == f[LENGTH, 0]
            if settled(heuristics, s[DAZE], s[DAZE + 1], f[STRIDSVANA, 0], f[STRIDSVANA, 1], f[ATTACK, 0],
                       f[ATTACK, 1], same_length_unheld, allow_leave):  # fmt: skip
                for me in range(2):  # the rounds left are regain rounds
                    s[GARD + me] = min(s[GARD + me] + max_rounds - s[ROUNDS], f[GARD_MAX, me])
                s[ROUNDS] = max_rounds
            if s[FATE] != FIGHTING or s[FATE + 1] != FIGHTING or s[ROUNDS] >= max_rounds:
                break
        out[:, j] = s
