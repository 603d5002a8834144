"""``konflikt sim``: reproducible whatever the worker count, honest intervals, clean stop, JSON for scripts."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from konflikt.core.batch import wilson
from konflikt.core.scenario import load_scenario
from konflikt.errors import KonfliktError
from konflikt.sim.engine import REFERENCE_CHUNK, simulate
from tests.conftest import Result

ROBBERS = "fimbulfrost/robbers"


def test_same_seed_same_numbers_with_one_or_two_workers() -> None:
    scenario = load_scenario(ROBBERS)
    one = simulate(scenario, 1200, 7, engine="reference", workers=1).tally
    two = simulate(scenario, 1200, 7, engine="reference", workers=2).tally
    assert one.to_json() == two.to_json()
    other = simulate(scenario, 1200, 8, engine="reference", workers=1).tally
    assert other.to_json() != one.to_json()


def test_ctrl_c_stops_cleanly_with_the_conflicts_done_so_far() -> None:
    scenario = load_scenario(ROBBERS)

    def interrupt(done: int) -> None:
        raise KeyboardInterrupt

    result = simulate(scenario, 3 * REFERENCE_CHUNK, 1, engine="reference", progress=interrupt)
    assert result.interrupted
    assert result.tally.n == REFERENCE_CHUNK


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_sim_json_reports_outcomes_with_intervals(cli: Callable[..., Result]) -> None:
    result = cli("sim", ROBBERS, "-n", "600", "--seed", "3", "--engine", "reference", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["n"] == 600
    assert abs(sum(row["p"] for row in data["winners"]) - 1) < 1e-12
    for row in data["winners"]:
        assert row["ci95"][0] <= row["p"] <= row["ci95"][1]
    assert data["length"]["p10"] <= data["length"]["p50"] <= data["length"]["p90"]
    assert set(data["participants"]) == {"budolf", "rudolf", "roeverne"}


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("sim", ROBBERS, "-n", "0"), "-n"),
        (("sim", ROBBERS, "--engine", "quantum"), "--engine takes auto, reference or vectorised"),
        (("sim", "nowhere.toml"), "no such file"),
        (("sim", ROBBERS, "--option", "buy_back=perhaps"), "true or false"),
        (("sim", ROBBERS, "--policy", "budolf=human"), "needs a policy for every seat"),
    ],
)
def test_bad_sim_input_is_one_line(cli: Callable[..., Result], args: tuple[str, ...], fragment: str) -> None:
    result = cli(*args)
    assert result.code == 2
    assert fragment in result.err
    assert result.err.count("\n") == 1


def test_simulate_refuses_nonsense() -> None:
    with pytest.raises(KonfliktError, match="at least 1"):
        simulate(load_scenario(ROBBERS), 0, 1)
