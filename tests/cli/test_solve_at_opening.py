"""``konflikt solve SCENARIO --at-opening``: the first decision's choices ranked from the solved game (kept on disk,
or solved by the worker beside the command), the heuristic's ranking until it is ready.

The knife fight to 3 exchanges keeps the solve to seconds. The best choice's chance is the game's value that
``solve`` reports for Belzee's side (both optimal), read from the same solved game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result

KNIFE = ("presja/knife_fight", "-o", "max_exchanges=3")


def _json(result: Result) -> dict[str, Any]:
    assert result.code == 0, result.err
    data: dict[str, Any] = json.loads(result.out)
    return data


def test_the_heuristic_ranks_until_the_solved_game_is_ready_then_optimal_play_does(
    cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KONFLIKT_CACHE", str(tmp_path))
    first = _json(cli("solve", *KNIFE, "--at-opening", "--wait", "0", "--json"))
    assert first["method"] == "heuristic" and "being solved" in first["why_not_optimal"]
    assert first["seat"] == "belzee" and len(first["choices"]) == 2  # invoke an aspect for the order, or not
    ps = [c["p"] for c in first["choices"]]
    assert ps == sorted(ps, reverse=True)

    ranked = _json(cli("solve", *KNIFE, "--at-opening", "--wait", "600", "--json"))
    assert ranked["method"] == "optimal" and "optimal play solved" in ranked["how"]
    assert [b["seat"] for b in ranked["before"]] == ["Belzee", "Massimo"]  # the invocations: the heuristic's
    numbers = sorted(c["number"] for c in ranked["choices"])
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 5  # every declaration, once
    solved = _json(cli("solve", *KNIFE, "--json"))
    value = next(s["optimal"] for s in solved["sides"] if s["name"] == "Belzee")
    assert ranked["choices"][0]["p"] == pytest.approx(value, abs=1e-9)
    assert list(tmp_path.iterdir())  # the solved game is kept on disk for the next question

    again = cli("solve", *KNIFE, "--at-opening", "--wait", "0")
    text = " ".join(again.out.split())
    assert again.code == 0 and "best first: the win chance if both sides play optimally" in text
    assert "before it, played by the heuristic" in text and "atak na (attack) Massimo" in text
