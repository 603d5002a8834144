"""LevaldState: a Le våld fight as a state machine of secret movement, chance nodes and seat decisions.

The fight runs in delstrider (sub-fights): "Varje strid delas in i delstrider som innehåller en kombatant på ena
sidan och ett antal kombatanter på andra sidan." A sub-fight is one fighter (the centre) against every enemy engaged
with it; each pair (centre, enemy) keeps its own distance and initiative. A round of the sub-fight runs:
the text's steps ("Rundorna delas in i följande moment"), each across every pair of the sub-fight before the next:
movement (every fighter of the sub-fight chooses in secret at once; each pair resolves it, with a Stridsvana contest
where the wishes differ) → leaving (every enemy engaged with the leaver whose weapon reaches it gets a free attack)
→ initiative, pair by pair (the table; kept until the holder is damaged or the distance changes) → the attacker's
and the defender's choices, pair by pair → each pair's attack, defence or counter rolls and their damage, in turn →
gain ground, pair by pair, last in the round. Damage in one pair thus never re-decides another pair's initiative in
the same round: it counts from the next. After ``subfight_rounds`` rounds the next sub-fight runs. The tracks are
plain lists so that the state stays cheap to clone.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import NamedTuple

from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.options import Options
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, GM, GOAL_REACHED, SIMULTANEOUS, TERMINAL
from konflikt.dice import Dice, Percentile, effect
from konflikt.rulesets.levald import at_table
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald import words as W
from konflikt.rulesets.levald.fighters import Fighter, fighters_of
from konflikt.rulesets.levald.i18n import _, pgettext
from konflikt.rulesets.levald.models import Character
from konflikt.rulesets.levald.narration import NarrationMixin

D100 = Percentile()
CHANCE_PHASES = frozenset(
    {"move_roll", "init_roll", "attack_roll", "defence_roll", "damage", "counter_roll", "free_roll"}
)
DECISIONS = {"attacker": ("attack", "regain"), "defender": ("defend", "counter"), "ground": ("ground",)}
FIGHTING, KNOCKED_OUT, DEAD, LEFT = "fighting", "knocked_out", "dead", "left"
DAMAGED, MOVED = 2, 1
"""Bits of a pair's reason to decide the initiative afresh."""
ROLLS_READ = frozenset({"move_roll", "init_roll", "defence_roll"})
"""Phases at which the d100 readings held are still read (the first of a contest; the attack roll's effect), and
whose pending roll is judged by its quality alone (a Stridsvana contest, a defence)."""
EXCHANGE_DONE = frozenset({"ground", "over"})
"""Phases after an exchange's rolls and damage: its attack quality and counter flag are no longer read."""
AFTER_THE_ATTACK = frozenset({"damage", "counter_roll", "free_roll"})
"""Phases after the attack was compared with the defence: of its quality only whether it succeeded is read."""
CHOOSING = frozenset({"attacker", "defender"})
"""Phases of the round's choices (every pair's, before any attack roll)."""
ROLLING = frozenset({"attack_roll", "defence_roll", "damage", "counter_roll"})
"""Phases of the round's rolls and damage (pair by pair, after every pair's choices)."""


class Hit(NamedTuple):
    """A hit whose damage dice are being rolled."""

    src: int
    dst: int
    effect: int
    gard_bypassed: bool
    """Gard does not count: an exceptional hit, an unprepared target, a ranged hit on someone without a shield."""
    guarded_dice: bool
    """The weapon's Skada skyddad dice are rolled (else Skada öppen)."""


