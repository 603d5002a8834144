"""Every run bounded (issue 48, 10): sweeps, reports and solves check a budget before they start and refuse in one
line that says how much, the budget, and ``--force``.

Before: a sweep of 83,521 cells or of 10**12 conflicts started, ``report levald-weapons -n 10**12`` started, and
``solve presja/skirmish`` and ``solve pwge/shootout`` searched for 61 s before refusing.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from konflikt.core.scenario import bundled_examples
from konflikt.reports import MAX_CONFLICTS, find_report, planned_conflicts
from tests.conftest import Result, refused_in_one_line

WEAPONS = ["Spjut", "Kortsvärd", "Svärd", "Långsvärd", "Sköld", "Trästav"]


def spec(tmp_path: Path, n: int, axes: int, values: int) -> Path:
    """A sweep of Le våld's weapon duel: ``axes`` axes of ``values`` values each (the skills 1 to ``values``)."""
    duel = bundled_examples() / "sweeps" / "levald_weapons_duel.toml"
    text = f'scenario = "{duel}"\nn = {n}\nseed = 1\n'
    for k, side in enumerate(("a", "b", "a", "b")[:axes]):
        skill = "Enhandsvapen" if k < 2 else "Stridsvana"
        path = f"{side}.skills.{skill}" if k < 2 else f"{side}.stridsvana"
        text += f'\n[[axis]]\nname = "axis{k}"\npath = "{path}"\nvalues = {list(range(1, values + 1))}\n'
    path = tmp_path / "big.toml"
    path.write_text(text)
    return path


def test_a_sweep_of_83521_cells_is_refused_before_it_starts(cli: Callable[..., Result], tmp_path: Path) -> None:
    out = tmp_path / "out"
    line = refused_in_one_line(
        cli("sweep", str(spec(tmp_path, 1, 4, 17)), "--out", str(out)), "83,521 cells", "budget of 2,000", "--force"
    )
    assert "fewer values" in line
    assert not out.exists(), "nothing is written for a refused sweep"


def test_a_sweep_of_a_trillion_conflicts_is_refused(cli: Callable[..., Result], tmp_path: Path) -> None:
    out = tmp_path / "out"
    refused_in_one_line(
        cli("sweep", str(spec(tmp_path, 10**12, 1, 2)), "--out", str(out)),
        "2,000,000,000,000 conflicts",
        "--force",
    )
    assert not out.exists()


def test_a_sweep_within_the_budget_runs(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("sweep", str(spec(tmp_path, 4, 1, 2)), "--out", str(tmp_path / "out"), "--json")
    assert result.code == 0, result.err


def test_a_report_over_its_budget_is_refused_in_one_line(cli: Callable[..., Result], tmp_path: Path) -> None:
    out = tmp_path / "report"
    line = refused_in_one_line(
        cli("report", "levald-weapons", "-n", str(10**12), "--out", str(out)), "report levald-weapons", "--force"
    )
    assert "a smaller -n" in line
    assert not out.exists()


@pytest.mark.parametrize("key", ["levald-weapons", "fimbulfrost-opponents", "presja-choices"])
def test_the_bundled_reports_fit_their_budget_by_default(key: str) -> None:
    found = find_report(key)
    planned = planned_conflicts(found, found.report.n, list(found.report.content.levels))
    assert 0 < planned <= MAX_CONFLICTS


def test_levald_weapons_counts_every_pair_both_ways_and_the_mirrors() -> None:
    found = find_report("levald-weapons")
    entrants = len(found.report.content.entrants())
    assert planned_conflicts(found, 10, [40]) == (entrants * (entrants - 1) + entrants) * 10


@pytest.mark.parametrize("scenario", ["presja/skirmish", "pwge/shootout"])
def test_solve_out_of_reach_refuses_within_its_budget(cli: Callable[..., Result], scenario: str) -> None:
    line = refused_in_one_line(
        cli("solve", scenario), f"cannot solve {scenario} within the budget of 5 s", "--force", "states"
    )
    assert "konflikt sim" in line


@pytest.mark.parametrize(
    "args",
    [("solve", "presja/skirmish", "--force"), ("odds", "presja/skirmish")],
    ids=["solve --force", "odds"],
)
def test_long_work_answers_ctrl_c_in_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    """``solve --force`` may search for 600 s, ``odds presja/skirmish`` searched 26 s before it estimated: Ctrl-C
    stops either with exit 130 and one line (odds ended in an internal error, a ZeroDivisionError, from the
    simulation it had just begun)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "konflikt", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    try:
        time.sleep(14)  # start-up and into the work
        assert process.poll() is None, process.communicate()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, (out, err)
    assert b"Traceback" not in err and len(err.decode().strip().splitlines()) == 1, err
