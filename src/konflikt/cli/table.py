"""The game master's table assistant behind ``konflikt play``.

Each human seat is asked for its decision (secret choices with hidden input), policy seats act by themselves,
dice are rolled or typed in as they fell at the table, and every step is committed to the save database before
the next question, so a killed terminal loses at most the step in progress. ``undo`` replays the conflict
without its last human inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from konflikt.analysis.questions import whole_conflict_answer
from konflikt.cli.prompts import list_choices, read_choice, seat_label
from konflikt.cli.render import outcome_panel, print_events, probability_table, status_table
from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.conflict import Conflict
from konflikt.core.ruleset import Policy
from konflikt.core.state import CHANCE, SIMULTANEOUS, State
from konflikt.dice import Dice, Faces
from konflikt.errors import KonfliktError
from konflikt.sim.runner import StepGenerators
from konflikt.store.db import Store
from konflikt.store.library import ending_of

HUMAN_SOURCES = ("human", "table")
FORCED_SOURCE = "forced"
"""A seat's only legal choice, taken without asking (undone with the human input before it)."""
JOINT_SOURCE = "table-joint"
"""The second and later dice typed in one prompt (undone with the first)."""
TABLE_ODDS_POLICY = "heuristic"
TABLE_ODDS_STATES = 30_000

HELP = """commands at any prompt:
  help        this list
  state       every track and pool now
  log         the narrated log so far
  odds        the exact odds of the pending roll
  undo [n]    take back the last n human inputs (decisions and table dice; default 1)
  save        confirm that everything is saved (it is, after every step)
  quit        stop here; resume later with konflikt play --resume ID"""


class Quit(Exception):
    """The game master stops the session (everything is already saved)."""


@dataclass
class Undo(Exception):
    count: int


Ask = Callable[[str, bool], str]
Rolled = tuple[ChanceOutcome, Faces | None]
"""A roll's outcome and its faces (``None`` when typed as a total)."""


