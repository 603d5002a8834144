"""The solved-game cache: compressed, keyed on the version, listed and cleared by ``konflikt cache``, and never an
error when a file is damaged."""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

import konflikt
from konflikt.analysis import optimal_cache
from tests.conftest import Result


@pytest.fixture(autouse=True)
def _folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KONFLIKT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _payload() -> dict[str, list[int]]:
    return {"values": [7] * 200_000, "policy": list(range(1000)) * 20}


def test_a_solved_game_is_stored_compressed_and_read_back() -> None:
    key = optimal_cache.cache_key({"title": "x"}, {"a": 1}, "equilibrium")
    optimal_cache.save(key, _payload(), "Walka na noże", "equilibrium")
    assert optimal_cache.load(key) == _payload()
    raw = len(pickle.dumps({"key": key, "payload": _payload()}, protocol=pickle.HIGHEST_PROTOCOL))
    stored = optimal_cache.path_for(key).stat().st_size
    assert stored * 20 < raw, (stored, raw)
    (entry,) = optimal_cache.entries()
    assert (entry.title, entry.what, entry.current, entry.raw_bytes) == ("Walka na noże", "equilibrium", True, raw)


def test_the_key_changes_with_the_version(monkeypatch: pytest.MonkeyPatch) -> None:
    before = optimal_cache.cache_key({"title": "x"}, {}, "equilibrium")
    monkeypatch.setattr(konflikt, "__version__", "99.0.0")
    assert optimal_cache.cache_key({"title": "x"}, {}, "equilibrium") != before


def test_a_damaged_or_foreign_file_is_solved_again_not_an_error() -> None:
    key = optimal_cache.cache_key({}, {}, "equilibrium")
    path = optimal_cache.path_for(key)
    path.parent.mkdir(parents=True)
    for damage in (b"", b"not json\n", b'{"format": 2, "key": "' + key.encode() + b'"}\nnot zlib', b"\x00" * 50):
        path.write_bytes(damage)
        assert optimal_cache.load(key) is None
    optimal_cache.save(key, [1, 2, 3])
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # cut short
    assert optimal_cache.load(key) is None


def test_konflikt_cache_lists_sizes_and_clears_other_versions_first(
    cli: Callable[..., Result], _folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "no solved games kept" in cli("cache").out
    optimal_cache.save(optimal_cache.cache_key({}, {}, "a"), _payload(), "Walka na noże", "equilibrium")
    with monkeypatch.context() as older:
        older.setattr(konflikt, "__version__", "0.0.1")
        optimal_cache.save(optimal_cache.cache_key({}, {}, "a"), [1], "Tvekamp [old]", "equilibrium")
    listed = cli("cache", "--json")
    rows = json.loads(listed.out)
    assert listed.code == 0 and len(rows["entries"]) == 2
    assert sorted(r["current"] for r in rows["entries"]) == [False, True]
    assert rows["bytes"] == sum(r["bytes"] for r in rows["entries"]) > 0
    monkeypatch.setenv("COLUMNS", "250")  # one table row a line
    shown = cli("cache").out
    assert "Walka na noże" in shown and "Tvekamp [old]" in shown and "not read by this version" in shown
    assert "2 solved games" in shown and "konflikt cache --clear --stale" in shown
    cleared = cli("cache", "--clear", "--stale")
    assert cleared.code == 0 and "removed 1 solved games of other versions" in cleared.out
    assert [e.title for e in optimal_cache.entries()] == ["Walka na noże"]
    assert "removed 1 solved games" in cli("cache", "--clear").out
    assert list(optimal_cache.entries()) == []
