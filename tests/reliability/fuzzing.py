"""Fuzz targets shared by the suite (hypothesis) and the long campaign (``scripts/fuzz.py``).

Each target takes a ``random.Random`` (hypothesis draws it, the campaign seeds it), builds one hostile input from
konflikt's own bundled files, feeds it to the real code path and classifies what happened:

- ``ok``: accepted and handled;
- ``refused``: a :class:`KonfliktError` (at the command line: exit 2 and one line);
- ``over-budget``: the work was stopped by the time budget (reported, never a failure by itself);

and raises :class:`Bug` for anything else (an internal error, more than one line, a file that changed although
konflikt must not write it).
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import hashlib
import io
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from konflikt.core.scenario import bundled_examples
from konflikt.errors import KonfliktError

#: Wall-clock seconds one example may take before it counts as over budget.
BUDGET = 10.0
#: The most memory (resident, MiB) one ``konflikt`` process of an example may hold.
MEMORY_MIB = 1024
#: Steps of play tried on an accepted scenario (enough to cross a few rounds, cheap enough for the suite).
PLAY_STEPS = 300


class Bug(AssertionError):
    """An input that konflikt does not handle as promised."""


class Nonsense(Bug):
    """A value the model must refuse was accepted (``omdomme = true``, a consequence not on the lists, a name with
    a line break, a lone surrogate in an import)."""


class RawOutput(Bug):
    """A control character or escape sequence reached stdout or stderr raw (a terminal would obey it)."""


class Changed(Bug):
    """A file changed (or was created) that konflikt must leave as it was."""


class Runaway(Bug):
    """A konflikt process held more memory than :data:`MEMORY_MIB`."""


class OverBudget(BaseException):
    """The time budget of one example ran out (a BaseException: nothing on the way may swallow it)."""


@contextlib.contextmanager
def budget(seconds: float = BUDGET) -> Iterator[None]:
    def alarm(signum: int, frame: object) -> None:
        raise OverBudget

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


#: Set by :func:`through_subprocess`: the command-line targets run ``python -m konflikt`` as its own process.
_SUBPROCESS = [False]
#: The targets that run konflikt's command line (the others call the loaders and the engine directly).
COMMAND_LINE_TARGETS = ("dice", "import", "database", "chars", "campaign", "round-trip")


@contextlib.contextmanager
def through_subprocess(on: bool = True) -> Iterator[None]:
    """Run the command-line targets' ``konflikt`` as a real process (the interpreter's exit, stdin closed)."""
    previous = _SUBPROCESS[0]
    _SUBPROCESS[0] = on
    try:
        yield
    finally:
        _SUBPROCESS[0] = previous


def classify(action: Callable[[], object], commands: int = 1) -> str:
    """Run one example (of ``commands`` konflikt commands): ``ok``, ``refused`` or ``over-budget``; anything else
    is a :class:`Bug`."""
    try:
        # a process of its own starts the interpreter and imports konflikt first: a few seconds on a loaded machine
        with budget(BUDGET * 3 * commands if _SUBPROCESS[0] else BUDGET):
            action()
    except OverBudget:
        return "over-budget"
    except KonfliktError:
        return "refused"
    except Bug:
        raise
    except Exception as exc:
        raise Bug(f"internal error: {type(exc).__name__}: {exc}") from exc
    return "ok"


# ---- interesting values ----------------------------------------------------------------------------------------
def interesting(rng: random.Random) -> Any:
    """A value that has broken programs before: edges of every type TOML and JSON can hold."""
    choices: list[Callable[[], Any]] = [
        lambda: rng.choice([0, 1, -1, 2, 3, 6, 7, 100, 2**31, -(2**31), 2**63, 10**18, -(10**18)]),
        lambda: int("9" * rng.choice([19, 40, 300, 4200])),
        lambda: rng.choice([0.0, -0.5, 1.5, 1e308, float("inf"), float("-inf"), float("nan")]),
        lambda: rng.choice([True, False]),
        lambda: rng.choice(["", " ", "x", "human", "heuristic", "random", "²", "①", "-1", "1", "None", "null"]),
        lambda: "".join(rng.choice("aZ09 _-/\\.\n\t\x00'\"[]{}=²①…ąø") for _ in range(rng.randint(1, 30))),
        lambda: "y" * rng.choice([100, 5000]),
        lambda: [],
        lambda: {},
        lambda: [rng.randint(-3, 9) for _ in range(rng.randint(1, 4))],
        lambda: {"id": "x", "name": "x"},
        lambda: nested(rng.randint(30, 80)),
        lambda: hostile_text(rng),
    ]
    return rng.choice(choices)()


#: Pieces of text that have broken terminals, encoders and parsers: escape sequences (set the window's title, clear
#: the screen), C1's CSI, the bidirectional overrides, NUL, line breaks, lone surrogates (JSON can spell them), and
#: invalid bytes as Python reads them from argv (``surrogateescape``: ``\\udcff`` is the byte 0xff).
HOSTILE = [
    "\x1b]2;pwned\x07", "\x1b[2J", "\x1b[31m", "\x9b31m", "\u202e", "\u2066", "\x00", "\n", "\r", "\x7f", "\x85",
    "\u2028", "\ud800", "\udfff", "\udcff", "\udc80\udc81", "\t", " ", "", "é", "Ω", "😀",
]  # fmt: skip
#: What no terminal may receive raw: C0 but tab and newline, DEL, C1 (and bytes 0x80–0x9f read as surrogates),
#: the bidirectional overrides.
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\udc80-\udc9f\udc1b]")


def hostile_text(rng: random.Random, length: int = 4) -> str:
    """A short text of letters and :data:`HOSTILE` pieces."""
    return "".join(rng.choice([*HOSTILE, "Bu", "dolf", "a", "Z"]) for _ in range(rng.randint(1, length)))


def clean_text(rng: random.Random) -> str:
    """Hostile but valid text: escapes, C1 and bidirectional overrides, no NUL, line break or lone surrogate (what
    a title or a description may hold, and every printer must show escaped)."""
    pieces = ["\x1b]2;pwned\x07", "\x1b[2J", "\x9b31m", "\u202e", "\x7f", "Tvekamp", "Ω", " "]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(1, 5))) + "x"


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a tree of dicts and lists (the places a mutation can hit)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths(child, (*prefix, index))
    return found


def mutate_tree(doc: Any, rng: random.Random, count: int) -> Any:
    """Set, delete or duplicate ``count`` random places of a parsed document."""
    doc = copy.deepcopy(doc)
    for _ in range(count):
        where = rng.choice(paths(doc)[1:] or [()])
        if not where:
            return interesting(rng)
        parent = doc
        for key in where[:-1]:
            parent = parent[key]
        key = where[-1]
        move = rng.random()
        if move < 0.6:
            parent[key] = interesting(rng)
        elif move < 0.8:
            if isinstance(parent, dict):
                del parent[key]
            else:
                parent.pop(key)
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            parent[rng.choice(["extra", "seed", "policy", "character", "gm", "options", "id"])] = interesting(rng)
    return doc


def mutate_text(text: str, rng: random.Random, count: int) -> str:
    """Line and character edits on a TOML file: drop, repeat, swap, splice junk, change a number."""
    lines = text.splitlines()
    for _ in range(count):
        i = rng.randrange(len(lines)) if lines else 0
        move = rng.choice([0, 1, 2, 3, 4, 4, 4, 4, 4, 5])
        if move == 0 and lines:
            lines.pop(i)
        elif move == 1 and lines:
            lines.insert(i, lines[i])
        elif move == 2 and len(lines) > 1:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif move == 3 and lines:
            k = rng.randint(0, len(lines[i]))
            junk = "".join(rng.choice("[]{}=\"',#.\\0129 ²①\x00x") for _ in range(rng.randint(1, 5)))
            lines[i] = lines[i][:k] + junk + lines[i][k:]
        elif move == 4 and lines:
            value = interesting(rng)
            shown = json.dumps(value) if not isinstance(value, float) or value == value else "nan"
            if "=" in lines[i] and len(shown) < 20_000:
                lines[i] = lines[i].split("=", 1)[0] + "= " + shown
        else:
            lines.insert(i, rng.choice(["[options]", "[setup]", "seed = -1", 'policy = ""', "x = " + "[" * 300]))
    return "\n".join(lines) + "\n"


# ---- the sources -----------------------------------------------------------------------------------------------
@cache
def example_texts() -> list[tuple[str, str]]:
    root = bundled_examples()
    return [
        (f"{p.parent.name}/{p.stem}", p.read_text(encoding="utf-8"))
        for p in sorted(root.glob("*/*.toml"))
        if p.parent.name != "sweeps"
    ]


def play_briefly(scenario: Any, overrides: dict[str, Any], seed: int) -> None:
    """Start the conflict and play up to :data:`PLAY_STEPS` steps with the scenario's policies."""
    from konflikt.core.conflict import new_state
    from konflikt.sim.runner import Generators, Runner, seat_policies

    state = new_state(scenario, overrides)
    seats = seat_policies(scenario, {seat: "random" for seat in seat_policies(scenario)})
    runner = Runner(seats, Generators.from_seed(seed))
    for _ in range(PLAY_STEPS):
        if state.is_terminal():
            state.outcome()
            return
        runner.step(state)


