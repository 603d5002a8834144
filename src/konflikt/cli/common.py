"""Helpers shared by the commands that load scenarios and options."""

from __future__ import annotations

import difflib
import secrets
import signal
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from konflikt.cli.completion import complete_rule_option, complete_scenario, complete_seat_policy
from konflikt.cli.i18n import _, policy_named, whole
from konflikt.core.deadline import OutOfTime, deadline
from konflikt.core.options import parse_assignments
from konflikt.core.scenario import Scenario, bundled_examples
from konflikt.errors import KonfliktError

ScenarioArgument = Annotated[
    str,
    typer.Argument(metavar="SCENARIO", help="A scenario file, or RULESET/NAME.", autocompletion=complete_scenario),
]
PolicyOption = Annotated[
    list[str] | None,
    typer.Option(
        "--policy", "-p", help="Seat policy seat=name (e.g. belzee=human).", autocompletion=complete_seat_policy
    ),
]
RuleOption = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Rule option name=value.", autocompletion=complete_rule_option),
]
SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        metavar="PATH=VALUE",
        help="What-if: set a value of the scenario before it is read, by participant id (hedda.kraft=14, "
        "snurre.skills.Stångvapen=70), by position (sides.0.participants.1.status=5), options.NAME or setup.…; "
        'the value as TOML (60, true, Svärd, ["a", "b"]). Repeatable; \'konflikt scenario show\' prints the result.',
    ),
]


ForceOption = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Start even where the work is over its budget (cells × conflicts, states, seconds): it may run for "
        "hours; a spinner or bar shows it going and Ctrl-C stops it.",
    ),
]


def over_budget(what: str, amount: int, budget: int, unit: str, lower: str) -> KonfliktError:
    """The one line that refuses work over its budget before it starts: how much, the budget, what to lower, and
    ``--force``."""
    return KonfliktError(
        _(
            "{what}: {amount} {unit} is over the budget of {budget} {unit}; {lower}, or pass --force to run it anyway",
            what=what,
            amount=whole(amount),
            unit=unit,
            budget=whole(budget),
            lower=lower,
        )
    )


class Stopped(Exception):
    """Ctrl-C with what to say instead of the bare "stopped" (``play`` says how to resume).

    Not a KeyboardInterrupt: typer turns those into a returned 130 and the message would be lost.
    """


class _OutOfTime(BaseException):
    """Raised by the alarm; a BaseException so no ``except KonfliktError`` on the way can swallow it."""


@contextmanager
def time_limit(seconds: float | None, what: str) -> Iterator[None]:
    """Stop the work inside after ``seconds`` (wall clock) with one clear line; ``None``: no limit.

    Raises:
        KonfliktError: the time was up (says the limit and what to change).
    """
    if seconds is None:
        yield
        return
    if not 0 < seconds <= 10**7:
        raise KonfliktError(
            _("--timeout takes seconds above 0 (at most {most}), not {typed}", most=whole(10**7), typed=seconds)
        )

    armed = [True]

    def alarm(signum: int, frame: object) -> None:
        if armed[0]:  # the backstop for work that checks no deadline; rung again in case it lands where
            signal.setitimer(signal.ITIMER_REAL, 0.05)  # Python swallows exceptions (a __del__, a gc callback)
            raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})  # a library may have blocked it in this process
    signal.setitimer(signal.ITIMER_REAL, seconds + 0.5)
    try:
        with deadline(time.monotonic() + seconds):  # the solvers' and the runner's loops stop at it themselves
            yield
    except (_OutOfTime, OutOfTime):
        limit = f"{seconds:g}"
        raise KonfliktError(
            _("{what} took longer than --timeout {seconds} s; stopped", what=what, seconds=limit)
        ) from None
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def working(what: str) -> Iterator[None]:
    """A spinner with the elapsed time on stderr, only when stderr is a terminal (never in pipes or JSON)."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from konflikt.cli.render import plain_console

    console = plain_console(stderr=True)
    if not console.is_terminal or not sys.stderr.isatty():
        yield
        return
    columns = (SpinnerColumn(), TextColumn(_("{what} (Ctrl-C stops)", what=what)), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        bar.add_task(what, total=None)
        yield


def write_output(path: Path, text: str) -> None:
    """Write a file the user named (``--save``, ``--out``); a folder, a missing folder or no permission: one line."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise KonfliktError(_("{path}: cannot be written ({why})", path=path, why=exc.strerror or exc)) from None


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The one of ``known`` closest to ``word`` (case ignored), if any is close (:mod:`difflib`)."""
    by_lower = {k.lower(): k for k in known}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[close[0]] if close else None


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the nearest of ``known``, else ``""``."""
    near = nearest(word, known)
    return " " + _("(did you mean {option}?)", option=repr(near)) if near else ""


def bundled_names(ruleset: str | None = None) -> list[str]:
    """The bundled scenarios as ``RULESET/NAME``, of one ruleset or all."""
    root = bundled_examples()
    return [
        f"{path.parent.name}/{path.stem}"
        for path in sorted(root.glob("*/*.toml"))
        if path.parent.name != "sweeps" and ruleset in (None, path.parent.name)
    ]


def ruleset_alone(name: str) -> str | None:
    """The ruleset id when ``name`` is one (``presja`` or ``presja/``) and no file or folder of that name is here:
    its scenarios are listed instead of an error."""
    word = name.rstrip("/")
    if not word or "/" in word or Path(name).exists():
        return None
    return word if bundled_names(word) else None


