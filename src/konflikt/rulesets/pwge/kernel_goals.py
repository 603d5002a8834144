"""The goal half of :func:`endings.check` on arrays: which side (if any) has reached its goal in each conflict.

One function per kind of conflict, chosen once per scenario; the dry-pool half of the check is
:meth:`Conflicts.check`. Sides are numbered as in the scenario.
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
    """:func:`endings._chase_goal`: every fleer out → the first pursuing side; every pursuer out → the fleers; a
    pursuer at a melee distance of a fleer → the pursuer's side (the first such pair, fleer by fleer); every pair at
    range ``escape`` or more → the fleers."""
    runners = np.flatnonzero(t.side == fleeing)
    hunters = np.flatnonzero(t.side != fleeing)
    first_chaser = int(min(s for s in range(t.sides) if s != fleeing))

    def goal(c: Conflicts, idx: Int) -> Int:
        out = c.out[idx]
        runs, hunts = ~out[:, runners], ~out[:, hunters]
        pairs = c.dist[idx][:, runners][:, :, hunters]
        both = runs[:, :, None] & hunts[:, None, :]
        near = both & (pairs <= LAST_MELEE)
        flat = near.reshape(len(idx), len(runners) * len(hunters))
        caught = flat.any(axis=1)
        catcher = t.side[hunters[np.argmax(flat, axis=1) % len(hunters)]]
        away = np.where(both, np.maximum(0, pairs - LAST_MELEE) >= escape, True).all(axis=(1, 2))
        side = np.where(away, fleeing, NONE)
        side = np.where(caught, catcher, side)
        side = np.where(~hunts.any(axis=1), fleeing, side)
        result: Int = np.where(~runs.any(axis=1), first_chaser, side)
        return result

    return goal


def standing_goal(t: Tables) -> Goal:
    """Combat (and the optional social damage): the one side still standing when every other is all out."""
    members = [np.flatnonzero(t.side == s) for s in range(t.sides)]

    def goal(c: Conflicts, idx: Int) -> Int:
        out = c.out[idx]
        up = np.stack([(~out[:, m]).any(axis=1) for m in members], axis=1)
        result: Int = np.where(up.sum(axis=1) == 1, np.argmax(up, axis=1), NONE)
        return result

    return goal


def points_goal(t: Tables, goal: int) -> Goal:
    """Diplomatic/social without damage: the first side with ``goal`` successful moves."""

    def reached(c: Conflicts, idx: Int) -> Int:
        there = c.pts[idx] >= goal
        result: Int = np.where(there.any(axis=1), np.argmax(there, axis=1), NONE)
        return result

    return reached


__all__ = ["Goal", "chase_goal", "points_goal", "standing_goal"]
