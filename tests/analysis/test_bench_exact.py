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


def test_the_robbers_row_asks_from_saved_states_and_meets_its_targets_in_states() -> None:
    """The row times the model from the opening and again from states saved some steps in; each cell says how many
    steps in, and every one of them is answered by the model (the seconds are the bench's, not a test's). 277
    states since an entry stays on the list until chosen: the empty pools left the model's key (402 before)."""
    from konflikt.sim.bench import SAVED_STEPS, exact_odds

    (row,) = exact_odds(("fimbulfrost/robbers",), old=False)
    assert row["float"]["method"] == row["exact"]["method"] == "model" and row["exact"]["states"] == 277
    assert row["target_s"] == 0.3
    steps = [cell["steps"] for cell in row["saved_at"]]
    assert steps and steps == sorted(steps) and set(steps) <= set(SAVED_STEPS)
    assert all(cell["method"] == "model" and cell["s"] is not None for cell in row["saved_at"])


def test_a_saved_state_cell_over_its_time_limit_says_so() -> None:
    sc = load_scenario("presja/knife_fight")
    seats = {s: p for s, p in seat_policies(sc).items() if p is not None}
    cell = _exact_cell(partial(conflict_odds, new_state(sc), seats, exact=False), limit=0.0)
    assert cell["s"] is None and "not done within 0 s" in cell["why"]


def test_the_bench_table_shows_each_saved_state_by_its_steps() -> None:
    from konflikt.cli.bench_command import _seconds

    cells = [
        {"steps": 3, "s": 0.5, "states": 10, "method": "model"},
        {"steps": 10, "s": None, "states": None, "why": "not done within 30 s (wall)"},
        {"steps": 40, "s": 2.0, "states": 10, "method": "state"},
    ]
    assert _seconds(cells) == "3: 0.50 s, 10: over the limit, 40: 2.00 s (State API)"
    assert _seconds({"s": None, "why": "too many states for exact odds"}) == "too many states"
    assert _seconds([]) == "-"


def test_a_duel_whose_model_prepares_values_times_the_tables_question_by_them() -> None:
    """Le våld's models prepare each side's chance from every state: the bench times the preparation and then
    "who wins from here" from each saved state, answered by the values (exact); other models have no such cell."""
    from konflikt.analysis import from_here
    from konflikt.cli.bench_command import table_values_line
    from konflikt.sim.bench import table_values
    from tests.analysis.test_blocks_levald import SMALL, policies_of
    from tests.analysis.test_table_values_levald import compile_the_kernels

    compile_the_kernels()  # the table's warm-up loads them, and refuses to compile them
    sc = SMALL["heuristic"]()
    seats = dict(policies_of(sc))
    try:
        cell = table_values(sc, new_state(sc), seats)
    finally:
        from_here._VALUED.clear()
    assert cell is not None and cell["prepare_s"] > 0 and cell["at"]
    assert all(c["method"] == "exact" and c["note"].startswith("prepared values") for c in cell["at"])
    line = table_values_line("small", cell)
    assert line.startswith("small at the table (who wins from here, by values prepared in ")
    assert f"{cell['at'][0]['steps']}: " in line and "(reference)" not in line
    robbers = load_scenario("fimbulfrost/robbers")
    robber_seats = {s: p for s, p in seat_policies(robbers).items() if p is not None}
    assert table_values(robbers, new_state(robbers), robber_seats) is None
