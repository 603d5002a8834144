"""Every core, constant memory, coverage: ``sim --workers N`` gives the numbers of one process for a seed, builds a
kernel once, falls back to the reference runner on every worker with the reason, and does not grow with ``-n``."""

from __future__ import annotations

import dataclasses
import json
import signal
from collections.abc import Callable
from typing import Any

import pytest

from konflikt.core.scenario import load_scenario
from konflikt.sim import engine
from konflikt.sim.bench_scale import coverage, peak_rss
from konflikt.sim.engine import simulate, task_plan
from tests.conftest import Result


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 1,000 kernel conflicts and 4 reference ones: many tasks of several blocks from a small ``n``."""
    monkeypatch.setattr(engine, "KERNEL_CHUNK", 1000)
    monkeypatch.setattr(engine, "REFERENCE_CHUNK", 4)


@pytest.mark.parametrize("name", ["presja/knife_fight", "fimbulfrost/robbers"])
@pytest.mark.usefixtures("small_blocks")
def test_kernel_numbers_are_the_same_for_one_two_or_three_workers(name: str) -> None:
    scenario = load_scenario(name)
    n = 40_007  # 41 blocks: tasks of two blocks, the last one short
    one = simulate(scenario, n, 11, workers=1)
    assert one.engine == "vectorised" and one.tally.n == n
    for workers in (2, 3):
        many = simulate(scenario, n, 11, workers=workers)
        assert many.tally.to_json() == one.tally.to_json()  # float sums too: merged in the same order
        # the bench's timeline: one (first start, last end) per process that played, after the run began
        assert set(many.worker_span) == set(many.worker_cpu) and len(many.worker_span) <= workers
        assert all(many.play_started <= first <= last for first, last in many.worker_span.values())
    assert simulate(scenario, n, 12, workers=2).tally.to_json() != one.tally.to_json()


def test_tasks_depend_on_n_only_cover_every_block_and_end_in_single_blocks() -> None:
    plan = list(task_plan(10**8 + 3, 100_000, kernel=True))  # 1,001 blocks
    assert plan[0] == (0, 4, 400_000) and plan[-1] == (1000, 1, 3)
    assert sum(count for _, _, count in plan) == 10**8 + 3
    firsts = [first for first, _, _ in plan]
    assert firsts == sorted(firsts) and all(b - a == p[1] for a, b, p in zip(firsts, firsts[1:], plan, strict=False))
    sizes = [blocks for _, blocks, _ in plan]
    assert sizes == sorted(sizes, reverse=True)  # large tasks first, never a large one after a small one
    assert sizes[-engine.TAPER :] == [1] * engine.TAPER  # the last blocks are a task each: an even finish
    assert sizes.count(4) == (1001 - 49) // 4 + 1  # 4 blocks while more than 48 are left
    assert [blocks for _, blocks, _ in task_plan(40 * 100_000, 100_000, kernel=True)] == [3] * 3 + [2] * 8 + [1] * 15
    assert list(task_plan(1500, 500, kernel=False)) == [(0, 1, 500), (1, 1, 500), (2, 1, 500)]


def test_the_kernel_is_built_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parent builds the kernel to choose the engine; the run plays with that one (it used to build it again),
    and a second run of the same scenario in the same program reuses it."""
    base = load_scenario("presja/knife_fight")
    factory = base.ruleset.kernel
    assert factory is not None
    built: list[int] = []

    def counting(*args: Any) -> Any:
        built.append(1)
        return factory(*args)

    scenario = dataclasses.replace(base, ruleset=dataclasses.replace(base.ruleset, kernel=counting))
    result = simulate(scenario, 250_000, 3, workers=1)
    assert result.engine == "vectorised" and result.tally.n == 250_000
    assert len(built) == 1
    again = simulate(scenario, 250_000, 3, workers=1)
    assert len(built) == 1 and again.tally.to_json() == result.tally.to_json()


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("presja/skirmish", "the presja kernel plays one against one"),
        (
            "levald/one_against_two",
            "the levald kernel plays duels only (one fighter a side); this scenario has sub-fights",
        ),
    ],
)
@pytest.mark.usefixtures("small_blocks")
def test_a_refused_scenario_falls_back_to_the_reference_runner_on_every_worker(name: str, reason: str) -> None:
    scenario = load_scenario(name)
    one = simulate(scenario, 8, 5, workers=1)
    two = simulate(scenario, 8, 5, workers=2)  # two tasks of four conflicts
    for result in (one, two):
        assert result.engine == "reference"
        assert result.note.startswith("reference runner (" + reason)
    assert two.tally.to_json() == one.tally.to_json()


