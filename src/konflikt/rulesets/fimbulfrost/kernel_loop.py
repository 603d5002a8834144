"""Fimbulfrost's conflicts one at a time, runde by runde: a compiled loop over the kernel's tables.

:mod:`.kernel` compiles a scenario into tables by the rules' and the heuristic's own functions (the splits, the
hits, the gathering of round 3, the consequences bought); this loop only rolls the dice a conflict asks for, adds,
compares and looks up, in the order :class:`~.state.FimbulfrostState` plays: the heroes' Omdømme rolls, the
opponent's answer, three dice a standing hero, the opponent's Kamp roll, the gathered dice of round 3 — each roll
only if the conflict gets there.

The dice are exact and cheap: a roll's successes (4–6, p = 1/2 a die) are the set bits of as many random bits, taken
from 64-bit draws that several rolls share (:func:`~konflikt.dice.compiled.successes`); the 1s among the other dice
(p = 1/3 each) are one exactly uniform draw below 3ᵏ for up to 8 of them, its base-3 digits the faces, the 1s
counted by a table (:func:`ones`). numba compiles the module on first use and caches it
(:mod:`konflikt.dice.compiled`).

The loop is one function on purpose: numba counts the references of every array a compiled function is handed (an
atomic add on entry, a subtract on exit, unless the function is straight-line code), and a separate ``settle`` given
the twenty tables cost three times what the dice did. The helpers it calls take scalars; the 1s table is a
module constant, which numba freezes into the code.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from konflikt.dice.compiled import compiled, successes, uniform

Int = np.ndarray
GROUP = 8
"""The most non-success dice whose 1s one draw decides: a uniform u below 3ᵏ is their k faces as base-3 digits
(3⁸ = 6,561 entries in :data:`NONZERO`, a table the processor's first cache holds)."""

# ``consts``
HEROES, STATUS, ANSWER, KAMP, PER, OPP_WIDTH, EVERY_PAYS, R2_DICE = range(8)
# rows of ``t1`` (by the heroes' round-1 successes k1), ``ta`` (by a, after the answer), ``tb`` (by b, after Kamp)
T1_OS, T1_STEPS = range(2)
TA_STEPS, TA_OUT, TA_MASK, TA_R2 = range(4)
TB_STEPS, TB_OUT, TB_MASK = range(3)
# columns of ``hero[i]`` (int16, a quarter of a cache line a consequence key); rows of ``opp`` (by the opponent's key)
LABEL, BOUGHT, DEAD, MARKED, GONE, LOST = range(6)
OPP_LABEL, OPP_BOUGHT = range(2)
# rows of ``out`` (int16, one allocation for the whole batch): the codes and the length, the numbers (as
# kernel.NUMBERS), then each hero's fate code
WINNERS, ENDING, LENGTH, OPP = range(4)
ROUND, OPPONENT_STATUS, CONSEQUENCES, OPPONENT_CONSEQUENCES, DEAD_N, OUT_N, DEATH_MARKED, DICE_SPENT = range(4, 12)
FATE = 12
# how a conflict ends (kernel.STAGES): the opponent defeated in round 1, every hero out in round 1, ... round 3 lost
WON_1, OUT_1, WON_2, OUT_2, WON_3, LOST_3 = range(6)


def nonzero_digits() -> Int:
    """``NONZERO[u]``: how many of u's base-3 digits are not 0, for u below 3^GROUP. Read as k faces of dice that did
    not succeed (digit 0 the 1, digits 1 and 2 the 2 and the 3), a uniform u below 3ᵏ shows k − ``NONZERO[u]`` ones."""
    table = np.zeros(3**GROUP, np.uint8)
    for u in range(1, 3**GROUP):
        table[u] = table[u // 3] + (u % 3 != 0)
    return table


NONZERO = nonzero_digits()
"""A constant of the compiled code (not an argument: numba would count its references on every call)."""
POWERS = np.array([3**k for k in range(GROUP + 1)], np.int64)


@compiled
def ones(bits: Any, others: int) -> int:
    """The 1s among ``others`` dice that did not succeed (each a 1 with p = 1/3): per group of up to
    :data:`GROUP`, one exactly uniform u below 3ᵏ (its k base-3 digits the faces) and k minus its nonzero digits."""
    total = 0
    while others > 0:
        k = min(others, GROUP)
        total += k - NONZERO[uniform(bits, POWERS[k])]
        others -= k
    return total


@compiled
def play(
    rng: Any,
    consts: Int,
    d1: Int,
    radix1: Int,
    t1: Int,
    ta: Int,
    ta_key: Int,
    tb: Int,
    tb_key: Int,
    tc_dice: Int,
    tc_spent: Int,
    tc_empty: Int,
    tc_steps: Int,
    hero: Int,
    hero_width: Int,
    opp: Int,
    pools: Int,
    empty_at_start: Int,
    out: Int,
    trace: Int,
) -> None:
    """Play ``out.shape[1]`` conflicts: per conflict its codes, length, numbers and the heroes' fate codes in the
    rows of ``out``; with a ``trace`` (rows s1 per hero, h1, s2 and o2 per hero, h2, s3 and o3 per hero) every
    roll's successes and 1s."""
    bits = rng.bit_generator
    word, left = np.uint64(0), 0  # the 64-bit draw the successes come from, and how many of its bits are unused
    n = consts[HEROES]
    status, answer, kamp = consts[STATUS], consts[ANSWER], consts[KAMP]
    per, opp_width, every_pays = consts[PER], consts[OPP_WIDTH], consts[EVERY_PAYS]
    r2_dice = consts[R2_DICE]  # three a standing hero; none in a batch started at round 3 (kernel_entry)
    o2, o3 = np.zeros(n, np.int64), np.zeros(n, np.int64)
    keep = trace.shape[0] > 0
    for j in range(out.shape[1]):
        for i in range(n):
            o2[i] = o3[i] = 0
        a = b = c = 0
        os2 = os3 = 0
        # runde 1: every hero's Omdømme roll; the splits are in the table
        k1 = 0
        for i in range(n):
            s, word, left = successes(bits, word, left, d1[i])
            k1 += s * radix1[i]
            if keep:
                trace[i, j] = s
        os1 = t1[T1_OS, k1]
        if os1 <= 0:
            stage = WON_1
        else:  # the opponent's answer
            h1, word, left = successes(bits, word, left, answer)
            a = k1 * (answer + 1) + h1
            if keep:
                trace[n, j] = h1
            if ta[TA_OUT, a]:
                stage = OUT_1
            else:  # runde 2: three dice a standing hero, then the Kamp roll
                os2 = os1
                for i in range(n):
                    if ta[TA_MASK, a] >> i & 1:
                        s, word, left = successes(bits, word, left, r2_dice)
                        o2[i] = ones(bits, r2_dice - s)
                        os2 -= s
                        if keep:
                            trace[n + 1 + i, j], trace[2 * n + 1 + i, j] = s, o2[i]
                if os2 <= 0:
                    stage = WON_2
                else:
                    h2, word, left = successes(bits, word, left, kamp)
                    b = a * (kamp + 1) + h2
                    if keep:
                        trace[3 * n + 1, j] = h2
                    if tb[TB_OUT, b]:
                        stage = OUT_2
                    else:  # runde 3: the gathered dice
                        c = tb[TB_MASK, b] * (status + 1) + min(os2, status)
                        os3 = os2
                        for i in range(n):
                            d = tc_dice[i, c]
                            if d > 0:
                                s, word, left = successes(bits, word, left, d)
                                o3[i] = ones(bits, d - s)
                                os3 -= s
                                if keep:
                                    trace[3 * n + 2 + i, j], trace[4 * n + 2 + i, j] = s, o3[i]
                        stage = WON_3 if os3 <= 0 else LOST_3

        # konsekvenser: who buys what, the labels, the steps taken and the numbers, for the conflict ended at stage
        won = stage % 2 == 0
        end_round = (stage + 2) // 2  # the round it ended in
        final = os1 if stage <= OUT_1 else (os2 if stage <= OUT_2 else os3)
        # points below zero become consequences, one per ``per`` points (the default 1 spares a division)
        to_buy = (final if per == 1 else -(-final // per)) if stage == LOST_3 else 0  # the heroes', round 3 lost
        opp_key = end_round * opp_width + min(-final if per == 1 else -(final // per), opp_width - 1) if won else 0
        buys_in = 0 if stage in (WON_1, OUT_1, OUT_2) else end_round  # a standing hero's batch
        steps = t1[T1_STEPS, k1]
        if stage >= OUT_1:
            steps += ta[TA_STEPS, a]
        if stage >= WON_2:
            steps += ta[TA_R2, a]
        if stage >= OUT_2:
            steps += tb[TB_STEPS, b]
        if stage >= WON_3:
            steps += tc_steps[c]
        bought = dead = gone = marked = spent = 0
        for i in range(n):
            w = hero_width[i]
            earlier = -1 if stage == WON_1 else (tb_key[i, b] if stage >= OUT_2 else ta_key[i, a])
            if earlier >= 0:  # out earlier; a hero out before a lost round 3 buys for it too (round3_loss = every)
                key = earlier
                if stage == LOST_3 and every_pays and hero[i, earlier, DEAD] == 0:
                    key += min(to_buy, w - 1)
            else:
                count = o2[i] if stage == WON_2 else (o3[i] if stage == WON_3 else to_buy)
                empty = tc_empty[i, c] if stage >= WON_3 else empty_at_start[i]
                key = ((buys_in * 8 + empty) * w + min(count, w - 1)) * w
            out[FATE + i, j] = hero[i, key, LABEL]
            bought += hero[i, key, BOUGHT]
            dead += hero[i, key, DEAD]
            gone += hero[i, key, GONE]
            marked += hero[i, key, MARKED]
            lost = hero[i, key, LOST]
            for p in range(3):
                if lost >> p & 1:
                    spent += pools[i, p]
                elif stage >= WON_3:
                    spent += tc_spent[i, p, c]
        opp_bought = opp[OPP_BOUGHT, opp_key]
        out[WINNERS, j] = 0 if won else 1
        out[ENDING, j] = 0 if won else (2 if stage == LOST_3 else 1)
        out[LENGTH, j] = steps + bought + opp_bought
        out[OPP, j] = opp[OPP_LABEL, opp_key]
        out[ROUND, j] = end_round
        out[OPPONENT_STATUS, j] = final
        out[CONSEQUENCES, j] = bought
        out[OPPONENT_CONSEQUENCES, j] = opp_bought
        out[DEAD_N, j] = dead
        out[OUT_N, j] = gone
        out[DEATH_MARKED, j] = marked
        out[DICE_SPENT, j] = spent
