"""``konflikt sweep``: a grid on the local engine and on a real Dask LocalCluster gives identical cells."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from konflikt.errors import KonfliktError, ScenarioError
from konflikt.sim.header import read_csv_header
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
    lines = (out / "cells.csv").read_text().splitlines()
    assert read_csv_header(lines[0])["seed"] == 4
    assert lines[1].startswith("buy_back,budolf_status,n,engine,win_helte")


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


KNIFE = """
scenario = "presja/knife_fight"
n = 300
seed = 5
options = { max_exchanges = 5 }

[[axis]]
name = "invoke_bonus"
option = "invoke_bonus"
values = [1, 3]
"""


@pytest.mark.parametrize("second_axis", [False, True])
def test_a_capped_knife_fight_shows_every_outcome_in_table_csv_and_plot(
    cli: Callable[..., Result], tmp_path: Path, second_axis: bool
) -> None:
    spec = tmp_path / "knife.toml"
    extra = '\n[[axis]]\nname = "tactics"\noption = "tactics"\nvalues = [true, false]\n' if second_axis else ""
    spec.write_text(KNIFE + extra)
    out = tmp_path / "out"
    result = cli("sweep", str(spec), "--out", str(out))
    assert result.code == 0, result.err
    text = (out / "cells.csv").read_text()
    header = read_csv_header(text)
    assert (
        header["overrides"] == {"max_exchanges": 5}
        and header["seed"] == 5
        and header["scenario"] == "presja/knife_fight"
    )
    rows = list(csv.DictReader(io.StringIO(text.split("\n", 1)[1])))
    assert len(rows) == (4 if second_axis else 2)
    for row in rows:
        wins = [k for k in row if k.startswith("win_") and not k.endswith(("_lo", "_hi"))]
        assert wins == ["win_strona_belzee", "win_strona_massimo"]
        assert sum(float(row[k]) for k in wins) + float(row["nobody"]) == pytest.approx(1, abs=1e-12)
        assert sum(float(row[k]) for k in row if k.startswith("end_")) == pytest.approx(1, abs=1e-12)
        # five exchanges rarely settle a knife fight: the cap decides, and the cell says so
        assert float(row["end_deadlock"]) == pytest.approx(float(row["nobody"]))
        assert float(row["nobody"]) > 0.5 and row["note"].startswith("cap decides")
    assert "nobody" in result.out and "deadlock" in result.out and "cap decides" in result.out
    assert "Belzee wins" in result.out
    plot = (out / ("heatmap.svg" if second_axis else "curve.svg")).read_text()
    for words in ("nobody wins (draw / deadlock)", "Belzee wins", "Massimo wins", "max_exchanges=5", "seed 5"):
        assert words in plot
    assert (out / "cells.json").exists() and '"run"' in (out / "cells.json").read_text()
