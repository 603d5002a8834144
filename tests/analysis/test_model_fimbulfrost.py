"""fimbulfrost's compact model (``rulesets/fimbulfrost/model.py``) against the State API, and its whole-conflict odds.

The model plays a round with the functions the kernel is compiled from; here it must give, from random reachable
states at the start of a round, the very distribution the State API gives over the next round's start (or the end,
by the State's own outcome label), Fraction for Fraction. Whole conflicts must come out equal to the State-API
solver's, from the opening and from the middle of a round; the odds of the text's example within 4 standard errors
of simulation.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from math import sqrt
from typing import Any

import numpy as np
import pytest

from konflikt.analysis.exact import conflict_odds, outcome_label
from konflikt.analysis.model_odds import model_odds
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario, load_scenario
from konflikt.core.state import State
from konflikt.rulesets.fimbulfrost.model import FimbulfrostModel, exact_model
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from konflikt.sim.engine import simulate
from konflikt.sim.runner import seat_policies
from tests.analysis.model_check import assert_within_4_se, model_round, state_api_round, step
from tests.rulesets.fimbulfrost.helpers import hero, scenario


def policies_of(sc: Scenario) -> dict[str, Policy]:
    return {s: p for s, p in seat_policies(sc).items() if p is not None}


def three_heroes(options: Mapping[str, Any] | None = None) -> Scenario:
    """Sigrun's gear, maneuver and weapon pool beside the text's two, against the wolf pack; Rudolf carries a
    consequence from an earlier conflict."""
    return scenario(
        heroes=[
            hero("budolf", character="builtin:budolf"),
            hero("rudolf", character="builtin:rudolf", konsekvenser=["skramme"]),
            hero("sigrun", character="builtin:sigrun"),
        ],
        opponent=hero("ulve", character="builtin:ulveflok"),
        options=dict(options or {}),
    )


SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "robbers": lambda: load_scenario("fimbulfrost/robbers"),
    "three_heroes": lambda: three_heroes(),
    "three_heroes_options": lambda: three_heroes(
        {"morale": "next_hit", "round3_loss": "shared", "points_per_consequence": 2, "round1_death": False}
    ),
    "lone_hero_each": lambda: scenario(
        heroes=[hero("sigrun", character="builtin:sigrun")],
        opponent=hero("heks", character="builtin:heks"),
        options={"round3_loss": "each", "morale": "round1"},
    ),
}


def model_at(state: State, policies: Mapping[str, Policy]) -> FimbulfrostModel:
    made = exact_model(state, policies)
    assert isinstance(made, FimbulfrostModel), made
    return made


def round_starts(sc: Scenario, opening: State, model: FimbulfrostModel, per_round: int, seed: int) -> list[State]:
    """The opening and up to ``per_round`` different states at the start of rounds 2 and 3, met on random
    playthroughs (a conflict has at most three round starts, so the harness's sampler is not used)."""
    policies = policies_of(sc)
    rng = np.random.default_rng(seed)
    found: dict[int, dict[Hashable, State]] = {2: {}, 3: {}}
    for _ in range(60 * per_round):
        state = opening.fork()
        while not state.is_terminal():
            compact = model.encode(state)
            if compact is not None and compact[0] > 1 and len(found[compact[0]]) < per_round:
                found[compact[0]].setdefault(state.key(), state.fork())
            step(state, policies, rng)
        if all(len(f) >= per_round for f in found.values()):
            break
    return [opening, *found[2].values(), *found[3].values()]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_model_steps_as_the_state_api_fraction_for_fraction(name: str) -> None:
    sc = SCENARIOS[name]()
    policies = policies_of(sc)
    opening = new_state(sc)
    model = model_at(opening, policies)
    states = round_starts(sc, opening, model, 2, seed=len(name))
    if name.startswith("three_heroes"):  # three heroes' round 1 through the State API takes a minute: rounds 2, 3
        states = states[1:]
    rounds = []
    for state in states:
        compact = model.encode(state)
        assert compact is not None
        rounds.append(compact[0])
        want = state_api_round(state, policies, model.encode, outcome_label, model.held)
        assert model_round(model, compact) == want, f"round {compact[0]}"
        assert sum(want.values()) == 1
    assert sorted(rounds) == ([] if name.startswith("three_heroes") else [1]) + [2, 2, 3, 3]


def test_pools_the_gm_set_by_hand_are_played_as_they_stand() -> None:
    """The GM may correct the pools at any time (``correctable``): the model reads them from the state."""
    sc = SCENARIOS["three_heroes"]()
    policies = policies_of(sc)
    opening = new_state(sc)
    model = model_at(opening, policies)
    state = round_starts(sc, opening, model, 1, seed=2)[-1]
    assert model.encode(state)[0] == 3  # type: ignore[index]
    assert isinstance(state, FimbulfrostState)
    state.pools[2] = [1, 0, 2]
    state.pools[0][0] = 2
    compact = model.encode(state)
    assert compact is not None and compact[5][2] == (1, 0, 2)
    assert model_round(model, compact) == state_api_round(state, policies, model.encode, outcome_label, model.held)


@pytest.mark.parametrize("name", ["robbers", "lone_hero_each"])  # three heroes: the State API takes minutes
def test_whole_conflict_odds_equal_the_state_api_solvers(name: str) -> None:
    sc = SCENARIOS[name]()
    policies = policies_of(sc)
    state = new_state(sc)
    fast = conflict_odds(state, policies)
    slow = conflict_odds(state, policies, use_model=False)
    assert fast.method == "model" and slow.method == "state"
    assert fast.distribution == slow.distribution
    assert sum(fast.distribution.values()) == 1
    assert fast.lengths is not None and fast.unit == "rounds" and sum(fast.lengths.values()) == 1
    assert set(fast.lengths) <= {1, 2, 3}
    approx = conflict_odds(state, policies, exact=False)
    assert 0 < approx.error_bound < 1e-12
    for label, p in fast.distribution.items():
        assert abs(approx.distribution[label] - float(p)) <= approx.error_bound * float(p), label


def test_each_consequence_adds_up_to_the_fates_that_list_it() -> None:
    """The marks (each consequence by name, per participant) against the fate words: exact, Fraction for Fraction."""
    sc = SCENARIOS["three_heroes"]()
    odds = conflict_odds(new_state(sc), policies_of(sc))
    assert odds.marks is not None
    assert {who for who, _, _ in odds.marks} == {"budolf", "rudolf", "sigrun", "ulve"}  # type: ignore[misc]
    for pid in ("budolf", "rudolf", "sigrun", "ulve"):
        listed: dict[str, Fraction] = {}
        for fate, p in odds.fates(pid).items():
            for words in str(fate).partition(": ")[2].split("; "):
                if words:
                    listed[words] = listed.get(words, Fraction(0)) + p
        assert {w: p for (who, _, w), p in odds.marks.items() if who == pid} == listed  # type: ignore[misc]


def test_odds_from_the_middle_of_a_round_bridge_through_the_state_api() -> None:
    sc = SCENARIOS["robbers"]()
    policies = policies_of(sc)
    rng = np.random.default_rng(4)
    state = new_state(sc)
    for _ in range(5):  # presented, rolled: in the middle of round 1
        step(state, policies, rng)
    assert exact_model(state, policies) is None and not state.is_terminal()
    fast = conflict_odds(state, policies)
    slow = conflict_odds(state, policies, use_model=False)
    assert fast.method == "model"
    assert fast.distribution == slow.distribution


def test_the_model_refuses_what_it_does_not_mirror() -> None:
    sc = scenario(options={"buy_back": True})
    assert "buy_back" in str(exact_model(new_state(sc), policies_of(sc)))
    robbers = load_scenario("fimbulfrost/robbers")
    policies = policies_of(robbers)
    policies["budolf"] = seat_policies(robbers, {"budolf": "random"})["budolf"]  # type: ignore[assignment]
    assert "heuristic" in str(exact_model(new_state(robbers), policies))
    assert model_odds(new_state(sc), policies_of(sc), 1_000, exact=True) is None  # the State API answers


def test_the_robbers_agree_with_the_vectorised_kernel_within_4_standard_errors() -> None:
    """Exact odds of the text's example against 100,000 simulated conflicts: winners, endings, every fate, and the
    mean number of rounds."""
    sc = load_scenario("fimbulfrost/robbers")
    odds = conflict_odds(new_state(sc), policies_of(sc), exact=False)
    assert sum(odds.distribution.values()) == pytest.approx(1, abs=1e-12)
    n = 100_000
    tally = simulate(sc, n, 11, engine="vectorised").tally

    def check(exact: Mapping[Any, float], counts: Mapping[Any, int]) -> None:
        assert set(counts) <= set(exact)  # the kernel meets nothing the model calls impossible
        assert_within_4_se(exact, counts, n)

    check(odds.winners(), tally.winners)  # type: ignore[arg-type]
    check(odds.endings(), tally.endings)  # type: ignore[arg-type]
    for pid in ("budolf", "rudolf", "roeverne"):
        check(odds.fates(pid), tally.fates[pid])  # type: ignore[arg-type]
    assert odds.lengths is not None and odds.unit == "rounds"
    mean = sum(k * p for k, p in odds.lengths.items())
    sd = sqrt(sum(k * k * p for k, p in odds.lengths.items()) - mean * mean)
    assert abs(tally.resource_sums["round"] / n - mean) <= 4 * sd / sqrt(n)


@pytest.mark.parametrize("steps", [1, 2, 3])
def test_the_bridge_merges_paths_by_key_keeping_each_consequence(steps: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The consequences bought are in ``key()`` (``held_in_key``): from the middle of a round the bridge meets each
    State once, and the marks come out as walking every path one by one gives them, Fraction for Fraction."""
    sc = SCENARIOS["robbers"]()
    policies = policies_of(sc)
    rng = np.random.default_rng(steps)
    state = new_state(sc)
    for _ in range(steps):
        step(state, policies, rng)
    assert exact_model(state, policies) is None and not state.is_terminal()
    merged = conflict_odds(state, policies)
    monkeypatch.setattr(FimbulfrostModel, "held_in_key", False)
    walked = conflict_odds(state, policies)
    assert merged.method == walked.method == "model"
    assert merged.distribution == walked.distribution
    assert merged.states > 0 and merged.marks == walked.marks and merged.marks
