"""Secret simultaneous choices as a matrix game: Le våld's movement markers, solved at one node.

"Deklarera rörelse": both fighters choose Avancera, Bibehålla, Retirera (or Lämna) in secret, the others looking
away. Neither can react to the other's marker, so the right play is a mixed strategy: each pair of markers leads to
a chance of winning the fight (the *payoff matrix*), and linear programming (:mod:`.matrix_game`) gives each side's
optimal mix and the value of the node.

Each entry is the row side's chance to win after that pair of markers, the rest of the fight played by the given
policies (the ruleset's heuristic by default): exact where the exact solver finishes within ``max_states`` (a
ruleset's compact model, or the State API), else estimated from ``playouts`` conflicts with its standard error.
The game is zero-sum in the row side's win chance: a fight that nobody wins (both leave, a deadlock) counts as a
loss for both, so where it can happen the column side is taken to minimise the row side's win chance, which is not
the same as maximising its own; :attr:`MovementGame.draw` says how large that chance is.

The ``mcts`` policy plays the same game at a root movement node with its own estimates (:mod:`.mcts`); this module
is for reading one node closely (tests, reports, advice).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from konflikt.analysis.exact import StateSpaceTooLarge, conflict_odds
from konflikt.analysis.matrix_game import MatrixSolution, solve_exact
from konflikt.core.actions import Action
from konflikt.core.messages import _ as gettext
from konflikt.core.ruleset import Policy, get_ruleset
from konflikt.core.state import CHANCE, SIMULTANEOUS, TERMINAL, State
from konflikt.errors import KonfliktError

DEFAULT_PLAYOUTS = 200
DEFAULT_MAX_STATES = 2_000
"""States the exact solver may explore for one entry before the entry is estimated instead."""
ESTIMATE_DENOMINATOR = 10_000
"""Estimated entries are rounded to this denominator for the exact solver (their error is far larger)."""


@dataclass(frozen=True)
class Cell:
    """One entry: the row side's chance to win, exact (``exact`` set, ``se`` 0) or estimated from ``n`` conflicts."""

    p: float
    exact: Fraction | None = None
    se: float = 0.0
    n: int = 0
    draw: float = 0.0
    """The chance that nobody wins after this pair of choices."""

    def value(self) -> Fraction:
        return self.exact if self.exact is not None else Fraction(self.p).limit_denominator(ESTIMATE_DENOMINATOR)


Evaluate = Callable[[State, str, int], Cell]
"""How an entry is found: (the state after both markers, the row side's id, a seed) → its cell."""


@dataclass(frozen=True)
class MovementGame:
    """A movement node solved: the row seat's and the column seat's choices, the entries, the solution."""

    seat: str
    other: str
    mine: tuple[Action, ...]
    theirs: tuple[Action, ...]
    cells: tuple[tuple[Cell, ...], ...]
    solution: MatrixSolution
    words: Mapping[Action, str]

    @property
    def draw(self) -> float:
        """The largest chance, over the entries, that nobody wins (0: the game is zero-sum as it stands)."""
        return max(c.draw for row in self.cells for c in row)

    @property
    def exact(self) -> bool:
        return all(c.exact is not None for row in self.cells for c in row)

    def mix(self) -> list[tuple[Action, Fraction | float]]:
        return list(zip(self.mine, self.solution.row, strict=True))

    def lines(self, names: Mapping[str, str] | None = None) -> list[str]:
        """The node in words: the matrix (the row side's chance to win), each side's optimal mix, the value."""
        names = names or {}
        me, you = names.get(self.seat, self.seat), names.get(self.other, self.other)
        how = "exact" if self.exact else "≈ estimated, ± one standard error"
        out = [f"Rörelse (movement) as a matrix game: {me}'s chance to win ({how}); rows {me}, columns {you}"]
        width = max(len(self.words[a]) for a in (*self.mine, *self.theirs))
        out.append(" " * (width + 2) + "  ".join(f"{self.words[a]:>{width}}" for a in self.theirs))
        for a, row in zip(self.mine, self.cells, strict=True):
            texts = [f"{c.p:.1%}" if c.exact is not None else f"{c.p:.1%} ±{c.se:.1%}" for c in row]
            out.append(f"{self.words[a]:<{width}}  " + "  ".join(f"{t:>{width}}" for t in texts))
        for who, actions, mix in ((me, self.mine, self.solution.row), (you, self.theirs, self.solution.column)):
            parts = ", ".join(f"{self.words[a]} {float(p):.0%}" for a, p in zip(actions, mix, strict=True))
            out.append(f"optimal mix (blandad strategi) for {who}: {parts}")
        out.append(f"value: {me} wins {float(self.solution.value):.1%} when both play their mixes")
        if self.draw:
            out.append(f"not zero-sum: nobody wins with a chance of up to {self.draw:.1%} (counted as a loss for both)")
        return out


