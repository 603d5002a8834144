"""Optimal play in Fimbulfrost (``rulesets/fimbulfrost/game.py``): the round game against brute force over the State
API on a toy, its heuristic value against the exact odds, optimal against the heuristic and random, the optimal
policy in simulation against ``solve``, and ``konflikt solve`` on the text's example."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from konflikt.analysis.exact import conflict_odds
from konflikt.analysis.optimal import Expectimax, Game
from konflikt.analysis.optimal_policy import _SOLVERS
from konflikt.analysis.optimal_solve import Solver, fixed_policies, seat_sides
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, load_scenario
from konflikt.core.state import State
from konflikt.rulesets.fimbulfrost.game import PASS, FimbulfrostGame
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.rulesets.fimbulfrost.helpers import hero, scenario

LISTS = frozenset({"consequence", "buy_back", "stay_out", "spare"})
"""The decisions the round game leaves to the heuristic (which consequence to buy): brute force skips them too."""
TOY_TOML = """ruleset = "fimbulfrost"
title = "toy"
[[sides]]
id = "helte"
[[sides.participants]]
id = "asa"
name = "Åsa"
omdomme = 1
status = 1
rustning = 2
[[sides.participants]]
id = "bo"
name = "Bo"
omdomme = 1
status = 2
[[sides]]
id = "fjende"
[[sides.participants]]
id = "trold"
name = "Trold"
role = "opponent"
omdomme = 2
kamp = 1
status = 4
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONFLIKT_CACHE", str(tmp_path / "cache"))
    _SOLVERS.clear()


def toy() -> tuple[Scenario, State]:
    """Two weak heroes against a troll: small enough for brute force, and the heuristic gives much away (its
    round-3 gathering stops at 95% and the round-1 morale is not always worth it)."""
    sc = scenario(
        heroes=[
            hero("asa", name="Åsa", omdomme=1, status=1, rustning=2),
            hero("bo", name="Bo", omdomme=1, status=2),
        ],
        opponent=hero("trold", name="Trold", role="opponent", omdomme=2, kamp=1, status=4),
    )
    state = new_state(sc, {})
    state.quiet = True
    return sc, state


def brute_force(sc: Scenario, state: State, sides: list[int]) -> tuple[Fraction, ...]:
    """Expectimax over the State API itself, in Fractions: every decision of the optimising sides' seats but the
    lists', each chance outcome (every hero's roll apart), no compact state."""
    optimising = {seat: k for seat, k in seat_sides(sc).items() if k in sides}
    game = Game(("helte", "fjende"), optimising, fixed_policies(sc, state), True, LISTS)
    return tuple(Expectimax(game, 200_000).value(state))


def test_toy_round_game_equals_brute_force_over_the_state_api() -> None:
    sc, state = toy()
    solver = Solver(sc, state)
    assert solver.method == "round game" and isinstance(solver.game, FimbulfrostGame)
    bound = solver.error_bound() + 1e-15
    for sides in ([], [1], [0, 1]):
        got = solver.values(sides)
        want = brute_force(sc, state, sides)
        assert all(abs(g - float(w)) <= bound for g, w in zip(got, want, strict=True)), (sides, got, want)
    # the heroes gain much by optimal play, the troll nothing: the test sees the difference
    assert solver.values([0, 1])[0] > solver.values([])[0] + 0.1


def test_toy_heuristic_value_is_the_exact_odds() -> None:
    sc, state = toy()
    solver = Solver(sc, state)
    odds = conflict_odds(state, {s: p for s, p in seat_policies(sc).items() if p is not None}).winners()
    assert abs(solver.values([])[0] - float(odds[("helte",)])) <= solver.error_bound() + 1e-15


def test_toy_optimal_at_least_heuristic_and_random() -> None:
    sc, state = toy()
    solver = Solver(sc, state)
    heuristic = solver.values([])
    both = solver.values([0, 1])
    for k in (0, 1):
        best = solver.values([k])
        random = solver.values([], uniform=[k])
        assert best[k] >= heuristic[k] - 1e-12
        assert best[k] >= random[k] - 1e-12
        assert solver.values([1 - k])[k] - 1e-12 <= both[k] <= best[k] + 1e-12
    # random choices (presenting oneself, describing nothing, spending nothing) lose clearly for the heroes
    assert solver.values([], uniform=[0])[0] < heuristic[0] - 0.05
    # someone always wins: the two values add up to one
    assert sum(both) == pytest.approx(1.0, abs=1e-12)


def test_the_game_passes_for_the_seats_whose_turn_it_is_not() -> None:
    sc, state = toy()
    solver = Solver(sc, state)
    game = solver.game
    assert isinstance(game, FimbulfrostGame)
    where = game.start(state)
    assert where is not None
    compact, _, made = where
    assert made == ()  # Åsa presents first: the first seat of the turns
    assert list(game.choices(compact, ())) == list(state.legal_actions("asa"))
    assert list(game.choices(compact, (PASS,))) == [PASS]
    assert game.policy_choice(compact, (PASS, PASS)) == PASS


def test_optimal_policy_in_simulation_agrees_with_solve_within_4_se() -> None:
    sc, state = toy()
    value = Solver(sc, state).values([0, 1])[0]
    policies = seat_policies(sc, dict.fromkeys(("asa", "bo", "trold"), "optimal"))
    n, wins = 400, 0
    gen = Generators.from_seed(5)
    for _ in range(n):
        played = new_state(sc, {})
        played.quiet = True
        Runner(policies, gen, trusted=True).play(played)
        wins += played.outcome().winners == ("helte",)
    se = (value * (1 - value) / n) ** 0.5
    assert abs(wins / n - value) <= 4 * se, (wins / n, value, se)


def test_solve_prints_exact_values_and_says_zero_sum(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "toy.toml"
    path.write_text(TOY_TOML, encoding="utf-8")
    result = cli("solve", str(path), "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["method"] == "round game" and data["zero_sum"] is True
    heroes, troll = data["sides"]
    assert heroes["best_response"] > heroes["heuristic"] + 0.1
    assert heroes["optimal"] + troll["optimal"] == pytest.approx(1.0)
    assert data["losses"] and data["losses"][0]["side"] == "helte"
    text = cli("solve", str(path))
    assert "zero-sum: yes" in text.out


@pytest.mark.slow
def test_robbers_solved_heuristic_is_the_exact_odds_and_optimal_at_least_it() -> None:
    """The text's example (about half a minute): the heuristic's value is the exact odds; optimal play gains."""
    sc = load_scenario("fimbulfrost/robbers")
    state = new_state(sc, {})
    state.quiet = True
    solver = Solver(sc, state)
    heuristic = solver.values([])
    odds = conflict_odds(state, {s: p for s, p in seat_policies(sc).items() if p is not None}).winners()
    assert abs(heuristic[0] - float(odds[("helte",)])) <= solver.error_bound() + 1e-15
    both = solver.values([0, 1])
    assert both[0] >= heuristic[0] and solver.values([], uniform=[0])[0] < heuristic[0]
