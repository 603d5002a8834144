"""PresjaState: a physical conflict (konflikt fizyczny) of the FATE variant, one exchange after another.

Each exchange (sekwencja walki): declarations in the order of Zmysły; one 4dF roll per participant that is both
its Atak (Attack) and Obrona (Defence); invocations; the GM's advantages; every attack resolved at once against
its target's Defence; each hit absorbed on the Tor Presji Fizycznej or with consequences, or the target is taken
out; then the declared moves between zones. Texts and views live in :mod:`.texts`, invocations in :mod:`.invoke`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.i18n import localized
from konflikt.core.options import Options
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, GM, GOAL_REACHED, TERMINAL, State
from konflikt.dice import Dice
from konflikt.errors import KonfliktError
from konflikt.rulesets.presja import at_table, invoke, texts
from konflikt.rulesets.presja.acts import act
from konflikt.rulesets.presja.fighters import Fighter
from konflikt.rulesets.presja.i18n import _
from konflikt.rulesets.presja.models import Character, Consequences, Setup, consequence_names
from konflikt.rulesets.presja.naming import AbsorbChoices, consequence_names_typed, without_name
from konflikt.rulesets.presja.options import ADVANTAGE_KINDS, POSITIONAL
from konflikt.rulesets.presja.rules import (
    TACTICS,
    concede_fate_points,
    fighting_level,
    positional_advantages,
    pressure,
    tactic_mods,
)
from konflikt.rulesets.presja.static import ROLL, absorb_action, static_for, tactic_arg
from konflikt.rulesets.presja.track import SLOTS, Absorb, absorb_options, mark, marked_labels, marked_mask

_DECL_MEMO: dict[tuple[object, ...], tuple[Action, ...]] = {}
ACTIVE, TAKEN_OUT, CONCEDED = 0, 1, 2


class AttackNumbers(NamedTuple):
    """One attack's numbers, as the resolution uses them and the narration shows them."""

    attack: int
    defence: int
    attack_tactic: int
    defence_tactic: int
    advantages: tuple[str, ...]
    crowd: int
    """−1 Defence per extra attacker (option ``defence_vs_many = divided``)."""
    margin_bonus: int
    """Weapon-aspect invocations, +1 each to a margin of 0 or more."""
    presja: int


class Declaration(NamedTuple):
    """What a participant declares for the exchange, aloud and in the order of action."""

    kind: str
    """``attack``, ``defend``, ``move`` or ``concede``."""
    target: int = -1
    """The attacked participant's index (−1: no attack)."""
    tactic: str = "none"
    """``none``, ``defensive`` or ``offensive``."""
    zone: int = -1
    """The zone moved to (−1: no move)."""


