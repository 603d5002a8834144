"""The vectorised kernel against the rules: exact odds, the reference state fed the kernel's own dice, refusals.

Two kinds of evidence. (1) Statistical: at a fixed seed and n = 400,000, every winner and ending frequency and every
fate frequency with an exact probability of at least 1/1000 lies within 4 standard errors of the exact odds
(``conflict_odds``), and the kernel produces no label the exact analysis says is impossible. (2) Step for step: the
kernel's rolls, replayed as table dice through :class:`FimbulfrostState` with the heuristic, give the very same
winners, ending, fates, number of steps and outcome numbers, conflict by conflict.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from math import sqrt
from typing import Any

import numpy as np
import pytest

from konflikt.analysis.exact import ConflictOdds, conflict_odds
from konflikt.core.actions import ChanceOutcome
from konflikt.core.batch import Tally
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, load_scenario
from konflikt.core.state import State
from konflikt.dice import PoolRoll
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.kernel import FimbulfrostKernel, make_kernel
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from konflikt.sim.engine import choose_engine, simulate
from konflikt.sim.runner import seat_policies
from tests.rulesets.fimbulfrost.helpers import hero, scenario
from tests.rulesets.kernel_replay import assert_kernel_replays

N = 400_000
FREQUENT = Fraction(1, 1000)


def kernel_for(sc: Scenario, overrides: Mapping[str, Any] | None = None) -> FimbulfrostKernel:
    made = make_kernel(sc, sc.ruleset.options.resolve(sc.options, dict(overrides or {})), seat_policies(sc))
    assert isinstance(made, FimbulfrostKernel), made
    return made


@cache
def exact(name: str) -> ConflictOdds:
    sc = load_scenario(f"fimbulfrost/{name}")
    seats = {seat: policy for seat, policy in seat_policies(sc).items() if policy is not None}
    return conflict_odds(new_state(sc), seats)


def assert_within_4se(what: str, exact_p: Mapping[Any, Fraction], counts: Mapping[Any, int], n: int) -> int:
    """Each label's frequency within 4 standard errors of its exact probability; no impossible label. Returns how
    many labels were checked."""
    impossible = [label for label in counts if label not in exact_p]
    assert not impossible, f"{what}: the kernel produced labels the rules cannot: {impossible}"
    checked = 0
    for label, p in exact_p.items():
        if p < FREQUENT:
            continue
        se = sqrt(float(p * (1 - p)) / n)
        freq = counts.get(label, 0) / n
        assert abs(freq - float(p)) <= 4 * se, f"{what} {label!r}: kernel {freq:.5f}, exact {float(p):.5f}"
        checked += 1
    return checked


@pytest.mark.parametrize("name", ["robbers", "dragon"])
def test_kernel_frequencies_lie_within_4_standard_errors_of_the_exact_odds(name: str) -> None:
    sc = load_scenario(f"fimbulfrost/{name}")
    odds = exact(name)
    tally = Tally()
    tally.add(kernel_for(sc).run(N, np.random.default_rng(20261129)))
    assert tally.n == N
    checked = assert_within_4se("winners", odds.winners(), tally.winners, N)
    checked += assert_within_4se("endings", odds.endings(), tally.endings, N)
    for pid in (p.id for p in sc.participants()):
        checked += assert_within_4se(pid, odds.fates(pid), tally.fates[pid], N)
    assert checked >= 15


def test_the_robber_band_falls_about_as_often_as_the_exact_odds_say() -> None:
    """The number a designer reads first: the heroes beat the text's robber band in 98.6 % of the conflicts
    (exact), and the kernel's estimate at n = 400,000 is within a quarter of a percentage point of it."""
    odds = exact("robbers")
    p = float(odds.winners()[("helte",)])
    batch = kernel_for(load_scenario("fimbulfrost/robbers")).run(N, np.random.default_rng(7))
    assert 0.98 < p < 0.99
    assert abs(batch.winners.counts()[("helte",)] / N - p) < 0.0025


def replay_roll(trace: Mapping[str, np.ndarray], j: int) -> Any:
    """Table dice for conflict ``j``: the kernel's (successes, 1s) for whichever roll the state asks for."""

    def roll(state: State) -> ChanceOutcome:
        assert isinstance(state, FimbulfrostState)
        i, phase = state.cursor, state.phase
        if phase == P.R1_ROLL:
            return PoolRoll(int(trace["s1"][i, j]), 0)
        if phase == P.R1_ANSWER:
            return PoolRoll(int(trace["h1"][j]), 0)
        if phase == P.R2_ROLL:
            return PoolRoll(int(trace["s2"][i, j]), int(trace["o2"][i, j]))
        if phase == P.R2_KAMP:
            return PoolRoll(int(trace["h2"][j]), 0)
        assert phase == P.R3_ROLL
        return PoolRoll(int(trace["s3"][i, j]), int(trace["o3"][i, j]))

    return roll


def assert_same_conflicts(sc: Scenario, overrides: Mapping[str, Any], n: int, seed: int) -> None:
    """The kernel's n conflicts, replayed with its dice through the reference state, agree in every label and number."""
    assert_kernel_replays(kernel_for(sc, overrides), sc, overrides, n, seed, replay_roll)


