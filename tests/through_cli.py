"""A rule test marked ``through_cli`` is played a second time, by a game master at the command line.

Why: a rule test drives a state through the State API (``apply_action``, dice outcomes given), which proves the rule
in the engine. A game master meets the rule through ``konflikt play``: the scenario read from a TOML file, the rule
options given with ``-o``, each decision typed as a number from the menu, each roll typed as the dice fell
(``--dice table``), the narration printed. A marked test is therefore replayed there, input by input, after it has
passed: every state the test drove is written out as a scenario file, ``konflikt play`` is fed the typed lines that
make the same steps, and then

- the conflict ``konflikt export`` gives back has exactly the test's steps (a typed number that meant another choice,
  or a roll read as another outcome, fails here; the table may only have gone on over choices it takes by itself),
- the state the table saved is the test's: the same view and the same choices for every seat (a rule option lost
  on the way shows here even where the steps could still be typed), and
- the table narrated the same events, and ``play`` printed every one of them (the narration the game master reads
  holds the rule's result the test asserted; a roll typed die by die is narrated with its faces, so the texts are
  compared with the conflict the table saved, the kinds with the test's).

So a marked test fails if its rule is wrong in the engine (its own asserts) or is not reached the same way at the
command line. The harness refuses a marked test that drives no state, or one whose state was changed by hand (a
field set directly cannot be typed at the table), so a mark cannot be satisfied by accident.

Only background work is switched off in the replayed ``play`` (preparing odds and optimal play for the first prompt,
which no typed line here asks for); the engine, the prompts, the parsing and the save database are the real ones.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import sys
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from konflikt.cli.main import main
from konflikt.cli.table import FORCED_SOURCE
from konflikt.core.actions import Action, Step
from konflikt.core.conflict import Conflict
from konflikt.core.events import Event
from konflikt.core.options import Options
from konflikt.core.overrides import dump_toml
from konflikt.core.ruleset import get_ruleset, ruleset_ids
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, CORRECTION, DECLARATION, GM, SIMULTANEOUS, State
from konflikt.dice import Dice, Fudge, Percentile
from konflikt.errors import KonfliktError

TESTS = str(Path(__file__).resolve().parent)
SECRET_KINDS = frozenset({"secret", "secret_made"})
"""Events a choice made one seat at a time emits (the table asks seat by seat; a test may give all at once)."""


class NotReplayable(AssertionError):
    """The test's state cannot be reached by typing at the table."""


@dataclass(frozen=True)
class Origin:
    """Where a driven state began: its scenario, its resolved rule options, and the steps before it was forked."""

    scenario: Scenario
    options: Options
    before: tuple[Step, ...] = ()


class Recorder:
    """Watches a test: which states it made (with their scenario) and which it drove by hand."""

    def __init__(self) -> None:
        self.origins: weakref.WeakKeyDictionary[State, Origin] = weakref.WeakKeyDictionary()
        self.driven: dict[int, State] = {}

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        originals: list[tuple[object, str, Any]] = []

        def patch(target: object, name: str, value: Any) -> None:
            originals.append((target, name, target.__dict__[name]))
            _set(target, name, value)

        for ruleset_id in ruleset_ids():
            ruleset = get_ruleset(ruleset_id)
            patch(ruleset, "new_state", self._made(ruleset.new_state))
        patch(State, "fork", self._forked(State.fork, with_history=False))
        patch(State, "clone", self._forked(State.clone, with_history=True))
        for name in ("apply_action", "apply_actions", "correct", "declare_goal"):
            patch(State, name, self._driving(getattr(State, name)))
        try:
            yield
        finally:
            for target, name, value in reversed(originals):
                _set(target, name, value)

    def _made(self, make: Any) -> Any:
        def made(scenario: Scenario, options: Options) -> State:
            state: State = make(scenario, options)
            self.origins[state] = Origin(scenario, options)
            return state

        return made

    def _forked(self, fork: Any, with_history: bool) -> Any:
        """A copy begins where its original stands: a fork without the history (its steps come after the
        original's), a clone with it (its steps include them)."""

        def forked(state: State) -> State:
            copy: State = fork(state)
            origin = self.origins.get(state)
            if origin is not None:
                before = origin.before if with_history else (*origin.before, *state.steps())
                self.origins[copy] = Origin(origin.scenario, origin.options, before)
            return copy

        return forked

    def _driving(self, method: Any) -> Any:
        def driving(state: State, *args: Any, **kwargs: Any) -> Any:
            caller = sys._getframe(1).f_code.co_filename
            if caller.startswith(TESTS) and caller != __file__:
                self.driven.setdefault(id(state), state)
            return method(state, *args, **kwargs)

        return driving


