"""The heuristic: deterministic, and doing what the issue asks of it."""

from __future__ import annotations

import numpy as np
import pytest

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.rulesets.fimbulfrost.policies import HeuristicPolicy, split_hits, split_round1
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.rulesets.fimbulfrost.helpers import act, hero, present_each_other, roll, start, to_round2

H = HeuristicPolicy()
RNG = np.random.default_rng(0)


def test_split_round1_finishes_the_opponent_when_the_dice_allow() -> None:
    assert split_round1(3, 3, 6, [4], 12) == [3, 0]


def test_split_round1_gives_morale_that_saves_a_friend() -> None:
    # the robbers' answer is at most 2: Rudolf at Status 2 is saved by 1 morale
    assert split_round1(3, 0, 6, [2], 2) == [2, 1]
    # a friend who cannot be saved gets nothing
    assert split_round1(2, 0, 12, [4], 12) == [2, 0]


def test_split_hits_takes_out_the_weakest_first() -> None:
    assert split_hits(5, [6, 4]) == [1, 4]
    assert split_hits(3, [6, 4]) == [0, 3]
    assert split_hits(12, [6, 4]) == [6, 6]  # the rest on the weakest: more consequences


def test_heroes_are_presented_by_each_other() -> None:
    state = start()
    assert H.choose(state, "budolf", RNG) == Action.of("present", by="rudolf")
    act(state, "present", by="rudolf")
    assert H.choose(state, "rudolf", RNG) == Action.of("present", by="budolf")


def test_heuristic_describes_all_three_areas() -> None:
    state = start()
    to_round2(state)
    assert H.choose(state, "budolf", RNG) == Action.of("describe", stil=True, stunt=True, snak=True)


@pytest.mark.through_cli
def test_round3_spends_only_the_dice_needed() -> None:
    state = start()
    to_round2(state, 2, 2)  # robbers at 2
    act(state, "describe", stil=True, stunt=True, snak=True)
    act(state, "describe", stil=True, stunt=True, snak=True)
    roll(state, 0)
    roll(state, 1)  # robbers at 1
    roll(state, 0)
    # free dice first: even wilder
    assert H.choose(state, "budolf", RNG) == Action.of("wilder", by="rudolf")
    act(state, "wilder", by="rudolf")
    act(state, "wilder", by="budolf")
    # 1 Status left: 5 dice give 31/32 ≥ 19/20; 2 gathered, so 3 more from Budolf's armour
    assert H.choose(state, "budolf", RNG) == Action.of("armour", dice=3)
    act(state, "armour", dice=3)
    assert H.choose(state, "rudolf", RNG) == Action.of("done")


def test_heuristic_consequence_is_the_least_harmful() -> None:
    rudolf = hero("rudolf", character="builtin:rudolf", status=1)
    state2 = start(heroes=[hero("budolf", character="builtin:budolf"), rudolf])
    present_each_other(state2)
    roll(state2, 0)
    roll(state2, 0)
    roll(state2, 2)
    act(state2, "hit", rudolf=2)
    assert state2.current_player() == "rudolf"
    assert H.choose(state2, "rudolf", RNG) == Action.of("consequence", entry="ydmyget")


def test_heuristic_never_draws_from_the_generator() -> None:
    class Refuse(np.random.Generator):
        def integers(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            raise AssertionError("the heuristic drew a random number")

    refuse = Refuse(np.random.PCG64(0))
    for name in ("fimbulfrost/robbers", "fimbulfrost/dragon"):
        scenario = load_scenario(name)
        for seed in range(20):
            state = new_state(scenario)
            runner = Runner(seat_policies(scenario), Generators.from_seed(seed))
            runner.gen.policy = refuse
            runner.play(state)
            assert state.is_terminal()
