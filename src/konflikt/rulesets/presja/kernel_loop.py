"""The presja kernel's conflicts one at a time: a compiled loop over the exchange table.

A conflict is its row in :class:`~.kernel.Table` (its state); an exchange is one look-up of the cell (state,
4dF − 4dF) and the cell's next state, steps and newly taken consequences. Both 4dF are one uniform index into the
81 × 81 equally likely faces, drawn by numpy for a block of K exchanges of every conflict still going (so the dice
of a conflict depend on the seed only, never on which cells the table held already). A conflict that meets a cell
the table has not computed yet (0) stops there and the loop goes on with the others;
:meth:`~.kernel.PresjaKernel.run` then has the rules compute every cell met so in Python, and the loop resumes
those conflicts with the same faces. numba compiles the module on first use and caches it
(:mod:`konflikt.dice.compiled`).
"""

from __future__ import annotations

import numpy as np

from konflikt.dice.compiled import compiled

Int = np.ndarray
NEXT_MASK = (1 << 28) - 1
ACC_SHIFT, ACC_MASK = 28, (1 << 17) - 1
NEW_SHIFT = 45
ENDED = 1 << 51
# rows of ``saved``: where each conflict stands (its state row, steps, name codes, next exchange)
ROW, ACC, NAMES, EXCHANGE = range(4)


@compiled
def play(
    cells: Int,
    delta_of_pair: Int,
    names_of: Int,
    todo: Int,
    faces: Int,
    first: int,
    saved: Int,
    out_row: Int,
    out_acc: Int,
    out_names: Int,
    deadlock: Int,
    trace: Int,
    blocked: Int,
    missing: Int,
    going: Int,
) -> tuple[int, int]:
    """Play the conflicts ``todo`` from where ``saved`` says, through exchange ``first + K − 1`` at most, with
    ``faces[t, e − first]`` the dice of ``todo[t]``'s exchange e (K = ``faces.shape[1]``). A conflict that ends, or
    reaches the last exchange (a deadlock), is written out; one still going is listed in ``going``; one that meets a
    cell the table has not computed stops there (``saved`` keeps where) and its position t is listed in ``blocked``
    with the cell in ``missing``. Returns (blocked, going) counts."""
    max_exchanges = names_of.shape[0] - 1
    last = min(first + faces.shape[1] - 1, max_exchanges)
    keep = trace.shape[0] > 0
    stopped = still = 0
    for t in range(todo.size):
        j = todo[t]
        row, acc, names, e = saved[ROW, j], saved[ACC, j], saved[NAMES, j], saved[EXCHANGE, j]
        ended = blocked_here = False
        while e <= last:
            f = faces[t, e - first]
            cell = row + delta_of_pair[f]
            packed = cells[cell]
            if packed == 0:
                blocked[stopped], missing[stopped] = t, cell
                stopped += 1
                blocked_here = True
                break
            if keep:
                trace[j, e - 1] = f
            row = packed & NEXT_MASK
            acc += (packed >> ACC_SHIFT) & ACC_MASK
            names += names_of[e, (packed >> NEW_SHIFT) & 63]
            e += 1
            if packed >= ENDED:
                ended = True
                break
        saved[ROW, j], saved[ACC, j], saved[NAMES, j], saved[EXCHANGE, j] = row, acc, names, e
        if blocked_here:
            continue
        if ended or e > max_exchanges:
            out_row[j], out_acc[j], out_names[j], deadlock[j] = row, acc, names, not ended
        else:
            going[still] = j
            still += 1
    return stopped, still
