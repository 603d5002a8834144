"""After a round in which nobody won the initiative roll: "Om ingen part vinner slaget för Stridsvana så blir ingen
anfallare … och rundan är slut", and "Om ingendera händer så kvarstår initiativet där det är".

By default the next round decides the initiative afresh ("Bestäm initiativ" is a step of every round; with nobody
holding it there is nothing to keep). ``after_nobody_wins = stays`` reads "kvarstår där det är" literally: nobody
holds it, round after round, until the distance changes.
"""

from __future__ import annotations

import numpy as np

from konflikt.core.scenario import load_scenario
from konflikt.rulesets.levald.kernel import make_kernel
from konflikt.rulesets.levald.model import exact_model
from konflikt.rulesets.levald.policies import HeuristicPolicy
from konflikt.rulesets.levald.state import LevaldState
from konflikt.sim.runner import seat_policies
from tests.rulesets.levald.helpers import document, fighter, move, roll, state_of, texts

STAYS = {"after_nobody_wins": "stays"}


def _nobody_won(options: dict[str, object] | None = None) -> LevaldState:
    """Two swords at Svärd, both optimal: both fail the initiative roll; nobody fights, both regain Gard."""
    state = state_of(document(fighter("a", gard_now=5), fighter("b", gard_now=5), "Svärd", options))
    move(state, a="hold", b="hold")
    roll(state, 90, 90)
    assert state.rounds == 1 and state.holder == [-1] and state.gard == [6, 6]
    return state


def test_by_default_the_next_round_rolls_for_the_initiative_again() -> None:
    state = _nobody_won()
    move(state, a="hold", b="hold")
    assert state.phase == "init_roll"


def test_when_it_stays_nobody_holds_it_until_the_distance_changes() -> None:
    state = _nobody_won(STAYS)
    move(state, a="hold", b="hold")
    assert state.rounds == 2 and state.holder == [-1] and state.gard == [7, 7]
    assert "kvarstår där det är (stays where it is), with nobody" in texts(state)
    move(state, a="advance", b="advance")  # Svärd → Dolk: both too close, a roll
    assert state.phase == "init_roll"


def test_the_heuristic_breaks_a_stuck_initiative_by_moving() -> None:
    """ "Det gör det värt att ändra avståndet … bara för att bryta en dålig situation"."""
    state = _nobody_won(STAYS)
    assert HeuristicPolicy().choose(state, "a", np.random.default_rng(0)).kind == "advance"
    plain = _nobody_won()
    assert HeuristicPolicy().choose(plain, "a", np.random.default_rng(0)).kind == "hold"


def test_the_kernel_and_the_exact_model_refuse_it() -> None:
    scenario = load_scenario("levald/duel")
    options = scenario.ruleset.options.resolve(scenario.options, STAYS)
    assert "after_nobody_wins" in str(make_kernel(scenario, options, seat_policies(scenario)))
    state = LevaldState(scenario, options)
    policies = {s: p for s, p in seat_policies(scenario).items() if p is not None}
    assert "after_nobody_wins" in str(exact_model(state, policies))