@pytest.mark.usefixtures("small_blocks")
def test_sim_says_in_one_line_why_the_kernel_refused(cli: Callable[..., Result]) -> None:
    result = cli("sim", "presja/skirmish", "-n", "8", "--workers", "2", "--seed", "3")
    assert result.code == 0, result.err
    lines = [line for line in result.out.splitlines() if "reference runner (" in line]
    assert len(lines) == 1
    assert lines[0].startswith("8 conflicts in ")
    assert "the presja kernel plays one against one" in lines[0]
    data = json.loads(cli("sim", "presja/skirmish", "-n", "8", "--workers", "2", "--seed", "3", "--json").out)
    assert data["engine"] == "reference" and "the presja kernel plays one against one" in data["note"]


def test_bench_lists_the_engine_of_every_bundled_scenario() -> None:
    rows = {r["scenario"]: r for r in coverage()}
    assert rows["presja/knife_fight"] == {"scenario": "presja/knife_fight", "engine": "kernel", "why": None}
    assert rows["presja/skirmish"]["engine"] == "reference"
    assert rows["presja/skirmish"]["why"].startswith("the presja kernel plays one against one")
    assert rows["levald/one_against_two"]["why"].endswith("this scenario has sub-fights")
    assert {r["engine"] for r in rows.values()} == {"kernel", "reference"}
    assert len(rows) == 11


@pytest.mark.skipif(not engine.keep_freed_memory(), reason="glibc's allocator only (Linux)")
def test_a_block_reuses_the_memory_the_block_before_it_freed() -> None:
    """Blocks of 100,000 robbers: 8 MB of arrays each. glibc used to give them back to the kernel when a block was
    tallied, and every block faulted ~2,300 fresh pages in (15-25% of its CPU time zeroing them); kept, a block
    after the first faults in almost none."""
    import resource

    scenario = load_scenario("fimbulfrost/robbers")
    simulate(scenario, 200_000, 1, workers=1)  # the heap grows to a block's size once
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    result = simulate(scenario, 300_000, 2, workers=1)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    assert result.engine == "vectorised" and engine.KERNEL_CHUNK == 100_000
    assert faults / 3 < 100, faults


def test_peak_memory_does_not_grow_with_n() -> None:
    """Twenty times the conflicts (a fresh process each, blocks of 10,000): the same peak RSS within 5 MB; and the
    run's own peak, not the process that started it (a bench that holds 300 MB used to read as a 345 MB run)."""
    small = peak_rss("fimbulfrost/robbers", 20_000, 1, block=10_000)
    held = bytearray(300 * 2**20)
    held[:: 2**12] = b"x" * len(held[:: 2**12])  # resident: every page touched
    large = peak_rss("fimbulfrost/robbers", 400_000, 1, block=10_000)
    del held
    assert (small["n"], large["n"]) == (20_000, 400_000)
    assert large["parent_mb"] - small["parent_mb"] < 5, (small, large)


@pytest.mark.usefixtures("small_blocks")
def test_a_huge_run_on_two_workers_holds_a_few_tasks_and_stops_cleanly() -> None:
    """``-n 10**12`` on two workers: tasks are made as the workers take them (a list would never start), and a
    Ctrl-C after the first merged task stops with its conflicts; the next run gets a fresh pool and is right."""
    scenario = load_scenario("presja/skirmish")

    def stop(done: int) -> None:
        raise KeyboardInterrupt

    result = simulate(scenario, 10**12, 1, workers=2, progress=stop)
    assert result.interrupted and result.tally.n == 4
    assert engine._POOL is None  # the interrupted pool was let go
    again = simulate(scenario, 8, 5, workers=2)
    assert again.tally.to_json() == simulate(scenario, 8, 5, workers=1).tally.to_json()


