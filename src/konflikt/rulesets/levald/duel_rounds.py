"""What the Le våld duel kernel shares with its compiled loop (:mod:`.duel_loop`): the rows of a duel's state,
the d100 quality and effect tables, the fixed numbers of a duel (:class:`Duel`) and the labels of finished duels.

A duel's state is a short integer vector (distance, initiative holder and why it must be decided afresh, rounds,
and per fighter Gard, Omtöckning, fate and wound boxes); the loop plays one duel at a time on it and leaves each
finished one as a column of a matrix, which :func:`results` turns into the reference runner's labels. The fixed
numbers of the duel (weapons, targets, thresholds, the heuristic defender's table) come from :class:`Duel`, built by
:func:`konflikt.rulesets.levald.kernel.make_kernel`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from konflikt.core.batch import Batch, Coded
from konflikt.core.i18n import current
from konflikt.core.options import Options
from konflikt.dice import SumDice, effect
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.narration import fate_words

Int = np.ndarray
FIGHTING, KNOCKED_OUT, DEAD, LEFT = 0, 1, 2, 3
FATE_NAMES = ("fighting", "knocked_out", "dead", "left")
MOVED, DAMAGED = 1, 2
"""Bits of the reason to decide the initiative afresh (as in the State)."""
ENDINGS = ("parted", "left", "dead", "taken_out", "deadlock")
TRACED = ("d100", "defence2", "counter", "damage", "counter_damage")
"""The dice a traced round records: its six d100 (movement contest a, b; initiative contest a, b; attack;
defence), a second defence roll, the counter-attack roll, and the damage dice of the hit and of the counter."""

BOXES = len(R.WOUNDS)
DIST, HOLDER, REDECIDE, ROUNDS, GARD, DAZE, FATE, WOUNDS = 0, 1, 2, 3, 4, 6, 8, 10
ROWS = WOUNDS + 2 * BOXES
"""Rows of the state matrix: GARD, DAZE and FATE take two rows (one per fighter), WOUNDS ten (fighter × box:
Skråma, Lätt, Allvarlig, Kritisk, Dödlig)."""

# the compiled loop's arrays (built by kernel.loop_arrays): rows of ``f``, one column per fighter
LENGTH, STRIDSVANA, ATTACK, DEFENCE, GARD_MAX, CORNERED, SHIELD, HEURISTIC, LEVEL_CAP, COUNTS, LIMITS = range(11)
F_ROWS = LIMITS + 4
"""``f[COUNTS, src]``: whether the enemy's Gard counts against src's weapon (:attr:`Duel.counts`);
``f[LIMITS + k]``: the k-th wound threshold (Lätt, Allvarlig, Kritisk, Dödlig)."""
# entries of ``rules``
STEP_SIZE, HOLDER_ROLL, TWO_DEFENCE, ALLOW_LEAVE, FREE_IGNORES_GARD, EMPTY_SCRATCH = range(6)
DEADLY_KNOCKS_OUT, GARD_DAMAGE_IS_DAMAGE, GROUND_REDECIDES, MAX_ROUNDS = range(6, 10)
RULES = 10
# entries of ``entry``: where in its first round a duel starts (``ENTRY``): AT_START; REVEALED with the secret
# movement's wishes and leaving, and the movement contest's first roll or −1; ROLES with the movement, leaving and
# initiative done (in the start vector), whether the attack is chosen (1, or −1 not yet), the defender's answer
# (1 counter, 0 defend, −1 not yet) and the attack roll (or −1)
ENTRY, WISH_A, LEAVE_A, WISH_B, LEAVE_B, ROLL_A, ATTACKING, COUNTER, ROLL_ATTACK = range(9)
ENTRIES = 9
AT_START, REVEALED, ROLES = 0, 1, 2
# the dice traced per round besides the six d100 (see duel_rounds.TRACED)
T_DEFENCE2, T_COUNTER, T_DAMAGE, T_COUNTER_DAMAGE = range(4)


ROLL_EFFECT = np.array([0, *(effect(r) for r in range(1, 101))], dtype=np.int64)
"""Effekt of each d100 reading (index 1–100; 100 = 00 → 0)."""
TARGET_MAX = 500
"""Targets at or above this are exceptional on any roll (500 // 5 = 100); at 0 or below every roll fails."""


def roll_level(roll: Int, target: Int) -> Int:
    """:func:`rules.level` with exceptional = ``fifth``: 0 failure, 1 success, 2 exceptional."""
    out: Int = np.where(roll > target, 0, np.where(roll <= target // 5, 2, 1))
    return out


def roll_quality(roll: Int, target: Int) -> Int:
    """:func:`rules.quality` as one comparable number: level × 100 + effect (0 for any failure)."""
    success_level = roll_level(roll, target)
    out: Int = np.where(success_level == 0, 0, success_level * 100 + ROLL_EFFECT[roll])
    return out


_TARGETS = np.arange(TARGET_MAX + 1)[:, None]
QUALITY = roll_quality(np.broadcast_to(np.arange(101), (TARGET_MAX + 1, 101)), _TARGETS).ravel().astype(np.int16)
"""roll_quality by clipped target × 101 + roll: one gather in the hot loop instead of a few comparisons."""


def quality(roll: Int, target: Int) -> Int:
    out: Int = QUALITY[np.minimum(np.maximum(target, 0), TARGET_MAX) * 101 + roll]
    return out


def fate_label(fate: int, wounds: tuple[int, ...], daze: int) -> str:
    """The participant's fate words exactly as ``LevaldState._fate_text`` writes them, in the language in use."""
    return _fate_label(fate, wounds, daze, current())


@lru_cache(maxsize=1 << 16)
def _fate_label(fate: int, wounds: tuple[int, ...], daze: int, language: str) -> str:
    """Kept per language: the same few hundred recur in every chunk, and writing them was a third of a chunk's
    time."""
    return fate_words(FATE_NAMES[fate], wounds, daze)


@dataclass
class Duel:
    """The fixed numbers of one duel, per fighter (index 0 = the first side's fighter)."""

    ids: tuple[str, str]
    sides: tuple[str, str]
    heuristic: tuple[bool, bool]
    length: Int
    stridsvana: Int
    attack: Int
    defence: Int
    limits: Int
    gard_max: Int
    cornered: Int
    shield: Int
    counts: Int
    """counts[src, dst]: Gard counts for dst against src's weapon (prepared, and a shield against ranged)."""
    dice: list[tuple[SumDice, Int | None]]
    """index src * 2 + guarded → (the dice, the table of every face combination's sum, or None if too many)."""
    scale: Int
    """scale position → index into :data:`rules.DISTANCES`."""
    start: tuple[int, list[int], list[int], list[list[int]]]
    """distance position, Gard, Omtöckning and wound boxes at the start."""
    counter_table: Int
    level_cap: Int
    options: Options


def results(duel: Duel, out: Int) -> Batch:
    """The finished duels as the reference runner labels them: winners, ending, fate words, rounds, numbers."""
    n = out.shape[1]
    fate = out[FATE : FATE + 2]
    standing = fate == FIGHTING
    over = ~(standing[0] & standing[1])
    win_a = over & standing[0] & ~standing[1]
    win_b = over & standing[1] & ~standing[0]
    winners = np.where(win_a, 1, np.where(win_b, 2, 0))
    loser_fate = fate[np.where(win_a, 1, 0), np.arange(n)]
    decided = np.where(loser_fate == LEFT, 1, np.where(loser_fate == DEAD, 2, 3))
    ending = np.where(~over, 4, np.where(~(win_a | win_b), 0, decided))
    wounds = out[WOUNDS : WOUNDS + 2 * BOXES].reshape(2, BOXES, n)
    resources: dict[str, Int] = {}
    for name, row in (("gard", GARD), ("daze", DAZE)):
        for i, pid in enumerate(duel.ids):
            resources[f"{pid}.{name}"] = out[row + i].astype(float)
    for i, pid in enumerate(duel.ids):
        resources[f"{pid}.wounds"] = wounds[i].sum(axis=0).astype(float)
    fates = {pid: fate_codes(fate[i], wounds[i], out[DAZE + i]) for i, pid in enumerate(duel.ids)}
    return Batch(
        Coded(winners, [(), (duel.sides[0],), (duel.sides[1],)]),
        Coded(ending, list(ENDINGS)),
        fates,
        out[ROUNDS].copy(),
        resources,
        rounds=out[ROUNDS].copy(),
    )


def fate_codes(fate: Int, wounds: Int, daze: Int) -> Coded:
    """The fate words per duel: a code per distinct (fate, wound boxes, Omtöckning), then its exact text.

    Each duel's numbers become one key (mixed radix); the distinct keys are found by counting them in a table as
    long as the key range is small (a few times the duels), else by sorting."""
    parts = [fate, *wounds, daze]
    sizes = [int(p.max()) + 1 if p.size else 1 for p in parts]
    key = np.zeros(fate.size, dtype=np.int64)
    for p, size in zip(parts, sizes, strict=True):
        key = key * size + p
    span = math.prod(sizes)
    if span <= max(4 * fate.size, 1 << 16):
        unique = np.flatnonzero(np.bincount(key, minlength=span))
        index = np.zeros(span, dtype=np.int64)
        index[unique] = np.arange(unique.size)
        codes = index[key]
    else:
        unique, codes = np.unique(key, return_inverse=True)
    digits, rest = [], unique
    for size in reversed(sizes):
        digits.append(rest % size)
        rest = rest // size
    f, *boxes, dz = (d.tolist() for d in reversed(digits))
    labels = [fate_label(*row) for row in zip(f, zip(*boxes, strict=True), dz, strict=True)]
    return Coded(codes.astype(np.int64).ravel(), list(labels))