# ---- targets ---------------------------------------------------------------------------------------------------
def scenario_text(rng: random.Random, workdir: Path) -> str:
    """A bundled example with edited lines, loaded from a file and played."""
    from konflikt.core.scenario import load_scenario

    _, text = rng.choice(example_texts())
    path = workdir / "fuzz.toml"
    path.write_text(mutate_text(text, rng, rng.randint(1, 3)), encoding="utf-8", errors="surrogatepass")

    def action() -> None:
        scenario = load_scenario(path)
        play_briefly(scenario, {}, rng.randrange(2**32))

    return classify(action)


def scenario_document(rng: random.Random, workdir: Path) -> str:
    """A bundled example as parsed, with values set to edge cases, validated and played."""
    from konflikt.core.scenario import scenario_from_document

    name, text = rng.choice(example_texts())
    base = bundled_examples() / name.split("/")[0]
    doc = mutate_tree(tomllib.loads(text), rng, rng.randint(1, 3))

    def action() -> None:
        scenario = scenario_from_document(doc, "fuzz.toml", base=base)
        play_briefly(scenario, {}, rng.randrange(2**32))

    return classify(action)


def option_value(rng: random.Random, workdir: Path) -> str:
    """``--option name=value`` with a real option name and a hostile value, then a little play."""
    from konflikt.cli.common import overrides_for
    from konflikt.core.scenario import load_scenario

    name, _ = rng.choice(example_texts())
    scenario = load_scenario(name)
    options = [o.name for o in scenario.ruleset.options] + ["nonsense"]
    option = rng.choice(options)
    draw = rng.random()
    if draw < 0.4:
        value = interesting(rng)
        text = value if isinstance(value, str) else repr(value) if isinstance(value, float) else json.dumps(value)
    elif draw < 0.7:
        text = str(rng.randint(-3, 30))
    else:
        known = next((o for o in scenario.ruleset.options if o.name == option), None)
        text = rng.choice(list(known.choices or ("true", "false", "0", "1", "2")) if known else ["1"])
    assignment = f"{option}={text}"

    def action() -> None:
        overrides = overrides_for(scenario, [assignment])
        play_briefly(scenario, overrides, rng.randrange(2**32))

    return classify(action)


PROMPT_WORDS = ["1", "2", "0", "99", "-1", "²", "①", "٣", "9" * 5000, "undo", "undo ²", "undo 0", "undo -3",
                "undo 99999999999999999999", "help", "state", "log", "save", "", "   ", "attack", "attack target=x",
                "concede", "x=y", "[bold]", "\x00", "auto", "+ + 0 -", "1 2 3", "00"]  # fmt: skip


