"""The State-API solver's breadth-first probe: a space far beyond ``--max-states`` is refused after a few thousand
states with the counts it met and an estimate of the whole (saying how it was made), and a space within the limit
is walked to its end with the same answer as before."""

from __future__ import annotations

import re

import pytest

from konflikt.analysis.exact import Explorer, StateSpaceTooLarge, conflict_odds, outcome_label
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.sim.runner import seat_policies
from tests.analysis.test_exact import RANDOM, toy

TOY_STATES = 803
"""The toy duel of 10 points each without a round cap: its every state, counted by walking them all (below)."""


def test_the_toy_duel_has_the_states_the_estimate_is_checked_against() -> None:
    explorer = Explorer(RANDOM, outcome_label, 10_000)
    explorer.add_root(toy((10, 10), max_rounds=0))
    assert explorer.graph.size + explorer.remembered == TOY_STATES


def test_capture_recapture_estimates_a_known_count_from_a_probe_of_500() -> None:
    """Beyond a limit of 600 the probe refuses; its estimate (labelled so) is within 10% of the true count, and its
    counts are those it met: explored + open = the states the probe saw."""
    with pytest.raises(StateSpaceTooLarge) as refused:
        conflict_odds(toy((10, 10), max_rounds=0), RANDOM, max_states=600)
    err = refused.value
    assert err.estimate is not None and abs(err.estimate - TOY_STATES) <= TOY_STATES / 10
    words = str(err)
    assert "capture–recapture" in words and "estimated: about" in words
    assert err.explored + err.frontier == 500 and f"{err.explored:,} explored and {err.frontier:,} still open" in words
    assert err.explored + err.frontier <= TOY_STATES  # what it names as met is a lower bound


@pytest.mark.parametrize("limit", [810, 1_200, 100_000])
def test_a_space_within_the_limit_is_walked_to_the_end_with_the_same_answer(limit: int) -> None:
    """The probe's estimate never refuses what fits (810: 7 states to spare); the walk goes on depth first from
    where the probe stopped, and the answer is the one a walk without a probe gives."""
    state = toy((10, 10), max_rounds=0)
    odds = conflict_odds(state, RANDOM, max_states=limit)
    assert odds.states == TOY_STATES
    plain = Explorer(RANDOM, outcome_label, limit)
    plain.add_root(state)
    assert odds.nodes == plain.graph.size


def test_the_skirmish_is_refused_by_the_probe_with_its_counts() -> None:
    """presja's skirmish (five fighters, each level nine times the last): refused after the probe's 5,000 states
    of the default limit, not after 2,000,000 moves (148 CPU s before)."""
    sc = load_scenario("presja/skirmish")
    policies = {s: p for s, p in seat_policies(sc).items() if p is not None}
    with pytest.raises(StateSpaceTooLarge, match="breadth-first probe of 5,00") as refused:
        conflict_odds(new_state(sc), policies)
    err = refused.value
    assert err.explored + err.frontier >= 5_000 and err.frontier > err.explored  # the frontier outgrows the walk
    assert re.search(r"met none of its last half's [\d,]+ successors again", str(err))


@pytest.mark.slow
def test_the_shootout_is_refused_by_the_levels_growth() -> None:
    sc = load_scenario("pwge/shootout")
    policies = {s: p for s, p in seat_policies(sc).items() if p is not None}
    with pytest.raises(StateSpaceTooLarge, match=r"estimated: more than [\d,]+, since a breadth-first probe") as err:
        conflict_odds(new_state(sc), policies)
    assert err.value.estimate is not None and err.value.estimate > 100_000
