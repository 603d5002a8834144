"""A compiled kernel for Le våld duels: many one-against-one fights, round by round, for balancing.

It mirrors :class:`~konflikt.rulesets.levald.state.LevaldState` step for step, one duel at a time in a loop that
numba compiles (:mod:`konflikt.rulesets.levald.duel_loop`) — movement wishes and the Stridsvana contest, leaving
and the gratisanfall (free attack), the initiative table and its holder, attack / regain, defend / counter, Gard
and the wound thresholds, Omtöckning (daze), gain ground — with the ``heuristic`` or the ``random`` policy in each
seat. This module checks what it can play and builds the fixed numbers of the duel (:class:`Duel`, and the loop's
arrays), among them the heuristic defender's counter-or-defend choice as a table computed with the heuristic's own
expressions (so the same floats).

Dice follow the same distributions as the reference runner (not the same streams): d100 exactly uniform, a round's
six from two draws below 100³ (the base-100 digits), damage dice as a uniform index into the table of every face
combination, so the sums are exact. The
labels are the State's: winners as side-id tuples, its ending words, and its fate words with every number in them.

A batch starts at the opening, or from a State under way (:meth:`DuelKernel.start_from`,
:class:`~konflikt.core.capabilities.StartsFrom`): the start vector read from the State, and where in its first round
the loop enters (:data:`~.duel_rounds.ENTRY`: the round's start, the movement revealed, or after the initiative up
to the attack roll).

The kernel refuses (returns a reason) what it does not mirror: more than one fighter a side, a policy other than
``heuristic`` or ``random``, a GM seat that could change the conditions, or a rule option outside
:data:`MIRRORED` at a value other than its default.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import Any

import numpy as np

from konflikt.core.batch import Batch
from konflikt.core.options import Options
from konflikt.core.ruleset import Policy, RandomPolicy
from konflikt.core.scenario import Scenario
from konflikt.core.state import GM, State
from konflikt.dice import SumDice
from konflikt.rulesets.levald import duel_rounds as L
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.duel_rounds import (
    DAZE,
    DIST,
    GARD,
    HOLDER,
    MOVED,
    REDECIDE,
    ROWS,
    WOUNDS,
    Duel,
    Int,
    results,
    roll_quality,
)
from konflikt.rulesets.levald.i18n import _
from konflikt.rulesets.levald.options import OPTIONS
from konflikt.rulesets.levald.policies import COUNTER_MARGIN, HeuristicPolicy

MIRRORED = frozenset(
    {
        "step_size",
        "holder_damaged",
        "several_attackers",
        "shield_with_weapon",
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
"""Options the kernel plays at any value (the sub-fight, several-attackers and rest options do nothing in a duel);
the others (``exceptional``, ``effect_breaks_ties``, ``bypass_dice``) only at their defaults."""

TABLE_LIMIT = 1 << 20
"""Damage dice with more face combinations than this are summed die by die instead of looked up."""


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
    for _count in range(dice.count):
        sums = np.add.outer(sums, np.arange(1, dice.sides + 1)).ravel()
    return sums + dice.modifier


def policy_name(policy: Policy | None) -> str | None:
    if isinstance(policy, HeuristicPolicy):
        return "heuristic"
    if isinstance(policy, RandomPolicy):
        return "random"
    return None


def make_kernel(scenario: Scenario, options: Options, seats: Mapping[str, Policy | None]) -> DuelKernel | str:
    """A kernel for this scenario, or why it cannot play it (the engine then uses the reference runner)."""
    from konflikt.rulesets.levald.state import LevaldState

    if scenario.ruleset.id != "levald":
        return _("the levald kernel cannot play {ruleset}", ruleset=scenario.ruleset.id)
    people = scenario.participants()
    if len(scenario.sides) != 2 or any(len(s.participants) != 1 for s in scenario.sides):
        return _("the levald kernel plays duels only (one fighter a side); this scenario has sub-fights")
    for option in OPTIONS:
        if option.name not in MIRRORED and options[option.name] != option.default:
            return _(
                "the levald kernel mirrors option {option} only at its default ({default}), not {value}",
                option=option.name,
                default=repr(option.default),
                value=repr(options[option.name]),
            )
    names = [policy_name(seats.get(p.id)) for p in people]
    for p, policy in zip(people, names, strict=True):
        if policy is None:
            return _("the levald kernel mirrors the heuristic and random policies only, not {pid}'s", pid=p.id)
    state = LevaldState(scenario, options)
    if state.is_terminal() or any(fate != "fighting" for fate in state.fate):
        return _("the levald kernel plays duels of two fighters who start standing (a Kritisk or Dödlig box is ticked)")
    if state.gm_conditions and policy_name(seats.get(GM)) != "heuristic":
        return _("the levald kernel mirrors GM conditions only with the heuristic GM (who never changes them)")
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
        cornered=np.array(state.cornered, dtype=np.int64),
        shield=np.array([x.has_shield for x in f], dtype=np.int64),
        counts=np.array(
            [[R.gard_counts(state.prepared[d], f[s].weapon.ranged, f[d].has_shield) for d in (0, 1)] for s in (0, 1)]
        ),
        dice=[(d, dice_table(d)) for x in f for d in (x.open, x.guarded)],
        scale=np.array(state.scale_index),
        start=(state.dist[0], list(state.gard), list(state.daze), [list(w) for w in state.wounds]),
        counter_table=counter_table(state, cap),
        level_cap=cap,
        options=options,
    )
    return DuelKernel(duel, identity(state))


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


def _entry(state: Any) -> Int | None:
    """Where in its round a duel's State stands as the loop's ``entry`` (:data:`~.duel_rounds.ENTRY`), or ``None``
    where the loop cannot enter it: at the round's start (before any secret marker is down, or the GM's conditions
    where the GM may set them); the movement revealed with none or one of the contest's d100 made; the initiative
    decided, at the attacker's choice, the defender's, the attack roll or the (one) defence roll."""
    from konflikt.rulesets.levald.model import at_round_start

    entry = np.full(L.ENTRIES, -1, dtype=np.int64)
    entry[L.ENTRY] = L.AT_START
    if at_round_start(state):
        return entry
    if len(state.pairs) != 1 or any(fate != "fighting" for fate in state.fate):
        return None
    phase, rolls = state.phase, state.rolls
    if phase == "move_roll" and len(rolls) <= 1:
        entry[L.ENTRY] = L.REVEALED
        entry[L.WISH_A], entry[L.WISH_B] = (R.WISH[state.wishes[i]] for i in (0, 1))
        entry[L.LEAVE_A], entry[L.LEAVE_B] = (state.wishes[i] == "leave" for i in (0, 1))
        if rolls:
            entry[L.ROLL_A] = rolls[0]
        return entry
    if phase not in ("attacker", "defender", "attack_roll", "defence_roll") or state.att != state.holder[0]:
        return None
    entry[L.ENTRY] = L.ROLES
    if phase != "attacker":
        entry[L.ATTACKING] = 1
    if phase in ("attack_roll", "defence_roll"):
        entry[L.COUNTER] = int(state.counter)
    if phase == "defence_roll":
        if len(rolls) != 1 or state.counter:
            return None
        entry[L.ROLL_ATTACK] = rolls[0]
    return entry


AT_START_ENTRY = np.array([L.AT_START, *[-1] * (L.ENTRIES - 1)], dtype=np.int64)
"""The entry of a batch from the opening: at its first round's start."""