def prompt_answer(rng: random.Random, workdir: Path) -> str:
    """Text typed at a decision prompt: read as a choice, or as a table command."""
    from konflikt.cli.prompts import read_choice

    session = table_session(workdir)
    state = session.state
    seat = rng.choice([s for s in state.waiting_for()] if state.is_simultaneous_node() else [state.current_player()])
    text = rng.choice(PROMPT_WORDS) if rng.random() < 0.6 else rng.choice(PROMPT_WORDS) + " " + interesting_text(rng)

    def action() -> None:
        if text.strip().lower().startswith("odds"):
            return
        try:
            if session.command(text):
                return
        except Exception as exc:
            if type(exc).__name__ in ("Undo", "Quit"):
                return
            raise
        if not state.is_chance_node():
            read_choice(text, state, seat, list(state.legal_actions(seat)))

    return classify(action)


def interesting_text(rng: random.Random) -> str:
    value = interesting(rng)
    return value if isinstance(value, str) else str(value)[:5000]


@cache
def table_session(workdir: Path) -> Any:
    """One table session on a presja knife fight with both seats human (prompts only read it)."""
    from rich.console import Console

    from konflikt.cli.table import TableSession
    from konflikt.core.conflict import Conflict
    from konflikt.core.scenario import load_scenario
    from konflikt.sim.runner import seat_policies
    from konflikt.store.db import Store

    scenario = load_scenario("presja/knife_fight")
    store = Store.open(workdir / "prompts.sqlite")
    conflict = Conflict(scenario, {}, 1)
    cid = store.create(conflict)
    seats = seat_policies(scenario, {"belzee": "human", "massimo": "human"})
    console = Console(file=io.StringIO(), width=120)
    return TableSession(console, store, cid, conflict, [], seats, "auto", ask=lambda p, s: "quit")


# ---- dice: expressions, ruleset questions, results typed at the table ------------------------------------------
NOTATIONS = ["4dF", "3d6", "2T+2", "3T6", "6d6 pool", "6P", "d100", "d%", "4d6kh3", "2d20kl1", "4d6dl1", "2d10+1d4-2",
             "4dF+2>=3", "6d6>=4", "3d6>10", "(3d6)>5", "d{1,1,2,3}", "3d6!", "2d6!3", "3d6+2", "2T",
             "1d6+1d4+1"]  # fmt: skip
DICE_NUMBERS = ["0", "1", "2", "3", "6", "7", "20", "60", "200", "201", "999", "1000", "1001", "10000", "9999999",
                "12345678", "9" * 18, "9" * 19, "9" * 4400, "²", "٣", "①", "-1", "−2", "00", ""]  # fmt: skip
TYPED = ["9" * 4400, "-" + "9" * 4400, "+" + "9" * 40, "²", "①", "٣", "٣ ٣", "+ 0 - +", "+ + + + +", "- - - -", "0",
         "1", "6", "7", "00", "47", "4 7", "100", "101", "-4", "1 2 3", "1, 2, 3", "6 6 6 6 6 6", "1 1 1 1 1 1", " ",
         "x", "auto", "1 " * 3000, "−1", "+-0", "9" * 18, "-" + "9" * 19]  # fmt: skip
QUESTION_VALUES = ["0", "1", "-1", "3", "10", "60", "61", "100", "1000000", "9" * 4400, "²", "٣", "", "x", "1.5",
                   "Svärd", "Laser", "fifth", "none", "2T+2", "offensive"]  # fmt: skip


def dice_text(rng: random.Random) -> str:
    """A dice expression: a known notation with edits, or one put together from the grammar's pieces."""
    if rng.random() < 0.5:
        text = rng.choice(NOTATIONS)
        for _ in range(rng.randint(1, 3)):
            k = rng.randint(0, len(text))
            move = rng.random()
            if move < 0.5:
                text = re.sub(r"\d+", lambda m: rng.choice(DICE_NUMBERS) if rng.random() < 0.5 else m.group(), text)
            elif move < 0.8:
                text = text[:k] + rng.choice(["d", "F", "+", "-", "k", "kh", "!", ">=", "(", ")", "{", "}", ",", " ",
                                              "pool", "T", "%", "²", "\x00", "dF", "d0"]) + text[k:]  # fmt: skip
            else:
                text = text[:k] + text[k + 1 :]
        return text
    terms = []
    for _ in range(rng.randint(1, 3)):
        count = rng.choice(["", "1", "2", "3", "4", "6"]) if rng.random() < 0.8 else rng.choice(DICE_NUMBERS)
        faces = "{" + ",".join(rng.choice(DICE_NUMBERS) for _ in range(3)) + "}"
        die = rng.choice(
            ["6", "10", "20", "F", "%", "{1,1,2}", "{-1,0,1}"] if rng.random() < 0.8 else [*DICE_NUMBERS, faces]
        )
        suffix = rng.choice(["", "", "", "kh1", "kh2", "kl1", "dl1", "!", "!" + rng.choice(DICE_NUMBERS)])
        terms.append(rng.choice(["", "-"]) + f"{count}{rng.choice(['d', 'd', 'D', 'T'])}{die}{suffix}")
        if rng.random() < 0.3:
            terms.append(rng.choice(DICE_NUMBERS))
    text = "+".join(terms)
    if rng.random() < 0.3:
        text += rng.choice([">=", "<=", ">", "<", "=", "=="]) + rng.choice(DICE_NUMBERS)
    return text


def dice_question(rng: random.Random) -> list[str]:
    """``odds RULESET QUESTION --param value …`` with the question's own parameters and hostile values."""
    from konflikt.core.ruleset import get_ruleset

    ruleset = rng.choice(["presja", "fimbulfrost", "levald", "pwge"])
    questions = get_ruleset(ruleset).odds
    name = rng.choice(sorted(questions))
    args = [ruleset, name]
    for param in questions[name].params:
        if param.required or rng.random() < 0.5:
            if rng.random() < 0.5:
                value = rng.choice(QUESTION_VALUES)
            elif param.choices:
                value = rng.choice(list(param.choices))
            else:
                value = str(rng.randint(-5, 12))
            args += [f"--{param.name}", value]
    if rng.random() < 0.1:
        args += ["--" + rng.choice(["nonsense", "attack", "x=1", ""]), rng.choice(QUESTION_VALUES)]
    return args


