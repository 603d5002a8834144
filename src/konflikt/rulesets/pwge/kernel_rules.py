"""The arithmetic of PWGE's rule steps, one copy for the compiled loop and the array flow.

The kernel plays the rules twice over: one conflict at a time in :mod:`.kernel_loop` (numba), and every conflict a
row in :mod:`.kernel_flow` (numpy, which the exact model splits at every roll). How the steps follow one another is
each engine's own (a call per step there, a phase per step here); what a step decides is written once, here: who
can spend, how the heuristic pays, when it buys, bids, tops, mot-toppar (counter-tops) and mot-mot-toppar, who is
ahead in a contest, what a hit does. The loop compiles each function for scalars (``leaf``), the flow calls it on
arrays, so a function uses only what both read alike: arithmetic, comparisons, ``&`` and ``|`` on truth values,
``np.minimum`` / ``np.maximum`` and look-ups in a module constant (no ``if``, ``and``, ``not``, ``~`` or
``np.where``, which numba reads otherwise for a scalar). A truth value in an argument may be a bool or 0/1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from konflikt.rulesets.pwge.kernel_tables import CLOSER, FARTHER, NO_KEY
from konflikt.rulesets.pwge.policies import DIE_WHEN_TOKENS, MAX_TOPS, RESERVE

SIM, ACTION_FIRST, RESPONSE_FIRST = range(3)
"""The exchange's turordning (order): simultaneous, the action first, the response first."""
GOAL, POOLS, DEADLOCK = range(3)
"""Ending codes, in the order of :data:`.endings.ENDINGS`."""
TOPS_WORTH = np.array([sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= t) for t in range(15)])
"""How many of the 36 2T results reach ``t`` (clipped to 0–14): the heuristic tops when at least 9 do (25 %).
A module constant: numba freezes it into the loop's code."""

Value = Any
"""An int or bool (the loop), or an array of them (the flow)."""


def can_spend(out: Value, tokens: Value) -> Value:
    """:meth:`PwgeState.can_spend`: standing with a token left."""
    return (out == 0) & (tokens > 0)


def pays_with_die(tokens: Value, xp: Value) -> Value:
    """The heuristic pays a spend with an erfarenhetstärning (experience die) instead of a token while a token
    remains and the pool is down to :data:`DIE_WHEN_TOKENS`."""
    return (xp > 0) & (tokens >= 1) & (tokens <= DIE_WHEN_TOKENS)


def buys(purse: Value, best: Value, worth: Value) -> Value:
    """The floor's holder buys its best handling: its purse above the reserve, a deed possible, worth more than a
    pass."""
    return (purse > RESERVE) & (best > NO_KEY) & (worth != 0)


def responds(purse: Value) -> Value:
    """A svarshandling (response) is bought only with the purse above the reserve and one."""
    return purse > RESERVE + 1


def rich_band(purse: Value) -> Value:
    """The counter tables' last index: 1 with a purse above 1, else 0."""
    return (purse > 1) * 1


def bids(can: Value, purse: Value, foe_body: Value, top_damage: Value, foe_tokens: Value) -> Value:
    """The secret turordning (order) bid: when one can spend, its purse is above the reserve and the other is near
    the end (body points within a top damage roll, or 3 tokens or fewer). Never when both deeds move
    (:func:`both_move`)."""
    return (can != 0) & (purse > RESERVE) & ((foe_body <= top_damage) | (foe_tokens <= 3))


def both_move(akind: Value, rkind: Value) -> Value:
    """Action and response both change the distance: nobody bids for the order."""
    return (akind >= CLOSER) & (akind <= FARTHER) & (rkind >= CLOSER) & (rkind <= FARTHER)


def order_of(won: Value) -> Value:
    """The turordningsslag's (order roll's) result (:func:`contest_result`) as the order: the winner's deed first,
    a tie simultaneous."""
    return (won == 0) * ACTION_FIRST + (won == 1) * RESPONSE_FIRST + (won == 2) * SIM


def bid_order(first: Value, second: Value) -> Value:
    """The order when at most one bid: the bidder's deed first, else simultaneous."""
    only_second = (first == 0) & (second != 0)
    return (first != 0) * ACTION_FIRST + only_second * RESPONSE_FIRST + ((first == 0) & (second == 0)) * SIM


