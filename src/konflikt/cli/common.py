"""Helpers shared by the commands that load scenarios and options."""

from __future__ import annotations

import secrets
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from konflikt.cli.completion import complete_rule_option, complete_scenario, complete_seat_policy
from konflikt.core.deadline import OutOfTime, deadline
from konflikt.core.options import parse_assignments
from konflikt.core.scenario import Scenario
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
        raise KonfliktError(f"--timeout takes seconds above 0 (at most 10,000,000), not {seconds}")

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
        raise KonfliktError(f"{what} took longer than --timeout {seconds:g} s; stopped") from None
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
    columns = (SpinnerColumn(), TextColumn(what + " (Ctrl-C stops)"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        bar.add_task(what, total=None)
        yield


def write_output(path: Path, text: str) -> None:
    """Write a file the user named (``--save``, ``--out``); a folder, a missing folder or no permission: one line."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise KonfliktError(f"{path}: cannot be written ({exc.strerror or exc})") from None


def overrides_for(scenario: Scenario, option: list[str] | None) -> dict[str, str]:
    """``--option name=value`` pairs, checked against the scenario's ruleset now (so errors come before play)."""
    overrides = parse_assignments(option or [])
    scenario.ruleset.options.resolve(scenario.options, overrides)
    return overrides


def seat_overrides(scenario: Scenario, policy: list[str] | None) -> dict[str, str]:
    """``--policy seat=name`` pairs (``gm`` names the game master's seat)."""
    from konflikt.core.state import GM

    result: dict[str, str] = {}
    seats = {p.id for p in scenario.participants()}
    for text in policy or []:
        seat, sep, name = text.partition("=")
        if not sep:
            raise KonfliktError(f"--policy {text!r} is not of the form seat=policy")
        seat = GM if seat in ("gm", GM) else seat
        if seat not in seats and seat != GM:
            raise KonfliktError(f"--policy {text!r}: no seat {seat!r} (seats: {', '.join(sorted(seats))}, gm)")
        if name != "human":
            scenario.ruleset.policy(name)
        result[seat] = name
    return result


def choose_seed(seed: int | None, scenario: Scenario) -> int:
    if seed is not None:
        if not 0 <= seed < 2**63:
            raise KonfliktError(f"seed {seed} must be a whole number from 0 to 2**63 - 1")
        return seed
    if scenario.seed is not None:
        return scenario.seed
    return secrets.randbelow(2**31)
