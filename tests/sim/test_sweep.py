"""``konflikt sweep``: a grid on the local engine and on a real Dask LocalCluster gives identical cells."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from konflikt.core.errors import KonfliktError, ScenarioError
from konflikt.sim.sweep import load_spec, run_sweep, set_path
from tests.conftest import Result

SPEC = """
scenario = "fimbulfrost/robbers"
n = 300
seed = 4
side = "helte"

[[axis]]
name = "buy_back"
option = "buy_back"
values = [false, true]

[[axis]]
name = "budolf_status"
path = "sides[0].participants[0].status"
values = [3, 6]
"""


@pytest.fixture
def spec_file(tmp_path: Path) -> Path:
    path = tmp_path / "spec.toml"
    path.write_text(SPEC)
    return path


def test_local_and_dask_engines_give_identical_cells(spec_file: Path) -> None:
    from distributed import LocalCluster

    spec = load_spec(spec_file)
    local = run_sweep(spec, spec_file, "local", workers=1)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = run_sweep(spec, spec_file, "dask", scheduler=cluster.scheduler_address)
    assert [r["buy_back"] for r in local] == [False, False, True, True]
    assert local == remote
    # the grid changes what it says it changes: a weaker Budolf loses more often
    weak = next(r for r in local if r["budolf_status"] == 3 and not r["buy_back"])
    strong = next(r for r in local if r["budolf_status"] == 6 and not r["buy_back"])
    assert weak["win_helte"] <= strong["win_helte"]


def test_sweep_command_writes_csv_json_and_plots(cli: Callable[..., Result], spec_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = cli("sweep", str(spec_file), "--out", str(out), "--json")
    assert result.code == 0, result.err
    rows = json.loads(result.out)["rows"]
    assert len(rows) == 4
    for name in ("cells.csv", "cells.json", "heatmap.png", "heatmap.svg"):
        assert (out / name).stat().st_size > 0
    assert (out / "cells.csv").read_text().splitlines()[0].startswith("buy_back,budolf_status,n,engine,win_helte")


def test_paths_set_values_inside_the_document() -> None:
    doc = {"sides": [{"participants": [{"id": "a"}]}], "setup": {}}
    set_path(doc, "sides[0].participants[0].skill", 5)
    set_path(doc, "setup.wield.a", "Svärd")
    assert doc["sides"][0]["participants"][0]["skill"] == 5
    assert doc["setup"] == {"wield": {"a": "Svärd"}}
    with pytest.raises(KonfliktError, match="no 3"):
        set_path(doc, "sides[3].x", 1)


def test_a_bad_spec_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('scenario = "x"\n[[axis]]\nname = "a"\nvalues = [1]\n')
    with pytest.raises(ScenarioError, match="axis"):
        load_spec(path)