def identity(state: Any) -> tuple[Any, ...]:
    """What a State must share with the kernel's opening to start a batch: the fighters (weapons, targets,
    thresholds), the rule options, the conditions set (the rest is the start vector)."""
    return (repr(state.fighters), repr(state.options), tuple(state.cornered), tuple(state.prepared))


class DuelKernel:
    """Plays ``n`` duels, one after another in a compiled loop (:mod:`.duel_loop`); ``run`` returns the same labels
    as the reference runner."""

    def __init__(self, duel: Duel, identity: tuple[Any, ...] | None = None) -> None:
        self.duel = duel
        self.arrays = loop_arrays(duel)
        self.identity = identity
        """:func:`identity` of the opening (``None``: the kernel starts from its opening only)."""
        self._fighters_seen: Any = None

    def start_from(self, state: State) -> tuple[Int, Int] | None:
        """Where a batch starts from ``state``, a duel of this kernel's scenario: the start vector (distance,
        initiative holder and why to decide it afresh, rounds played, each fighter's Gard, Omtöckning, fate and wound
        boxes) and the entry into its first round (:data:`~.duel_rounds.ENTRY`).

        Represented (:func:`_entry`): the start of a round, the secret movement revealed with the movement contest
        to roll, and the initiative decided up to the attack roll — the points whose rest of the round fans out
        widest. ``None`` elsewhere in a round (the caller steps the State on to the next round's start: a defence
        roll, the damage, gaining ground) or for another duel."""
        from konflikt.rulesets.levald.state import LevaldState

        if not isinstance(state, LevaldState) or state.is_terminal() or self.identity is None:
            return None
        entry = _entry(state)
        if entry is None:
            return None
        if state.fighters is not self._fighters_seen:  # the same fighters' copies are checked once
            if identity(state) != self.identity:
                return None
            self._fighters_seen = state.fighters
        elif (repr(state.options), tuple(state.cornered), tuple(state.prepared)) != self.identity[1:]:
            return None
        start = np.zeros(ROWS, dtype=np.int64)
        start[DIST], start[HOLDER], start[REDECIDE] = state.dist[0], state.holder[0], state.redecide[0]
        start[L.ROUNDS] = state.rounds
        start[GARD : GARD + 2], start[DAZE : DAZE + 2] = state.gard, state.daze
        start[L.FATE : L.FATE + 2] = [L.FATE_NAMES.index(x) for x in state.fate]
        start[WOUNDS : WOUNDS + 2 * len(R.WOUNDS)] = [w for ws in state.wounds for w in ws]
        return start, entry

    def _play(
        self, n: int, rng: np.random.Generator, rounds: int, start: tuple[Int, Int] | None = None
    ) -> tuple[Batch, Int, Int]:
        from konflikt.rulesets.levald.duel_loop import play

        out = np.empty((ROWS, n), dtype=np.int32)  # a finished duel's numbers: int32, half the fresh memory of int64
        trace_d100 = np.full((rounds, 6, n if rounds else 0), -1, dtype=np.int64)
        trace_other = np.full((4, rounds, n if rounds else 0), -1, dtype=np.int64)
        loop: Any = play  # compiled: numba checks the argument types
        vector, entry = (self.arrays[0], AT_START_ENTRY) if start is None else start
        loop(rng, n, vector, *self.arrays[1:], entry, out, trace_d100, trace_other)
        return results(self.duel, out), trace_d100, trace_other

    def run(self, n: int, rng: np.random.Generator) -> Batch:
        return self._play(n, rng, 0)[0]

    def run_from(self, start: tuple[Int, Int], n: int, rng: np.random.Generator) -> Batch:
        """Play ``n`` duels from a start (:meth:`start_from`)."""
        return self._play(n, rng, 0, start)[0]

    def run_traced_from(self, start: tuple[Int, Int], n: int, rng: np.random.Generator) -> tuple[Batch, dict[str, Int]]:
        """:meth:`run_from` with every die recorded, as :meth:`run_traced` (rounds from the start's on)."""
        batch, d100, other = self._play(n, rng, int(self.duel.options.max_rounds), start)
        names = ("defence2", "counter", "damage", "counter_damage")
        return batch, {"d100": d100, **{name: other[k] for k, name in enumerate(names)}}

    def run_traced(self, n: int, rng: np.random.Generator) -> tuple[Batch, dict[str, Int]]:
        """``run``, and every die each duel drew, round by round (``trace[key][round, ..., duel]``; −1: none), so
        that a test can replay a duel's very dice through the State and compare the labels."""
        batch, d100, other = self._play(n, rng, int(self.duel.options.max_rounds))
        names = ("defence2", "counter", "damage", "counter_damage")
        return batch, {"d100": d100, **{name: other[k] for k, name in enumerate(names)}}


