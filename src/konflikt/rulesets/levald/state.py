"""LevaldState: a Le våld fight as a state machine of secret movement, chance nodes and seat decisions.

A round of the active pair (one fighter against one of its opponents, see sub-fights) runs:
movement (secret, simultaneous; a Stridsvana contest when the wishes differ; leaving) → initiative (the table; kept
until the holder is damaged or the distance changes) → the attacker's and the defender's choices → attack, defence
or counter rolls → damage → gain ground. The tracks are plain lists so that the state stays cheap to clone.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.options import Options
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, GM, SIMULTANEOUS, TERMINAL
from konflikt.dice import Dice, Percentile, effect
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.fighters import Fighter, fighters_of
from konflikt.rulesets.levald.narration import NarrationMixin

D100 = Percentile()
CHANCE_PHASES = frozenset(
    {"move_roll", "init_roll", "attack_roll", "defence_roll", "damage", "counter_roll", "free_roll"}
)
DECISIONS = {"attacker": ("attack", "regain"), "defender": ("defend", "counter"), "ground": ("ground",)}
FIGHTING, KNOCKED_OUT, DEAD, LEFT = "fighting", "knocked_out", "dead", "left"
DAMAGED, MOVED = 2, 1
"""Bits of a pair's reason to decide the initiative afresh."""


