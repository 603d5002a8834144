"""Drive ``konflikt play`` in a real terminal (pexpect), as a game master at the table would.

Answers are a pure function of (input number, what is asked), so a run with bad answers, an undo, or a kill and
``--resume`` in the middle must end exactly like an uninterrupted run.
"""

from __future__ import annotations

import os
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pexpect

from konflikt.dice import Fudge, Percentile, SuccessPool, SumDice, parse_dice

CHOICE = r"(\S+) choose 1-(\d+) › "
ROLL = r"roll ([^\s›]+(?: pool)?) › "
NAME = r"(\S+) name the consequence › "
END = r"outcome: (\S+)"
STOPPED = r"stopped; conflict (\d+) is saved"
CONFLICT_ID = r"conflict (\d+), saved after every step"


def table_dice(notation: str, rng: random.Random) -> str:
    """Dice as they fell at the table, in natural notation (``2×d100``: two results in one prompt)."""
    count, times, single = notation.partition("×")
    if times:
        return " ".join(table_dice(single, rng) for _ in range(int(count)))
    dice = parse_dice(notation)
    if isinstance(dice, Fudge):
        return " ".join(rng.choice("+0-") for _ in range(dice.count))
    if isinstance(dice, SuccessPool | SumDice):
        sides = 6 if isinstance(dice, SuccessPool) else dice.sides
        return " ".join(str(rng.randint(1, sides)) for _ in range(dice.count))
    if isinstance(dice, Percentile):
        return f"{rng.randint(0, 99):02d}"
    raise AssertionError(notation)


QUITTING = re.compile(r"concede|poddaj|lämna|leave the fight|withdraw", re.IGNORECASE)


def menu(before: str) -> list[int]:
    """The numbers of the listed choices that do not end the conflict early (so the whole flow is exercised)."""
    items = re.findall(r"^\s*(\d+)\. (.*)$", before, re.MULTILINE)
    keep = [int(n) for n, text in items if not QUITTING.search(text)]
    return keep or [int(n) for n, _ in items] or [1]


def answer(index: int, kind: str, detail: str, choices: list[int]) -> str:
    rng = random.Random(f"{index}:{kind}:{detail}:{choices}")
    if kind == "choice":
        return str(rng.choice(choices))
    return table_dice(detail, rng)


@dataclass
class Session:
    db: Path
    transcript: list[str] = field(default_factory=list)
    inputs: int = 0
    conflict_id: int | None = None
    columns: int = 140
    listed: list[int] = field(default_factory=list)
    """The choices of the last menu listed (a prompt asked again after a bad answer lists none)."""

    def spawn(self, *args: str) -> pexpect.spawn:
        env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS=str(self.columns), LINES="50")
        return pexpect.spawn(
            sys.executable,
            ["-m", "konflikt", "play", *args, "--db", str(self.db)],
            env=env,
            encoding="utf-8",
            timeout=60,
            dimensions=(50, self.columns),
        )

    def drive(
        self,
        child: pexpect.spawn,
        stop_after: int | None = None,
        bad_at: int | None = None,
        undo_at: int | None = None,
    ) -> str | None:
        """Answer every prompt until the outcome (returns its ending) or until ``stop_after`` inputs."""
        while True:
            which = child.expect([CHOICE, ROLL, END, pexpect.EOF, NAME])
            if which == 4:
                child.sendline("")  # a consequence keeps the list's name
                continue
            if which == 2:
                ending = str(child.match.group(1))
                child.expect(pexpect.EOF)
                return ending
            if which == 3:
                raise AssertionError(f"konflikt play ended without an outcome:\n{child.before[-3000:]}")
            if self.conflict_id is None:
                found = re.search(CONFLICT_ID, child.before)
                if found:
                    self.conflict_id = int(found.group(1))
            if stop_after is not None and self.inputs >= stop_after:
                return None
            kind, detail = ("choice", child.match.group(2)) if which == 0 else ("roll", child.match.group(1))
            if kind == "choice" and re.search(r"^\s*\d+\. ", child.before, re.MULTILINE):
                self.listed = menu(child.before)
            if bad_at is not None and self.inputs == bad_at:
                bad_at = None
                child.sendline("99" if kind == "choice" else "x y z")
                child.expect(r"is not on the list|cannot read")
                continue
            if undo_at is not None and self.inputs == undo_at and self.inputs > 0:
                undo_at = None
                child.sendline("undo")
                child.expect(r"undone 1 human input")
                self.inputs -= 1
                continue
            text = answer(self.inputs, kind, detail, self.listed if kind == "choice" else [])
            self.transcript.append(f"{self.inputs} {kind} {detail}: {text}")
            child.sendline(text)
            self.inputs += 1
