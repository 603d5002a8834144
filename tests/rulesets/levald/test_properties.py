"""Properties over random weapons, options and seeds: every fight ends, tracks stay in bounds, daze never falls."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from konflikt.core.conflict import new_state
from konflikt.core.ruleset import RandomPolicy
from konflikt.core.state import GM, State
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.models import bundled_weapons
from konflikt.rulesets.levald.scenarios import duel_scenario
from konflikt.rulesets.levald.state import LevaldState
from konflikt.sim.runner import Generators, Runner

WEAPONS = [w.name for w in bundled_weapons()]
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "exceptional": st.sampled_from(["fifth", "doubles", "off"]),
        "two_defence_rolls": st.booleans(),
        "holder_damaged": st.sampled_from(["table", "roll"]),
        "empty_gard_scratch": st.booleans(),
        "bypass_dice": st.sampled_from(["open", "guarded"]),
        "free_attack_ignores_gard": st.booleans(),
        "allow_leave": st.booleans(),
        "step_size": st.integers(1, 3),
        "deadly_wound": st.sampled_from(["dead", "knocked_out"]),
    },
)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(WEAPONS),
    st.sampled_from(WEAPONS),
    st.integers(0, 120),
    OPTIONS,
    st.integers(0, 2**16),
    st.booleans(),
)
def test_random_fights_end_with_tracks_in_bounds(
    wa: str, wb: str, skill: int, options: dict[str, object], seed: int, heuristic: bool
) -> None:
    """Every track in bounds at every step, and the ending the one the final table implies (winner, fate words).

    Deliberate mutation that fails it: ``LevaldState._outcome`` calling a fight with a dead loser ``taken_out`` and
    one without ``dead``."""
    scenario = duel_scenario(wa, wb, skill=skill, policy="heuristic")
    state = new_state(scenario, options)
    assert isinstance(state, LevaldState)
    seen: list[list[int]] = [list(state.daze)]

    def check(s: State) -> None:
        assert isinstance(s, LevaldState)
        assert not s.invariants()
        assert all(now >= before for now, before in zip(s.daze, seen[-1], strict=True))
        seen.append(list(s.daze))

    policies = {
        seat: (scenario.ruleset.policy("heuristic") if heuristic else RandomPolicy()) for seat in (*state.seats(), GM)
    }
    Runner(policies, Generators.from_seed(seed)).play(state, on_step=check)
    outcome = state.outcome()
    standing = [fate == "fighting" for fate in state.fate]  # one fighter a side: a, then b
    if all(standing):
        assert outcome.ending == "deadlock" and outcome.winners == ()
        assert state.rounds == state.options.max_rounds
    elif not any(standing):
        assert outcome.ending == "parted" and outcome.winners == ()
    else:
        winner, loser = (0, 1) if standing[0] else (1, 0)
        assert outcome.winners == (("side_a", "side_b")[winner],)
        expected = {"left": "left", "dead": "dead", "knocked_out": "taken_out"}[state.fate[loser]]
        assert outcome.ending == expected
        boxes = state.wounds[loser]
        deadly_knocks_out = state.options.deadly_wound == "knocked_out"
        knocked_out = boxes[R.KRITISK] > 0 or (boxes[R.DODLIG] > 0 and deadly_knocks_out)
        assert (state.fate[loser] == "knocked_out") == knocked_out
        assert (state.fate[loser] == "dead") == (boxes[R.DODLIG] > 0 and state.options.deadly_wound == "dead")
