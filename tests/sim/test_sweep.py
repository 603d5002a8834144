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
from konflikt.sim.sweep import load_spec, run_sweep, set_path, sweep_plan
from tests.conftest import Result

SPEC = """
scenario = "fimbulfrost/robbers"
n = 300
seed = 4

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


def refused_in_one_line(cli: Callable[..., Result], spec: Path, out: Path) -> Result:
    """``konflikt sweep SPEC --out OUT``, refused: exit 2 and one line."""
    result = cli("sweep", str(spec), "--out", str(out))
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    return result


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
    with pytest.raises(KonfliktError, match=r"sides has 1 entry, no \[3\]"):
        set_path(doc, "sides[3].x", 1)


def test_a_bad_spec_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('scenario = "x"\n[[axis]]\nname = "a"\nvalues = [1]\n')
    with pytest.raises(ScenarioError, match="axis"):
        load_spec(path)


def test_a_bad_value_on_an_axis_names_the_spec_the_axis_and_the_value(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    """Every cell is checked before the first is played: a value no cell can take is one line that names the spec
    file, the axis and the value (not only the rule option, after the cells before it were played)."""
    spec = tmp_path / "typo.toml"
    spec.write_text(
        'scenario = "fimbulfrost/robbers"\nn = 50\n\n'
        '[[axis]]\nname = "mishaps"\noption = "mishaps"\nvalues = ["always", "bogus"]\n\n'
        '[[axis]]\nname = "status"\npath = "sides[0].participants[0].status"\nvalues = [6, "six"]\n'
    )
    result = refused_in_one_line(cli, spec, tmp_path / "out")
    assert result.err.startswith(f"konflikt: error: {spec}: axis mishaps = 'bogus': option 'mishaps'"), result.err
    spec.write_text(spec.read_text().replace('"bogus"', '"defeating_roll"'))
    result = refused_in_one_line(cli, spec, tmp_path / "out")
    assert result.err.startswith(f"konflikt: error: {spec}: axis status = 'six': "), result.err
    assert "participants[0].status = 'six'" in result.err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("side", ["helte", "heltene"])
def test_a_side_is_refused_as_doing_nothing(cli: Callable[..., Result], tmp_path: Path, side: str) -> None:
    """``side`` once chose whose win rate the heatmaps showed; since every side's win and nobody's are in every
    row, table and plot (a draw is never painted as a loss), it chose nothing and was only checked. A designer who
    writes it expects it to do something: it is refused, naming the file and the field, and nothing is written."""
    spec = tmp_path / "side.toml"
    spec.write_text(SPEC.replace("seed = 4\n", f'seed = 4\nside = "{side}"\n'))
    result = cli("sweep", str(spec), "--out", str(tmp_path / "out"))
    assert result.code == 2
    assert result.err == (
        f"konflikt: error: {spec}: side = {side!r}: a sweep shows every side's win rate and nobody's in every row, "
        "table and plot, so side chooses nothing; remove it\n"
    )
    assert not (tmp_path / "out").exists()
    with pytest.raises(ScenarioError, match=r"side\.toml: side = "):
        load_spec(spec)


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


def test_the_plan_splits_only_the_last_cells_and_covers_every_part() -> None:
    plan = sweep_plan(36)
    assert plan == sweep_plan(36)  # the grid alone decides it
    parts = {cell: k for cell, _, k in plan}
    assert [parts[c] for c in (0, 27, 31, 32, 33, 34, 35)] == [1, 1, 1, 2, 2, 4, 8]
    for cell in range(36):
        assert [p for c, p, _ in plan if c == cell] == list(range(parts[cell]))
    assert [c for c, _, _ in plan] == sorted(c for c, _, _ in plan)  # grid order: rows merge as they land


@pytest.mark.parametrize(("scenario", "n", "chunk"), [("fimbulfrost/robbers", 5_500, 1_000), ("presja/skirmish", 7, 2)])
def test_a_cell_played_in_parts_is_the_whole_run(
    scenario: str, n: int, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parts of a run merged in order are the run: the same blocks, seeds and sums, however it is split (a kernel
    and the reference runner, each with several blocks a part)."""
    from konflikt.core.batch import Tally
    from konflikt.core.scenario import load_scenario
    from konflikt.sim import engine

    monkeypatch.setattr(engine, "KERNEL_CHUNK", chunk)
    monkeypatch.setattr(engine, "REFERENCE_CHUNK", chunk)
    loaded = load_scenario(scenario)
    whole = engine.simulate(loaded, n, 3).tally
    for parts in (1, 2, 4, 8):
        merged = Tally()
        for part in range(parts):
            tally, _, _ = engine.play_part(loaded, n, 3, {}, part, parts)
            merged.add_counts(tally.to_json())
        assert merged.to_json() == whole.to_json(), parts