class PresjaState(State):
    """One physical conflict in progress (see the module docstring for the flow)."""

    ruleset = "presja"
    shared = (
        "rule_values", "values", "fighters", "index", "side_ids", "side_names", "side_goals", "zone_ids", "zone_names",
        "adjacent", "situation", "surprised", "auto_kinds",
    )  # fmt: skip

    def __init__(self, scenario: Scenario, options: Options) -> None:
        super().__init__(options)
        self.rule_values: dict[str, Any] = dict(options)  # plain dict: Options.__getattr__ is slow in the hot path
        static = static_for(scenario, options, self.rule_values)
        self.values = static.values
        self.ladder_name: str = options.ladder
        self.side_ids, self.side_names, self.side_goals = static.side_ids, static.side_names, static.side_goals
        self.fighters: tuple[Fighter, ...] = static.fighters
        self.index = static.index
        self.zone_ids, self.zone_names, self.adjacent = static.zone_ids, static.zone_names, static.adjacent
        self.situation = static.situation
        self.surprised = static.surprised
        self.static_key: int = static.static_key
        """A small id of everything fixed for the conflict that a policy's choice may depend on (for memos)."""
        self.auto_kinds = static.auto_kinds
        setup: Setup = scenario.setup
        zi = {z: k for k, z in enumerate(self.zone_ids)}
        n = len(self.fighters)
        # dynamic state: plain lists of ints, all in key()
        self.fate_points = [fi.character.fate_points for fi in self.fighters]
        self.marked = [self._carried_boxes(fi) for fi in self.fighters]
        self.cons = [[0, 0, 0] for _ in range(n)]  # 0 empty, 1 taken (free invocation unused), 2 free one used
        self.cons_names: list[list[str]] = [["", "", ""] for _ in range(n)]
        for i, fi in enumerate(self.fighters):
            before: Consequences = fi.character.consequences
            for s, name in enumerate((before.mild, before.moderate, before.severe)):
                if name:
                    self.cons[i][s], self.cons_names[i][s] = 2, name
        self.cons_new = [0] * n
        self.zone = [zi[setup.positions.get(fi.id, self.zone_ids[0])] for fi in self.fighters]
        self.fate = [ACTIVE] * n
        self.ticks = [0] * n
        self.exchange = 1
        self.phase = "order"
        self.ptr = 0
        self.order: list[int] = []
        self.tie_groups: list[list[int]] = []
        self.order_bonus = [0] * n
        """What an aspect invoked for the order of action adds to Zmysły for it (the conflict's start only)."""
        self.edge_queue: list[int] = []
        """Who may still invoke an aspect for the order of action, highest Zmysły first."""
        self.ending = ""
        self.goal_winner = -1
        """The side the GM declared has reached its goal (:meth:`_end_by_goal`; −1: none)."""
        self.goal = ""
        """That goal in words."""
        self._ver = 0
        self._cache: tuple[int, str, Sequence[Action]] | None = None
        self._inv_cache: tuple[int, int, tuple[Action, ...]] | None = None
        self._reset_exchange()
        texts.emit_setup(self)
        self._start_edges()

    @staticmethod
    def _carried_boxes(fi: Fighter) -> int:
        """The boxes an earlier fight left marked, with no rest to clear them since."""
        try:
            return marked_mask(fi.track, fi.character.marked_boxes)
        except KonfliktError as exc:
            raise KonfliktError(f"{fi.id}: {exc}") from None

    # ---- the exchange's working state ------------------------------------------------------------------------
    def _reset_exchange(self) -> None:
        n = len(self.fighters)
        self.decl: list[Declaration | None] = [None] * n
        self.dice: list[int | None] = [None] * n
        self.bonus = [0] * n
        self.bonus_keys: list[list[str]] = [[] for _ in range(n)]
        """The invocations behind ``bonus`` in order (``own:1``, ``massimo:mild``, ``fate_point``), for narration."""
        self.margin_bonus = [0] * n
        """+1 per weapon-aspect invocation, to the margin of success (przewaga jakości broni)."""
        self.invoked: dict[tuple[int, str], int] = {}
        self.inv_queue: list[int] = []
        self.inv_acted = False
        self.pending: tuple[int, int, int, str] | None = None  # (invoker, owner, slot, effect) awaiting the owner
        self.reroll_who = -1
        self.adv_queue: list[tuple[str, int, int]] = []
        """The advantages the GM still decides this exchange: (kind, pair of participants, lower index first)."""
        self.holders: dict[tuple[str, int, int], int] = {}
        """Who holds each advantage between the two of a pair this exchange (−1: neither)."""
        self.hits: list[tuple[int, int, int]] = []
        self.compelled: list[tuple[int, int]] = []
        """(owner, slot) of the consequences the GM has compelled this exchange."""
        self.compel_pending: tuple[int, int] | None = None
        self.window: list[int] = []
        """Who may still concede before the next roll of a foe, in the order of action (:meth:`_open_window`)."""
        self.window_before = -1
        """The roll (its place in the order) whose window to concede has been held this exchange (−1: none yet)."""
        self.levels = self._fighting_levels()

    def level(self, i: int) -> int:
        """The skill level participant ``i`` fights at this exchange (surprise lowers the first)."""
        return self.levels[i]

    def _fighting_levels(self) -> list[int]:
        rule_values = self.rule_values
        return [self._level(i, rule_values) for i in range(len(self.fighters))]

    def _level(self, i: int, rule_values: dict[str, Any]) -> int:
        return fighting_level(
            self.fighters[i].skill,
            rule_values["unskilled_level"],
            self.exchange == 1 and i in self.surprised,
            rule_values["surprise_level"],
        )

    def result(self, i: int) -> int:
        """Skill + 4dF + invocations: the roll that is both Attack and Defence this exchange."""
        return self.levels[i] + (self.dice[i] or 0) + self.bonus[i]

    def tactic(self, i: int) -> str:
        d = self.decl[i]
        return d.tactic if d is not None else "none"

    def opponents(self, i: int) -> list[int]:
        """Active participants of the other sides."""
        side = self.fighters[i].side
        return [j for j, fj in enumerate(self.fighters) if fj.side != side and self.fate[j] == ACTIVE]

    def reachable(self, i: int, j: int) -> bool:
        """Same zone, or an adjacent zone when ``i`` may act at range."""
        zi, zj = self.zone[i], self.zone[j]
        return zi == zj or (self.fighters[i].ranged and zj in self.adjacent[zi])

    # ---- State hooks -----------------------------------------------------------------------------------------
    def seats(self) -> tuple[str, ...]:
        return (*(fi.id for fi in self.fighters), GM)

    def seat_name(self, seat: str) -> str:
        i = self.index.get(seat)
        return super().seat_name(seat) if i is None else self.fighters[i].name

    def side_of(self, seat: str) -> str | None:
        i = self.index.get(seat)
        return None if i is None else self.side_ids[self.fighters[i].side]

    def current_player(self) -> str:
        ph = self.phase
        if ph == "declare":
            return self.fighters[self.order[self.ptr]].id
        if ph == "roll":
            return CHANCE
        if ph == "invoke":
            return self.fighters[self.inv_queue[self.ptr]].id
        if ph == "absorb":
            return self.fighters[self.hits[self.ptr][1]].id
        if ph in ("order", "advantage", "compel"):
            return GM
        if ph == "compel_answer":
            assert self.compel_pending is not None
            return self.fighters[self.compel_pending[0]].id
        if ph == "edge":
            return self.fighters[self.edge_queue[self.ptr]].id
        if ph == "ignore":
            assert self.pending is not None
            return self.fighters[self.pending[1]].id
        if ph == "concede_window":
            return self.fighters[self.window[0]].id
        if ph == "reroll":
            return CHANCE
        return TERMINAL

    def pending_roll(self) -> Dice | None:
        return ROLL if self.phase in ("roll", "reroll") else None

    def roller(self) -> int:
        return self.reroll_who if self.phase == "reroll" else self.order[self.ptr]

    def roll_purpose(self) -> str:
        i = self.roller()
        fi = self.fighters[i]
        fields = {"name": fi.name, "skill": localized(fi.skill_name), "level": f"{self.level(i):+d}"}
        if self.phase == "reroll":
            return _("{name}: 4dF + {skill} {level} — reroll for this exchange", **fields)
        return _("{name}: 4dF + {skill} {level} — attack and defence for this exchange", **fields)

    def _legal_actions(self, seat: str) -> Sequence[Action]:
        cache = self._cache
        if cache is not None and cache[0] == self._ver and cache[1] == seat:
            return cache[2]
        legal = self._compute_legal(seat)
        self._cache = (self._ver, seat, legal)
        return legal

    def _compute_legal(self, seat: str) -> Sequence[Action]:
        node = self.current_player()
        if node != seat:
            return ()
        ph = self.phase
        if ph == "declare":
            return self._declarations(self.order[self.ptr])
        if ph == "invoke":
            who = self.inv_queue[self.ptr]
            return (*invoke.options(self, who), act("pass"))
        if ph == "ignore":
            return (act("ignore"), act("accept"))
        if ph == "concede_window":
            return (act("concede"), act("fight_on"))
        if ph == "absorb":
            _, defender, presja = self.hits[self.ptr]
            ways = self.absorb_choices(defender, presja)
            return AbsorbChoices((*(self.absorb_action(way) for way in ways), act("taken_out")))
        if ph == "order":
            return tuple(act("order", first=self.fighters[i].id) for i in self.tie_groups[0])
        if ph == "compel":
            return (
                *(act("compel", consequence=f"{self.fighters[i].id}:{SLOTS[s]}") for i, s in self.compel_choices()),
                act("pass"),
            )
        if ph == "compel_answer":
            assert self.compel_pending is not None
            can_pay = self.fate_points[self.compel_pending[0]] > 0
            return (act("accept"), act("refuse")) if can_pay else (act("accept"),)
        if ph == "edge":
            edger = self.fighters[self.edge_queue[self.ptr]]
            return (*(act("edge", aspect=f"own:{k + 1}") for k in range(len(edger.aspects))), act("pass"))
        if ph == "advantage":
            kind, a, b = self.adv_queue[0]
            pair = (self.fighters[a].id, self.fighters[b].id)
            holders = [i for i, other in ((a, b), (b, a)) if self._attacks(i) == other]
            return (
                act("advantage", which=kind, pair=pair, holder=None),
                *(act("advantage", which=kind, pair=pair, holder=self.fighters[i].id) for i in holders),
            )
        return ()

    def _declarations(self, i: int) -> tuple[Action, ...]:
        """Attack a foe in reach, defend only, move to an adjacent zone (each with a tactic), or concede."""
        key = (
            self.static_key,
            i,
            tuple(self.zone),
            tuple(self.fate),
            tuple(d is not None and d.kind == "concede" for d in self.decl),
        )
        found = _DECL_MEMO.get(key)
        if found is None:
            if len(_DECL_MEMO) > 100_000:
                _DECL_MEMO.clear()
            found = _DECL_MEMO[key] = self._declarations_now(i)
        return found

    def _declarations_now(self, i: int) -> tuple[Action, ...]:
        tactics = TACTICS if self.rule_values["tactics"] else ("none",)
        out: list[Action] = []
        for j in self.opponents(i):
            if self.reachable(i, j) and not self._conceding(j):
                out.extend(act("attack", target=self.fighters[j].id, tactic=tactic_arg(t)) for t in tactics)
        out.extend(act("defend", tactic=tactic_arg(t)) for t in tactics)
        for z in sorted(self.adjacent[self.zone[i]]):
            out.extend(act("move", to=self.zone_ids[z], tactic=tactic_arg(t)) for t in tactics)
        if self.may_concede(i):
            out.append(act("concede"))
        return tuple(out)

    def may_concede(self, i: int) -> bool:
        """Whether participant ``i`` may concede at all: still fighting, and not forbidden (konflikt's own
        ``allow_concede`` and a character's ``may_concede``; the text: "zawsze możesz poddać się")."""
        return self.fate[i] == ACTIVE and self.rule_values["allow_concede"] and self.fighters[i].may_concede

    def _conceding(self, j: int) -> bool:
        d = self.decl[j]
        return d is not None and d.kind == "concede"

    def _attacks(self, i: int) -> int:
        """The target index ``i`` attacks this exchange, or −1."""
        d = self.decl[i]
        if d is None or d.kind != "attack" or self.fate[i] != ACTIVE or self.fate[d.target] != ACTIVE:
            return -1
        return d.target

    def absorb_action(self, option: Absorb) -> Action:
        return absorb_action(self.fighters[self.hits[self.ptr][1]].track, option)

    # ---- applying decisions ----------------------------------------------------------------------------------
    def _apply(self, seat: str, action: Action) -> None:
        self._ver += 1
        kind = action.kind
        ph = self.phase
        if ph == "declare":
            self._declare(self.order[self.ptr], action)
        elif ph == "invoke":
            who = self.inv_queue[self.ptr]
            if kind == "pass":
                self.ptr += 1
            else:
                self.inv_acted = True
                invoke.apply(self, who, action)
        elif ph == "ignore":
            invoke.answer(self, action.kind == "ignore")
        elif ph == "concede_window":
            self._window_answer(action)
        elif ph == "absorb":
            self._absorb(action)
        elif ph == "order":
            self._order_pick(self.index[action["first"]])
        elif ph == "edge":
            self._edge(action)
        elif ph == "compel":
            self._compel(action)
        elif ph == "compel_answer":
            self._compel_answer(action)
        elif ph == "advantage":
            self._advantage(action)
        self._advance()

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        self._ver += 1
        value = int(outcome)  # type: ignore[arg-type]
        if self.phase == "reroll":
            i = self.reroll_who
            old = self.dice[i]
            self.dice[i] = value
            self.phase = "invoke"
            texts.emit_reroll(self, i, old or 0, value)
        else:
            i = self.order[self.ptr]
            self.dice[i] = value
            self.ptr += 1
            texts.emit_roll(self, i, value)
        self._advance()

    def _declare(self, i: int, action: Action) -> None:
        kind = action.kind
        tactic = str(action.get("tactic") or "none")
        if kind == "attack":
            self.decl[i] = Declaration("attack", target=self.index[action["target"]], tactic=tactic)
        elif kind == "move":
            self.decl[i] = Declaration("move", tactic=tactic, zone=self.zone_ids.index(action["to"]))
        elif kind == "defend":
            self.decl[i] = Declaration("defend", tactic=tactic)
        else:
            self.decl[i] = Declaration("concede")
        texts.emit_declaration(self, i)
        if kind == "concede":
            self._concede(i)
        self.ptr += 1

    def _concede(self, i: int) -> None:
        """Pokonany: ``i`` leaves the scene on its own terms, with 1 Punkt Losu and 1 per consequence taken in this
        conflict; the conflict ends when a side has nobody left."""
        gain = concede_fate_points(self.cons_new[i])
        self.fate_points[i] += gain
        self.fate[i] = CONCEDED
        texts.emit_concede(self, i, gain)
        self._check_end()

    # ---- conceding before a foe's roll -----------------------------------------------------------------------
    def foe_has_rolled(self, i: int) -> bool:
        """Whether a foe of ``i`` has rolled this exchange: then it is too late for ``i`` to concede."""
        side = self.fighters[i].side
        return any(self.dice[j] is not None for j, fj in enumerate(self.fighters) if fj.side != side)

    def _open_window(self, roller: int) -> None:
        """Before ``roller``'s 4dF, whoever it is a foe of and may still concede is asked ("Zostajesz pokonany, gdy
        zadecydujesz o poddaniu się. Musisz to uczynić przed rzutem przeciwnika").

        Each participant is asked at most once an exchange, at the last moment the text allows: before the first
        roll of any of its foes (a foe's roll ends it). Not asked when nothing has happened since its own
        declaration (the last to declare, before the first roll): that declaration was the same choice. Asked in
        the order of action."""
        self.window_before = self.ptr
        side = self.fighters[roller].side
        active = [i for i in self.order if self.fate[i] == ACTIVE]
        first_roll = all(d is None for d in self.dice)
        last_to_declare = active[-1] if active else -1
        self.window = [
            i
            for i in active
            if self.fighters[i].side != side
            and self.may_concede(i)
            and not self.foe_has_rolled(i)
            and not (first_roll and i == last_to_declare)
        ]
        if self.window:
            self.phase = "concede_window"

    def _window_answer(self, action: Action) -> None:
        i = self.window.pop(0)
        if action.kind == "concede":
            self.decl[i] = Declaration("concede")
            texts.emit_window_concede(self, i)
            self._concede(i)
            if self.phase == "done":
                return
        else:
            texts.emit_fight_on(self, i)
        if not self.window:
            self.phase = "roll"

    def _absorb(self, action: Action) -> None:
        a, t, p = self.hits[self.ptr]
        self.ptr += 1
        if action.kind == "taken_out":
            self._take_out(t, a, willing=True)
            return
        track = self.fighters[t].track
        chosen = without_name(action)
        option = next(o for o in self.absorb_choices(t, p) if absorb_action(track, o) == chosen)
        self.marked[t] = mark(self.marked[t], option)
        typed = consequence_names_typed(action)
        for k, s in enumerate(option.cons):
            self.cons[t][s] = 1
            names = consequence_names()[SLOTS[s]]
            self.cons_names[t][s] = typed[k] if k < len(typed) else names[(self.exchange - 1) % len(names)]
            self.cons_new[t] += 1
        texts.emit_absorb(self, t, p, option)

    def absorb_choices(self, t: int, p: int) -> tuple[Absorb, ...]:
        """Every legal way for participant ``t`` to take ``p`` points of presja now (empty: taken out)."""
        free = (self.cons[t][0] == 0, self.cons[t][1] == 0, self.cons[t][2] == 0)
        rule_values = self.rule_values
        return absorb_options(
            self.fighters[t].track,
            self.marked[t],
            free,
            self.values,
            p,
            rule_values["box_absorbs_less"],
            rule_values["consequence_absorbs_less"],
        )

    def _take_out(self, t: int, by: int, willing: bool) -> None:
        self.fate[t] = TAKEN_OUT
        texts.emit_taken_out(self, t, by, willing)

    def _advantage(self, action: Action) -> None:
        kind, a, b = self.adv_queue.pop(0)
        holder = action["holder"]
        self.holders[(kind, a, b)] = -1 if holder is None else self.index[holder]
        texts.emit_advantage(self, kind, a, b, self.holders[(kind, a, b)])

    # ---- the order of action ---------------------------------------------------------------------------------
    def _start_edges(self) -> None:
        """Before the order is fixed, each participant (highest Zmysły first) may invoke an aspect to act earlier.

        "Gracze mogą użyć swoich Aspektów lub Atutów, by zdobyć przewagę na tym etapie": an aspect costs a Punkt
        Losu and adds ``invoke_bonus`` to Zmysły for the order (konflikt's own number, as for any invocation);
        a stunt (``initiative_edge``) wins ties without a cost. One invocation each (konflikt's own).
        """
        if self.rule_values["order_invocations"]:
            by_zmysly = sorted(range(len(self.fighters)), key=lambda i: (-self.fighters[i].zmysly, i))
            self.edge_queue = [i for i in by_zmysly if self.fate_points[i] > 0 and self.fighters[i].aspects]
        if self.edge_queue:
            self.phase, self.ptr = "edge", 0
        else:
            self._start_order()

    def _edge(self, action: Action) -> None:
        i = self.edge_queue[self.ptr]
        self.ptr += 1
        if action.kind == "edge":
            self.fate_points[i] -= 1
            self.order_bonus[i] += self.rule_values["invoke_bonus"]
            texts.emit_edge(self, i, str(action["aspect"]))
        if self.ptr >= len(self.edge_queue):
            self.edge_queue = []
            self._start_order()

    def order_value(self, i: int) -> int:
        """Zmysły (Senses) plus any aspect invoked for the order of action."""
        return self.fighters[i].zmysly + self.order_bonus[i]

    def _start_order(self) -> None:
        """Zmysły (Senses) sets the order; a stunt or aspect (initiative_edge) breaks ties; the GM decides the rest."""
        keyed = sorted(
            range(len(self.fighters)),
            key=lambda i: (-self.order_value(i), self.fighters[i].initiative_edge is None, i),
        )
        groups: list[list[int]] = []
        for i in keyed:
            k = (self.order_value(i), self.fighters[i].initiative_edge is None)
            first = groups[-1][0] if groups else -1
            if groups and (self.order_value(first), self.fighters[first].initiative_edge is None) == k:
                groups[-1].append(i)
            else:
                groups.append([i])
        self.tie_groups = [keyed] if self.rule_values["gm_sets_order"] else groups
        self._settle_order()

    def _settle_order(self) -> None:
        while self.tie_groups and len(self.tie_groups[0]) <= 1:
            self.order.extend(self.tie_groups.pop(0))
        if self.tie_groups:
            self.phase = "order"
            return
        texts.emit_order(self)
        texts.emit_exchange(self)
        self._start_exchange()
        self._advance()

    def _order_pick(self, i: int) -> None:
        self.tie_groups[0].remove(i)
        self.order.append(i)
        texts.emit_order_pick(self, i)
        self._settle_order()

    # ---- automatic steps between decisions -------------------------------------------------------------------
    def _advance(self) -> None:
        while True:
            ph = self.phase
            if ph == "declare":
                while self.ptr < len(self.order) and self.fate[self.order[self.ptr]] != ACTIVE:
                    self.ptr += 1
                if self.ptr < len(self.order):
                    return
                self.phase, self.ptr = "roll", 0
            elif ph == "roll":
                while self.ptr < len(self.order) and self.fate[self.order[self.ptr]] != ACTIVE:
                    self.ptr += 1
                if self.ptr < len(self.order):
                    if self.window_before != self.ptr:
                        self._open_window(self.order[self.ptr])
                    return
                self.phase, self.ptr, self.inv_acted = "invoke", 0, False
                self.inv_queue = [i for i in self.order if self.fate[i] == ACTIVE]
                if not self._anything_to_invoke():
                    self.inv_queue = []
            elif ph == "invoke":
                while self.ptr < len(self.inv_queue) and not invoke.options(self, self.inv_queue[self.ptr]):
                    self.ptr += 1
                if self.ptr < len(self.inv_queue):
                    return
                if self.inv_acted:
                    self.ptr, self.inv_acted = 0, False
                    continue
                self._start_advantages()
            elif ph == "advantage":
                if self.adv_queue:
                    return
                self._resolve()
            elif ph == "absorb":
                while self.ptr < len(self.hits):
                    a, t, p = self.hits[self.ptr]
                    if self.fate[t] != ACTIVE:
                        self.ptr += 1
                        continue
                    if self.absorb_choices(t, p):
                        return
                    self.ptr += 1
                    self._take_out(t, a, willing=False)
                self._end_exchange()
            else:
                return

    def _anything_to_invoke(self) -> bool:
        """A quick test before asking anyone: fate points, a taken consequence or a weapon aspect anywhere."""
        return (
            any(self.fate_points)
            or any(any(c) for c in self.cons)
            or (self.rule_values["advantage_weapon_quality"] and any(fi.weapon_boxes for fi in self.fighters))
        )

    def _start_advantages(self) -> None:
        """The GM is asked, per enabled advantage, about each pair of foes where one attacks the other.

        "Jeśli któraś ze stron konfliktu dysponuje w danym zakresie przewagą": an advantage belongs to one side of
        a pair against the other (personality is "wojna nerwów dwóch walczących ze sobą postaci"), so in a group
        fight each pair has its own holder.
        """
        self.phase = "advantage"
        self.holders = {}
        rule_values = self.rule_values
        kinds = [
            kind
            for kind, name, _ in ADVANTAGE_KINDS
            if (rule_values[name] == "gm" if kind in POSITIONAL else rule_values[name] is True)
        ]
        pairs = self.attack_pairs()
        self.adv_queue = [(kind, a, b) for kind in kinds for a, b in pairs]

    def attack_pairs(self) -> list[tuple[int, int]]:
        """Each pair of participants where one attacks the other this exchange (lower index first), in order."""
        pairs: list[tuple[int, int]] = []
        for i in self.order:
            t = self._attacks(i)
            if t >= 0 and (min(i, t), max(i, t)) not in pairs:
                pairs.append((min(i, t), max(i, t)))
        return pairs

    def positional(self, i: int, t: int) -> tuple[bool, bool, bool]:
        """(numbers, flanking, surrounded) of ``i``'s attack on ``t``, from zones and declared targets.

        Flanking comes at the target from the side ("zachodzi go z boku") and surrounding from all sides: only the
        attackers in the target's zone count for them; a shooter from another zone counts for numbers only.
        """
        side = self.fighters[i].side
        on_target = [j for j in range(len(self.fighters)) if self.fighters[j].side == side and self._attacks(j) == t]
        at_its_side = sum(1 for j in on_target if self.zone[j] == self.zone[t])
        near = {j for j in on_target} | {
            j
            for j in range(len(self.fighters))
            if self.fighters[j].side == side and self.fate[j] == ACTIVE and self.zone[j] == self.zone[t]
        }
        friends = sum(
            1
            for j in range(len(self.fighters))
            if self.fighters[j].side == self.fighters[t].side
            and self.fate[j] == ACTIVE
            and self.zone[j] == self.zone[t]
        )
        return positional_advantages(at_its_side, len(near), friends)

    def advantages(self, i: int, t: int) -> list[str]:
        """The advantages (+1 Attack each) of ``i`` attacking ``t`` this exchange."""
        pair = (min(i, t), max(i, t))
        got = [kind for (kind, a, b), holder in self.holders.items() if holder == i and (a, b) == pair]
        if self.auto_kinds:
            flags = self.positional(i, t)
            for kind, flag in zip(POSITIONAL, flags, strict=True):
                if flag and kind in self.auto_kinds:
                    got.append(kind)
        return got

    def attack_numbers(self, i: int, t: int) -> AttackNumbers:
        """Every number of ``i``'s attack on ``t`` this exchange, the presja included."""
        attack_tactic, _ = tactic_mods(self.tactic(i))
        _, defence_tactic = tactic_mods(self.tactic(t))
        advantages = self.advantages(i, t)
        attack = self.result(i) + attack_tactic + len(advantages)
        crowd = 0
        if self.rule_values["defence_vs_many"] == "divided":
            crowd = sum(1 for j in self.order if self._attacks(j) == t) - 1
        defence = self.result(t) + defence_tactic - crowd
        margin_bonus = self.margin_bonus[i]
        presja = pressure(attack, defence, self.fighters[i].damage, self.fighters[t].absorption, margin_bonus)
        return AttackNumbers(
            attack, defence, attack_tactic, defence_tactic, tuple(advantages), crowd, margin_bonus, presja
        )

    def _resolve(self) -> None:
        """Every attack against its target's single Defence, all at once (both sides in the same exchange)."""
        self.hits = []
        for i in self.order:
            t = self._attacks(i)
            if t < 0:
                continue
            numbers = self.attack_numbers(i, t)
            texts.emit_attack(self, i, t, numbers)
            if numbers.presja > 0:
                self.hits.append((i, t, numbers.presja))
        self.phase, self.ptr = "absorb", 0

    def _end_exchange(self) -> None:
        for i, d in enumerate(self.decl):
            if d is not None and d.kind == "move" and self.fate[i] == ACTIVE:
                self.zone[i] = d.zone
                texts.emit_move(self, i)
        if self.rule_values["weapon_aspect_clears"] == "exchange":
            self.ticks = [0] * len(self.fighters)
        if self._check_end():
            return
        if self.exchange >= self.rule_values["max_exchanges"]:
            self.phase, self.ending = "done", "deadlock"
            texts.emit_end(self)
            return
        self.exchange += 1
        self._reset_exchange()
        texts.emit_exchange(self)
        self._start_exchange()

    def _start_exchange(self) -> None:
        """The GM may compel consequences first (when anyone in the fight has one); then the declarations."""
        self.ptr = 0
        self.phase = "compel" if self.compel_choices() else "declare"

    def compel_choices(self) -> list[tuple[int, int]]:
        """(owner, slot) of every consequence the GM may still compel this exchange ("Konsekwencje mogą być…
        wymuszone"): each taken consequence of a participant in the fight, once per exchange (konflikt's own)."""
        if not self.rule_values["compels"]:
            return []
        return [
            (i, s)
            for i in range(len(self.fighters))
            if self.fate[i] == ACTIVE
            for s in range(3)
            if self.cons[i][s] and (i, s) not in self.compelled
        ]

    def _compel(self, action: Action) -> None:
        if action.kind == "pass":
            self.phase = "declare"
            return
        pid, _, slot = str(action["consequence"]).partition(":")
        owner, s = self.index[pid], SLOTS.index(slot)
        self.compelled.append((owner, s))
        self.compel_pending = (owner, s)
        self.phase = "compel_answer"
        texts.emit_compel(self, owner, s)

    def _compel_answer(self, action: Action) -> None:
        """The owner accepts the complication for a Punkt Losu, or pays one to refuse it (FATE's compel; the text
        leaves the mechanics to its missing chapter on aspects: konflikt's own)."""
        assert self.compel_pending is not None
        owner, s = self.compel_pending
        self.compel_pending = None
        accepted = action.kind == "accept"
        self.fate_points[owner] += 1 if accepted else -1
        texts.emit_compel_answer(self, owner, s, accepted)
        self.phase = "compel" if self.compel_choices() else "declare"

    def goal_sides(self) -> dict[str, tuple[str, str | None]]:
        """Each side with its name and the goal its scenario states (or ``None``)."""
        return {
            sid: (localized(name), goal)
            for sid, name, goal in zip(self.side_ids, self.side_names, self.side_goals, strict=True)
        }

    def _end_by_goal(self, side: str, goal: str) -> None:
        """The GM's word: ``side`` has reached ``goal``, and the conflict ends where it stands, wherever in the
        exchange (a hit not yet taken is not taken, a roll not yet made is not made); every track, consequence and
        Punkt Losu stays as it is, and a move declared this exchange is not made."""
        self._ver += 1
        self.goal_winner, self.goal = self.side_ids.index(side), goal
        self.phase, self.ending = "done", GOAL_REACHED
        self.pending = self.compel_pending = None
        self.window = []

    def _check_end(self) -> bool:
        sides = {self.fighters[i].side for i in range(len(self.fighters)) if self.fate[i] == ACTIVE}
        if len(sides) > 1:
            return False
        self.phase = "done"
        self.ending = "won" if sides else "all_out"
        texts.emit_end(self)
        return True

    # ---- reports ---------------------------------------------------------------------------------------------
    def key(self) -> Hashable:
        return (
            self.exchange,
            self.phase,
            self.ptr,
            tuple(self.order),
            tuple(self.order_bonus),
            tuple(self.edge_queue),
            tuple(tuple(g) for g in self.tie_groups),
            tuple(self.fate_points),
            tuple(self.marked),
            tuple(tuple(c) for c in self.cons),
            tuple(self.cons_new),
            tuple(self.zone),
            tuple(self.fate),
            tuple(self.ticks),
            tuple(self.decl),
            tuple(self.dice),
            tuple(self.bonus),
            tuple(self.margin_bonus),
            tuple(sorted(self.invoked.items())),
            tuple(self.inv_queue),
            self.inv_acted,
            self.pending,
            self.reroll_who,
            tuple(self.adv_queue),
            tuple(sorted(self.holders.items())),
            tuple(self.hits),
            tuple(self.compelled),
            self.compel_pending,
            tuple(self.window),
            self.window_before,
            self.ending,
            self.goal_winner,
            self.goal,
        )

    def clock(self) -> tuple[int, int] | None:
        """The exchange number counts towards ``max_exchanges`` (a deadlock) and little else (see below)."""
        return (self.exchange, self.rule_values["max_exchanges"])

    def key_without_clock(self) -> Hashable:
        """:meth:`key` with as much of the exchange number as the rules and the heuristic look at.

        Beyond the cap, the exchange number matters in two places only: surprise lowers the levels of the first
        exchange, and the GM heuristic weighs the mobility advantage from the third exchange on. (Consequence
        names also cycle with the exchange they were taken in, but they are words, not rules, and not in
        :meth:`key` either.)
        """
        key = self.key()
        assert isinstance(key, tuple)
        if self.rule_values["advantage_mobility"]:
            seen = min(self.exchange, 3)
        elif self.surprised:
            seen = min(self.exchange, 2)
        else:
            seen = 0
        return (seen, *key[1:])

    def set_clock_cap(self, cap: int) -> None:
        """Move ``max_exchanges`` for exact analysis: a fresh options dict, as copies share ``rule_values``."""
        self.rule_values = {**self.rule_values, "max_exchanges": cap}

    def end_at_cap(self) -> None:
        """The deadlock at ``max_exchanges``, as :meth:`_end_exchange` calls it, one exchange number later."""
        self.exchange -= 1
        self.phase, self.ending = "done", "deadlock"
        texts.emit_end(self)

    def _outcome(self) -> ConflictOutcome:
        return texts.outcome(self)

    def _view(self, seat: str) -> dict[str, Any]:
        return texts.view(self)

    def status(self) -> dict[str, dict[str, str]]:
        return texts.status(self)

    def describe_action(self, seat: str, action: Action) -> str:
        return texts.describe(self, seat, action)

    def why_illegal(self, seat: str, action: Action) -> str:
        return texts.why_illegal(self, seat, action) or super().why_illegal(seat, action)

    def correctable(self) -> dict[str, dict[str, tuple[int, int, int]]]:
        """The GM may set Punkty Losu (fate points) and mark or clear each box of the tor (track) by hand."""
        values: dict[str, dict[str, tuple[int, int, int]]] = {}
        for i, fi in enumerate(self.fighters):
            row = {"punkty losu": (self.fate_points[i], 0, max(self.fate_points[i], fi.character.fate_points, 10))}
            for box in range(len(fi.track)):
                row[f"tor box {box + 1}"] = ((self.marked[i] >> box) & 1, 0, 1)
            values[fi.id] = row
        return values

    def _correct(self, seat: str, name: str, value: int) -> None:
        i = self.index[seat]
        if name == "punkty losu":
            self.fate_points[i] = value
        else:
            bit = 1 << (int(name.removeprefix("tor box ")) - 1)
            self.marked[i] = self.marked[i] | bit if value else self.marked[i] & ~bit
        self._ver += 1

    # ---- what the table shows beside the choices (at_table.py) ------------------------------------------------
    def decision_stake(self, seat: str) -> str:
        return at_table.decision_stake(self, seat)

    def leading_actions(self, seat: str) -> Sequence[Action]:
        return at_table.leading_actions(self, seat)

    def action_cost(self, seat: str, action: Action) -> str:
        return at_table.action_cost(self, seat, action)

    def consequences_taken(self, seat: str, action: Action) -> tuple[str, ...]:
        return at_table.consequences_taken(self, seat, action)

    def with_consequence_names(self, seat: str, action: Action, names: Sequence[str]) -> Action:
        return at_table.with_consequence_names(self, action, names)

    def setup_facts(self) -> dict[str, dict[str, str]]:
        return at_table.setup_facts(self)

    def roll_stakes(self) -> list[tuple[str, Fraction]]:
        return at_table.roll_stakes(self)

    def ending_words(self, ending: str) -> str:
        words = at_table.ENDINGS.get(ending)
        return super().ending_words(ending) if words is None else _(words)

    def id_words(self) -> dict[str, str]:
        return at_table.id_words(self)

    def invariants(self) -> list[str]:
        broken: list[str] = []
        for i, fi in enumerate(self.fighters):
            if self.fate_points[i] < 0:
                broken.append(f"{fi.id}: Punkty Losu (fate points) {self.fate_points[i]} < 0")
            if self.marked[i] >> len(fi.track):
                broken.append(f"{fi.id}: marked boxes beyond the track")
            if any(c not in (0, 1, 2) for c in self.cons[i]):
                broken.append(f"{fi.id}: consequence slot state {self.cons[i]}")
            if not 0 <= self.ticks[i] <= fi.weapon_boxes:
                broken.append(f"{fi.id}: weapon aspect ticks {self.ticks[i]} of {fi.weapon_boxes}")
            if not 0 <= self.zone[i] < len(self.zone_ids):
                broken.append(f"{fi.id}: zone {self.zone[i]}")
        return broken

    def after_conflict(self) -> dict[str, Character]:
        """Each character as it leaves the conflict, before any rest: its marked boxes, every consequence it holds,
        its Punkty Losu as they stand (conceding included).

        Recovery needs rest ("zakładając, że postacie mają kilka minut na odpoczynek, wszystkie zakreślone pola,
        zostają wyczyszczone … łagodne konsekwencje również zostają wyczyszczone po 5-10 minut odpoczynku"): the
        campaign's rest clears boxes and mild consequences (:mod:`.campaign`), so a fight straight after this one
        starts with what this one left.
        """
        out: dict[str, Character] = {}
        for i, fi in enumerate(self.fighters):
            names = [n if self.cons[i][s] else None for s, n in enumerate(self.cons_names[i])]
            cons = Consequences(mild=names[0], moderate=names[1], severe=names[2])
            out[fi.id] = fi.character.model_copy(
                update={
                    "fate_points": self.fate_points[i],
                    "consequences": cons,
                    "marked_boxes": marked_labels(fi.track, self.marked[i]),
                }
            )
        return out
