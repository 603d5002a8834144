"""The heuristic's rules of thumb, decision by decision."""

from __future__ import annotations

import numpy as np
import pytest

from konflikt.core.actions import Action
from konflikt.rulesets.levald.policies import HeuristicPolicy
from tests.rulesets.levald.helpers import act, document, fighter, move, roll, state_of

RNG = np.random.default_rng(0)
H = HeuristicPolicy()


def test_moves_toward_its_own_optimal_distance() -> None:
    state = state_of(document(fighter("a", "Svärd"), fighter("b", "Spjut"), "Fri"))
    assert H.choose(state, "a", RNG) == Action.of("advance")
    assert H.choose(state, "b", RNG) == Action.of("advance")
    state = state_of(document(fighter("a", "Svärd"), fighter("b", "Spjut"), "Dolk"))
    assert H.choose(state, "b", RNG) == Action.of("retreat")
    state = state_of(document(fighter("a", "Svärd"), fighter("b", "Spjut"), "Spjut"))
    assert H.choose(state, "b", RNG) == Action.of("hold")


@pytest.mark.through_cli
def test_the_holder_holds_and_the_other_breaks_the_distance() -> None:
    state = state_of(document(fighter("a", "Svärd"), fighter("b", "Svärd"), "Svärd"))
    move(state, a="hold", b="hold")
    roll(state, 20, 90)
    act(state, "regain")
    assert H.choose(state, "a", RNG) == Action.of("hold")
    assert H.choose(state, "b", RNG) != Action.of("hold")


def test_leaves_when_losing_badly() -> None:
    state = state_of(document(fighter("a", daze=26), fighter("b"), "Svärd"))
    assert H.choose(state, "a", RNG) == Action.of("leave")
    assert H.choose(state, "b", RNG) != Action.of("leave")


def test_counters_when_it_pays() -> None:
    state = state_of(document(fighter("a", "Svärd"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="hold", b="hold")
    act(state, "attack")
    assert H.choose(state, "b", RNG) == Action.of("counter")
    low = state_of(document(fighter("a", "Svärd"), fighter("b", "Spjut", gard_now=3), "Svärd"))
    move(low, a="hold", b="hold")
    act(low, "attack")
    assert H.choose(low, "b", RNG) == Action.of("defend")  # too little Gard to take the blow


def test_a_poor_attacker_defends_rather_than_counters() -> None:
    clumsy = {"Enhandsvapen": 15, "Stångvapen": 60, "Enhandsvapen plus sköld": 15}
    state = state_of(document(fighter("a", "Svärd"), fighter("b", "Sköld", skills=clumsy), "Kropp"))
    move(state, a="hold", b="hold")
    roll(state, 20, 90)  # both too close: a wins the Stridsvana roll
    act(state, "attack")
    assert Action.of("counter") in state.legal_actions("b")
    assert H.choose(state, "b", RNG) == Action.of("defend")


def test_gain_ground_keeps_the_advantage() -> None:
    state = state_of(document(fighter("a", "Svärd"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 29, 10)
    assert H.choose(state, "a", RNG) == Action.of("ground", step=0)
    state = state_of(document(fighter("a", "Spjut"), fighter("b", "Trästav"), "Stång"))
    move(state, a="hold", b="hold")  # both optimal? a too close, b optimal: b attacks
    assert state.att == 1
    act(state, "regain")
    move(state, a="retreat", b="retreat")  # Spjut: a optimal, b too far → a attacks
    act(state, "attack")
    act(state, "defend")
    roll(state, 29, 10)
    assert H.choose(state, "a", RNG) == Action.of("ground", step=0)  # already at its Spjut
