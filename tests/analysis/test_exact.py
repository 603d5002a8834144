"""Exact whole-conflict odds: a hand-solved absorbing chain, brute force on an acyclic case, and simulation."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from konflikt.analysis.exact import StateSpaceTooLarge, conflict_odds
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import RandomPolicy
from konflikt.core.scenario import scenario_from_document
from konflikt.core.state import CHANCE, GM, SIMULTANEOUS, State
from konflikt.sim.runner import Generators, Runner
from tests.core.toy import DOCUMENT


def toy(points: tuple[int, int], **options: Any) -> State:
    doc = copy.deepcopy(DOCUMENT)
    doc["sides"][0]["participants"][0]["points"] = points[0]
    doc["sides"][1]["participants"][0]["points"] = points[1]
    doc["options"] = options
    return new_state(scenario_from_document(doc, "toy.toml"))


RANDOM = {"ada": RandomPolicy(), "bo": RandomPolicy(), GM: RandomPolicy()}


def test_endless_rounds_are_an_absorbing_chain_solved_by_hand() -> None:
    """1 point each, random stances, no round limit: per round ada wins 1/4, bo 5/36, else again → 9/14, 5/14."""
    odds = conflict_odds(toy((1, 1), max_rounds=0), RANDOM)
    assert odds.winners() == {("north",): Fraction(9, 14), ("south",): Fraction(5, 14)}


def brute_force(state: State) -> dict[Any, Fraction]:
    """Plain recursion over the whole tree, no merging of states."""
    if state.is_terminal():
        return {state.outcome().winners: Fraction(1)}
    out: dict[Any, Fraction] = {}
    node = state.current_player()
    branches: list[tuple[Fraction, State]] = []
    if node == CHANCE:
        for outcome, p in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            branches.append((p, child))
    elif node == SIMULTANEOUS:
        for a in state.legal_actions("ada"):
            for b in state.legal_actions("bo"):
                child = state.clone()
                child.apply_actions({"ada": a, "bo": b})
                branches.append((Fraction(1, 4), child))
    for p, child in branches:
        for k, q in brute_force(child).items():
            out[k] = out.get(k, Fraction(0)) + p * q
    return out


def test_bounded_rounds_match_brute_force() -> None:
    state = toy((2, 1), max_rounds=3)
    assert conflict_odds(state, RANDOM).winners() == brute_force(state)


def test_exact_agrees_with_simulation_within_4_standard_errors() -> None:
    state = toy((2, 2), max_rounds=0)
    exact = conflict_odds(state, RANDOM).winners()
    n = 3000
    wins: dict[Any, int] = {}
    gen = Generators.from_seed(2024)
    for _ in range(n):
        s = state.clone()
        Runner(RANDOM, gen).play(s)
        w = s.outcome().winners
        wins[w] = wins.get(w, 0) + 1
    for label, p in exact.items():
        se = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(wins.get(label, 0) / n - float(p)) <= 4 * se


def test_too_many_states_is_reported_with_an_estimate() -> None:
    with pytest.raises(StateSpaceTooLarge, match="use 'konflikt sim'"):
        conflict_odds(toy((10, 10), max_rounds=40), RANDOM, max_states=50)
