"""End to end: a whole conflict per ruleset played in a real terminal with table dice, a bad answer, an undo,
a kill in the middle and ``--resume``; the resumed conflict ends exactly as an uninterrupted one."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from konflikt.core.ruleset import ruleset_ids
from tests.examples import example_scenarios
from tests.play.driver import Session

FIRST_EXAMPLE = {rid: name for rid, name in reversed(example_scenarios())}


def human_seats(name: str) -> list[str]:
    """The first participant is played by a person; the others by the scenario's policies (so fights end)."""
    from konflikt.core.scenario import load_scenario

    return [f"--policy={load_scenario(name).participants()[0].id}=human"]


def exported(db: Path, conflict_id: int) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-m", "konflikt", "export", str(conflict_id), "--db", str(db)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    data: dict[str, object] = json.loads(out.stdout)
    return data


def short_levald(tmp_path: Path) -> str:
    """The bundled duel, starting at sword's length with little Gard: a whole fight in a few dozen inputs."""
    from konflikt.core.scenario import bundled_examples

    text = (bundled_examples() / "levald" / "duel.toml").read_text(encoding="utf-8")
    text = text.replace('distance = "Fri"', 'distance = "Svärd"')
    text = text.replace('policy = "heuristic"', 'policy = "heuristic"\ngard = 2\nkraft = 6')
    path = tmp_path / "short_duel.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_a_whole_conflict_at_the_table_survives_bad_input_undo_and_a_kill(ruleset_id: str, tmp_path: Path) -> None:
    name = FIRST_EXAMPLE.get(ruleset_id)
    assert name, f"{ruleset_id} has no example to play"
    scenario = short_levald(tmp_path) if ruleset_id == "levald" else name
    args = [scenario, "--dice", "table", "--seed", "5", *human_seats(name)]

    straight = Session(tmp_path / "straight.sqlite")
    ending = straight.drive(straight.spawn(*args))
    assert ending is not None
    assert straight.conflict_id is not None
    assert straight.inputs >= 4, "too few human inputs to test undo and a kill"

    broken = Session(tmp_path / "broken.sqlite")
    child = broken.spawn(*args)
    kill_at = max(2, straight.inputs // 2)
    assert broken.drive(child, stop_after=kill_at, bad_at=1, undo_at=2) is None
    child.kill(signal.SIGKILL)
    child.close()
    assert broken.conflict_id is not None
    resumed = broken.drive(broken.spawn("--resume", str(broken.conflict_id)))

    assert resumed == ending
    assert broken.transcript[-5:] == straight.transcript[-5:]
    first = exported(straight.db, straight.conflict_id)
    second = exported(broken.db, broken.conflict_id)
    assert first["steps"] == second["steps"]
