"""The exact-odds rows of ``konflikt bench``: a scenario too large for exact odds says so, with the count it saw."""

from __future__ import annotations

from konflikt.sim.bench import EXACT_TARGETS, exact_odds


def test_a_scenario_too_large_says_so_with_the_states_it_saw() -> None:
    (row,) = exact_odds(("levald/duel",), old=False)
    assert row["scenario"] == "levald/duel" and row["target_s"] == EXACT_TARGETS["levald/duel"]
    for cell in ("float", "exact"):
        assert row[cell]["s"] is None
        assert "too many states" in row[cell]["why"] and "estimate: more than" in row[cell]["why"]
    assert "state_api" not in row
