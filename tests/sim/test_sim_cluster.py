"""``konflikt sim --scheduler ADDRESS``: the blocks of conflicts as tasks on a real Dask LocalCluster give the
same numbers as the local run for the same seed and ``-n`` (each block keeps its own seed; results merge in order)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from konflikt.core.scenario import load_scenario
from konflikt.sim.engine import KERNEL_CHUNK, REFERENCE_CHUNK, simulate
from tests.conftest import Result


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def _numbers(printed: str) -> dict[str, Any]:
    """A ``sim --json`` answer without what depends on the machine (time, the engine's note on processes)."""
    data = json.loads(printed)
    return {key: value for key, value in data.items() if key not in ("seconds", "run", "note")}


def test_sim_on_a_cluster_equals_the_local_run(cli: Callable[..., Result], scheduler: str) -> None:
    n = str(3 * KERNEL_CHUNK + 17)  # four blocks of the kernel, the last a short one
    local = cli("sim", "fimbulfrost/robbers", "-n", n, "--seed", "5", "--json")
    remote = cli("sim", "fimbulfrost/robbers", "-n", n, "--seed", "5", "--json", "--scheduler", scheduler)
    assert local.code == 0 and remote.code == 0, remote.err
    assert _numbers(remote.out) == _numbers(local.out)
    assert json.loads(remote.out)["n"] == 3 * KERNEL_CHUNK + 17


def test_the_reference_runner_on_a_cluster_equals_the_local_run(scheduler: str) -> None:
    scenario = load_scenario("presja/knife_fight")
    n = 2 * REFERENCE_CHUNK + 3
    local = simulate(scenario, n, 11, engine="reference")
    remote = simulate(scenario, n, 11, engine="reference", scheduler=scheduler)
    assert remote.engine == "reference" and remote.tally.n == n
    assert remote.tally.to_json() == local.tally.to_json()


def test_an_unreachable_scheduler_is_one_line(cli: Callable[..., Result]) -> None:
    result = cli("sim", "fimbulfrost/robbers", "-n", "10", "--scheduler", "tcp://127.0.0.1:9")
    assert result.code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.err and result.err.count("\n") == 1


def test_a_report_on_a_cluster_equals_the_local_report(
    cli: Callable[..., Result], scheduler: str, tmp_path: Path
) -> None:
    """``report --scheduler``: every simulation of the weapons' round robin runs on the cluster, one connection for
    them all; the table is the local one."""
    args = ("report", "levald-weapons", "-n", "20", "--skills", "60", "--json")
    local = cli(*args, "--out", str(tmp_path / "here"))
    remote = cli(*args, "--out", str(tmp_path / "there"), "--scheduler", scheduler)
    assert local.code == 0 and remote.code == 0, remote.err

    def numbers(printed: str) -> Any:
        data = json.loads(printed)
        data["pairs"] = [{k: v for k, v in pair.items() if k != "seconds"} for pair in data["pairs"]]
        return {key: value for key, value in data.items() if key not in ("seconds", "run", "note", "out", "files")}

    assert numbers(remote.out) == numbers(local.out)
