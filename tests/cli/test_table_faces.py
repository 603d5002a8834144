"""``konflikt play --dice table``: the dice typed face by face are shown back as typed and kept in the save."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result


def test_typed_faces_are_narrated_as_typed_and_saved_with_the_step(
    cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "s.sqlite")
    monkeypatch.setattr("sys.stdin", io.StringIO("+ + 0 -\n+2\nauto\nquit\n"))
    played = cli("play", "presja/knife_fight", "--dice", "table", "--seed", "5", "--db", db)
    assert played.code == 0, played.err
    out = " ".join(played.out.split())  # the terminal wraps long lines
    assert "Belzee rzuca 4dF (rolls): + + 0 - = +1 →" in out
    assert "Massimo rzuca 4dF (rolls): +2 →" in out  # a typed total: the total alone
    auto = out.split("konflikt rolls ")[1].split(" → ")[0].split()
    assert len(auto) == 4 and set(auto) <= {"+", "0", "-"}  # 'auto' at the prompt: konflikt's faces, shown
    steps = json.loads(cli("export", "1", "--db", db).out)["steps"]
    chance = [s for s in steps if s["node"] == "@chance"]
    assert chance[0] == {"node": "@chance", "outcome": 1, "faces": [1, 1, 0, -1]}
    assert chance[1] == {"node": "@chance", "outcome": 2}
    assert ["0+-"[f] for f in chance[2]["faces"]] == auto


def test_a_typed_pool_is_narrated_die_by_die(
    cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "s.sqlite")
    monkeypatch.setattr("sys.stdin", io.StringIO("6 3 1 5\n4 2 2\nquit\n"))
    played = cli("play", "fimbulfrost/robbers", "--dice", "table", "--seed", "5", "--db", db)
    out = " ".join(played.out.split())
    assert "Budolf rolls Omdømme, 4d6: 6 3 1 5 → 2 succes(er)" in out
    assert "Rudolf rolls Omdømme, 3d6: 4 2 2 → 1 succes(er)" in out
