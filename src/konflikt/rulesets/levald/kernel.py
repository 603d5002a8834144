"""A numpy kernel for Le våld duels: many one-against-one fights at once, round by round, for balancing.

It mirrors :class:`~konflikt.rulesets.levald.state.LevaldState` step for step — movement wishes and the Stridsvana
contest, leaving and the gratisanfall (free attack), the initiative table and its holder, attack / regain, defend /
counter, Gard and the wound thresholds, Omtöckning (daze), gain ground — with the ``heuristic`` or the ``random``
policy in each seat. Every conflict is a column of small integer arrays; a round is a fixed sequence of masked
array operations, and finished conflicts leave the arrays at the end of each round. Dice are drawn with the same
distributions as the reference runner (not the same streams): d100 as ``integers(1, 101)``, damage dice as a
uniform index into the table of every face combination, so the sums are exact.

The kernel refuses (returns a reason) what it does not mirror: more than one fighter a side, a policy other than
``heuristic`` or ``random``, a GM seat that could change the conditions, or a rule option outside
:data:`MIRRORED` at a value other than its default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

import numpy as np

from konflikt.core.options import Options
from konflikt.core.ruleset import Policy, RandomPolicy
from konflikt.core.scenario import Scenario
from konflikt.core.state import GM
from konflikt.dice import SumDice, effect
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.narration import FATE_TEXT
from konflikt.rulesets.levald.options import OPTIONS
from konflikt.rulesets.levald.policies import COUNTER_MARGIN, LOSING_BADLY, HeuristicPolicy
from konflikt.sim.batch import Batch, Coded

Int = np.ndarray
MIRRORED = frozenset(
    {
        "step_size",
        "two_defence_rolls",
        "light_threshold_round_up",
        "empty_gard_scratch",
        "gard_damage_is_damage",
        "gain_ground_changes_initiative",
        "allow_leave",
        "free_attack_ignores_gard",
        "deadly_wound",
        "subfight_rounds",
        "rest_floor_per_wound",
        "max_rounds",
    }
)
"""Options the kernel plays at any value (the subfight and rest options do nothing in a duel); the others
(``exceptional``, ``effect_breaks_ties``, ``bypass_dice``, ``holder_damaged``) only at their defaults."""

FIGHTING, KNOCKED_OUT, DEAD, LEFT = 0, 1, 2, 3
FATE_NAMES = ("fighting", "knocked_out", "dead", "left")
MOVED, DAMAGED = 1, 2
FAR, OPTIMAL, CLOSE = 0, 1, 2
ENDINGS = ("parted", "left", "dead", "taken_out", "deadlock")
TABLE_LIMIT = 1 << 20
"""Damage dice with more face combinations than this are summed die by die instead of looked up."""

ROLL_EFFECT = np.array([0, *(effect(r) for r in range(1, 101))], dtype=np.int64)
"""Effekt of each d100 reading (index 1–100; 100 = 00 → 0)."""


def daze_penalty(daze: Int) -> Int:
    """:func:`rules.daze_penalty` on arrays: −10 per started five beyond the first five."""
    return np.where(daze > 0, -10 * ((daze - 1) // 5), 0)


def roll_level(roll: Int, target: Int) -> Int:
    """:func:`rules.level` with exceptional = ``fifth``: 0 failure, 1 success, 2 exceptional."""
    return np.where(roll > target, 0, np.where(roll <= target // 5, 2, 1))


def roll_quality(roll: Int, target: Int) -> Int:
    """:func:`rules.quality` as one comparable number: level × 100 + effect (0 for any failure)."""
    lvl = roll_level(roll, target)
    return np.where(lvl == 0, 0, lvl * 100 + ROLL_EFFECT[roll])


def attack_beats_defence(attack: int, defence: int) -> float:
    """The heuristic's P(attack beats one defence roll), counted over all 100 × 100 rolls exactly as it does."""
    rolls = np.arange(1, 101)
    qa = roll_quality(rolls, np.full(100, attack))
    qd = roll_quality(rolls, np.full(100, defence))
    wins = int(np.sum((qa[:, None] > 0) & (qa[:, None] > qd[None, :])))
    return wins / 10_000


def expected_hit(dice: SumDice) -> float:
    """The heuristic's rough damage of a hit with ``dice`` (the same expression, so the same float)."""
    return 9 + dice.count * (dice.sides + 1) / 2


def success(target: int) -> float:
    return min(max(target, 0), 100) / 100


