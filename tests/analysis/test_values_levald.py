"""Le våld's winner values (``rulesets/levald/values.py``): the block solve run backward gives each side's chance
from every state the opening's solve met, within its stated bound of the capped duel's exact answer from there."""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable
from fractions import Fraction

import numpy as np
import pytest

from konflikt.rulesets.levald.model import DAZE, FATE, ROUNDS, Compact, LevaldModel
from konflikt.rulesets.levald.values import WinnerValues
from tests.analysis.test_blocks_levald import SMALL, clockless_chain, coarse, horizon, opening


@functools.cache
def built(name: str) -> tuple[LevaldModel, Compact, WinnerValues]:
    _, model, start = opening(SMALL[name]())
    return model, start, WinnerValues(model, start)


def winners_of(model: LevaldModel, start: Compact) -> dict[Hashable, float]:
    """The capped duel from ``start`` by the horizon (floats within ~10⁻¹³), by winners."""
    finals, _, _ = horizon(model, [(start, Fraction(1))], exact=False)
    out: dict[Hashable, float] = {}
    for label, p in coarse(model, finals).items():
        winners = label[1]  # type: ignore[index]
        out[winners] = out.get(winners, 0.0) + float(p)
    return out


def round_starts(model: LevaldModel, start: Compact, k: int, seed: int) -> list[Compact]:
    """``k`` round starts the opening can reach (the clockless chain's states that are not ends), at random."""
    chain, _ = clockless_chain(model, [(start, Fraction(1))])
    going = [c for c in chain.states if isinstance(c, tuple) and len(c) > FATE and not c[FATE] and not c[FATE + 1]]
    return random.Random(seed).sample(going, min(k, len(going)))


def assert_within(got: dict[Hashable, float], want: dict[Hashable, float], bound: float, where: object) -> None:
    for side in set(got) | set(want):
        assert abs(got.get(side, 0.0) - want.get(side, 0.0)) <= bound, (where, side, got, want, bound)


@pytest.mark.parametrize("name", ["heuristic", "options", "ticking"])
def test_the_values_at_the_opening_are_the_forward_solves_winners(name: str) -> None:
    model, start, values = built(name)
    answered = values.at([(start, 1)])
    assert answered is not None
    got, bound = answered
    forward: dict[Hashable, float] = {}
    for label, p in values.opening.ends.items():
        forward[label[1]] = forward.get(label[1], 0.0) + p  # type: ignore[index]
    assert abs(sum(got.values()) - 1) < 1e-6 and 0 < bound < 1e-3
    # the forward answer within its own bound, the values within theirs: both within the sum of the exact one
    assert_within(got, forward, bound + values.opening.error_bound, name)
    assert_within(got, winners_of(model, start), bound, name)


@pytest.mark.parametrize("name", ["heuristic", "ticking"])
def test_from_states_met_later_the_values_are_the_capped_duels_winners_within_their_bound(name: str) -> None:
    """From round starts some rounds in (rounds played 7, so the cap is nearer), each side's chance by the values
    against the horizon's capped answer from there, within the values' bound."""
    model, start, values = built(name)
    for clockless in round_starts(model, start, 12, seed=3):
        at = (7, *clockless[ROUNDS + 1 :])
        answered = values.at([(at, 1)])
        assert answered is not None, at
        got, bound = answered
        assert bound < 1e-2
        assert_within(got, winners_of(model, at), bound, at)


def test_near_the_cap_the_bound_widens_to_cover_what_the_cap_takes() -> None:
    """Fifteen rounds before the cap the capped duel is far from the duel without it: the moments' bound (E[T^k] / 15^k)
    still covers the difference, and is not loose beyond reason."""
    model, start, values = built("ticking")
    near = (model.cap - 15, *start[ROUNDS + 1 :])
    answered = values.at([(near, 1)])
    assert answered is not None
    got, bound = answered
    want = winners_of(model, near)
    difference = max(abs(got.get(s, 0.0) - want.get(s, 0.0)) for s in set(got) | set(want))
    assert difference > 1e-3  # the cap matters here
    assert difference <= bound < 1


def test_a_state_the_opening_never_met_is_not_answered() -> None:
    """Omtöckning far beyond what the opening's duel reaches: no band was solved there."""
    _, start, values = built("ticking")
    far = list(start)
    far[DAZE], far[DAZE + 1] = 95, 95
    assert values.at([(tuple(far), 1)]) is None


def test_weights_add_up_and_an_ended_start_is_its_own_winner() -> None:
    model, start, values = built("heuristic")
    one = values.at([(start, 1)])
    assert one is not None
    ended = list(start)
    ended[FATE + 1] = 1  # side b knocked out: side a wins
    won = values.at([(start, Fraction(1, 4)), (tuple(ended), Fraction(3, 4))])
    assert won is not None
    label = model.end(tuple(ended))
    winners = label[1]  # type: ignore[index]
    for side, p in one[0].items():
        expected = p / 4 + (0.75 if side == winners else 0.0)
        assert won[0].get(side, 0.0) == pytest.approx(expected, abs=1e-12)
    assert won[1] == pytest.approx(one[1] / 4)


def test_the_store_holds_every_solved_block_and_no_unknown_value_at_a_met_state() -> None:
    _, _, values = built("ticking")
    assert values.store.dtype == np.float32 and values.store.shape[1] == len(values.sides) + 3
    assert not np.isnan(values.store[:, : len(values.sides)]).all(axis=1).any()
