"""pwge's compact model (``rulesets/pwge/model.py``) against the State API, and its whole-conflict odds.

The model plays a handling by the vectorised kernel's flow with every roll split into its outcomes; here it must give,
from random open floors, the very distribution the State API gives over the next open floor (or the end, by the
State's own outcome label), Fraction for Fraction. Whole duels must come out equal to the State-API solver's, from
the opening and from the middle of an exchange; the odds within 4 standard errors of the kernel's simulation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import Any

import pytest

from konflikt.analysis.compact import explore
from konflikt.analysis.exact import _apply, branches, conflict_odds, outcome_label
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario, load_scenario, scenario_from_document
from konflikt.core.state import State
from konflikt.rulesets.pwge.model import PwgeModel, exact_model
from konflikt.rulesets.pwge.state import PwgeState
from konflikt.sim.engine import simulate
from konflikt.sim.runner import seat_policies
from tests.analysis.model_check import Outcome, assert_within_4_se, model_round, reachable
from tests.rulesets.pwge.helpers import weak_diplomats


def fighter(pid: str, strength: int, body: int, dice: int, **more: Any) -> dict[str, Any]:
    return {
        "id": pid,
        "name": pid.capitalize(),
        "policy": "heuristic",
        "attributes": {"Styrka": strength},
        "attribute": "Styrka",
        "melee_weapon": "svard",
        "body_points": body,
        "experience_dice": dice,
        **more,
    }


def duel(strength: int = 2, dice: tuple[int, int] = (1, 1), **options: Any) -> Scenario:
    """Two heuristic swordsmen with small pools (2 × Styrka) and experience dice: small enough for the State API."""
    doc = {
        "ruleset": "pwge",
        "title": "model test duel",
        "options": {"experience_dice": True, **options},
        "sides": [
            {"id": "red", "participants": [fighter("ann", strength, 10, dice[0])]},
            {"id": "blue", "participants": [fighter("bo", strength, 6, dice[1], melee_weapon="dolk")]},
        ],
        "setup": {},
    }
    return scenario_from_document(doc, "model_duel.toml")


def policies_of(sc: Scenario) -> dict[str, Policy]:
    return {s: p for s, p in seat_policies(sc).items() if p is not None}


def model_at(state: State, policies: Mapping[str, Policy]) -> PwgeModel:
    made = exact_model(state, policies)
    assert isinstance(made, PwgeModel), made
    return made


def walk_to(
    state: State, policies: Mapping[str, Policy], leaf: Callable[[State], dict[Any, Fraction] | None], start: bool
) -> dict[Any, Fraction]:
    """Through the State API until ``leaf`` answers (an end, an open floor), every chance outcome and choice with its
    probability; memoised by ``key()``: a handling's topping wars meet the same states by many paths. ``start``:
    ask ``leaf`` of ``state`` itself too (an open floor is otherwise stepped from)."""
    memo: dict[Hashable, dict[Any, Fraction]] = {}

    def on(s: State) -> dict[Any, Fraction]:
        return leaf(s) or after(s)

    def after(s: State) -> dict[Any, Fraction]:
        key = s.key()
        found = memo.get(key)
        if found is None:
            found = {}
            for p, move in branches(s, policies):
                child = s.fork()
                _apply(child, move)
                for outcome, q in on(child).items():
                    found[outcome] = found.get(outcome, Fraction(0)) + p * q
            memo[key] = found
        return found

    return on(state) if start else after(state)


def state_api_handling(state: State, policies: Mapping[str, Policy], model: PwgeModel) -> dict[Outcome, Fraction]:
    """From an open floor through the State API to the next open floor or the end."""

    def leaf(s: State) -> dict[Any, Fraction] | None:
        if s.is_terminal():
            return {("end", outcome_label(s), frozenset()): Fraction(1)}
        compact = model.encode(s)
        return None if compact is None else {("state", compact, frozenset()): Fraction(1)}

    return walk_to(state, policies, leaf, start=False)


@pytest.mark.parametrize(
    ("name", "sc"),
    [
        ("small", duel()),
        ("capped_tops", duel(3, (0, 2), max_tops_per_roll=1, skrama_from=2)),
    ],
)
def test_the_model_steps_as_the_state_api_fraction_for_fraction(name: str, sc: Scenario) -> None:
    policies = policies_of(sc)
    opening = new_state(sc)
    model = model_at(opening, policies)
    states = [opening, *reachable(opening, policies, model.encode, seed=len(name), count=6)]
    assert len(states) >= 5
    for state in states:
        compact = model.encode(state)
        assert compact is not None
        want = state_api_handling(state, policies, model)
        assert sum(want.values()) == 1
        assert model_round(model, compact) == want, compact


def test_whole_duels_equal_the_state_api_solvers_from_the_opening_and_mid_exchange() -> None:
    sc = duel()
    policies = policies_of(sc)
    opening = new_state(sc)
    by_model = conflict_odds(opening, policies)
    assert by_model.method == "model"
    by_state = conflict_odds(opening, policies, use_model=False)
    assert by_state.method == "state"
    assert by_model.distribution == by_state.distribution
    assert sum(by_model.distribution.values()) == 1
    assert by_model.lengths is not None and by_model.unit == "actions"
    # mid-exchange: Ann has attacked and Bo countered; the model enters the handling there (test_model_pwge_entry)
    state = opening.fork()
    assert isinstance(state, PwgeState)
    while state.phase in ("open", "counter"):
        _, move = branches(state, policies)[0]
        _apply(state, move)
    made = exact_model(state, policies)
    assert isinstance(made, PwgeModel) and made.encode(state) is None and made.enter(state) is not None
    mid_model = conflict_odds(state, policies)
    mid_state = conflict_odds(state, policies, use_model=False)
    assert mid_model.method == "model"
    assert mid_model.distribution == mid_state.distribution


def test_floats_lie_within_the_stated_bound_of_the_fractions() -> None:
    sc = duel(3)
    policies = policies_of(sc)
    exact = conflict_odds(new_state(sc), policies)
    floats = conflict_odds(new_state(sc), policies, exact=False)
    assert floats.error_bound > 0
    for label, p in exact.distribution.items():
        assert abs(float(floats.distribution[label]) - float(p)) <= floats.error_bound * float(p)


def test_a_duel_agrees_with_the_vectorised_kernel_within_4_standard_errors() -> None:
    sc = duel(3, (1, 2))
    odds = conflict_odds(new_state(sc), policies_of(sc), exact=False)
    assert abs(sum(odds.distribution.values()) - 1) < 1e-12  # type: ignore[arg-type]
    n = 100_000
    tally = simulate(sc, n, 11, engine="vectorised").tally
    assert_within_4_se(odds.winners(), tally.winners, n)  # type: ignore[arg-type]
    assert_within_4_se(odds.endings(), tally.endings, n)  # type: ignore[arg-type]
    assert_within_4_se(odds.fates("ann"), tally.fates["ann"], n)  # type: ignore[arg-type]
    assert odds.lengths is not None
    assert_within_4_se(odds.lengths, tally.rounds, n)  # type: ignore[arg-type]


def test_the_model_refuses_what_it_does_not_mirror() -> None:
    sc = load_scenario("pwge/shootout")
    assert "one against one" in str(exact_model(new_state(sc), policies_of(sc)))
    sc = duel()
    policies = {s: p for s, p in seat_policies(sc, {"bo": "random"}).items() if p is not None}
    assert "heuristic" in str(exact_model(new_state(sc), policies))


def test_asked_again_from_a_later_open_floor_the_explored_chain_answers_as_the_state_api() -> None:
    """At the table "who wins from here" is asked after every step: the chain explored from the opening is reused,
    and the answer from a state some way in is still the State-API solver's."""
    sc = duel()
    policies = policies_of(sc)
    opening = new_state(sc)
    model = model_at(opening, policies)
    conflict_odds(opening, policies)
    later = [
        s
        for s in reachable(opening, policies, model.encode, seed=4, count=8)
        if model.encode(s) != model.encode(opening)
    ]
    assert later
    for state in later[:3]:
        again = conflict_odds(state, policies)
        assert again.method == "model"
        assert again.distribution == conflict_odds(state, policies, use_model=False).distribution


