"""The compact model of a Le våld duel for exact odds: one step is one runda (round).

**Why the State-API solver explodes.** A round of the State is a chain of nodes: the secret movement, two d100 for
a Stridsvana contest, two more for the initiative, the attack roll, the defence roll, the damage dice, the counter
roll and its dice — each d100 a hundred branches and each kept in ``key()`` while a rule reads it (``rolls``,
``att_quality``, ``hit``), so one round start fans out into hundreds of thousands of keys before they merge at the
next round (the bridge from a saved round walks the d100 by their classes, ``LevaldState.chance_classes``), and the
round clock (``max_rounds`` 300) multiplies every state by the rounds it can be met in. Measured on ``levald/duel``
(200,000 kernel duels): 40 distinct round starts after round 1, 698 after 2, 6,372 after 7, 68,238 distinct ones
without the clock; the State-API solver gives up in the first rounds.

**Why this model does not finish the bundled duel either.** Those 68,238 are the round starts 200,000 duels
happened to meet, not the reachable set: every Gard, Omtöckning and wound box is exact (the fate words read
Omtöckning and the boxes), and a round with a counter-attack crosses two hits of some sixty outcomes each, so a
round start three rounds in has about 4,000 distinct next round starts (measured over 300 of them). Without the
clock, breadth-first from the opening: 41 states within one round, 957 within two, 24,186 within three (720 and
17,240 with the wound boxes left out), and 400,068 once the first 1,382 are expanded; some 40 ms of walking each.
The clock is not what makes it large (see :mod:`konflikt.analysis.horizon`, which drops it). Nor is walking one
state at a time: pushing the distribution forward in numpy (:mod:`.propagate`, this model's float path) lists the
round starts alive after each round, and they are 40, 882, 23,684 and about 2.5 million after four rounds (761,043
with the wound boxes left out) with 69% of the mass still fighting; the push refuses there, within seconds. Nor
does a chain keyed by what the rules read finish it: the boxes lump, but Omtöckning must stay exact (not only its
penalty), and that chain has at least 2.7 million states within six rounds (:mod:`.propagate`, "Why the rows cannot
be lumped").

**The encoding.** A compact state is a flat tuple of small ints at the start of a round: the rounds played, the
distance, the initiative holder and why it must be decided afresh, and per fighter Gard, Omtöckning, the five
wound boxes and the fate. Everything a roll leaves behind within the round is gone by its end. A round is walked
here with the chance nodes grouped into the classes the rules tell apart — a d100 by its quality against the
target and its effect (:func:`roll_classes`), a Stridsvana contest by its winner, an attack by its success and
the hit it does to Gard, wounds and Omtöckning — each with its exact count. Every number comes from the rules
code (:mod:`.rules`: ``quality``, ``contest_winner``, ``movement_change``, ``initiative``, ``attack_wins``,
``apply_hit``, ``daze_gained``, ``regain_gard``…), every decision from the scenario's policy on a real
``LevaldState`` (the heuristic's choice, or the random policy's legal actions, each equally likely), every end
label from the State's own outcome. The order of the round is the State's (movement, leaving and its free attack,
initiative, attacker's and defender's choices, attack, defence or counter, damage, gain ground).

**Without the clock.** No rule or policy reads the rounds played but the cap, so the model also offers the
clockless chain (:meth:`LevaldModel.clock`, :meth:`~LevaldModel.step`, :meth:`~LevaldModel.at_cap`, ``cap``) that
``analysis.horizon`` steps round by round to ``max_rounds``: each state once however many rounds it can be met in.

Probabilities are integers over one denominator per model (:attr:`LevaldModel.total`: every roll and choice a
round can hold, each a factor), reduced per state; the test ``tests/analysis/test_model_levald.py`` checks each
round against the State API on random states, Fraction for Fraction.

Covered: duels (one fighter a side) with the heuristic or the random policy on each seat (and the heuristic GM
where the GM may set conditions), from any state at the start of a round. Sub-fights (one against several) are
left to the State API, which says how many states it met when it gives up.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from functools import reduce
from math import gcd, lcm
from typing import Any, cast

import numpy as np

from konflikt.core.model_cache import ModelCache
from konflikt.core.ruleset import Policy, RandomPolicy
from konflikt.core.state import GM, State
from konflikt.dice import Dice, effect
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald import words as W
from konflikt.rulesets.levald.i18n import N_, _
from konflikt.rulesets.levald.policies import HeuristicPolicy
from konflikt.rulesets.levald.state import D100, DAMAGED, DEAD, FIGHTING, KNOCKED_OUT, LEFT, MOVED, LevaldState

FATES = (FIGHTING, KNOCKED_OUT, DEAD, LEFT)
"""Fate codes of the compact state: 0 fighting, 1 knocked out, 2 dead, 3 left."""
ROUNDS, DIST, HOLDER, REDECIDE, GARD, DAZE, WOUNDS, FATE = 0, 1, 2, 3, 4, 6, 8, 18
"""Positions in a compact state: GARD, DAZE and FATE hold two ints (one per fighter), WOUNDS ten (fighter × box)."""
SIZE = 20
BOXES = len(R.WOUNDS)
CHOICE = 12
"""Each decision's share of the denominator: lcm(1, 2, 3, 4), the counts of legal actions a random seat meets."""
ROLL = 100
WOUND = "sår"
"""The kind of a mark that is a wound box (the odds show each box's chance of being ticked at least once)."""
NOT_TOLD_APART = N_("wound boxes not told apart")

