"""The presja kernel's conflicts one at a time: a compiled loop over the exchange table.

A conflict is its row in :class:`~.kernel.Table` (its state); an exchange is one draw of both 4dF at once (a
uniform index into the 81 × 81 equally likely faces), one look-up of the cell (state, 4dF − 4dF), and the cell's
next state, steps and newly taken consequences. A cell the table has not computed yet (0) stops the loop: it returns
the cell, :meth:`~.kernel.PresjaKernel.run` has the rules compute it in Python, and the loop resumes the same
conflict with the same faces. numba compiles the module on first use and caches it (:mod:`konflikt.dice.compiled`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from konflikt.dice.compiled import compiled, uniform

Int = np.ndarray
NEXT_MASK = (1 << 28) - 1
ACC_SHIFT, ACC_MASK = 28, (1 << 17) - 1
NEW_SHIFT = 45
ENDED = 1 << 51
# the resume vector: the conflict, its exchange, its state row, steps, name codes, and faces drawn (−1: none)
J, EXCHANGE, ROW, ACC, NAMES, FACES = range(6)


@compiled
def play(
    rng: Any,
    cells: Int,
    delta_of_pair: Int,
    names_of: Int,
    start: int,
    carried: int,
    n: int,
    resume: Int,
    out_row: Int,
    out_acc: Int,
    out_names: Int,
    deadlock: Int,
    trace: Int,
) -> int:
    """Play conflicts ``resume[J]`` … ``n − 1`` (the first from where ``resume`` says); −1 when all are done, else the
    cell to compute (``resume`` then holds the conflict to go on with, and the faces already drawn)."""
    bits = rng.bit_generator
    max_exchanges = names_of.shape[0] - 1
    keep = trace.shape[0] > 0
    j = resume[J]
    row, acc, names, e, faces = resume[ROW], resume[ACC], resume[NAMES], resume[EXCHANGE], resume[FACES]
    while j < n:
        ended = False
        while e <= max_exchanges:
            if faces < 0:
                faces = uniform(bits, 6561)  # both 4dF: first × 81 + second
            cell = row + delta_of_pair[faces]
            packed = cells[cell]
            if packed == 0:
                resume[J], resume[EXCHANGE], resume[ROW], resume[ACC] = j, e, row, acc
                resume[NAMES], resume[FACES] = names, faces
                return cell
            if keep:
                trace[j, e - 1] = faces
            faces = -1
            row = packed & NEXT_MASK
            acc += (packed >> ACC_SHIFT) & ACC_MASK
            names += names_of[e, (packed >> NEW_SHIFT) & 63]
            e += 1
            if packed >= ENDED:
                ended = True
                break
        out_row[j], out_acc[j], out_names[j], deadlock[j] = row, acc, names, not ended
        j += 1
        row, acc, names, e = start, 0, carried, 1
    resume[J] = n
    return -1
