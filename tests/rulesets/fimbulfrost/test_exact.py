"""Exact whole-conflict odds over ``key()``: the key is sound (merging on it changes no probability), and the exact
odds agree with simulation."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from math import sqrt

from konflikt.analysis.exact import conflict_odds
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, load_scenario
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.rulesets.fimbulfrost.helpers import hero, scenario

_SHARED = {"_steps", "_events", "_secret", "options", "chars", "catalogue", "opp", "carried"}


class FullKey(FimbulfrostState):
    """The same state with a key of every attribute as it stands: no clearing, no merging of equivalent states."""

    def key(self) -> Hashable:
        return tuple((k, repr(v)) for k, v in sorted(self.__dict__.items()) if k not in _SHARED)


def _full(state: FimbulfrostState) -> FullKey:
    twin = object.__new__(FullKey)
    twin.__dict__.update(state.fork().__dict__)
    return twin


def _assert_key_sound(sc: Scenario) -> None:
    state = new_state(sc)
    assert isinstance(state, FimbulfrostState)
    policies = seat_policies(sc)
    compact = conflict_odds(state, policies)
    full = conflict_odds(_full(state), policies, max_states=1_000_000)
    assert compact.states < full.states
    assert compact.distribution == full.distribution
    assert sum(compact.distribution.values()) == 1


def test_key_is_sound_for_budolf_and_rudolf_against_the_robbers() -> None:
    _assert_key_sound(load_scenario("fimbulfrost/robbers"))


def test_key_is_sound_with_the_optional_rules() -> None:
    sc = scenario(
        heroes=[hero("sigrun", character="builtin:sigrun")],
        options={"buy_back": True, "weapon_pool": True, "borrowed_time": True, "questions": True, "mishaps": "always"},
    )
    _assert_key_sound(sc)


def test_exact_odds_of_budolf_and_rudolf_agree_with_simulation() -> None:
    sc = load_scenario("fimbulfrost/robbers")
    odds = conflict_odds(new_state(sc), seat_policies(sc))
    p = odds.winners()[("helte",)]
    assert Fraction(1, 2) < p < 1
    runs = 1500
    wins = 0
    policies = seat_policies(sc)
    for seed in range(runs):
        state = new_state(sc)
        Runner(policies, Generators.from_seed(seed)).play(state)
        wins += state.outcome().winners == ("helte",)
    se = sqrt(float(p) * (1 - float(p)) / runs)
    assert abs(wins / runs - float(p)) < 4 * se
