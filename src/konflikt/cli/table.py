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

import numpy as np
from rich.console import Console
from rich.text import Text

from konflikt.analysis.background_solve import OptimalInBackground, prepared
from konflikt.analysis.from_here import ENGINES, Chance, FromHere, choice_odds, percent, prepare, who_wins
from konflikt.cli.i18n import N_, _, ngettext, policy_label, whole
from konflikt.cli.line_input import ask_line
from konflikt.cli.prompts import Menu, build_menu, choice_text, list_choices, list_more, read_choice, seat_label
from konflikt.cli.render import (
    CHANGED,
    current_status,
    outcome_panel,
    print_events,
    print_item,
    probability_table,
    setup_panel,
    status_changes,
    status_table,
)
from konflikt.cli.render import percent as render_percent
from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.conflict import Conflict
from konflikt.core.names import scenario_names
from konflikt.core.ruleset import Policy
from konflikt.core.state import CHANCE, GM, SIMULTANEOUS, TERMINAL, State
from konflikt.dice import Dice, Faces
from konflikt.errors import KonfliktError
from konflikt.sim.runner import StepGenerators
from konflikt.store.db import HUMAN_SOURCES, Store
from konflikt.store.library import ending_of

FORCED_SOURCE = "forced"
"""A seat's only legal choice, taken without asking (undone with the human input before it)."""
JOINT_SOURCE = "table-joint"
"""The second and later dice typed in one prompt (undone with the first)."""
TABLE_ODDS_POLICY = "heuristic"
"""The policy that stands in for a human seat when the table asks who wins from here."""
WHOLE_BUDGET = 1.2
CHOICES_BUDGET = 0.8
"""Seconds for "who wins from here", then for the chance of each choice: the whole answer well under 2 s."""
MAX_NAME = 200
"""The longest name a player may give a consequence at the table."""
ADVICE_SOLVE_BUDGET = 0.6
"""Seconds ``advise`` may search optimal play from the state asked, in a ruleset without a round game (Le våld,
PWGE); beyond it the answer is the heuristic's values, and says so."""
SUMMARY_BUDGET = 0.5
"""Seconds for the one-line summary of ``play --odds`` after each exchange or round."""

HELP = N_(
    "a choice: its number, or words of it as listed (atak, attack Massimo, avancera, lamna, angreb), or Enter for\n"
    """the one marked [Enter] (what the heuristic would choose)
commands at any prompt:
  help        this list
  state       the set-up (every number the rules read) and every track and pool now
  more        the choices not listed at first
  log         the narrated log so far
  odds        who wins from here (exact, or ≈ estimated in about a second), the chance of each choice, and
              at a roll the chances that matter for it
  advise      each choice with its win chance when both sides play optimally after it, best first
              (solved once per scenario and kept on disk; where that is out of reach, the ≈ estimate)
  undo [n]    take back the last n human inputs (decisions, table dice and corrections; default 1)
  correct     a value set by hand (a Gard not regained, a box marked twice): 'correct' lists them;
              correct SEAT VALUE NUMBER REASON, e.g. 'correct hedda Gard 2 forgot a regained point'
  declare     the GM says a side has reached its goal: the conflict ends with that side the winner;
              'declare' lists the sides and their goals; declare SIDE [GOAL], e.g. 'declare venus'
  save        confirm that everything is saved (it is, after every step)
  quit        stop here; resume later with konflikt play --resume ID"""
)
"""The help at a prompt: each language lists its own words first (the commands may be typed in any of them)."""

