"""The presja kernel's conflicts one at a time: a compiled loop over the exchange table.

A conflict is its row in :class:`~.kernel.Table` (its state); an exchange is both 4dF as one exactly uniform index
into the 81 × 81 equally likely faces — two exchanges of a conflict from one 32-bit draw, uniform below 6561² — and
one look-up of the cell (state, 4dF − 4dF): the next state, the steps and the newly taken consequences. Conflicts
are played in order, each to its end, with the 32-bit words of the chunk's numpy bit generator taken in order from
a buffer, so a conflict's dice depend on the seed only. A conflict that meets a cell the table has not computed
yet (0) stops the loop there, keeping where it stood and the faces it drew; :meth:`~.kernel.PresjaKernel.run` has
the rules compute that cell in Python (or refills the buffer when it runs out) and calls the loop again, which
resumes with the same faces and the next word — as if the cell, and the words, had been there all along.

The loop writes the batch's arrays itself (the ending and fate codes, the length, the outcome numbers read from
the final state's facts), so nothing per conflict is left for numpy but turning codes into labels. numba compiles
the module on first use and caches it (:mod:`konflikt.dice.compiled`).
"""

from __future__ import annotations

import numpy as np

from konflikt.dice.compiled import compiled, uniform_at

Int = np.ndarray
DELTAS = 17
NEXT_MASK = (1 << 28) - 1
ACC_SHIFT, ACC_MASK = 28, (1 << 17) - 1
NEW_SHIFT = 45
ENDED = 1 << 51
STEP_BITS = 16
PAIRS = 6561
"""81 × 81: the faces of both 4dF rolls of an exchange (first × 81 + second), all equally likely."""
# ``at`` (where the loop stopped, to resume there): the conflict, its state row, steps, name codes, next exchange,
# the faces it drew for that exchange and for the one after (−1: none), the next word of the buffer
CONFLICT, ROW, ACC, NAMES, EXCHANGE, FACES, NEXT_FACES, WORD = range(8)
REFILL = -2
"""What :func:`play` returns when the buffer of words ran out."""
# columns of ``facts`` (a row per state): fate₀, fate₁, then the outcome numbers (fate points₀ ₁, boxes ₀ ₁,
# consequences ₀ ₁)
FATE0, FATE1, NUMBERS = 0, 1, 2
# rows of ``numbers`` (per conflict): exchanges played, then the six of ``facts``
EXCHANGES = 0


@compiled
def stop(at: Int, j: int, row: int, acc: int, names: int, e: int, f: int, g: int, pos: int) -> None:
    """Keep where conflict ``j`` stands, to resume it there."""
    at[CONFLICT], at[ROW], at[ACC], at[NAMES], at[EXCHANGE] = j, row, acc, names, e
    at[FACES], at[NEXT_FACES], at[WORD] = f, g, pos


@compiled
def play(
    words: Int,
    cells: Int,
    delta_of_pair: Int,
    names_of: Int,
    facts: Int,
    start: int,
    carried: int,
    opening_steps: int,
    first_exchange: int,
    at: Int,
    ending: Int,
    codes: Int,
    length: Int,
    numbers: Int,
    trace: Int,
) -> int:
    """Play conflicts ``at[CONFLICT]`` … n − 1 (n = ``ending.size``) from the state row ``start`` at exchange
    ``first_exchange`` (1 at the opening; later when a batch starts from a conflict under way) with the name codes
    ``carried`` (the consequences held at the start), resuming the first from ``at`` when ``at[EXCHANGE]`` > 0.
    Each finished conflict j gets its ending code (deadlock · 9 + fate₀ · 3 + fate₁), each participant's fate code
    (fate + 3 · name code) in ``codes[i, j]``, its length in steps and its numbers. Dice come from ``words``
    (uint32) from ``at[WORD]`` on. Returns −1 when all are played, :data:`REFILL` when the words ran out, or the
    first cell the table lacks (``at`` then says where to resume).
    """
    pos = at[WORD]
    n = ending.size
    max_exchanges = names_of.shape[0] - 1
    keep = trace.shape[0] > 0
    j = at[CONFLICT]
    while j < n:
        if at[EXCHANGE] > 0:  # resume where the loop stopped
            row, acc, names, e, f, g = at[ROW], at[ACC], at[NAMES], at[EXCHANGE], at[FACES], at[NEXT_FACES]
            at[EXCHANGE] = 0
        else:
            row, acc, names, e, f, g = start, 0, carried, first_exchange, -1, -1
        ended = False
        while e <= max_exchanges:
            if f < 0 and g >= 0:  # the second exchange of a pair drawn together
                f, g = g, -1
            elif f < 0:
                two, pos = uniform_at(words, pos, PAIRS * PAIRS)
                if two < 0:
                    stop(at, j, row, acc, names, e, -1, -1, pos)
                    return REFILL
                f, g = two // PAIRS, two % PAIRS
            packed = cells[row + delta_of_pair[f]]
            if packed == 0:
                stop(at, j, row, acc, names, e, f, g, pos)
                return int(row + delta_of_pair[f])
            if keep:
                trace[j, e - 1] = f
            f = -1
            row = packed & NEXT_MASK
            acc += (packed >> ACC_SHIFT) & ACC_MASK
            names += names_of[e, (packed >> NEW_SHIFT) & 63]
            e += 1
            if packed >= ENDED:
                ended = True
                break
        s = row // DELTAS
        ending[j] = (0 if ended else 9) + facts[s, FATE0] * 3 + facts[s, FATE1]
        codes[0, j] = facts[s, FATE0] + 3 * (names & 0xFFFF)
        codes[1, j] = facts[s, FATE1] + 3 * ((names >> 16) & 0xFFFF)
        length[j] = (acc & ((1 << STEP_BITS) - 1)) + opening_steps
        numbers[EXCHANGES, j] = acc >> STEP_BITS
        for k in range(6):
            numbers[1 + k, j] = facts[s, NUMBERS + k]
        j += 1
    at[CONFLICT], at[WORD] = n, pos
    return -1
