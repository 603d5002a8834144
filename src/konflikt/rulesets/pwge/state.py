"""PwgeState: the open table of PWGE as a state machine.

There is no fixed turn order in PWGE ("det handlar mest om vem som säger att man vill göra något först"). konflikt
models the open table as a floor that passes round the participants who still have tokens: whoever holds the floor
may buy an action or pass; when everybody able to act has passed in a row, nobody wants to act (a dödläge,
deadlock). An action then runs the text's principle: the target may counter and respond, the actor may counter the
response, order is bought if anyone wants it, action and response resolve, hits roll damage, and every roll may be
topped (damage: topped, counter-topped, counter-counter-topped).

The decision nodes and the state's own changes live here; resolving an exchange in :mod:`.resolution`, narration
in :mod:`.narration`, endings in :mod:`.endings`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.i18n import localized
from konflikt.core.options import Options
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, GOAL_REACHED, SIMULTANEOUS, TERMINAL, State
from konflikt.dice import Dice, SumDice
from konflikt.rulesets.pwge import at_table, endings, narration, resolution
from konflikt.rulesets.pwge.choices import (
    ACCEPT,
    COUNTER,
    COUNTER_COUNTER_TOP,
    COUNTER_TOP,
    NO_COUNTER,
    NO_FREE_ATTACK,
    NO_ORDER,
    NO_RESPONSE,
    ORDER,
    PASS,
    REROLL,
    SPENDING,
    TOP,
    paid_with_die,
    without_payment,
)
from konflikt.rulesets.pwge.exchange import Contest, DamageRoll, Deed, Exchange
from konflikt.rulesets.pwge.fighters import Fighter, fighters_of, wielding, with_attribute
from konflikt.rulesets.pwge.i18n import _, ngettext
from konflikt.rulesets.pwge.models import Setup, armoury
from konflikt.rulesets.pwge.rules import (
    LAST_MELEE,
    WOUND_LEVELS,
    closer,
    diplomatic_penalty,
    distance_label,
    farther,
    lose_tokens,
    melee_reach,
    ranged_band,
    relation_step,
    token_loss,
)

PHYSICAL = ("combat", "chase")


class PwgeState(State):
    """One PWGE conflict: combat, chase, diplomatic or social."""

    ruleset = "pwge"

    def __init__(self, scenario: Scenario, options: Options) -> None:
        super().__init__(options)
        setup: Setup = scenario.setup
        self.kind: str = setup.kind
        self.setup = setup
        self.side_ids: tuple[str, ...] = tuple(s.id for s in scenario.sides)
        self.own_side_names: tuple[str | Mapping[str, str], ...] = tuple(s.names or s.name for s in scenario.sides)
        """Each side's name as the scenario's side gives it (a string or a table of languages); :attr:`side_names`
        says it in the language in use, the setup's ``side_names`` first."""
        self.side_goals: tuple[str | None, ...] = tuple(s.goal for s in scenario.sides)
        """Each side's goal as the scenario states it ("vad de vill uppnå"), for the GM to declare reached."""
        self.people: tuple[Fighter, ...] = fighters_of(scenario)
        self.index: dict[str, int] = {f.pid: i for i, f in enumerate(self.people)}
        self.characters: tuple[Mapping[str, Any], ...] = tuple(p.data.model_dump() for p in scenario.participants())
        n = len(self.people)
        self.tokens: list[int] = [0] * n
        self.xp: list[int] = [f.experience_dice if options.experience_dice else 0 for f in self.people]
        self.body: list[int] = [f.body - (f.damage_taken if self.kind in PHYSICAL else 0) for f in self.people]
        """Kroppspoäng: physical ones in combat and chases, less the damage an earlier conflict left (physical damage
        carries over: only the social and diplomatic ones "återställs … mellan varje konflikt"); with the text's
        suggestion, the separate diplomatic or social ones, "som bestäms precis som vanligt" — as many as the physical
        ones, in full."""
        self.wounds: list[int] = [0] * n
        self.out: list[bool] = [self.kind in PHYSICAL and b <= 0 for b in self.body]
        """Out of the conflict: at 0 body points or below (Medvetslös), from the start when earlier damage left none."""
        self.points: list[int] = [0] * len(self.side_ids)
        self.dist: dict[tuple[int, int], int] = self._start_distances(scenario)
        self.dry_order: tuple[tuple[int, ...], ...] = ()
        """The sides whose pools ran dry, in the order they did; sides that ran dry in the same step together."""
        self.phase = "attribute"
        self.floor = 0
        self.passes = 0
        self.actions = 0
        """The conflict's length in the text's unit: handlingar (actions) declared, each with its answers, frislag
        included ("Detta upprepas tills …"). Not in :meth:`key`: it decides nothing that follows."""
        self.surprisers: tuple[int, ...] = ()
        self.surpriser_turn = 0
        """Which surpriser (an index into ``surprisers``) chooses its starting distance or frislag now."""
        self.ex: Exchange | None = None
        self.contest: Contest | None = None
        self.dmg: DamageRoll | None = None
        self.ending: tuple[str, tuple[str, ...], str] | None = None
        narration.kind_line(self)
        if all(f.chosen for f in self.people):
            self._begin()
        else:
            self.floor = self._next_unchosen(0)

    def _start_distances(self, scenario: Scenario) -> dict[tuple[int, int], int]:
        result: dict[tuple[int, int], int] = {}
        for i, a in enumerate(self.people):
            for j in range(i + 1, len(self.people)):
                b = self.people[j]
                if a.side == b.side:
                    continue
                if self.kind in PHYSICAL:
                    result[(i, j)] = self.setup.start_code()
                else:
                    field = "diplomatic_distance" if self.kind == "diplomatic" else "social_distance"
                    stored_a = self.characters[i][field].get(b.name)
                    stored_b = self.characters[j][field].get(a.name)
                    stored = stored_a if stored_a is not None else stored_b
                    result[(i, j)] = stored if stored is not None else self.setup.relation_distance
        return result

    def _next_unchosen(self, start: int) -> int:
        return next(i for i in range(start, len(self.people)) if not self.people[i].chosen)

    def _begin(self) -> None:
        """Every attribute is known: fill the pools, say them, and open with the surprise or the floor."""
        self.tokens = [f.pool for f in self.people]
        narration.opening(self)
        if self.setup.surprise is not None and self.kind in PHYSICAL:
            side = self.side_ids.index(self.setup.surprise)
            self.surprisers = tuple(i for i, f in enumerate(self.people) if f.side == side)
            self.phase = "surprise_distance"
        else:
            self.open_floor(start=0)
        if self.phase != "done" and endings.check(self):
            self.phase = "done"

    # ---- small queries ---------------------------------------------------------------------------------------
    @property
    def side_names(self) -> tuple[str, ...]:
        """Each side's name in the language in use: the setup's ``side_names`` table where it names the side, else
        the side's own ``name``."""
        tables = self.setup.side_names
        return tuple(
            localized(tables[side]) if side in tables else localized(name)
            for side, name in zip(self.side_ids, self.own_side_names, strict=True)
        )

    def pair(self, i: int, j: int) -> int:
        """The distance code between two participants (per pair of combatants)."""
        return self.dist[(i, j) if i < j else (j, i)]

    def longest(self, i: int, j: int) -> int:
        return max(self.people[i].melee_length, self.people[j].melee_length)

    def suggestion(self) -> bool:
        """Whether the text's suggestion of distance and damage in diplomatic and social conflicts is in play."""
        return self.kind not in PHYSICAL and bool(self.options.social_distance_and_damage)

    def tracks_body(self) -> bool:
        """Body points count in combat and chases, and in diplomacy and social conflicts with the suggestion."""
        return self.kind in PHYSICAL or self.suggestion()

    def distance_in_play(self) -> bool:
        """Distance matters in combat and chases; in diplomacy and social conflicts only with the suggestion ("Däremot
        är skada och avstånd inte aktuellt")."""
        return self.kind in PHYSICAL or self.suggestion()

    def can_spend(self, i: int) -> bool:
        """A participant may spend while standing with a token left (experience dice need one token too)."""
        return i >= 0 and not self.out[i] and self.tokens[i] > 0

    def may_pay_with_die(self, i: int) -> bool:
        """An unspent erfarenhetstärning may replace the token, while one token remains ("minst en marker kvar")."""
        return self.xp[i] > 0 and self.can_spend(i)

    def foes(self, i: int) -> list[int]:
        side = self.people[i].side
        return [j for j, f in enumerate(self.people) if f.side != side and not self.out[j]]

    def top_allowed(self, count: int) -> bool:
        limit: int = self.options.max_tops_per_roll
        return limit == 0 or count < limit

    def attack_mods(self, i: int, j: int, weapon: str, code: int) -> tuple[int, int, int] | None:
        """(attack modifier, difficulty modifier, damage modifier) of i attacking j at ``code``; None: no attack."""
        f = self.people[i]
        if weapon == "melee":
            reach = melee_reach(code, f.melee_length)
            if reach == "none":
                return None
            return f.attack_roll("melee") + (f.melee_bonus if reach == "optimal" else 0), 0, f.melee_damage
        if f.ranged is None:
            return None
        kort, max_range, damage = f.ranged
        band = ranged_band(code, kort, max_range, self.options.max_is_in_range)
        if band is None:
            return None
        return f.attack_roll("ranged"), band, damage

    def press_penalty(self, i: int, j: int) -> int:
        """What the diplomatic distance takes off a diplomatic move (only with the suggestion)."""
        if self.kind == "diplomatic" and self.suggestion() and self.options.diplomatic_distance_penalty:
            return diplomatic_penalty(self.pair(i, j))
        return 0

    def press_mod(self, i: int, j: int) -> int:
        return self.people[i].roll - self.press_penalty(i, j)

    def step_to(self, i: int, j: int, way: str, code: int | None = None) -> int | None:
        code = self.pair(i, j) if code is None else code
        if self.kind not in PHYSICAL:
            return relation_step(code, way)
        if way == "closer":
            return closer(code, self.longest(i, j))
        return farther(code, self.longest(i, j), self.setup.max_range)

    def deeds_against(self, i: int, j: int, reach_at: int | None = None) -> list[Action]:
        """The deeds i could aim at j now (attack, change distance, press), without the target argument.

        ``reach_at``: the distance code at which an attack would be made (a response to someone closing in is made
        where the closing lands); by default the pair's distance now.
        """
        out: list[Action] = []
        if self.kind in PHYSICAL:
            code = self.pair(i, j) if reach_at is None else reach_at
            for weapon in ("melee", "ranged"):
                if self.attack_mods(i, j, weapon, code) is not None:
                    out.append(Action.of("attack", weapon=weapon))
        else:
            out.append(Action.of("press"))
        if self.distance_in_play():
            for way in ("closer", "farther"):
                if self.step_to(i, j, way) is not None:
                    out.append(Action.of("distance", way=way))
        return out

    def other_deeds(self, i: int) -> list[Action]:
        """Any other handling (action), without the target: "Vad som helst som är en handling är giltigt"."""
        switches = [Action.of("switch", weapon=w) for w in self.people[i].carried]
        return [*switches, Action.of("other", roll=False), Action.of("other", roll=True)]

    def response_reach(self) -> int:
        """Where a response attack is made: where an uncountered closing lands ("slå tillbaka först": the target
        meets the one coming in), else at the pair's distance."""
        assert self.ex is not None
        deed = self.ex.action
        here = self.pair(deed.actor, deed.target)
        if deed.kind == "distance" and deed.way == "closer" and not deed.countered and self.kind in PHYSICAL:
            landing = self.step_to(deed.actor, deed.target, "closer")
            return here if landing is None else landing
        return here

    # ---- State hooks -----------------------------------------------------------------------------------------
    def seats(self) -> tuple[str, ...]:
        return tuple(f.pid for f in self.people)

    def seat_name(self, seat: str) -> str:
        i = self.index.get(seat)
        return super().seat_name(seat) if i is None else self.people[i].name

    def side_of(self, seat: str) -> str | None:
        i = self.index.get(seat)
        return None if i is None else self.side_ids[self.people[i].side]

    def current_player(self) -> str:
        phase = self.phase
        if phase == "done":
            return TERMINAL
        if phase == "order":
            return SIMULTANEOUS
        if phase == "contest":
            c = self.contest
            assert c is not None
            if c.a_roll is None or c.b_roll is None:
                return CHANCE
            asker = self.contest_asker()
            assert asker is not None
            return self.people[asker].pid
        if phase == "damage":
            d = self.dmg
            assert d is not None
            if d.roll is None:
                return CHANCE
            return self.people[d.defender if d.stage == "defender" else d.attacker].pid
        if phase in ("open", "attribute"):
            return self.people[self.floor].pid
        if phase in ("surprise_distance", "free_attack"):
            return self.people[self.surprisers[self.surpriser_turn]].pid
        assert self.ex is not None
        deed = self.ex.action
        return self.people[deed.actor if phase == "counter_response" else deed.target].pid

    def contest_asker(self) -> int | None:
        c = self.contest
        assert c is not None
        count = {c.a: c.a_tops, c.b: c.b_tops}
        for i in c.behind():
            if i not in c.declined and self.can_spend(i) and self.top_allowed(count[i]):
                return i
        return None

    def simultaneous_seats(self) -> tuple[str, ...]:
        if self.phase != "order":
            return ()
        assert self.ex is not None
        return tuple(self.people[i].pid for i in self.order_bidders())

    def order_bidders(self) -> tuple[int, ...]:
        assert self.ex is not None
        a = self.ex.action
        return tuple(i for i in (a.actor, a.target) if self.can_spend(i))

    def _legal_actions(self, seat: str) -> Sequence[Action]:
        if seat not in self.index or self.phase == "done":
            return ()
        i = self.index[seat]
        choices = list(self._choices(seat, i))
        if self.may_pay_with_die(i):
            choices += [Action.of(a.kind, **dict(a.args), pay="die") for a in choices if a.kind in SPENDING]
        return choices

    def _choices(self, seat: str, i: int) -> Sequence[Action]:
        """The choices of a seat now, each paid with a token where it costs one."""
        phase = self.phase
        if phase == "order":
            return (ORDER, NO_ORDER) if i in self.order_bidders() else ()
        if self.current_player() != seat:
            return ()
        if phase == "attribute":
            return [Action.of("attribute", name=name) for name in self.characters[i]["attributes"]]
        if phase == "open":
            acts = [
                Action.of(d.kind, target=self.people[j].pid, **dict(d.args))
                for j in self.foes(i)
                for d in [*self.deeds_against(i, j), *self.other_deeds(i)]
            ]
            return [*acts, PASS]
        if phase == "surprise_distance":
            top = LAST_MELEE + self.setup.max_range
            return [Action.of("start", distance=code) for code in range(top + 1)]
        if phase == "free_attack":
            free = [
                Action.of("free_attack", target=self.people[j].pid, weapon=weapon)
                for j in self.foes(i)
                for weapon in ("melee", "ranged")
                if self.attack_mods(i, j, weapon, self.pair(i, j)) is not None
            ]
            return [*free, NO_FREE_ATTACK]
        if phase in ("counter", "counter_response"):
            return (COUNTER, NO_COUNTER)
        if phase == "response":
            assert self.ex is not None
            actor = self.ex.action.actor
            deeds = self.deeds_against(i, actor, reach_at=self.response_reach())
            return [Action.of("respond", deed=d.kind, **dict(d.args)) for d in deeds] + [NO_RESPONSE]
        if phase == "contest":
            return (TOP, ACCEPT)
        if phase == "damage":
            d = self.dmg
            assert d is not None
            if d.stage == "attacker":
                return (TOP, ACCEPT)
            if d.stage == "defender":
                return (COUNTER_TOP, ACCEPT)
            return (COUNTER_COUNTER_TOP, REROLL)
        return ()

    def why_illegal(self, seat: str, action: Action) -> str:
        return narration.why_illegal(self, seat, action)

    def describe_action(self, seat: str, action: Action) -> str:
        return narration.describe_action(self, seat, action)

    def pending_roll(self) -> Dice | None:
        if self.phase == "contest" and self.contest is not None:
            c = self.contest
            if c.a_roll is None:
                return SumDice(2, 6, c.a_mod, "T")
            if c.b_roll is None:
                return SumDice(2, 6, c.b_mod, "T")
        if self.phase == "damage" and self.dmg is not None and self.dmg.roll is None:
            return SumDice(1, 6, self.dmg.modifier, "T")
        return None

    def roll_purpose(self) -> str:
        return narration.roll_purpose(self)

    # ---- applying --------------------------------------------------------------------------------------------
    def _apply(self, seat: str, action: Action) -> None:
        i = self.index[seat]
        die = paid_with_die(action)
        action = without_payment(action)
        phase = self.phase
        if phase == "attribute":
            self._apply_attribute(i, action)
        elif phase == "open":
            self._apply_open(i, action, die)
        elif phase == "surprise_distance":
            self._apply_start(i, action)
        elif phase == "free_attack":
            if action == NO_FREE_ATTACK:
                self.emit("free_attack", _("{name} gives up the free attack", name=self.people[i].name))
                self.next_surpriser()
            else:
                self._declare(i, action, free=True, die=False)
        elif phase == "counter":
            self._apply_counter(i, action, die)
        elif phase == "response":
            self._apply_response(i, action, die)
        elif phase == "counter_response":
            self._apply_counter_response(i, action, die)
        elif phase == "contest":
            resolution.apply_contest_choice(self, i, action, die)
        elif phase == "damage":
            resolution.apply_damage_choice(self, i, action, die)
        resolution.advance(self)
        self.note_dry_sides()

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        assert isinstance(outcome, int)
        if self.phase == "contest":
            c = self.contest
            assert c is not None
            who = "a" if c.a_roll is None else "b"
            if who == "a":
                c.a_roll = outcome
            else:
                c.b_roll = outcome
            narration.contest_roll(self, c, who, outcome)
        else:
            d = self.dmg
            assert d is not None
            d.roll = outcome
            narration.damage_roll(self, d)
        resolution.advance(self)
        self.note_dry_sides()

    def _apply_joint(self, actions: Mapping[str, Action]) -> None:
        assert self.ex is not None
        ex = self.ex
        bids = sorted(self.index[s] for s, a in actions.items() if a.kind == ORDER.kind)
        for i in bids:
            self.spend(i, _("order"), paid_with_die(actions[self.people[i].pid]))
        actor, target = ex.action.actor, ex.action.target
        if len(bids) == 2:
            self.emit("order", _("both sides set order: both make an order roll"))
            self.begin_contest(
                Contest(
                    "order",
                    actor,
                    target,
                    self.people[actor].attribute,
                    self.people[target].attribute,
                    tie="none",
                    label=_("order roll"),
                    a_parts=narration.attribute_parts(self.people[actor]),
                    b_parts=narration.attribute_parts(self.people[target]),
                )
            )
        else:
            self.settle_order("simultaneous" if not bids else ("action" if bids[0] == actor else "response"))
        resolution.advance(self)
        self.note_dry_sides()

    # ---- the start: the attribute in use ----------------------------------------------------------------------
    def _apply_attribute(self, i: int, action: Action) -> None:
        name = str(action["name"])
        value = int(self.characters[i]["attributes"][name])
        self.people = (*self.people[:i], with_attribute(self.people[i], name, value), *self.people[i + 1 :])
        attributes = self.characters[i]["attributes"]
        highest = value == max(attributes.values()) and len(attributes) > 1
        fields = {"name": self.people[i].name, "attribute": name, "value": value, "count": len(attributes)}
        if highest:
            text = _("{name} takes {attribute} {value} as the attribute in use, the highest of {count}", **fields)
        else:
            text = _(
                "{name} takes {attribute} {value} as the attribute in use",
                name=fields["name"],
                attribute=name,
                value=value,
            )
        self.emit("attribute", text, seat=self.people[i].pid)
        if all(f.chosen for f in self.people):
            self._begin()
        else:
            self.floor = self._next_unchosen(i + 1)

    # ---- the open table and declarations -----------------------------------------------------------------------
    def open_floor(self, start: int) -> None:
        """Give the floor to the first participant able to act, from ``start`` round the table."""
        n = len(self.people)
        for k in range(n):
            i = (start + k) % n
            if self.can_spend(i):
                self.floor = i
                self.phase = "open"
                return
        self.phase = "done"
        if not endings.check(self):
            self.record_ending("deadlock", (), _("nobody has a token left to act with"))

    def _apply_open(self, i: int, action: Action, die: bool) -> None:
        if action == PASS:
            self.passes += 1
            able = sum(1 for k in range(len(self.people)) if self.can_spend(k))
            text = _(
                "{name} passes (lets the floor go) — {passes} of {able} in a row",
                name=self.people[i].name,
                passes=self.passes,
                able=able,
            )
            self.emit("pass", text)
            if self.passes >= able:
                self.record_ending("deadlock", (), _("nobody wants to start a new action"))
                self.phase = "done"
                return
            self.open_floor(i + 1)
            return
        self.passes = 0
        self._declare(i, action, free=False, die=die)

    def _declare(self, i: int, action: Action, *, free: bool, die: bool) -> None:
        j = self.index[action["target"]]
        kind = "attack" if action.kind == "free_attack" else action.kind
        deed = Deed(
            "action",
            i,
            j,
            kind,
            action.get("weapon", ""),
            action.get("way", ""),
            free=free,
            rolled=bool(action.get("roll", False)),
        )
        if not free:
            self.spend(i, _("an action"), die)
        self.actions += 1
        self.ex = Exchange(deed, self.pair(i, j))
        narration.declared(self, deed)
        if self.can_spend(j):
            self.phase = "counter"
        else:
            self._after_counter()

    def _apply_start(self, i: int, action: Action) -> None:
        code = int(action["distance"])
        for j in self.foes(i):
            self.set_pair(i, j, code)
        self.emit(
            "start",
            _(
                "{name} surprises the others and chooses the starting distance: {distance}",
                name=self.people[i].name,
                distance=distance_label(code),
            ),
            distance=code,
        )
        self.surpriser_turn += 1
        if self.surpriser_turn >= len(self.surprisers):
            self.surpriser_turn = 0
            if self.options.free_attack:
                self.phase = "free_attack"
                self._skip_surprisers()
            else:
                self.open_floor(0)

    def _skip_surprisers(self) -> None:
        while self.surpriser_turn < len(self.surprisers) and self.out[self.surprisers[self.surpriser_turn]]:
            self.surpriser_turn += 1
        if self.surpriser_turn >= len(self.surprisers):
            self.open_floor(0)
        else:
            self.phase = "free_attack"

    def next_surpriser(self) -> None:
        self.surpriser_turn += 1
        self._skip_surprisers()

    def _apply_counter(self, i: int, action: Action, die: bool) -> None:
        assert self.ex is not None
        if action == COUNTER:
            self.spend(i, _("a counter"), die)
            self.ex.action = replace(self.ex.action, countered=True)
            narration.countered(self, self.ex.action)
        self._after_counter()

    def _after_counter(self) -> None:
        assert self.ex is not None
        deed = self.ex.action
        if not deed.free and self.can_spend(deed.target):
            self.phase = "response"
        else:
            self._to_order()

    def _apply_response(self, i: int, action: Action, die: bool) -> None:
        assert self.ex is not None
        ex = self.ex
        if action == NO_RESPONSE:
            self._to_order()
            return
        self.spend(i, _("a response"), die)
        reach = self.response_reach()
        meets = action["deed"] == "attack" and reach != self.pair(i, ex.action.actor)
        ex.response = Deed(
            "response",
            i,
            ex.action.actor,
            action["deed"],
            action.get("weapon", ""),
            action.get("way", ""),
            at=reach if meets else -1,
        )
        narration.declared(self, ex.response)
        if self.can_spend(ex.action.actor):
            self.phase = "counter_response"
        else:
            self._to_order()

    def _apply_counter_response(self, i: int, action: Action, die: bool) -> None:
        assert self.ex is not None and self.ex.response is not None
        if action == COUNTER:
            self.spend(i, _("a counter against the response"), die)
            self.ex.response = replace(self.ex.response, countered=True)
            narration.countered(self, self.ex.response)
        self._to_order()

    def _to_order(self) -> None:
        assert self.ex is not None
        if self.ex.response is not None and self.order_bidders():
            self.phase = "order"
        else:
            self.queue_deeds()

    def queue_deeds(self) -> None:
        ex = self.ex
        assert ex is not None
        if ex.response is None:
            ex.queue = (ex.action,)
        elif ex.order == "response":
            ex.queue = (ex.response, ex.action)
        else:
            ex.queue = (ex.action, ex.response)
        if ex.response is not None:
            narration.order(self, ex)
        ex.pos = 0
        self.phase = "resolve"

    # ---- the state's own changes, each one rule ----------------------------------------------------------------
    def spend(self, i: int, purpose: str, die: bool = False) -> None:
        """Pay one marker (token) — or, by the spender's choice, an erfarenhetstärning (experience die) instead,
        while a token remains ("Man kan alltså spendera en erfarenhetstärning istället för en marker")."""
        f = self.people[i]
        if die:
            assert self.may_pay_with_die(i), "an experience die needs the option, a die and a token in the pool"
            self.xp[i] -= 1
            self.emit(
                "spend",
                ngettext(
                    "{name} spends 1 experience die instead of a token on {purpose} — {tokens} and {n} experience "
                    "die left",
                    "{name} spends 1 experience die instead of a token on {purpose} — {tokens} and {n} experience "
                    "dice left",
                    self.xp[i],
                    name=f.name,
                    purpose=purpose,
                    tokens=narration.tokens_word(self.tokens[i]),
                ),
                seat=f.pid,
                tokens=self.tokens[i],
                experience_dice=self.xp[i],
            )
            return
        self.tokens[i] -= 1
        self.emit(
            "spend",
            _("{name} spends 1 token on {purpose} — {left} left", name=f.name, purpose=purpose, left=self.tokens[i]),
            seat=f.pid,
            tokens=self.tokens[i],
        )

    def set_pair(self, i: int, j: int, code: int) -> None:
        """The pair's distance is now ``code`` (a distance change, or a surpriser's choice of starting distance)."""
        self.dist[(i, j) if i < j else (j, i)] = code

    def wield(self, i: int, weapon: str) -> None:
        """A handling switched weapons: the new one's length, bonus and damage count from now on."""
        self.people = (*self.people[:i], wielding(self.people[i], weapon), *self.people[i + 1 :])

    def gain_ground(self, side: int) -> None:
        """A successful utspel/framstöt without the suggestion's damage: one step toward the side's goal."""
        self.points[side] += 1

    def suffer_damage(self, j: int, points: int, level: int) -> int:
        """'Bli skadad': the body points drop, the pool loses 1/2/3/5 tokens by wound level; at 0 body points the
        person is out. Returns the tokens before the hit."""
        before = self.tokens[j]
        self.tokens[j] = lose_tokens(before, level)
        self.body[j] -= points
        self.wounds[j] = max(self.wounds[j], level)
        if self.body[j] <= 0:
            self.out[j] = True
        return before

    def next_deed(self) -> None:
        """The deed at hand is done (or does not happen): the next one in the exchange's queue."""
        assert self.ex is not None
        self.ex.pos += 1

    def settle_order(self, order: str) -> None:
        """The turordning is settled (``simultaneous``, ``action`` or ``response`` first): queue the deeds."""
        assert self.ex is not None
        self.ex.order = order
        self.queue_deeds()

    def begin_contest(self, contest: Contest) -> None:
        self.contest = contest
        self.phase = "contest"

    def end_contest(self) -> None:
        self.contest = None
        self.phase = "resolve"

    def begin_damage(self, roll: DamageRoll) -> None:
        self.dmg = roll
        self.phase = "damage"

    def end_damage(self) -> None:
        """The damage is marked: the exchange goes on with its next deed."""
        assert self.ex is not None
        self.dmg = None
        self.phase = "resolve"
        self.next_deed()

    def close_exchange(self) -> None:
        """The exchange is over: check the endings, then the floor (or the next frislag) goes on."""
        ex = self.ex
        assert ex is not None
        self.ex = None
        if endings.check(self):
            self.phase = "done"
            return
        if ex.action.free:
            self.next_surpriser()
            return
        self.passes = 0
        self.open_floor(ex.action.actor + 1)

    def deeds_together(self) -> bool:
        """Whether an action and its response are resolving now, samtidigt (simultaneously): "En handling och dess
        svarshandling inträffar samtidigt, om man inte vill sätta turordning på endera av dem"."""
        ex = self.ex
        return ex is not None and ex.response is not None and ex.order == "simultaneous" and bool(ex.queue)

    def note_dry_sides(self) -> None:
        """Remember the sides whose pools have just run dry, in order ("Ena sidans handlingspöl tar slut före den
        andra sidans"): sides that ran dry in the same step (the secret order bids) ran dry together, and so did
        sides emptied while a simultaneous action and response resolve (their blows, their tops and their damage
        happen at once: noted when the exchange closes). Before the attributes are chosen no pool is filled yet, so
        none can run dry."""
        if self.phase == "attribute" or self.deeds_together():
            return
        recorded = {s for group in self.dry_order for s in group}
        newly = tuple(s for s in range(len(self.side_ids)) if s not in recorded and not endings.side_can_act(self, s))
        if newly:
            self.dry_order = (*self.dry_order, newly)

    def goal_sides(self) -> dict[str, tuple[str, str | None]]:
        """Every side, with its name and its goal as the scenario states it: "Det första man ska göra i en konflikt
        är att definiera den, närmare bestämt avgöra vilka som är inblandade i den och vad de vill uppnå"."""
        return {
            side: (name, goal) for side, name, goal in zip(self.side_ids, self.side_names, self.side_goals, strict=True)
        }

    def _end_by_goal(self, side: str, goal: str) -> None:
        """The GM declares ``side``'s goal reached: "Om ena sidan uppnår sitt mål innan handlingspölen är slut så är
        det inte så mycket att orda om. Den ena sidan har i så fall uppnått sitt mål." The conflict ends where it
        stands — an exchange, a roll or a damage roll under way is dropped, every pool, body point and wound kept
        (the core narrates the declaration)."""
        name = self.side_names[self.side_ids.index(side)]
        self.ex, self.contest, self.dmg = None, None, None
        self.phase = "done"
        self.ending = (
            GOAL_REACHED,
            (side,),
            _("{side} reaches its goal, as the GM declares: {goal}", side=name, goal=goal),
        )

    def record_ending(self, ending: str, winners: tuple[str, ...], summary: str) -> None:
        """Record the ending and say it."""
        self.ending = (ending, winners, summary)
        text = _("The conflict ends: {summary}", summary=summary)
        self.emit("ending", text, ending=ending, winners=list(winners))

    # ---- outcome, views, key ---------------------------------------------------------------------------------
    def _outcome(self) -> ConflictOutcome:
        return endings.outcome(self)

    def status(self) -> dict[str, dict[str, str]]:
        return narration.status(self)

    def _view(self, seat: str) -> dict[str, Any]:
        return {"kind": self.kind, "phase": self.phase, "status": self.status()}

    def key(self) -> Hashable:
        return (
            self.phase,
            self.floor,
            self.passes,
            self.surpriser_turn,
            tuple((f.attribute_name, f.melee_key, f.ranged_key) for f in self.people),
            tuple(self.tokens),
            tuple(self.xp),
            tuple(self.body),
            tuple(self.out),
            tuple(self.wounds),
            tuple(self.points),
            tuple(sorted(self.dist.items())),
            self.dry_order,
            self.ex.key() if self.ex else None,
            self.contest.key() if self.contest else None,
            self.dmg.key() if self.dmg else None,
            self.ending,
        )

    # ---- what the table shows beside the choices (at_table.py) ------------------------------------------------
    def setup_facts(self) -> dict[str, dict[str, str]]:
        return at_table.setup_facts(self)

    def roll_stakes(self) -> list[tuple[str, Fraction]]:
        return at_table.roll_stakes(self)

    def ending_words(self, ending: str) -> str:
        return at_table.ending_words(ending) or super().ending_words(ending)

    def correctable(self) -> dict[str, dict[str, tuple[int, int, int]]]:
        """The GM may set each person's handlingspöl (action pool: tokens left) by hand, from 0 to the full pool."""
        return {f.pid: {"handlingspöl": (self.tokens[i], 0, f.pool)} for i, f in enumerate(self.people)}

    def _correct(self, seat: str, name: str, value: int) -> None:
        self.tokens[self.index[seat]] = value

    def invariants(self) -> list[str]:
        broken = []
        for i, f in enumerate(self.people):
            if not 0 <= self.tokens[i] <= f.pool:
                broken.append(f"{f.pid}: tokens {self.tokens[i]} outside 0–{f.pool}")
            if not 0 <= self.xp[i] <= f.experience_dice:
                broken.append(f"{f.pid}: experience dice {self.xp[i]} outside 0–{f.experience_dice}")
            if self.tracks_body() and self.out[i] != (self.body[i] <= 0):
                broken.append(f"{f.pid}: out={self.out[i]} but body points {self.body[i]}")
            if not 0 <= self.wounds[i] < len(WOUND_LEVELS):
                broken.append(f"{f.pid}: wound level {self.wounds[i]}")
            arms = armoury()
            if f.melee_key not in arms.melee or (f.ranged_key and f.ranged_key not in arms.ranged):
                broken.append(f"{f.pid}: unknown weapon in hand")
        for (i, j), code in self.dist.items():
            top = LAST_MELEE + self.setup.max_range if self.kind in PHYSICAL else 10
            if not 0 <= code <= top:
                broken.append(f"distance {self.people[i].pid}–{self.people[j].pid} = {code} outside 0–{top}")
        return broken


__all__ = ["PwgeState", "token_loss"]