COMMAND_WORDS: dict[str, tuple[str, ...]] = {
    "help": ("help", "hjälp", "hjælp", "pomoc"),
    "state": ("state", "läge", "stilling", "stan"),
    "more": ("more", "mer", "mere", "więcej"),
    "log": ("log", "logg", "dziennik"),
    "odds": ("odds", "szanse"),
    "advise": ("advise", "råd", "rada"),
    "undo": ("undo", "ångra", "fortryd", "cofnij"),
    "correct": ("correct", "rätta", "ret", "popraw"),
    "declare": ("declare", "utropa", "erklær", "ogłoś"),
    "save": ("save", "spara", "gem", "zapisz"),
    "quit": ("quit", "avsluta", "afslut", "koniec", "wyjdź"),
    "auto": ("auto",),
}
"""The table's commands as they may be typed, in English, Swedish, Danish and Polish (accents optional)."""

ENGINE_NAMES = {
    "exact": N_("exact solver"),
    "kernel": N_("vectorised kernel"),
    "reference": N_("reference runner"),
}
"""How each way of answering "who wins from here" is named."""


def command_word(word: str) -> str | None:
    """The command ``word`` names in any of the four languages (``ångra``, ``angra`` and ``undo`` are ``undo``)."""
    from konflikt.cli.prompts import fold

    folded = fold(word)
    for command, words in COMMAND_WORDS.items():
        if folded in (fold(w) for w in words):
            return command
    return None


class Quit(Exception):
    """The game master stops the session (everything is already saved)."""


@dataclass
class Undo(Exception):
    count: int