def dice_table(dice: SumDice) -> Int | None:
    """Every face combination's sum (a uniform index into it is one roll), or ``None`` when too many."""
    if dice.sides**dice.count > TABLE_LIMIT:
        return None
    sums = np.zeros(1, dtype=np.int64)
    for _ in range(dice.count):
        sums = np.add.outer(sums, np.arange(1, dice.sides + 1)).ravel()
    return sums + dice.modifier


def fate_label(fate: int, wounds: tuple[int, int, int], daze: int) -> str:
    """The participant's fate words exactly as ``LevaldState._fate_text`` writes them."""
    marks = [f"{name}×{n}" for name, n in zip(R.WOUNDS[:3], wounds, strict=False) if n]
    return FATE_TEXT[FATE_NAMES[fate]] + (f", {' '.join(marks)}" if marks else "") + f", Omtöckning {daze}"


def policy_name(policy: Policy | None) -> str | None:
    if isinstance(policy, HeuristicPolicy):
        return "heuristic"
    if isinstance(policy, RandomPolicy):
        return "random"
    return None


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
    """index src * 2 + guarded → (the dice, their table)."""
    scale: Int
    start: tuple[int, list[int], list[int], list[list[int]]]
    """distance position, Gard, Omtöckning, wound boxes at the start."""
    counter_table: Int
    level_cap: Int
    options: Options


