"""How many conflicts a run may be asked for: past the count the tally holds exactly (2**53), ``sim -n`` and a sweep
spec's ``n`` are refused in one line naming the value and the limit, before anything is loaded or played; a sweep
grid of more cells than fit beside each other in memory is refused as well."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from konflikt.core.scenario import load_scenario
from konflikt.sim import engine
from konflikt.sim.engine import MAX_CONFLICTS
from konflikt.sim.sweep import MAX_CELLS
from tests.conftest import Result


def test_the_limit_is_the_count_float64_holds_exactly() -> None:
    assert MAX_CONFLICTS == 2**53
    assert float(MAX_CONFLICTS) + 1 == float(MAX_CONFLICTS)  # past it, adding one conflict changes no share


@pytest.mark.parametrize("n", [2**53 + 1, 10**400], ids=["2**53+1", "10**400"])
def test_sim_refuses_a_count_past_the_limit_before_any_work(cli: Callable[..., Result], n: int) -> None:
    """``-n 10**400`` ended in a traceback from the progress bar (int too large to convert to float); the scenario
    is not even looked at (it does not exist here)."""
    result = cli("sim", "presja/no_such_scenario", "-n", str(n))
    shown = f"{n:,}" if n < 10**20 else "a number of 401 digits"
    assert result.code == 2
    assert result.err == (
        f"konflikt: error: -n {shown}: more conflicts than a run counts exactly (at most {MAX_CONFLICTS:,} = 2**53)\n"
    )


def test_the_limit_itself_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "REFERENCE_CHUNK", 4)

    def stop(count: int) -> None:
        raise KeyboardInterrupt

    result = engine.simulate(load_scenario("pwge/duel"), MAX_CONFLICTS, 1, engine="reference", progress=stop)
    assert result.interrupted and result.tally.n == 4
    with pytest.raises(engine.KonfliktError, match="at most 9,007,199,254,740,992"):
        engine.simulate(load_scenario("pwge/duel"), MAX_CONFLICTS + 1, 1, engine="reference", progress=stop)


GRID = """
scenario = "fimbulfrost/robbers"
n = {n}

[[axis]]
name = "buy_back"
option = "buy_back"
values = [false, true]

[[axis]]
name = "question_dice"
option = "question_dice"
values = {values}
"""


def test_a_sweep_spec_past_the_limit_names_the_file_and_field(cli: Callable[..., Result], tmp_path: Path) -> None:
    spec = tmp_path / "huge.toml"
    spec.write_text(GRID.format(n=MAX_CONFLICTS + 1, values="[1, 2]"))
    result = cli("sweep", str(spec), "--out", str(tmp_path / "out"))
    assert result.code == 2
    assert result.err == (
        f"konflikt: error: {spec}: n = {MAX_CONFLICTS + 1:,}: more conflicts than a run counts exactly "
        f"(at most {MAX_CONFLICTS:,} = 2**53)\n"
    )
    assert not (tmp_path / "out").exists()


def test_a_grid_of_too_many_cells_is_refused_before_it_is_made(cli: Callable[..., Result], tmp_path: Path) -> None:
    """The cells are listed, each with a copy of the scenario, before the first is played: 2 × 60,000 values
    would be 120,000 of them (~7 GB at the ~60 KB a cell a sweep holds); the limit is counted, not listed."""
    spec = tmp_path / "wide.toml"
    spec.write_text(GRID.format(n=10, values=list(range(1, 60_001))))
    result = cli("sweep", str(spec), "--out", str(tmp_path / "out"))
    assert result.code == 2
    assert result.err == (
        f"konflikt: error: {spec}: axes of 2 × 60,000 values make 120,000 cells; a sweep takes at most {MAX_CELLS:,}\n"
    )
    spec.write_text(GRID.format(n=10, values=list(range(1, MAX_CELLS // 2 + 1))))
    result = cli("sweep", str(spec), "--out", str(tmp_path / "out"))
    assert "cells; a sweep takes at most" not in result.err  # exactly the limit: on to the axes' own checks