def _set(target: object, name: str, value: Any) -> None:
    """Set an attribute of a class, or of a frozen dataclass (a ruleset), for the one test watched."""
    if isinstance(target, type):
        setattr(target, name, value)
    else:
        object.__setattr__(target, name, value)


def replay_driven(recorder: Recorder, folder: Path) -> int:
    """Replay every state the test drove through ``konflikt play``; the number replayed.

    Raises:
        NotReplayable: a driven state has no known scenario, or was changed by hand.
        AssertionError: the command line made other steps, or did not print an event the test's state narrated.
    """
    count = 0
    for number, state in enumerate(recorder.driven.values()):
        origin = recorder.origins.get(state)
        if origin is None:
            raise NotReplayable("a driven state was not made from a scenario (new_state) this harness saw")
        if not state.steps():
            continue
        through_command_line(origin, state, folder / f"replay{number}")
        count += 1
    return count


def through_command_line(origin: Origin, state: State, folder: Path) -> None:
    steps = [*origin.before, *state.steps()]
    reached = _replayed(origin, steps)
    if _comparable(reached.view(GM)) != _comparable(state.view(GM)):
        raise NotReplayable("the test changed its state by hand (its steps alone do not reach it)")
    folder.mkdir(parents=True)
    scenario_file = folder / "scenario.toml"
    scenario_file.write_text(dump_toml(dict(origin.scenario.document)), encoding="utf-8")
    lines = typed_lines(origin, steps)
    db = folder / "saves.sqlite"
    args = ["play", str(scenario_file), "--dice", "table", "--seed", "1", "--db", str(db)]
    for name, value in _overrides(origin).items():
        args += ["-o", f"{name}={value}"]
    for seat in (*reached.seats(), GM):
        args += ["-p", f"{seat}=human"]
    code, out, err = _run(args, lines)
    assert code == 0, f"konflikt play exited {code}: {err.strip()[-400:]}"
    code, exported, err = _run(["export", "1", "--db", str(db)], [])
    assert code == 0, err
    record = json.loads(exported)
    played = Conflict.from_json(record, "export")
    typed = len(_flat(steps))  # the table asks seat by seat: one of its steps per flat step of the test
    assert _flat(played.steps)[:typed] == _flat(steps), (
        "the command line made other steps than the test:\n"
        f"  typed: {lines}\n  test:  {_flat(steps)}\n  cli:   {_flat(played.steps)}"
    )
    ahead = record["play"]["sources"][typed:]
    assert all(source == FORCED_SOURCE for source in ahead), f"the table went on past the test's steps: {ahead}"
    at_table = played.replay(upto=typed)
    assert _comparable(at_table.view(GM)) == _comparable(state.view(GM)), "the table's state is not the test's"
    for seat in state.seats():
        assert at_table.legal_actions(seat) == state.legal_actions(seat), f"{seat} has other choices at the table"
    narrated = _public(at_table.history())
    assert [e.kind for e in narrated] == [e.kind for e in _public(reached.history())], "other events at the table"
    printed = "".join(out.split())
    missing = [e.text for e in narrated if "".join(e.text.split()) not in printed]
    assert not missing, f"konflikt play did not print: {missing[:3]}"


def typed_lines(origin: Origin, steps: Sequence[Step]) -> list[str]:
    """The lines a game master types at ``konflikt play --dice table`` to make ``steps``, prompt by prompt as the
    table asks (seat by seat at a secret choice; several rolls in one prompt where the rules allow; nothing for a
    decision with one choice, which the table takes)."""
    shadow = origin.scenario.ruleset.new_state(origin.scenario, origin.options)
    lines: list[str] = []
    i = 0
    while i < len(steps):
        step = steps[i]
        if step.node in (CORRECTION, DECLARATION):
            lines.append(_gm_command(step))
            shadow.apply_step(step)
            i += 1
            continue
        node = shadow.current_player()
        if node == CHANCE:
            dice = shadow.pending_roll()
            assert dice is not None
            group: list[Step] = []
            count = len(shadow.joint_roll_purposes())
            while len(group) < count and i < len(steps) and steps[i].node == CHANCE:
                group.append(steps[i])
                shadow.apply_step(steps[i])
                i += 1
            lines.append(" ".join(_typed_roll(dice, s) for s in group))
        elif node == SIMULTANEOUS:
            chosen: dict[str, Action] = {}
            while i < len(steps) and steps[i].node == SIMULTANEOUS and not set(chosen) >= set(shadow.waiting_for()):
                chosen.update(steps[i].joint)
                i += 1
            for seat in shadow.waiting_for():
                if seat not in chosen:
                    if any(later in chosen for later in shadow.waiting_for()):
                        raise NotReplayable(f"the table asks {seat} before the seats the test chose for")
                    break
                lines += _typed_choice(shadow, seat, chosen[seat])
                shadow.apply_actions({seat: chosen[seat]})
        else:
            if step.node != node or step.action is None:
                raise NotReplayable(f"step {i} is {step.node}'s, but the table asks {node}")
            lines += _typed_choice(shadow, node, step.action)
            shadow.apply_step(step)
            i += 1
    return lines


