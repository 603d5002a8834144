"""The State API (after OpenSpiel's ``pyspiel.State``), with explicit chance nodes and no RNG inside.

A ruleset subclasses :class:`State` and implements the ``_``-prefixed hooks. The public methods check every input,
record it as a :class:`Step` (the replayable record) and keep the event log (the narrated record).

Why no RNG: the driver samples chance outcomes with an injected generator, exact analysis enumerates them, and the
game master may type the dice rolled at the table instead. One design gives all three.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Concatenate, ParamSpec, TypeVar

from pydantic import BaseModel

from konflikt.core.actions import Action, ChanceOutcome, Step
from konflikt.core.copying import fork as fast_fork
from konflikt.core.events import Event
from konflikt.core.messages import _
from konflikt.core.options import Options
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.stakes import default_stakes
from konflikt.dice import Dice
from konflikt.errors import DiceError, IllegalActionError, InvalidActionError

CHANCE = "@chance"
SIMULTANEOUS = "@simultaneous"
TERMINAL = "@terminal"
GM = "@gm"
"""The game master's seat: sees everything. Rulesets may also give it decisions (the GM's final say)."""
CORRECTION = "@correction"
"""The node of a GM's correction: a value set by hand with a reason, logged and replayed like any other step."""
DECLARATION = "@declaration"
"""The node of a GM's declaration that a side has reached its goal: the conflict ends there (logged, replayed)."""
GOAL_REACHED = "goal_reached"
"""The ending of a conflict the GM declared over because a side reached its goal (:meth:`State.declare_goal`)."""
MAX_REASON = 200