def dice(rng: random.Random, workdir: Path) -> str:
    """``roll`` and ``odds`` of a hostile dice expression, a ruleset's odds question with hostile parameters, or
    a result typed at a roll prompt (``TableSession.read_rolls``, the reading ``konflikt play --dice table`` uses)."""
    from konflikt.cli.table import TableSession
    from konflikt.dice import parse_dice

    draw = rng.random()
    if draw < 0.25:
        args = ["odds", *dice_question(rng)] + (["--json"] if rng.random() < 0.3 else [])
    elif draw < 0.7:
        text = dice_text(rng)
        if rng.random() < 0.5:
            args = ["roll", text, "--seed", str(rng.randrange(100))]
            if rng.random() < 0.3:
                args += ["--times", rng.choice(["1", "10", "10000", "10001", "0", "-1", "9" * 4400])]
        else:
            args = ["odds", text, *rng.choice([[], ["--json"], ["--exact"], ["--timeout", "5"]])]
    else:
        notation = rng.choice(NOTATIONS) if rng.random() < 0.7 else dice_text(rng)
        typed = rng.choice(TYPED) if rng.random() < 0.7 else " ".join(rng.choice(TYPED) for _ in range(2))
        count = rng.choice([1, 1, 2, 3])

        def read() -> None:
            TableSession.read_rolls(parse_dice(notation), typed, count)

        return classify(read)

    def action() -> None:
        code, err = run_cli(*args)
        if code == 2:
            raise KonfliktError(err)

    return classify(action)


# ---- command-line targets: imports and damaged databases -------------------------------------------------------
def run_cli(*args: str) -> tuple[int, str]:
    """``konflikt ARGS`` in this process (or its own, see :func:`through_subprocess`): (exit code, stderr); an
    exit code other than 0 or 2, a traceback, more than one stderr line on exit 2, or a control character on
    stdout or stderr is a bug."""
    code, _, err = run_cli_out(*args)
    return code, err


def argv_bytes(arg: str) -> bytes:
    """An argument as the bytes a process gets: UTF-8, invalid bytes for ``surrogateescape``'s ``\\udc80``–
    ``\\udcff``, and a lone surrogate as the invalid UTF-8 ``surrogatepass`` writes (``\\ud800``: ED A0 80)."""
    for errors in ("strict", "surrogateescape", "surrogatepass"):
        try:
            return arg.encode("utf-8", errors)
        except UnicodeEncodeError:
            continue
    return arg.encode("utf-8", "replace")


def shown_args(args: tuple[str, ...]) -> str:
    return " ".join(ascii(a)[1:-1][:60] for a in args)


def run_cli_out(*args: str) -> tuple[int, str, str]:
    """:func:`run_cli`, with stdout: (exit code, stdout, stderr)."""
    if any("\x00" in a for a in args):  # no process takes a NUL in its arguments: in-process, as given
        code, out, text = run_in_process(*args)
    elif _SUBPROCESS[0]:
        code, out, text = run_process(*args)
    else:  # as a process would read them: invalid bytes as surrogateescape
        code, out, text = run_in_process(*(os.fsdecode(argv_bytes(a)) for a in args))
    where = f"konflikt {shown_args(args)}"
    if code not in (0, 2) or "Traceback" in text:
        raise Bug(f"{where}: exit {code}: {text[-400:]}")
    if code == 2 and text.count("\n") != 1:
        raise Bug(f"{where}: {text.count(chr(10))} lines: {text[-400:]}")
    for stream, written in (("stdout", out), ("stderr", text)):
        raw = RAW.search(written)
        if raw is not None:
            at = raw.start()
            raise RawOutput(f"{where}: a raw {raw.group()!a} on {stream}: {written[max(0, at - 60) : at + 20]!a}")
    return code, out, text


def run_in_process(*args: str) -> tuple[int, str, str]:
    from konflikt.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    stdin, sys.stdin = sys.stdin, io.StringIO()  # a prompt meets the end of input, as with `konflikt … </dev/null`
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(list(args))
            except SystemExit as exc:
                code = int(exc.code or 0) if not isinstance(exc.code, str) else 1
    finally:
        sys.stdin = stdin
    return code, out.getvalue(), err.getvalue()


#: ``konflikt`` processes started by this worker (the campaign counts the examples that ran at least one).
PROCESSES = [0]
#: The most memory (resident, MiB) one of them held.
PEAK_MIB = [0.0]
#: GNU time measures a process's peak: the kernel's own figure for a child counts the memory of the process that
#: forked it (the worker, hundreds of MiB) too.
TIME = Path("/usr/bin/time")


