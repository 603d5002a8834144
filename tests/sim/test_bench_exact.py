"""The bench's check of exact odds against simulation (``sim.bench.agreement``), at a test's size."""

from __future__ import annotations

from konflikt.analysis.exact import conflict_odds
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.sim.bench import agreement
from konflikt.sim.runner import seat_policies


def odds_of(name: str, **options: object) -> object:
    sc = load_scenario(name)
    seats = {s: p for s, p in seat_policies(sc).items() if p is not None}
    return conflict_odds(new_state(sc, dict(options) or None), seats, exact=False)


def test_the_robbers_exact_odds_lie_within_4_standard_errors_of_their_simulation() -> None:
    check = agreement("fimbulfrost/robbers", odds_of("fimbulfrost/robbers"), 20_000)
    assert check["n"] == 20_000 and check["engine"] == "vectorised"
    assert check["within_4_se"] and 0 < check["worst_se"] <= 4


def test_odds_of_another_conflict_lie_far_outside_4_standard_errors() -> None:
    """The check can fail: the dragon's odds against the robbers' simulation."""
    check = agreement("fimbulfrost/robbers", odds_of("fimbulfrost/dragon"), 20_000)
    assert not check["within_4_se"] and check["worst_se"] > 10
