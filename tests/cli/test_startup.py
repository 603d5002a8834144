"""What ``konflikt`` imports to start, and the command-line habits people expect of a tool.

``konflikt --help`` and ``konflikt run presja/knife_fight`` import no matplotlib, dask or icepool (checked in a
fresh process, through ``sys.modules``); ``--version``, ``-h``, completion, unquoted dice, ``saves --delete``, and
exit code 0 when the reader of a pipe stops early.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer

from konflikt import __version__
from konflikt.cli.quick import COMMANDS, help_text
from tests.conftest import Result

HEAVY = ("matplotlib", "dask", "icepool")

PROBE = """
import contextlib, io, json, sys
from konflikt.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {heavy})))
"""


def imported(*args: str) -> list[str]:
    """The heavy modules a fresh process has imported after ``konflikt ARGS``."""
    code = PROBE.format(heavy=repr(set(HEAVY)))
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    found: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize("args", [("--help",), ("run", "presja/knife_fight", "--seed", "1")])
def test_starting_imports_no_plotting_cluster_or_icepool(args: tuple[str, ...]) -> None:
    assert imported(*args) == []


def test_the_quick_help_lists_every_registered_command_with_its_help() -> None:
    from konflikt.cli.main import _register, app

    _register()
    group: Any = typer.main.get_command(app)
    ctx = group.make_context("konflikt", [], resilient_parsing=True)
    registered = [
        (name, group.get_command(ctx, name).get_short_help_str(limit=100)) for name in group.list_commands(ctx)
    ]
    assert sorted(registered) == sorted(COMMANDS)
    assert all(name in help_text() for name, _ in registered)


def test_version_and_short_help(cli: Callable[..., Result]) -> None:
    assert cli("--version").out == f"konflikt {__version__}\n"
    assert "Usage: konflikt [OPTIONS] COMMAND" in cli("-h").out
    result = cli("run", "-h")
    assert result.code == 0 and "--quiet" in result.out


def test_completion_can_be_shown() -> None:
    """Asked from a shell (completion reads which shell started konflikt), as a user asks it."""
    shell = f"{sys.executable} -m konflikt --show-completion"
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "_KONFLIKT_COMPLETE" in done.stdout, done.stderr


def test_dice_words_need_no_quotes(cli: Callable[..., Result]) -> None:
    result = cli("roll", "6d6", "pool", "--seed", "1")
    assert result.code == 0 and result.out.startswith("6d6 pool: ")
    assert cli("odds", "6d6", "pool", "--json").code == 0


def test_a_closed_pipe_is_a_success() -> None:
    """``konflikt run … | head -1``: the reader stops after one line, and konflikt exits 0 with nothing on stderr."""
    shell = (
        f"{sys.executable} -m konflikt run presja/knife_fight --seed 1 | head -1 >/dev/null; echo ${{PIPESTATUS[0]}}"
    )
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "0", done.stderr
    assert "Error" not in done.stderr


def test_saves_delete(cli: Callable[..., Result], tmp_path: Path) -> None:
    saved = tmp_path / "conflict.json"
    assert cli("run", "fimbulfrost/robbers", "--seed", "3", "--save", str(saved), "-q").code == 0
    db = str(tmp_path / "s.sqlite")
    cli("import", str(saved), "--db", db)
    cli("import", str(saved), "--db", db)
    assert cli("saves", "--db", db, "--delete", "1").out == "deleted conflict 1\n"
    assert [row["id"] for row in json.loads(cli("saves", "--db", db, "--json").out)] == [2]
    refused = cli("saves", "--db", db, "--delete", "1")
    assert refused.code == 2 and "no saved conflict 1" in refused.err


def test_run_quiet_prints_the_outcome_only(cli: Callable[..., Result]) -> None:
    result = cli("run", "presja/knife_fight", "--seed", "1", "--quiet")
    assert result.code == 0
    assert "outcome: wyeliminowany (taken out)" in result.out  # the ending in words
    assert "Sekwencja" not in result.out and "seed 1" not in result.out


def _colours(env_extra: dict[str, str]) -> set[str]:
    """The colour codes (SGR 30–37, 38, 90–97) of a narrated conflict printed in colour (``FORCE_COLOR``)."""
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"} | {"FORCE_COLOR": "1", **env_extra}
    done = subprocess.run(
        [sys.executable, "-m", "konflikt", "run", "presja/knife_fight", "--seed", "1"],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    codes = set(re.findall(r"\x1b\[([0-9;]*)m", done.stdout))
    return {p for code in codes for p in code.split(";") if p and (30 <= int(p) <= 38 or 90 <= int(p) <= 97)}


def test_no_color_is_honoured() -> None:
    """NO_COLOR (no-color.org): no colour at all, emphasis (bold) kept; the same run with colour forced has colours,
    so the test fails if konflikt forced its own colours past NO_COLOR."""
    assert _colours({})
    assert _colours({"NO_COLOR": "1"}) == set()
