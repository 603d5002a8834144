"""``gain_ground_changes_initiative = false``: a holder whose gain-ground step took it out of its own reach.

The step does not count as a change of distance, but "den som är på för långt avstånd [blir] automatiskt
försvarare": a holder whose weapon no longer reaches keeps no initiative it cannot use, and the table decides. The
State, the compiled kernel and the exact model (with the propagator's table) must all say so.
"""

from __future__ import annotations

from fractions import Fraction

from konflikt.core.conflict import new_state
from konflikt.rulesets.levald import duel_loop as L
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.model import DIST, HOLDER, REDECIDE
from konflikt.rulesets.levald.propagate import _initiative_table
from konflikt.rulesets.levald.state import MOVED, LevaldState
from tests.analysis.model_check import model_round
from tests.analysis.test_model_levald import duel, model_at, policies_of, state_api_round
from tests.rulesets.levald.test_kernel import compare
from tests.rulesets.levald.test_kernel import duel as kernel_duel

SVARD, STANG, SPJUT = (R.DISTANCES.index(d) for d in ("Svärd", "Stång", "Spjut"))


def test_the_kernels_initiative_takes_it_from_a_holder_out_of_reach() -> None:
    """Holder 0 (sword) at Stång, nothing to re-decide: the spear (fighter 1) attacks; in reach the holder keeps."""
    assert L.initiative(0, 0, STANG, SVARD, SPJUT, True, 99, 99, 50, 50) == (1, 0)
    assert L.initiative(0, 0, SVARD, SVARD, SPJUT, True, 99, 99, 50, 50) == (0, 0)
    assert L.initiative(0, 0, SPJUT, SVARD, SVARD, True, 99, 99, 50, 50) == (-1, MOVED)  # both too far


def _snurre_stepped_out() -> tuple[LevaldState, dict[str, object]]:
    """Snurre (sword) holds the initiative against Hedda (spear) at Stång, as a step out of gaining ground leaves it
    under the option: nothing marks the initiative to be decided afresh."""
    scenario = duel({"gain_ground_changes_initiative": False}, {"distance": "Stång"})
    state = new_state(scenario)
    assert isinstance(state, LevaldState)
    state.holder[0], state.redecide[0] = 0, 0
    return state, policies_of(scenario)  # type: ignore[return-value]


def test_the_exact_model_steps_a_holder_out_of_reach_as_the_state_does() -> None:
    state, policies = _snurre_stepped_out()
    model = model_at(state, policies)  # type: ignore[arg-type]
    compact = model.encode(state)
    assert compact is not None and compact[HOLDER] == 0 and compact[REDECIDE] == 0
    want = state_api_round(state, policies, model.encode, model.label)  # type: ignore[arg-type]
    assert sum(want.values()) == Fraction(1)
    assert model_round(model, compact) == want


def test_the_propagators_initiative_table_gives_the_spear_the_initiative() -> None:
    state, policies = _snurre_stepped_out()
    model = model_at(state, policies)  # type: ignore[arg-type]
    compact = model.encode(state)
    assert compact is not None and state.scale_index[compact[DIST]] == STANG
    assert _initiative_table(model, list(compact)) == [((1, 1, 0), 1.0)]


def test_the_kernel_and_the_state_agree_when_random_attackers_step_out_of_reach() -> None:
    """A random Snurre steps out of his sword's reach about half the times he gains ground: the kernel's duels and
    the reference runner's agree within 4 standard errors under the option."""
    compare(kernel_duel("Svärd", "Spjut"), 600, {"gain_ground_changes_initiative": False}, a="random")