KERNEL_SPEC = """
scenario = "fimbulfrost/robbers"
n = 250000
seed = 4

[[axis]]
name = "budolf_status"
path = "sides[0].participants[0].status"
values = [3, 6]

[[axis]]
name = "rudolf_status"
path = "sides[0].participants[1].status"
values = [3, 6]
"""
"""Three kernel blocks a cell, so the last cells play in parts (no buy_back axis: the kernel does not mirror it)."""


def test_local_sweep_on_two_workers_splits_the_last_cells_and_gives_the_same_rows(tmp_path: Path) -> None:
    path = tmp_path / "spec.toml"
    path.write_text(KERNEL_SPEC)
    spec = load_spec(path)
    assert run_sweep(spec, path, "local", workers=2) == run_sweep(spec, path, "local", workers=1)


def test_a_worker_forked_with_other_block_sizes_plays_the_planners_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The program's pool outlives a run: a worker forked while the blocks were smaller still plays the parts of a
    later sweep in the blocks its planner has (the sizes travel with the task, as ``simulate``'s do)."""
    from konflikt.sim import engine

    engine.close_pool()
    with monkeypatch.context() as patched:
        patched.setattr(engine, "KERNEL_CHUNK", 1000)
        list(engine.worker_pool(2).map(abs, range(4)))  # the workers exist, forked with 1,000 a block
    path = tmp_path / "spec.toml"
    path.write_text(KERNEL_SPEC)
    spec = load_spec(path)
    try:
        assert run_sweep(spec, path, "local", workers=2) == run_sweep(spec, path, "local", workers=1)
    finally:
        engine.close_pool()


def test_two_axes_of_one_name_are_refused(cli: Callable[..., Result], tmp_path: Path) -> None:
    """Each axis is a column of ``cells.csv`` and a plot's axis by its name: two axes named alike were played and
    written with one column standing for both. One line names the spec, the field and the name."""
    spec = tmp_path / "twice.toml"
    spec.write_text(
        'scenario = "levald/duel"\nn = 10\n\n[[axis]]\nname = "w"\noption = "max_rounds"\nvalues = [1, 2]\n\n'
        '[[axis]]\nname = "w"\noption = "step_size"\nvalues = [1]\n'
    )
    result = refused_in_one_line(cli, spec, tmp_path / "out")
    assert f"{spec}: axis[1].name = 'w'" in result.err and "axis[0]" in result.err, result.err
    assert not (tmp_path / "out").exists()


def test_a_path_or_scenario_that_names_nothing_names_the_spec_and_the_axis(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    """``sides[5]`` in a scenario of two sides, and a scenario file that is not there: the line names the spec file
    and its field, not only the path or the scenario (a designer with several specs must know which one)."""
    spec = tmp_path / "far.toml"
    spec.write_text(
        'scenario = "levald/duel"\nn = 10\n\n[[axis]]\nname = "who"\n'
        'path = "sides[5].participants[0].character"\nvalues = ["builtin:hedda"]\n'
    )
    result = refused_in_one_line(cli, spec, tmp_path / "out")
    assert result.err.startswith(f"konflikt: error: {spec}: axis who = 'builtin:hedda': "), result.err
    assert "sides has 2 entries, no [5]" in result.err, result.err
    spec.write_text('scenario = "nowhere.toml"\nn = 10\n\n[[axis]]\nname = "r"\noption = "max_rounds"\nvalues = [1]\n')
    result = refused_in_one_line(cli, spec, tmp_path / "out")
    assert result.err.startswith(f"konflikt: error: {spec}: scenario = 'nowhere.toml': "), result.err