class Corrected(Exception):
    """The GM set a value by hand at a prompt: the step is asked again from the corrected state (its choices may
    depend on the value)."""


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
        *,
        odds: bool = False,
        verbose: bool = False,
        quiet: bool = False,
        played_by: Mapping[str, str] | None = None,
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
        self.ask: Ask = ask or (lambda prompt, secret: ask_line(console, Text(prompt), secret))
        self.odds, self.verbose, self.quiet = odds, verbose, quiet
        self.played_by = dict(played_by or {})
        """Seat → who plays it (``human`` or a policy name), for the labels of the seats."""
        self.names = scenario_names(conflict.scenario)
        self.asking: str | None = None
        """The seat the table is asking now (its choices get their chances from ``odds``)."""
        self.round = self.state.round_number()
        self.menu: Menu | None = None
        """The choices of the decision being asked (``more`` lists the rest)."""
        self.optimal: OptimalInBackground | None = None
        """Optimal play being solved beside the table (``advise`` answers from it once it is ready)."""

    # ---- the loop -----------------------------------------------------------------------------------------------
    def run(self) -> State:
        if not self.state.is_terminal() and not self.quiet:
            self.show_setup()
            self.console.print(self.table(_("Now")))
        if any(policy is None for policy in self.seats.values()):
            prepare(self.conflict.scenario, self.state, self.stand_ins())  # for 'odds' at the first prompt
            self.optimal = prepared(self.conflict.scenario, self.conflict.overrides)  # for 'advise', in a worker
        try:
            return self.play_on()
        finally:
            if self.optimal is not None:
                self.optimal.stop()

    def play_on(self) -> State:
        """Ask and apply step after step until the conflict ends or the GM stops."""
        try:
            while not self.state.is_terminal():
                try:
                    self.step()
                except Undo as undo:
                    self.undo(undo.count)
                except Corrected:
                    continue
        except (Quit, EOFError):
            self.console.print(
                _(
                    "stopped; conflict {id} is saved in {path}. Resume with: konflikt play --resume {id} --db {path}",
                    id=self.id,
                    path=self.store.path,
                ),
                highlight=False,
            )
            return self.state
        outcome = self.state.outcome()
        self.store.finish(self.id, outcome.summary)
        if not self.quiet:
            self.console.print(self.table(_("After the conflict")))
        self.console.print(outcome_panel(self.state, self.names), highlight=False)
        return self.state

    def show_setup(self) -> None:
        """The opening panel: each participant's numbers the rules read (skills, weapons, tracks)."""
        panel = setup_panel(self.state, self.names)
        if panel is not None:
            self.console.print(panel)

    def table(self, title: str | None = None, since: dict[str, dict[str, str]] | None = None) -> Any:
        """The status table with names for ids (only the rows changed ``since``; ``""`` when none did)."""
        table = status_table(self.state, title, since=since, names=self.names)
        return table if table is not None else ""

    def step(self) -> None:
        state = self.state
        node = state.current_player()
        before = current_status(state)
        if node == CHANCE:
            rolls, source = self.roll()
            for outcome, faces in rolls:
                state.apply_action(outcome, faces=faces)
                self.record(source, before)
                before = current_status(state)
                source = JOINT_SOURCE  # the later dice of one prompt are undone with the first
        elif node == SIMULTANEOUS:
            for seat in state.waiting_for():
                action, source = self.decide(seat, secret=True)
                state.apply_actions({seat: action})
                self.record(source, before)
                before = current_status(state)
        else:
            action, source = self.decide(node, secret=False)
            state.apply_action(action)
            self.record(source, before)
        self.summary(node)

    def record(self, source: str, before: dict[str, dict[str, str]]) -> None:
        steps = self.state.steps()
        # the last step ends the conflict in the same transaction (and writes a campaign's characters back)
        ending = ending_of(self.state, self.conflict.scenario.title)
        self.store.append(self.id, len(steps) - 1, steps[-1], source, ending)
        self.conflict.steps = steps
        self.sources.append(source)
        if self.quiet:
            return
        new = [e for e in self.state.history() if e.step == len(steps) - 1 and e.visible_to is None]
        print_events(self.console, new, compact=not self.verbose)
        if self.state.is_terminal() or current_status(self.state) == before:
            return
        if self.verbose:
            self.console.print(self.table())
            return
        for line in status_changes(self.state, before, self.names):  # what changed, grouped a line a participant
            print_item(self.console, line, indent=CHANGED, style="dim")

    def summary(self, node: str) -> None:
        """``play --odds``: who wins from here, in one line, when an exchange or round has ended (after a roll
        is resolved, in a system without rounds)."""
        if not self.odds or self.state.is_terminal():
            return
        now = self.state.round_number()
        ended = now != self.round if now is not None else node == CHANCE and not self.state.is_chance_node()
        self.round = now
        if ended:
            answer = who_wins(
                self.conflict.scenario, self.state, self.stand_ins(), SUMMARY_BUDGET, self.conflict.seed or 0
            )
            self.console.print(
                _("who wins from here: {chances}", chances=answer.line()), style="dim", highlight=False, markup=False
            )

    # ---- asking -------------------------------------------------------------------------------------------------
    def decide(self, seat: str, secret: bool) -> tuple[Action, str]:
        policy = self.seats.get(seat)
        if policy is not None:
            return policy.choose(self.state, seat, self.gen.policy_for(self.state, seat)), "policy"
        legal = list(self.state.legal_actions(seat))
        if len(legal) == 1:
            only = self.state.describe_action(seat, legal[0])
            self.console.print(
                _(
                    "{seat} must: {choice} (the only choice, taken)",
                    seat=seat_label(self.state, seat, self.names),
                    choice=only,
                ),
                highlight=False,
                markup=False,
            )
            return legal[0], FORCED_SOURCE
        self.asking = seat
        if secret:
            self.console.print(
                "\n"
                + _(
                    "{seat}: a secret choice — the others look away; input is hidden.",
                    seat=seat_label(self.state, seat, self.names),
                ),
                style="bold yellow",
                highlight=False,
            )
        self.menu = menu = build_menu(self.state, seat, legal, self.recommended(seat))
        list_choices(self.console, self.state, seat, legal, self.names, menu)
        while True:
            text = self.ask(
                _("{seat} choose 1-{count} › ", seat=seat, count=len(legal)), secret
            )  # the seat id: scripts read it
            if not text.strip() and menu.default is not None:
                return self.named(seat, legal[menu.default], secret), "human"
            if self.command(text):
                continue
            try:
                action = read_choice(text, self.state, seat, legal)
            except KonfliktError as exc:
                self.console.print(str(exc), style="red", highlight=False, markup=False)
                continue
            return self.named(seat, action, secret), "human"

    def recommended(self, seat: str) -> Action | None:
        """The choice marked for Enter: what the heuristic would choose, from what the seat knows."""
        try:
            policy = self.conflict.scenario.ruleset.policy(TABLE_ODDS_POLICY)
            known = self.state.seen_by(seat) if self.state.is_simultaneous_node() else self.state.fork()
            return policy.choose(known, seat, np.random.default_rng(len(self.state.steps())))
        except KonfliktError:
            return None

    def named(self, seat: str, action: Action, secret: bool) -> Action:
        """A chosen consequence, named at the table: for each consequence the choice takes, the player may say what
        it is ("Gracz, który bierze konsekwencję, powinien opisać co się stało"); Enter keeps the list's name."""
        taken = self.state.consequences_taken(seat, action)
        if not taken:
            return action
        names: list[str] = []
        for listed in taken:
            print_item(
                self.console,
                _(
                    "{seat} takes the consequence '{consequence}': say what it is (Enter keeps this name)",
                    seat=seat_label(self.state, seat, self.names),
                    consequence=listed,
                ),
                indent="  ",
            )
            while True:
                typed = " ".join(self.ask(_("{seat} name the consequence › ", seat=seat), secret).split())
                if len(typed) <= MAX_NAME:
                    break
                self.console.print(
                    _("a name of at most {count} characters, please", count=MAX_NAME),
                    style="red",
                    highlight=False,
                    markup=False,
                )
            names.append(typed)
        return self.state.with_consequence_names(seat, action, names) if any(names) else action

    def roll(self) -> tuple[list[Rolled], str]:
        """The pending roll's result(s) with their faces: rolled by konflikt face by face, or typed as they fell (the
        faces kept when typed die by die, so the log shows them back); where the rules let several rolls be made at
        once (``State.joint_roll_purposes``), one prompt takes them all, in order."""
        dice = self.state.pending_roll()
        assert dice is not None
        self.asking = None
        if self.dice == "auto":
            return [dice.roll(self.gen.dice_for(self.state))], "auto"
        purposes = self.state.joint_roll_purposes()
        count = len(purposes)
        if count == 1:
            self.console.print()
            print_item(self.console, purposes[0])
            print_item(
                self.console,
                _(
                    "roll {dice} at the table and type {hint}, or 'auto' to let konflikt roll",
                    dice=dice.notation,
                    hint=dice.table_hint(),
                ),
                indent="  ",
            )
            stakes = "; ".join(f"{label}: {render_percent(p)}" for label, p in self.state.roll_stakes())
            if stakes:
                print_item(self.console, _("chances: {chances}", chances=stakes), indent="  ", style="dim")
        else:
            self.console.print("", highlight=False)
            each = self.state.joint_roll_stakes()
            for number, purpose in enumerate(purposes, 1):
                print_item(self.console, f"{number}. {purpose}", hang=3)
                rows = each[number - 1] if len(each) == count else []
                stakes = "; ".join(f"{label}: {render_percent(p)}" for label, p in rows)
                if stakes:
                    print_item(self.console, _("chances: {chances}", chances=stakes), indent="   ", style="dim")
            print_item(
                self.console,
                _(
                    "roll all {count} at the table and type the {count} results in this order, e.g. '{example}' "
                    "(one result alone is taken as the first), or 'auto'",
                    count=count,
                    example=" ".join(["47", "82", "15"][:count]),
                ),
                indent="  ",
            )
        if count > 1:
            prompt = _("roll {count}×{dice} › ", count=count, dice=dice.notation)
        else:
            prompt = _("roll {dice} › ", dice=dice.notation)
        while True:
            text = self.ask(prompt, False)
            if command_word(text.strip()) == "auto":
                sampled, faces = dice.roll(self.gen.dice_for(self.state))
                fell = "" if faces is None else f"{dice.faces_text(faces)} → "
                self.console.print(
                    _("konflikt rolls {faces}{result}", faces=fell, result=dice.describe(sampled)),
                    highlight=False,
                    markup=False,
                )
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
                _(
                    "cannot read {typed} as {count} results of {dice}: type them in order, separated by spaces, "
                    "e.g. '47 82'",
                    typed=repr(text.strip()),
                    count=count,
                    dice=dice.notation,
                )
            ) from None

    def command(self, text: str) -> bool:
        """Handle a table command; ``True`` when the text was one."""
        words = text.strip().lower().split()
        if not words:
            return False
        word = command_word(words[0])
        if word == "help":
            self.console.print(_(HELP), highlight=False, markup=False)
        elif word == "state":
            self.show_setup()
            self.console.print(self.table(_("Now")))
        elif word == "more" and self.menu is not None and self.asking is not None:
            list_more(self.console, self.state, self.asking, self.menu, self.names)
        elif word == "log":
            print_events(self.console, [e for e in self.state.history() if e.visible_to is None])
        elif word == "odds":
            self.show_odds()
        elif word == "advise":
            self.show_advice()
        elif word == "save":
            self.console.print(
                ngettext(
                    "conflict {id} is saved in {path} ({n} step)",
                    "conflict {id} is saved in {path} ({n} steps)",
                    len(self.sources),
                    id=self.id,
                    path=self.store.path,
                )
            )
        elif word == "quit":
            raise Quit
        elif word == "correct":
            self.correct(text.strip()[len(words[0]) :].strip())
        elif word == "declare":
            self.declare(text.strip()[len(words[0]) :].strip())
        elif word == "undo":
            count = 1
            if len(words) > 1:
                if not (words[1].isascii() and words[1].isdigit() and len(words[1]) < 10) or int(words[1]) < 1:
                    self.console.print(
                        _("undo takes a positive number, not {typed}", typed=repr(words[1][:20])),
                        style="red",
                        markup=False,
                    )
                    return True
                count = int(words[1])
            raise Undo(count)
        else:
            return False
        return True

    def stand_ins(self) -> dict[str, Policy]:
        """Every seat's policy, the heuristic standing in for a human seat."""
        ruleset = self.conflict.scenario.ruleset
        return {
            seat: policy if policy is not None else ruleset.policy(TABLE_ODDS_POLICY)
            for seat, policy in self.seats.items()
        }

    def known(self) -> State:
        """The state as the seat being asked knows it: at a secret choice, the markers other seats have put down
        and not yet revealed are taken back (:meth:`State.seen_by`), so ``odds`` and ``advise`` typed at one
        player's hidden prompt cannot give away what another chose."""
        if self.asking is None or not self.state.is_simultaneous_node():
            return self.state
        return self.state.seen_by(self.asking)

    def show_odds(self) -> None:
        """Who wins from here (exact when the solver finishes in time, else ≈ an estimate with its interval); at a
        decision the chance of each choice; at a roll the chances that matter for it."""
        state, scenario, seed = self.known(), self.conflict.scenario, self.conflict.seed or 0
        steps = self.state.steps()  # the opening, or the opening with only hidden markers down (taken back above)
        opening = all(s.node == SIMULTANEOUS for s in steps) and sum(len(s.joint or ()) for s in steps) == len(
            self.state.secret_choices(GM)
        )
        if state.is_chance_node():
            rows = state.roll_stakes()
            if rows:
                self.console.print(probability_table(f"{state.roll_purpose()}", _("this roll"), rows))
        humans = sorted(self.names.get(s, s) for s, p in self.seats.items() if p is None)
        policies = self.stand_ins()
        answer = who_wins(scenario, state, policies, WHOLE_BUDGET, seed, at_opening=opening)
        stand_in = ""
        if humans:
            stand_in = "; " + _(
                "{seats} counted as playing '{policy}'", seats=", ".join(humans), policy=policy_label(TABLE_ODDS_POLICY)
            )
        self.print_chances(_("who wins from here"), answer, stand_in)
        seat = self.asking
        if seat is None or state.current_player() in (CHANCE, TERMINAL):
            return
        if seat not in (state.waiting_for() if state.is_simultaneous_node() else [state.current_player()]):
            return
        self.console.print(
            _("if {name} chooses (then both sides play like the built-in heuristic):", name=self.names.get(seat, seat)),
            style="bold",
            highlight=False,
            markup=False,
        )
        side = self.side_of(seat)
        for number, (action, chance) in enumerate(
            choice_odds(scenario, state, seat, policies, CHOICES_BUDGET, seed), 1
        ):
            mine = next((c for c in chance.chances if side and c.label.startswith(side)), None)
            shown = chance.line() if mine is None else _one(mine, chance)
            line = Text(f"  {number:>2}. {shown} — ")
            line.append(choice_text(state, seat, action, self.names), style="dim")
            print_item(self.console, line, hang=6)

    def optimal_rows(self, state: State, seat: str) -> tuple[list[tuple[Action, float]] | None, str]:
        """Each choice's win chance under optimal play where it is at hand now, else ``None`` and why: never a
        wait. The solved game comes from the worker beside the table (:mod:`konflikt.analysis.background_solve`);
        a ruleset without a round game is searched from here within :data:`ADVICE_SOLVE_BUDGET`."""
        from konflikt.analysis.advice import optimal_from_here
        from konflikt.analysis.optimal_solve import advice

        scenario = self.conflict.scenario
        if scenario.ruleset.round_game is None:
            return optimal_from_here(scenario, state, seat, ADVICE_SOLVE_BUDGET)
        if self.optimal is not None and not self.optimal.ready():
            return None, self.optimal.progress()
        return advice(scenario, state, seat)

    def show_advice(self) -> None:
        """Each legal choice with its side's win chance, best first: if both sides play optimally after it, where
        that is at hand (the solved game is made beside the table: until it is ready, the answer says how far it
        is), beside the chance if both play like the built-in heuristic (exact, or ≈ estimated), so that ``advise``
        and ``odds`` show the same kind of number and say what each assumes. Never a wait past the budget."""
        state, scenario, seat = self.known(), self.conflict.scenario, self.asking
        if seat is None or state.current_player() in (CHANCE, TERMINAL):
            self.console.print(_("advise: no decision now (a roll, or the end)"), highlight=False, markup=False)
            return
        name = self.names.get(seat, seat)
        rows, why = self.optimal_rows(state, seat)
        side = self.side_of(seat)
        policies = self.stand_ins()
        answers = choice_odds(scenario, state, seat, policies, CHOICES_BUDGET, self.conflict.seed or 0)
        if rows is not None:
            self.console.print(
                _(
                    "advice for {name}, best first: the win chance if both sides play optimally after the choice, "
                    "beside it if both play like the built-in heuristic",
                    name=name,
                ),
                style="bold",
                highlight=False,
                markup=False,
            )
            heuristic = dict(answers)
            legal = list(state.legal_actions(seat))  # each choice by its own number, as the menu lists it
            for rank, (action, p) in enumerate(rows, 1):
                number = legal.index(action) + 1 if action in legal else rank
                found = heuristic.get(action)
                mine = None if found is None else next((c for c in found.chances if c.label.startswith(side)), None)
                beside = (
                    "" if found is None or mine is None else " " + _("(heuristic: {chance})", chance=_one(mine, found))
                )
                line = Text(f"  {number:>2}. " + _("optimal {chance}", chance=percent(p)) + f"{beside} — ")
                line.append(choice_text(state, seat, action, self.names), style="dim")
                print_item(self.console, line, hang=6)
            return
        self.console.print(
            _(
                "advice for {name}, best first: the win chance if both sides play like the built-in heuristic after "
                "the choice (optimal play: {why})",
                name=name,
                why=why,
            ),
            style="bold",
            highlight=False,
            markup=False,
        )
        ranked = []
        for action, chance in answers:
            mine = next((c for c in chance.chances if side and c.label.startswith(side)), None)
            ranked.append((-(mine.p if mine else 0.0), action, mine, chance))
        ranked.sort(key=lambda row: row[0])
        legal = list(state.legal_actions(seat))
        for rank, (_score, action, mine, chance) in enumerate(ranked, 1):
            number = legal.index(action) + 1 if action in legal else rank
            shown = chance.line() if mine is None else _one(mine, chance)
            line = Text(f"  {number:>2}. {shown} — ")
            line.append(choice_text(state, seat, action, self.names), style="dim")
            print_item(self.console, line, hang=6)

    def side_of(self, seat: str) -> str:
        """The name of ``seat``'s side as :mod:`konflikt.analysis.from_here` labels it (empty for the GM)."""
        for side in self.conflict.scenario.sides:
            if any(p.id == seat for p in side.participants):
                return side.name
        return ""

    def print_chances(self, title: str, answer: FromHere, note: str = "") -> None:
        if answer.exact:
            how = _("exact")
        else:
            engine = ENGINE_NAMES.get(answer.method)
            how = _(
                "≈ estimated: {count} conflicts played by the {engine}",
                count=whole(answer.n),
                engine=_(engine) if engine else ENGINES[answer.method],
            )
        why = f" ({answer.note})" if answer.note else ""
        self.console.print(f"{title}: {how}{why}{note}", style="bold", highlight=False, markup=False)
        if not answer.exact and not answer.n:
            self.console.print(f"  {answer.line()}", highlight=False, markup=False)
            return
        for c in answer.chances:
            if answer.exact:
                self.console.print(f"  {c.label}: {percent(c.p)}", highlight=False, markup=False)
            else:
                interval = _("(95%: {low}–{high})", low=percent(c.low), high=percent(c.high))
                self.console.print(f"  {c.label}: ≈ {percent(c.p)} {interval}", highlight=False, markup=False)

    def correct(self, text: str) -> None:
        """``correct`` at a prompt: alone, the values the ruleset lets the GM set; with ``SEAT VALUE NUMBER REASON``
        (the seat by id or name, the value by its name, which may have spaces), that value set as a step of its own,
        saved and undone like any human input, as the browser's correction form does (``State.correct``)."""
        values = self.state.correctable()
        if not values:
            self.console.print(_("nothing to correct here: this ruleset lists no values"), style="red", markup=False)
            return
        if not text:
            self.console.print(
                _(
                    "values the GM may correct: correct SEAT VALUE NUMBER REASON, "
                    "e.g. 'correct hedda Gard 2 forgot a regained point'"
                ),
                highlight=False,
                markup=False,
            )
            for seat, named in values.items():
                listed = "; ".join(
                    _("{value} now {now} ({low}–{high})", value=name, now=now, low=low, high=high)
                    for name, (now, low, high) in named.items()
                )
                self.console.print(f"  {seat} ({self.names.get(seat, seat)}): {listed}", highlight=False, markup=False)
            return
        try:
            labels = {label: seat for seat in values for label in (seat, self.names.get(seat, seat))}
            found, rest = _prefix(text, labels)
            if found is None:
                raise KonfliktError(
                    _("{typed}: no seat of that name (seats: {seats})", typed=repr(text[:40]), seats=", ".join(values))
                )
            seat = found
            name, rest = _prefix(rest, {name: name for name in values[seat]})
            if name is None:
                raise KonfliktError(
                    _(
                        "{typed}: {seat} has no value of that name (values: {values})",
                        typed=repr(rest[:40]),
                        seat=seat,
                        values=", ".join(values[seat]),
                    )
                )
            number, _space, reason = rest.partition(" ")
            if not (number.lstrip("-").isascii() and number.lstrip("-").isdigit() and len(number) < 10):
                raise KonfliktError(
                    _(
                        "correct {seat} {value}: a whole number next, not {typed}",
                        seat=seat,
                        value=name,
                        typed=repr(number[:20]),
                    )
                )
            before = current_status(self.state)
            self.state.correct(seat, name, int(number), reason)
        except KonfliktError as exc:
            self.console.print(str(exc), style="red", highlight=False, markup=False)
            return
        self.record("correction", before)
        if self.quiet:  # the GM's own input is said back even under --quiet, as undo's answer is
            self.console.print(self.state.history()[-1].text, highlight=False, markup=False)
        raise Corrected

    def declare(self, text: str) -> None:
        """``declare`` at a prompt: alone, the sides and the goals the scenario states; with ``SIDE [GOAL]`` (the side
        by id or name), the GM's word that the side has reached its goal, which ends the conflict with it the winner
        (``State.declare_goal``): a step of its own, saved and undone like a correction."""
        sides = self.state.goal_sides()
        if not text:
            self.console.print(
                _(
                    "declare SIDE [GOAL]: the GM says a side has reached its goal, and the conflict ends with that "
                    "side the winner (the goal in words is logged; the scenario's own when none is typed)"
                ),
                highlight=False,
                markup=False,
            )
            for side, (name, goal) in sides.items():
                stated = _("goal: {goal}", goal=goal) if goal else _("no goal stated (type it after the side)")
                self.console.print(f"  {side} ({name}): {stated}", highlight=False, markup=False)
            return
        labels = {label: side for side, (name, _) in sides.items() for label in (side, name, name.split(" (", 1)[0])}
        found, rest = _prefix(text, labels)
        before = current_status(self.state)
        try:
            if found is None:
                raise KonfliktError(
                    _(
                        "{typed}: no side of that name (sides: {sides})",
                        typed=repr(text[:40]),
                        sides=", ".join(sides) or _("none"),
                    )
                )
            self.state.declare_goal(found, rest)
        except KonfliktError as exc:
            self.console.print(str(exc), style="red", highlight=False, markup=False)
            return
        self.record("declaration", before)
        if self.quiet:  # the GM's own input is said back even under --quiet
            self.console.print(self.state.history()[-1].text, highlight=False, markup=False)
        raise Corrected

    def undo(self, count: int) -> None:
        human = [i for i, source in enumerate(self.sources) if source in HUMAN_SOURCES]
        if not human:
            self.console.print(_("nothing to undo: no human input yet"), style="red")
            return
        count = min(count, len(human))
        keep = human[-count]
        self.store.truncate(self.id, keep)
        self.sources = self.sources[:keep]
        self.conflict.steps = self.conflict.steps[:keep]
        self.state = self.conflict.replay()
        self.console.print(
            ngettext(
                "undone {n} human input: back to step {step}",
                "undone {n} human inputs: back to step {step}",
                count,
                step=keep,
            ),
            style="yellow",
        )
        self.round = self.state.round_number()
        self.console.print(self.table(_("Now")))


def _prefix(text: str, labels: Mapping[str, str]) -> tuple[str | None, str]:
    """The thing whose label ``text`` begins with (case aside, the longest label first, a whole word), and the
    rest of the text: names at the prompt may have spaces (``tor box 1``, ``Kapten Nova``)."""
    for label in sorted(labels, key=len, reverse=True):
        head, after = text[: len(label)], text[len(label) : len(label) + 1]
        if head.casefold() == label.casefold() and after in ("", " "):
            return labels[label], text[len(label) :].strip()
    return None, text


def _one(chance: Chance, answer: FromHere) -> str:
    """One seat's chance after a choice: ``43%`` exact, or ``≈ 43% (38–48%), n=120``."""
    if answer.exact:
        return _("{chance} to win", chance=percent(chance.p))
    if not answer.n:
        return _("≈ no conflict finished in time")
    return _(
        "≈ {chance} to win ({low}–{high}, n={n})",
        chance=percent(chance.p),
        low=percent(chance.low),
        high=percent(chance.high),
        n=whole(answer.n),
    )