class LevaldState(NarrationMixin):
    """One Le våld fight in progress (two sides; one or more pairs of opponents)."""

    ruleset = "levald"

    def __init__(self, scenario: Scenario, options: Options) -> None:
        super().__init__(options)
        self.title = scenario.title
        self.fighters: tuple[Fighter, ...] = tuple(fighters_of(scenario, options))
        self.index = {f.id: i for i, f in enumerate(self.fighters)}
        self.sides: tuple[str, ...] = tuple(s.id for s in scenario.sides)
        self.side_names = {s.id: s.name for s in scenario.sides}
        chars = [p.data for p in scenario.participants()]
        self.gard = [min(c.gard if c.gard_now is None else c.gard_now, c.gard) for c in chars]
        self.daze = [c.daze for c in chars]
        self.wounds = [[c.wounds.skrama, c.wounds.latt, c.wounds.allvarlig] for c in chars]
        self.fate = [FIGHTING] * len(chars)
        self.cornered = [f.cornered for f in self.fighters]
        self.prepared = [f.prepared for f in self.fighters]
        self.gm_conditions = bool(scenario.setup.gm_conditions)
        first = [i for i, f in enumerate(self.fighters) if f.side == self.sides[0]]
        second = [i for i, f in enumerate(self.fighters) if f.side == self.sides[1]]
        self.pairs: tuple[tuple[int, int], ...] = tuple((a, b) for a in first for b in second)
        monsters = any(f.weapon.length in R.MONSTER_DISTANCES for f in self.fighters)
        self.scale = R.distance_scale(monsters)
        self.scale_index = tuple(R.DISTANCES.index(d) for d in self.scale)
        start = self.scale.index(scenario.setup.distance) if scenario.setup.distance in self.scale else 0
        self.dist = [start] * len(self.pairs)  # a position on self.scale
        self.holder = [-1] * len(self.pairs)
        self.redecide = [MOVED] * len(self.pairs)
        self.active = 0
        self.pair_rounds = 0
        self.rounds = 0
        self.phase = "move"
        self.ending = ""
        # the round in progress
        self.wish: tuple[int, int] = (0, 0)
        self.leaving: tuple[bool, bool] = (False, False)
        self.rolls: tuple[int, ...] = ()
        self.att = -1
        self.dfn = -1
        self.counter = False
        self.att_quality: tuple[int, int] = (0, 0)
        self.hit: tuple[int, int, int, bool, bool] | None = None  # src, dst, effect, Gard bypassed, guarded dice
        self.bypass_reason = ""
        self.after = ""  # what follows the damage being rolled: ground, counter, countered, leave
        self.emit("setup", self._setup_text())
        self._start_round()

    # ---- the nodes -------------------------------------------------------------------------------------------------
    def seats(self) -> tuple[str, ...]:
        ids = tuple(f.id for f in self.fighters)
        return (*ids, GM) if self.gm_conditions else ids

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

    def simultaneous_seats(self) -> tuple[str, ...]:
        a, b = self.pairs[self.active]
        return (self.fighters[a].id, self.fighters[b].id)

    def pair_distance(self, pair: int | None = None) -> int:
        """The active (or given) pair's distance as an index into :data:`rules.DISTANCES`."""
        return self.scale_index[self.dist[self.active if pair is None else pair]]

    def _legal_actions(self, seat: str) -> Sequence[Action]:
        i = self.index.get(seat, -1)
        phase = self.phase
        if phase == "gm":
            if seat != GM:
                return ()
            pair = self.pairs[self.active]
            who = [self.fighters[k].id for k in pair]
            return (
                Action.of("fight"),
                *(Action.of("cornered", who=w) for w in who),
                *(Action.of("unprepared", who=w) for w in who),
            )
        if phase == "move":
            if i not in self.pairs[self.active]:
                return ()
            kinds = (
                ("advance", "hold", "retreat", "leave") if self.options.allow_leave else ("advance", "hold", "retreat")
            )
            return tuple(Action.of(k) for k in kinds)
        if phase == "attacker" and i == self.att:
            return (Action.of("attack"), Action.of("regain"))
        if phase == "defender" and i == self.dfn:
            if R.may_counter(self.pair_distance(), self.fighters[i].length):
                return (Action.of("defend"), Action.of("counter"))
            return (Action.of("defend"),)
        if phase == "ground" and i == self.att:
            steps = (-1, 0) if self.cornered[self.dfn] else (0, 1)
            return tuple(Action.of("ground", step=s) for s in steps)
        return ()

    def pending_roll(self) -> Dice | None:
        if self.phase not in CHANCE_PHASES:
            return None
        if self.phase == "damage" and self.hit is not None:
            src, _dst, _eff, _exc, guarded = self.hit
            return self.fighters[src].guarded if guarded else self.fighters[src].open
        return D100

    # ---- movement --------------------------------------------------------------------------------------------------
    def _apply_joint(self, actions: Mapping[str, Action]) -> None:
        a, b = self.pairs[self.active]
        act_a, act_b = actions[self.fighters[a].id], actions[self.fighters[b].id]
        self.wish = (R.WISH[act_a.kind], R.WISH[act_b.kind])
        self.leaving = (act_a.kind == "leave", act_b.kind == "leave")
        self.emit(
            "movement",
            f"Rörelse (movement) revealed: {self.fighters[a].name} {self._move_word(act_a.kind)}, "
            f"{self.fighters[b].name} {self._move_word(act_b.kind)}",
            wishes=list(self.wish),
        )
        if self.wish[0] == self.wish[1]:
            self._finish_move(None)
        else:
            self.rolls = ()
            self.phase = "move_roll"

    def _finish_move(self, winner: int | None) -> None:
        p = self.active
        change = R.movement_change(self.wish[0], self.wish[1], winner, self.options.step_size)
        before = self.dist[p]
        self.dist[p] = R.move(before, change, len(self.scale) - 1)
        why = (
            "both wished the same"
            if self.wish[0] == self.wish[1]
            else (
                f"{self._pair_name(winner)} won the Stridsvana contest"
                if winner is not None
                else "nobody won: the option nobody chose"
            )
        )
        if self.dist[p] != before:
            self.redecide[p] |= MOVED
            text = f"avståndet (distance) {self.scale[before]} → {self.scale[self.dist[p]]}"
        else:
            text = f"avståndet (distance) stays {self.scale[before]}"
        sign = (change > 0) - (change < 0)
        self.emit("distance", f"{R.WISH_TEXT[sign]}: {why} → {text}", distance=self.dist[p], change=change)
        self._resolve_leaving()

    def _resolve_leaving(self) -> None:
        pair = self.pairs[self.active]
        leavers = [pair[k] for k in (0, 1) if self.leaving[k]]
        if not leavers:
            self._decide_initiative()
            return
        if len(leavers) == 2:
            for i in leavers:
                self.fate[i] = LEFT
            self.emit("leave", "Both leave the fight (lämnar striden): nobody is left to strike at them")
            self._end_round()
            return
        leaver = leavers[0]
        enemy = pair[1] if leaver == pair[0] else pair[0]
        if R.leave_is_free(self.pair_distance(), self.fighters[enemy].length):
            self.fate[leaver] = LEFT
            self.emit(
                "leave",
                f"{self.fighters[leaver].name} lämnar striden (leaves the fight) freely: the distance "
                f"{self._dist_name()} is longer than {self.fighters[enemy].name}'s weapon "
                f"({self.fighters[enemy].weapon.length})",
            )
            self._end_round()
            return
        self.emit(
            "leave",
            f"{self.fighters[leaver].name} lämnar striden (leaves the fight) within reach of "
            f"{self.fighters[enemy].name}'s {self.fighters[enemy].weapon.length}: {self.fighters[enemy].name} gets a "
            "gratisanfall (free attack) that cannot be defended",
        )
        self.att, self.dfn, self.counter = enemy, leaver, False
        self.phase = "free_roll"

    # ---- chance ----------------------------------------------------------------------------------------------------
    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        assert isinstance(outcome, int)
        phase = self.phase
        if phase == "move_roll" or phase == "init_roll":
            self.rolls = (*self.rolls, outcome)
            a, b = self.pairs[self.active]
            who = (a, b)[len(self.rolls) - 1]
            q = self._roll_event(who, outcome, self._stridsvana_target(who), "Stridsvana (combat experience)")
            if len(self.rolls) < 2:
                return
            qa = self._quality(self.rolls[0], self._stridsvana_target(a))
            winner = R.contest_winner(qa, q)
            if phase == "move_roll":
                self._finish_move(winner)
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

    # ---- initiative ------------------------------------------------------------------------------------------------
    def _decide_initiative(self) -> None:
        p = self.active
        a, b = self.pairs[p]
        if self.holder[p] >= 0 and not self.redecide[p]:
            self._set_roles(
                self.holder[p],
                "initiativet kvarstår (the initiative stays): nobody damaged the "
                "holder and the distance did not change",
            )
            return
        d = self.pair_distance()
        ra, rb = R.reach(d, self.fighters[a].length), R.reach(d, self.fighters[b].length)
        decision = R.initiative(ra, rb)
        only_damaged = self.redecide[p] == DAMAGED and self.holder[p] >= 0
        reason = self.redecide[p]
        self.redecide[p] = 0
        where = (
            f"at {self._dist_name()}: {self.fighters[a].name} {R.REACH_TEXT[ra]}, "
            f"{self.fighters[b].name} {R.REACH_TEXT[rb]}"
        )
        if decision != "none" and only_damaged and self.options.holder_damaged == "roll":
            decision = "roll"
            where += "; the holder was damaged: a new roll"
        if decision == "none":
            self.holder[p] = -1
            self.redecide[p] = reason or MOVED
            self._nobody_fights(f"Initiativ (initiative) {where}: both too far, nobody can fight")
        elif decision == "roll":
            self.emit("initiative", f"Initiativ (initiative) {where}: opposed Stridsvana roll")
            self.rolls = ()
            self.phase = "init_roll"
        else:
            self._set_roles(a if decision == "a" else b, f"Initiativ (initiative) {where}")

    def _initiative_contest(self, winner: int | None) -> None:
        p = self.active
        if winner is None:
            self.holder[p] = -1
            self.redecide[p] = MOVED
            self._nobody_fights("Nobody won the Stridsvana roll for the initiative")
            return
        self._set_roles(self.pairs[p][winner], f"{self._pair_name(winner)} won the Stridsvana roll")

    def _set_roles(self, attacker: int, why: str) -> None:
        p = self.active
        self.holder[p] = attacker
        a, b = self.pairs[p]
        self.att, self.dfn = attacker, (b if attacker == a else a)
        self.counter = False
        self.emit(
            "initiative",
            f"{why} → {self.fighters[self.att].name} is anfallare (attacker), {self.fighters[self.dfn].name} "
            "försvarare (defender)",
            attacker=self.fighters[self.att].id,
        )
        self.phase = "attacker"

    def _nobody_fights(self, why: str) -> None:
        a, b = self.pairs[self.active]
        self.emit("initiative", f"{why}: ingen anfallare (no attacker), nobody needs to defend")
        self._regain(a)
        self._regain(b)
        self._end_round()

    def _regain(self, i: int) -> None:
        before = self.gard[i]
        self.gard[i] = min(before + 1, self.fighters[i].gard_max)
        self.emit(
            "gard",
            f"{self.fighters[i].name} återfår ett poäng Gard (regains 1 Gard): {before} → {self.gard[i]}"
            + (" (at its maximum)" if self.gard[i] == before else ""),
            who=self.fighters[i].id,
            gard=self.gard[i],
        )

    # ---- attack and defence ----------------------------------------------------------------------------------------
    def _apply(self, seat: str, action: Action) -> None:
        kind = action.kind
        if kind in ("cornered", "unprepared"):
            self._toggle_condition(kind, self.index[str(action["who"])])
        elif kind == "fight":
            self.phase = "move"
            self.emit("round", "Deklarera rörelse (declare movement) in secret")
        elif kind == "regain":
            self.emit("choice", f"{self.fighters[self.att].name} does not attack (låter bli att anfalla)")
            self._regain(self.att)
            self.emit("choice", f"{self.fighters[self.dfn].name} need not roll anything")
            self._regain(self.dfn)
            self._end_round()
        elif kind == "attack":
            self.emit("choice", f"{self.fighters[self.att].name} anfaller (attacks)")
            self.phase = "defender"
        elif kind in ("defend", "counter"):
            self.counter = kind == "counter"
            text = "kontrar (counter-attacks): no defence roll" if self.counter else "försvarar sig (defends)"
            self.emit("choice", f"{self.fighters[self.dfn].name} {text}")
            self.rolls = ()
            self.phase = "attack_roll"
        elif kind == "ground":
            self._gain_ground(int(action["step"]))

    def _attack_roll(self, roll: int) -> None:
        self.att_quality = self._roll_event(self.att, roll, self._attack_target(self.att), "anfallsslag (attack)")
        self.rolls = (roll,)
        if self.counter:
            self._resolve_undefended(self.att, self.dfn, roll, after="counter")
            return
        self.phase = "defence_roll"

    def _defence_rolls_needed(self) -> int:
        return 2 if self.options.two_defence_rolls and self.fighters[self.dfn].weapon.shield else 1

    def _defence_roll(self, roll: int) -> None:
        self.rolls = (*self.rolls, roll)
        self._roll_event(self.dfn, roll, self._defence_target(self.dfn), "försvarsslag (defence)")
        if len(self.rolls) - 1 < self._defence_rolls_needed():
            return
        target = self._defence_target(self.dfn)
        defences = tuple(self._quality(r, target) for r in self.rolls[1:])
        if R.attack_wins(self.att_quality, defences):
            self.emit("attack", f"{self.fighters[self.att].name}'s attack wins (anfallsslaget vinner): higher quality")
            self._start_damage(self.att, self.dfn, self.rolls[0], after="ground")
        else:
            why = "the attack missed" if self.att_quality[0] == R.FAILURE else "the defence held (försvaret håller)"
            self.emit("attack", f"No damage (ingen skada): {why}")
            self._after_attack()

    def _resolve_undefended(self, src: int, dst: int, roll: int, after: str) -> None:
        """An attack with no defence roll against it hits when it succeeds."""
        if self._quality(roll, self._attack_target(src))[0] >= R.SUCCESS:
            self._start_damage(src, dst, roll, after)
        else:
            self.emit("attack", f"{self.fighters[src].name}'s attack misses (missar): no damage")
            self._continue(after)

    def _start_damage(self, src: int, dst: int, roll: int, after: str) -> None:
        exceptional = self._quality(roll, self._attack_target(src))[0] == R.EXCEPTIONAL
        counts = R.gard_counts(self.prepared[dst], self.fighters[src].weapon.ranged, self.fighters[dst].weapon.shield)
        reason = "exceptionell framgång (exceptional success) ignores Gard" if exceptional else ""
        if not counts:
            reason = "not prepared (ej beredd)" if not self.prepared[dst] else "ranged attack, no shield"
        if after == "leave" and self.options.free_attack_ignores_gard:
            counts = False
            reason = "the free attack ignores Gard (free_attack_ignores_gard)"
        self.bypass_reason = reason
        guarded = R.uses_guarded_dice(self.gard[dst], counts, exceptional)
        if not guarded and self.gard[dst] > 0 and self.options.bypass_dice == "guarded":
            # the guarded dice, but still compared directly with the thresholds (see _damage)
            self.hit = (src, dst, effect(roll), True, True)
        else:
            self.hit = (src, dst, effect(roll), exceptional or not counts, guarded)
        self.after = after
        self.phase = "damage"

    def _damage(self, dice: int) -> None:
        assert self.hit is not None
        src, dst, eff, bypass, guarded = self.hit
        self.hit = None
        f = self.fighters[dst]
        before_gard = self.gard[dst]
        use_gard = guarded and not bypass
        gard, wound, compared = R.apply_hit(before_gard, eff, dice, use_gard, f.limits, self.options.empty_gard_scratch)
        self.gard[dst] = gard
        gained = R.daze_gained(wound, eff, dice)
        self.daze[dst] += gained
        total = eff + dice
        weapon = self.fighters[src].weapon
        dice_name = weapon.damage_guarded if guarded else weapon.damage_open
        parts = [f"{f.name} tar {total} skada (damage): effekt (effect) {eff} + {dice_name} {dice}"]
        if use_gard:
            parts.append(f"on Gard {before_gard} → {gard}")
        elif bypass and before_gard > 0:
            parts.append(f"Gard {before_gard} does not count ({self.bypass_reason})")
        if wound == R.NO_WOUND:
            parts.append("nothing falls through: no wound")
        else:
            name = R.WOUNDS[wound]
            parts.append(
                f"{compared} compared with the skadetrösklar (thresholds) {'/'.join(map(str, f.limits))} → "
                f"{name} ({R.WOUND_ENGLISH[name]})"
            )
            if wound <= R.ALLVARLIG:
                self.wounds[dst][wound] += 1
                parts.append(
                    f"+{gained} Omtöckning (daze) → {self.daze[dst]}, {R.daze_penalty(self.daze[dst])}% on all rolls"
                )
            elif wound == R.KRITISK or self.options.deadly_wound == "knocked_out":
                self.fate[dst] = KNOCKED_OUT
                parts.append("utslagen (knocked out)")
            else:
                self.fate[dst] = DEAD
                parts.append("död (dead)")
        self.emit("damage", "; ".join(parts), who=f.id, damage=total, gard=gard, wound=wound, daze=self.daze[dst])
        if wound != R.NO_WOUND or self.options.gard_damage_is_damage:
            for p, holder in enumerate(self.holder):
                if holder == dst:
                    self.redecide[p] |= DAMAGED
        self._continue(self.after)

    def _continue(self, after: str) -> None:
        if after in ("ground", "counter"):
            self._after_attack()
        elif after == "leave":
            if self.fate[self.dfn] == FIGHTING:
                self.fate[self.dfn] = LEFT
                self.emit("leave", f"{self.fighters[self.dfn].name} has left the fight (har lämnat striden)")
            self._end_round()
        else:  # after the counter-attack
            self._gain_ground_or_end()

    def _after_attack(self) -> None:
        if self.counter:
            if self.fate[self.dfn] == FIGHTING:
                self.phase = "counter_roll"
                return
            self.emit("attack", f"{self.fighters[self.dfn].name} is out: no counter-attack")
        self._gain_ground_or_end()

    def _counter_roll(self, roll: int) -> None:
        self._roll_event(self.dfn, roll, self._attack_target(self.dfn), "motanfall (counter-attack)")
        self._resolve_undefended(self.dfn, self.att, roll, after="countered")

    def _free_roll(self, roll: int) -> None:
        self._roll_event(self.att, roll, self._attack_target(self.att), "gratisanfall (free attack)")
        self._resolve_undefended(self.att, self.dfn, roll, after="leave")

    # ---- gain ground -----------------------------------------------------------------------------------------------
    def _gain_ground_or_end(self) -> None:
        standing = self.fate[self.att] == FIGHTING and self.fate[self.dfn] == FIGHTING
        if standing and self.att_quality[0] >= R.SUCCESS:
            self.phase = "ground"
            return
        self._end_round()

    def _gain_ground(self, step: int) -> None:
        p = self.active
        before = self.dist[p]
        self.dist[p] = R.move(before, step, len(self.scale) - 1)
        changed = self.dist[p] != before
        if changed and self.options.gain_ground_changes_initiative:
            self.redecide[p] |= MOVED
        self.emit(
            "ground",
            f"Vinna terräng (gain ground): {self.fighters[self.att].name} {self._ground_word(step)} → "
            f"avståndet (distance) {self.scale[self.dist[p]]}",
            step=step,
            distance=self.dist[p],
        )
        self._end_round()

    def _toggle_condition(self, kind: str, i: int) -> None:
        """The GM's say on the per-fighter conditions: cornered (inträngd i ett hörn) and prepared (beredd)."""
        name = self.fighters[i].name
        if kind == "cornered":
            self.cornered[i] = not self.cornered[i]
            state = "inträngd i ett hörn (cornered)" if self.cornered[i] else "free to move back (kan backa)"
        else:
            self.prepared[i] = not self.prepared[i]
            state = "beredd (prepared)" if self.prepared[i] else "ej beredd (unprepared: Gard does not count)"
        self.emit("condition", f"Spelledaren (GM): {name} is now {state}", who=self.fighters[i].id)

    # ---- the end of a round ----------------------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.phase = "move"
        self.att = self.dfn = -1
        self.counter = False
        self.att_quality = (0, 0)
        self.rolls = ()
        a, b = self.pairs[self.active]
        self.emit(
            "round",
            f"Runda (round) {self.rounds + 1}: {self.fighters[a].name} mot (vs) {self.fighters[b].name} at "
            f"{self._dist_name()}"
            + (
                "; the GM may set conditions"
                if self.gm_conditions
                else "; deklarera rörelse (declare movement) in secret"
            ),
            round=self.rounds + 1,
        )
        if self.gm_conditions:
            self.phase = "gm"

    def _end_round(self) -> None:
        self.rounds += 1
        self.pair_rounds += 1
        standing = {
            side: [i for i, f in enumerate(self.fighters) if f.side == side and self.fate[i] == FIGHTING]
            for side in self.sides
        }
        if not all(standing.values()):
            self.ending = "fight_over"
            self.phase = "over"
            self.emit("end", self._end_text(standing))
            return
        if self.rounds >= self.options.max_rounds:
            self.ending = "deadlock"
            self.phase = "over"
            self.emit("end", f"The fight ends undecided after {self.rounds} rounds (max_rounds)")
            return
        live = [p for p, (a, b) in enumerate(self.pairs) if self.fate[a] == FIGHTING and self.fate[b] == FIGHTING]
        if self.active not in live or self.pair_rounds >= self.options.subfight_rounds:
            nxt = next((p for p in live if p > self.active), live[0])
            if nxt != self.active:
                a, b = self.pairs[nxt]
                self.emit(
                    "subfight",
                    f"Byte av delstrid (sub-fight switches): {self.fighters[a].name} mot (vs) {self.fighters[b].name}",
                )
            self.active = nxt
            self.pair_rounds = 0
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
        return (
            self.phase,
            tuple(self.gard),
            tuple(self.daze),
            tuple(tuple(w) for w in self.wounds),
            tuple(self.fate),
            tuple(self.dist),
            tuple(self.holder),
            tuple(self.redecide),
            self.active,
            self.pair_rounds,
            self.rounds,
            self.wish,
            self.leaving,
            self.rolls,
            self.att,
            self.dfn,
            self.counter,
            self.att_quality,
            self.hit,
            self.after,
            tuple(self.cornered),
            tuple(self.prepared),
            tuple(sorted((k, str(v)) for k, v in self._secret.items())),
        )

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