def make_kernel(scenario: Scenario, options: Options, seats: Mapping[str, Policy | None]) -> DuelKernel | str:
    """A kernel for this scenario, or why it cannot play it (the engine then uses the reference runner)."""
    from konflikt.rulesets.levald.state import LevaldState

    if scenario.ruleset.id != "levald":
        return f"the levald kernel cannot play {scenario.ruleset.id}"
    people = scenario.participants()
    if len(scenario.sides) != 2 or any(len(s.participants) != 1 for s in scenario.sides):
        return "the levald kernel plays duels only (one fighter a side); this scenario has sub-fights"
    for name in OPTIONS._options:
        if name not in MIRRORED and options[name] != OPTIONS[name].default:
            return f"the levald kernel mirrors option {name} only at its default ({OPTIONS[name].default!r})"
    names = [policy_name(seats.get(p.id)) for p in people]
    for p, name in zip(people, names, strict=True):
        if name is None:
            return f"the levald kernel mirrors the heuristic and random policies only, not {p.id}'s"
    state = LevaldState(scenario, options)
    if state.gm_conditions and policy_name(seats.get(GM)) != "heuristic":
        return "the levald kernel mirrors GM conditions only with the heuristic GM (who never changes them)"
    f = state.fighters
    attack = np.array([x.attack_base for x in f])
    defence = np.array([x.defence_base for x in f])
    cap = np.maximum(0, -(-np.maximum(attack, defence) // 10))
    duel = Duel(
        ids=(f[0].id, f[1].id),
        sides=(state.sides[0], state.sides[1]),
        heuristic=(names[0] == "heuristic", names[1] == "heuristic"),
        length=np.array([x.length for x in f]),
        stridsvana=np.array([x.stridsvana for x in f]),
        attack=attack,
        defence=defence,
        limits=np.array([x.limits for x in f]),
        gard_max=np.array([x.gard_max for x in f]),
        cornered=np.array(state.cornered),
        shield=np.array([x.weapon.shield for x in f]),
        counts=np.array(
            [
                [R.gard_counts(state.prepared[d], f[s].weapon.ranged, f[d].weapon.shield) for d in (0, 1)]
                for s in (0, 1)
            ]
        ),
        dice=[(d, dice_table(d)) for x in f for d in (x.open, x.guarded)],
        scale=np.array(state.scale_index),
        start=(state.dist[0], list(state.gard), list(state.daze), [list(w) for w in state.wounds]),
        counter_table=counter_table(state, cap),
        level_cap=cap,
        options=options,
    )
    return DuelKernel(duel)


def counter_table(state: Any, cap: Int) -> Int:
    """The heuristic defender's choice (True = counter) by [defender, its daze level, the attacker's daze level,
    attacker has Gard, defender has Gard]; levels are capped where every target is 0 or below (nothing changes
    beyond). The soaks test (Gard ≥ half its maximum) is applied by the kernel."""
    f = state.fighters
    table = np.zeros((2, int(cap.max()) + 1, int(cap.max()) + 1, 2, 2), dtype=bool)
    for me in (0, 1):
        enemy = 1 - me
        for lm, le in product(range(cap[me] + 1), range(cap[enemy] + 1)):
            their_attack = f[enemy].attack_base - 10 * le
            hit_if_defending = attack_beats_defence(their_attack, f[me].defence_base - 10 * lm)
            exposure = success(their_attack) - hit_if_defending
            for enemy_gard, my_gard in product((0, 1), (0, 1)):
                mine = f[me].guarded if enemy_gard else f[me].open
                theirs = f[enemy].guarded if my_gard else f[enemy].open
                gain = success(f[me].attack_base - 10 * lm) * expected_hit(mine)
                cost = exposure * expected_hit(theirs)
                table[me, lm, le, enemy_gard, my_gard] = gain > COUNTER_MARGIN * cost
        # levels beyond a fighter's cap behave as the cap
        table[me, cap[me] + 1 :] = table[me, cap[me]]
        table[me, :, cap[enemy] + 1 :] = table[me, :, cap[enemy] : cap[enemy] + 1]
    return table


class DuelKernel:
    """Plays ``n`` duels at once; ``run`` returns the same labels as the reference runner."""

    def __init__(self, duel: Duel) -> None:
        self.duel = duel

    def run(self, n: int, rng: np.random.Generator) -> Batch:
        return Round(self.duel, n, rng).play()


class Round:
    """The arrays of the duels still going, and one method per part of a round (the State's order)."""

    def __init__(self, duel: Duel, n: int, rng: np.random.Generator) -> None:
        self.k = duel
        self.rng = rng
        self.o = duel.options
        dist, gard, daze, wounds = duel.start
        self.idx = np.arange(n)
        self.dist = np.full(n, dist, dtype=np.int64)
        self.holder = np.full(n, -1, dtype=np.int64)
        self.redecide = np.full(n, MOVED, dtype=np.int64)
        self.gard = np.array([[g] * n for g in gard], dtype=np.int64)
        self.daze = np.array([[d] * n for d in daze], dtype=np.int64)
        self.wounds = np.array([[[w] * n for w in ws] for ws in wounds], dtype=np.int64)
        self.fate = np.zeros((2, n), dtype=np.int64)
        self.rounds = np.zeros(n, dtype=np.int64)
        self.out = {
            "gard": np.zeros((2, n), dtype=np.int64),
            "daze": np.zeros((2, n), dtype=np.int64),
            "wounds": np.zeros((2, 3, n), dtype=np.int64),
            "fate": np.zeros((2, n), dtype=np.int64),
            "rounds": np.zeros(n, dtype=np.int64),
        }
        self.n = n

    # ---- the whole fight -----------------------------------------------------------------------------------------
    def play(self) -> Batch:
        while self.idx.size:
            self.round()
            self.rounds += 1
            done = (self.fate != FIGHTING).any(axis=0) | (self.rounds >= self.o.max_rounds)
            if done.any():
                self.retire(done)
        return self.batch()

    def retire(self, done: Int) -> None:
        where = self.idx[done]
        for name in ("gard", "daze", "fate"):
            self.out[name][:, where] = getattr(self, name)[:, done]
        self.out["wounds"][:, :, where] = self.wounds[:, :, done]
        self.out["rounds"][where] = self.rounds[done]
        keep = ~done
        self.idx, self.dist, self.holder = self.idx[keep], self.dist[keep], self.holder[keep]
        self.redecide, self.rounds = self.redecide[keep], self.rounds[keep]
        self.gard, self.daze, self.fate = self.gard[:, keep], self.daze[:, keep], self.fate[:, keep]
        self.wounds = self.wounds[:, :, keep]

    # ---- one round -----------------------------------------------------------------------------------------------
    def round(self) -> None:
        k, m = self.k, self.idx.size
        ar = np.arange(m)
        d100 = self.rng.integers(1, 101, size=(8, m))
        pen = daze_penalty(self.daze)
        wish, leaving = self.wishes(pen)
        self.movement(wish, pen, d100[0:2])
        d = k.scale[self.dist]
        nleave = leaving.sum(axis=0)
        both = nleave == 2
        self.fate[:, both] = LEFT
        one = nleave == 1
        leaver = np.where(leaving[0], 0, 1)
        free = one & (d > k.length[1 - leaver])
        self.fate[leaver[free], ar[free]] = LEFT
        chased = one & ~free
        fight = nleave == 0
        att, fighting = self.initiative(fight, d, d100[2:4])
        dfn = 1 - att
        att_target = k.attack[att] + pen[att, ar]
        regain = fighting & self.choose(att, self.regain_wish(att, att_target))
        self.regain(regain)
        attacking = fighting & ~regain
        counter = attacking & (d <= k.length[dfn]) & self.choose(dfn, self.counter_wish(att, dfn))
        qa = roll_quality(d100[4], att_target)
        defence_target = k.defence[dfn] + pen[dfn, ar]
        qd = roll_quality(d100[5], defence_target)
        if self.o.two_defence_rolls:
            qd = np.where(k.shield[dfn], np.maximum(qd, roll_quality(d100[6], defence_target)), qd)
        attack_ok = qa > 0
        # the first hit: the main attack (won against the defence, or any success against a counter), or the
        # free attack on a fighter leaving within reach
        free_target = k.attack[1 - leaver] + pen[1 - leaver, ar]
        free_hit = chased & (roll_level(d100[4], free_target) > 0)
        main_hit = attacking & attack_ok & (counter | (qa > qd))
        src = np.where(chased, 1 - leaver, att)
        dst = 1 - src
        self.damage(np.flatnonzero(main_hit | free_hit), src, dst, d100[4], chased)
        gone = chased & (self.fate[leaver, ar] == FIGHTING)
        self.fate[leaver[gone], ar[gone]] = LEFT
        # the counter-attack, with the Omtöckning just received
        countering = counter & (self.fate[dfn, ar] == FIGHTING)
        if countering.any():
            target = k.attack[dfn] + daze_penalty(self.daze[dfn, ar])
            hits = countering & (roll_level(d100[7], target) > 0)
            self.damage(np.flatnonzero(hits), dfn, att, d100[7], np.zeros(m, dtype=bool))
        standing = (self.fate[0] == FIGHTING) & (self.fate[1] == FIGHTING)
        self.ground(attacking & attack_ok & standing, att, dfn)

    # ---- movement ------------------------------------------------------------------------------------------------
    def wishes(self, pen: Int) -> tuple[Int, Int]:
        """Each fighter's secret movement as a change of distance, and who chose Lämna (leave)."""
        k, m = self.k, self.idx.size
        wish = np.zeros((2, m), dtype=np.int64)
        leaving = np.zeros((2, m), dtype=bool)
        d = k.scale[self.dist]
        for me in (0, 1):
            enemy = 1 - me
            if k.heuristic[me]:
                closer = d - 1
                at_best = np.where(
                    self.holder == enemy, np.where((closer >= 0) & (closer != k.length[enemy]), -1, 1), 0
                )
                w = np.where(d > k.length[me], -1, np.where(d < k.length[me], 1, at_best))
                w = np.where(self.holder == me, 0, w)
                if self.o.allow_leave:
                    leave = (pen[me] <= LOSING_BADLY) & (pen[me] - pen[enemy] <= LOSING_BADLY)
                    w = np.where(leave, 1, w)
                    leaving[me] = leave
                wish[me] = w
            else:
                choice = self.rng.integers(0, 4 if self.o.allow_leave else 3, size=m)
                wish[me] = np.array([-1, 0, 1, 1])[choice]
                leaving[me] = choice == 3
        return wish, leaving

    def movement(self, wish: Int, pen: Int, rolls: Int) -> None:
        """Same wish: that way (step_size steps); else the Stridsvana contest's winner, or the option nobody chose."""
        k = self.k
        q = roll_quality(rolls, k.stridsvana[:, None] + pen)
        winner_change = np.where(q[0] > q[1], wish[0], np.where(q[1] > q[0], wish[1], -(wish[0] + wish[1])))
        change = np.where(wish[0] == wish[1], wish[0] * self.o.step_size, winner_change)
        moved = np.clip(self.dist + change, 0, k.scale.size - 1)
        self.redecide |= np.where(moved != self.dist, MOVED, 0)
        self.dist = moved

    # ---- initiative ----------------------------------------------------------------------------------------------
    def initiative(self, fight: Int, d: Int, rolls: Int) -> tuple[Int, Int]:
        """(attacker per duel, who fights this round): the holder keeps it, else the table or a Stridsvana roll."""
        k = self.k
        m = fight.size
        keep = fight & (self.holder >= 0) & (self.redecide == 0)
        decide = fight & ~keep
        reach = [np.where(d > k.length[i], FAR, np.where(d == k.length[i], OPTIMAL, CLOSE)) for i in (0, 1)]
        a_far, b_far = reach[0] == FAR, reach[1] == FAR
        a_opt, b_opt = reach[0] == OPTIMAL, reach[1] == OPTIMAL
        none = a_far & b_far
        to_b = (a_far & ~b_far) | (~a_far & ~b_far & b_opt & ~a_opt)
        to_a = (b_far & ~a_far) | (~a_far & ~b_far & a_opt & ~b_opt)
        contest = ~none & ~to_a & ~to_b
        pen = daze_penalty(self.daze)
        q = roll_quality(rolls, k.stridsvana[:, None] + pen)
        won = np.where(q[0] > q[1], 0, np.where(q[1] > q[0], 1, -1))
        reason = self.redecide
        new_holder = np.where(to_a, 0, np.where(to_b, 1, np.where(contest, won, -1)))
        nobody = decide & (new_holder < 0)
        self.holder = np.where(decide, new_holder, self.holder)
        self.redecide = np.where(
            decide,
            np.where(none, np.where(reason != 0, reason, MOVED), np.where(nobody, MOVED, 0)),
            self.redecide,
        )
        self.regain(nobody)
        fighting = fight & ~nobody
        att = np.where(fighting, self.holder, 0)
        del m
        return att, fighting

    def regain(self, mask: Int) -> None:
        """Both regain one Gard (nobody fights, or the attacker does not attack)."""
        if mask.any():
            self.gard[:, mask] = np.minimum(self.gard[:, mask] + 1, self.k.gard_max[:, None])

    # ---- choices -------------------------------------------------------------------------------------------------
    def choose(self, who: Int, heuristic: Int) -> Int:
        """The heuristic's choice for a heuristic seat, a fair coin for a random one (two legal actions)."""
        k = self.k
        if k.heuristic[0] and k.heuristic[1]:
            return heuristic
        coin = self.rng.integers(0, 2, size=who.size) == 1
        if not k.heuristic[0] and not k.heuristic[1]:
            return coin
        is_heuristic = np.array(k.heuristic)[who]
        return np.where(is_heuristic, heuristic, coin)

    def regain_wish(self, att: Int, target: Int) -> Int:
        """The heuristic attacker does not attack when it cannot hit (and low targets while its Gard is down)."""
        gard = self.gard[att, np.arange(att.size)]
        return (target <= 0) | ((target <= 10) & (gard < self.k.gard_max[att]))

    def counter_wish(self, att: Int, dfn: Int) -> Int:
        """The heuristic defender counters when its Gard soaks and the table says it pays."""
        k, ar = self.k, np.arange(att.size)
        lvl = np.where(self.daze > 0, (self.daze - 1) // 5, 0)
        cap = k.level_cap
        lm = np.minimum(lvl[dfn, ar], cap[dfn])
        le = np.minimum(lvl[att, ar], cap[att])
        gard_att, gard_dfn = self.gard[att, ar], self.gard[dfn, ar]
        pays = k.counter_table[dfn, lm, le, (gard_att > 0).astype(np.int64), (gard_dfn > 0).astype(np.int64)]
        return pays & (gard_dfn * 2 >= k.gard_max[dfn])

    # ---- damage --------------------------------------------------------------------------------------------------
    def damage(self, sel: Int, src_all: Int, dst_all: Int, roll_all: Int, leave_all: Int) -> None:
        """Hits on the duels ``sel``: effect + dice on Gard first, the thresholds, wounds, Omtöckning, fates."""
        if not sel.size:
            return
        k, o = self.k, self.o
        src, dst, roll = src_all[sel], dst_all[sel], roll_all[sel]
        target = k.attack[src] + daze_penalty(self.daze[src, sel])
        exceptional = roll_level(roll, target) == 2
        counts = k.counts[src, dst].astype(bool)
        if o.free_attack_ignores_gard:
            counts &= ~leave_all[sel]
        gard = self.gard[dst, sel]
        guarded = (gard > 0) & counts & ~exceptional
        dice = self.roll_dice(src * 2 + guarded.astype(np.int64))
        eff = ROLL_EFFECT[roll]
        total = eff + dice
        limits = k.limits[dst]
        absorbed = guarded & ((total < gard) | ((total == gard) & (not o.empty_gard_scratch)))
        compared = np.where(guarded, total - gard, total)
        wound = (compared[:, None] >= limits).sum(axis=1)
        wound = np.where(absorbed, R.NO_WOUND, wound)
        self.gard[dst, sel] = np.where(guarded, np.where(absorbed, gard - total, 0), gard)
        gained = np.select(
            [wound == R.NO_WOUND, wound == R.SKRAMA, wound == R.LATT], [0, 1, dice], default=dice + eff
        )
        self.daze[dst, sel] += gained
        boxed = (wound >= 0) & (wound <= R.ALLVARLIG)
        self.wounds[dst[boxed], wound[boxed], sel[boxed]] += 1
        out = wound == R.KRITISK
        if o.deadly_wound == "knocked_out":
            out |= wound == R.DODLIG
        else:
            self.fate[dst[wound == R.DODLIG], sel[wound == R.DODLIG]] = DEAD
        self.fate[dst[out], sel[out]] = KNOCKED_OUT
        damaged = (self.holder[sel] == dst) & ((wound != R.NO_WOUND) | o.gard_damage_is_damage)
        self.redecide[sel[damaged]] |= DAMAGED

    def roll_dice(self, which: Int) -> Int:
        """One damage roll per entry; ``which`` = src * 2 + guarded picks the weapon's dice."""
        out = np.zeros(which.size, dtype=np.int64)
        for code, (dice, table) in enumerate(self.k.dice):
            hit = which == code
            count = int(hit.sum())
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
        """The successful attacker's free step: follow or not (against a cornered defender: follow in or stand)."""
        if not mask.any():
            return
        k = self.k
        other = np.where(k.cornered[dfn] > 0, -1, 1)
        last = k.scale.size - 1
        moved = np.clip(self.dist + other, 0, last)

        def score(pos: Int) -> Int:
            d = k.scale[pos]
            mine, theirs = k.length[att], k.length[dfn]
            # the heuristic's 2·[d = mine] − 1.5·[d = theirs] + 0.5·[d ≤ mine] − 0.5·[d ≤ theirs], doubled
            return 4 * (d == mine) - 3 * (d == theirs) + (d <= mine).astype(np.int64) - (d <= theirs)

        better = score(moved) > score(self.dist)
        step = np.where(self.choose(att, better), other, 0)
        new = np.where(mask, np.clip(self.dist + step, 0, last), self.dist)
        if self.o.gain_ground_changes_initiative:
            self.redecide |= np.where(new != self.dist, MOVED, 0)
        self.dist = new

    # ---- results -------------------------------------------------------------------------------------------------
    def batch(self) -> Batch:
        k, out = self.k, self.out
        fate, rounds = out["fate"], out["rounds"]
        standing = fate == FIGHTING
        over = ~(standing[0] & standing[1])
        win_a = over & standing[0] & ~standing[1]
        win_b = over & standing[1] & ~standing[0]
        winners = np.where(win_a, 1, np.where(win_b, 2, 0))
        loser = np.where(win_a, 1, 0)
        loser_fate = fate[loser, np.arange(self.n)]
        ending = np.where(
            ~over,
            4,
            np.where(~(win_a | win_b), 0, np.where(loser_fate == LEFT, 1, np.where(loser_fate == DEAD, 2, 3))),
        )
        fates = {pid: self.fates(i) for i, pid in enumerate(k.ids)}
        resources: dict[str, Int] = {}
        for name in ("gard", "daze"):
            for i, pid in enumerate(k.ids):
                resources[f"{pid}.{name}"] = out[name][i].astype(float)
        for i, pid in enumerate(k.ids):
            resources[f"{pid}.wounds"] = out["wounds"][i].sum(axis=0).astype(float)
        return Batch(
            Coded(winners, [(), (k.sides[0],), (k.sides[1],)]),
            Coded(ending, list(ENDINGS)),
            fates,
            rounds,
            resources,
        )

    def fates(self, i: int) -> Coded:
        """The fate words per duel: a code per distinct (fate, wound boxes, Omtöckning), then its exact text."""
        out = self.out
        parts = [out["fate"][i], out["wounds"][i, 0], out["wounds"][i, 1], out["wounds"][i, 2], out["daze"][i]]
        sizes = [int(p.max()) + 1 if p.size else 1 for p in parts]
        key = np.zeros(self.n, dtype=np.int64)
        for p, size in zip(parts, sizes, strict=True):
            key = key * size + p
        unique, codes = np.unique(key, return_inverse=True)
        labels = []
        for value in unique.tolist():
            digits = []
            for size in reversed(sizes):
                digits.append(value % size)
                value //= size
            fate, s, lt, al, daze = reversed(digits)
            labels.append(fate_label(fate, (s, lt, al), daze))
        return Coded(codes.astype(np.int64), list(labels))
