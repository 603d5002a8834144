"""The ``optimal`` policy: both sides' equilibrium play from a solved table, for any seat of any scenario it can solve.

It chooses as :class:`~.optimal_solve.Solver` says both sides optimal choose (the game value's strategies), which
does not depend on who sits across the table, so one table per scenario serves every seat. It never draws a random
number (ties go to the heuristic's choice), so a seed plays the same conflict every time, and exact analysis can
take it as a deterministic policy. Decisions the game does not optimise (presja: invocations, absorbing) are the
heuristic's. The table is solved once per (scenario, rule options) and kept on disk (:mod:`.optimal_cache`).

The policy needs its scenario: ``sim.runner.seat_policies`` hands it over (``bind``), as it does for every policy that
asks for one.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from konflikt.analysis import optimal_cache
from konflikt.analysis.optimal_solve import Solver
from konflikt.core.actions import Action
from konflikt.core.messages import _
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario
from konflikt.core.state import State
from konflikt.errors import KonfliktError

SEARCH_SECONDS = 120.0
"""How long the State-API search may take before the policy says the scenario is out of its reach."""
_SOLVERS: dict[str, Solver] = {}
"""Solvers by cache key, for the process's life (a sim plays thousands of conflicts of one scenario)."""


def solver_for(scenario: Scenario, state: State) -> Solver:
    """The solved table for ``scenario`` under ``state``'s rule options: from memory, from disk, or solved now."""
    options = dict(state.options)
    key = optimal_cache.cache_key(scenario.document, options, "equilibrium")
    found = _SOLVERS.get(key)
    if found is not None:
        return found
    opening = scenario.ruleset.new_state(scenario, state.options)
    opening.quiet = True
    solver = Solver(scenario, opening, max_seconds=SEARCH_SECONDS, explore=False)
    stored = optimal_cache.load(key)
    if stored is None or not solver.restore(stored):
        solver.explore()
        optimal_cache.save(key, solver.cache_payload(), scenario.title, "equilibrium")
    if len(_SOLVERS) >= 4:
        _SOLVERS.clear()
    _SOLVERS[key] = solver
    return solver


class OptimalPolicy:
    """Equilibrium play from the solved table (see the module)."""

    name = "optimal"

    def __init__(self) -> None:
        self.scenario: Scenario | None = None
        self._fallback: Policy | None = None

    def bind(self, scenario: Scenario, names: Mapping[str, str]) -> None:
        """The scenario this policy plays (called by ``seat_policies``)."""
        self.scenario = scenario

    def choose(self, state: State, seat: str, rng: np.random.Generator) -> Action:
        if self.scenario is None:
            raise KonfliktError(_("the optimal policy plays only conflicts started from a scenario (seat_policies)"))
        solver = solver_for(self.scenario, state)
        action = solver.choose(state, seat)
        if action is not None:
            return action
        return self._heuristic(state).choose(state, seat, rng)

    def action_distribution(self, state: State, seat: str) -> list[tuple[Action, object]]:
        """Deterministic: the one choice (for exact analysis)."""
        from fractions import Fraction

        return [(self.choose(state, seat, np.random.default_rng(0)), Fraction(1))]

    def _heuristic(self, state: State) -> Policy:
        if self._fallback is None:
            assert self.scenario is not None
            ruleset = self.scenario.ruleset
            self._fallback = ruleset.policy("heuristic" if "heuristic" in ruleset.policies else "random")
        return self._fallback


def make_policy(name: str, argument: str | None) -> Policy:
    """``optimal``: the registry's maker (``core.ruleset.POLICIES``); it takes no argument."""
    if argument is not None:
        raise KonfliktError(
            _(
                "policy {name}:{argument}: optimal takes nothing after a colon (write {name})",
                name=name,
                argument=argument,
            )
        )
    return OptimalPolicy()