def _words(state: State, seat: str, action: Action) -> str:
    """The choice's name in the system's words with English beside it, without the explanation after a colon."""
    return state.describe_action(seat, action).split(": ")[0]


def heuristic_policies(state: State) -> dict[str, Policy]:
    ruleset = get_ruleset(state.ruleset)
    return {seat: ruleset.policy("heuristic") for seat in state.seats()}


def continuation(
    policies: Mapping[str, Policy], playouts: int = DEFAULT_PLAYOUTS, max_states: int = DEFAULT_MAX_STATES
) -> Evaluate:
    """The default entry: exact by the solver where it finishes within ``max_states``, else ``playouts`` conflicts
    played to their end by ``policies`` (standard error from the binomial)."""

    def evaluate(after: State, side: str, seed: int) -> Cell:
        if max_states:
            try:
                odds = conflict_odds(after, policies, max_states)
            except StateSpaceTooLarge:
                pass
            else:
                chances = odds.winners()
                won = sum((q for w, q in chances.items() if side in w), Fraction(0))  # type: ignore[operator]
                return Cell(float(won), won, draw=float(chances.get((), Fraction(0))))
        rng = np.random.default_rng(seed)
        wins = nobody = 0
        for _ in range(playouts):
            state = after.fork()
            state.quiet = True
            ended = play_out(state, policies, rng)
            wins += side in ended
            nobody += not ended
        rate = wins / playouts
        return Cell(rate, None, math.sqrt(rate * (1 - rate) / playouts), playouts, nobody / playouts)

    return evaluate


def play_out(state: State, policies: Mapping[str, Policy], rng: np.random.Generator) -> tuple[str, ...]:
    """Play ``state`` to its end (in place), chance drawn from ``rng``; the winners."""
    while True:
        node = state.current_player()
        if node == TERMINAL:
            return state.outcome().winners
        if node == CHANCE:
            roll = state.pending_roll()
            assert roll is not None
            state.apply_action(roll.sample(rng), checked=False)
        elif node == SIMULTANEOUS:
            state.apply_actions({s: policies[s].choose(state, s, rng) for s in state.waiting_for()}, checked=False)
        else:
            state.apply_action(policies[node].choose(state, node, rng), checked=False)


def movement_game(state: State, seat: str, evaluate: Evaluate | None = None, seed: int = 0) -> MovementGame:
    """Solve the secret simultaneous choice ``seat`` makes now against the one other seat choosing with it.

    Only what ``seat`` may see is used (:meth:`State.seen_by`): another seat's marker already chosen is taken back.

    Raises:
        KonfliktError: nobody is choosing in secret now, ``seat`` is not, or not exactly two seats of two sides are.
    """
    if state.current_player() != SIMULTANEOUS:
        raise KonfliktError(gettext("no secret choice is being made now"))
    seen = state.seen_by(seat)
    seats = seen.waiting_for()
    if seat not in seats:
        raise KonfliktError(gettext("{seat} is not choosing in secret now", seat=seat))
    others = [s for s in seats if s != seat]
    side = seen.side_of(seat)
    if len(others) != 1 or side is None or seen.side_of(others[0]) in (None, side):
        raise KonfliktError(
            gettext(
                "a matrix game needs two seats of two sides choosing together (here: {seats})", seats=", ".join(seats)
            )
        )
    other = others[0]
    evaluate = evaluate or continuation(heuristic_policies(seen))
    mine, theirs = tuple(seen.legal_actions(seat)), tuple(seen.legal_actions(other))
    cells: list[tuple[Cell, ...]] = []
    for i, a in enumerate(mine):
        row: list[Cell] = []
        for j, b in enumerate(theirs):
            after = seen.fork()
            after.quiet = True
            after.apply_actions({seat: a, other: b})
            row.append(evaluate(after, side, seed * 1_000 + i * len(theirs) + j))
        cells.append(tuple(row))
    solution = solve_exact([[c.value() for c in row] for row in cells])
    words = {a: _words(seen, seat, a) for a in mine} | {b: _words(seen, other, b) for b in theirs}
    return MovementGame(seat, other, mine, theirs, tuple(cells), solution, words)