def scenario_named(name: str, settings: list[str] | None = None) -> Scenario:
    """A scenario by file or bundled name (checked first, "did you mean"), with ``--set PATH=VALUE`` applied."""
    from konflikt.core.scenario import load_scenario

    check_named(name)
    return load_scenario(name, settings=settings or ())


def check_library_settings(scenario: Scenario, taken: dict[str, str], settings: list[str] | None) -> None:
    """``--set`` on a character taken from a campaign's library is refused: the conflict's end would write the
    what-if back into the campaign (``chars edit`` changes a character for good).

    Raises:
        KonfliktError: a setting on such a participant (one line naming it and the campaign's command).
    """
    from konflikt.core.overrides import participant_named

    for text in settings or []:
        pid = participant_named(scenario.document, text)
        if pid is not None and pid in taken:
            raise KonfliktError(
                _(
                    "--set {setting}: {id} is {character} of the campaign, and what the conflict leaves is written "
                    "back to it; change the character for good with 'konflikt chars edit {character} --set …', or "
                    "play without --campaign",
                    setting=text,
                    id=pid,
                    character=taken[pid],
                )
            )


def check_named(name: str) -> None:
    """Before :func:`load_scenario`: a name that is neither a file nor a bundled scenario is refused with "did you
    mean" (the whole ``RULESET/NAME`` compared, else the name alone: ``knife_fight`` → ``presja/knife_fight``).

    Raises:
        KonfliktError: no such scenario.
    """
    try:
        missing = not Path(name).exists() and not Path(name).is_symlink()
    except (OSError, ValueError):
        return  # load_scenario says why
    names = bundled_names()
    word = name.removesuffix(".toml")
    if missing and word not in names and not _bundled_file(word):
        by_stem = {n.partition("/")[2]: n for n in names}
        near = nearest(word, names) or by_stem.get(nearest(word.rpartition("/")[2], by_stem) or "")
        hint = " " + _("(did you mean {option}?)", option=repr(near)) if near else ""
        raise KonfliktError(
            _(
                "{name}: no such file, and no bundled example of that name{hint}; see 'konflikt examples'",
                name=name,
                hint=hint,
            )
        )


def _bundled_file(word: str) -> bool:
    """A bundled file not listed as a scenario (the weapon sweep's duel, ``sweeps/levald_weapons_duel``)."""
    try:
        return (bundled_examples() / f"{word}.toml").is_file() and ".." not in Path(word).parts
    except (OSError, ValueError):
        return False


def overrides_for(scenario: Scenario, option: list[str] | None) -> dict[str, str]:
    """``--option name=value`` pairs, checked against the scenario's ruleset now (so errors come before play)."""
    overrides = parse_assignments(option or [])
    known = [o.name for o in scenario.ruleset.options]
    for name in overrides:
        if name not in known:
            raise KonfliktError(
                _(
                    "unknown rule option {option} for {ruleset}{hint} (see 'konflikt rules {ruleset}')",
                    option=repr(name),
                    ruleset=scenario.ruleset.id,
                    hint=did_you_mean(name, known),
                )
            )
    scenario.ruleset.options.resolve(scenario.options, overrides)
    return overrides


def seat_id(scenario: Scenario, seat: str, what: str) -> str:
    """The seat named ``seat`` in any case (``Belzee`` is ``belzee``; ``gm`` is the game master's seat).

    Raises:
        KonfliktError: no such seat (the nearest named, and every seat listed).
    """
    from konflikt.core.state import GM

    seats = [p.id for p in scenario.participants()]
    if seat in (*seats, GM):
        return seat
    if seat.lower() in ("gm", GM):
        return GM
    same = [s for s in seats if s.lower() == seat.lower()]
    if len(same) == 1:
        return same[0]
    raise KonfliktError(
        _(
            "{what}: no seat {seat}{hint} (seats: {seats}, gm)",
            what=what,
            seat=repr(seat),
            hint=did_you_mean(seat, seats),
            seats=", ".join(sorted(seats)),
        )
    )


def policy_name(scenario: Scenario, name: str, what: str) -> str:
    """``human`` or a policy of the scenario's ruleset (in any case, ``mcts:500`` with its argument), checked.

    Raises:
        KonfliktError: no such policy (the nearest named, and every policy listed).
    """
    base, colon, argument = policy_named(name).strip().partition(":")  # heuristik, heurystyka: heuristic
    base = base.lower()
    known = [*scenario.ruleset.policy_names(), "human"]
    if base not in known:
        raise KonfliktError(
            _(
                "{what}: unknown policy {policy} for {ruleset}{hint} (known: {known})",
                what=what,
                policy=repr(base),
                ruleset=scenario.ruleset.id,
                hint=did_you_mean(base, known),
                known=", ".join(known),
            )
        )
    full = base + colon + argument
    if full != "human":
        scenario.ruleset.policy(full)
    return full


def seat_overrides(scenario: Scenario, policy: list[str] | None) -> dict[str, str]:
    """``--policy seat=name`` pairs (``gm`` names the game master's seat; seat ids and policies in any case)."""
    result: dict[str, str] = {}
    for text in policy or []:
        seat, sep, name = text.partition("=")
        if not sep:
            raise KonfliktError(_("--policy {typed} is not of the form seat=policy", typed=repr(text)))
        what = f"--policy {text!r}"
        result[seat_id(scenario, seat.strip(), what)] = policy_name(scenario, name, what)
    return result


def choose_seed(seed: int | None, scenario: Scenario) -> int:
    if seed is not None:
        if not 0 <= seed < 2**63:
            raise KonfliktError(_("seed {seed} must be a whole number from 0 to 2**63 - 1", seed=seed))
        return seed
    if scenario.seed is not None:
        return scenario.seed
    return secrets.randbelow(2**31)
