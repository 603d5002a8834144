"""Information-set MCTS: seeded and reproducible, blind to other seats' secret choices, reachable by name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from konflikt.analysis.mcts import DEFAULT_ITERATIONS, MctsPolicy, Search
from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import get_ruleset
from konflikt.core.scenario import load_scenario
from konflikt.core.state import GM, State
from konflikt.errors import KonfliktError
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.conftest import Result


def opening(name: str) -> State:
    state = new_state(load_scenario(name), {})
    state.quiet = True
    return state


def test_a_seed_gives_the_same_search_and_decision() -> None:
    state = opening("fimbulfrost/robbers")
    seat = state.current_player()
    first = Search(state, seat, np.random.default_rng(7)).run(30)
    again = Search(state, seat, np.random.default_rng(7)).run(30)
    other = Search(state, seat, np.random.default_rng(8)).run(30)
    assert first.choice_stats() == again.choice_stats()
    assert first.decide() == again.decide()
    assert first.choice_stats() != other.choice_stats()  # the seed is really used
    assert sum(n for _, n, _ in first.choice_stats()) == 30
    assert state.steps() == [] and not state.is_terminal()  # the table's state is not touched


def test_the_policy_draws_its_seed_from_the_generator_it_is_given() -> None:
    state = opening("fimbulfrost/robbers")
    seat = state.current_player()
    policy = MctsPolicy(20)
    picks = {policy.choose(state, seat, np.random.default_rng(s)) for s in (1, 1, 1)}
    assert len(picks) == 1 and picks <= set(state.legal_actions(seat))


@pytest.mark.parametrize("theirs", ["advance", "hold", "retreat"])
def test_another_seats_secret_choice_is_never_read(theirs: str) -> None:
    """Hedda has chosen her movement marker in secret; Snurre's search is the same whatever she chose."""
    state = opening("levald/duel")
    state.apply_actions({"hedda": Action.of(theirs)})
    assert state.waiting_for() == ("snurre",)
    assert state.view(GM)["secret_choices"] == {"hedda": str(Action.of(theirs))}
    assert state.view("snurre")["secret_choices"] == {"hedda": "hidden"}
    search = Search(state, "snurre", np.random.default_rng(3)).run(18)
    assert search.root_state.waiting_for() == ("snurre", "hedda")  # she chooses again inside the search
    blind = opening("levald/duel")
    reference = Search(blind, "snurre", np.random.default_rng(3)).run(18)
    assert search.choice_stats() == reference.choice_stats()
    assert search.matrix() == reference.matrix()
    assert MctsPolicy(18).choose(state, "snurre", np.random.default_rng(5)) == MctsPolicy(18).choose(
        blind, "snurre", np.random.default_rng(5)
    )


def test_a_root_secret_choice_is_played_as_the_matrix_games_mixed_strategy() -> None:
    state = opening("levald/duel")
    search = Search(state, "snurre", np.random.default_rng(11)).run(45)
    found = search.matrix()
    assert found is not None
    mine, theirs, rows = found
    assert [a.kind for a in mine] == [a.kind for a in theirs] == ["advance", "hold", "retreat", "leave"]
    assert all(0 <= x <= 1 for row in rows for x in row)
    mix = search.mixed_strategy()
    assert mix is not None and sum(p for _, p in mix) == 1
    drawn = {Search(state, "snurre", np.random.default_rng(11)).run(45).decide() for _ in range(2)}
    assert len(drawn) == 1 and drawn <= {a for a, p in mix if p > 0}


def test_a_seat_without_a_side_plays_the_heuristic() -> None:
    state = opening("presja/knife_fight")
    assert state.side_of(GM) is None
    heuristic = get_ruleset("presja").policy("heuristic")
    runner = Runner({GM: MctsPolicy(5)}, Generators.from_seed(1))
    mirror = Runner({GM: heuristic}, Generators.from_seed(1))
    while state.current_player() != GM:
        seat = state.current_player()
        state.apply_action(heuristic.choose(state, seat, np.random.default_rng(0)) if seat != "@chance" else 0)
        if state.is_terminal():
            pytest.skip("the GM is never asked in this opening")
    assert runner.choose(state, GM) == mirror.choose(state, GM)


@pytest.mark.parametrize("name", ["presja/skirmish", "pwge/shootout"])
def test_search_decides_where_the_state_space_is_too_large(name: str) -> None:
    """Where exact analysis cannot go, a small search still gives a legal decision, the same for a seed."""
    state = opening(name)
    while state.current_player() in ("@chance", GM) or state.side_of(state.current_player()) is None:
        Runner(seat_policies(load_scenario(name)), Generators.from_seed(0)).step(state)
    seat = state.current_player()
    picks = [MctsPolicy(6).choose(state, seat, np.random.default_rng(2)) for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in state.legal_actions(seat)


def test_the_registry_makes_mcts_for_every_ruleset() -> None:
    for rid in ("presja", "levald", "fimbulfrost", "pwge"):
        ruleset = get_ruleset(rid)
        assert "mcts" in ruleset.policy_names()
        policy = ruleset.policy("mcts")
        assert isinstance(policy, MctsPolicy) and policy.iterations == DEFAULT_ITERATIONS
    made = get_ruleset("pwge").policy("mcts:40")
    assert isinstance(made, MctsPolicy) and (made.iterations, made.name) == (40, "mcts:40")


@pytest.mark.parametrize("name", ["mcts:", "mcts:0", "mcts:x", "mcts:²", "mcts:1000001", "heuristic:3"])
def test_a_bad_budget_is_refused(name: str) -> None:
    with pytest.raises(KonfliktError, match=r"whole number from 1 to|unknown policy"):
        get_ruleset("presja").policy(name)


def test_mcts_in_a_scenario_file_and_on_the_command_line(cli: Callable[..., Result], tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "examples/fimbulfrost/robbers.toml").read_text(encoding="utf-8")
    assert 'policy = "heuristic"' in text
    scenario = tmp_path / "robbers.toml"
    scenario.write_text(text.replace('policy = "heuristic"', 'policy = "mcts:4"', 1), encoding="utf-8")
    run = cli("run", str(scenario), "--seed", "2", "--quiet")
    assert run.code == 0, run.err
    sim = cli("sim", "fimbulfrost/robbers", "-n", "2", "--policy", "budolf=mcts:4", "--seed", "1")
    assert sim.code == 0, sim.err
    bad = cli("sim", "fimbulfrost/robbers", "-n", "2", "--policy", "budolf=mcts:lots")
    assert bad.code == 2
    assert bad.err.count("\n") == 1 and "whole number from 1 to" in bad.err