def _typed_choice(shadow: State, seat: str, action: Action) -> list[str]:
    """The menu's number for ``action`` (its own text when it is not listed as such: a named consequence), then
    Enter for each consequence the table asks to name (the list's name kept); nothing when it is the only choice."""
    legal = list(shadow.legal_actions(seat))
    if legal == [action]:
        return []
    typed = [str(legal.index(action) + 1) if action in legal else str(action)]
    return typed + [""] * len(shadow.consequences_taken(seat, action))


def _typed_roll(dice: Dice, step: Step) -> str:
    """One result as one word, as ``play --dice table`` reads it: the faces (comma-separated) when the test gave
    them, else the total, else faces that make the outcome (a pool of d6 is typed die by die)."""
    candidates: list[str] = []
    if step.faces is not None and not isinstance(dice, Percentile):
        candidates.append(dice.faces_text(step.faces).replace(" ", ","))
    candidates.append(str(step.outcome))
    for text in candidates:
        try:
            outcome, faces = dice.read_faces(text)
        except KonfliktError:
            continue
        if outcome == step.outcome and (step.faces is None or faces is None or tuple(faces) == step.faces):
            return text
    values = (-1, 0, 1) if isinstance(dice, Fudge) else range(1, 7)
    count = int(getattr(dice, "count", 1))
    for faces in itertools.combinations_with_replacement(values, count):
        if dice.outcome_of(faces) == step.outcome:
            return dice.faces_text(faces).replace(" ", ",")
    raise NotReplayable(f"no faces of {dice.notation} make {step.outcome!r}")


def _gm_command(step: Step) -> str:
    action = step.action
    assert action is not None
    if step.node == DECLARATION:
        return f"declare {action.get('side')} {action.get('goal', '')}".rstrip()
    return f"correct {action.get('seat')} {action.get('name')} {action.get('value')} {action.get('reason')}"


def _replayed(origin: Origin, steps: Sequence[Step]) -> State:
    state = origin.scenario.ruleset.new_state(origin.scenario, origin.options)
    for step in steps:
        try:
            state.apply_step(step)
        except KonfliktError as exc:
            raise NotReplayable(f"the test changed its state by hand (its steps do not replay: {exc})") from None
    return state


def _overrides(origin: Origin) -> dict[str, str]:
    """The rule options the test's state has that the scenario file alone would not give: ``-o`` at the table."""
    ruleset = origin.scenario.ruleset
    written = ruleset.options.resolve(origin.scenario.options)
    return {
        name: (str(value).lower() if isinstance(value, bool) else str(value))
        for name, value in origin.options.items()
        if written[name] != value
    }


def _flat(steps: Sequence[Step]) -> list[tuple[str, Any]]:
    """The steps with each secret choice as its own (a table asks seat by seat) and without faces (narration)."""
    flat: list[tuple[str, Any]] = []
    for step in steps:
        if step.node == SIMULTANEOUS:
            flat += [(seat, str(action)) for seat, action in step.joint]
        elif step.node == CHANCE:
            flat.append((CHANCE, tuple(step.outcome) if isinstance(step.outcome, tuple) else step.outcome))
        else:
            flat.append((step.node, str(step.action)))
    return flat


def _public(events: Sequence[Event]) -> list[Event]:
    """The events the table narrates to everyone as steps are made (not the opening's, which the setup panel shows,
    and not a secret choice's, made seat by seat at the table)."""
    return [e for e in events if e.step >= 0 and e.visible_to is None and e.kind not in SECRET_KINDS]


def _comparable(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key != "events"}


def _run(args: list[str], lines: list[str]) -> tuple[int, str, str]:
    """``konflikt ARGS`` in this process with ``lines`` as its typed input (then the end of input, which stops the
    table with everything saved), without the background preparation of odds and optimal play."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
        patch.setattr("konflikt.cli.table.prepare", lambda *args: None)
        patch.setattr("konflikt.cli.table.prepared", lambda *args: None)
        patch.setattr("getpass.getpass", _hidden_line)  # a secret choice read from the script, not from /dev/tty
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(args)
            except SystemExit as exc:
                code = int(exc.code or 0) if not isinstance(exc.code, str) else 1
    return code, out.getvalue(), err.getvalue()


def _hidden_line(prompt: str = "", stream: Any = None) -> str:
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")