Compact = tuple[int, ...]
Dist = list[tuple[Any, int]]
"""Outcomes with integer counts over a total the caller knows."""


def roll_classes(target: int, exceptional: str, by_effect: bool) -> Dist:
    """The d100 against ``target`` grouped by what the rules read of it: (quality, effect), counts of 100.

    A failure is one class (its effect never counts); a success keeps its effect (damage adds it even where the
    option ``effect_breaks_ties`` leaves it out of the quality)."""
    counts: dict[tuple[tuple[int, int], int], int] = {}
    for roll, p in D100.distribution().items():
        q = R.quality(int(roll), target, exceptional, by_effect)
        key = (q, effect(int(roll)) if q[0] != R.FAILURE else 0)
        counts[key] = counts.get(key, 0) + int(p * ROLL)
    return list(counts.items())


def dice_counts(dice: Dice, total: int) -> Dist:
    """A damage roll's sums with counts over ``total`` (a multiple of the dice's own number of faces)."""
    out = []
    for value, p in dice.distribution().items():
        n = p * total
        assert n.denominator == 1, (dice, total)
        out.append((int(value), int(n)))
    return out


class LevaldModel:
    """A duel at the start of a round, as a Markov chain over :data:`Compact` states (see the module)."""

    unit = "rounds"

    def __init__(self, state: LevaldState, kinds: tuple[str, str]) -> None:
        self.scratch: LevaldState = cast(LevaldState, state.fork())
        """A real state the policies decide on and the end labels are read from (its tracks set each time)."""
        self.kinds = kinds
        """Each fighter's policy: ``heuristic`` or ``random``."""
        self.policies: tuple[Policy, Policy] = (
            cast(Policy, HeuristicPolicy() if kinds[0] == "heuristic" else RandomPolicy()),
            cast(Policy, HeuristicPolicy() if kinds[1] == "heuristic" else RandomPolicy()),
        )
        self._rng = np.random.default_rng(0)  # handed to the heuristic, which draws nothing
        f = state.fighters
        self.fighters = f
        self.options = state.options
        self.max_rounds = int(state.options.max_rounds)
        self.scale_index = state.scale_index
        self.last = len(state.scale) - 1
        self.cornered = tuple(state.cornered)
        self.prepared = tuple(state.prepared)
        self.gm_conditions = state.gm_conditions
        self.dice_total = lcm(*(d.sides**d.count for x in f for d in (x.guarded, x.open)))
        defences = 2 if self.options.two_defence_rolls and any(x.has_shield for x in f) else 1
        self.defence_total = ROLL**defences
        self.strike_total = ROLL * self.dice_total
        self.defended_total = ROLL * self.defence_total * self.dice_total
        self.total = (
            CHOICE**5  # both movement markers, the attacker's and the defender's choice, gaining ground
            * ROLL**2  # the movement contest
            * self.strike_total  # a free attack on one leaving
            * ROLL**2  # the initiative contest
            * self.defended_total  # the attack, the defence and the damage
            * self.strike_total  # the counter-attack
        )
        self._identity = self.identity(state)
        self._fighters_seen = state.fighters
        self._memo: dict[Hashable, Any] = {}
        self._ends: dict[Compact, Hashable] = {}
        self.winner_values: Any = None
        """Each side's chance from every state a block solve met (:meth:`prepare_winners`), or ``None``."""
        self._grounds: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        """Gaining ground per (attacker, distance): (distance after, the flag to set, count over CHOICE)."""

    # ---- which states it encodes ------------------------------------------------------------------------------------
    @staticmethod
    def identity(state: LevaldState) -> tuple[Any, ...]:
        """What must match for another state to be encoded by this model: the fighters (their weapons, targets,
        thresholds), the rule options, the conditions set."""
        return (repr(state.fighters), repr(state.options), tuple(state.cornered), tuple(state.prepared))

    def encode(self, state: State) -> Compact | None:
        if not isinstance(state, LevaldState) or not at_round_start(state):
            return None
        if state.fighters is not self._fighters_seen:
            if self.identity(state) != self._identity:
                return None
            self._fighters_seen = state.fighters  # the same fighters: the next state of this copy is checked fast
        elif (repr(state.options), tuple(state.cornered), tuple(state.prepared)) != self._identity[1:]:
            return None
        fates = tuple(FATES.index(x) for x in state.fate)
        wounds = tuple(w for ws in state.wounds for w in ws)
        return (
            state.rounds,
            state.dist[0],
            state.holder[0],
            state.redecide[0],
            *state.gard,
            *state.daze,
            *wounds,
            *fates,
        )

    # ---- the chain -----------------------------------------------------------------------------------------------
    def end(self, compact: Hashable) -> Hashable | None:
        c = cast(Compact, compact)
        if c[FATE] == 0 and c[FATE + 1] == 0 and c[ROUNDS] < self.max_rounds:
            return None
        key = c[DAZE:]  # the label reads Omtöckning, wounds and fates only
        found = self._ends.get(key)
        if found is None:
            found = self._ends[key] = self.label(self._set(c, ended=True))
        return found

    def length(self, compact: Hashable) -> int:
        return cast(Compact, compact)[ROUNDS]

    def label(self, state: State) -> Hashable:
        """The State's own outcome label (``analysis.exact.outcome_label``'s words)."""
        outcome = state.outcome()
        return (outcome.ending, outcome.winners, tuple(sorted(outcome.participants.items())))

    def successors(self, compact: Hashable) -> tuple[int, list[tuple[Hashable, int]]]:
        """One round with the clock: the rounds move on, and at ``max_rounds`` a fight still going ends (its
        tracks that no label reads cleared, as at an end)."""
        c = cast(Compact, compact)
        rounds = c[ROUNDS] + 1
        capped = rounds >= self.max_rounds
        out: dict[Compact, int] = {}
        for t, n in self._round(c).items():
            if capped and not (t[FATE] or t[FATE + 1]):
                t = _cleared(t)
            key = (rounds, *t[1:])
            out[key] = out.get(key, 0) + n
        return self._reduced(out)

    # ---- the clockless chain (``analysis.horizon``) ------------------------------------------------------------------
    @property
    def cap(self) -> int:
        """The rounds after which a fight still going ends as a deadlock (the option ``max_rounds``)."""
        return self.max_rounds

    def clock(self, compact: Hashable) -> tuple[Hashable, int]:
        """A compact state without its round clock, and the rounds played: no rule or policy reads the clock but
        ``max_rounds``, so the clockless chain is the same chain, with loops, under a finite horizon."""
        c = cast(Compact, compact)
        return (0, *c[1:]), c[ROUNDS]

    def step(self, clockless: Hashable) -> tuple[int, list[tuple[Hashable, int]]]:
        """One round of a clockless state: :meth:`successors` without the clock (ends by fate only)."""
        return self._reduced(self._round(cast(Compact, clockless)))

    def propagate(self, weighted: Sequence[tuple[Hashable, Fraction]], max_live: int) -> Any:
        """Floats by forward propagation (:mod:`.propagate`): the mass of the weighted starts pushed round by
        round in numpy, the phases' branches from this model's tables (``analysis.horizon.propagate_odds``)."""
        from konflikt.rulesets.levald.propagate import propagator

        return propagator(self).run(weighted, max_live)

    def solve_blocks(self, weighted: Sequence[tuple[Hashable, Fraction]], max_states: int) -> Any:
        """Floats without the clock, band by band and block by block of Omtöckning (:mod:`.blocks`): each label's
        probability (the winner, the ending and each fighter's fate and exact Omtöckning, :meth:`without_boxes`),
        each wound box's chance of being ticked at least once as ``marks``, the mean length, an absolute error
        bound (the round cap's share bounded, not computed). More than ``max_states`` band states met raises
        :class:`.blocks.TooManyBandStates`."""
        from konflikt.rulesets.levald.blocks import block_solver

        return block_solver(self).run(weighted, max_states)

    def prepare_winners(self, state: State, max_states: int | None = None) -> None:
        """Each side's chance of winning from every state the block solve from ``state`` (a round's start) meets,
        kept on the model for :meth:`winners_from` (:mod:`.values`: the block solve forward, then backward). Worked
        out on a twin of this model (its own tables and scratch State), so that it may run in a background thread
        while this model answers other questions."""
        from konflikt.rulesets.levald.values import WinnerValues

        assert isinstance(state, LevaldState)
        twin = LevaldModel(state, self.kinds)
        start = twin.encode(state)
        if start is None:
            raise ValueError("the values are prepared from a round's start")
        self.winner_values = WinnerValues(twin, start, max_states)

    def winners_from(self, weighted: Sequence[tuple[Hashable, Fraction]]) -> tuple[dict[Hashable, float], float] | None:
        """Each winners' tuple's chance from the weighted round starts by the prepared values, with an absolute
        bound; ``None`` where none are prepared or they do not reach a start."""
        if self.winner_values is None:
            return None
        found: tuple[dict[Hashable, float], float] | None = self.winner_values.at(weighted)
        return found

    def without_boxes(self, label: Hashable) -> Hashable:
        """An end label whose fate words do not tell the wound boxes apart (the State's words of a fighter with no
        box ticked — its fate and exact Omtöckning — said so)."""
        ending, winners, participants = cast(tuple[Any, Any, tuple[tuple[str, str], ...]], label)
        apart = _(NOT_TOLD_APART)
        return ending, winners, tuple((pid, f"{words} ({apart})") for pid, words in participants)

    def wound_mark(self, fighter: int, box: int) -> Hashable:
        """A wound box as the odds' marks name it: (participant, :data:`WOUND`, ``Lätt (light)``)."""
        name = R.WOUNDS[box]
        return (self.scratch.fighters[fighter].id, WOUND, W.wound(name, glossed=True))

    def at_cap(self, clockless: Hashable) -> Hashable:
        """The outcome of a fight still going when the rounds run out: the State's deadlock at ``max_rounds``."""
        label = self.end(_cleared((self.max_rounds, *cast(Compact, clockless)[1:])))
        assert label is not None
        return label

    def _round(self, c: Compact) -> dict[Compact, int]:
        """The next round starts (the clock left as it is) with counts over :attr:`total`."""
        out: dict[Compact, int] = {}
        self._movement(list(c), self.total, out)
        return out

    def _reduced(self, out: dict[Compact, int]) -> tuple[int, list[tuple[Hashable, int]]]:
        common = reduce(gcd, out.values(), self.total)
        return self.total // common, [(t, n // common) for t, n in out.items()]

    # ---- one round, in the State's order ---------------------------------------------------------------------------
    def _movement(self, s: list[int], n: int, out: dict[Compact, int]) -> None:
        """Both markers revealed; the distance moves (a Stridsvana contest where the wishes differ); leaving."""
        for kinds, count in self._wishes(s):
            m = n * count // CHOICE**2
            wish = (R.WISH[kinds[0]], R.WISH[kinds[1]])
            if wish[0] == wish[1]:
                self._moved(s, m, out, kinds, R.movement_change(wish[0], wish[1], None, self.options.step_size))
                continue
            for winner, k in self._contest(s):
                change = R.movement_change(wish[0], wish[1], winner, self.options.step_size)
                self._moved(s, m * k // ROLL**2, out, kinds, change)

    def _moved(self, s: list[int], n: int, out: dict[Compact, int], kinds: tuple[str, str], change: int) -> None:
        t = s.copy()
        t[DIST] = R.move(s[DIST], change, self.last)
        if t[DIST] != s[DIST]:
            t[REDECIDE] |= MOVED
        leavers = [i for i in (0, 1) if kinds[i] == "leave"]
        if not leavers:
            self._initiative(t, n, out)
            return
        # one leaves (the other stays): the stayer's free attack when its weapon reaches; both leave: no attack
        if len(leavers) == 1:
            leaver = leavers[0]
            enemy = 1 - leaver
            if not R.leave_is_free(self.scale_index[t[DIST]], self.fighters[enemy].length):
                target = self._attack_target(t, enemy)
                for (succeeded, hit), k in self._strike(enemy, leaver, target, t[GARD + leaver], True):
                    u = self._hurt(t, leaver, hit) if succeeded else t.copy()
                    if u[FATE + leaver] == 0:
                        u[FATE + leaver] = FATES.index(LEFT)
                    self._end_round(u, n * k // self.strike_total, out)
                return
        for i in leavers:
            t[FATE + i] = FATES.index(LEFT)
        self._end_round(t, n, out)

    def _initiative(self, s: list[int], n: int, out: dict[Compact, int]) -> None:
        """The holder keeps it; else the initiative table, or an opposed Stridsvana roll (a damaged holder)."""
        holder, redecide = s[HOLDER], s[REDECIDE]
        d = self.scale_index[s[DIST]]
        f = self.fighters
        if holder >= 0 and not redecide and R.keeps_initiative(d, f[holder].length):
            self._attacker(s, n, out, holder)
            return
        only_damaged = redecide == DAMAGED and holder >= 0
        damaged_roll = only_damaged and self.options.holder_damaged == "roll"
        decision = R.initiative_afresh(R.reach(d, f[0].length), R.reach(d, f[1].length), damaged_roll)
        t = s.copy()
        t[REDECIDE] = 0
        if decision == "none":
            t[HOLDER] = -1
            t[REDECIDE] = redecide or MOVED
            self._regain_both(t, n, out)
        elif decision == "roll":
            for winner, k in self._contest(t):
                m = n * k // ROLL**2
                if winner is None:
                    u = t.copy()
                    u[HOLDER], u[REDECIDE] = -1, MOVED
                    self._regain_both(u, m, out)
                else:
                    self._attacker(t, m, out, winner)
        else:
            self._attacker(t, n, out, 0 if decision == "a" else 1)

    def _regain_both(self, s: list[int], n: int, out: dict[Compact, int]) -> None:
        """Nobody fights, or the attacker does not attack: both regain one Gard."""
        t = s.copy()
        for i in (0, 1):
            t[GARD + i] = R.regain_gard(t[GARD + i], self.fighters[i].gard_max)
        self._end_round(t, n, out)

    def _attacker(self, s: list[int], n: int, out: dict[Compact, int], att: int) -> None:
        t = s.copy()
        t[HOLDER] = att
        for kind, count in self._attacker_choice(t, att):
            m = n * count // CHOICE
            if kind == "regain":
                self._regain_both(t, m, out)
            else:
                for defence, k in self._defender_choice(t, att):
                    self._exchange(t, m * k // CHOICE, out, att, defence == "counter")

    def _exchange(self, s: list[int], n: int, out: dict[Compact, int], att: int, counter: bool) -> None:
        """The attack against a defence roll, or against a counter-attack (rolled after the attack's damage)."""
        dfn = 1 - att
        target = self._attack_target(s, att)
        if not counter:
            defence = self._defence_target(s, dfn)
            for (succeeded, hit), k in self._defended(att, dfn, target, defence, s[GARD + dfn]):
                t = self._hurt(s, dfn, hit) if hit is not None else s
                self._ground(t, n * k // self.defended_total, out, att, succeeded)
            return
        for (succeeded, hit), k in self._strike(att, dfn, target, s[GARD + dfn], False):
            t = self._hurt(s, dfn, hit) if succeeded else s
            m = n * k // self.strike_total
            if t[FATE + dfn] != 0:
                self._ground(t, m, out, att, succeeded)
                continue
            back = self._attack_target(t, dfn)
            for (hit_back, hit2), k2 in self._strike(dfn, att, back, t[GARD + att], False):
                u = self._hurt(t, att, hit2) if hit_back else t
                self._ground(u, m * k2 // self.strike_total, out, att, succeeded)

    def _ground(self, s: list[int], n: int, out: dict[Compact, int], att: int, succeeded: bool) -> None:
        """Vinna terräng: a successful attacker with both still standing may move the distance one step."""
        if not succeeded or s[FATE] != 0 or s[FATE + 1] != 0:
            self._end_round(s, n, out)
            return
        here = s[DIST]
        moves = self._grounds.get((att, here))
        if moves is None:
            redecides = MOVED if self.options.gain_ground_changes_initiative else 0
            moves = [
                (there, redecides if there != here else 0, count)
                for there, count in ((R.move(here, step, self.last), k) for step, k in self._ground_choice(s, att))
            ]
            self._grounds[att, here] = moves
        for there, redecide, count in moves:
            if there == here:
                key = tuple(s)  # both standing: nothing to clear
            else:
                t = s.copy()
                t[DIST] = there
                t[REDECIDE] |= redecide
                key = tuple(t)
            out[key] = out.get(key, 0) + n * count // CHOICE

    def _end_round(self, s: list[int], n: int, out: dict[Compact, int]) -> None:
        """The round's end (the clock is moved on by :meth:`successors`); an end by fate keeps only what its label
        reads."""
        key = _cleared(tuple(s)) if s[FATE] or s[FATE + 1] else tuple(s)
        out[key] = out.get(key, 0) + n

    # ---- hits ------------------------------------------------------------------------------------------------------
    def _hurt(self, s: list[int], dst: int, hit: tuple[int, int, int]) -> list[int]:
        """A hit on ``dst``: its Gard left, the wound box ticked, the Omtöckning gained, the fate; a damaged holder
        must win the initiative afresh."""
        gard, wound, gained = hit
        t = s.copy()
        t[GARD + dst] = gard
        t[DAZE + dst] += gained
        if wound != R.NO_WOUND:
            t[WOUNDS + dst * BOXES + wound] += 1
            if wound == R.KRITISK or (wound == R.DODLIG and self.options.deadly_wound == "knocked_out"):
                t[FATE + dst] = FATES.index(KNOCKED_OUT)
            elif wound == R.DODLIG:
                t[FATE + dst] = FATES.index(DEAD)
        if (wound != R.NO_WOUND or self.options.gard_damage_is_damage) and s[HOLDER] == dst:
            t[REDECIDE] |= DAMAGED
        return t

    def _damage(self, src: int, dst: int, quality: tuple[int, int], eff: int, gard: int, leave: bool) -> Dist:
        """The damage of one hit: (Gard left, wound, Omtöckning gained) with counts over :attr:`dice_total`."""
        key = ("damage", src, dst, quality, eff, gard, leave)
        found = self._memo.get(key)
        if found is not None:
            return cast(Dist, found)
        f = self.fighters
        exceptional = quality[0] == R.EXCEPTIONAL
        counts = R.gard_counts(self.prepared[dst], f[src].weapon.ranged, f[dst].has_shield)
        if leave and self.options.free_attack_ignores_gard:
            counts = False
        guarded = R.uses_guarded_dice(gard, counts, exceptional)
        if not guarded and gard > 0 and self.options.bypass_dice == "guarded":
            dice, on_gard = f[src].guarded, False
        else:
            dice, on_gard = (f[src].guarded if guarded else f[src].open), guarded
        merged: dict[tuple[int, int, int], int] = {}
        for value, k in dice_counts(dice, self.dice_total):
            left, wound, _ = R.apply_hit(gard, eff, value, on_gard, f[dst].limits, self.options.empty_gard_scratch)
            hit = (left, wound, R.daze_gained(wound, eff, value))
            merged[hit] = merged.get(hit, 0) + k
        found = self._memo[key] = list(merged.items())
        return found

    def _strike(self, src: int, dst: int, target: int, gard: int, leave: bool) -> Dist:
        """An attack no defence roll meets (a counter-attack, a free attack): (succeeded, hit) over
        :attr:`strike_total`; a success always hits."""
        key = ("strike", src, target, gard, leave)
        found = self._memo.get(key)
        if found is not None:
            return cast(Dist, found)
        merged: dict[tuple[bool, Any], int] = {}
        for (quality, eff), k in self._rolls(target):
            if quality[0] < R.SUCCESS:
                merged[False, None] = merged.get((False, None), 0) + k * self.dice_total
                continue
            for hit, j in self._damage(src, dst, quality, eff, gard, leave):
                merged[True, hit] = merged.get((True, hit), 0) + k * j
        found = self._memo[key] = list(merged.items())
        return found

    def _defended(self, src: int, dst: int, target: int, defence: int, gard: int) -> Dist:
        """An attack against the defence roll(s): (the attack succeeded, the hit or None) over
        :attr:`defended_total`; it hits when it beats every defence roll (``attack_wins``)."""
        key = ("defended", src, target, defence, gard)
        found = self._memo.get(key)
        if found is not None:
            return cast(Dist, found)
        merged: defaultdict[tuple[bool, Any], int] = defaultdict(int)
        for quality, eff, k, wins in self._wins(dst, target, defence):
            succeeded = quality[0] >= R.SUCCESS
            held = self.defence_total - wins
            if held:
                merged[succeeded, None] += k * held * self.dice_total
            if wins:
                for hit, j in self._damage(src, dst, quality, eff, gard, False):
                    merged[succeeded, hit] += k * wins * j
        found = self._memo[key] = list(merged.items())
        return found

    def _wins(self, dst: int, target: int, defence: int) -> list[tuple[tuple[int, int], int, int, int]]:
        """Per class of the attack roll: (quality, effect, its count of 100, the defence rolls it beats, over
        :attr:`defence_total`): what every Gard of the defender shares."""
        rolls = 2 if self.options.two_defence_rolls and self.fighters[dst].has_shield else 1
        key = ("wins", rolls, target, defence)
        found = self._memo.get(key)
        if found is not None:
            return cast(list[tuple[tuple[int, int], int, int, int]], found)
        defences: list[tuple[tuple[tuple[int, int], ...], int]] = [((), 1)]
        for _roll in range(rolls):
            defences = [((*qs, q), k * j) for qs, k in defences for (q, _effect), j in self._rolls(defence)]
        pad = self.defence_total // ROLL**rolls
        found = self._memo[key] = [
            (quality, eff, k, sum(j for qs, j in defences if R.attack_wins(quality, qs)) * pad)
            for (quality, eff), k in self._rolls(target)
        ]
        return found

    def _rolls(self, target: int) -> Dist:
        key = ("rolls", target)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = roll_classes(target, self.options.exceptional, self.options.effect_breaks_ties)
        return cast(Dist, found)

    def _contest(self, s: list[int]) -> Dist:
        """An opposed Stridsvana roll: the winner (0, 1, or None) with counts over 100²."""
        ta, tb = self._stridsvana_target(s, 0), self._stridsvana_target(s, 1)
        key = ("contest", ta, tb)
        found = self._memo.get(key)
        if found is None:
            merged: dict[int | None, int] = {}
            for (qa, _), ka in self._rolls(ta):
                for (qb, _), kb in self._rolls(tb):
                    w = R.contest_winner(qa, qb)
                    merged[w] = merged.get(w, 0) + ka * kb
            found = self._memo[key] = list(merged.items())
        return cast(Dist, found)

    # ---- numbers -----------------------------------------------------------------------------------------------------
    def _penalty(self, s: list[int], i: int) -> int:
        return R.daze_penalty(s[DAZE + i])

    def _attack_target(self, s: list[int], i: int) -> int:
        return self.fighters[i].attack_base + self._penalty(s, i)

    def _defence_target(self, s: list[int], i: int) -> int:
        return self.fighters[i].defence_base + self._penalty(s, i)

    def _stridsvana_target(self, s: list[int], i: int) -> int:
        return self.fighters[i].stridsvana + self._penalty(s, i)

    # ---- the policies' decisions, on the scratch state ---------------------------------------------------------------
    def _set(self, c: Compact | list[int], *, ended: bool = False, phase: str = "move") -> LevaldState:
        """The scratch state with the tracks of ``c``."""
        x = self.scratch
        x.rounds = c[ROUNDS]
        x.dist[0], x.holder[0], x.redecide[0] = c[DIST], c[HOLDER], c[REDECIDE]
        x.gard[:] = c[GARD : GARD + 2]
        x.daze[:] = c[DAZE : DAZE + 2]
        x.wounds[:] = [list(c[WOUNDS : WOUNDS + BOXES]), list(c[WOUNDS + BOXES : WOUNDS + 2 * BOXES])]
        x.fate[:] = [FATES[c[FATE]], FATES[c[FATE + 1]]]
        x._secret.clear()
        x.active = 0
        if ended:
            x.phase = "over"
            x.ending = "fight_over" if c[FATE] or c[FATE + 1] else "deadlock"
        else:
            x.phase = phase
            x.ending = ""
        return x

    def _decide(self, i: int, state: LevaldState) -> Dist:
        """Fighter ``i``'s choice at ``state``: the heuristic's one action, or each legal action equally likely;
        counts over :data:`CHOICE`."""
        seat = self.fighters[i].id
        legal = list(state.legal_actions(seat))
        if self.kinds[i] == "random":
            return [(a, CHOICE // len(legal)) for a in legal]
        return [(self.policies[i].choose(state, seat, self._rng), CHOICE)]

    def _memoised(self, key: Hashable, make: Callable[[], Dist]) -> Dist:
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = make()
        return cast(Dist, found)

    def _wishes(self, s: list[int]) -> Dist:
        """Both secret markers: ((kind of fighter 0, kind of fighter 1), count over CHOICE²)."""
        pens = (self._penalty(s, 0), self._penalty(s, 1))

        def make() -> Dist:
            x = self._set(s)
            ours = [self._decide(i, x) for i in (0, 1)]
            return [((a.kind, b.kind), ka * kb) for a, ka in ours[0] for b, kb in ours[1]]

        return self._memoised(("wishes", s[DIST], s[HOLDER], pens), make)

    def _attacker_choice(self, s: list[int], att: int) -> Dist:
        def make() -> Dist:
            x = self._set(s, phase="attacker")
            x.att, x.dfn = att, 1 - att
            return [(a.kind, k) for a, k in self._decide(att, x)]

        return self._memoised(("attacker", att, self._penalty(s, att), s[GARD + att]), make)

    def _defender_choice(self, s: list[int], att: int) -> Dist:
        dfn = 1 - att

        def make() -> Dist:
            x = self._set(s, phase="defender")
            x.att, x.dfn = att, dfn
            return [(a.kind, k) for a, k in self._decide(dfn, x)]

        pens = (self._penalty(s, 0), self._penalty(s, 1))
        return self._memoised(("defender", att, s[DIST], pens, s[GARD], s[GARD + 1]), make)

    def _ground_choice(self, s: list[int], att: int) -> Dist:
        def make() -> Dist:
            x = self._set(s, phase="ground")
            x.att, x.dfn = att, 1 - att
            return [(int(a["step"]), k) for a, k in self._decide(att, x)]

        return self._memoised(("ground", att, s[DIST]), make)


def _cleared(c: Compact) -> Compact:
    """An ended compact state: the distance, initiative and Gard zeroed, since no end label reads them."""
    return (c[ROUNDS], 0, 0, 0, 0, 0, *c[DAZE:])


def at_round_start(state: LevaldState) -> bool:
    """Before any secret marker of the round is down (before the GM's conditions where the GM may set them)."""
    if state.is_terminal() or state._secret:
        return False
    return state.phase == ("gm" if state.gm_conditions else "move")


def policy_kind(policy: Policy | None) -> str | None:
    if isinstance(policy, HeuristicPolicy):
        return "heuristic"
    if isinstance(policy, RandomPolicy):
        return "random"
    return None


def exact_model(state: State, policies: Mapping[str, Policy]) -> LevaldModel | str | None:
    """The :class:`LevaldModel` of the duel at ``state``; why not (a string); ``None`` mid-round."""
    if not isinstance(state, LevaldState):
        return _("not a levald conflict")
    if len(state.fighters) != 2 or len(state.pairs) != 1:
        return _(
            "the levald model plays duels (one against one); this fight has {count} fighters", count=len(state.fighters)
        )
    kinds = tuple(policy_kind(policies.get(f.id)) for f in state.fighters)
    for f, kind in zip(state.fighters, kinds, strict=True):
        if kind is None:
            return _("the levald model mirrors the heuristic and random policies only, not {pid}'s", pid=f.id)
    if state.gm_conditions and policy_kind(policies.get(GM)) != "heuristic":
        return _("the levald model mirrors GM conditions only with the heuristic GM (who never changes them)")
    if state.options.gard_out_cannot_back:
        return _("the levald model does not mirror option gard_out_cannot_back (its choices would read Gard)")
    if state.options.after_nobody_wins != "decide":
        return _("the levald model mirrors option after_nobody_wins only at its default ('decide')")
    if not at_round_start(state):
        return None
    identity = (LevaldModel.identity(state), kinds)
    return _MODELS.get(identity, lambda: LevaldModel(state, cast(tuple[str, str], kinds)))


_MODELS: ModelCache[LevaldModel] = ModelCache()
"""Models by the conflict and policies they were built for: asked again ("who wins from here"), a model answers
from the rounds it has already worked out."""
