"""One conflict served to a table of browsers: the engine driven step by step, saved before anyone hears of it.

Every input (a seat's choice, a secret choice, a roll typed or rolled, an undo) goes through :meth:`WebTable.handle`
with the seat its token acts for; the server checks who may do what. Policy seats and server-rolled dice act by
themselves in :meth:`WebTable.advance`, drawing from the same per-step generators as ``konflikt play``, so a server
killed between two steps picks up exactly where it was: the store holds every committed step, and whatever was not
committed is drawn again identically. The table writes nothing itself: it lists its writes
(:meth:`WebTable.take_writes`) and the server commits them in the store's thread before any page hears of them.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from konflikt.core.actions import Action
from konflikt.core.conflict import Conflict
from konflikt.core.events import Event
from konflikt.core.i18n import BILINGUAL, current, localized, speaking
from konflikt.core.names import named, scenario_names
from konflikt.core.ruleset import Policy
from konflikt.core.state import CHANCE, GM, SIMULTANEOUS, TERMINAL, State
from konflikt.errors import KonfliktError
from konflikt.sim.runner import StepGenerators, seat_policies
from konflikt.store.db import HUMAN_SOURCES, Loaded
from konflikt.web.advise import AdviceBox
from konflikt.web.faces import Roll, percent, roll_faces, shown_faces
from konflikt.web.i18n import N_, Said, Text, _, pgettext, said
from konflikt.web.odds import FromHere
from konflikt.web.policies import policy_words
from konflikt.web.writer import Append, Write

T = TypeVar("T")

MAX_AUTO_STEPS = 20_000
GM_LABEL = N_("the GM")
"""The GM's seat as the pages name it (the bilingual register says it in the three texts' words)."""
GM_ONLY = {
    "undo": N_("only the GM may undo"),
    "pause": N_("only the GM may pause"),
    "resume": N_("only the GM may resume"),
    "correct": N_("only the GM may correct"),
    "declare": N_("only the GM may declare"),
}
THINKING = frozenset({"mcts", "rollout", "optimal"})
"""Policies that search or solve (``mcts:N`` may think for minutes): they decide in a thread of their own, on a copy
of the state, within the server's budget a decision (:data:`BOT_SECONDS`), while the table's pages go on."""
BOT_SECONDS = 10.0
"""How long a searching policy may think about one decision; past it, the ruleset's heuristic decides (the GM's page
says so)."""
NOTICES = 5
DICE_MODES = ("auto", "table", "players")
"""Who rolls at a table: konflikt (seeded, its faces shown), the GM (typed from the table's dice, or konflikt's at
the GM's word), or each player on their own page (a Roll button drawing from the table's seeded dice, or the faces
of their own dice typed); a roll of a seat no person plays is rolled by konflikt in ``players`` mode."""
ROLLS_SHOWN = 3
"""The dice card shows the last few rolls (an attack, its defence and the damage), each with its faces and meaning;
the log has them all."""
LOG_PAGE = 50
"""Log entries a page shows at first (and receives when it starts over); "earlier" asks for this many more."""
TAKEN_IDS = 256
"""How many message ids a table remembers, to refuse the same message sent twice (a retry after a reconnect)."""
"""The GM's page keeps the last few notices (a decision past its budget, a policy that failed)."""


class Refused(Said, KonfliktError):
    """An input the table does not take: one line for the page that sent it, in that page's language (the words
    are looked up when the refusal is read, in the request of the seat that sent the input)."""

    def __init__(self, text: Text) -> None:
        KonfliktError.__init__(self, "")
        self.text = text


def _again(first: KonfliktError, call: Callable[[], object]) -> Refused:
    """The engine's refusal ``first``, said again in the reader's language: ``call`` (which has no effect, and
    raised ``first`` in the table's thread) is asked once more when the refusal is read."""
    told = current()

    def text() -> str:
        if current() != told:
            try:
                call()
            except KonfliktError as exc:
                return str(exc)
        return str(first)

    return Refused(text)


@dataclass
class Told:
    """The conflict told in one language: its steps replayed in a state of its own under that language, so its
    log, its rolls' purposes and what they did read in it (kept per table and language, advanced step by step)."""

    language: str
    epoch: str
    state: State
    rolls: list[Roll]


@dataclass
class Sent:
    """What one connection has already received: the log epoch and how many of its visible events."""

    epoch: str = ""
    events: int = 0