def loop_arrays(duel: Duel) -> tuple[Int, ...]:
    """The duel's fixed numbers as the compiled loop takes them: the start vector, ``f`` (a column per fighter),
    the distance scale, the options, the damage dice and their tables,
    and the heuristic defender's counter table."""
    dist, gard, daze, wounds = duel.start
    start = np.zeros(ROWS, dtype=np.int64)
    start[DIST], start[HOLDER], start[REDECIDE] = dist, -1, MOVED
    start[GARD : GARD + 2], start[DAZE : DAZE + 2] = gard, daze
    start[WOUNDS : WOUNDS + 2 * len(R.WOUNDS)] = [w for ws in wounds for w in ws]
    f = np.zeros((L.F_ROWS, 2), dtype=np.int64)
    f[L.LENGTH], f[L.STRIDSVANA], f[L.ATTACK], f[L.DEFENCE] = duel.length, duel.stridsvana, duel.attack, duel.defence
    f[L.GARD_MAX], f[L.CORNERED], f[L.SHIELD] = duel.gard_max, duel.cornered, duel.shield
    f[L.HEURISTIC], f[L.LEVEL_CAP] = duel.heuristic, duel.level_cap
    f[L.COUNTS] = np.asarray(duel.counts)[[0, 1], [1, 0]]
    f[L.LIMITS : L.LIMITS + 4] = np.asarray(duel.limits).T
    o = duel.options
    rules = np.zeros(L.RULES, dtype=np.int64)
    rules[L.STEP_SIZE], rules[L.HOLDER_ROLL] = o.step_size, o.holder_damaged == "roll"
    rules[L.TWO_DEFENCE], rules[L.ALLOW_LEAVE] = o.two_defence_rolls, o.allow_leave
    rules[L.FREE_IGNORES_GARD], rules[L.EMPTY_SCRATCH] = o.free_attack_ignores_gard, o.empty_gard_scratch
    rules[L.DEADLY_KNOCKS_OUT], rules[L.GARD_DAMAGE_IS_DAMAGE] = (
        o.deadly_wound == "knocked_out",
        o.gard_damage_is_damage,
    )
    rules[L.GROUND_REDECIDES], rules[L.MAX_ROUNDS] = o.gain_ground_changes_initiative, o.max_rounds
    width = max(1, *(table.size for _, table in duel.dice if table is not None))
    dice = np.zeros((len(duel.dice), 4), dtype=np.int64)
    tables = np.zeros((len(duel.dice), width), dtype=np.int64)
    for k, (d, table) in enumerate(duel.dice):
        dice[k] = d.count, d.sides, d.modifier, 0 if table is None else table.size
        if table is not None:
            tables[k, : table.size] = table
    return (
        start,
        f,
        np.asarray(duel.scale, dtype=np.int64),
        rules,
        dice,
        tables,
        duel.counter_table,
    )
