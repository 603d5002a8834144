"""The goal half of :func:`endings.check` on arrays: which side (if any) has reached its goal in each conflict.

One function per kind of conflict, chosen once per scenario; the dry-pool half of the check is
:meth:`Conflicts.check`. Sides are numbered 0 and 1 (the kernel plays two sides).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from konflikt.rulesets.pwge.kernel_flow import Conflicts
from konflikt.rulesets.pwge.kernel_tables import NONE, Tables
from konflikt.rulesets.pwge.rules import LAST_MELEE

Int = np.ndarray
Goal = Callable[[Conflicts, Int], Int]


def chase_goal(t: Tables, fleeing: int, escape: int) -> Goal:
    """:func:`endings._chase_goal`: every fleer out → the pursuers; every pursuer out → the fleers; a pursuer at a
    melee distance of a fleer → the pursuers; every pair at range ``escape`` or more → the fleers."""
    hunter = 1 - fleeing
    runners = np.flatnonzero(t.side == fleeing)
    hunters = np.flatnonzero(t.side == hunter)

    def goal(c: Conflicts, idx: Int) -> Int:
        out = c.out[idx]
        runs, hunts = ~out[:, runners], ~out[:, hunters]
        pairs = c.dist[idx][:, runners][:, :, hunters]
        both = runs[:, :, None] & hunts[:, None, :]
        caught = (both & (pairs <= LAST_MELEE)).any(axis=(1, 2))
        away = np.where(both, np.maximum(0, pairs - LAST_MELEE) >= escape, True).all(axis=(1, 2))
        side = np.where(away, fleeing, NONE)
        side = np.where(caught, hunter, side)
        side = np.where(~hunts.any(axis=1), fleeing, side)
        result: Int = np.where(~runs.any(axis=1), hunter, side)
        return result

    return goal


def standing_goal(t: Tables) -> Goal:
    """Combat (and the optional social damage): the side still standing when every other is all out."""
    members = [np.flatnonzero(t.side == s) for s in (0, 1)]

    def goal(c: Conflicts, idx: Int) -> Int:
        out = c.out[idx]
        up0, up1 = (~out[:, members[0]]).any(axis=1), (~out[:, members[1]]).any(axis=1)
        result: Int = np.where(up0 & ~up1, 0, np.where(up1 & ~up0, 1, NONE))
        return result

    return goal


def points_goal(goal: int) -> Goal:
    """Diplomatic/social without damage: the first side with ``goal`` successful moves."""

    def reached(c: Conflicts, idx: Int) -> Int:
        result: Int = np.where(c.pts[idx, 0] >= goal, 0, np.where(c.pts[idx, 1] >= goal, 1, NONE))
        return result

    return reached


__all__ = ["Goal", "chase_goal", "points_goal", "standing_goal"]
