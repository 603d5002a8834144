"""The `heuristic` policy: deterministic, concedes when being taken out is likely, invokes when it matters,
absorbs with the least lasting harm, moves towards a foe, and decides for the GM seat."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE, TERMINAL
from konflikt.rulesets.presja.policies import HeuristicPolicy
from tests.rulesets.presja.helpers import act, duel, fighter, knife_fight, roll, scenario

POLICY = HeuristicPolicy()


class NoRandom:
    """A generator that fails when used: the heuristic must not draw."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the heuristic used the generator ({name})")


def choose(state: Any) -> Any:
    return POLICY.choose(state, state.current_player(), NoRandom())  # type: ignore[arg-type]


@pytest.mark.mutation_slow
@pytest.mark.parametrize("name", ["presja/knife_fight", "presja/skirmish"])
def test_heuristic_never_draws_and_plays_both_examples_to_the_end(name: str) -> None:
    rng = np.random.default_rng(5)
    for _ in range(5):
        state = new_state(load_scenario(name))
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(state.pending_roll().sample(rng))  # type: ignore[union-attr]
            else:
                state.apply_action(choose(state))
        assert state.current_player() == TERMINAL


def test_concedes_when_being_taken_out_is_likely() -> None:
    state = duel({"skill": 0, "fate_points": 0}, {"skill": 4, "weapon": "miecz", "fate_points": 0})
    a = state.index["a"]
    state.marked[a] = 0b11111
    state.cons[a] = [2, 2, 0]
    assert choose(state).kind == "attack", "the severe slot still takes up to 6: about 0.31 to be taken out"
    state.cons[a] = [2, 2, 1]
    state._ver += 1
    assert str(choose(state)) == "concede", "any hit now takes a out"


def test_does_not_concede_while_its_own_attack_could_still_take_the_foe_out() -> None:
    """Learnt from optimal play (the knife fight's solve): who could still win this exchange fights on."""
    state = duel({"skill": 0, "fate_points": 0}, {"skill": 4, "weapon": "miecz", "fate_points": 0})
    a, b = state.index["a"], state.index["b"]
    state.marked[a] = 0b11111
    state.cons[a] = [2, 2, 1]
    state.marked[b] = 0b11111
    state.cons[b] = [2, 2, 2]
    state._ver += 1
    assert choose(state).kind == "attack", "any hit of a's now takes b out too"
    state.cons[b] = [2, 2, 0]  # b's severe slot absorbs up to 6: a's +0 knife never deals more against skill 4
    state._ver += 1
    assert str(choose(state)) == "concede"


def test_does_not_concede_a_fresh_fight_or_when_not_allowed() -> None:
    state = knife_fight()
    assert choose(state).kind == "attack"
    state = duel({"skill": 0, "fate_points": 0}, {"skill": 4, "weapon": "miecz"}, allow_concede=False)
    state.marked[state.index["a"]] = 0b11111
    assert choose(state).kind != "concede"


def _after_rolls(faces_a: str, faces_b: str, a: dict[str, Any], b: dict[str, Any], b_attacks: bool = True) -> Any:
    state = duel(a, b)
    act(state, "attack", target="b", tactic=None)
    if b_attacks:
        act(state, "attack", target="a", tactic=None)
    else:
        act(state, "defend", tactic=None)
    roll(state, faces_a)
    roll(state, faces_b)
    return state


ASPECTS = {"skill": 2, "weapon": "noz", "fate_points": 3, "aspects": ["Zwinny (nimble)"]}


def test_invokes_only_when_it_changes_the_result() -> None:
    hopeless = _after_rolls("- - - -", "+ + + +", ASPECTS, {"skill": 2, "fate_points": 0}, b_attacks=False)
    assert str(choose(hopeless)) == "pass", "+2 leaves the attack repelled, and nobody attacks a"
    hurt = _after_rolls("- - - -", "+ + + +", ASPECTS, {"skill": 2, "fate_points": 0})
    assert choose(hurt).kind == "invoke", "+2 Obrona lowers the pressure a takes"
    close = _after_rolls("0 0 0 0", "0 0 0 +", ASPECTS, {"skill": 2, "fate_points": 0})
    assert choose(close).kind == "invoke"


def test_prefers_a_free_invocation() -> None:
    state = _after_rolls("0 0 0 0", "0 0 0 +", ASPECTS, {"skill": 2, "fate_points": 0})
    b = state.index["b"]
    state.cons[b] = [1, 0, 0]
    state.cons_names[b] = ["Zmęczony", "", ""]
    state._ver += 1
    assert choose(state).get("aspect") == "b:mild"


def test_absorbs_with_the_least_lasting_harm() -> None:
    state = knife_fight()
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    roll(state, "+ + 0 -")
    roll(state, "0 0 + +")
    while state.phase == "invoke":
        act(state, "pass")
    assert str(choose(state)) == "absorb boxes=2-3:3 cons="
    b = state.index["belzee"]
    state.marked[b] = 0b11100  # only the "1" boxes left: mild + "1" beats a moderate or severe
    state._ver += 1
    assert str(choose(state)) == "absorb boxes=1:1 cons=mild"


def test_moves_towards_the_nearest_foe() -> None:
    setup = {
        "zones": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}, {"id": "z", "name": "Z"}],
        "adjacent": [["x", "y"], ["y", "z"]],
        "positions": {"a": "x", "b": "z"},
    }
    state = scenario([[fighter("a", skill=2, zmysly=1)], [fighter("b", skill=2)]], setup=setup)
    action = choose(state)
    assert action.kind == "move" and action["to"] == "y"


def test_same_state_same_choice_through_the_memo() -> None:
    first = knife_fight()
    second = knife_fight()
    assert first.key() == second.key()
    assert choose(first) == choose(second)
