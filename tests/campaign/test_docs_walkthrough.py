"""docs/campaigns.md's walk-through is run command by command, and every line it shows is found in the output."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

DOC = Path(__file__).resolve().parents[2] / "docs" / "campaigns.md"
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def steps() -> list[tuple[list[str], list[str]]]:
    """Each ``$ konflikt …`` command of the walk-through with the lines shown under it."""
    found: list[tuple[list[str], list[str]]] = []
    for block in BLOCK.findall(DOC.read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith("$ konflikt "):
                found.append((shlex.split(line.removeprefix("$ konflikt ")), []))
            elif line.strip() and line.strip() != "…":
                found[-1][1].append(line)
    return found


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def shown(expected: str, output: list[str]) -> bool:
    """``expected`` in one line of the output; ``…`` leaves words out (the pieces in order)."""
    pieces = [flat(piece) for piece in expected.split("…") if piece.strip()]
    for line in output:
        at = 0
        for piece in pieces:
            at = line.find(piece, at)
            if at < 0:
                break
            at += len(piece)
        else:
            return True
    return False


def test_the_walk_through_runs_as_documented(
    cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    db = str(tmp_path / "campaign.sqlite")
    walk = steps()
    assert len(walk) >= 9
    for args, expected in walk:
        result = cli(*args, "--db", db)
        assert result.code == 0, (args, result.err)
        output = [flat(line) for line in result.out.splitlines()]
        missing = [line for line in expected if not shown(line, output)]
        assert not missing, (args, missing, result.out)
