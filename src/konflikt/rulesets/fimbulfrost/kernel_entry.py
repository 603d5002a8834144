"""Where the Fimbulfrost kernel starts a batch from a conflict under way: a round's start, as tables of its own.

The kernel's loop (:mod:`.kernel_loop`) plays a whole conflict from round 1, reading each part of it from tables
indexed by the dice so far (:class:`~.kernel.Tables`). A conflict at the start of round 2 or 3 has its earlier rounds
behind it — the opponent's Status, each hero's Status and morale, who stands, what the fallen bought — and they need
not have been played as the heuristic would (a player at the table splits his successes as he likes). So a start is
the same loop over tables made for that State: round 1 with no dice (its one outcome the State as it stands), the
opponent's answer with none, and then either round 2 as the kernel's own tables build it from the State's Status and
morale (:func:`~.kernel.take_hits`), or, for round 3, round 2 without dice too (``r2_dice`` 0) and round 3's
gathering tables as they are. The hero tables (every consequence history, by key) are the kernel's: a fallen hero's
key is found from what he bought, which must be the heuristic's batch of that round (else no start: the exact odds
answer that State). Steps are counted from the start on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from konflikt.rulesets.fimbulfrost.kernel import POOL_NAMES, Tables, purchases, take_hits
from konflikt.rulesets.fimbulfrost.rules import hero_list

STANDING, OUT = 0, 1
"""The State's fates (``state.STANDING``, ``state.OUT``; a dead hero is neither)."""


def entry_tables(t: Tables, state: Any, round_no: int, kernel: Any) -> Tables | None:
    """The kernel's tables for a batch from ``state``, at the start of ``round_no`` (2 or 3); ``None`` where the
    State holds what the tables cannot (a fallen hero's consequences not the heuristic's batch, a standing hero's
    pools spent, borrowed time)."""
    n = t.n
    if any(state.back) or any(state.borrowed):
        return None
    mask = sum(1 << i for i in range(n) if state.fate[i] == STANDING)
    if not mask:
        return None
    keys = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        start = [getattr(kernel.heroes[i], p) for p in POOL_NAMES]
        if mask >> i & 1:
            if list(state.pools[i]) != start or state.taken[i]:
                return None
            continue
        key = _fallen_key(t, state, i, round_no, start, kernel)
        if key is None:
            return None
        keys[i] = key
    one = np.zeros(1, dtype=np.int64)
    tabs: dict[str, Any] = {
        "d1": [0] * n,
        "radix1": [1] * n,
        "answer": 0,
        "t1_os": np.array([state.opp_status], dtype=np.int64),
        "t1_steps": one.copy(),
        "ta_steps": one.copy(),
        "ta_out": np.zeros(1, dtype=bool),
        "ta_mask": np.array([mask], dtype=np.int64),
        "ta_r2": np.array([2 * mask.bit_count() if round_no == 2 else 0], dtype=np.int64),  # describe, then roll
        "ta_key": keys[:, None].copy(),
    }
    if round_no == 3:
        tabs |= {"kamp": 0, "r2_dice": 0, "tb_steps": one.copy(), "tb_out": np.zeros(1, dtype=bool)}
        tabs |= {"tb_mask": np.array([mask], dtype=np.int64), "tb_key": keys[:, None].copy()}
    else:
        tabs |= _round2(t, state, mask, keys, kernel)
    return replace(t, **tabs)


def _round2(t: Tables, state: Any, mask: int, keys: np.ndarray, kernel: Any) -> dict[str, Any]:
    """Round 2's tables by the opponent's Kamp hits, from the State's Status and morale (as ``_fight_tables``)."""
    n, kamp = t.n, t.kamp
    out: dict[str, Any] = {k: np.zeros(kamp + 1, dtype=np.int64) for k in ("tb_steps", "tb_mask")}
    out["tb_out"] = np.zeros(kamp + 1, dtype=bool)
    out["tb_key"] = np.repeat(keys[:, None], kamp + 1, axis=1)
    for h2 in range(kamp + 1):
        hst, mor, standing = list(state.hstatus), list(state.morale), [bool(mask >> i & 1) for i in range(n)]
        asked, outs = take_hits(hst, mor, standing, h2, t.per, str(kernel.options.morale))
        after = sum(1 << i for i in range(n) if standing[i])
        out["tb_steps"][h2], out["tb_out"][h2], out["tb_mask"][h2] = int(kamp > 0) + asked, not after, after
        for i, c in outs.items():
            out["tb_key"][i, h2] = t.heroes[i].key(1, 2, t.empty_at_start[i], c)
    return out


def _fallen_key(t: Tables, state: Any, i: int, round_no: int, start: Sequence[int], kernel: Any) -> int | None:
    """The consequence key of hero ``i``, out before ``round_no``: the round he fell in and the batch he bought,
    which must be the heuristic's (the tables hold no other), or ``None``."""
    bought = list(state.taken[i])
    for fell in range(1, round_no):
        seq = purchases(
            kernel.catalogue,
            hero_list(kernel.catalogue, kernel.opponent.konsekvensliste, fell),
            fell,
            list(kernel.carried[i]),
            fell != 1 or bool(kernel.options.round1_death),
            start,
            kernel.heroes[i].omdomme,
            bool(kernel.options.consequence_must_cost),
        )
        if sorted(e.id for e in seq[: len(bought)]) == sorted(bought) and len(bought) <= len(seq):
            key = t.heroes[i].key(1, fell, t.empty_at_start[i], len(bought))
            died = bool(t.heroes[i].dead[key])
            if died == (state.fate[i] not in (STANDING, OUT)):
                return key
    return None
