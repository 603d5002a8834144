"""Random play under every optional rule: the bounds hold, every conflict ends, and the ending fits the rules."""

from __future__ import annotations

import pytest

from konflikt.core.conflict import new_state
from konflikt.core.ruleset import RandomPolicy
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from konflikt.sim.runner import Generators, Runner
from tests.rulesets.fimbulfrost.helpers import hero, scenario

OPTION_SETS = [
    {},
    {"buy_back": True, "morale": "next_hit", "round3_loss": "each"},
    {"weapon_pool": True, "borrowed_time": True, "questions": True},
    {"mishaps": "always", "round3_loss": "shared", "points_per_consequence": 2, "presenters": "any"},
    {"round1_death": False, "carried_consequences_count": False, "wilder_needs_round2": False, "morale": "round1"},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_play_under_options_keeps_the_rules(options: dict[str, object]) -> None:
    sc = scenario(
        heroes=[
            hero("sigrun", character="builtin:sigrun", policy="random"),
            hero("budolf", character="builtin:budolf", policy="random", konsekvenser=["skramme"]),
            hero("rudolf", character="builtin:rudolf", policy="random"),
        ],
        opponent=hero("heks", character="builtin:heks", policy="random"),
        options=options,
    )
    for seed in range(25):
        state = new_state(sc)
        assert isinstance(state, FimbulfrostState)
        runner = Runner({seat: RandomPolicy() for seat in state.seats()}, Generators.from_seed(seed))

        def check(s: object) -> None:
            assert isinstance(s, FimbulfrostState)
            assert not s.invariants()

        runner.play(state, on_step=check)
        outcome = state.outcome()
        if outcome.ending == "opponent_defeated":
            assert state.opp_status <= 0
        else:
            assert state.opp_status >= 1
        if outcome.ending == "heroes_out":
            assert all(f != 0 for f in state.fate)
        for i in range(state.n):
            assert "skramme" not in state.taken[i] or i != 1 or not state.options.carried_consequences_count
            if state.fate[i] == 2:
                assert any(state.catalogue.entry(e).death for e in state.taken[i])
