"""Property: in any play, tokens move only by the rules — one per spend, 1/2/3/5 per hit, never below zero."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from konflikt.core.conflict import new_state
from konflikt.core.ruleset import RandomPolicy
from konflikt.core.scenario import load_scenario
from konflikt.core.state import GM
from konflikt.rulesets.pwge.rules import token_loss
from konflikt.rulesets.pwge.state import PwgeState
from konflikt.sim.runner import Generators, Runner

NAMES = ["pwge/duel", "pwge/shootout", "pwge/chase", "pwge/negotiation", "pwge/ball"]


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    seed=st.integers(0, 10_000),
    xp=st.booleans(),
    tops=st.integers(0, 2),
)
def test_tokens_move_only_by_the_rules(name: str, seed: int, xp: bool, tops: int) -> None:
    state = new_state(load_scenario(name), {"experience_dice": xp, "max_tops_per_roll": tops})
    assert isinstance(state, PwgeState)
    runner = Runner({s: RandomPolicy() for s in (*state.seats(), GM)}, Generators.from_seed(seed))
    tokens = {f.pid: state.tokens[i] for i, f in enumerate(state.people)}
    dice = {f.pid: state.xp[i] for i, f in enumerate(state.people)}
    seen = len(state.history())
    while not state.is_terminal():
        runner.step(state)
        for event in state.history()[seen:]:
            seat = event.data.get("seat")
            if event.kind == "spend":
                assert tokens[seat] >= 1, "a spend needs a token in the pool (experience dice too)"
                if "experience_dice" in event.data:
                    dice[seat] -= 1
                else:
                    tokens[seat] -= 1
            elif event.kind == "damage":
                tokens[seat] = max(0, tokens[seat] - token_loss(event.data["level"]))
        seen = len(state.history())
        assert tokens == {f.pid: state.tokens[i] for i, f in enumerate(state.people)}
        assert dice == {f.pid: state.xp[i] for i, f in enumerate(state.people)}
