"""The heuristic budgets its tokens; every legal action can be described; option variants still end."""

from __future__ import annotations

import numpy as np
import pytest

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import RandomPolicy
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE, GM, SIMULTANEOUS
from konflikt.errors import IllegalActionError
from konflikt.rulesets.pwge.policies import HeuristicPolicy
from konflikt.rulesets.pwge.state import PwgeState
from konflikt.sim.runner import Generators, Runner
from tests.rulesets.pwge.helpers import act, make, person, roll

RNG = np.random.default_rng(0)
H = HeuristicPolicy()


def test_heuristic_keeps_a_reserve() -> None:
    state = make()
    state.tokens[0] = 2
    assert H.choose(state, "ann", RNG) == Action.of("pass")
    state.tokens[0] = 6
    assert H.choose(state, "ann", RNG).kind == "attack"


def test_heuristic_counters_an_attack() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    assert H.choose(state, "bo", RNG) == Action.of("counter")


def test_heuristic_tops_when_behind_and_it_can_afford_it() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 9, 10)
    assert H.choose(state, "ann", RNG) == Action.of("top")
    state.tokens[0] = 2
    assert H.choose(state, "ann", RNG) == Action.of("accept")


def test_heuristic_buys_order_when_its_blow_could_fell_the_foe() -> None:
    state = make(b=person("bo", body_points=4))
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    assert state.current_player() == SIMULTANEOUS
    assert H.choose(state, "ann", RNG) == Action.of("order")


def test_heuristic_counter_tops_a_heavy_blow_and_the_attacker_keeps_a_good_roll() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12, 2, 8)  # 1T+2 = 8: a 6 on the die
    assert H.choose(state, "ann", RNG) == Action.of("accept")
    act(state, "accept")
    assert H.choose(state, "bo", RNG) == Action.of("counter_top")
    act(state, "counter_top")
    assert H.choose(state, "ann", RNG) == Action.of("counter_counter_top")


@pytest.mark.through_cli
def test_a_fleer_runs_and_a_pursuer_closes() -> None:
    state = make(setup={"kind": "chase", "fleeing": "red", "start_distance": 3})
    assert H.choose(state, "ann", RNG) == Action.of("distance", target="bo", way="farther")
    act(state, "pass")
    assert H.choose(state, "bo", RNG) == Action.of("distance", target="ann", way="closer")


def test_out_of_reach_attack_is_refused_with_the_reason() -> None:
    state = make(setup={"start_distance": 2})
    with pytest.raises(IllegalActionError, match="cannot reach Bo with that weapon"):
        act(state, "attack", target="bo", weapon="melee")
    with pytest.raises(IllegalActionError, match="has no ranged weapon"):
        act(state, "attack", target="bo", weapon="ranged")


def test_max_tops_per_roll_also_bounds_counter_tops() -> None:
    state = make(options={"max_tops_per_roll": 1})
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12, 2, 8)
    act(state, "accept")
    act(state, "counter_top")
    act(state, "counter_counter_top")
    assert state.dmg is None  # Bo may not counter-top a second time: the damage is marked
    assert state.body[1] == 2


@pytest.mark.parametrize("name", ["duel", "shootout", "chase", "negotiation", "ball"])
def test_every_legal_action_is_described_in_words(name: str) -> None:
    state = new_state(load_scenario(f"pwge/{name}"))
    assert isinstance(state, PwgeState)
    runner = Runner({seat: RandomPolicy() for seat in (*state.seats(), GM)}, Generators.from_seed(2))
    while not state.is_terminal():
        node = state.current_player()
        if node == CHANCE:
            assert state.roll_purpose() != "roll"
        elif node == SIMULTANEOUS:
            for seat in state.waiting_for():
                assert all(state.describe_action(seat, a) != str(a) for a in state.legal_actions(seat))
        else:
            assert all(state.describe_action(node, a) != str(a) for a in state.legal_actions())
        runner.step(state)


@pytest.mark.parametrize(
    "options",
    [{"max_tops_per_roll": 1}, {"experience_dice": False, "free_attack": False}, {"max_is_in_range": False}],
)
def test_random_play_ends_as_the_final_table_says_under_other_options(options: dict[str, object]) -> None:
    """Each ending agrees with the table it leaves: a combat goal means every foe is out; pools exhausted means
    the losers cannot spend and the winner's side can (or ran out last); a deadlock names no winner.

    Deliberate mutation that fails it: ``endings`` naming a dry side the winner when one side can still act."""
    for name in ("duel", "shootout"):
        for seed in range(3):
            state = new_state(load_scenario(f"pwge/{name}"), options)
            assert isinstance(state, PwgeState)
            Runner({s: RandomPolicy() for s in (*state.seats(), GM)}, Generators.from_seed(seed)).play(state)
            outcome = state.outcome()
            sides = {
                sid: [i for i, f in enumerate(state.people) if f.side == k] for k, sid in enumerate(state.side_ids)
            }
            can_act = {sid: any(state.can_spend(i) for i in members) for sid, members in sides.items()}
            if outcome.ending == "goal_reached":
                (winner,) = outcome.winners
                assert all(state.out[i] for sid, members in sides.items() if sid != winner for i in members)
                assert not all(state.out[i] for i in sides[winner])
            elif outcome.ending == "pools_exhausted":
                (winner,) = outcome.winners
                assert not any(can_act[sid] for sid in sides if sid != winner)
                last = state.dry_order[-1] if state.dry_order else ()
                assert can_act[winner] or last == (state.side_ids.index(winner),)
            else:
                assert outcome.ending == "deadlock" and outcome.winners == ()
                assert not any(can_act.values()) or state.passes > 0


def test_surprise_without_the_free_attack_option() -> None:
    state = make(setup={"surprise": "red"}, options={"free_attack": False})
    act(state, "start", distance=4)
    assert state.phase == "open" and state.current_player() == "ann"
