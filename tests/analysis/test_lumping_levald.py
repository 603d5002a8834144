"""Which parts of a Le våld round start may be lumped (merged) without changing the chain, checked on the model.

A lumped chain is exact only if two states that share a lumped key have the same successor distribution over the
lumped keys. The wound boxes pass (no rule and no policy reads them; a Kritisk or Dödlig wound sets the fate, a
column of its own): merged, the successors are the same, and each successor's boxes are the start's boxes plus
the same ticks — so the expected count of each box can be carried linearly beside the mass. Omtöckning does not
pass, though every rule and the heuristic read it only through its penalty (``rules.daze_penalty``): where the next
hit carries it into the next band of five depends on where in its band it stands. Nor may the penalty be capped
where a fighter's every target is ≤ 0: the heuristic's leaving still compares the two penalties
(``policies.LOSING_BADLY``). These are the facts behind ``rulesets/levald/propagate.py``'s "what it does not reach".
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import numpy as np

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.model import BOXES, DAZE, FATE, WOUNDS, LevaldModel
from konflikt.rulesets.levald.policies import HeuristicPolicy
from konflikt.rulesets.levald.state import LevaldState
from tests.analysis.model_check import reachable
from tests.analysis.test_model_levald import model_at, policies_of

TICKS = (1, 2, 0, 0, 0, 0, 1, 1, 0, 0)
"""Boxes added to a start: Skråma +1 and Lätt +2 for Snurre, Lätt and Allvarlig +1 for Hedda (no fatal box)."""


def successors(model: LevaldModel, compact: tuple[int, ...]) -> dict[tuple[int, ...], Fraction]:
    """One round of the clockless chain, as Fractions by successor."""
    clockless, _ = model.clock(compact)
    den, ways = model.step(clockless)
    out: dict[tuple[int, ...], Fraction] = {}
    for t, w in ways:
        key = tuple(t)  # type: ignore[arg-type]
        out[key] = out.get(key, Fraction(0)) + Fraction(w, den)
    return out


def lumped(dist: dict[tuple[int, ...], Fraction], key: object) -> dict[Hashable, Fraction]:
    out: dict[Hashable, Fraction] = {}
    for t, p in dist.items():
        k = key(t)  # type: ignore[operator]
        out[k] = out.get(k, Fraction(0)) + p
    return out


def without_boxes(t: tuple[int, ...]) -> tuple[int, ...]:
    return t[:WOUNDS] + (0,) * (2 * BOXES) + t[WOUNDS + 2 * BOXES :]


def by_penalty(t: tuple[int, ...]) -> tuple[int, ...]:
    """What every rule and the heuristic read of a round start: Omtöckning as its penalty, no boxes."""
    u = list(without_boxes(t))
    u[DAZE], u[DAZE + 1] = R.daze_penalty(t[DAZE]), R.daze_penalty(t[DAZE + 1])
    return tuple(u)


def duel_model() -> tuple[LevaldModel, LevaldState]:
    sc = load_scenario("levald/duel")
    opening = new_state(sc)
    assert isinstance(opening, LevaldState)
    return model_at(opening, policies_of(sc)), opening


def test_the_wound_boxes_lump_exactly_and_carry_their_ticks() -> None:
    """Random round starts of the bundled duel and the same with more (non-fatal) boxes ticked: the same successors
    without the boxes, Fraction for Fraction, each successor's boxes the start's plus the same ticks."""
    model, opening = duel_model()
    sc = load_scenario("levald/duel")
    states = reachable(opening, policies_of(sc), model.encode, seed=11, count=3)
    assert len(states) == 3
    for state in states:
        compact = model.encode(state)
        assert compact is not None
        more = list(compact)
        for i, tick in enumerate(TICKS):
            more[WOUNDS + i] += tick
        plain, ticked = successors(model, compact), successors(model, tuple(more))
        assert lumped(plain, without_boxes) == lumped(ticked, without_boxes), compact
        # each successor of the ticked start is one of the plain start's with the same ticks added
        shifted = {
            t[:WOUNDS] + tuple(b + k for b, k in zip(t[WOUNDS : WOUNDS + 2 * BOXES], TICKS, strict=True)) + t[FATE:]: p
            for t, p in plain.items()
        }
        assert shifted == ticked, compact


def test_omtockning_within_one_penalty_band_does_not_lump() -> None:
    """Snurre at Omtöckning 6 and at 10 reads the same penalty (−10), but a Skråma (+1) takes 10 to 11 (−20) and 6
    only to 7: the successors over what the rules read differ, so the chain must carry Omtöckning exactly."""
    model, opening = duel_model()
    start = list(model.encode(opening) or ())
    start[1] = opening.scale.index("Spjut")  # Hedda's optimal distance: she attacks this round
    low, high = list(start), list(start)
    low[DAZE], high[DAZE] = 6, 10
    assert R.daze_penalty(6) == R.daze_penalty(10) == -10
    assert by_penalty(tuple(low)) == by_penalty(tuple(high))
    from_low = lumped(successors(model, tuple(low)), by_penalty)
    from_high = lumped(successors(model, tuple(high)), by_penalty)
    assert from_low != from_high

    def worse(dist: dict[Hashable, Fraction]) -> Fraction:
        return sum((p for k, p in dist.items() if k[DAZE] <= -20), Fraction(0))  # type: ignore[index]

    assert worse(from_high) > worse(from_low)


def test_a_penalty_past_every_target_is_still_read_by_the_heuristic() -> None:
    """At −60 every target of Snurre's is ≤ 0 (no roll of his can succeed), yet −60 and −90 are not alike: against
    Hedda at −40 he stays at −60 (only 20 worse) and leaves at −90 (50 worse than hers)."""
    _, opening = duel_model()
    snurre = opening.fighters[0]
    chosen = []
    for daze in (31, 46):  # penalties −60 and −90
        state = opening.fork()
        assert isinstance(state, LevaldState)
        state.daze[:] = [daze, 21]  # Hedda: −40
        assert state.phase == "move"
        assert max(state._attack_target(0), state._defence_target(0), state._stridsvana_target(0)) <= 0, snurre
        chosen.append(HeuristicPolicy().choose(state, snurre.id, np.random.default_rng(0)))
    assert chosen[0] != Action.of("leave")
    assert chosen[1] == Action.of("leave")