def test_the_replay_harness_fails_when_the_state_is_fed_other_dice() -> None:
    """Deliberate mutation of the replay: every hero's round-1 roll reaches the State as no success. The shared
    harness (``tests/rulesets/kernel_replay.py``) must then report a conflict that ends otherwise."""

    def mutated(trace: Mapping[str, np.ndarray], j: int) -> Any:
        roll = replay_roll(trace, j)

        def other(state: State) -> ChanceOutcome:
            assert isinstance(state, FimbulfrostState)
            return PoolRoll(0, 0) if state.phase == P.R1_ROLL else roll(state)

        return other

    sc = scenario()
    with pytest.raises(AssertionError, match=r"conflict \d+: "):
        assert_kernel_replays(kernel_for(sc), sc, {}, 50, 1, mutated)


def _builtin(pid: str, **fields: Any) -> dict[str, Any]:
    return hero(pid, character=f"builtin:{pid}", **fields)


@pytest.mark.parametrize(
    ("title", "kwargs", "overrides"),
    [
        ("the text's example: Budolf and Rudolf against the robbers", {}, {}),
        ("Budolf and Rudolf against the dragon's own list", {"opponent": _builtin("drage")}, {}),
        (
            "three heroes, Sigrun's maneuver and gear, against the revenant's death mark",
            {"heroes": [_builtin("sigrun"), _builtin("budolf"), _builtin("rudolf")], "opponent": _builtin("genganger")},
            {},
        ),
        ("Sigrun alone against the wolves", {"heroes": [_builtin("sigrun")], "opponent": _builtin("ulveflok")}, {}),
        (
            "carried consequences, two points an entry, death in round 1",
            {
                "heroes": [_builtin("budolf", konsekvenser=["skramme", "ydmyget"]), _builtin("rudolf")],
                "opponent": _builtin("heks"),
            },
            {"points_per_consequence": 2, "round1_death": True},
        ),
        (
            "the digest's readings: morale gone after one hit, a lost round 3 paid by the standing heroes only",
            {"heroes": [_builtin("sigrun"), _builtin("budolf"), _builtin("rudolf")], "opponent": _builtin("ulveflok")},
            {"morale": "next_hit", "round3_loss": "each"},
        ),
        (
            "morale gone after round 1, no death in round 1, the dragon",
            {"opponent": _builtin("drage")},
            {"morale": "round1", "round1_death": False},
        ),
        (
            "konflikt's own consequence_must_cost: entries that would cost nothing hidden, the dragon, three heroes",
            {"heroes": [_builtin("sigrun"), _builtin("budolf"), _builtin("rudolf")], "opponent": _builtin("drage")},
            {"consequence_must_cost": True},
        ),
        (
            "carried consequences that may be taken again",
            {"heroes": [_builtin("budolf", konsekvenser=["skramme", "forstuvet"]), _builtin("rudolf")]},
            {"carried_consequences_count": False},
        ),
    ],
)
def test_the_state_fed_the_kernels_dice_ends_every_conflict_the_same_way(
    title: str, kwargs: dict[str, Any], overrides: dict[str, Any]
) -> None:
    assert_same_conflicts(scenario(**kwargs), overrides, 400, seed=len(title))


def test_the_kernel_draws_the_same_conflicts_from_the_same_seed() -> None:
    kernel = kernel_for(load_scenario("fimbulfrost/robbers"))
    a = kernel.run(5000, np.random.default_rng(3))
    b = kernel.run(5000, np.random.default_rng(3))
    c = kernel.run(5000, np.random.default_rng(4))
    assert np.array_equal(a.length, b.length) and np.array_equal(a.fates["budolf"].codes, b.fates["budolf"].codes)
    assert not np.array_equal(a.length, c.length)


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"buy_back": True}, "buy_back = False only, not True"),
        ({"mishaps": "always"}, "mishaps = 'defeating_roll' only"),
        ({"round3_loss": "shared"}, "round3_loss = 'every' or 'each' only"),
        ({"weapon_pool": True}, "weapon_pool"),
    ],
)
def test_the_kernel_refuses_an_option_it_does_not_mirror(overrides: dict[str, Any], fragment: str) -> None:
    sc = load_scenario("fimbulfrost/robbers")
    reason = make_kernel(sc, sc.ruleset.options.resolve(sc.options, overrides), seat_policies(sc))
    assert isinstance(reason, str)
    assert fragment in reason


@pytest.mark.parametrize("seat", ["rudolf", "roeverne", "@gm"])
def test_the_kernel_refuses_a_seat_that_is_not_heuristic(seat: str) -> None:
    sc = load_scenario("fimbulfrost/robbers")
    reason = make_kernel(sc, sc.ruleset.options.resolve(sc.options), seat_policies(sc, {seat: "random"}))
    assert isinstance(reason, str)
    assert f"{seat} plays random" in reason


def test_sim_uses_the_kernel_and_falls_back_with_the_reason() -> None:
    sc = load_scenario("fimbulfrost/robbers")
    used, kernel, _ = choose_engine(sc, {}, {}, "auto")
    assert used == "vectorised" and isinstance(kernel, FimbulfrostKernel)
    used, kernel, note = choose_engine(sc, {"buy_back": True}, {}, "auto")
    assert used == "reference" and kernel is None and "buy_back" in note
    result = simulate(sc, 20_000, seed=1)
    assert result.engine == "vectorised" and result.tally.n == 20_000
