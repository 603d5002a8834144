"""Advice at a decision, for front ends that cannot wait on a long answer (the browser table's panel).

Each legal choice of a seat with its side's win chance, best first: under optimal play after it where the solved
game covers the decision (:func:`konflikt.analysis.optimal_solve.advice`), else by information-set MCTS from what
the seat may see (:mod:`konflikt.analysis.mcts`, a fixed budget and seed: the same answer every time it is asked).
Both start from ``state.seen_by(seat)``: another seat's secret choice, made and not yet revealed, is never read, so
advice cannot leak it (nor does it depend on it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from konflikt.analysis.background_solve import OptimalInBackground
from konflikt.core.messages import _
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, SIMULTANEOUS, TERMINAL, State
from konflikt.errors import KonfliktError

MCTS_ITERATIONS = 200
"""Playouts of the search where optimal play is out of reach (``mcts``'s own default budget)."""
SOLVE_SECONDS = 2.0
"""How long the State-API solver may try from the asked state (a ruleset without a round game)."""


def optimal_from_here(
    scenario: Scenario, state: State, seat: str, seconds: float
) -> tuple[list[tuple[Any, float]] | None, str]:
    """Optimal advice by expectimax over the State API from ``state`` itself, or why not."""
    from konflikt.analysis.optimal_solve import Solver, seat_sides

    side = seat_sides(scenario).get(seat)
    if side is None:
        return None, _("the GM's decisions are not optimised")
    if state.current_player() == SIMULTANEOUS:
        return None, _("a secret choice of both sides is a matrix game, not expectimax")
    try:
        rows = Solver(scenario, state, max_seconds=seconds).advise(state, seat)
    except KonfliktError as exc:
        return None, str(exc).split(";")[0]
    if rows is None:
        return None, _("not a decision of the solved game")
    mine = scenario.sides[side].id
    return [(a, v[mine]) for a, v in rows], ""


@dataclass(frozen=True)
class Advice:
    """A seat's choices with their win chances, best first, and how they were found."""

    seat: str
    method: str
    """``optimal`` (the solved game), ``mcts`` (search, with each choice's playouts) or ``none``."""
    rows: list[tuple[str, float, int]] = field(default_factory=list)
    """(the choice in the system's words, the side's win chance after it, playouts behind it; 0 when solved)."""
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "method": self.method,
            "rows": [{"choice": c, "percent": round(100 * p, 1), "n": n} for c, p, n in self.rows],
            "note": self.note,
        }


def asked(state: State) -> tuple[str, ...]:
    """The seats deciding now: the current player, or every seat still to choose in secret."""
    node = state.current_player()
    if node in (CHANCE, TERMINAL):
        return ()
    if node == SIMULTANEOUS:
        return tuple(state.waiting_for())
    return (node,)


def advise(
    scenario: Scenario,
    state: State,
    seat: str,
    iterations: int = MCTS_ITERATIONS,
    seed: int = 0,
    seconds: float = SOLVE_SECONDS,
    optimal: OptimalInBackground | None = None,
) -> Advice:
    """``seat``'s advice at ``state`` (not changed): see the module. ``seconds``: how long the State-API solver may
    try from here, for a ruleset without a round game, before the search takes over. ``optimal``: the solved game
    being prepared beside the table (:mod:`.background_solve`): until it is ready the search answers at once, saying
    so, instead of solving the game here (a minute, the first time)."""
    from konflikt.analysis.mcts import Search
    from konflikt.analysis.optimal_solve import advice

    if seat not in asked(state):
        return Advice(seat, "none", note=_("{seat} has no decision now", seat=seat))
    seen = state.seen_by(seat)
    seen.quiet = True
    if optimal is not None and not optimal.ready():
        rows, why = None, optimal.progress()
    elif scenario.ruleset.round_game is not None:  # solved once per scenario, kept on disk
        rows, why = advice(scenario, seen, seat)
    else:  # the State API from here, within the budget
        rows, why = optimal_from_here(scenario, seen, seat, seconds)
    if rows is not None:
        words = [(seen.describe_action(seat, a), float(p), 0) for a, p in rows]
        return Advice(seat, "optimal", words, _("win chance if both sides play optimally after the choice"))
    try:
        search = Search(seen, seat, np.random.default_rng(seed)).run(iterations)
    except KonfliktError as exc:
        return Advice(seat, "none", note=str(exc))
    stats = sorted(search.choice_stats(), key=lambda row: (-row[2], -row[1]))
    words = [(seen.describe_action(seat, a), float(mean), int(n)) for a, n, mean in stats]
    return Advice(
        seat,
        "mcts",
        words,
        _(
            "≈ MCTS, {iterations} playouts from what {seat} may see, the heuristic playing on (optimal play: {why})",
            iterations=iterations,
            seat=seat,
            why=why,
        ),
    )


__all__ = ["MCTS_ITERATIONS", "Advice", "advise", "asked", "optimal_from_here"]