class TableSession:
    """One conflict at the table, backed by one saved conflict in the store."""

    def __init__(
        self,
        console: Console,
        store: Store,
        conflict_id: int,
        conflict: Conflict,
        sources: list[str],
        seats: Mapping[str, Policy | None],
        dice: str,
        ask: Ask | None = None,
    ) -> None:
        if conflict.seed is None:
            raise KonfliktError("a played conflict needs a seed")
        self.console = console
        self.store = store
        self.id = conflict_id
        self.conflict = conflict
        self.sources = list(sources)
        self.seats = seats
        self.dice = dice
        self.gen = StepGenerators(conflict.seed)
        self.state = conflict.replay()
        self.ask: Ask = ask or (lambda prompt, secret: console.input(prompt, password=secret))

    # ---- the loop -----------------------------------------------------------------------------------------------
    def run(self) -> State:
        self.console.print(status_table(self.state, "Now"))
        try:
            while not self.state.is_terminal():
                try:
                    self.step()
                except Undo as undo:
                    self.undo(undo.count)
        except (Quit, EOFError):
            self.console.print(
                f"stopped; conflict {self.id} is saved in {self.store.path}. "
                f"Resume with: konflikt play --resume {self.id} --db {self.store.path}",
                highlight=False,
            )
            return self.state
        outcome = self.state.outcome()
        self.store.finish(self.id, outcome.summary)
        self.console.print(status_table(self.state, "After the conflict"))
        self.console.print(outcome_panel(self.state), highlight=False)
        return self.state

    def step(self) -> None:
        state = self.state
        node = state.current_player()
        before = state.status()
        if node == CHANCE:
            rolls, source = self.roll()
            for outcome, faces in rolls:
                state.apply_action(outcome, faces=faces)
                self.record(source, before)
                before = state.status()
                source = JOINT_SOURCE  # the later dice of one prompt are undone with the first
        elif node == SIMULTANEOUS:
            for seat in state.waiting_for():
                action, source = self.decide(seat, secret=True)
                state.apply_actions({seat: action})
                self.record(source, before)
                before = state.status()
        else:
            action, source = self.decide(node, secret=False)
            state.apply_action(action)
            self.record(source, before)

    def record(self, source: str, before: dict[str, dict[str, str]]) -> None:
        steps = self.state.steps()
        # the last step ends the conflict in the same transaction (and writes a campaign's characters back)
        ending = ending_of(self.state, self.conflict.scenario.title)
        self.store.append(self.id, len(steps) - 1, steps[-1], source, ending)
        self.conflict.steps = steps
        self.sources.append(source)
        new = [e for e in self.state.history() if e.step == len(steps) - 1 and e.visible_to is None]
        print_events(self.console, new)
        if self.state.status() != before and not self.state.is_terminal():
            self.console.print(status_table(self.state))

    # ---- asking -------------------------------------------------------------------------------------------------
    def decide(self, seat: str, secret: bool) -> tuple[Action, str]:
        policy = self.seats.get(seat)
        if policy is not None:
            return policy.choose(self.state, seat, self.gen.policy_for(self.state, seat)), "policy"
        legal = list(self.state.legal_actions(seat))
        if len(legal) == 1:
            only = self.state.describe_action(seat, legal[0])
            self.console.print(
                f"{seat_label(self.state, seat)} must: {only} (the only choice)", highlight=False, markup=False
            )
            return legal[0], FORCED_SOURCE
        if secret:
            self.console.print(
                f"\n{seat_label(self.state, seat)}: a secret choice — the others look away; input is hidden.",
                style="bold yellow",
                highlight=False,
            )
        list_choices(self.console, self.state, seat, legal)
        while True:
            text = self.ask(f"{seat} choose 1-{len(legal)} › ", secret)
            if self.command(text):
                continue
            try:
                return read_choice(text, self.state, seat, legal), "human"
            except KonfliktError as exc:
                self.console.print(str(exc), style="red", highlight=False, markup=False)

    def roll(self) -> tuple[list[Rolled], str]:
        """The pending roll's result(s) with their faces: rolled by konflikt face by face, or typed as they fell (the
        faces kept when typed die by die, so the log shows them back); where the rules let several rolls be made at
        once (``State.joint_roll_purposes``), one prompt takes them all, in order."""
        dice = self.state.pending_roll()
        assert dice is not None
        if self.dice == "auto":
            return [dice.roll(self.gen.dice_for(self.state))], "auto"
        purposes = self.state.joint_roll_purposes()
        count = len(purposes)
        if count == 1:
            self.console.print(
                f"\n{purposes[0]}\n  roll {dice.notation} at the table and type {dice.table_hint()}, or 'auto' to let "
                "konflikt roll",
                highlight=False,
                markup=False,
            )
        else:
            self.console.print("", highlight=False)
            for number, purpose in enumerate(purposes, 1):
                self.console.print(f"{number}. {purpose}", highlight=False, markup=False)
            self.console.print(
                f"  roll all {count} at the table and type the {count} results in this order, e.g. "
                f"'{' '.join(['47', '82', '15'][:count])}' (one result alone is taken as the first), or 'auto'",
                highlight=False,
                markup=False,
            )
        prompt = f"roll {count}×{dice.notation} › " if count > 1 else f"roll {dice.notation} › "
        while True:
            text = self.ask(prompt, False)
            if text.strip().lower() == "auto":
                sampled, faces = dice.roll(self.gen.dice_for(self.state))
                fell = "" if faces is None else f"{dice.faces_text(faces)} → "
                self.console.print(f"konflikt rolls {fell}{dice.describe(sampled)}", highlight=False, markup=False)
                return [(sampled, faces)], "table"
            if self.command(text):
                continue
            try:
                return self.read_rolls(dice, text, count), "table"
            except KonfliktError as exc:
                self.console.print(str(exc), style="red", highlight=False, markup=False)

    @staticmethod
    def read_rolls(dice: Dice, text: str, count: int) -> list[Rolled]:
        """One result, or ``count`` results separated by spaces (each one number) for a joint prompt; each with its
        faces when typed die by die."""
        if count == 1:
            return [dice.read_faces(text)]
        words = text.split()
        if len(words) == count:
            return [dice.read_faces(word) for word in words]
        try:
            return [dice.read_faces(text)]
        except KonfliktError:
            raise KonfliktError(
                f"cannot read {text.strip()!r} as {count} results of {dice.notation}: type them in order, separated "
                "by spaces, e.g. '47 82'"
            ) from None

    def command(self, text: str) -> bool:
        """Handle a table command; ``True`` when the text was one."""
        words = text.strip().lower().split()
        if not words:
            return False
        word = words[0]
        if word == "help":
            self.console.print(HELP, highlight=False, markup=False)
        elif word == "state":
            self.console.print(status_table(self.state, "Now"))
        elif word == "log":
            print_events(self.console, [e for e in self.state.history() if e.visible_to is None])
        elif word == "odds":
            self.show_odds()
        elif word == "save":
            self.console.print(f"conflict {self.id} is saved in {self.store.path} ({len(self.sources)} steps)")
        elif word == "quit":
            raise Quit
        elif word == "undo":
            count = 1
            if len(words) > 1:
                if not (words[1].isascii() and words[1].isdigit() and len(words[1]) < 10) or int(words[1]) < 1:
                    self.console.print(
                        f"undo takes a positive number, not {words[1][:20]!r}", style="red", markup=False
                    )
                    return True
                count = int(words[1])
            raise Undo(count)
        else:
            return False
        return True

    def show_odds(self) -> None:
        """The pending roll's exact distribution, and who wins from here if every seat played the heuristic."""
        dice: Dice | None = self.state.pending_roll() if self.state.is_chance_node() else None
        if dice is None:
            self.console.print("no roll is pending now")
        else:
            dist: dict[Any, Any] = dice.distribution()
            rows = [(dice.outcome_label(k), p) for k, p in dist.items()]
            self.console.print(probability_table(f"{self.state.roll_purpose()}: {dice.notation}", "result", rows))
        scenario = self.conflict.scenario
        stand_in = {
            seat: policy if policy is not None else scenario.ruleset.policy(TABLE_ODDS_POLICY)
            for seat, policy in self.seats.items()
        }
        try:
            answer = whole_conflict_answer(
                scenario, self.state, stand_in, TABLE_ODDS_STATES,
                f"who wins from here (exact; human seats counted as playing '{TABLE_ODDS_POLICY}')",
            )  # fmt: skip
        except KonfliktError as exc:
            self.console.print(f"whole-conflict odds: {exc}", style="dim", highlight=False, markup=False)
            return
        self.console.print(probability_table(answer.title, answer.label, answer.outcomes))

    def undo(self, count: int) -> None:
        human = [i for i, source in enumerate(self.sources) if source in HUMAN_SOURCES]
        if not human:
            self.console.print("nothing to undo: no human input yet", style="red")
            return
        count = min(count, len(human))
        keep = human[-count]
        self.store.truncate(self.id, keep)
        self.sources = self.sources[:keep]
        self.conflict.steps = self.conflict.steps[:keep]
        self.state = self.conflict.replay()
        self.console.print(f"undone {count} human input{'s' if count > 1 else ''}: back to step {keep}", style="yellow")
        self.console.print(status_table(self.state, "Now"))
