"""The Fimbulfrost conflict as a state machine: three rounds (Omdømme; Stil, Stunt og Snak; Ressourcer) against one
opponent, with consequence purchases (konsekvenser) as decisions of the seats.

Every roll is one chance node: one SuccessPool per hero per round (the 1s are each hero's own mishaps), and one for
the opponent's answer. Consequences, buy-back and the opponent's split are "asks" queued before the next phase, so
the flow stays a plain loop (see :meth:`FimbulfrostState._advance`). The state is plain ints, lists and tuples.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.i18n import localized
from konflikt.core.options import Options
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, TERMINAL
from konflikt.dice import PoolRoll, SuccessPool
from konflikt.rulesets.fimbulfrost import at_table
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.i18n import _, ngettext
from konflikt.rulesets.fimbulfrost.models import Catalogue, Character, Entry, load_catalogue
from konflikt.rulesets.fimbulfrost.narrate import Narration
from konflikt.rulesets.fimbulfrost.rules import (
    AREAS,
    POOL_OPTION,
    POOLS,
    Round3Option,
    absorb,
    available_entries,
    buy_back_count,
    compositions,
    consequence_count,
    effects_already_true,
    hero_list,
    loss_shares,
    maneuver_bit,
    opponent_entries,
    points_below_zero,
    presentation_dice,
    success_pool,
)

STANDING, OUT, DEAD = 0, 1, 2
VICTORY, LOSS, GOAL = 1, 2, 3
"""How the conflict was decided: the opponent defeated, the heroes beaten, or a side's goal reached (the GM's word)."""
POOL_OF_KIND = {"armour": 0, "gear": 1, "weapon": 2}


class FimbulfrostState(Narration):
    """Heroes (helte) against one opponent (modstander), round by round."""

    ruleset = "fimbulfrost"
    shared = ("chars", "opp", "catalogue", "carried", "hero_ids", "names", "sides")
    """Scenario data never changed during a conflict: copies share it (``State.fork`` is the generic fast copy)."""

    def __init__(self, scenario: Scenario, options: Options, catalogue: Catalogue | None = None) -> None:
        super().__init__(options)
        parts = scenario.participants()
        heroes = [p for p in parts if p.data.role == "hero"]
        opp = next(p for p in parts if p.data.role == "opponent")
        self.hero_ids: tuple[str, ...] = tuple(p.id for p in heroes)
        self.names: tuple[str, ...] = tuple(p.name for p in heroes)
        self.chars: tuple[Character, ...] = tuple(p.data for p in heroes)
        self.hero_side = heroes[0].side
        self.sides: tuple[tuple[str, str, str | None], ...] = tuple((s.id, s.name, s.goal) for s in scenario.sides)
        """Each side as the scenario names it: (id, name, its stated goal or None)."""
        self.opp_id, self.opp_name, self.opp_side = opp.id, opp.name, opp.side
        self.opp: Character = opp.data
        self.catalogue = catalogue or load_catalogue(scenario.setup.lists_path(scenario.source))
        n = len(heroes)
        self.n = n
        self.carried: tuple[frozenset[str], ...] = tuple(
            frozenset(c.konsekvenser) if options.carried_consequences_count else frozenset() for c in self.chars
        )
        # ---- the rule state (everything below goes into key()) ----
        self.phase = P.PRESENT
        self.round = 1
        self.cursor = 0
        self.opp_status = self.opp.status
        self.result = 0
        self.hits = 0
        self.asks: list[tuple[str, int, int, int]] = []  # (kind, hero index, count, round)
        self.hstatus = [c.status for c in self.chars]
        self.morale = [0] * n
        self.fate = [STANDING] * n
        self.back = [False] * n
        self.presenter = [-1] * n
        self.rolls: list[PoolRoll | None] = [None] * n
        self.areas = [0] * n
        self.dice = [0] * n
        self.used = [0] * n
        self.done = [False] * n
        self.pools = [[c.rustning, c.grej, c.vaaben] for c in self.chars]
        self.taken: list[list[str]] = [[] for _ in range(n)]
        self.borrowed = [0] * n
        self.opp_taken: list[str] = []
        self.goal: tuple[str, str] | None = None  # (side, goal in words) once the GM declares a goal reached
        # narration only (not in key()): the last round whose outcome the table was asked to describe (Trin 4D / 3D)
        self.described = 0
        self.emit(
            "start",
            _(
                "Combat in three rounds: {heroes} against {opponent} (Reputation {reputation}, Fight {fight}, "
                "Status {status}). Round 1: Reputation.",
                heroes=", ".join(self.names),
                opponent=self.opp_name,
                reputation=self.opp.omdomme,
                fight=self.opp.kamp,
                status=self.opp.status,
            ),
            opponent_status=self.opp.status,
        )

    # ---- seats and nodes --------------------------------------------------------------------------------------
    def seats(self) -> tuple[str, ...]:
        return (*self.hero_ids, self.opp_id)

    def seat_name(self, seat: str) -> str:
        if seat == self.opp_id:
            return self.opp_name
        return self.names[self.hero_ids.index(seat)] if seat in self.hero_ids else super().seat_name(seat)

    def side_of(self, seat: str) -> str | None:
        return self.opp_side if seat == self.opp_id else self.hero_side if seat in self.hero_ids else None

    def current_player(self) -> str:
        if self.asks:
            return self.hero_ids[self.asks[0][1]]
        phase = self.phase
        if phase == P.END:
            return TERMINAL
        if phase in P.CHANCE_PHASES:
            return CHANCE
        if phase == P.HIT:
            return self.opp_id
        return self.hero_ids[self.cursor]

    def standing(self) -> list[int]:
        return [i for i in range(self.n) if self.fate[i] == STANDING]

    def friends(self, i: int) -> list[int]:
        return [j for j in self.standing() if j != i]

    # ---- legal actions ----------------------------------------------------------------------------------------
    def _legal_actions(self, seat: str) -> Sequence[Action]:
        if seat != self.current_player():
            return ()
        if self.asks:
            return self._ask_actions()
        phase, i = self.phase, self.cursor
        if phase == P.PRESENT:
            return [Action.of("present", by=self.hero_ids[j]) for j in self._presenters(i)]
        if phase == P.R1_SPLIT:
            roll = self.rolls[i]
            assert roll is not None
            friends = self.friends(i)
            out = []
            for share in compositions(roll.successes, 1 + len(friends)):
                morale = {f"morale_{self.hero_ids[f]}": m for f, m in zip(friends, share[1:], strict=True) if m}
                out.append(Action.of("split", opponent=share[0], **morale))
            return out
        if phase == P.HIT:
            targets = self.standing()
            return [
                Action.of("hit", **{self.hero_ids[t]: d for t, d in zip(targets, share, strict=True) if d})
                for share in compositions(self.hits, len(targets))
            ]
        if phase == P.R2_DESCRIBE:
            return [
                Action.of("describe", **{a: bool(mask >> k & 1) for k, a in enumerate(AREAS)})
                for mask in range(7, -1, -1)
            ]
        if phase == P.R2_WEAPON:
            return [Action.of("weapon", dice=k) for k in range(self.pools[i][2] + 1)]
        if phase == P.R3_TURN:
            return self._round3_actions(i)
        return ()

    def _presenters(self, i: int) -> list[int]:
        """Who may present hero ``i``: himself or a friend; under one_each only heroes who presented nobody yet."""
        if self.options.presenters == "any":
            return [i, *(j for j in range(self.n) if j != i)]
        used = {p for p in self.presenter if p >= 0}
        return [j for j in [i, *(j for j in range(self.n) if j != i)] if j not in used]

    def _round3_actions(self, i: int) -> list[Action]:
        opts, used, pools = self.options, self.used[i], self.pools[i]
        out: list[Action] = []
        if not used & Round3Option.WILDER and self.n > 1 and (self.areas[i] or not opts.wilder_needs_round2):
            out += [Action.of("wilder", by=self.hero_ids[j]) for j in range(self.n) if j != i]
        for kind in ("armour", "gear", "weapon"):
            if kind == "weapon" and not opts.weapon_pool:
                continue
            if not used & POOL_OPTION[kind]:
                out += [Action.of(kind, dice=k) for k in range(1, pools[POOL_OF_KIND[kind]] + 1)]
        for j, m in enumerate(self.chars[i].manovrer):
            if not used & maneuver_bit(j):
                out.append(Action.of("maneuver", id=m.id))
        if opts.borrowed_time and not used & Round3Option.BORROWED:
            out.append(Action.of("borrowed_time"))
        if opts.questions and not used & Round3Option.QUESTION:
            out.append(Action.of("answer"))
        out.append(Action.of("done"))
        return out

    def _ask_actions(self) -> list[Action]:
        kind = self.asks[0][0]
        if kind == "back":
            return [Action.of("buy_back"), Action.of("stay_out")]
        entries = self.ask_entries()
        acts = [Action.of("consequence", entry=e.id) for e in entries]
        if kind == "opp":
            acts.append(Action.of("spare"))
        return acts

    def ask_entries(self) -> tuple[Entry, ...]:
        """The entries the first queued consequence may take (hero's own list, or the defeated opponent's)."""
        kind, i, _, round_no = self.asks[0]
        if kind == "opp":
            return opponent_entries(self.catalogue, self.opp.nederlagsliste, round_no, self.opp_taken)
        return self.hero_entries(i, round_no)

    def hero_entries(self, i: int, round_no: int, allow_death: bool | None = None) -> tuple[Entry, ...]:
        """The entries hero ``i`` may buy from his own list in ``round_no``: every one not yet chosen, death when
        allowed (forced when nothing else is left); under konflikt's own option ``consequence_must_cost`` only those
        that cost him something."""
        return available_entries(
            self.catalogue,
            hero_list(self.catalogue, self.opp.konsekvensliste, round_no),
            round_no,
            [*self.taken[i], *self.carried[i]],
            allow_death=(round_no != 1 or self.options.round1_death) if allow_death is None else allow_death,
            already_true=self.already_true(i) if self.options.consequence_must_cost else frozenset(),
        )

    def already_true(self, i: int) -> frozenset[str]:
        """The effects a consequence could have that are already true of hero ``i`` now (an empty pool, Omdømme 0)."""
        return effects_already_true(self.pools[i], self.chars[i].omdomme)

    # ---- applying decisions -----------------------------------------------------------------------------------
    def _apply(self, seat: str, action: Action) -> None:
        if self.asks:
            self._apply_ask(action)
        else:
            getattr(self, "_do_" + action.kind)(self.cursor, action)
        self._advance()

    def _do_present(self, i: int, action: Action) -> None:
        j = self.hero_ids.index(action["by"])
        self.presenter[i] = j
        self.say_present(i, j, presentation_dice(self.chars[i].omdomme_this_fight, i == j))
        self.cursor += 1

    def _do_split(self, i: int, action: Action) -> None:
        to_opp = int(action["opponent"])
        self.opp_status -= to_opp
        gifts = []
        for j in self.friends(i):
            m = int(action.get(f"morale_{self.hero_ids[j]}", 0))
            if m:
                self.morale[j] += m
                gifts.append((j, m))
        self.say_split(i, to_opp, gifts)
        self.cursor += 1

    def _do_hit(self, i: int, action: Action) -> None:
        self._deal_damage({t: int(action.get(self.hero_ids[t], 0)) for t in self.standing()})

    def _do_describe(self, i: int, action: Action) -> None:
        mask = sum(1 << k for k, a in enumerate(AREAS) if action[a])
        self.areas[i] = mask
        self.dice[i] = bin(mask).count("1")
        self.say_describe(i, mask)
        if self.options.weapon_pool and self.pools[i][2] > 0:
            self.phase = P.R2_WEAPON
        else:
            self.cursor += 1

    def _do_weapon(self, i: int, action: Action) -> None:
        k = int(action["dice"])
        self.pools[i][2] -= k
        self.dice[i] += k
        if self.phase == P.R2_WEAPON:
            self.say(
                i,
                "weapon",
                ngettext(
                    "{name} rolls {n} die of the weapon pool in round 2",
                    "{name} rolls {n} dice of the weapon pool in round 2",
                    k,
                    name=self.names[i],
                ),
                k,
            )
            self.phase = P.R2_DESCRIBE
            self.cursor += 1
        else:
            self._mark_used(i, Round3Option.WEAPON)
            self.say(i, "weapon", _("{name}: weapon pool → +{dice}d6", name=self.names[i], dice=k), k)
            self._next_turn()

    def _do_armour(self, i: int, action: Action) -> None:
        self._take_pool(i, "armour", int(action["dice"]))

    def _do_gear(self, i: int, action: Action) -> None:
        self._take_pool(i, "gear", int(action["dice"]))

    def _take_pool(self, i: int, kind: str, k: int) -> None:
        self.pools[i][POOL_OF_KIND[kind]] -= k
        self.dice[i] += k
        self._mark_used(i, POOL_OPTION[kind])
        fields = {"name": self.names[i], "dice": k, "total": self.dice[i]}
        if kind == "armour":
            text = _(
                "{name}: Armour pool: describes the armour's part in the fight → +{dice}d6 ({total}d6 gathered)",
                **fields,
            )
        else:
            text = _(
                "{name}: Gear pool: describes the gear's part in the fight → +{dice}d6 ({total}d6 gathered)", **fields
            )
        self.say(i, kind, text, k)
        self._next_turn()

    def _do_wilder(self, i: int, action: Action) -> None:
        j = self.hero_ids.index(action["by"])
        self._mark_used(i, Round3Option.WILDER)
        self.dice[i] += 1
        self.say(
            i,
            "wilder",
            _(
                "{name}: 'It must be even wilder': {friend} re-tells the round-2 deeds, wilder → +1d6 ({total}d6 "
                "gathered)",
                name=self.names[i],
                friend=self.names[j],
                total=self.dice[i],
            ),
            1,
        )
        self._next_turn()

    def _do_maneuver(self, i: int, action: Action) -> None:
        j, m = next((j, m) for j, m in enumerate(self.chars[i].manovrer) if m.id == action["id"])
        self._mark_used(i, maneuver_bit(j))
        self.dice[i] += m.dice
        self.say(
            i,
            "maneuver",
            _(
                "{name}: maneuver {maneuver} → +{dice}d6 ({total}d6 gathered)",
                name=self.names[i],
                maneuver=localized(m.name),
                dice=m.dice,
                total=self.dice[i],
            ),
            m.dice,
        )
        self._next_turn()

    def _do_borrowed_time(self, i: int, action: Action) -> None:
        k = self.options.borrowed_time_dice
        self._mark_used(i, Round3Option.BORROWED)
        self.borrowed[i] += 1
        self.dice[i] += k
        self.say(
            i,
            "borrowed_time",
            _(
                "{name} lives on borrowed time → +{dice}d6; the GM may set a death scene later ({total}d6 gathered)",
                name=self.names[i],
                dice=k,
                total=self.dice[i],
            ),
            k,
        )
        self._next_turn()

    def _do_answer(self, i: int, action: Action) -> None:
        k = self.options.question_dice
        self._mark_used(i, Round3Option.QUESTION)
        self.dice[i] += k
        self.say(i, "answer", _("{name} answers a question → +{dice}d6", name=self.names[i], dice=k), k)
        self._next_turn()

    def _do_done(self, i: int, action: Action) -> None:
        self.done[i] = True
        self.say(
            i, "done", _("{name} takes no more options ({total}d6 gathered)", name=self.names[i], total=self.dice[i]), 0
        )
        self._next_turn()

    def _mark_used(self, i: int, option: int) -> None:
        """Hero ``i`` has taken a round-3 option: its bit in his mask (kept a plain int, as in ``key()``)."""
        self.used[i] = int(self.used[i] | option)

    def _next_turn(self) -> None:
        """Round 3, step 1: the players take turns until each has done all or wants no more."""
        for step in range(1, self.n + 1):
            j = (self.cursor + step) % self.n
            if self.fate[j] != STANDING or self.done[j]:
                continue
            if len(self._round3_actions(j)) == 1:  # only 'done' is left: nothing more to take
                self.done[j] = True
                continue
            self.cursor = j
            return
        self.phase, self.cursor = P.R3_ROLL, 0

    # ---- consequences and buy-back ------------------------------------------------------------------------------
    def _apply_ask(self, action: Action) -> None:
        kind, i, count, round_no = self.asks[0]
        if action.kind == "buy_back":  # the ask holds the points below 0
            cost = buy_back_count(count, self.points)
            self.asks[0] = ("cons", i, cost, round_no)
            self.hstatus[i], self.fate[i], self.back[i] = 1, STANDING, True
            self.say_buy_back(i, cost)
            return
        if action.kind == "stay_out":
            cost = consequence_count(count, self.points)
            self.asks[0] = ("cons", i, cost, round_no)
            if not cost:
                self.asks.pop(0)
            self.say(
                i,
                "stay_out",
                ngettext(
                    "{name} stays out of the fight ({n} consequence)",
                    "{name} stays out of the fight ({n} consequences)",
                    cost,
                    name=self.names[i],
                ),
                cost,
            )
            return
        if action.kind == "spare":
            self.asks.pop(0)
            self.say(
                i, "spare", _("the heroes buy no more consequences for {opponent} (spared)", opponent=self.opp_name), 0
            )
            return
        entry = self.catalogue.entry(str(action["entry"]))
        if kind == "opp":
            self.opp_taken.append(entry.id)
            self.say_opp_consequence(i, entry, count - 1)
            nxt = self._next_buyer(i)
            self.asks[0] = ("opp", nxt, count - 1, round_no)
            if entry.death or count == 1:
                self.asks.pop(0)
            return
        self.taken[i].append(entry.id)
        if entry.loses is not None:
            self.pools[i][POOLS.index(entry.loses)] = 0
        self.say_consequence(i, entry, count - 1, for_mishap=kind == "mishap")
        if entry.death:
            self.fate[i], self.morale[i] = DEAD, 0
            self.asks = [a for a in self.asks if a[0] == "opp" or a[1] != i]
            return
        if count == 1:
            self.asks.pop(0)
        else:
            self.asks[0] = (kind, i, count - 1, round_no)

    def _next_buyer(self, i: int) -> int:
        for step in range(1, self.n + 1):
            j = (i + step) % self.n
            if self.fate[j] == STANDING:
                return j
        return i

    def _queue(self, kind: str, i: int, count: int, round_no: int) -> None:
        if count > 0:
            self.asks.append((kind, i, count, round_no))

    # ---- chance -----------------------------------------------------------------------------------------------
    def pending_roll(self) -> SuccessPool | None:
        if self.asks or self.phase not in P.CHANCE_PHASES:
            return None
        if self.phase == P.R1_ANSWER:
            return success_pool(self.opp.omdomme)
        if self.phase == P.R2_KAMP:
            return success_pool(self.opp.kamp)
        return success_pool(self._dice_of(self.cursor))

    def round_number(self) -> int | None:
        """The runde (round) being played, for front ends that report once a round."""
        return self.round

    def roll_purpose(self) -> str:
        if self.phase == P.R1_ANSWER:
            return _("{opponent}'s Reputation roll (frightening the heroes)", opponent=self.opp_name)
        if self.phase == P.R2_KAMP:
            return _("{opponent}'s Fight roll (striking back)", opponent=self.opp_name)
        name = self.names[self.cursor]
        if self.phase == P.R1_ROLL:
            i = self.cursor
            if self.presenter[i] == i:
                return _("{name}'s Reputation roll (presenting himself)", name=name)
            return _(
                "{name}'s Reputation roll (presented by {friend})", name=name, friend=self.names[self.presenter[i]]
            )
        if self.phase == P.R2_ROLL:
            return _("{name}'s Style, Stunt and Talk roll", name=name)
        return _("{name}'s Resources roll (the final roll)", name=name)

    def _dice_of(self, i: int) -> int:
        if self.phase == P.R1_ROLL:
            return presentation_dice(self.chars[i].omdomme_this_fight, self.presenter[i] == i)
        return self.dice[i]

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        roll = PoolRoll(*outcome)  # type: ignore[misc]
        phase = self.phase
        if phase in (P.R1_ANSWER, P.R2_KAMP):
            self.say_opp_roll(roll)
            self.hits = roll.successes
            if self.hits and len(self.standing()) > 1:
                self.phase = P.HIT
            else:
                self._deal_damage({t: self.hits for t in self.standing()})
        else:
            self.say_roll(self.cursor, self._dice_of(self.cursor), roll)
            # round-1 1s mean nothing: keep successes only, so that exact analysis merges those branches
            self.rolls[self.cursor] = PoolRoll(roll.successes, 0) if phase == P.R1_ROLL else roll
            self.cursor += 1
        self._advance()

    # ---- the flow ---------------------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Move on through the automatic steps until a seat must decide, a die must roll, or the conflict ends."""
        while True:
            if self.asks:
                if self.asks[0][0] != "back" and not self.ask_entries():
                    self.say_exhausted()
                    self.asks.pop(0)
                    continue
                return
            phase, n = self.phase, self.n
            if phase == P.PRESENT:
                if self.cursor < n:
                    return
                self.phase, self.cursor = P.R1_ROLL, 0
            elif phase == P.R1_ROLL:
                while self.cursor < n and self._dice_of(self.cursor) == 0:
                    self.rolls[self.cursor] = PoolRoll(0, 0)
                    self.say_no_dice(self.cursor)
                    self.cursor += 1
                if self.cursor < n:
                    return
                self.phase, self.cursor = P.R1_SPLIT, 0
            elif phase == P.R1_SPLIT:
                while self.cursor < n and self._no_split_choice(self.cursor):
                    self._auto_split(self.cursor)
                if self.cursor < n:
                    return
                self._end_hero_roll(1)
            elif phase == P.CHECK:
                self._check()
            elif phase == P.R2_DESCRIBE:
                while self.cursor < n and self.fate[self.cursor] != STANDING:
                    self.cursor += 1
                if self.cursor < n:
                    return
                self.phase, self.cursor = P.R2_ROLL, 0
            elif phase in (P.R2_ROLL, P.R3_ROLL):
                while self.cursor < n and (self.fate[self.cursor] != STANDING or self.dice[self.cursor] == 0):
                    self.cursor += 1
                if self.cursor < n:
                    return
                self._end_hero_roll(2 if phase == P.R2_ROLL else 3)
            elif (phase == P.R1_ANSWER and self.opp.omdomme == 0) or (phase == P.R2_KAMP and self.opp.kamp == 0):
                self.say_no_answer()
                self.phase = P.CHECK
            else:
                if phase == P.END and self.described < self.round:
                    self.say_outcome()  # the last consequence is bought: the fight's end is described
                return

    def _no_split_choice(self, i: int) -> bool:
        """No successes, or no friend to give morale to: the split is forced, so nobody is asked."""
        roll = self.rolls[i]
        return roll is None or roll.successes == 0 or not self.friends(i)

    def _auto_split(self, i: int) -> None:
        roll = self.rolls[i]
        if roll is not None and roll.successes:
            self._do_split(i, Action.of("split", opponent=roll.successes))
        else:
            self.cursor += 1

    def _end_hero_roll(self, round_no: int) -> None:
        """Step 3/4 of each round: the heroes' successes against the opponent's Status, and what follows."""
        if round_no > 1:
            total = sum(r.successes for r in self.rolls if r is not None)
            before = self.opp_status
            self.opp_status -= total
            self.say_total(round_no, total, before)
        ones = [r.ones if r is not None and round_no > 1 else 0 for r in self.rolls]
        self.rolls, self.presenter = [None] * self.n, [-1] * self.n
        if round_no == 2:
            self.dice = [0] * self.n
        if self.opp_status <= 0:
            self._finish(VICTORY, round_no, ones)
            below = points_below_zero(self.opp_status)
            self._queue("opp", self._next_buyer(-1), consequence_count(below, self.points), round_no)
            for i in range(self.n):
                self._queue("mishap", i, ones[i], round_no)
            return
        if round_no > 1 and self.options.mishaps == "always":
            for i in range(self.n):
                self._queue("mishap", i, ones[i], round_no)
        if round_no == 1:
            self.phase = P.R1_ANSWER
            self.say_answer_coming(1)
        elif round_no == 2:
            self.phase = P.R2_KAMP
            self.say_answer_coming(2)
        else:
            self._finish(LOSS, 3, ones)
            mode = self.options.round3_loss
            payers = [i for i in range(self.n) if self.fate[i] != DEAD] if mode == "every" else self.standing()
            shares = loss_shares(self.opp_status, len(payers), "shared" if mode == "shared" else "each")
            counts = [consequence_count(share, self.points) for share in shares]
            self.say_loss_shares(payers, counts)
            for i, count in zip(payers, counts, strict=True):
                self._queue("cons", i, count, 3)

    @property
    def points(self) -> int:
        return int(self.options.points_per_consequence)

    def _deal_damage(self, damage: dict[int, int]) -> None:
        """Steps 4B–C / 3B–C: the opponent's successes off the heroes' Status (morale first); out at ≤ 0."""
        for i, d in damage.items():
            if d <= 0:
                continue
            before, mor = self.hstatus[i], self.morale[i]
            self.hstatus[i], self.morale[i] = absorb(before, mor, d)
            if self.options.morale == "next_hit":  # the digest's reading: the rest of the bonus is gone
                self.morale[i] = 0
            self.say_damage(i, d, before, mor)
            if self.hstatus[i] <= 0:
                self.fate[i], self.morale[i] = OUT, 0
                below = points_below_zero(self.hstatus[i])
                if self.options.buy_back:
                    self.asks.append(("back", i, below, self.round))
                else:
                    self._queue("cons", i, consequence_count(below, self.points), self.round)
        self.hits = 0
        self.phase = P.CHECK

    def _check(self) -> None:
        """Step 4D / 3D: the consequences are bought and the round's outcome is described; if both sides still
        stand, on to the next round."""
        if not self.standing():
            self._finish(LOSS, self.round, [0] * self.n)
            return
        self.say_outcome()
        if self.round == 1:
            if self.options.morale == "round1":
                self.morale = [0] * self.n
            self.round, self.phase, self.cursor = 2, P.R2_DESCRIBE, 0
            self.say_round(2)
        else:
            self.round, self.phase, self.cursor = 3, P.R3_TURN, -1
            self.dice = [0] * self.n
            self.say_round(3)
            self._next_turn()

    def _finish(self, result: int, round_no: int, ones: list[int]) -> None:
        """The conflict is decided; ``ones`` are the 1s each hero rolled in the deciding roll (named in the words when
        they cost consequences)."""
        self.result, self.round, self.phase = result, round_no, P.END
        self.say_finish(
            result, round_no, ones if result == VICTORY or self.options.mishaps == "always" else [0] * self.n
        )

    # ---- a goal reached ---------------------------------------------------------------------------------------
    def goal_sides(self) -> dict[str, tuple[str, str | None]]:
        """The heroes' side and the opponent's, with their names and goals as the scenario states them. The text
        pits the heroes against "modstanderen" in every step; a fight may still end when either side has what it
        came for, which is the table's judgement (:meth:`State.declare_goal`)."""
        return {side: (name, goal) for side, name, goal in self.sides}

    def _end_by_goal(self, side: str, goal: str) -> None:
        """The GM's word ends the fight where it stands: a roll pending is not made, a split, a round-3 option or a
        consequence awaited is not asked (the points still owed go unbought); every Status, pool and consequence
        bought so far stays as it is, and the aftermath carries it."""
        self.goal = (side, goal)
        self.result, self.phase, self.asks, self.hits = GOAL, P.END, [], 0
        self.described = self.round

    # ---- analysis ---------------------------------------------------------------------------------------------
    def key(self) -> Hashable:
        """Everything that decides the future, and nothing else.

        At the end only the outcome's parts and the queued consequences count; before it, the per-round scratch
        (rolls, presenters, gathered dice) is cleared when a round is resolved, and only *whether* a hero described
        anything in round 2 matters for 'even wilder'.
        """
        fates = (
            self.result,
            self.opp_status,
            tuple(self.asks),
            tuple(self.fate),
            tuple(self.back),
            tuple(tuple(p) for p in self.pools),
            tuple(tuple(sorted(t)) for t in self.taken),
            tuple(self.borrowed),
            tuple(sorted(self.opp_taken)),
        )
        if self.phase == P.END:
            return (P.END, self.round, fates, self.goal)
        return (
            self.phase,
            self.round,
            self.cursor if self.phase in P.CURSOR_PHASES else 0,
            self.hits,
            fates,
            tuple(self.hstatus),
            tuple(self.morale),
            tuple(self.presenter),
            tuple(self.rolls),
            tuple(a > 0 for a in self.areas),
            tuple(self.dice),
            tuple(self.used),
            tuple(self.done),
        )

    # ---- what the table shows beside the choices (at_table.py) ------------------------------------------------
    def decision_stake(self, seat: str) -> str:
        return at_table.decision_stake(self, seat)

    def roll_stakes(self) -> list[tuple[str, Fraction]]:
        return at_table.roll_stakes(self)

    def setup_facts(self) -> dict[str, dict[str, str]]:
        return at_table.setup_facts(self)

    def id_words(self) -> dict[str, str]:
        return at_table.id_words(self)

    def ending_words(self, ending: str) -> str:
        return at_table.ending_words(ending) or super().ending_words(ending)

    def correctable(self) -> dict[str, dict[str, tuple[int, int, int]]]:
        """The GM may set each hero's pools (rustning, grej, våben) by hand, from 0 to the character's value."""
        return {
            seat: {name: (self.pools[i][k], 0, getattr(self.chars[i], name)) for k, name in enumerate(POOLS)}
            for i, seat in enumerate(self.hero_ids)
        }

    def _correct(self, seat: str, name: str, value: int) -> None:
        self.pools[self.hero_ids.index(seat)][POOLS.index(name)] = value

    def invariants(self) -> list[str]:
        broken = []
        for i, c in enumerate(self.chars):
            for k, name in enumerate(POOLS):
                if not 0 <= self.pools[i][k] <= getattr(c, name):
                    broken.append(f"{self.names[i]}: {name} pool {self.pools[i][k]} outside 0..{getattr(c, name)}")
            if self.morale[i] < 0:
                broken.append(f"{self.names[i]}: negative morale {self.morale[i]}")
            if self.fate[i] == STANDING and self.hstatus[i] <= 0:
                broken.append(f"{self.names[i]} stands at Status {self.hstatus[i]}")
            if len(set(self.taken[i])) != len(self.taken[i]):
                broken.append(f"{self.names[i]} has a consequence twice: {self.taken[i]}")
            if set(self.taken[i]) & self.carried[i]:
                broken.append(f"{self.names[i]} took a carried consequence again")
            if self.dice[i] < 0:
                broken.append(f"{self.names[i]}: negative dice")
        if len(set(self.opp_taken)) != len(self.opp_taken):
            broken.append(f"{self.opp_name} has a consequence twice")
        if self.phase == P.END and self.result == VICTORY and self.opp_status > 0:
            broken.append("a victory with the opponent still at Status ≥ 1")
        return broken

    def _outcome(self) -> ConflictOutcome:
        return self.build_outcome()

    def _view(self, seat: str) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": _(P.NAMES[self.phase]),
            "opponent": {"id": self.opp_id, "status": self.opp_status, "consequences": list(self.opp_taken)},
            "heroes": {
                hid: {
                    "status": self.hstatus[i],
                    "morale": self.morale[i],
                    "status_pool": self.hstatus[i] + self.morale[i],
                    "fate": ("standing", "out", "dead")[self.fate[i]],
                    "dice": self.dice[i],
                    "pools": dict(zip(POOLS, self.pools[i], strict=True)),
                    "consequences": list(self.taken[i]),
                    "borrowed_time": self.borrowed[i],
                }
                for i, hid in enumerate(self.hero_ids)
            },
            "asks": [list(a) for a in self.asks],
        }