class State(ABC):
    """One conflict in progress.

    Subclasses implement the hooks below; they never draw random numbers.
    """

    ruleset: ClassVar[str]

    def __init__(self, options: Options) -> None:
        self.options = options
        self._steps: list[Step] = []
        self._events: list[Event] = []
        self._secret: dict[str, Action] = {}

    # ---- hooks a ruleset implements -------------------------------------------------------------------------
    @abstractmethod
    def seats(self) -> tuple[str, ...]:
        """Every seat that may be asked for a decision (participants, and :data:`GM` if the rules ask the GM)."""

    def side_of(self, seat: str) -> str | None:
        """The id of the side ``seat`` fights for (a side of ``ConflictOutcome.winners``); ``None`` for the GM, or
        where a ruleset does not say. Search asks it: a seat plays for its side's win."""
        return None

    def seat_name(self, seat: str) -> str:
        """The name people read for ``seat`` (the participant's name), for the events the core writes itself (a
        secret choice made, a GM's correction): the rulesets' own events name people, and these must read alike.
        Plain text, never escaped here (the printers escape). Default: the id, for a ruleset that keeps no names."""
        return seat

    @abstractmethod
    def current_player(self) -> str:
        """A seat id, or :data:`CHANCE`, :data:`SIMULTANEOUS` or :data:`TERMINAL`."""

    @abstractmethod
    def _legal_actions(self, seat: str) -> Sequence[Action]:
        """The actions ``seat`` may take now (empty when it is not asked)."""

    def pending_roll(self) -> Dice | None:
        """At a chance node: the roll asked for. Rulesets with chance nodes override it."""
        return None

    def roll_purpose(self) -> str:
        """At a chance node: whose roll and what for, in words ("Belzee's exchange roll")."""
        return _("roll")

    def roll_stakes(self) -> list[tuple[str, Fraction]]:
        """At a chance node: the chances that matter for the pending roll, labelled in the system's words with
        English ("sukces (success): d100 ≤ 70"), for a player who asks what this roll can do. The default gives the
        at-least chances of a sum, or of a pool's successes (:mod:`konflikt.core.stakes`); a ruleset that knows the
        roll's target overrides it."""
        dice = self.pending_roll()
        return default_stakes(dice) if dice is not None else []

    # ---- what a front end shows beside the choices (all optional, with defaults) ---------------------------------
    def decision_stake(self, seat: str) -> str:
        """What the decision ``seat`` is asked now decides and how much is at stake, in the system's words with
        English ("Belzee takes presja (pressure) 6: …"), said above the choices. Default: nothing to add."""
        return ""

    def action_cost(self, seat: str, action: Action) -> str:
        """What choosing ``action`` costs ``seat`` now, in the system's words ("free", "1 Punkt Losu (fate
        point)"), shown beside the choice before it is chosen; ``""`` where the choice's own words say it."""
        return ""

    def leading_actions(self, seat: str) -> Sequence[Action]:
        """Of the legal choices, those the text itself names first (presja's absorb: one box that takes it all, a
        lower box and a consequence), best first: a long menu shows them before the rest. Default: none."""
        return ()

    def consequences_taken(self, seat: str, action: Action) -> tuple[str, ...]:
        """The names ``action`` gives the consequences it takes (the list's names), in order, where the player may
        name them at the table (:meth:`with_consequence_names`); ``()`` where it takes none or the ruleset takes no
        names."""
        return ()

    def with_consequence_names(self, seat: str, action: Action, names: Sequence[str]) -> Action:
        """``action`` with the player's own names for its consequences, in :meth:`consequences_taken`'s order (an
        empty name keeps the list's). Only asked where :meth:`consequences_taken` gives names."""
        return action

    def setup_facts(self) -> dict[str, dict[str, str]]:
        """Every number the rules read from the set-up, per participant: id → label → value (skills, attributes,
        weapon and armour factors, tracks), labelled in the system's words with English, for the opening panel a
        game master checks numbers against. Default: none."""
        return {}

    def ending_words(self, ending: str) -> str:
        """An ending (``ConflictOutcome.ending``) in the system's words with English, for people. Default: the id's
        words (``goal_reached`` → ``goal reached``)."""
        if ending == GOAL_REACHED:
            return _("goal reached")
        return ending.replace("_", " ").replace("-", " ")

    def id_words(self) -> dict[str, str]:
        """Ids the ruleset's texts hold (a consequence list entry, ``belzee:mild``) → the words people read; a
        front end shows the words wherever such an id stands alone. Default: none."""
        return {}

    def status_pending(self) -> dict[str, dict[str, str]]:
        """Status cells (:meth:`status`'s row → field → text) that the pending roll or decision is deciding afresh
        (Le våld's initiative while its Stridsvana contest is rolled): a front end shows these at the prompt in
        place of the value the step before left. Default: none."""
        return {}

    def round_number(self) -> int | None:
        """The number of the exchange or round being played, for front ends that report once a round (``play
        --odds``); ``None`` when the system has no rounds. Default: the round of :meth:`clock`."""
        clock = self.clock()
        return None if clock is None else clock[0]

    def joint_roll_purposes(self) -> tuple[str, ...]:
        """At a chance node: the purposes of the rolls the table may roll at once from here, in the order they are
        applied (all of the pending roll's kind; none depends on another's result). One by default; a ruleset whose
        text lets both sides roll together (opposed rolls) returns more, and the table asks for them in one prompt."""
        return (self.roll_purpose(),)

    def joint_roll_stakes(self) -> tuple[list[tuple[str, Fraction]], ...]:
        """At a chance node: :meth:`roll_stakes` for each roll of :meth:`joint_roll_purposes`, in the same order, so
        a joint prompt shows each roll's chances as a single roll's prompt does. Default: the pending roll's stakes
        where it is asked alone, none for a joint prompt (a ruleset with joint rolls says each roll's)."""
        return (self.roll_stakes(),) if len(self.joint_roll_purposes()) == 1 else ()

    @abstractmethod
    def _apply(self, seat: str, action: Action) -> None:
        """Apply a checked action of ``seat``; append events with :meth:`emit`."""

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        raise NotImplementedError(f"{type(self).__name__} has no chance nodes")

    def _apply_joint(self, actions: Mapping[str, Action]) -> None:
        raise NotImplementedError(f"{type(self).__name__} has no simultaneous nodes")

    def simultaneous_seats(self) -> tuple[str, ...]:
        """At a simultaneous node: the seats that choose together, in secret."""
        return ()

    def key(self) -> Hashable:
        """A hashable summary of everything that matters for what happens next (not the history).

        Exact analysis memoises on it: two states with equal keys must have the same future.
        """
        raise NotImplementedError(f"{type(self).__name__} has no key() for exact analysis")

    def clock(self) -> tuple[int, int] | None:
        """A round counter kept only for a round cap, as ``(round, cap)``; ``None`` (the default): no such clock.

        Many rules end an endless fight as a deadlock after a number of rounds (``max_exchanges``,
        ``max_rounds``). Such a counter in :meth:`key` multiplies the states exact analysis must explore by the
        cap, although the rounds differ in nothing else. A ruleset may declare the counter instead:

        - ``round`` is the number of the round being played; it grows by exactly 1 when a round ends;
        - ``cap`` is the last round played: when round ``cap`` ends, the conflict ends (a deadlock).

        The promise that comes with it (exact analysis relies on it):

        - apart from what :meth:`key_without_clock` records, the future does not depend on the round number;
          whatever of it matters (a surprise in the first round, a policy that acts differently from round 3 on)
          must be in :meth:`key_without_clock`, e.g. as ``min(round, 3)``, and policies look at no more of it;
        - the cap acts only when a round ends: a round is played the same whether it is the last or not, and at
          the end of round ``cap`` the conflict ends exactly as :meth:`end_at_cap` ends it, applied to the state
          as round ``cap + 1`` would begin;
        - :meth:`set_clock_cap` moves the cap, and is looked at only when a round ends.
        """
        return None

    def key_without_clock(self) -> Hashable:
        """:meth:`key` without the round counter of :meth:`clock` (only asked when :meth:`clock` is not ``None``).

        Equal clock-free keys ⇒ the same future, up to the round numbers, as long as the cap does not end it.
        """
        raise NotImplementedError(f"{type(self).__name__} has no key_without_clock() for exact analysis")

    def set_clock_cap(self, cap: int) -> None:
        """Play on as if the round cap were ``cap`` (only asked when :meth:`clock` is not ``None``).

        Exact analysis lifts the cap (a huge ``cap``) to learn how a round goes. It must not change the scenario's
        options object, which copies share.
        """
        raise NotImplementedError(f"{type(self).__name__} cannot move its round cap")

    def end_at_cap(self) -> None:
        """End the conflict as the cap ends it, on a state where a round has just ended and the next not yet begun.

        Only asked when :meth:`clock` is not ``None``; the state becomes terminal, with the outcome the rules give
        when the last round ends without a decision.
        """
        raise NotImplementedError(f"{type(self).__name__} cannot end the conflict at its round cap")

    @abstractmethod
    def _outcome(self) -> ConflictOutcome:
        """At a terminal state: how the conflict ended."""

    @abstractmethod
    def _view(self, seat: str) -> dict[str, Any]:
        """What ``seat`` may see of the state (JSON-friendly); hide secrets not yet revealed."""

    @abstractmethod
    def status(self) -> dict[str, dict[str, str]]:
        """Every track and pool for the table, as row → column → text (row ``"table"`` for shared things)."""

    def describe_action(self, seat: str, action: Action) -> str:
        """The action in the system's own words with a short explanation, for the seat choosing it."""
        return str(action)

    def invariants(self) -> list[str]:
        """Broken invariants in words (tokens, boxes, Gard out of bounds...); empty when all hold."""
        return []

    def correctable(self) -> dict[str, dict[str, tuple[int, int, int]]]:
        """The values the GM may set by hand: seat → name → (value now, lowest, highest). None unless listed.

        A ruleset lists only plain counters whose change the rules need not follow up (a Gard, a box, a pool):
        a mistake at the table put right, not a new rule.
        """
        return {}

    def _correct(self, seat: str, name: str, value: int) -> None:
        """Set a value :meth:`correctable` lists (already checked against its bounds)."""
        raise NotImplementedError(f"{type(self).__name__} lists no correctable values")

    def goal_sides(self) -> dict[str, tuple[str, str | None]]:
        """Every side that may reach its goal: side id → (the side's name, its goal as the scenario states it, or
        ``None`` where the scenario states none). What :meth:`declare_goal` checks and the front ends offer."""
        return {}

    def _end_by_goal(self, side: str, goal: str) -> None:
        """End the conflict because ``side`` has reached ``goal`` (the GM's word, already checked): afterwards
        :meth:`current_player` is :data:`TERMINAL` and :meth:`outcome` has the ending :data:`GOAL_REACHED`, ``side``
        its only winner, and every participant's fate as it stands (wounds, consequences, tokens kept)."""
        raise NotImplementedError(f"{type(self).__name__} cannot end by a goal reached")

    # ---- the public API ---------------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == SIMULTANEOUS

    def legal_actions(self, seat: str | None = None) -> Sequence[Action]:
        """The actions ``seat`` (default: the current player) may take now."""
        node = self.current_player()
        if seat is None:
            if node in (CHANCE, SIMULTANEOUS, TERMINAL):
                return ()
            seat = node
        if node == TERMINAL or (node == SIMULTANEOUS and seat in self._secret):
            return ()
        return self._legal_actions(seat)

    def chance_outcomes(self) -> list[tuple[ChanceOutcome, Fraction]]:
        """At a chance node: every outcome with its exact probability."""
        roll = self.pending_roll()
        if roll is None or not self.is_chance_node():
            return []
        return list(roll.distribution().items())

    def apply_action(
        self, action: Action | ChanceOutcome, checked: bool = True, faces: Sequence[int] | None = None
    ) -> None:
        """Apply the current player's action, or the outcome of the pending roll at a chance node.

        ``checked=False`` skips the legality check: for simulators whose policies choose from
        :meth:`legal_actions` (the harness plays every ruleset checked, so the fast path stays honest).
        ``faces``, at a chance node: the dice as they fell (:meth:`Dice.read_faces`, :meth:`Dice.roll`), kept in the
        step for the narration (:meth:`rolled_faces`); checked to make the outcome.

        Raises:
            IllegalActionError: the action is not legal now (the message says why).
            DiceError: at a chance node, the outcome is not a possible result of the roll asked for, or the faces
                are not faces of the roll or make another outcome.
        """
        node = self.current_player()
        if faces is not None and node != CHANCE:
            raise InvalidActionError(
                _("dice faces {faces} given, but no roll is pending ({node} decides)", faces=list(faces), node=node)
            )
        if node == TERMINAL:
            raise IllegalActionError(_("illegal action {action}: the conflict is over", action=repr(_text(action))))
        if node == SIMULTANEOUS:
            raise IllegalActionError(
                _(
                    "illegal action {action}: {seats} choose together; use apply_actions",
                    action=repr(_text(action)),
                    seats=", ".join(self.simultaneous_seats()),
                )
            )
        if node == CHANCE:
            roll = self.pending_roll()
            if roll is None:
                raise AssertionError("chance node without a pending roll")
            if isinstance(action, Action):
                raise IllegalActionError(
                    _(
                        "illegal action {action}: waiting for {purpose} ({roll})",
                        action=action,
                        purpose=self.roll_purpose(),
                        roll=roll,
                    )
                )
            outcome = roll.coerce(action) if checked else action
            fell = None if faces is None else tuple(faces)
            if checked and fell is not None and roll.outcome_of(fell) != outcome:
                raise DiceError(
                    _(
                        "the faces {faces} make {made}, not {outcome}",
                        faces=roll.faces_text(fell),
                        made=roll.describe(roll.outcome_of(fell)),
                        outcome=roll.describe(outcome),
                    )
                )
            self._steps.append(Step(CHANCE, outcome=outcome, faces=fell))
            self._apply_chance(outcome)
            return
        if not isinstance(action, Action):
            raise InvalidActionError(
                _("{action} is not an action; it is {node}'s turn to decide", action=repr(action), node=node)
            )
        if checked:
            self._check_legal(node, action)
        self._steps.append(Step(node, action=action))
        self._apply(node, action)

    def waiting_for(self) -> tuple[str, ...]:
        """At a simultaneous node: the seats that have not yet made their secret choice."""
        if self.current_player() != SIMULTANEOUS:
            return ()
        return tuple(seat for seat in self.simultaneous_seats() if seat not in self._secret)

    def apply_actions(self, actions: Mapping[str, Action], checked: bool = True) -> None:
        """Make secret choices at a simultaneous node.

        Seats may choose all at once or one by one (each on its own device, or a saved conflict mid-choice);
        a choice stays hidden from the other seats until the last one is made, then all resolve together.
        """
        if self.current_player() != SIMULTANEOUS:
            raise IllegalActionError(_("illegal secret choice: nobody is choosing in secret now"))
        waiting = self.waiting_for()
        for seat in actions:
            if seat in self._secret:
                raise IllegalActionError(_("illegal secret choice for {seat}: {seat} has already chosen", seat=seat))
            if seat not in waiting:
                raise IllegalActionError(
                    _(
                        "illegal secret choice for {seat}: not choosing now (waiting for {waiting})",
                        seat=seat,
                        waiting=", ".join(waiting),
                    )
                )
        if not actions:
            raise IllegalActionError(
                _("illegal secret choice: no choice given (waiting for {waiting})", waiting=", ".join(waiting))
            )
        if checked:
            for seat, action in actions.items():
                self._check_legal(seat, action)
        joint = tuple(sorted(actions.items()))
        self._steps.append(Step(SIMULTANEOUS, joint=joint))
        self._secret.update(joint)
        if self.waiting_for():
            for seat, action in joint:
                who = self.seat_name(seat)
                self.emit(
                    "secret",
                    _("{who} chose {choice} (secret)", who=who, choice=self.describe_action(seat, action)),
                    visible_to=frozenset({seat}),
                    seat=seat,
                    action=str(action),
                )
                self.emit("secret_made", _("{who} has made a secret choice", who=who), seat=seat)
            return
        chosen = dict(sorted(self._secret.items()))
        self._secret.clear()
        self._apply_joint(chosen)

    def correct(self, seat: str, name: str, value: int, reason: str) -> None:
        """The GM sets one of :meth:`correctable`'s values by hand, saying why: a step of its own (replayable).

        Raises:
            IllegalActionError: the conflict is over, or the value is not one the ruleset lets the GM set.
            InvalidActionError: the value is outside its bounds, or the reason is missing or too long.
        """
        if self.is_terminal():
            raise IllegalActionError(_("the conflict is over: nothing to correct"))
        values = self.correctable().get(seat)
        if values is None:
            raise IllegalActionError(_("{seat} has no values the GM may correct", seat=repr(seat)))
        if name not in values:
            raise IllegalActionError(
                _(
                    "{seat}'s {name} cannot be corrected by hand (only: {values})",
                    seat=seat,
                    name=repr(name),
                    values=", ".join(values),
                )
            )
        now, lowest, highest = values[name]
        if not isinstance(value, int) or isinstance(value, bool) or not lowest <= value <= highest:
            raise InvalidActionError(
                _(
                    "{seat}'s {name} takes a whole number from {lowest} to {highest}, not {value}",
                    seat=seat,
                    name=name,
                    lowest=lowest,
                    highest=highest,
                    value=repr(value),
                )
            )
        reason = " ".join(str(reason).split())
        if not reason or len(reason) > MAX_REASON:
            raise InvalidActionError(_("a correction needs a reason of 1 to {most} characters", most=MAX_REASON))
        action = Action.of("correct", seat=seat, name=name, value=value, reason=reason)
        self._steps.append(Step(CORRECTION, action=action))
        self._correct(seat, name, value)
        self.emit(
            "correction",
            _(
                "The GM corrected {seat}'s {name}: {before} → {after} ({reason})",
                seat=self.seat_name(seat),
                name=name,
                before=now,
                after=value,
                reason=reason,
            ),
            seat=seat,
            name=name,
            before=now,
            after=value,
            reason=reason,
        )

    def declare_goal(self, side: str, goal: str = "") -> None:
        """The GM declares that ``side`` has reached its goal: the conflict ends there, with that side the winner.

        Every text sets goals against each other, and a fight need not end by knock-out ("Om ena sidan uppnår sitt
        mål innan handlingspölen är slut…", PWGE; Le våld's Omtöckning has no limit): whether a goal is reached is
        the table's judgement, not a rule konflikt can compute, so the GM says it, with the goal in words (the
        scenario's stated goal by default). A step of its own, logged and replayed like a correction.

        Raises:
            IllegalActionError: the conflict is over, or ``side`` is not a side of this conflict.
            InvalidActionError: no goal in words (the scenario states none and none is given), or one too long.
        """
        if self.is_terminal():
            raise IllegalActionError(_("the conflict is over: no goal can be declared reached"))
        sides = self.goal_sides()
        if side not in sides:
            known = ", ".join(f"{sid} ({name})" for sid, (name, _goal) in sides.items()) or _("none")
            raise IllegalActionError(
                _("{side} is not a side of this conflict (sides: {known})", side=repr(side), known=known)
            )
        name, stated = sides[side]
        goal = " ".join(str(goal).split()) or (stated or "")
        if not goal:
            raise InvalidActionError(_("the scenario states no goal for {name}: say which goal it reached", name=name))
        if len(goal) > MAX_REASON:
            raise InvalidActionError(
                _("a goal is said in 1 to {most} characters, not {length}", most=MAX_REASON, length=len(goal))
            )
        self._steps.append(Step(DECLARATION, action=Action.of("declare", side=side, goal=goal)))
        self._secret.clear()
        self._end_by_goal(side, goal)
        self.emit(
            GOAL_REACHED,
            _(
                "The GM declares that {name} has reached its goal ({goal}): the conflict ends, {name} wins",
                name=name,
                goal=goal,
            ),
            side=side,
            goal=goal,
        )

    def apply_step(self, step: Step) -> None:
        """Replay one recorded step."""
        if step.node == DECLARATION:
            if step.action is None or step.action.kind != "declare":
                raise InvalidActionError(_("a declaration step without its declaration"))
            self.declare_goal(str(step.action.get("side", "")), str(step.action.get("goal", "")))
        elif step.node == CORRECTION:
            if step.action is None or step.action.kind != "correct":
                raise InvalidActionError(_("a correction step without its correction"))
            a = step.action
            self.correct(a.get("seat", ""), a.get("name", ""), a.get("value"), a.get("reason", ""))
        elif step.node == SIMULTANEOUS:
            self.apply_actions(dict(step.joint))
        elif step.node == CHANCE:
            if step.outcome is None:
                raise InvalidActionError(_("a chance step without an outcome"))
            self.apply_action(step.outcome, faces=step.faces)
        else:
            if step.action is None:
                raise InvalidActionError(_("a step of {node} without an action", node=step.node))
            if self.current_player() != step.node:
                raise IllegalActionError(
                    _(
                        "illegal step: {node} acts, but it is {current}'s turn",
                        node=step.node,
                        current=self.current_player(),
                    )
                )
            self.apply_action(step.action)

    def _check_legal(self, seat: str, action: Action) -> None:
        legal = self._legal_actions(seat)
        if action in legal:
            return
        reason = self.why_illegal(seat, action)
        raise IllegalActionError(
            _("illegal action {action} for {seat}: {reason}", action=repr(str(action)), seat=seat, reason=reason)
        )

    def why_illegal(self, seat: str, action: Action) -> str:
        """Why ``action`` is not legal for ``seat`` now; rulesets override it to say more."""
        legal = self._legal_actions(seat)
        if not legal:
            return _("{seat} has no decision to make now", seat=seat)
        kinds = sorted({a.kind for a in legal})
        if action.kind not in kinds:
            return _("{kind} is not possible now (possible: {kinds})", kind=repr(action.kind), kinds=", ".join(kinds))
        listed = "; ".join(str(a) for a in legal[:8]) + (" …" if len(legal) > 8 else "")
        return _("not one of the legal choices now ({legal})", legal=listed)

    quiet = False
    """Set by simulators that read only outcomes: :meth:`emit` and :func:`narration` functions do nothing."""

    def emit(self, kind: str, text: str, *, visible_to: frozenset[str] | None = None, **data: Any) -> None:
        """Append an explained event for the step being applied."""
        if self.quiet:
            return
        self._events.append(Event(kind, text, len(self._steps) - 1, data, visible_to))

    def rolled_faces(self) -> tuple[int, ...] | None:
        """While a roll is applied (in :meth:`_apply_chance`): the dice as they fell, when they are known.

        ``None`` when only the outcome is known (exact analysis, a typed total, an older record): the narration then
        shows the outcome alone. Never read by the rules: the faces are not part of the outcome or of :meth:`key`.
        """
        last = self._steps[-1] if self._steps else None
        return last.faces if last is not None and last.node == CHANCE else None

    def history(self) -> list[Event]:
        return list(self._events)

    def steps(self) -> list[Step]:
        return list(self._steps)

    def view(self, seat: str) -> dict[str, Any]:
        """What ``seat`` may see: the ruleset's view plus the events visible to it."""
        node = self.current_player()
        data = self._view(seat)
        data["seat"] = seat
        data["current"] = node
        if node == SIMULTANEOUS:
            data["choosing"] = list(self.simultaneous_seats())
            data["secret_choices"] = self.secret_choices(seat)
        data["events"] = [e.text for e in self._events if e.visible(seat)]
        return data

    def secret_choices(self, seat: str) -> dict[str, str]:
        """The secret choices made so far at this node as ``seat`` may see them: its own (every one for the GM),
        the others only as ``"hidden"``. The part of :meth:`view` a table page needs at every step, without the
        rest (the whole log's visible events, the ruleset's view)."""
        return {
            other: (str(action) if other == seat or seat == GM else "hidden") for other, action in self._secret.items()
        }

    def outcome(self) -> ConflictOutcome:
        if not self.is_terminal():
            raise IllegalActionError(_("the conflict is not over: there is no outcome yet"))
        return self._outcome()

    shared: ClassVar[tuple[str, ...]] = ()
    """Attributes that never change during a conflict (content, catalogues): shared by copies, not copied."""

    def _memo(self) -> dict[int, Any]:
        """Objects copies may share: rule options, named ``shared`` attributes, and pydantic content models.

        Pydantic models a state holds are content (characters, weapons, lists), never mutated by the rules, so a
        copy shares them; copying them dominated the cost of exact analysis.
        """
        memo: dict[int, Any] = {id(self.options): self.options}
        for name in self.shared:
            value = getattr(self, name)
            memo[id(value)] = value
        for value in vars(self).values():
            items = (
                value.values() if isinstance(value, dict) else value if isinstance(value, list | tuple) else (value,)
            )
            for item in items:
                if isinstance(item, BaseModel):
                    memo[id(item)] = item
        return memo

    def clone(self) -> State:
        return copy.deepcopy(self, self._memo())

    def fork(self) -> State:
        """A copy without the history (steps and events): what exact analysis, search and simulation need, cheap.

        Plain state classes are copied by :func:`konflikt.core.copying.fork`; others by :meth:`deep_fork`.
        """
        return fast_fork(self)

    def seen_by(self, seat: str) -> State:
        """A fork as ``seat`` knows it: the secret choices other seats have made and not yet revealed are taken back
        (those seats choose again). What search plays from, so that it never reads another seat's hidden choice.

        The default covers the secret simultaneous choices :meth:`apply_actions` keeps; a ruleset with other hidden
        information (none yet) overrides it to forget that too.
        """
        seen = self.fork()
        if seat != GM:
            seen._secret = {other: action for other, action in self._secret.items() if other == seat}
        return seen

    def deep_fork(self) -> State:
        """``fork`` by ``copy.deepcopy``: for state classes with custom copying or slots."""
        steps, events = self._steps, self._events
        self._steps, self._events = [], []
        try:
            return copy.deepcopy(self, self._memo())
        finally:
            self._steps, self._events = steps, events


S = TypeVar("S", bound=State)
P = ParamSpec("P")


def narration(write: Callable[Concatenate[S, P], None]) -> Callable[Concatenate[S, P], None]:
    """Mark a function that only writes events about a state: skipped, text and all, when the state is quiet."""

    def maybe(state: S, /, *args: P.args, **kwargs: P.kwargs) -> None:
        if not state.quiet:
            write(state, *args, **kwargs)

    maybe.__name__, maybe.__qualname__, maybe.__doc__ = write.__name__, write.__qualname__, write.__doc__
    return maybe


def _text(action: Action | ChanceOutcome) -> str:
    return str(action)


__all__ = ["CHANCE", "DECLARATION", "GM", "GOAL_REACHED", "SIMULTANEOUS", "TERMINAL", "DiceError", "State"]
