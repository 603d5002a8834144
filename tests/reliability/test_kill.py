"""SIGKILL ``konflikt play`` at random steps, also between an answer and its commit, and resume each time: the
finished conflict has exactly the steps of an uninterrupted one. (200 kills: ``scripts/fuzz.py --kills 200``.)"""

from __future__ import annotations

import random
import signal
import sqlite3
import time
from pathlib import Path

from tests.play.driver import CHOICE, Session, answer, menu
from tests.play.test_play_e2e import FIRST_EXAMPLE, human_seats, short_levald

HUMAN = ("human", "table")


def committed(db: Path, conflict_id: int) -> tuple[list[str], int]:
    """The saved steps and how many of them were human inputs (read-only: the file is not touched)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT step, source FROM steps WHERE conflict_id = ? ORDER BY idx", (conflict_id,)
        ).fetchall()
    finally:
        conn.close()
    return [step for step, _ in rows], sum(1 for _, source in rows if source in HUMAN)


def kill_and_resume(
    ruleset: str, tmp_path: Path, rng: random.Random, kills: int = 2, restarts: list[float] | None = None
) -> int:
    """Play one conflict straight and one with ``kills`` SIGKILLs; assert they match. Returns the kills done;
    ``restarts`` gets the seconds each ``play --resume`` took to be ready (start-up, checks, replay)."""
    name = FIRST_EXAMPLE[ruleset]
    scenario = short_levald(tmp_path) if ruleset == "levald" else name
    args = [scenario, "--dice", "table", "--seed", str(rng.randrange(1000)), *human_seats(name)]
    straight = Session(tmp_path / "straight.sqlite")
    ending = straight.drive(straight.spawn(*args))
    assert ending is not None and straight.conflict_id is not None
    points = sorted(rng.sample(range(1, max(2, straight.inputs)), min(kills, max(1, straight.inputs - 1))))

    broken = Session(tmp_path / "broken.sqlite")
    child = broken.spawn(*args)
    done = 0
    for point in points:
        if broken.drive(child, stop_after=point) is not None:
            break
        if rng.random() < 0.5:
            # between the answer and its commit: the step is either saved whole or not at all
            is_choice = child.match.re.pattern == CHOICE
            kind, detail = ("choice", child.match.group(2)) if is_choice else ("roll", child.match.group(1))
            choices = menu(child.before) if kind == "choice" else []
            child.sendline(answer(broken.inputs, kind, detail, choices))
        child.kill(signal.SIGKILL)
        child.close()
        done += 1
        assert broken.conflict_id is not None
        _, broken.inputs = committed(broken.db, broken.conflict_id)
        started = time.monotonic()
        child = broken.spawn("--resume", str(broken.conflict_id))
        child.expect(r"resuming conflict \d+")
        if restarts is not None:
            restarts.append(time.monotonic() - started)
    resumed = broken.drive(child)
    assert resumed == ending
    assert broken.conflict_id is not None
    straight_steps, _ = committed(straight.db, straight.conflict_id)
    broken_steps, _ = committed(broken.db, broken.conflict_id)
    assert broken_steps == straight_steps
    return done


def test_kills_at_random_steps_lose_nothing(tmp_path: Path) -> None:
    assert kill_and_resume("fimbulfrost", tmp_path, random.Random(18), kills=2) == 2