def stopped_in_the_background() -> dict[str, Any]:
    """A 10⁹ memory row stopped by its time limit, started as a shell starts a background job: with Ctrl-C ignored,
    which the run inherits (it used to run on for hours)."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return peak_rss("fimbulfrost/robbers", 10**9, 2, block=10_000, stop_after=2.0)
    finally:
        signal.signal(signal.SIGINT, previous)


def test_bench_prints_the_every_core_tables(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tables of ``konflikt bench`` from rows of the shape ``scale_bench`` returns (timings made up, the
    memory row and coverage real): every section is printed, the refusal reasons in full."""
    from konflikt.cli.bench_command import print_scale

    monkeypatch.setenv("COLUMNS", "200")
    load = [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    data = {
        "scaling": [{"scenario": "fimbulfrost/robbers", "n": 2_000_000, "one_worker_s": 2.0, "workers_s": 1.1,
                     "workers": 2, "scaling": 1.82, "target": 1.8, "cpu_scaling": 1.9, "cpu_overhead": 0.03,
                     "timeline": {"tail_s": 0.012}, "startup": {"kernel_s": 0.61, "pool_s": 0.07},
                     "load_average": load, "cores": 2, "pairs": [1.82, 2.01, 1.51]}],
        "dask": {"sweep": "sweeps/levald_weapons.toml", "cells": 36, "n_per_cell": 3000, "workers": 2,
                 "one_worker_s": 10.0, "workers_s": 5.4, "efficiency": 0.93, "cpu_efficiency": 0.97, "target": 0.9,
                 "startup": {"cluster_s": 1.5, "first_cell_s": [2.25, 2.5]},
                 "load_average": [load, load], "cores": 2, "pairs": [0.93, 0.88, 0.95]},
        "memory": [peak_rss("fimbulfrost/robbers", 20_000, 2, block=10_000), stopped_in_the_background()],
        "coverage": coverage(),
    }  # fmt: skip
    print_scale(data)
    out = capsys.readouterr().out
    assert "1.82× (target 1.8×)" in out
    flat = " ".join(out.split())  # the Dask line wraps
    assert "interleaved pairs 1.82×, 2.01×, 1.51×; the row is the median pair" in flat
    assert "efficiency 93.0% (target 90%; median of the pairs 93.0%, 88.0%, 95.0%)" in flat
    assert "12 ms" in out and "0.61 s + 0.07 s" in out and "1.5 s cluster, 2.5 s a worker's first cell" in flat
    assert "20,000" in out and "MB" in out
    stopped = data["memory"][1]  # stopped by its time limit, as bench --memory's 10⁹ row may be
    assert stopped["interrupted"] and stopped["n"] < 10**9 and stopped["n"] % 10_000 == 0
    assert f"{stopped['n']:,} of 1,000,000,000 (stopped)" in out
    assert "sub-fights" in out and "presja/skirmish" in out


def test_bench_memory_alone_prints_its_rows(cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch) -> None:
    """``konflikt bench --memory`` runs the memory rows and nothing else (sizes shrunk here: 10⁹ takes minutes)."""
    from konflikt.sim import bench_scale

    monkeypatch.setitem(bench_scale.MEMORY_SIZES, "memory", (20_000,))
    result = cli("bench", "--memory", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert set(data) == {"memory", "load_average", "cores", "machine"}
    [row] = data["memory"]
    assert row["n"] == row["asked"] == 20_000 and not row["interrupted"] and row["worker_mb"] > 0
    monkeypatch.setenv("COLUMNS", "200")
    table = cli("bench", "--memory")
    assert table.code == 0 and "peak memory against -n" in table.out and "20,000" in table.out
