"""Bounds of issue 48: ``--workers`` capped at 4 × the cores with a one-line note (``sim --workers 300`` made 301
processes and 12.3 GB; ``sweep --workers 64`` 8.9 GB)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from konflikt.sim import engine
from tests.conftest import Result


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(engine.os, "cpu_count", lambda: 2)
    started: list[int] = []
    real = engine.ProcessPoolExecutor

    def counting(max_workers: int, **kwargs: object) -> engine.ProcessPoolExecutor:
        started.append(max_workers)
        return real(max_workers=max_workers, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "ProcessPoolExecutor", counting)
    yield
    engine.close_pool(kill=True)
    assert started and max(started) <= 8, started


def test_sim_workers_are_capped_at_four_per_core_with_a_note(cli: Callable[..., Result], two_cores: None) -> None:
    result = cli("sim", "fimbulfrost/robbers", "-n", "3000", "--seed", "1", "--workers", "300", "--json")
    assert result.code == 0, result.err
    assert result.err.strip() == "note: --workers 300: using 8 (4 × the 2 cores here)"
    capped = json.loads(result.out)
    again = cli("sim", "fimbulfrost/robbers", "-n", "3000", "--seed", "1", "--workers", "8", "--json")
    assert again.err == ""
    same = ("winners", "endings", "consequences", "length")
    assert [json.loads(again.out)[k] for k in same] == [capped[k] for k in same]


def test_sweep_workers_are_capped_too(cli: Callable[..., Result], two_cores: None, tmp_path: Path) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'scenario = "fimbulfrost/robbers"\nn = 400\nseed = 1\n\n'
        '[[axis]]\nname = "mishaps"\noption = "mishaps"\nvalues = ["defeating_roll", "always"]\n'
    )
    result = cli("sweep", str(spec), "--workers", "64", "--out", str(tmp_path / "out"), "--json")
    assert result.code == 0, result.err
    assert "note: --workers 64: using 8 (4 × the 2 cores here)" in result.err.splitlines()
