"""Optimal play prepared beside the table: advice never waits on the solve (issue: the first ``advise`` froze the
terminal for a minute), says how far the solve is, and answers from the solved game once it is ready."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from konflikt.analysis import optimal_cache
from konflikt.analysis.advice import advise
from konflikt.analysis.background_solve import OptimalInBackground, prepared
from konflikt.analysis.optimal_policy import _SOLVERS
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from tests.analysis.test_optimal_fimbulfrost import TOY_TOML


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONFLIKT_CACHE", str(tmp_path / "cache"))
    _SOLVERS.clear()


def test_the_game_is_solved_in_a_worker_then_advice_is_optimal(tmp_path: Path) -> None:
    path = tmp_path / "toy.toml"
    path.write_text(TOY_TOML)
    scenario = load_scenario(str(path))
    preparation = prepared(scenario, {})
    assert preparation is not None and prepared(scenario, {}) is preparation  # one worker per game
    assert preparation.wait(240), preparation.progress()
    assert preparation.ready() and preparation.progress().startswith("optimal play solved")
    assert len(list(optimal_cache.entries())) == 1  # the worker wrote it; this process loaded it
    state = new_state(scenario)
    seat = state.current_player()
    answer = advise(scenario, state, seat, optimal=preparation)
    assert answer.method == "optimal" and answer.rows
    again = OptimalInBackground(scenario, {})  # solved before: loaded from the cache, no worker
    assert again.wait(60) and again.ready() and again._process is None


def test_before_the_game_is_solved_advice_answers_at_once_and_says_so() -> None:
    scenario = load_scenario("presja/knife_fight")  # about a minute to solve the first time
    preparation = OptimalInBackground(scenario, {})
    try:
        state = new_state(scenario)
        seat = state.current_player()
        began = time.monotonic()
        answer = advise(scenario, state, seat, iterations=50, optimal=preparation)
        took = time.monotonic() - began
        assert not preparation.done(), "the knife fight was solved while advice was asked: nothing was tested"
        assert answer.method == "mcts" and answer.rows
        assert "optimal play being solved beside the table" in answer.note
        assert took < 20, took
    finally:
        preparation.stop()
    assert preparation.wait(30) and "stopped" in preparation.progress()


def test_a_ruleset_without_a_round_game_prepares_nothing() -> None:
    assert prepared(load_scenario("levald/duel"), {}) is None
