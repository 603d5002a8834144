"""presja's compact model (``rulesets/presja/model.py``) against the State API, and its whole-conflict odds.

The model's exchange is the kernel's; here it must give, from random reachable states at the start of an exchange,
the very distribution the State API gives over the next exchange's start (or the end), Fraction for Fraction, with
the same consequences taken (by name). Whole conflicts (at a small exchange cap) must come out equal to the State-API
solver's, from the opening and from the middle of an exchange; floats within the stated bound of the Fractions; and
the knife fight's exact odds within 4 standard errors of the vectorised kernel's simulation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from math import sqrt
from typing import Any

import numpy as np
import pytest

from konflikt.analysis.exact import conflict_odds
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario, load_scenario, scenario_from_document
from konflikt.core.state import State
from konflikt.rulesets.presja.model import BOX, SENTINEL, PresjaModel, exact_model, name_free_label
from konflikt.rulesets.presja.state import PresjaState
from konflikt.sim.engine import simulate
from konflikt.sim.runner import seat_policies
from tests.analysis.model_check import assert_within_4_se, model_round, reachable, state_api_round, step


def policies_of(sc: Scenario) -> dict[str, Policy]:
    return {s: p for s, p in seat_policies(sc).items() if p is not None}


def duel(options: Mapping[str, Any] | None = None, **b: Any) -> Scenario:
    """Two heuristic fighters with armour, fate points and a carried consequence: more numbers than the text's."""
    doc = {
        "ruleset": "presja",
        "title": "model test duel",
        "options": dict(options or {}),
        "setup": {"situation_aspects": ["Ciasno (cramped)"]},
        "sides": [
            {"id": "s0", "participants": [{"id": "a", "policy": "heuristic", "character": "builtin:belzee"}]},
            {"id": "s1", "participants": [{"id": "b", "policy": "heuristic", "character": "builtin:massimo", **b}]},
        ],
    }
    return scenario_from_document(doc, "model_duel.toml")


def model_at(state: State, policies: Mapping[str, Policy]) -> PresjaModel:
    made = exact_model(state, policies)
    assert isinstance(made, PresjaModel), made
    return made


