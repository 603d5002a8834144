"""The arrays of many Le våld duels and one round of them, in the order ``LevaldState`` plays it.

Every duel still going is one column of a small integer matrix (distance, initiative holder and why it must be
decided afresh, rounds, and per fighter Gard, Omtöckning, fate and wound boxes). A round is a fixed sequence of
masked array operations; duels that end leave the matrix at the end of the round (one copy). Choices between two
values are made by arithmetic (:func:`pick`, :func:`by_role`) rather than ``np.where`` or fancy indexing: with
unpredictable conditions that is several times faster. Duels that no die can change any more are settled at once
(:meth:`Round.settled`). The fixed numbers of the duel (weapons, targets, thresholds, the heuristic defender's
table) come from :class:`Duel`, built by :func:`konflikt.rulesets.levald.kernel.make_kernel`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from konflikt.core.batch import Batch, Coded
from konflikt.core.options import Options
from konflikt.dice import SumDice, effect
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.narration import fate_words
from konflikt.rulesets.levald.policies import LOSING_BADLY

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
DIST, HOLDER, REDECIDE, ROUNDS, IDX, GARD, DAZE, FATE, WOUNDS = 0, 1, 2, 3, 4, 5, 7, 9, 11
ROWS = WOUNDS + 2 * BOXES
"""Rows of the state matrix: GARD, DAZE and FATE take two rows (one per fighter), WOUNDS ten (fighter × box:
Skråma, Lätt, Allvarlig, Kritisk, Dödlig)."""

ROLL_EFFECT = np.array([0, *(effect(r) for r in range(1, 101))], dtype=np.int64)
"""Effekt of each d100 reading (index 1–100; 100 = 00 → 0)."""
TARGET_MAX = 500
"""Targets at or above this are exceptional on any roll (500 // 5 = 100); at 0 or below every roll fails."""


def daze_penalty(daze: Int) -> Int:
    """:func:`rules.daze_penalty` on arrays: −10 per started five beyond the first five."""
    out: Int = -10 * (np.maximum(daze - 1, 0) // 5)
    return out


def pick(cond: Int, a: Int | int, b: Int | int) -> Int:
    """``np.where(cond, a, b)`` by arithmetic: several times faster when ``cond`` is unpredictable."""
    out: Int = b + cond * (np.asarray(a) - b)
    return out


def by_role(rows: Int, role: Int) -> Int:
    """``rows[role, i]`` for each duel i, where ``rows`` has one entry (or row) per fighter and role is 0 or 1."""
    out: Int = rows[0] + role * (rows[1] - rows[0])
    return out


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
    """The participant's fate words exactly as ``LevaldState._fate_text`` writes them."""
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


class Round:
    """The duels still going and one method per part of a round."""

    def __init__(self, duel: Duel, n: int, rng: np.random.Generator, trace: bool = False) -> None:
        self.duel = duel
        self.rng = rng
        self.trace: dict[str, list[Int]] | None = {key: [] for key in TRACED} if trace else None
        """With ``trace``: per round, every die each duel drew (indexed by the duel's number; −1 where none), so a
        test can replay a duel's dice through the State (see :data:`TRACED`)."""
        self.options = duel.options
        self.n = n
        dist, gard, daze, wounds = duel.start
        start = np.zeros(ROWS, dtype=np.int64)
        start[DIST], start[HOLDER], start[REDECIDE] = dist, -1, MOVED
        start[GARD : GARD + 2], start[DAZE : DAZE + 2] = gard, daze
        start[WOUNDS : WOUNDS + 2 * BOXES] = [w for ws in wounds for w in ws]
        self.state = np.repeat(start[:, None], n, axis=1)
        self.state[IDX] = np.arange(n)
        self.out = np.zeros((ROWS, n), dtype=np.int64)
        self.views()

    def views(self) -> None:
        s = self.state
        self.dist, self.holder, self.redecide, self.rounds = s[DIST], s[HOLDER], s[REDECIDE], s[ROUNDS]
        self.gard, self.daze, self.fate = s[GARD : GARD + 2], s[DAZE : DAZE + 2], s[FATE : FATE + 2]
        self.wounds = s[WOUNDS : WOUNDS + 2 * BOXES].reshape(2, BOXES, -1)
        self.m = s.shape[1]

    def play(self) -> Batch:
        can_settle = all(self.duel.heuristic)
        while self.m:
            self.round()
            self.rounds += 1
            if can_settle:
                settled = self.settled()
                if settled.any():
                    left = self.options.max_rounds - self.rounds
                    regained = R.regain_gard(self.gard, self.duel.gard_max[:, None], left)
                    self.gard[:] = pick(settled, regained, self.gard)
                    self.rounds[:] = pick(settled, self.options.max_rounds, self.rounds)
            done = (self.fate[0] != FIGHTING) | (self.fate[1] != FIGHTING) | (self.rounds >= self.options.max_rounds)
            if done.any():
                finished = self.state[:, done]
                self.out[:, finished[IDX]] = finished
                self.state = self.state[:, ~done]
                self.views()
        return results(self.duel, self.out)

    def settled(self) -> Int:
        """Duels whose future no die can change any more: they will repeat regain rounds until ``max_rounds``.

        Two heuristics, both so dazed that their Stridsvana target is 0 or less (every movement and initiative
        roll fails on both sides: the result is always the option nobody chose, or nobody attacks), and either
        both attack targets 0 or less too (any attacker regains Gard instead), or both standing at their common
        weapon length without the initiative (both hold, nobody ever gets it); and not dazed enough apart to leave.
        Nobody is ever damaged again, so Omtöckning stays and nobody leaves; every round both regain one Gard.
        The reference runner plays those rounds out to a deadlock; the kernel goes there at once (see play).
        """
        duel = self.duel
        pen = daze_penalty(self.daze)
        stuck: Int = (duel.stridsvana[0] + pen[0] <= 0) & (duel.stridsvana[1] + pen[1] <= 0)
        harmless = (duel.attack[0] + pen[0] <= 0) & (duel.attack[1] + pen[1] <= 0)
        if duel.length[0] == duel.length[1]:
            harmless |= (self.holder < 0) & (duel.scale[self.dist] == duel.length[0])
        stuck &= harmless
        if self.options.allow_leave:
            for me in (0, 1):
                stuck &= ~((pen[me] <= LOSING_BADLY) & (pen[me] - pen[1 - me] <= LOSING_BADLY))
        return stuck

    # ---- one round -----------------------------------------------------------------------------------------------
    def record(self, key: str, values: Int, where: Int | None = None) -> None:
        """Trace the dice of this round: ``values`` for the duels ``where`` (columns; all when None)."""
        if self.trace is None:
            return
        duels = self.state[IDX] if where is None else self.state[IDX][where]
        self.trace[key][-1][..., duels] = values

    def round(self) -> None:
        duel = self.duel
        rolls = self.rng.integers(1, 101, size=(6, self.m), dtype=np.int16)
        if self.trace is not None:
            for key in TRACED[1:]:  # every record of a round, even an empty one, so round r is row r
                self.trace[key].append(np.full(self.n, -1, dtype=np.int64))
            self.trace["d100"].append(np.full((6, self.n), -1, dtype=np.int64))
            self.record("d100", rolls)
        pen = daze_penalty(self.daze)
        wish, (leave_a, leave_b) = self.wishes(pen)
        self.movement(wish, pen, rolls[0:2])
        d = duel.scale[self.dist]
        # Lämna (leave): both leave; one leaves freely beyond the enemy's weapon, or under a gratisanfall
        both = leave_a & leave_b
        one = leave_a ^ leave_b
        leaver = leave_b.astype(np.int64)
        chaser = 1 - leaver
        free = one & (d > by_role(duel.length, chaser))
        self.fate[0] = pick(both | (free & leave_a), LEFT, self.fate[0])
        self.fate[1] = pick(both | (free & leave_b), LEFT, self.fate[1])
        chased = one & ~free
        att, fighting = self.initiative(~(leave_a | leave_b), d, rolls[2:4], pen)
        dfn = 1 - att
        src = att + chased * (chaser - att)  # who rolls the attack: the attacker, or the chaser of a leaver
        att_target = by_role(duel.attack, src) + by_role(pen, src)
        regain = fighting & self.choose(att, self.regain_wish(att, att_target))
        self.regain(regain)
        attacking = fighting & ~regain
        counter = attacking & (d <= by_role(duel.length, dfn)) & self.choose(dfn, self.counter_wish(att, dfn))
        attack_quality = quality(rolls[4], att_target)
        defence_target = by_role(duel.defence, dfn) + by_role(pen, dfn)
        defence_quality = quality(rolls[5], defence_target)
        if self.options.two_defence_rolls:
            second_roll = self.rng.integers(1, 101, size=(self.m,), dtype=np.int16)
            self.record("defence2", second_roll)
            second = quality(second_roll, defence_target)
            shielded = by_role(duel.shield, dfn).astype(bool)
            defence_quality = pick(shielded, np.maximum(defence_quality, second), defence_quality)
        # the first hit: the main attack (won against the defence, or any success against a counter-attack), or
        # the free attack on a fighter leaving within reach
        hit = (attack_quality > 0) & (chased | (attacking & (counter | (attack_quality > defence_quality))))
        self.damage(np.flatnonzero(hit), src, 1 - src, rolls[4], chased, "damage")
        gone = chased & (by_role(self.fate, leaver) == FIGHTING)
        self.fate[0] = pick(gone & leave_a, LEFT, self.fate[0])
        self.fate[1] = pick(gone & leave_b, LEFT, self.fate[1])
        # the counter-attack, with the Omtöckning just received; a defender taken out makes none
        countering = counter & (by_role(self.fate, dfn) == FIGHTING)
        if countering.any():
            roll = self.rng.integers(1, 101, size=(self.m,), dtype=np.int16)
            self.record("counter", roll)
            target = by_role(duel.attack, dfn) + daze_penalty(by_role(self.daze, dfn))
            hits = countering & (quality(roll, target) > 0)
            self.damage(np.flatnonzero(hits), dfn, att, roll, None, "counter_damage")
        standing = (self.fate[0] == FIGHTING) & (self.fate[1] == FIGHTING)
        self.ground(attacking & (attack_quality > 0) & standing, att, dfn)

    # ---- movement ------------------------------------------------------------------------------------------------
    def wishes(self, pen: Int) -> tuple[Int, Int]:
        """Each fighter's secret movement as a change of distance (−1, 0, +1), and who chose Lämna (leave)."""
        duel, m = self.duel, self.m
        wish = np.zeros((2, m), dtype=np.int64)
        leaving = np.zeros((2, m), dtype=bool)
        d = duel.scale[self.dist]
        for me in (0, 1):
            enemy = 1 - me
            mine, theirs = int(duel.length[me]), int(duel.length[enemy])
            if duel.heuristic[me]:
                # at my best distance without the initiative: change the distance to force a new decision
                closer = d - 1
                at_best = (self.holder == enemy) * (1 - 2 * ((closer >= 0) & (closer != theirs)))
                w = (d < mine).astype(np.int64) - (d > mine) + (d == mine) * at_best
                w *= self.holder != me  # the holder holds
                if self.options.allow_leave:
                    leave = (pen[me] <= LOSING_BADLY) & (pen[me] - pen[enemy] <= LOSING_BADLY)
                    w += leave * (1 - w)
                    leaving[me] = leave
                wish[me] = w
            else:
                choice = self.rng.integers(0, 4 if self.options.allow_leave else 3, size=m)
                wish[me] = np.array([-1, 0, 1, 1])[choice]
                leaving[me] = choice == 3
        return wish, leaving

    def movement(self, wish: Int, pen: Int, rolls: Int) -> None:
        """Same wish: that way (``step_size`` steps); else the Stridsvana winner's, or the option nobody chose."""
        duel = self.duel
        stridsvana = quality(rolls, duel.stridsvana[:, None] + pen)
        a_won, b_won = stridsvana[0] > stridsvana[1], stridsvana[1] > stridsvana[0]
        contested = a_won * wish[0] + b_won * wish[1] - ~(a_won | b_won) * (wish[0] + wish[1])
        change = pick(wish[0] == wish[1], wish[0] * self.options.step_size, contested)
        moved = np.minimum(np.maximum(self.dist + change, 0), duel.scale.size - 1)
        self.redecide |= (moved != self.dist) * MOVED
        self.dist[:] = moved

    # ---- initiative ----------------------------------------------------------------------------------------------
    def initiative(self, fight: Int, d: Int, rolls: Int, pen: Int) -> tuple[Int, Int]:
        """(attacker, who fights this round): the holder keeps it; else the table, or an opposed Stridsvana roll;
        when nobody gets it both regain one Gard."""
        duel = self.duel
        decide = fight & ((self.holder < 0) | (self.redecide != 0))
        far_a, far_b = d > duel.length[0], d > duel.length[1]
        opt_a, opt_b = d == duel.length[0], d == duel.length[1]
        none = far_a & far_b
        near = ~far_a & ~far_b
        to_b = (far_a & ~far_b) | (near & opt_b & ~opt_a)
        contest = near & ~(opt_a ^ opt_b)  # both optimal, or both too close
        if self.options.holder_damaged == "roll":
            # "Om anfallaren blir skadad så slås ett nytt slag för att avgöra initiativ"
            new_roll = (self.redecide == DAMAGED) & (self.holder >= 0) & ~none
            contest |= new_roll
            to_b &= ~new_roll
        stridsvana = quality(rolls, duel.stridsvana[:, None] + pen)
        a_won, b_won = stridsvana[0] > stridsvana[1], stridsvana[1] > stridsvana[0]
        won = b_won.astype(np.int64) - ~(a_won | b_won)  # 0, 1, or −1 for nobody
        new_holder = to_b.astype(np.int64) - none + contest * won
        nobody = decide & (new_holder < 0)
        redecide = self.redecide
        reason = none * (redecide + (redecide == 0) * MOVED) + (~none & nobody) * MOVED
        self.redecide[:] = pick(decide, reason, redecide)
        self.holder[:] = pick(decide, new_holder, self.holder)
        self.regain(nobody)
        fighting = fight & ~nobody
        att: Int = self.holder * fighting
        return att, fighting

    def regain(self, mask: Int) -> None:
        """Both regain one Gard (nobody fights, or the attacker does not attack)."""
        if mask.any():
            self.gard[:] = R.regain_gard(self.gard, self.duel.gard_max[:, None], mask.astype(np.int64))

    # ---- choices -------------------------------------------------------------------------------------------------
    def choose(self, who: Int, heuristic: Int) -> Int:
        """The heuristic's choice for a heuristic seat, a fair coin for a random one (two legal actions)."""
        duel = self.duel
        if duel.heuristic[0] and duel.heuristic[1]:
            return heuristic
        coin: Int = self.rng.integers(0, 2, size=who.size) == 1
        if not duel.heuristic[0] and not duel.heuristic[1]:
            return coin
        out: Int = np.where(np.array(duel.heuristic)[who], heuristic, coin)
        return out

    def regain_wish(self, att: Int, target: Int) -> Int:
        """The heuristic attacker does not attack when it cannot hit (or hardly can while its Gard is down)."""
        gard = by_role(self.gard, att)
        out: Int = (target <= 0) | ((target <= 10) & (gard < by_role(self.duel.gard_max, att)))
        return out

    def counter_wish(self, att: Int, dfn: Int) -> Int:
        """The heuristic defender counters when its Gard soaks (≥ half) and the table says it pays."""
        duel = self.duel
        daze_level = np.maximum(self.daze - 1, 0) // 5
        size = duel.counter_table.shape[1]
        lm = np.minimum(by_role(daze_level, dfn), by_role(duel.level_cap, dfn))
        le = np.minimum(by_role(daze_level, att), by_role(duel.level_cap, att))
        gard_dfn = by_role(self.gard, dfn)
        index = (((dfn * size + lm) * size + le) * 2 + (by_role(self.gard, att) > 0)) * 2 + (gard_dfn > 0)
        out: Int = duel.counter_table.ravel()[index] & (gard_dfn * 2 >= by_role(duel.gard_max, dfn))
        return out

    # ---- damage --------------------------------------------------------------------------------------------------
    def damage(
        self, sel: Int, src_all: Int, dst_all: Int, roll_all: Int, leave_all: Int | None, traced: str = "damage"
    ) -> None:
        """Hits on the duels ``sel``: effect + dice on Gard first, the thresholds, wounds, Omtöckning, fates."""
        if not sel.size:
            return
        duel, options = self.duel, self.options
        src, dst, roll = src_all[sel], dst_all[sel], roll_all[sel]
        exceptional = quality(roll, by_role(duel.attack, src) + daze_penalty(self.daze[src, sel])) >= 200
        counts = duel.counts[src, dst]
        if options.free_attack_ignores_gard and leave_all is not None:
            counts = counts & ~leave_all[sel]
        gard = self.gard[dst, sel]
        guarded = (gard > 0) & counts & ~exceptional
        dice = self.roll_dice(src * 2 + guarded)
        self.record(traced, dice, sel)
        eff = ROLL_EFFECT[roll]
        total = eff + dice
        absorbed = guarded & ((total < gard) | ((total == gard) & (not options.empty_gard_scratch)))
        compared = total - guarded * gard
        wound = pick(absorbed, R.NO_WOUND, (compared[:, None] >= duel.limits[dst]).sum(axis=1))
        self.gard[dst, sel] = gard - guarded * pick(absorbed, total, gard)
        # no wound 0, Skråma 1, Lätt the dice, Allvarlig dice + effect, Kritisk and Dödlig none (the fighter is out)
        light_or_serious = (wound >= R.LATT) & (wound <= R.ALLVARLIG)
        gained = (wound <= R.SKRAMA) * (wound + 1) + light_or_serious * dice + (wound == R.ALLVARLIG) * eff
        self.daze[dst, sel] += gained
        boxed = wound >= 0
        self.wounds[dst[boxed], wound[boxed], sel[boxed]] += 1
        deadly = wound == R.DODLIG
        out = (wound == R.KRITISK) | (deadly & (options.deadly_wound == "knocked_out"))
        self.fate[dst[out], sel[out]] = KNOCKED_OUT
        if options.deadly_wound != "knocked_out":
            self.fate[dst[deadly], sel[deadly]] = DEAD
        damaged = self.holder[sel] == dst
        if not options.gard_damage_is_damage:
            damaged &= wound != R.NO_WOUND
        self.redecide[sel[damaged]] |= DAMAGED

    def roll_dice(self, which: Int) -> Int:
        """One damage roll per entry; ``which`` = src * 2 + guarded picks the weapon's dice."""
        out = np.zeros(which.size, dtype=np.int64)
        for code, (dice, table) in enumerate(self.duel.dice):
            hit = which == code
            count = int(np.count_nonzero(hit))
            if not count:
                continue
            if table is not None:
                out[hit] = table[self.rng.integers(0, table.size, size=count)]
            else:
                faces = self.rng.integers(1, dice.sides + 1, size=(count, dice.count))
                out[hit] = faces.sum(axis=1) + dice.modifier
        return out

    # ---- gain ground ---------------------------------------------------------------------------------------------
    def ground(self, mask: Int, att: Int, dfn: Int) -> None:
        """Vinna terräng: the successful attacker follows or not (a cornered defender: follow in or stand)."""
        if not mask.any():
            return
        duel = self.duel
        other = 1 - 2 * by_role(duel.cornered, dfn)  # −1 (follow in) against a cornered defender, else +1
        moved = np.minimum(np.maximum(self.dist + other, 0), duel.scale.size - 1)
        mine, theirs = by_role(duel.length, att), by_role(duel.length, dfn)

        def score(pos: Int) -> Int:
            # the heuristic's 2·[d = mine] − 1.5·[d = theirs] + 0.5·[d ≤ mine] − 0.5·[d ≤ theirs], times two
            d = duel.scale[pos]
            out: Int = 4 * (d == mine) - 3 * (d == theirs) + (d <= mine).astype(np.int64) - (d <= theirs)
            return out

        step = mask & self.choose(att, score(moved) > score(self.dist))
        new = pick(step, moved, self.dist)
        if self.options.gain_ground_changes_initiative:
            self.redecide |= (new != self.dist) * MOVED
        self.dist[:] = new


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
    """The fate words per duel: a code per distinct (fate, wound boxes, Omtöckning), then its exact text."""
    parts = [fate, *wounds, daze]
    sizes = [int(p.max()) + 1 if p.size else 1 for p in parts]
    key = np.zeros(fate.size, dtype=np.int64)
    for p, size in zip(parts, sizes, strict=True):
        key = key * size + p
    unique, codes = np.unique(key, return_inverse=True)
    labels: list[str] = []
    for value in unique.tolist():
        digits = []
        for size in reversed(sizes):
            digits.append(value % size)
            value //= size
        f, *boxes, dz = reversed(digits)
        labels.append(fate_label(f, tuple(boxes), dz))
    return Coded(codes.astype(np.int64).ravel(), list(labels))