class LevaldState(NarrationMixin):
    """One Le våld fight in progress (two sides; sub-fights of one fighter against the enemies engaged with it)."""

    ruleset = "levald"
    shared = (
        "fighters",
        "characters",
        "index",
        "sides",
        "side_names",
        "side_goals",
        "pairs",
        "pair_of",
        "scale",
        "scale_index",
    )
    """Fixed for the whole fight: copies share them (a Fighter holds weapon models that deep-copy slowly)."""

    def __init__(self, scenario: Scenario, options: Options) -> None:
        super().__init__(options)
        self.title = scenario.title
        self.fighters: tuple[Fighter, ...] = tuple(fighters_of(scenario, options))
        self.index = {f.id: i for i, f in enumerate(self.fighters)}
        self.sides: tuple[str, ...] = tuple(s.id for s in scenario.sides)
        self.side_names = {s.id: s.name for s in scenario.sides}
        self.side_goals = {s.id: s.goal for s in scenario.sides}
        characters = [p.data for p in scenario.participants()]
        self.characters: tuple[Character, ...] = tuple(characters)
        self.gard = [min(c.gard if c.gard_now is None else c.gard_now, c.gard) for c in characters]
        self.daze = [c.daze for c in characters]
        self.wounds = [c.wounds.boxes() for c in characters]
        self.fate = [self._fate_from_boxes(boxes) for boxes in self.wounds]
        self.cornered = [f.cornered for f in self.fighters]
        self.prepared = [f.prepared for f in self.fighters]
        self.gm_conditions = bool(scenario.setup.gm_conditions)
        first = [i for i, f in enumerate(self.fighters) if f.side == self.sides[0]]
        second = [i for i, f in enumerate(self.fighters) if f.side == self.sides[1]]
        self.pairs: tuple[tuple[int, int], ...] = tuple((a, b) for a in first for b in second)
        self.pair_of = {pair: p for p, pair in enumerate(self.pairs)}
        monsters = any(f.weapon.length in R.MONSTER_DISTANCES for f in self.fighters)
        self.scale = R.distance_scale(monsters)
        self.scale_index = tuple(R.DISTANCES.index(d) for d in self.scale)
        start = self.scale.index(scenario.setup.distance) if scenario.setup.distance in self.scale else 0
        self.dist = [start] * len(self.pairs)  # a position on self.scale
        self.holder = [-1] * len(self.pairs)
        self.redecide = [MOVED] * len(self.pairs)
        self.ground_moved = [False] * len(self.pairs)
        """Narration only: a gain-ground step moved the pair since its initiative was decided, and did not count
        (``gain_ground_changes_initiative = false``)."""
        # the sub-fight (delstrid): its centre, its pairs, and the rounds it has run
        self.centre = -1
        self.subfight: tuple[int, ...] = ()
        self.subfight_rounds_done = 0
        self.rounds = 0
        self.phase = "move"
        self.ending = ""
        self.goal_reached: tuple[str, str] = ("", "")
        """The side the GM declared to have reached its goal, and the goal in words (``State.declare_goal``)."""
        # the round in progress
        self.wishes = [""] * len(self.fighters)  # each fighter's secret movement this round ("" if not moving)
        self.pending: tuple[int, ...] = ()  # pairs still to resolve in this stage of the round
        self.free_attacks: tuple[tuple[int, int, int], ...] = ()  # (enemy, leaver, pair) still to strike
        self.regained = [False] * len(self.fighters)  # one Gard point a round at most, however many pairs
        self.round_defence: list[tuple[tuple[int, int], ...]] = [() for _ in self.fighters]
        self.choice = [""] * len(self.pairs)  # each pair's choices this round: regain, defend or counter
        self.gains = [False] * len(self.pairs)  # each pair's attack roll succeeded: its attacker may gain ground
        self.active = 0  # the pair being resolved
        self.contest_why = ""
        # the pair's exchange in progress
        self.wish: tuple[int, int] = (0, 0)
        self.rolls: tuple[int, ...] = ()
        self.att = -1
        self.dfn = -1
        self.counter = False
        self.att_quality: tuple[int, int] = (0, 0)
        self.hit: Hit | None = None
        self.bypass_reason = ""
        self.after = ""  # what follows the damage being rolled: ground, counter, countered, leave
        self.emit("setup", self._setup_text())
        if self._fight_is_over():
            self._end_round()
        else:
            self._start_round()

    def _fate_from_boxes(self, boxes: list[int]) -> str:
        """A fighter who comes in with a ticked Kritisk box is utslagen, with a Dödlig box dead (as the hit left it)."""
        if boxes[R.DODLIG]:
            return KNOCKED_OUT if self.options.deadly_wound == "knocked_out" else DEAD
        return KNOCKED_OUT if boxes[R.KRITISK] else FIGHTING

    # ---- the nodes -------------------------------------------------------------------------------------------------
    def seats(self) -> tuple[str, ...]:
        ids = tuple(f.id for f in self.fighters)
        return (*ids, GM) if self.gm_conditions else ids

    def seat_name(self, seat: str) -> str:
        i = self.index.get(seat)
        return super().seat_name(seat) if i is None else self.fighters[i].name

    def side_of(self, seat: str) -> str | None:
        i = self.index.get(seat)
        return None if i is None else self.fighters[i].side

    def goal_sides(self) -> dict[str, tuple[str, str | None]]:
        return {side: (self.side_names[side], self.side_goals.get(side)) for side in self.sides}

    def _end_by_goal(self, side: str, goal: str) -> None:
        """The GM's word ends the fight where it stands: no roll pending is made, no choice awaited is asked; every
        Gard, Omtöckning and wound box stays as it is (the aftermath carries them)."""
        self.goal_reached = (side, goal)
        self.ending = GOAL_REACHED
        self.phase = "over"
        self.hit = None
        self.pending = ()
        self.free_attacks = ()

    def current_player(self) -> str:
        phase = self.phase
        if phase == "move":
            return SIMULTANEOUS
        if phase in CHANCE_PHASES:
            return CHANCE
        if phase == "over":
            return TERMINAL
        if phase == "gm":
            return GM
        if phase == "defender":
            return self.fighters[self.dfn].id
        return self.fighters[self.att].id

    def subfight_fighters(self) -> tuple[int, ...]:
        """The centre of the sub-fight, then its enemies in order; none before a sub-fight starts (a fight over from
        the start, a fighter utslagen before it, never has one)."""
        if self.centre < 0:
            return ()
        enemies = [b if a == self.centre else a for a, b in (self.pairs[p] for p in self.subfight)]
        return (self.centre, *enemies)

    def simultaneous_seats(self) -> tuple[str, ...]:
        return tuple(self.fighters[i].id for i in self.subfight_fighters())

    def movement_pair(self, fighter: int) -> int:
        """The pair a fighter's movement marker is chosen for: the centre's first pair, an enemy's pair with it."""
        for p in self.subfight:
            if fighter in self.pairs[p]:
                return p
        return self.active

    def pair_distance(self, pair: int | None = None) -> int:
        """The active (or given) pair's distance as an index into :data:`rules.DISTANCES`."""
        return self.scale_index[self.dist[self.active if pair is None else pair]]

    def _legal_actions(self, seat: str) -> Sequence[Action]:
        i = self.index.get(seat, -1)
        phase = self.phase
        if phase == "gm":
            if seat != GM:
                return ()
            who = [self.fighters[k].id for k in self.subfight_fighters()]
            return (
                Action.of("fight"),
                *(Action.of("cornered", who=w) for w in who),
                *(Action.of("unprepared", who=w) for w in who),
            )
        if phase == "move":
            if i not in self.subfight_fighters():
                return ()
            kinds: tuple[str, ...] = (
                ("advance", "hold", "retreat", "leave") if self.options.allow_leave else ("advance", "hold", "retreat")
            )
            if self.cannot_back(i):
                kinds = tuple(k for k in kinds if R.WISH[k] <= 0)
            return tuple(Action.of(k) for k in kinds)
        if phase == "attacker" and i == self.att:
            return (Action.of("attack"), Action.of("regain"))
        if phase == "defender" and i == self.dfn:
            if R.may_counter(self.pair_distance(), self.fighters[i].length):
                return (Action.of("defend"), Action.of("counter"))
            return (Action.of("defend"),)
        if phase == "ground" and i == self.att:
            steps = (-1, 0) if self.immobile(self.dfn) else (0, 1)
            return tuple(Action.of("ground", step=s) for s in steps)
        return ()

    def cannot_back(self, i: int) -> bool:
        """ "När gard tar slut … kan inte backa längre", read as a rule (option ``gard_out_cannot_back``)."""
        return bool(self.options.gard_out_cannot_back) and self.gard[i] == 0

    def immobile(self, i: int) -> bool:
        """A defender the attacker gains ground against as one "inträngd i ett hörn eller på annat sätt orörlig":
        cornered, or without Gard under ``gard_out_cannot_back``."""
        return self.cornered[i] or self.cannot_back(i)

    def pending_roll(self) -> Dice | None:
        if self.phase not in CHANCE_PHASES:
            return None
        if self.phase == "damage" and self.hit is not None:
            striker = self.fighters[self.hit.src]
            return striker.guarded if self.hit.guarded_dice else striker.open
        return D100

    def chance_classes(self) -> list[tuple[ChanceOutcome, Fraction]]:
        """The pending roll's outcomes grouped by what the rules read of them, one outcome (the lowest) standing for
        each group with the group's probability: a Stridsvana or defence roll by its quality against its target
        (the contest and the defence compare qualities only), an attack roll (and a counter-attack's or a free
        attack's) by its level and its effect (the quality, and the damage's effect); the damage dice as they are.
        The exact solvers' bridge from a saved round walks these instead of a hundred outcomes each."""
        outcomes = self.chance_outcomes()
        target = self._pending_target()
        if target is None:
            return outcomes
        by_quality = self.phase in ROLLS_READ
        groups: dict[tuple[int, int], tuple[ChanceOutcome, Fraction]] = {}
        for outcome, p in outcomes:
            assert isinstance(outcome, int)
            key = (
                self._quality(outcome, target)
                if by_quality
                else (R.level(outcome, target, self.options.exceptional), effect(outcome))
            )
            first, q = groups.get(key, (outcome, Fraction(0)))
            groups[key] = (first, q + p)
        return list(groups.values())

    # ---- movement --------------------------------------------------------------------------------------------------
    def _apply_joint(self, actions: Mapping[str, Action]) -> None:
        movers = self.subfight_fighters()
        for i in movers:
            self.wishes[i] = actions[self.fighters[i].id].kind
        revealed = ", ".join(
            _("{name} {movement}", name=self.fighters[i].name, movement=self._move_word(self.wishes[i])) for i in movers
        )
        self.emit("movement", _("Movement revealed: {moves}", moves=revealed), wishes=[self.wishes[i] for i in movers])
        self.pending = self.subfight
        self._next_movement()

    def _next_movement(self) -> None:
        """Resolve the movement of the sub-fight's pairs one by one (a contest where the wishes differ)."""
        while self.pending:
            self.active, self.pending = self.pending[0], self.pending[1:]
            a, b = self.pairs[self.active]
            self.wish = (R.WISH[self.wishes[a]], R.WISH[self.wishes[b]])
            if self.wish[0] != self.wish[1]:
                self.rolls = ()
                self.phase = "move_roll"
                return
            self.contest_why = _("both wished the same")
            self._move_pair(None)
        self._resolve_leaving()

    def _move_pair(self, winner: int | None) -> None:
        p = self.active
        change = R.movement_change(self.wish[0], self.wish[1], winner, self.options.step_size)
        before = self.dist[p]
        self.dist[p] = R.move(before, change, len(self.scale) - 1)
        if self.dist[p] != before:
            self.redecide[p] |= MOVED
            text = _(
                "distance {before} → {after}",
                before=W.distance(self.scale[before]),
                after=W.distance(self.scale[self.dist[p]]),
            )
        else:
            text = _("distance stays {distance}", distance=W.distance(self.scale[before]))
        sign = (change > 0) - (change < 0)
        a, b = self.pairs[p]
        pair = f"{self.fighters[a].name}–{self.fighters[b].name}: " if len(self.pairs) > 1 else ""
        self.emit(
            "distance",
            f"{pair}{W.MOVES[W.WISH_KINDS[sign]]}: {self.contest_why} → {text}",
            distance=self.dist[p],
            change=change,
        )

    def _resolve_leaving(self) -> None:
        """Every fighter who chose Lämna leaves; each enemy whose weapon reaches the leaver first gets its free attack.

        The text: "Man kan lämna en strid om avståndet är större än fiendens vapenlängd. Man kan lämna en strid om
        avståndet är lika med fiendens vapenlängd eller längre, men fienden får då ett gratisanfall" — every enemy
        the leaver is engaged with (its pairs of this sub-fight), still standing and not leaving too, is checked at
        that pair's distance; an enemy of another sub-fight is not the leaver's "fiende" in this fight's sense.
        """
        leavers = [i for i in self.subfight_fighters() if self.wishes[i] == "leave"]
        if not leavers:
            self._start_exchanges()
            return
        attacks: list[tuple[int, int, int]] = []
        for leaver in leavers:
            reaching = []
            for p in self.subfight:
                pair = self.pairs[p]
                if leaver not in pair:
                    continue
                enemy = pair[1] if leaver == pair[0] else pair[0]
                if self.fate[enemy] != FIGHTING or self.wishes[enemy] == "leave":
                    continue
                if not R.leave_is_free(self.pair_distance(p), self.fighters[enemy].length):
                    attacks.append((enemy, leaver, p))
                    reaching.append(enemy)
            self._leave_text(leaver, reaching)
        self.free_attacks = tuple(attacks)
        self._next_free_attack()

    def _next_free_attack(self) -> None:
        while self.free_attacks:
            (enemy, leaver, pair), self.free_attacks = self.free_attacks[0], self.free_attacks[1:]
            if self.fate[leaver] != FIGHTING or self.fate[enemy] != FIGHTING:
                continue
            self.active, self.att, self.dfn, self.counter = pair, enemy, leaver, False
            self.att_quality = (0, 0)
            self.phase = "free_roll"
            return
        for i in self.subfight_fighters():
            if self.wishes[i] == "leave" and self.fate[i] == FIGHTING:
                self.fate[i] = LEFT
                self.emit("leave", _("{name} has left the fight", name=self.fighters[i].name))
        if self._fight_is_over():
            self._end_round()
        else:
            self._start_exchanges()

    # ---- chance ----------------------------------------------------------------------------------------------------
    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        assert isinstance(outcome, int)
        phase = self.phase
        if phase == "move_roll" or phase == "init_roll":
            self.rolls = (*self.rolls, outcome)
            a, b = self.pairs[self.active]
            roller = (a, b)[len(self.rolls) - 1]
            what = pgettext("roll made", "combat experience roll")
            self._roll_event(roller, outcome, self._stridsvana_target(roller), what)
            if len(self.rolls) < 2:
                return
            quality_a = self._quality(self.rolls[0], self._stridsvana_target(a))
            quality_b = self._quality(self.rolls[1], self._stridsvana_target(b))
            winner = R.contest_winner(quality_a, quality_b)
            self.contest_why = self._contest_text(quality_a, quality_b)
            if phase == "move_roll" and winner is None:
                self.contest_why = _("{reason}; the option nobody chose", reason=self.contest_why)
            if phase == "move_roll":
                self._move_pair(winner)
                self._next_movement()
            else:
                self._initiative_contest(winner)
        elif phase == "attack_roll":
            self._attack_roll(outcome)
        elif phase == "defence_roll":
            self._defence_roll(outcome)
        elif phase == "damage":
            self._damage(outcome)
        elif phase == "counter_roll":
            self._counter_roll(outcome)
        elif phase == "free_roll":
            self._free_roll(outcome)

    # ---- the round's steps, each across every pair of the sub-fight -------------------------------------------------
    def _both_stand(self, p: int) -> bool:
        a, b = self.pairs[p]
        return self.fate[a] == FIGHTING and self.fate[b] == FIGHTING

    def _roles_of(self, p: int) -> None:
        """The pair's attacker (its initiative holder) and defender become the active ones."""
        self.active = p
        a, b = self.pairs[p]
        self.att = self.holder[p]
        self.dfn = b if self.att == a else a

    def _start_exchanges(self) -> None:
        self.pending = self.subfight
        self.att = self.dfn = -1
        self.counter = False
        self.att_quality = (0, 0)
        self.rolls = ()
        self._next_initiative()

    def _next_initiative(self) -> None:
        """Bestäm initiativ: every pair whose fighters both stand settles its initiative (a Stridsvana contest where
        the table calls for one) before any pair's choices and rolls."""
        while self.pending:
            self.active, self.pending = self.pending[0], self.pending[1:]
            if not self._both_stand(self.active):
                continue
            self.rolls = ()
            if self._decide_initiative():
                return  # its contest is rolled first
        self.pending = self.subfight
        self._next_choice()

    def _next_choice(self) -> None:
        """The attacker's and the defender's choices, pair by pair, for every pair with an attacker this round."""
        while self.pending:
            p, self.pending = self.pending[0], self.pending[1:]
            if self._both_stand(p) and self.holder[p] >= 0:
                self._roles_of(p)
                self.counter = False
                self.phase = "attacker"
                return
        self.pending = self.subfight
        self._next_roll()

    def _next_roll(self) -> None:
        """Slå anfalls- och försvarsslag, markera skada: the next pair whose attack was chosen rolls it, if both
        still stand; then gaining ground."""
        while self.pending and not self._fight_is_over():
            p, self.pending = self.pending[0], self.pending[1:]
            if not self._both_stand(p) or self.choice[p] not in ("defend", "counter"):
                continue
            self._roles_of(p)
            self.counter = self.choice[p] == "counter"
            self.att_quality = (0, 0)
            self.rolls = ()
            if len(self.subfight) > 1:
                self.emit(
                    "exchange",
                    _(
                        "{attacker} against {defender}: attack and defence rolls",
                        attacker=self.fighters[self.att].name,
                        defender=self.fighters[self.dfn].name,
                    ),
                )
            self.phase = "attack_roll"
            return
        self.pending = self.subfight
        self._next_ground()

    def _next_ground(self) -> None:
        """Vinna terräng, last in the round ("Dessa avståndsändringar sker sist i rundan"): each pair whose attack
        roll succeeded, both still standing, in turn; then the round ends."""
        while self.pending and not self._fight_is_over():
            p, self.pending = self.pending[0], self.pending[1:]
            if not self.gains[p] or not self._both_stand(p):
                continue
            self._roles_of(p)
            self.phase = "ground"
            return
        self._end_round()

    # ---- initiative ------------------------------------------------------------------------------------------------
    def _decide_initiative(self) -> bool:
        """The active pair's initiative: kept, the table, or a contest (``True``: its two d100 are rolled next)."""
        p = self.active
        a, b = self.pairs[p]
        d = self.pair_distance()
        holder = self.holder[p]
        out_of_reach = False
        if holder < 0 and not self.redecide[p]:  # after_nobody_wins = stays
            self._nobody_fights(
                _(
                    "Initiative at {distance}: stays where it is, with nobody: nobody won the last roll and the "
                    "distance has not changed (after_nobody_wins = stays)",
                    distance=self._dist_name(),
                )
            )
            return False
        if holder >= 0 and not self.redecide[p]:
            if R.keeps_initiative(d, self.fighters[holder].length):
                self._set_roles(
                    holder,
                    _(
                        "the initiative stays: nobody damaged the holder and the distance changed only by gaining "
                        "ground, which does not count (gain_ground_changes_initiative = false)"
                    )
                    if self.ground_moved[p]
                    else _("the initiative stays: nobody damaged the holder and the distance did not change"),
                )
                return False
            out_of_reach = True
        self.ground_moved[p] = False
        reach_a, reach_b = R.reach(d, self.fighters[a].length), R.reach(d, self.fighters[b].length)
        only_damaged = self.redecide[p] == DAMAGED and self.holder[p] >= 0
        damaged_roll = only_damaged and self.options.holder_damaged == "roll"
        decision = R.initiative_afresh(reach_a, reach_b, damaged_roll)
        reason = self.redecide[p]
        self.redecide[p] = 0
        where = _(
            "at {distance}: {a} {reach_a}, {b} {reach_b}",
            distance=self._dist_name(),
            a=self.fighters[a].name,
            reach_a=W.REACH[reach_a],
            b=self.fighters[b].name,
            reach_b=W.REACH[reach_b],
        )
        if out_of_reach:
            where += "; " + _(
                "{name}'s weapon no longer reaches (gaining ground took the distance beyond it): the table decides",
                name=self.fighters[holder].name,
            )
        if damaged_roll and decision == "roll":
            where += "; " + _("the attacker was damaged: a new roll")
        elif damaged_roll and decision != "none":
            where += "; " + _(
                "the attacker was damaged, but the one too far stays defender (automatically): no new roll"
            )
        if decision == "none":
            self.holder[p] = -1
            self.redecide[p] = reason or MOVED
            self._nobody_fights(_("Initiative {where}: both too far, nobody can fight", where=where))
        elif decision == "roll":
            self.emit("initiative", _("Initiative {where}: opposed combat experience roll", where=where))
            self.rolls = ()
            self.phase = "init_roll"
            return True
        else:
            self._set_roles(a if decision == "a" else b, _("Initiative {where}", where=where))
        return False

    def _initiative_contest(self, winner: int | None) -> None:
        p = self.active
        if winner is None:
            self.holder[p] = -1
            self.redecide[p] = MOVED if self.options.after_nobody_wins == "decide" else 0
            self._nobody_fights(
                _("Nobody won the combat experience roll for the initiative ({reason})", reason=self.contest_why)
            )
        else:
            self._set_roles(
                self.pairs[p][winner],
                _(
                    "{name} won the combat experience roll ({reason})",
                    name=self._pair_name(winner),
                    reason=self.contest_why,
                ),
            )
        self._next_initiative()

    def _set_roles(self, attacker: int, why: str) -> None:
        """The active pair's initiative holder: its anfallare (attacker) for this round."""
        p = self.active
        self.holder[p] = attacker
        a, b = self.pairs[p]
        defender = b if attacker == a else a
        self.emit(
            "initiative",
            _(
                "{reason} → {attacker} is attacker, {defender} defender",
                reason=why,
                attacker=self.fighters[attacker].name,
                defender=self.fighters[defender].name,
            ),
            attacker=self.fighters[attacker].id,
        )

    def _nobody_fights(self, why: str) -> None:
        """Nobody attacks in the active pair: both regain one Gard, and the pair's round is over."""
        a, b = self.pairs[self.active]
        self.emit("initiative", _("{reason}: no attacker, nobody needs to defend", reason=why))
        self._regain(a)
        self._regain(b)

    def _regain(self, i: int) -> None:
        """ "Återfår ett poäng Gard": once a round at most (konflikt's own, for a fighter in several pairs)."""
        if self.regained[i]:
            return
        self.regained[i] = True
        before = self.gard[i]
        self.gard[i] = R.regain_gard(before, self.fighters[i].gard_max)
        self._regain_text(i, before)

    # ---- attack and defence ----------------------------------------------------------------------------------------
    def _apply(self, seat: str, action: Action) -> None:
        kind = action.kind
        if kind in ("cornered", "unprepared"):
            self._toggle_condition(kind, self.index[str(action["who"])])
        elif kind == "fight":
            self.phase = "move"
            self.emit("round", _("Declare movement in secret"))
        elif kind == "regain":
            self.choice[self.active] = kind
            self.emit("choice", _("{name} does not attack", name=self.fighters[self.att].name))
            self._regain(self.att)
            self.emit("choice", _("{name} need not roll anything", name=self.fighters[self.dfn].name))
            self._regain(self.dfn)
            self._next_choice()
        elif kind == "attack":
            self.emit("choice", _("{name} attacks", name=self.fighters[self.att].name))
            self.phase = "defender"
        elif kind in ("defend", "counter"):
            self.choice[self.active] = kind
            name = self.fighters[self.dfn].name
            if kind == "counter":
                self.emit("choice", _("{name} counter-attacks: no defence roll", name=name))
            else:
                self.emit("choice", _("{name} defends", name=name))
            self._next_choice()
        elif kind == "ground":
            self._gain_ground(int(action["step"]))

    def _kept_defence(self) -> tuple[tuple[int, int], ...]:
        """With ``several_attackers = one_defence``: the defender's defence roll(s) already made this round."""
        return self.round_defence[self.dfn] if self.options.several_attackers == "one_defence" else ()

    def _attack_roll(self, roll: int) -> None:
        what = pgettext("roll made", "attack roll")
        self.att_quality = self._roll_event(self.att, roll, self._attack_target(self.att), what)
        self.rolls = (roll,)
        if self.counter:
            self._resolve_undefended(self.att, self.dfn, roll, after="counter")
            return
        kept = self._kept_defence()
        if kept:
            self.emit(
                "attack",
                _("{name}'s defence roll of this round stands (one_defence)", name=self.fighters[self.dfn].name),
            )
            self._attack_against(kept)
            return
        self.phase = "defence_roll"

    def _defence_rolls_needed(self) -> int:
        return 2 if self.options.two_defence_rolls and self.fighters[self.dfn].has_shield else 1

    def _defence_roll(self, roll: int) -> None:
        self.rolls = (*self.rolls, roll)
        what = pgettext("roll made", "defence roll")
        self._roll_event(self.dfn, roll, self._defence_target(self.dfn), what)
        if len(self.rolls) - 1 < self._defence_rolls_needed():
            return
        target = self._defence_target(self.dfn)
        defences = tuple(self._quality(r, target) for r in self.rolls[1:])
        self.round_defence[self.dfn] = defences
        self._attack_against(defences)

    def _attack_against(self, defences: tuple[tuple[int, int], ...]) -> None:
        if R.attack_wins(self.att_quality, defences):
            self.emit("attack", _("{name}'s attack wins: higher quality", name=self.fighters[self.att].name))
            self._start_damage(self.att, self.dfn, self.rolls[0], after="ground")
        else:
            if self.att_quality[0] == R.FAILURE:
                self.emit("attack", _("No damage: the attack missed"))
            else:
                self.emit("attack", _("No damage: the defence held"))
            self._after_attack()

    def _resolve_undefended(self, src: int, dst: int, roll: int, after: str) -> None:
        """An attack with no defence roll against it hits when it succeeds."""
        if self._quality(roll, self._attack_target(src))[0] >= R.SUCCESS:
            self._start_damage(src, dst, roll, after)
        else:
            self.emit("attack", _("{name}'s attack misses: no damage", name=self.fighters[src].name))
            self._continue(after)

    def _start_damage(self, src: int, dst: int, roll: int, after: str) -> None:
        exceptional = self._quality(roll, self._attack_target(src))[0] == R.EXCEPTIONAL
        counts = R.gard_counts(self.prepared[dst], self.fighters[src].weapon.ranged, self.fighters[dst].has_shield)
        reason = "exceptional" if exceptional else ""
        if not counts:
            reason = "unprepared" if not self.prepared[dst] else "ranged"
        if after == "leave" and self.options.free_attack_ignores_gard:
            counts = False
            reason = "free_attack"
        self.bypass_reason = reason
        guarded = R.uses_guarded_dice(self.gard[dst], counts, exceptional)
        if not guarded and self.gard[dst] > 0 and self.options.bypass_dice == "guarded":
            # the guarded dice, but still compared directly with the thresholds (see _damage)
            self.hit = Hit(src, dst, effect(roll), gard_bypassed=True, guarded_dice=True)
        else:
            self.hit = Hit(src, dst, effect(roll), gard_bypassed=exceptional or not counts, guarded_dice=guarded)
        self.after = after
        self.phase = "damage"

    def _damage(self, dice: int) -> None:
        assert self.hit is not None
        hit, self.hit = self.hit, None
        target = self.fighters[hit.dst]
        before_gard = self.gard[hit.dst]
        on_gard = hit.guarded_dice and not hit.gard_bypassed
        gard, wound, compared = R.apply_hit(
            before_gard, hit.effect, dice, on_gard, target.limits, self.options.empty_gard_scratch
        )
        self.gard[hit.dst] = gard
        gained = R.daze_gained(wound, hit.effect, dice)
        self.daze[hit.dst] += gained
        if wound != R.NO_WOUND:
            self.wounds[hit.dst][wound] += 1  # "Då kryssar man i den rutan": every level has its box
            if wound == R.KRITISK or (wound == R.DODLIG and self.options.deadly_wound == "knocked_out"):
                self.fate[hit.dst] = KNOCKED_OUT
            elif wound == R.DODLIG:
                self.fate[hit.dst] = DEAD
        self._damage_text(hit, dice, before_gard, on_gard, wound, compared, gained)
        if wound != R.NO_WOUND or self.options.gard_damage_is_damage:
            for p, holder in enumerate(self.holder):
                if holder == hit.dst:
                    self.redecide[p] |= DAMAGED
        self._continue(self.after)

    def _continue(self, after: str) -> None:
        if after in ("ground", "counter"):
            self._after_attack()
        elif after == "leave":
            self._next_free_attack()
        else:  # after the counter-attack
            self._gain_ground_or_end()

    def _after_attack(self) -> None:
        if self.counter:
            if self.fate[self.dfn] == FIGHTING:
                self.phase = "counter_roll"
                return
            self.emit("attack", _("{name} is out: no counter-attack", name=self.fighters[self.dfn].name))
        self._gain_ground_or_end()

    def _counter_roll(self, roll: int) -> None:
        self._roll_event(self.dfn, roll, self._attack_target(self.dfn), pgettext("roll made", "counter-attack roll"))
        self._resolve_undefended(self.dfn, self.att, roll, after="countered")

    def _free_roll(self, roll: int) -> None:
        self._roll_event(self.att, roll, self._attack_target(self.att), pgettext("roll made", "free attack roll"))
        self._resolve_undefended(self.att, self.dfn, roll, after="leave")

    # ---- gain ground -----------------------------------------------------------------------------------------------
    def _gain_ground_or_end(self) -> None:
        """The pair's exchange is done: whether its attacker may gain ground (at the round's end)."""
        self.gains[self.active] = self.att_quality[0] >= R.SUCCESS
        self._next_roll()

    def _gain_ground(self, step: int) -> None:
        p = self.active
        before = self.dist[p]
        self.dist[p] = R.move(before, step, len(self.scale) - 1)
        changed = self.dist[p] != before
        if changed and self.options.gain_ground_changes_initiative:
            self.redecide[p] |= MOVED
        elif changed:
            self.ground_moved[p] = True
        self.emit(
            "ground",
            _(
                "Gain ground: {name} {choice} → distance {distance}",
                name=self.fighters[self.att].name,
                choice=self._ground_word(step),
                distance=W.distance(self.scale[self.dist[p]]),
            ),
            step=step,
            distance=self.dist[p],
        )
        self._next_ground()

    def _toggle_condition(self, kind: str, i: int) -> None:
        """The GM's say on the per-fighter conditions: cornered (inträngd i ett hörn) and prepared (beredd)."""
        name = self.fighters[i].name
        if kind == "cornered":
            self.cornered[i] = not self.cornered[i]
            if self.cornered[i]:
                text = _("GM: {name} is now cornered", name=name)
            else:
                text = _("GM: {name} is now free to move back", name=name)
        else:
            self.prepared[i] = not self.prepared[i]
            if self.prepared[i]:
                text = _("GM: {name} is now prepared", name=name)
            else:
                text = _("GM: {name} is now unprepared: Gard does not count", name=name)
        self.emit("condition", text, who=self.fighters[i].id)

    # ---- sub-fights and the round ------------------------------------------------------------------------------------
    def _standing(self) -> dict[str, list[int]]:
        return {
            side: [i for i, f in enumerate(self.fighters) if f.side == side and self.fate[i] == FIGHTING]
            for side in self.sides
        }

    def _fight_is_over(self) -> bool:
        return not all(self._standing().values())

    def engagements(self) -> dict[int, tuple[int, ...]]:
        """Who fights whom: each fighter of the smaller side (the first side on a tie) is a centre, and the other
        side's fighters are engaged with the centres in turn (konflikt's own: the text gives no rule for it).

        Returns centre → the pairs of its sub-fight, for the fighters still standing.
        """
        standing = list(self._standing().values())
        few, many = (standing[0], standing[1]) if len(standing[0]) <= len(standing[1]) else (standing[1], standing[0])
        engaged: dict[int, list[int]] = {centre: [] for centre in few}
        for k, enemy in enumerate(many):
            centre = few[k % len(few)]
            pair = (centre, enemy) if (centre, enemy) in self.pair_of else (enemy, centre)
            engaged[centre].append(self.pair_of[pair])
        return {centre: tuple(pairs) for centre, pairs in engaged.items()}

    def _start_round(self) -> None:
        engaged = self.engagements()
        due = self.centre not in engaged or self.subfight_rounds_done >= self.options.subfight_rounds
        if due:
            centres = sorted(engaged)
            centre = next((c for c in centres if c > self.centre), centres[0]) if self.centre >= 0 else centres[0]
            if self.centre >= 0 and centre != self.centre:
                self._subfight_text(centre, engaged[centre])
            self.centre = centre
            self.subfight_rounds_done = 0
        self.subfight = engaged[self.centre]
        self.phase = "move"
        self.active = self.subfight[0]
        self.att = self.dfn = -1
        self.counter = False
        self.att_quality = (0, 0)
        self.rolls = ()
        self.wishes = [""] * len(self.fighters)
        self.regained = [False] * len(self.fighters)
        self.round_defence = [() for _ in self.fighters]
        self.choice = [""] * len(self.pairs)
        self.gains = [False] * len(self.pairs)
        self._round_text()
        if self.gm_conditions:
            self.phase = "gm"

    def _end_round(self) -> None:
        self.rounds += 1
        self.subfight_rounds_done += 1
        standing = self._standing()
        if not all(standing.values()):
            self.ending = "fight_over"
            self.phase = "over"
            self.emit("end", self._end_text(standing))
            return
        if self.rounds >= self.options.max_rounds:
            self.ending = "deadlock"
            self.phase = "over"
            self.emit(
                "end",
                _("The fight ends undecided after round {round} (max_rounds)", round=self.rounds),
            )
            return
        self._start_round()

    # ---- numbers ---------------------------------------------------------------------------------------------------
    def _stridsvana_target(self, i: int) -> int:
        return self.fighters[i].stridsvana + R.daze_penalty(self.daze[i])

    def _attack_target(self, i: int) -> int:
        return self.fighters[i].attack_base + R.daze_penalty(self.daze[i])

    def _defence_target(self, i: int) -> int:
        return self.fighters[i].defence_base + R.daze_penalty(self.daze[i])

    def _quality(self, roll: int, target: int) -> tuple[int, int]:
        return R.quality(roll, target, self.options.exceptional, self.options.effect_breaks_ties)

    def key(self) -> Hashable:
        """Everything the rest of the conflict reads. What a roll leaves behind is dropped once no rule reads it any
        more (it is only narration then), so that States differing only in it merge: the d100 readings are read in
        a contest and by the defence roll (the attack roll's effect), the attack's quality against the defence and
        then only whether it succeeded until the exchange is done (whether to gain ground), the counter flag until
        the exchange's damage, where to go on after the damage only in it, the pairs' choices until their rolls, which
        pairs may gain ground until they do, and the round's defence rolls only under
        ``several_attackers = one_defence``. A goal the GM declared reached ends the key (empty in play). Without this
        a round's bridge from a saved State meets ~90,000 keys."""
        phase = self.phase
        return (
            phase,
            tuple(self.gard),
            tuple(self.daze),
            tuple(tuple(w) for w in self.wounds),
            tuple(self.fate),
            tuple(self.dist),
            tuple(self.holder),
            tuple(self.redecide),
            self.active,
            self.centre,
            self.subfight,
            self.subfight_rounds_done,
            self.rounds,
            tuple(self.wishes),
            self.pending,
            self.free_attacks,
            tuple(self.regained),
            tuple(self.round_defence) if self.options.several_attackers == "one_defence" else (),
            self.wish,
            self.rolls if phase in ROLLS_READ else (),
            self.att,
            self.dfn,
            self.counter if phase not in EXCHANGE_DONE else False,
            self._choices_read(),
            self._gains_read(),
            self._quality_read(),
            self.hit,
            self.after if phase == "damage" else "",
            tuple(self.cornered),
            tuple(self.prepared),
            tuple(sorted((k, str(v)) for k, v in self._secret.items())),
            self.goal_reached,
        )

    def _choices_read(self) -> tuple[str, ...]:
        """The pairs' choices while a rule still reads them: all of them while the choices are made, then those of
        the pairs still to roll."""
        if self.phase in CHOOSING:
            return tuple(self.choice)
        if self.phase in ROLLING:
            return tuple(c if p in self.pending else "" for p, c in enumerate(self.choice))
        return ()

    def _gains_read(self) -> tuple[bool, ...]:
        """Which pairs' attackers may still gain ground: read while the rolls go on and then in the ground step."""
        if self.phase in ROLLING:
            return tuple(self.gains)
        if self.phase == "ground":
            return tuple(g and p in self.pending for p, g in enumerate(self.gains))
        return ()

    def _quality_read(self) -> tuple[int, int]:
        """What of the attack's quality the rest of the exchange reads: all of it against the defence roll, only
        whether it succeeded once the damage is rolled (whether to gain ground), nothing once the exchange is done."""
        if self.phase in EXCHANGE_DONE:
            return (0, 0)
        if self.phase in AFTER_THE_ATTACK:
            return (int(self.att_quality[0] >= R.SUCCESS), 0)
        return self.att_quality

    # ---- what the table shows beside the choices (at_table.py) ------------------------------------------------
    def setup_facts(self) -> dict[str, dict[str, str]]:
        return at_table.setup_facts(self)

    def status_pending(self) -> dict[str, dict[str, str]]:
        return at_table.status_pending(self)

    def ending_words(self, ending: str) -> str:
        return at_table.ENDINGS.get(ending, super().ending_words(ending))

    def correctable(self) -> dict[str, dict[str, tuple[int, int, int]]]:
        """The GM may set a fighter's Gard by hand (0 to its maximum)."""
        return {f.id: {"Gard": (int(self.gard[i]), 0, int(f.gard_max))} for i, f in enumerate(self.fighters)}

    def _correct(self, seat: str, name: str, value: int) -> None:
        self.gard[self.index[seat]] = value

    def invariants(self) -> list[str]:
        broken = []
        for i, f in enumerate(self.fighters):
            if not 0 <= self.gard[i] <= f.gard_max:
                broken.append(f"{f.id}: Gard {self.gard[i]} outside 0..{f.gard_max}")
            if self.daze[i] < 0:
                broken.append(f"{f.id}: Omtöckning {self.daze[i]} below 0")
        for p, d in enumerate(self.dist):
            if not 0 <= d < len(self.scale):
                broken.append(f"pair {p}: distance {d} off the scale")
        if self.rounds > self.options.max_rounds:
            broken.append(f"{self.rounds} rounds beyond max_rounds")
        return broken

    def _outcome(self) -> ConflictOutcome:
        standing = [
            s for s in self.sides if any(f.side == s and self.fate[i] == FIGHTING for i, f in enumerate(self.fighters))
        ]
        winners = tuple(standing) if len(standing) == 1 and self.ending == "fight_over" else ()
        if self.ending == GOAL_REACHED:
            winners = (self.goal_reached[0],)
        ending = self.ending
        if ending == "fight_over":
            losers = [self.fate[i] for i, f in enumerate(self.fighters) if f.side not in winners]
            if not winners:
                ending = "parted"
            elif all(fate == LEFT for fate in losers):
                ending = "left"
            else:
                ending = "dead" if DEAD in losers else "taken_out"
        return ConflictOutcome(
            ending=ending,
            winners=winners,
            summary=self._summary(winners),
            participants={f.id: self._fate_text(i) for i, f in enumerate(self.fighters)},
            data={
                "rounds": self.rounds,
                **{f"{f.id}.gard": self.gard[i] for i, f in enumerate(self.fighters)},
                **{f"{f.id}.daze": self.daze[i] for i, f in enumerate(self.fighters)},
                **{f"{f.id}.wounds": sum(self.wounds[i]) for i, f in enumerate(self.fighters)},
            },
        )
