"""Chain compression and the round clock change the speed of exact odds, never the answer.

Each case is solved by the plain solver (every state a node, the round counter in ``key()``) and by the fast one
(deterministic chains applied in place; one round's graph, then the rounds carried up to the cap), and the two
distributions must be equal Fraction for Fraction.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Hashable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from konflikt.analysis.exact import LIFTED_CAP, ConflictOdds, Explorer, StateSpaceTooLarge, conflict_odds
from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import load_scenario, scenario_from_document
from konflikt.core.state import State
from konflikt.errors import KonfliktError
from konflikt.sim.runner import seat_policies
from tests.analysis.test_exact import RANDOM, toy
from tests.core.toy import ToyState

EXAMPLES = Path(__file__).parents[2] / "src" / "konflikt" / "examples"


def both(state: State, policies: Mapping[str, Policy], **kw: Any) -> tuple[ConflictOdds, ConflictOdds]:
    plain = conflict_odds(state, policies, 10**7, compress=False, use_clock=False, **kw)
    fast = conflict_odds(state, policies, 10**7, **kw)
    return plain, fast


@pytest.mark.parametrize(("points", "rounds"), [((2, 1), 3), ((2, 2), 1), ((2, 2), 2), ((3, 2), 5), ((2, 3), 7)])
def test_the_toy_duel_with_a_round_cap_solved_both_ways(points: tuple[int, int], rounds: int) -> None:
    plain, fast = both(toy(points, max_rounds=rounds), RANDOM)
    assert fast.distribution == plain.distribution
    assert sum(fast.distribution.values()) == 1
    assert fast.nodes < plain.nodes or rounds <= 2  # one round's graph instead of the cap's many copies


def test_clock_from_the_middle_of_a_round_and_from_the_last_round() -> None:
    """A saved conflict: the root is mid-round (a strike pending), in round 2 of 3, then in the last round."""
    for cap in (3, 2):
        state = toy((3, 3), max_rounds=cap)
        state.apply_actions({"ada": Action.of("strike"), "bo": Action.of("guard")})
        state.apply_action(6)  # ada hits: round 1 ends
        state.apply_actions({"ada": Action.of("strike"), "bo": Action.of("strike")})
        assert state.clock() == (2, cap)
        plain, fast = both(state, RANDOM)
        assert fast.distribution == plain.distribution


def test_every_way_of_solving_agrees_on_the_toy() -> None:
    state = toy((2, 3), max_rounds=4)
    answers = [
        conflict_odds(state, RANDOM, compress=c, use_clock=k).distribution for c in (False, True) for k in (False, True)
    ]
    assert all(a == answers[0] for a in answers)


class AlwaysGuard:
    name = "guard"

    def choose(self, state: State, seat: str, rng: Any) -> Action:
        return Action.of("guard")


def test_a_deterministic_loop_is_refused_in_words() -> None:
    """Both always guard and there is no round cap: the same state forever, with no chance in between."""
    with pytest.raises(KonfliktError, match="the policies loop"):
        conflict_odds(toy((1, 1), max_rounds=0), {"ada": AlwaysGuard(), "bo": AlwaysGuard()})


def test_a_root_whose_last_round_ends_without_chance() -> None:
    """Both always guard in the only round: the round ends before any node, and the cap ends the duel."""
    guards = {"ada": AlwaysGuard(), "bo": AlwaysGuard()}
    plain, fast = both(toy((1, 1), max_rounds=1), guards)
    assert fast.distribution == plain.distribution
    assert fast.winners() == {(): Fraction(1)}


class LeapingClock(ToyState):
    """A clock that breaks its promise: it jumps two at the end of a round."""

    def clock(self) -> tuple[int, int] | None:
        return (2 * self.round + 1, 2 * self.max_rounds)


def test_a_clock_that_jumps_is_refused() -> None:
    state = toy((2, 2), max_rounds=3)
    twin = object.__new__(LeapingClock)
    twin.__dict__.update(state.fork().__dict__)
    with pytest.raises(KonfliktError, match="must grow by 1"):
        conflict_odds(twin, RANDOM)


def test_the_round_graph_does_not_grow_with_the_cap() -> None:
    small = conflict_odds(toy((3, 3), max_rounds=4), RANDOM)
    large = conflict_odds(toy((3, 3), max_rounds=40), RANDOM)
    assert small.nodes == large.nodes
    assert large.winners()[()] < small.winners()[()]


# ---- presja: a shortened knife fight, solved both ways -------------------------------------------------------------
def coarse(state: State) -> Hashable:
    """The outcome label without consequence names (they cycle with the exchange, and are not in ``key()``)."""
    o = state.outcome()
    return (o.ending, o.winners, tuple(sorted((k, re.sub(r" '[^']*'", "", v)) for k, v in o.participants.items())))


def short_knife_fight(exchanges: int) -> tuple[State, dict[str, Policy]]:
    """Belzee and Massimo with one 2-3 box each, no fate points, for at most ``exchanges`` exchanges, narration off.

    The clock's graph is one exchange from every exchange start the lifted cap reaches, whatever the cap: one box
    (a range, so a hit of 1 still fits it) keeps those starts few (a third of the nodes of two 1-boxes), and the
    consequences, the taking out and the deadlock at the cap all still happen within two exchanges."""
    doc = tomllib.loads((EXAMPLES / "presja" / "knife_fight.toml").read_text(encoding="utf-8"))
    doc["options"] = {"max_exchanges": exchanges, "base_track": "2-3"}
    for side in doc["sides"]:
        side["participants"][0]["fate_points"] = 0
    sc = scenario_from_document(copy.deepcopy(doc), "short_knife_fight.toml")
    state = new_state(sc)
    state.quiet = True
    return state, {s: p for s, p in seat_policies(sc).items() if p is not None}


@pytest.mark.parametrize("exchanges", [2, 3])
def test_a_short_knife_fight_solved_both_ways(exchanges: int) -> None:
    state, policies = short_knife_fight(exchanges)
    plain, fast = both(state, policies, label=coarse)
    assert fast.distribution == plain.distribution
    assert len(fast.winners()) == 3  # Belzee, Massimo, and the deadlock at the cap all happen


def test_presja_keeps_what_the_exchange_number_decides() -> None:
    """Surprise and the GM's mobility advantage read the exchange number, so the clock-free key keeps some of it."""
    state, _ = short_knife_fight(3)
    key = state.key_without_clock()
    assert isinstance(key, tuple) and key[0] == 0  # the knife fight: neither rule applies
    lifted = state.fork()
    lifted.set_clock_cap(LIFTED_CAP)
    assert lifted.clock() == (1, LIFTED_CAP) and state.clock() == (1, 3)  # the copy's cap moved, not the original's