def run_process(*args: str) -> tuple[int, str, str]:
    """``python -m konflikt ARGS`` with stdin closed and the arguments as bytes (invalid UTF-8 where the text
    holds surrogates); a signal's death (negative code) is a bug too, and so is a process that held more than
    :data:`MEMORY_MIB` (the peak of this worker's children rising past it)."""
    env = dict(os.environ, NO_COLOR="1", COLUMNS="120")
    env.pop("KONFLIKT_DEBUG", None)
    PROCESSES[0] += 1
    measured = Path(tempfile.gettempdir()) / f"konflikt-peak-{os.getpid()}"
    measured.unlink(missing_ok=True)
    timed = [os.fsencode(TIME), b"-f", b"%M", b"-o", os.fsencode(measured)] if TIME.exists() else []
    process = subprocess.Popen(
        [*timed, os.fsencode(sys.executable), b"-m", b"konflikt", *(argv_bytes(a) for a in args)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,  # a group of its own: GNU time and konflikt under it go together
    )
    try:
        out, err = process.communicate()
    finally:  # over budget (the alarm): the process goes too, with konflikt under GNU time
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    try:
        peak = int(measured.read_text().split()[-1]) / 1024  # GNU time writes "Command exited…" first where not 0
    except (OSError, ValueError, IndexError):
        peak = 0.0
    PEAK_MIB[0] = max(PEAK_MIB[0], peak)
    if peak > MEMORY_MIB:
        raise Runaway(f"konflikt {shown_args(args)}: {peak:,.0f} MiB resident (at most {MEMORY_MIB:,})")
    decode = lambda data: data.decode("utf-8", "surrogateescape")  # noqa: E731 - raw bytes stay visible
    code = process.returncode if 0 <= process.returncode < 128 else 1  # GNU time: 128 + n for a signal's death
    return code, decode(out), decode(err)


@cache
def pristine(workdir: Path) -> tuple[Path, dict[str, Any]]:
    """A save database with two whole conflicts and one stopped at its first human decision (input ended), and an
    export of the first."""
    db = workdir / "pristine.sqlite"
    for seed in ("1", "2"):
        code, err = run_cli("play", "fimbulfrost/robbers", "--seed", seed, "--db", str(db))
        assert code == 0, err
    code, err = run_cli("play", *HUMAN_ROBBERS, "--seed", "4", "--db", str(db))
    assert code == 0, err
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        from konflikt.cli.main import main

        with contextlib.suppress(SystemExit):
            main(["export", "1", "--db", str(db)])
    return db, json.loads(out.getvalue())


#: A new conflict with a human seat: played by the policies up to the first human decision, where input ends (the
#: whole conflict, rendered step by step, took three quarters of the database target's time).
HUMAN_ROBBERS = ("fimbulfrost/robbers", "--policy", "budolf=human")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "absent"


def import_file(rng: random.Random, workdir: Path) -> str:
    """A mutated export, imported into a fresh database: refused imports create nothing."""
    _, exported = pristine(workdir)
    data = mutate_tree(exported, rng, rng.randint(1, 3))
    path = workdir / "import.json"
    raw = json.dumps(data, allow_nan=True) if rng.random() < 0.9 else json.dumps(data)[: rng.randint(0, 500)]
    path.write_text(raw, encoding="utf-8")
    db = workdir / "imported.sqlite"
    db.unlink(missing_ok=True)

    def action() -> None:
        code, err = run_cli("import", str(path), "--db", str(db))
        if code == 2:
            if db.exists():
                raise Changed(f"a refused import created {db}: {err}")
            raise KonfliktError(err)

    return classify(action)


def damage(data: bytes, rng: random.Random) -> bytes:
    flipped = bytearray(data)
    move = rng.randrange(4)
    if move == 0:
        for _ in range(rng.randint(1, 16)):
            flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
    elif move == 1:
        return bytes(flipped[: rng.randrange(len(flipped))])
    elif move == 2:
        page = int.from_bytes(data[16:18], "big") or 65536
        start = rng.randrange(0, len(data), page)
        flipped[start : start + page] = bytes(min(page, len(data) - start))
    else:
        start = rng.randrange(len(flipped))
        flipped[start : start + 64] = rng.randbytes(min(64, len(flipped) - start))
    return bytes(flipped)


def sql_junk(path: Path, rng: random.Random) -> None:
    """Valid SQLite, junk in konflikt's columns."""
    column = rng.choice(["record", "seats", "dice", "title", "step", "source", "idx", "finished"])
    table = "steps" if column in ("step", "source", "idx") else "conflicts"
    value = rng.choice([None, 7, "", "{", "[1,2]", '{"a":1}', "null", "\x00", 1.5, b"\xff\xfe", "[" * 5000])
    conn = sqlite3.connect(path)
    with contextlib.suppress(sqlite3.Error):
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = (SELECT min(rowid) FROM {table})", (value,))
        conn.commit()
    conn.close()


def damaged_database(rng: random.Random, workdir: Path) -> str:
    """A damaged save under every command that opens saves; a refused or damaged file must stay byte-identical."""
    db, _ = pristine(workdir)
    target = workdir / "damaged.sqlite"
    for leftover in workdir.glob("damaged.sqlite*"):
        leftover.unlink()
    if rng.random() < 0.7:
        target.write_bytes(damage(db.read_bytes(), rng))
    else:
        shutil.copy(db, target)
        sql_junk(target, rng)
    conn = sqlite3.connect(f"file:{target}?mode=ro", uri=True)
    conn.text_factory = bytes
    try:
        healthy = conn.execute("PRAGMA integrity_check").fetchall() == [(b"ok",)]
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        healthy = False
    finally:
        conn.close()
    command = rng.choice(
        [("saves", "--json"), ("export", "1"), ("export", "3"), ("play", "--resume", "1"), ("play", "--resume", "3"),
         ("play", "--resume", "3"), ("play", *HUMAN_ROBBERS, "--seed", "3"), ("play", *HUMAN_ROBBERS, "--seed", "5")]
        + [("play", "fimbulfrost/robbers", "--seed", "3")] * (rng.random() < 0.25)
    )  # fmt: skip
    before = sha(target)

    def action() -> None:
        code, err = run_cli(*command, "--db", str(target))
        changed = sha(target) != before
        if changed and (code != 0 or not healthy):
            raise Changed(f"konflikt {' '.join(command)} changed a {'refused' if code else 'damaged'} file: {err}")
        if command[0] in ("saves", "export") and changed:
            raise Changed(f"read-only konflikt {command[0]} changed the file")
        if code == 2:
            raise KonfliktError(err)

    return classify(action)


# ---- the character library, campaigns, and exports read back ------------------------------------------------
#: The library's characters: name → (ruleset, bundled character), each given hostile but valid text to print.
LIBRARY = {"budolf": ("fimbulfrost", "budolf"), "snurre": ("levald", "snurre"), "belzee": ("presja", "belzee"),
           "zorak": ("pwge", "zorak")}  # fmt: skip

#: Settings each model must refuse (``chars edit NAME --set PATH=VALUE``); accepting one is "nonsense accepted".
NONSENSE: dict[str, list[str]] = {
    "budolf": [
        "omdomme=true", "status=false", 'konsekvenser=["nonexistent"]', 'konsekvenser=["skramme", "skramme"]',
        "konsekvenser=[" + ", ".join(['"skramme"'] * 2000) + "]", "laant_tid=1000000000000", "omdomme=-1",
        'name="Bu\\ndolf"', 'name="Bu\\u0000dolf"', 'name="Bu\\u001b[2Jdolf"', 'name="   "', "omdomme=3\nstatus=60",
        "omdomme=3\x00", 'manovrer=[{id="a", name="x", dice=true}]', "role=monster",
    ],
    "snurre": [
        "kraft=true", "daze=1000000000", "wounds.skrama=10000000000", "gard_now=100000", "skills.Enhandsvapen=true",
        'name="Snurre\\u009b"', "stridsvana=-1",
    ],
    "belzee": ["skill=true", "fate_points=false", 'consequences.mild="a\\nb"', 'name=""', "weapon=laser"],
    "zorak": ['attributes.Karisma=true', "armour=true", "attributes.Karisma=7", 'name="Zo\\u202erak"', "body_points=0"],
}  # fmt: skip


@cache
def library_db(workdir: Path) -> Path:
    """A save database whose library holds one character of each ruleset, with escape sequences, C1 and a
    bidirectional override in the texts a sheet prints (a description, aspects, an identity), and one played
    campaign conflict."""
    db = workdir / "library.sqlite"
    hostile = "\x1b]2;pwned\x07\x1b[2J\x9b31m\u202e"
    extra = {
        "snurre": {"description": hostile},
        "belzee": {"aspects": [hostile, "Zwinny"]},
        "zorak": {"identity": hostile},
    }
    for name, (ruleset, builtin) in LIBRARY.items():
        from konflikt.core.ruleset import get_ruleset
        from konflikt.core.scenario import bundled_character

        document = tomllib.loads(bundled_character(get_ruleset(ruleset), builtin).read_text(encoding="utf-8"))
        document = {"ruleset": ruleset, **document, **extra.get(name, {})}
        path = workdir / f"{name}.toml"
        path.write_text(toml_document(document), encoding="utf-8")
        code, err = run_cli("chars", "add", str(path), "--db", str(db))
        assert code == 0, err
    code, err = run_cli("run", "fimbulfrost/robbers", "--campaign", "default", "--seed", "1", "-q", "--db", str(db))
    assert code == 0, err
    return db


def toml_document(document: dict[str, Any]) -> str:
    from konflikt.core.overrides import dump_toml

    return dump_toml(document)


def fresh_copy(source: Path, workdir: Path, name: str) -> Path:
    target = workdir / name
    for leftover in workdir.glob(name + "*"):
        leftover.unlink()
    shutil.copy(source, target)
    return target


def library_setting(rng: random.Random, name: str) -> tuple[str, bool]:
    """A ``PATH=VALUE`` for ``chars edit NAME``, and whether the model must refuse it."""
    if rng.random() < 0.5:
        return rng.choice(NONSENSE[name]), True
    fields = ["name", "omdomme", "status", "kraft", "skills.Enhandsvapen", "attributes.Karisma", "skill", "aspects",
             "description", "identity", "konsekvenser", hostile_text(rng, 2), "x.y", "a[0]"]  # fmt: skip
    path = rng.choice(fields)
    value = rng.choice([json.dumps(hostile_text(rng)), hostile_text(rng), str(interesting(rng))[:200], "3", "[]"])
    return f"{path}={value}", False


def chars_target(rng: random.Random, workdir: Path) -> str:
    """``chars`` of every kind on a library with hostile text: edits with settings the models must refuse, added
    files with hostile values and names, and every printing command (which must show the texts escaped). A
    refused command, and any read-only one, leaves the file as it was."""
    db = fresh_copy(library_db(workdir), workdir, "chars.sqlite")
    name = rng.choice(list(LIBRARY))
    draw = rng.random()
    must_refuse = False
    writes = True
    if draw < 0.45:
        setting, must_refuse = library_setting(rng, name)
        command: tuple[str, ...] = ("chars", "edit", name, "--set", setting)
    elif draw < 0.65:
        ruleset, builtin = LIBRARY[name]
        from konflikt.core.ruleset import get_ruleset
        from konflikt.core.scenario import bundled_character

        document = tomllib.loads(bundled_character(get_ruleset(ruleset), builtin).read_text(encoding="utf-8"))
        document = mutate_tree({"ruleset": ruleset, **document}, rng, rng.randint(1, 2))
        path = workdir / "character.toml"
        try:
            text = toml_document(document) if isinstance(document, dict) else json.dumps(document)
        except (TypeError, ValueError, RecursionError):
            text = mutate_text(toml_document({"ruleset": ruleset, "name": "x"}), rng, 2)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        new_name = rng.choice(["newcomer", hostile_text(rng), "newcomer\n", "new\x00comer", "NEW", "a" * 65])
        must_refuse = not re.fullmatch(r"[a-z0-9][a-z0-9_\-]*", new_name) or len(new_name) > 64
        command = ("chars", "add", str(path), "--name", new_name)
    else:
        writes = False
        command = rng.choice(
            [("chars", "show", name), ("chars", "show", name, "--json"), ("chars", "export", name), ("chars",),
             ("chars", "--json"), ("chars", "--campaign", hostile_text(rng)), ("chars", "show", hostile_text(rng)),
             ("campaign", "list"), ("campaign", "list", "--json")]
        )  # fmt: skip
    before = sha(db)

    def action() -> None:
        code, err = run_cli(*command, "--db", str(db))
        changed = sha(db) != before
        if changed and (code != 0 or not writes):
            raise Changed(f"konflikt {shown_args(command)} changed the file ({'refused' if code else 'read-only'})")
        if code == 0 and must_refuse:
            raise Nonsense(f"konflikt {shown_args(command)} was accepted")
        if code == 2:
            raise KonfliktError(err)

    return classify(action)


def campaign_target(rng: random.Random, workdir: Path) -> str:
    """Campaigns: rest with hostile amounts and campaign names, and a conflict played from the library."""
    db = fresh_copy(library_db(workdir), workdir, "campaign.sqlite")
    campaign = rng.choice(["default", "default", hostile_text(rng), "default\n", "nosuch", "DEFAULT"])
    amount = rng.choice(["1", "3", "7", "0", "-1", "100000", "100001", "9" * 40, "1.5", "²", hostile_text(rng, 2)])
    unit = rng.choice(["--days", "--hours", "--minutes", "--rounds"])
    draw = rng.random()
    if draw < 0.5:
        command: tuple[str, ...] = ("campaign", "rest", unit, amount, "--campaign", campaign)
        if rng.random() < 0.3:
            command += ("--option", rng.choice(["rest_floor_per_wound=false", "x=1", hostile_text(rng) + "=1"]))
        if rng.random() < 0.3:
            command += ("--json",)
    else:
        scenario = rng.choice(["fimbulfrost/robbers", "fimbulfrost/dragon", "levald/duel", "presja/knife_fight"])
        command = ("run", scenario, "--campaign", campaign, "--seed", str(rng.randrange(50)), "-q")
    valid_name = bool(re.fullmatch(r"[a-z0-9][a-z0-9_\-]*", campaign))
    before = sha(db)

    def action() -> None:
        code, err = run_cli(*command, "--db", str(db))
        if code != 0 and sha(db) != before:
            raise Changed(f"konflikt {shown_args(command)} was refused and changed the file")
        if code == 0 and not valid_name:
            raise Nonsense(f"konflikt {shown_args(command)} took the campaign name {campaign!a}")
        if code == 2:
            raise KonfliktError(err)

    return classify(action)


def round_trip(rng: random.Random, workdir: Path) -> str:
    """A conflict holding hostile text, exported and imported again: ``export`` and ``saves --json`` are valid JSON
    that gives the same text back, and an export is always imported. A lone surrogate in an imported title, name or
    goal must be refused (JSON can spell it; no UTF-8 encoder takes it)."""
    _, exported = pristine(workdir)
    data = copy.deepcopy(exported)
    scenario = data["scenario"]
    surrogate = rng.random() < 0.3
    text = hostile_text(rng) + "\ud800" if surrogate else clean_text(rng)
    where = rng.choice(["title", "description", "side", "goal", "participant"])
    if where in ("title", "description"):
        scenario[where] = text
    elif where == "participant":
        scenario["sides"][0]["participants"][0]["description"] = text  # free text of no model: refused or kept
    else:
        scenario["sides"][1]["name" if where == "side" else "goal"] = text
    path = workdir / "round-trip.json"
    path.write_text(json.dumps(data, ensure_ascii=rng.random() < 0.5), encoding="utf-8", errors="surrogatepass")
    db = workdir / "round-trip.sqlite"
    for leftover in workdir.glob("round-trip.sqlite*"):
        leftover.unlink()

    def action() -> None:
        code, err = run_cli("import", str(path), "--db", str(db))
        if code == 2:
            if db.exists():
                raise Changed(f"a refused import created {db}: {err}")
            raise KonfliktError(err)
        if surrogate:
            raise Nonsense(f"an import holding a lone surrogate in {where} was accepted")
        code, out, err = run_cli_out("export", "1", "--db", str(db))
        if code != 0:
            raise Bug(f"export of an imported conflict refused: {err}")
        again = json.loads(out)
        if where in ("title", "description") and again["scenario"][where] != text:
            raise Bug(f"export changed the {where}: {again['scenario'][where]!a} for {text!a}")
        path.write_text(out, encoding="utf-8")
        for leftover in workdir.glob("round-trip.sqlite*"):
            leftover.unlink()
        code, err = run_cli("import", str(path), "--db", str(db))
        if code != 0:
            raise Bug(f"an export that import refuses: {err}")
        code, out, err = run_cli_out("saves", "--json", "--db", str(db))
        if code != 0 or not isinstance(json.loads(out), list):
            raise Bug(f"saves --json after an import: {err}")

    return classify(action, commands=4)


# ---- the browser table, from outside: HTTP only -------------------------------------------------------------
@dataclass
class Served:
    """A ``konflikt serve`` of this worker: its process, address, console key and one table's GM link."""

    process: subprocess.Popen[bytes]
    port: int
    key: str
    cid: str
    token: str


def _die_with_parent() -> None:
    """In the server's process before it runs: it gets SIGTERM when the worker that started it ends (a pool's
    workers are killed, and their atexit handlers never run)."""
    import ctypes

    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def http(
    port: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One request to the server (a path already percent-encoded); (status, headers, body)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=BUDGET)
    try:
        sent = {"Host": f"127.0.0.1:{port}", **(headers or {})}
        conn.request(method, path, body=body or None, headers=sent)
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


_SERVED: list[Served] = []


def served(workdir: Path) -> Served:
    """This worker's server (started once, again if it died: the example that found it dead reports it)."""
    if _SERVED and _SERVED[0].process.poll() is None:
        return _SERVED[0]
    port = _free_port()
    env = dict(os.environ, NO_COLOR="1", COLUMNS="200")
    env.pop("KONFLIKT_DEBUG", None)
    db = workdir / f"served-{port}.sqlite"
    process = subprocess.Popen(
        [sys.executable, "-m", "konflikt", "serve", "--db", str(db), "--port", str(port), "--bot-seconds", "2"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        preexec_fn=_die_with_parent,
    )
    assert process.stdout is not None
    key = ""
    for _ in range(20):
        line = process.stdout.readline().decode("utf-8", "replace")
        if "/console/" in line:
            key = line.strip().rsplit("/console/", 1)[1]
            break
        if not line:
            break
    if not key:
        process.kill()
        raise RuntimeError("konflikt serve printed no console address")
    form = b"scenario=presja%2Fknife_fight&seed=1"
    origin = {"Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/x-www-form-urlencoded"}
    for _ in range(120):  # the address is printed before the server listens
        try:
            status, headers, _ = http(port, "POST", f"/console/{key}/new", form, origin)
            break
        except ConnectionRefusedError:
            time.sleep(0.25)
    else:
        process.kill()
        raise RuntimeError("konflikt serve never listened")
    if status != 303:
        process.kill()
        raise RuntimeError(f"konflikt serve made no table: {status}")
    _, _, cid, token = headers["location"].split("/")
    _SERVED[:] = [Served(process, port, key, cid, token)]
    atexit.register(process.kill)  # the suite's process; a campaign's workers are killed, hence the prctl above
    return _SERVED[0]


def percent(text: str) -> str:
    """A path segment as a browser would send it: UTF-8 (invalid where the text holds surrogates), percent-encoded."""
    from urllib.parse import quote_from_bytes

    return quote_from_bytes(argv_bytes(text), safe="")


def hostile_json(rng: random.Random) -> bytes:
    """A message for the table's API: its own keys with hostile values, nesting, lone surrogates, huge numbers."""
    message: Any = {
        rng.choice(["type", "choice", "value", "reason", "goal", "seat", "side", "step", "count", "text", "target",
                    "id", hostile_text(rng, 2)]): interesting(rng)
        for _ in range(rng.randint(0, 4))
    }  # fmt: skip
    if rng.random() < 0.5:
        message["type"] = rng.choice(["correct", "pause", "resume", "undo", "odds", "advise", "declare", "", "x"])
    if rng.random() < 0.1:
        message = nested(rng.choice([40, 2000]))
    try:
        text = json.dumps(message, ensure_ascii=True, allow_nan=True)
    except (ValueError, RecursionError):
        text = "{"
    if rng.random() < 0.1:
        text = text[: rng.randint(0, len(text))]
    return text.encode("ascii", "replace")


def server_target(rng: random.Random, workdir: Path) -> str:
    """``konflikt serve`` driven from outside, over HTTP only: the console's pages and forms (a new table with
    hostile seeds, dice, policies and uploaded scenarios), a table's pages and API with hostile messages, and
    hostile paths, tokens, Hosts and Origins. Any 5xx is an internal error, a dead server or one past 1 GiB a
    runaway, and a new table made from a seed out of range or an uploaded scenario with a boolean for a number,
    nonsense accepted."""
    server = served(workdir)
    base = f"http://127.0.0.1:{server.port}"
    form_headers = {"Origin": base, "Content-Type": "application/x-www-form-urlencoded"}
    json_headers = {"Origin": base, "Content-Type": "application/json"}
    must_refuse = False
    draw = rng.random()
    if draw < 0.25:  # a new table
        from urllib.parse import urlencode

        seed = rng.choice(["", "1", "-1", str(2**63), "9" * 4400, "²", hostile_text(rng, 2)])
        fields = {
            "scenario": rng.choice(["presja/knife_fight", "levald/duel", "pwge/duel", "../../etc/passwd", "/etc/passwd",
                                    hostile_text(rng, 2)]),
            "seed": seed,
            "dice": rng.choice(["auto", "table", hostile_text(rng, 2)]),
        }  # fmt: skip
        if rng.random() < 0.3:
            fields["policy:" + rng.choice(["belzee", "massimo", hostile_text(rng, 1)])] = rng.choice(
                ["heuristic", "random", "human", "mcts:20000", hostile_text(rng, 2)]
            )
        must_refuse = seed not in ("", "1")
        if rng.random() < 0.3:
            _, text = rng.choice(example_texts())
            fields["toml"] = text if rng.random() < 0.3 else mutate_text(text, rng, rng.randint(1, 2))
            if rng.random() < 0.4 and "status = " in text:
                fields["toml"] = text.replace("status = ", "status = true #", 1)
                must_refuse = True
        body = urlencode({argv_bytes(k): argv_bytes(v) for k, v in fields.items()}).encode("ascii")
        request: tuple[str, str, bytes, dict[str, str]] = ("POST", f"/console/{server.key}/new", body, form_headers)
    elif draw < 0.4:
        from urllib.parse import urlencode

        _, text = rng.choice(example_texts())
        toml = mutate_text(text, rng, rng.randint(1, 3)) if rng.random() < 0.8 else hostile_text(rng, 8)
        body = urlencode({"toml": argv_bytes(toml)}).encode("ascii")
        request = ("POST", f"/console/{server.key}/upload", body, form_headers)
    elif draw < 0.75:
        path = f"/api/t/{server.cid}/{server.token}"
        request = ("POST", path, hostile_json(rng), json_headers) if rng.random() < 0.8 else ("GET", path, b"", {})
    else:
        cid = rng.choice([server.cid, server.cid, "9" * rng.choice([18, 19, 4400]), "-1", hostile_text(rng, 2)])
        token = server.token if rng.random() < 0.7 else rng.choice(["x" * 65, hostile_text(rng, 3), ""])
        key, hostile = server.key, percent(hostile_text(rng, 2))
        path = rng.choice(
            ["/", f"/console/{key}", f"/console/{hostile}", f"/t/{percent(cid)}/{percent(token)}",
             f"/api/t/{percent(cid)}/{percent(token)}/log", f"/console/{key}/new?scenario={hostile}",
             f"/console/{key}/open/{percent(cid)}", "/favicon.ico", "/" + percent(hostile_text(rng, 5))]
        )  # fmt: skip
        headers = {}
        if rng.random() < 0.2:
            headers["Host"] = rng.choice(["evil.example", "evil.example:80", argv_bytes(hostile_text(rng, 2)).hex()])
        if rng.random() < 0.2:
            headers["Origin"] = rng.choice(["http://evil.example", "null", base])
        request = (rng.choice(["GET", "GET", "POST", "HEAD", "DELETE"]), path, b"", headers)

    def action() -> None:
        method, path, body, headers = request
        try:
            status, _, answer = http(server.port, method, path, body, headers)
        except (OSError, ConnectionError) as exc:
            if server.process.poll() is not None:
                raise Runaway(
                    f"konflikt serve died (exit {server.process.returncode}) at {method} {path[:80]}"
                ) from None
            raise Bug(f"{method} {path[:80]}: {type(exc).__name__}: {exc}") from None
        if status >= 500:
            raise Bug(f"{method} {path[:80]}: {status}: {answer[:300]!r}")
        try:
            rss_kib = next(
                int(line.split()[1]) for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines()
                if line.startswith("VmRSS:")
            )  # fmt: skip
        except (OSError, StopIteration, ValueError):
            rss_kib = 0
        if rss_kib > MEMORY_MIB * 1024:
            raise Runaway(f"konflikt serve holds {rss_kib // 1024:,} MiB after {method} {path[:80]}")
        if must_refuse and status in (200, 303):
            raise Nonsense(f"{method} {path[:80]} with {body[:200]!r}: {status}")
        if status >= 400:
            raise KonfliktError(f"{status}")

    return classify(action)


TARGETS: dict[str, Callable[[random.Random, Path], str]] = {
    "scenario-text": scenario_text,
    "scenario-document": scenario_document,
    "option": option_value,
    "prompt": prompt_answer,
    "dice": dice,
    "import": import_file,
    "database": damaged_database,
    "chars": chars_target,
    "campaign": campaign_target,
    "round-trip": round_trip,
    "server": server_target,
}


@cache
def shared_workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="konflikt-fuzz-"))