@pytest.mark.parametrize(
    ("sc", "handlings"),
    [
        (duel(3, (1, 2)), 3),
        (duel(3, (0, 2), max_tops_per_roll=1, skrama_from=2), 3),
        (load_scenario("pwge/duel"), 1),
    ],
    ids=["small", "capped_tops", "bundled"],
)
def test_contests_and_skadeslag_played_once_per_situation_equal_the_rows_played_roll_by_roll(
    sc: Scenario, handlings: int
) -> None:
    """The memo (each stage played apart once per situation, ``model_rows``) against every stage played in the rows
    themselves: the same successors from every open floor met within a few handlings (the bundled duel's opening
    has a turordningsslag, contests and skadeslag with topping wars), numerator for numerator."""
    opening = new_state(sc)
    memoised, in_place = PwgeModel(opening), PwgeModel(opening, memoise=False)
    assert memoised.stages is not None and in_place.stages is None
    met = explore(memoised, [memoised.encode(opening)], 100_000, depth=handlings).states
    floors = [c for c in met if memoised.end(c) is None]
    floors = [floors[0], *random.Random(1).sample(floors[1:], min(60, len(floors) - 1))]
    assert len(floors) > 20
    got = memoised.successors_batch(floors)
    want = in_place.successors_batch(floors)
    for c, (den, ways), (den2, ways2) in zip(floors, got, want, strict=True):
        assert (den, sorted(ways)) == (den2, sorted(ways2)), c  # type: ignore[type-var]
    assert memoised.stages["contest"] and memoised.stages["skadeslag"]


def test_a_contest_total_of_minus_one_is_a_roll_made_as_the_state_api_rolls_it() -> None:
    """At distance 10 a move is 2T + 1 − 5: a 2T of 3 totals −1, the number the array flow once used to mark a
    roll still to make, so the rows rolled it again and again (the model never finished); the compiled loop keeps
    a flag per roll, and so do the rows now."""
    sc = weak_diplomats(10)
    policies = policies_of(sc)
    opening = new_state(sc)
    assert isinstance(opening, PwgeState) and opening.press_mod(0, 1) == -4
    model = model_at(opening, policies)
    in_place = PwgeModel(opening, memoise=False)
    states = [opening, *reachable(opening, policies, model.encode, seed=2, count=4)]
    for state in states:
        compact = model.encode(state)
        assert compact is not None
        want = state_api_handling(state, policies, model)
        assert model_round(model, compact) == want, compact
        assert model_round(in_place, compact) == want, compact
    by_state = conflict_odds(opening, policies, use_model=False)
    assert conflict_odds(opening, policies).distribution == by_state.distribution