def defence_mod(band: Value, countered: Value, roll: Value, dodge_keeps: Value) -> Value:
    """The second side of an attack's roll: countered, the defender's 2T + its roll (and the range band where
    dodging keeps it); else the range band as the difficulty."""
    kept = band * ((band > 0) & (dodge_keeps != 0))
    return (countered != 0) * (roll + kept) + (countered == 0) * band


def contest_result(a: Value, b: Value, ordering: Value) -> Value:
    """0: a ahead; 1: b ahead (a tie holds for b); 2: a tie in the turordningsslag (order roll), deciding nothing."""
    return (a <= b) * (1 + ((a == b) & (ordering != 0)))


def top_allowed(limit: Value, count: Value) -> Value:
    """The option ``max_tops_per_roll`` (``limit``; 0: no limit) lets one more top after ``count``."""
    return (limit == 0) | (count < limit)


def may_top(person: Value, declined: Value, can: Value, allowed: Value) -> Value:
    """A side of a contest is asked to top: a person (not a difficulty) who has not declined, can spend, and may top
    again under the option."""
    return (person >= 0) & (declined == 0) & (can != 0) & (allowed != 0)


def tops_contest(
    own: Value, own_mod: Value, other: Value, is_a: Value, tops: Value, purse: Value, defending: Value
) -> Value:
    """The one behind tops (rerolls its 2T) when the 2T it needs (to pass ``other``; a, to beat it) comes at least 9
    times in 36, it has topped fewer than :data:`MAX_TOPS` times, its own 2T is not above 12, and its purse is above
    the reserve and one (only the reserve, when it defends)."""
    needed = other - own_mod + is_a
    chance = TOPS_WORTH[np.minimum(np.maximum(needed, 0), 14)] >= 9
    rich = purse > RESERVE + 1 - defending
    return chance & (tops < MAX_TOPS) & (own - own_mod <= 12) & rich


def damage_points(total: Value, armour: Value) -> Value:
    """What a skadeslag (damage roll) takes off the body: the points past the armour."""
    return np.maximum(0, total - armour)


def tops_damage(face: Value, purse: Value) -> Value:
    """The attacker tops (rerolls) the skadeslag's face of 1 or 2, with its purse above the reserve."""
    return (face <= 2) & (purse > RESERVE)


def counter_tops(points: Value, sarad: Value, body: Value, face: Value, purse: Value, ctops: Value) -> Value:
    """The defender mot-toppar (counter-tops) a serious hit (sårad or worse, or enough to put it out) of a face of 4
    or more, with a purse above 1 and fewer than :data:`MAX_TOPS` counter-tops."""
    serious = (points >= sarad) | (points >= body)
    return serious & (face >= 4) & (purse > 1) & (ctops < MAX_TOPS)


def keeps_roll(face: Value, purse: Value) -> Value:
    """The attacker answers a mot-toppa with mot-mot-toppa (keeps the roll, for a spend) on a face of 4 or more,
    with its purse above the reserve; else the damage is rolled again."""
    return (face >= 4) & (purse > RESERVE)


def wound_level(points: Value, skrama: Value, sarad: Value, allvarligt: Value) -> Value:
    """:func:`.rules.wound_level` of one hit: 0 for no points, else 1 and one more for each threshold reached
    (skråma, sårad, allvarligt: they rise, as the options require, so the count is the highest reached)."""
    return (points > 0) * (1 + (points >= skrama) + (points >= sarad) + (points >= allvarligt))


__all__ = [
    "ACTION_FIRST",
    "DEADLOCK",
    "GOAL",
    "POOLS",
    "RESPONSE_FIRST",
    "SIM",
    "TOPS_WORTH",
    "bid_order",
    "bids",
    "both_move",
    "buys",
    "can_spend",
    "contest_result",
    "counter_tops",
    "damage_points",
    "defence_mod",
    "keeps_roll",
    "may_top",
    "order_of",
    "pays_with_die",
    "responds",
    "rich_band",
    "top_allowed",
    "tops_contest",
    "tops_damage",
    "wound_level",
]