def test_fimbulfrost_robbers_compressed_equals_plain() -> None:
    sc = load_scenario("fimbulfrost/robbers")
    policies = {s: p for s, p in seat_policies(sc).items() if p is not None}
    plain, fast = both(new_state(sc), policies, use_model=False)  # the State-API explorer's two ways, not the model
    assert fast.distribution == plain.distribution
    assert fast.nodes < plain.nodes


def test_the_skirmish_is_too_large_and_says_so_in_one_line() -> None:
    """Within a limit of 2,000 the probe (500 states) is only three levels deep, too few to judge the growth: the
    limit itself refuses, with the lower bound of the count."""
    sc = load_scenario("presja/skirmish")
    policies = {s: p for s, p in seat_policies(sc).items() if p is not None}
    with pytest.raises(StateSpaceTooLarge, match=r"estimate: more than [\d,]+\); use 'konflikt sim'") as err:
        conflict_odds(new_state(sc), policies, max_states=2_000)
    assert "\n" not in str(err.value)
    assert f"with {err.value.frontier:,} still open" in str(err.value)


def test_an_explorer_keeps_one_state_for_every_round_entry() -> None:
    state = toy((2, 2), max_rounds=5)
    lifted = state.fork()
    lifted.set_clock_cap(LIFTED_CAP)
    explorer = Explorer(RANDOM, lambda s: s.outcome().winners, 10_000, clocked=True)
    explorer.add_root(lifted)
    assert explorer.entries
    for node, rep in explorer.entries.items():
        assert explorer.graph.keys[node] == rep.key_without_clock()
        assert isinstance(rep, ToyState) and not rep.rolling  # a round begins: no strike is pending
