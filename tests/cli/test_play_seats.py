"""``konflikt play SCENARIO`` without ``--policy``: at a terminal it asks who plays each seat (a person or a policy,
the scenario's offered, Enter takes it); off a terminal it plays as the scenario says and says so in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect

from tests.conftest import Result


def test_at_a_terminal_each_seat_is_asked(tmp_path: Path, cli: Callable[..., Result]) -> None:
    db = tmp_path / "s.sqlite"
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100", "LINES": "50"}
    env.pop("FORCE_COLOR", None)
    child = pexpect.spawn(
        sys.executable, ["-m", "konflikt", "play", "presja/knife_fight", "--seed", "1", "--db", str(db)],
        env=env, encoding="utf-8", timeout=120, dimensions=(50, 100),
    )  # fmt: skip
    try:
        child.expect(r"who plays each seat\?")
        child.expect(r"Belzee \(belzee, side [^)]*\) \[heuristic\] › ")
        child.sendline("heuristc")
        child.expect(r"did you mean 'heuristic'\?")
        child.expect(r"Belzee \(belzee, side [^)]*\) \[heuristic\] › ")
        child.sendline("Human")
        child.expect(r"Massimo \(massimo, side [^)]*\) \[heuristic\] › ")
        child.sendline("")  # Enter keeps the scenario's
        child.expect(r"Belzee \(human\)")
        child.expect(r"belzee choose 1-\d+ › ")
        child.sendintr()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    seats = json.loads(cli("export", "1", "--db", str(db)).out)["play"]["seats"]
    assert seats["belzee"] == "human" and seats["massimo"] == "heuristic"


def test_without_a_terminal_it_plays_as_the_scenario_says_and_says_so(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "konflikt", "play", "presja/knife_fight", "--seed", "1", "--db", str(tmp_path / "s")],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stdout.splitlines() if "who plays each seat" in line]
    assert said == [
        "no terminal to ask who plays each seat: as the scenario says (belzee heuristic, massimo heuristic); "
        "--policy SEAT=human gives a seat to a person"
    ]
    assert "outcome:" in done.stdout and "›" not in done.stdout
