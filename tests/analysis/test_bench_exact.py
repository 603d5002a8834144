"""The exact-odds rows of ``konflikt bench``: a scenario too large for exact odds says so, with the count it saw."""

from __future__ import annotations

from functools import partial

from konflikt.analysis.exact import conflict_odds
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.sim.bench import _exact_cell
from konflikt.sim.runner import seat_policies


def test_a_scenario_too_large_says_so_with_the_states_it_saw() -> None:
    sc = load_scenario("levald/duel")
    seats = {s: p for s, p in seat_policies(sc).items() if p is not None}
    cell = _exact_cell(partial(conflict_odds, new_state(sc), seats, 2_000))
    assert cell["s"] is None
    assert "too many states" in cell["why"] and "estimate: more than" in cell["why"]