@dataclass
class WebTable:
    """A saved conflict, live: its state, who plays each seat, and the rolls with their faces."""

    id: int
    conflict: Conflict
    sources: list[str]
    dice: str
    names: dict[str, str]
    policies: Mapping[str, Policy | None] = field(default_factory=dict)
    state: State = field(init=False)
    rolls: list[Roll] = field(default_factory=list)
    paused: bool = False
    epoch: str = ""
    finished: bool = False
    unsaved: list[str] = field(default_factory=list)
    """Sources of the steps applied since the last :meth:`take_writes` (committed together)."""
    writes: list[Write] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held from an input until its steps are committed, and while a frame is built: no page sees uncommitted steps."""
    visible: dict[str, tuple[int, list[Event]]] = field(default_factory=dict)
    odds: tuple[tuple[str, int, bool], FromHere | None] | None = None
    """The GM's last "who wins from here": the version it was asked at, and the answer (``None`` while working)."""
    odds_seq: int = 0
    advice: AdviceBox = field(default_factory=AdviceBox)
    """The ``advise`` panel's answers and whether players see them (:mod:`konflikt.web.advise`)."""
    dropped: Text | None = None
    """Why the server no longer holds this table (deleted, taken over): its inputs are refused with it."""
    thinking: dict[str, Any] | None = None
    """The searching policy deciding now, off the table's lock: its seat's label, policy and budget."""
    thinking_seq: int = 0
    """Grows when :attr:`thinking` or :attr:`notices` change: part of the page cache's key."""
    notices: list[Text] = field(default_factory=list)
    """What the GM should know about the bots (a decision past its budget): the last :data:`NOTICES`."""
    taken: OrderedDict[tuple[str, str], None] = field(default_factory=OrderedDict)
    """The ids of the last :data:`TAKEN_IDS` messages applied, with their seats: the same message sent again (a
    page retrying after a reconnect) is refused, not applied twice."""
    _cache_version: tuple[str, int, bool] = ("", -1, False)
    _cache: dict[Any, Any] = field(default_factory=dict)
    _kept: dict[Any, tuple[Any, Any]] = field(default_factory=dict)
    _labels: dict[tuple[str, str], str] = field(default_factory=dict)
    language: str = BILINGUAL
    """The language the table's own state speaks (its log's texts, as the engine wrote them): the server's."""
    told: dict[str, Told] = field(default_factory=dict)
    """The conflict told in each other language a seat reads (:meth:`told_in`)."""

    @classmethod
    def load(cls, loaded: Loaded, language: str | None = None) -> WebTable:
        """The saved conflict, replayed, its state speaking ``language`` (the server's; the language in use)."""
        scenario = loaded.conflict.scenario
        names = {p.id: p.policy for p in scenario.participants()}
        names[GM] = scenario.gm
        names.update(loaded.seats)
        table = cls(loaded.id, loaded.conflict, list(loaded.sources), loaded.dice, names)
        table.language = language or current()
        table.policies = seat_policies(scenario, names)
        with speaking(table.language):
            table.replay()
            try:
                table.advance()
            finally:
                table.save()
        return table

    # ---- rebuilding -------------------------------------------------------------------------------------------
    @property
    def gen(self) -> StepGenerators:
        assert self.conflict.seed is not None
        return StepGenerators(self.conflict.seed)

    def replay(self) -> None:
        """Rebuild the state from the saved steps, and the faces of the rolls the server made (drawn again)."""
        state = self.conflict.start()
        rolls: list[Roll] = []
        gen = self.gen
        for idx, step in enumerate(self.conflict.steps):
            if step.node == CHANCE and step.outcome is not None:
                dice = state.pending_roll()
                assert dice is not None
                source = self.sources[idx] if idx < len(self.sources) else "imported"
                faces = shown_faces(dice, dice.coerce(step.outcome), step.faces)
                if faces is None and source == "auto":  # a record from before steps kept their faces
                    outcome, _faces, shown = roll_faces(dice, gen.dice_for(state))
                    faces = shown if outcome == dice.coerce(step.outcome) else None
                rolls.append(Roll(idx, state.roll_purpose(), dice.notation, faces, dice.describe(step.outcome), source))
            state.apply_step(step)
        public: dict[int, list[str]] = {}
        for event in state.history():
            if event.visible_to is None:
                public.setdefault(event.step, []).append(event.text)
        self.state = state
        self.rolls = [replace(r, meaning=tuple(public.get(r.step, ()))) for r in rolls]
        self.visible = {}
        self.told = {}
        self.epoch = secrets.token_hex(4)

    def told_in(self, language: str) -> Told:
        """The conflict told in ``language``: the table's own state when it speaks it; else a state of its own,
        replayed once under that language and then advanced by the steps made since (an undo starts it over)."""
        if language == self.language:
            return Told(language, self.epoch, self.state, self.rolls)
        told = self.told.get(language)
        with speaking(language):
            if told is None or told.epoch != self.epoch:
                told = self.told[language] = Told(language, self.epoch, self.conflict.start(), [])
            steps = self.state.steps()
            done = len(told.state.steps())
            if done < len(steps):
                by_step: dict[int, Roll] = {}
                for made in reversed(self.rolls):  # the rolls of the steps not yet told, at the end of the list
                    if made.step < done:
                        break
                    by_step[made.step] = made
                for idx in range(done, len(steps)):
                    step = steps[idx]
                    state = told.state
                    roll = by_step.get(idx) if step.node == CHANCE and step.outcome is not None else None
                    dice = state.pending_roll() if roll is not None else None
                    purpose = state.roll_purpose() if roll is not None else ""
                    before = len(state.history())
                    state.apply_step(step)
                    if roll is not None and dice is not None:
                        meaning = tuple(
                            e.text for e in state.history()[before:] if e.step == idx and e.visible_to is None
                        )
                        told.rolls.append(
                            replace(roll, purpose=purpose, result=dice.describe(step.outcome), meaning=meaning)
                        )
        return told

    # ---- who plays what ---------------------------------------------------------------------------------------
    def seats(self) -> list[str]:
        """Every seat with a page: the participants, and the GM."""
        return [p.id for p in self.conflict.scenario.participants()] + [GM]

    def human(self, seat: str) -> bool:
        return seat in self.policies and self.policies[seat] is None

    def label(self, seat: str) -> str:
        """A seat as the pages name it (kept: every frame names several seats)."""
        key = (current(), seat)
        known = self._labels.get(key)
        if known is None:
            known = self._labels[key] = self._label(seat)
        return known

    def _label(self, seat: str) -> str:
        if seat == GM:
            return _(GM_LABEL)
        try:
            name = self.conflict.scenario.participant(seat).name
        except KeyError:
            return seat
        return name if name == seat else f"{name} ({seat})"

    def deciding(self) -> list[str]:
        """The human seats the table waits for now."""
        node = self.state.current_player()
        if node == SIMULTANEOUS:
            return [s for s in self.state.waiting_for() if self.human(s)]
        if node in (CHANCE, TERMINAL):
            return []
        return [node] if self.human(node) else []

    def choices(self, seat: str) -> list[Action]:
        """The actions ``seat`` may take now through its page (empty when not its turn or not a human seat)."""
        if seat not in self.deciding():
            return []
        return list(self.state.legal_actions(seat))

    def buttons(self, seat: str) -> list[dict[str, Any]]:
        """``seat``'s choices as its page's buttons, described once per step (for its page and the GM's)."""
        return self.cached(
            ("buttons", seat),
            lambda: [_choice(i, self.state.describe_action(seat, a)) for i, a in enumerate(self.choices(seat))],
        )

    def asked_since(self) -> int:
        """The step at which the current question was first asked.

        Secret choices are made on several phones at once, and each one is a step of its own: a page that shows
        the secret choice is still right after another seat has chosen.
        """
        now = len(self.state.steps())
        if self.state.is_simultaneous_node():
            return now - (len(self.state.simultaneous_seats()) - len(self.state.waiting_for()))
        return now

    def waiting_for_roll(self) -> bool:
        return self.state.is_chance_node() and (self.dice == "table" or self.player_roll() is not None)

    def roller(self) -> str | None:
        """The participant whose roll is pending: the one the roll's purpose names first, as every ruleset words it
        ("Hedda's anfallsslag", "Belzee: 4dF + …"); ``None`` for a roll of nobody's (the GM's)."""
        if not self.state.is_chance_node():
            return None
        return self.cached("roller", self._roller)

    def _roller(self) -> str | None:
        with speaking(BILINGUAL):  # the register whose purposes all begin with the roller's name
            purpose = self.state.roll_purpose()
        named = [(p.name, p.id) for p in self.conflict.scenario.participants()]
        for name, seat in sorted(named, key=lambda n: -len(n[0])):  # "Kapten Nova" before a "Nova"
            rest = purpose[len(name) :] if purpose.startswith(name) else None
            if (rest is not None and rest[:2] in ("'s", "’s", ": ")) or rest == "":
                return seat
        return None

    def player_roll(self) -> str | None:
        """The seat that rolls the pending roll on its own page (``players`` dice, a human seat's roll), or ``None``."""
        if self.dice != "players":
            return None
        seat = self.roller()
        return seat if seat is not None and self.human(seat) else None

    # ---- inputs -----------------------------------------------------------------------------------------------
    def handle(self, seat: str, message: Mapping[str, Any]) -> None:
        """Apply one message from ``seat``'s page (the seat its token acts for), or raise :class:`Refused`.

        Whatever it applied is listed for :meth:`take_writes`, even when a policy fails midway.
        """
        with speaking(self.language):
            try:
                self._handle(seat, message)
            finally:
                self.save()

    def _handle(self, seat: str, message: Mapping[str, Any]) -> None:
        kind = message.get("type")
        claimed = message.get("seat")
        if claimed is not None and claimed != seat and seat != GM:
            raise Refused(
                lambda: _("this link acts only for {seat}, not for {other}", seat=seat, other=repr(str(claimed)[:40]))
            )
        if isinstance(kind, str) and kind in GM_ONLY and seat != GM:
            raise Refused(lambda: _(GM_ONLY[kind]))
        if kind == "pause":
            self.paused = True
            return
        if kind == "resume":
            self.paused = False
            self.advance()
            return
        if kind == "undo":
            self.undo(_count(message.get("count", 1)))
            return
        if kind == "correct":
            self.correct(message)
            self.advance()
            return
        if kind == "declare":
            self.declare(message)
            return
        if kind not in ("act", "roll"):
            raise Refused(
                lambda: _(
                    "unknown message type {kind} (act, roll, undo, pause, resume, correct, declare, odds)",
                    kind=repr(str(kind)[:40]),
                )
            )
        if self.paused:
            raise Refused(lambda: _("the GM has paused the table"))
        if self.state.is_terminal():
            raise Refused(lambda: _("the conflict is over"))
        step = message.get("step")
        if not isinstance(step, int) or isinstance(step, bool):
            raise Refused(lambda: _("a choice needs the step it was made at ('step': a number)"))
        if not self.asked_since() <= step <= len(self.state.steps()):
            now = len(self.state.steps())
            if kind == "roll" and any(r.step == step for r in self.rolls[-20:]):
                raise Refused(
                    lambda: _(
                        "the roll at step {step} was taken already (now at step {now}); nothing changed",
                        step=step,
                        now=now,
                    )
                )
            raise Refused(lambda: _("the table has moved on (now at step {now}); your page is updated", now=now))
        if kind == "roll":
            self.roll(seat, message.get("text"))
        else:
            actor = claimed if isinstance(claimed, str) else seat
            self.act(actor, message.get("choice"), by_gm=seat == GM)
        self.advance()

    def act(self, seat: str, choice: Any, by_gm: bool = False) -> None:
        if seat not in self.deciding():
            deciding = ", ".join(self.deciding())
            raise Refused(
                lambda: _(
                    "{seat} has no decision to make now (waiting for {what})",
                    seat=seat,
                    what=deciding or self.node_words(),
                )
            )
        legal = self.choices(seat)
        if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < len(legal):
            raise Refused(
                lambda: _(
                    "choice {choice} is not on {seat}'s list: a number from 0 to {last}",
                    choice=str(choice)[:20],
                    seat=seat,
                    last=len(legal) - 1,
                )
            )
        action = legal[choice]  # one of the legal actions of this very state: applied without asking again
        if self.state.is_simultaneous_node():
            self.state.apply_actions({seat: action}, checked=False)
        else:
            self.state.apply_action(action, checked=False)
        self.record("human")

    def correct(self, message: Mapping[str, Any]) -> None:
        """The GM sets a value by hand, with a reason: a logged step of its own (``State.correct``)."""
        target = message.get("target")
        seat, name = target.split("|", 1) if isinstance(target, str) and "|" in target else (None, None)
        if seat is None or name is None:
            raise Refused(lambda: _("a correction names a seat and a value ('target': 'seat|name')"))
        value = message.get("value")
        if not isinstance(value, int) or isinstance(value, bool):
            raise Refused(lambda: _("a correction sets a whole number, not {value}", value=repr(str(value)[:20])))
        reason = str(message.get("reason", ""))
        try:
            self.state.correct(seat, name, value, reason)
        except KonfliktError as exc:
            fork = self.state.fork()
            raise _again(exc, lambda: fork.correct(seat, name, value, reason)) from None
        self.record("correction")

    def declare(self, message: Mapping[str, Any]) -> None:
        """The GM declares that a side has reached its goal: the conflict ends there (``State.declare_goal``)."""
        side = message.get("side")
        if not isinstance(side, str):
            raise Refused(lambda: _("a declaration names the side that reached its goal ('side')"))
        goal = message.get("goal", "")
        goal = goal if isinstance(goal, str) else ""
        try:
            self.state.declare_goal(side, goal)
        except KonfliktError as exc:
            fork = self.state.fork()
            raise _again(exc, lambda: fork.declare_goal(side, goal)) from None
        self.record("declaration")

    def goals(self) -> list[dict[str, str]]:
        """The GM's declaration form: every side that may reach its goal, with the goal the scenario states."""
        if self.state.is_terminal():
            return []
        return [
            {"side": side, "label": name, "goal": goal or ""} for side, (name, goal) in self.state.goal_sides().items()
        ]

    def corrections(self) -> list[dict[str, Any]]:
        """The GM's correction form: every value the ruleset lets the GM set, with its bounds."""
        if self.state.is_terminal():
            return []
        return [
            {"target": f"{seat}|{name}", "label": f"{self.label(seat)}: {name}", "now": now, "lo": lo, "hi": hi}
            for seat, values in self.state.correctable().items()
            for name, (now, lo, hi) in values.items()
        ]

    def roll(self, seat: str, text: Any) -> None:
        if not self.state.is_chance_node():
            raise Refused(lambda: _("no roll is pending now (waiting for {what})", what=self.node_words()))
        asked = self.player_roll()
        if seat != GM and seat != asked:
            if asked is None:
                raise Refused(lambda: _("only the GM takes the dice of this roll"))
            roller = asked
            raise Refused(
                lambda: _("this roll is {name}'s to roll, not yours; nothing changed", name=self.label(roller))
            )
        dice = self.state.pending_roll()
        assert dice is not None
        if text is None or (isinstance(text, str) and text.strip().lower() in ("", "auto")):
            self.roll_here("table")
            return
        if not isinstance(text, str) or len(text) > 200:
            raise Refused(lambda: _("a roll is typed as text, e.g. '+ + 0 -' or '47'"))
        try:
            outcome, fell = dice.read_faces(text)
        except KonfliktError as exc:
            raise _again(exc, lambda: dice.read_faces(text)) from None
        purpose = self.state.roll_purpose()
        before = len(self.state.history())
        self.state.apply_action(outcome, faces=fell)  # typed die by die: the step keeps the faces for the narration
        step = len(self.state.steps()) - 1
        shown = shown_faces(dice, outcome, fell)
        meaning = self._meaning(step, before)
        self.rolls.append(Roll(step, purpose, dice.notation, shown, dice.describe(outcome), "table", meaning))
        self.record("table")

    def _meaning(self, step: int, before: int) -> tuple[str, ...]:
        """The public events the roll at ``step`` caused (the history's entries from ``before`` on)."""
        return tuple(e.text for e in self.state.history()[before:] if e.step == step and e.visible_to is None)

    def roll_here(self, source: str) -> None:
        """konflikt rolls the pending dice face by face, from the step's own generator."""
        dice = self.state.pending_roll()
        assert dice is not None
        purpose = self.state.roll_purpose()
        outcome, fell, shown = roll_faces(dice, self.gen.dice_for(self.state))
        before = len(self.state.history())
        self.state.apply_action(outcome, checked=False, faces=fell)  # the dice's own roll: possible by construction
        step = len(self.state.steps()) - 1
        meaning = self._meaning(step, before)
        self.rolls.append(Roll(step, purpose, dice.notation, shown, dice.describe(outcome), source, meaning))
        self.record(source)

    def thinks_long(self, seat: str) -> bool:
        """A seat played by a policy that searches or solves (:data:`THINKING`)."""
        return self.policies.get(seat) is not None and self.names.get(seat, "").partition(":")[0] in THINKING

    def advance(self) -> None:
        """Let policy seats and server dice act until a human (or the GM's typed dice) is needed, or a policy that
        thinks long (:meth:`bot_due`: the server lets it think apart, :meth:`play_bot`)."""
        if self.paused:
            return
        gen = self.gen
        for _step in range(MAX_AUTO_STEPS):
            node = self.state.current_player()
            if node == TERMINAL:
                break
            if node == CHANCE:
                if self.dice == "table" or self.player_roll() is not None:
                    break
                self.roll_here("auto")
            elif node == SIMULTANEOUS:
                bots = [s for s in self.state.waiting_for() if not self.human(s) and not self.thinks_long(s)]
                if not bots:
                    break
                seat = bots[0]
                policy = self.policies[seat]
                assert policy is not None
                self.state.apply_actions({seat: policy.choose(self.state, seat, gen.policy_for(self.state, seat))})
                self.record("policy")
            else:
                policy = self.policies.get(node)
                if policy is None or self.thinks_long(node):
                    break
                self.state.apply_action(policy.choose(self.state, node, gen.policy_for(self.state, node)))
                self.record("policy")

    def bot_due(self) -> str | None:
        """The seat of a policy that thinks long whose decision the table waits for now (``None``: none)."""
        if self.paused or self.dropped is not None:
            return None
        node = self.state.current_player()
        if node == SIMULTANEOUS:
            seats = [s for s in self.state.waiting_for() if self.thinks_long(s)]
        elif node in (CHANCE, TERMINAL):
            seats = []
        else:
            seats = [node] if self.thinks_long(node) else []
        return seats[0] if seats else None

    def bot_job(self) -> tuple[str, Policy, State, Any, tuple[str, int, bool]] | None:
        """What a policy that thinks long needs to decide apart (call it holding the table's lock): its seat, the
        policy, a copy of the state, the step's generator and the version it was asked at."""
        seat = self.bot_due()
        if seat is None:
            return None
        policy = self.policies[seat]
        assert policy is not None
        return seat, policy, self.state.fork(), self.gen.policy_for(self.state, seat), self.version()

    def play_bot(self, seat: str, action: Action | None, version: tuple[str, int, bool]) -> None:
        """Apply a decision made apart (``None``: past its budget or failed, so the heuristic decides here), then
        go on as :meth:`advance` does. A table that moved on meanwhile (an undo, a pause) takes nothing."""
        with speaking(self.language):
            self._play_bot(seat, action, version)

    def _play_bot(self, seat: str, action: Action | None, version: tuple[str, int, bool]) -> None:
        if self.version() != version or self.bot_due() != seat:
            return
        try:
            if action is None:
                ruleset = self.conflict.scenario.ruleset
                fallback = ruleset.policy("heuristic" if "heuristic" in ruleset.policies else "random")
                action = fallback.choose(self.state, seat, self.gen.policy_for(self.state, seat))
            if self.state.is_simultaneous_node():
                self.state.apply_actions({seat: action})
            else:
                self.state.apply_action(action)
            self.record("policy")
            self.advance()
        finally:
            self.save()

    def notice(self, text: Text) -> None:
        """A notice for the GM, said in the GM page's language when it is shown."""
        self.notices = [*self.notices, text][-NOTICES:]
        self.thinking_seq += 1

    def record(self, source: str) -> None:
        """Note the step just applied; :meth:`save` lists it to be committed before anyone is told of it."""
        self.unsaved.append(source)

    def save(self) -> None:
        """List the steps applied since the last save as one write; then the outcome, if it is over."""
        if self.unsaved:
            steps = self.state.steps()
            first = len(steps) - len(self.unsaved)
            self.writes.append(Append(self.id, first, steps[first:], list(self.unsaved)))
            self.conflict.steps = steps
            self.sources.extend(self.unsaved)
            self.unsaved = []
        if self.state.is_terminal() and not self.finished:
            cid, summary = self.id, self.state.outcome().summary
            self.writes.append(lambda store: store.finish(cid, summary, held=True))
            self.finished = True

    def take_writes(self) -> list[Write]:
        """The writes listed since the last call, in order, for the store's thread to commit."""
        self.save()
        writes, self.writes = self.writes, []
        return writes

    def undo(self, count: int) -> None:
        """Take back the last ``count`` human inputs (decisions and typed dice), as ``konflikt play`` does."""
        human = [i for i, source in enumerate(self.sources) if source in HUMAN_SOURCES]
        if not human:
            raise Refused(lambda: _("nothing to undo: no human input yet"))
        keep = human[-min(count, len(human))]
        self.save()
        cid = self.id
        self.writes.append(lambda store: store.truncate(cid, keep, held=True))
        self.sources = self.sources[:keep]
        self.conflict.steps = self.conflict.steps[:keep]
        self.finished = False
        self.replay()
        self.advance()

    # ---- what a seat sees -------------------------------------------------------------------------------------
    def node_words(self) -> str:
        node = self.state.current_player()
        if node == CHANCE:
            return self.state.roll_purpose()
        if node == SIMULTANEOUS:
            return _("secret choices from {names}", names=", ".join(self.label(s) for s in self.state.waiting_for()))
        if node == TERMINAL:
            return _("nobody: the conflict is over")
        return _("{name} decides", name=self.label(node))  # who acts, and that it is a choice

    def visible_events(self, seat: str) -> list[Event]:
        """The events ``seat`` may see, in the language in use, kept per seat and language and extended as the log
        grows (the log is long)."""
        language = current()
        history = self.told_in(language).state.history()
        key = f"{seat}\x00{language}"
        done, seen = self.visible.get(key, (0, []))
        if done > len(history):
            done, seen = 0, []
        seen = seen + [e for e in history[done:] if e.visible(seat)]
        self.visible[key] = (len(history), seen)
        return seen

    def epoch_in(self, language: str) -> str:
        """The log's epoch as a page reading ``language`` knows it: a page that changes language starts over."""
        return self.epoch if language == self.language else f"{self.epoch}_{language}"

    def events_for(self, seat: str, sent: Sent) -> tuple[list[dict[str, Any]], bool, int]:
        """The events ``seat`` has not yet received on this connection; ``True`` when the page must start over; the
        index of the first event sent. A page that starts over (or is further behind than a page of the log) gets
        the last :data:`LOG_PAGE` only: it asks for earlier ones itself (:meth:`earlier`), so a frame's size does
        not grow with the log's length."""
        visible = self.visible_events(seat)
        epoch = self.epoch_in(current())
        reset = sent.epoch != epoch or sent.events > len(visible) or len(visible) - sent.events > LOG_PAGE
        start = max(0, len(visible) - LOG_PAGE) if reset else sent.events
        sent.epoch, sent.events = epoch, len(visible)
        return [{"step": e.step, "text": e.text} for e in visible[start:]], reset, start

    def earlier(self, seat: str, before: int, count: int = LOG_PAGE) -> tuple[list[dict[str, Any]], int]:
        """A page of the log ``seat`` sees: up to ``count`` events before index ``before``, and the first's index."""
        visible = self.visible_events(seat)
        before = max(0, min(before, len(visible)))
        start = max(0, before - count)
        return [{"step": e.step, "text": e.text} for e in visible[start:before]], start

    def version(self) -> tuple[str, int, bool]:
        """What every page shows changes only with this: the log's epoch, its length, and the pause."""
        return (self.epoch, len(self.conflict.steps) + len(self.unsaved), self.paused)

    def cached(self, key: Any, make: Callable[[], T]) -> T:
        """``make()`` once per :meth:`version` and language: the parts every page of a step shares are built once,
        not per page."""
        version = self.version()
        if version != self._cache_version:
            self._cache_version, self._cache = version, {}
        key = (current(), key)
        if key not in self._cache:
            self._cache[key] = make()
        value: T = self._cache[key]
        return value

    def kept(self, name: Any, key: Any, make: Callable[[], T]) -> T:
        """``make()`` again only when ``key`` changes: a part of a page that outlives a step (the GM's list of
        values to correct changes only when one of them does); kept per language."""
        name = (current(), name)
        held = self._kept.get(name)
        if held is None or held[0] != key:
            held = self._kept[name] = (key, make())
        value: T = held[1]
        return value

    def odds_now(self) -> dict[str, Any] | None:
        """The odds panel at this step: the answer, "working", or nothing asked yet."""
        if self.odds is None or self.odds[0] != self.version():
            return None
        answer = self.odds[1]
        return {"working": True} if answer is None else answer.to_json()

    def shared(self) -> dict[str, Any]:
        """The public part of every page at this step: the table's shared display, the dice, whose turn it is.

        The status is the table's shared display (every ruleset's tracks and pools, the same text the terminal
        shows everyone); secret choices never reach it, they live only in the state's hidden store.
        """
        state = self.state
        status = state.status()
        ids = scenario_names(self.conflict.scenario)  # shared() itself is built once a step
        return {
            "table": self.id,
            "title": self.title(),
            "ruleset": self.conflict.scenario.ruleset.id,
            "step": len(state.steps()),
            "epoch": self.epoch_in(current()),
            "node": self.node_words(),
            "terminal": state.is_terminal(),
            "outcome": state.outcome().summary if state.is_terminal() else None,
            "paused": self.paused,
            "dice_mode": self.dice,
            "waiting": [self.label(s) for s in state.waiting_for()],
            "rolls": [r.to_json() for r in self.told_in(current()).rolls[-ROLLS_SHOWN:]][::-1],
            "sheets": status,
            "status": [
                {"row": self._row(r), "cells": {k: named(v, ids) for k, v in c.items()}} for r, c in status.items()
            ],
        }

    def _row(self, row: str) -> str:
        """A row of the status card as the page names it: a seat by its label, the table's own row in words."""
        if row in self.names:
            return self.label(row)
        return pgettext("status row", "table") if row == "table" else row

    def title(self) -> str:
        """The scenario's title in the language in use (a table of languages in the file; else its one text)."""
        scenario = self.conflict.scenario
        text = scenario.document.get("title") if isinstance(scenario.document, Mapping) else None
        return localized(text) if isinstance(text, str | dict) and text else scenario.title

    def pending(self) -> dict[str, Any]:
        """The pending roll as the pages ask for it: what for, the dice, how to type them, who rolls it, and its
        chances as the terminal's prompt gives them (``State.roll_stakes``; for a roll the table may roll together
        with the next ones, each one's, ``State.joint_roll_stakes``)."""
        state = self.state
        dice = state.pending_roll()
        assert dice is not None
        asked = self.player_roll()
        purposes = state.joint_roll_purposes()
        joint = state.joint_roll_stakes() if len(purposes) > 1 else ()
        return {
            "purpose": state.roll_purpose(),
            "notation": dice.notation,
            "hint": dice.table_hint(),
            "seat": asked,
            "by": self.label(asked) if asked is not None else None,
            "stakes": _stakes(state.roll_stakes()),
            "together": [
                {"purpose": purpose, "stakes": _stakes(rows)}
                for purpose, rows in zip(purposes[1:], joint[1:], strict=False)
            ],
        }

    def panel(self, seat: str) -> dict[str, Any]:
        """Everything a seat's page shows apart from the log: the shared part, and what ``view(seat)`` adds.

        Secret choices are read as ``view(seat)`` shows them (``State.secret_choices``, only at a simultaneous
        node, where there are any): the seat's own, or every one for the GM.
        """
        state = self.state
        shared = self.cached("shared", self.shared)
        deciding = self.cached("deciding", self.deciding)
        secret = state.secret_choices(seat) if state.is_simultaneous_node() else {}
        chosen = [{"seat": s, "label": self.label(s)} for s in secret if s != seat]
        mine = None
        if seat != GM and secret.get(seat) not in (None, "hidden"):
            mine = state.describe_action(seat, Action.parse(secret[seat]))
        choices = self.buttons(seat) if seat in deciding else []
        gm_choices: list[dict[str, Any]] = []
        if seat == GM:
            gm_choices = [
                {"seat": other, "label": self.label(other), "choices": self.buttons(other)}
                for other in deciding
                if other != GM
            ]
        pending = self.cached("pending", self.pending) if state.is_chance_node() else None
        panel = {key: value for key, value in shared.items() if key != "sheets"}
        panel.update(
            {
                "seat": seat,
                "label": self.label(seat),
                "gm": seat == GM,
                "choices": choices,
                "secret": state.is_simultaneous_node() and bool(choices),
                "my_secret": mine,
                "chosen": chosen,
                "gm_choices": gm_choices,
                "gm_secrets": (
                    {self.label(s): state.describe_action(s, Action.parse(a)) for s, a in secret.items()}
                    if seat == GM
                    else {}
                ),
                "pending_roll": pending if pending is not None and (self.dice != "auto" or seat == GM) else None,
                "my_roll": pending if pending is not None and pending["seat"] == seat and seat != GM else None,
                "sheet": shared["sheets"].get(seat, {}),
                "policies": (
                    {self.label(s): policy_words(self.names.get(s) or "human") for s in self.seats()}
                    if seat == GM
                    else {}
                ),
                "corrections": self.cached("corrections", self.corrections) if seat == GM else [],
                "goals": self.cached("goals", self.goals) if seat == GM else [],
                "thinking": (
                    {**self.thinking, "policy_words": policy_words(str(self.thinking.get("policy", "")))}
                    if self.thinking
                    else None
                ),
                "notices": [" ".join(said(n).split())[:300] for n in self.notices] if seat == GM else [],
            }
        )
        return panel


def _stakes(rows: list[tuple[str, Any]]) -> list[dict[str, str]]:
    return [{"label": label, "percent": percent(p)} for label, p in rows]


def _choice(index: int, text: str) -> dict[str, Any]:
    """A button: the system's words (with English) first, the short explanation after the first colon."""
    words, _sep, why = text.partition(": ")
    return {"index": index, "words": words, "why": why}


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 1000:
        shown = str(value)[:20]
        raise Refused(lambda: _("undo takes a number of steps from 1 to 1000, not {value}", value=shown))
    return value