SCENARIOS = {
    "knife_fight": lambda: load_scenario("presja/knife_fight"),
    "armoured_duel": lambda: duel({"max_exchanges": 12}, armour="kolczuga", fate_points=4),
    "compels_and_surprise": lambda: duel({"compels": True, "invoke_limit": 2}, consequences={"mild": "Kaszel"}),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_model_steps_as_the_state_api_fraction_for_fraction(name: str) -> None:
    sc = SCENARIOS[name]()
    policies = policies_of(sc)
    opening = new_state(sc)
    first = opening.fork()
    rng = np.random.default_rng(0)
    while exact_model(first, policies) is None:
        step(first, policies, rng)
    model = model_at(first, policies)
    states = reachable(opening, policies, model.encode, seed=len(name), count=8)
    assert len(states) >= 6
    for state in states:
        compact = model.encode(state)
        assert compact is not None
        want = state_api_round(state, policies, model.encode, name_free_label, model.held)
        assert model_round(model, compact) == want, f"exchange {compact[1]}"
        assert sum(want.values()) == 1


def test_a_model_built_mid_conflict_encodes_as_one_built_at_the_opening() -> None:
    sc = SCENARIOS["armoured_duel"]()
    policies = policies_of(sc)
    states = reachable(new_state(sc), policies, lambda s: exact_model(s, policies), seed=3, count=4)
    late = max(states, key=lambda s: s.exchange)  # type: ignore[attr-defined]
    early = min(states, key=lambda s: s.exchange)  # type: ignore[attr-defined]
    assert model_at(early, policies).encode(late) == model_at(late, policies).encode(late)


SHORT_TRACK = {"base_track": "1,2-3"}
"""Two boxes a side (a 1 and a 2-3) for the whole-conflict comparisons: the State-API solver walks one exchange's
graph from every exchange start, and the full track's five boxes make it 2.3 times larger; with two, hits overflow
into consequences and fighters are taken out even in two exchanges (21 labels where the full track has 7), so more
of the rules reach the labels. The full track is stepped, state by state, by the first test."""


def quiet_opening(sc: Scenario) -> State:
    """The opening with its narration off: the odds read outcomes only, and the oracle forks a state per move."""
    state = new_state(sc)
    state.quiet = True
    return state


@pytest.mark.parametrize(("cap", "use_clock"), [(2, False), (4, True)])
def test_whole_conflict_odds_equal_the_state_api_solvers(cap: int, use_clock: bool) -> None:
    """The State-API solver both ways: at two exchanges without its round clock (every state of the two exchanges
    a node: 181 of them, where the clock's one-exchange graph from every reachable exchange start has 7,173 at any
    cap), at four with it (there the two cost the same)."""
    sc = duel({"max_exchanges": cap, **SHORT_TRACK}, fate_points=3)
    policies = policies_of(sc)
    state = quiet_opening(sc)
    fast = conflict_odds(state, policies)
    slow = conflict_odds(state, policies, label=name_free_label, use_model=False, use_clock=use_clock)
    assert fast.method == "model" and slow.method == "state"
    assert fast.distribution == slow.distribution
    assert not any(SENTINEL in str(label) for label in fast.distribution)  # the names really are left out
    assert sum(fast.distribution.values()) == 1
    assert fast.lengths is not None and set(fast.lengths) <= set(range(1, cap + 1))
    assert sum(fast.lengths.values()) == 1


def test_odds_from_the_middle_of_an_exchange_bridge_through_the_state_api() -> None:
    sc = duel({"max_exchanges": 3, **SHORT_TRACK}, fate_points=3)
    policies = policies_of(sc)
    rng = np.random.default_rng(5)
    state = quiet_opening(sc)
    while exact_model(state, policies) is None:
        step(state, policies, rng)
    for _ in range(3):  # into the first exchange: declarations made, no roll yet or a roll made
        step(state, policies, rng)
    assert exact_model(state, policies) is None and not state.is_terminal()
    fast = conflict_odds(state, policies)
    slow = conflict_odds(state, policies, label=name_free_label, use_model=False)
    assert fast.method == "model"
    assert fast.distribution == slow.distribution


def test_floats_lie_within_the_stated_bound_of_the_fractions() -> None:
    sc = duel({"max_exchanges": 8}, fate_points=3)
    policies = policies_of(sc)
    exact = conflict_odds(new_state(sc), policies)
    approx = conflict_odds(new_state(sc), policies, exact=False)
    assert 0 < approx.error_bound < 1e-12
    assert set(approx.distribution) == set(exact.distribution)
    for label, p in exact.distribution.items():
        assert abs(approx.distribution[label] - float(p)) <= approx.error_bound * float(p) + 1e-300, label
    assert exact.marks is not None and approx.marks is not None
    for mark, p in exact.marks.items():
        assert abs(approx.marks[mark] - float(p)) <= approx.error_bound * float(p), mark


def test_consequence_names_add_up_to_the_name_free_fates() -> None:
    """Each participant's chance of ending with a consequence of a severity, summed over the names, is the share of
    the name-free fates that list that severity."""
    sc = duel({"max_exchanges": 10}, fate_points=2)
    odds = conflict_odds(new_state(sc), policies_of(sc))
    assert odds.marks is not None
    for pid in ("a", "b"):
        fates = odds.fates(pid)
        for severity in ("mild", "moderate", "severe"):
            by_name = sum((p for (who, sev, _), p in odds.marks.items() if (who, sev) == (pid, severity)), Fraction(0))
            listed = sum((p for fate, p in fates.items() if severity in str(fate).partition(":")[2]), Fraction(0))
            assert by_name == listed, (pid, severity)


def test_the_knife_fight_agrees_with_the_vectorised_kernel_within_4_standard_errors() -> None:
    """Exact odds of the text's example against 200,000 simulated fights: winners, endings, each consequence by
    name (from the fate words), and the mean number of exchanges."""
    sc = load_scenario("presja/knife_fight")
    odds = conflict_odds(new_state(sc), policies_of(sc))
    assert sum(odds.distribution.values()) == 1
    n = 200_000
    tally = simulate(sc, n, 7, engine="vectorised").tally

    def check(exact: Mapping[Any, Fraction], counts: Mapping[Any, int]) -> None:
        assert_within_4_se(exact, counts, n)

    check(odds.winners(), tally.winners)
    check(odds.endings(), tally.endings)
    assert odds.marks is not None
    for pid in ("belzee", "massimo"):
        named: Counter[Any] = Counter()
        for fate, count in tally.fates[pid].items():
            for sev in ("mild", "moderate", "severe"):
                for (who, s, name), _ in odds.marks.items():
                    if who == pid and s == sev and f"{sev} '{name}'" in fate:
                        named[(who, s, name)] += count
        check({m: p for m, p in odds.marks.items() if m[0] == pid and m[1] != BOX}, named)
    assert odds.lengths is not None and odds.unit == "exchanges"
    mean = odds.expected_length()
    assert mean is not None
    sd = sqrt(float(sum(k * k * p for k, p in odds.lengths.items()) - mean * mean))
    simulated = sum(k * c for k, c in tally.rounds.items()) / n
    assert abs(simulated - float(mean)) <= 4 * sd / sqrt(n)


def test_the_model_refuses_what_it_does_not_mirror() -> None:
    sc = load_scenario("presja/skirmish")
    state = new_state(sc)
    assert isinstance(exact_model(state, policies_of(sc)), str)
    knife = load_scenario("presja/knife_fight")
    policies = policies_of(knife)
    policies["belzee"] = seat_policies(knife, {"belzee": "random"})["belzee"]  # type: ignore[assignment]
    assert "heuristic" in str(exact_model(new_state(knife), policies))
    assert isinstance(new_state(knife), PresjaState)
