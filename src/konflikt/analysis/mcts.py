"""Information-set Monte Carlo tree search: strong play where the state space is too large to solve.

A conflict like the presja skirmish (five fighters) or the pwge shootout has far too many states for the exact
solver; search plays it well anyway, by trying each choice many times in a tree that grows where the play is good
(UCT: Kocsis and Szepesvári 2006), and finishing each try with the ruleset's ``heuristic`` for every seat.

**What the seat may know.** This is single-observer IS-MCTS (Cowling, Powley and Whitehouse 2012): the tree is the
searching seat's, and every iteration starts from a *determinisation*, a state consistent with what the seat may see.
:meth:`State.seen_by` makes it: the secret choices other seats have made and not revealed are taken back, so those
seats choose again inside the search. In konflikt's systems that is the only hidden information (dice not yet rolled
are chance nodes, and everything on the table is public), so every determinisation of one decision is the same state,
and the search never reads another seat's hidden choice. Secret simultaneous choices inside the tree are searched by
*decoupled* UCT (each seat keeps its own statistics, chooses without seeing the others; Lanctot et al. 2013).

**Chance nodes** are explicit: an outcome is drawn with its probability (the pending roll's dice) and the tree keeps
a child per outcome seen.

**A simultaneous decision at the root** (Le våld's movement) is a matrix game: the search's mean result of each pair
of choices is the payoff matrix, solved by :mod:`.matrix_game`, and the seat draws its choice from its optimal mixed
strategy. (UCT's own visit counts are not an equilibrium: a marker played by them can be read and punished.) So the
``mcts`` policy is also the one that plays Le våld's movement as a mixed strategy; see :mod:`.movement` for the
same game with exact payoffs where the solver finishes.

**Budget.** A number of iterations, not seconds, so a seed gives the same decision on any machine: ``mcts`` (the
default, :data:`DEFAULT_ITERATIONS`) or ``mcts:N`` in a scenario file, ``--policy seat=mcts:N`` or ``sim --policy``.
The policy draws one number from the generator it is given and seeds the search with it.

**Reward.** 1 when the seat's side (:meth:`State.side_of`) is among the winners, else 0 (a deadlock is a loss for
every side: search plays to win). A seat without a side (the GM) plays the ruleset's heuristic.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from konflikt.analysis.matrix_game import solve_exact
from konflikt.analysis.search_policy import budget_after_colon, heuristic_of, legal_and_seed
from konflikt.core.actions import Action
from konflikt.core.messages import _ as gettext
from konflikt.core.ruleset import Policy
from konflikt.core.state import CHANCE, SIMULTANEOUS, TERMINAL, State
from konflikt.errors import KonfliktError

DEFAULT_ITERATIONS = 200
"""Iterations of one decision by default: enough to beat the heuristic in the small conflicts (docs/search.md)."""
MAX_ITERATIONS = 1_000_000
UCT_C = 1.0
"""The exploration constant of UCB1, for rewards in [0, 1]: OpenSpiel's default ``uct_c = 2`` for returns in
[−1, 1], on our half as wide scale. Larger explores more."""
MAX_ROLLOUT_STEPS = 20_000
"""A playout that has not ended after this many steps counts as nobody's win."""
OVERRIDE_Z = 2.0
"""The search leaves the heuristic's choice only for a choice whose mean result is better by this many standard
errors of the difference: with a small budget the most visited choice is often noise, and a policy that overrides
the heuristic on noise plays worse than the heuristic (seen on the robbers: 95% against 98.6% at 50 iterations)."""
MATRIX_DENOMINATOR = 10_000
"""The root matrix's estimated entries are rounded to this denominator before the exact solver (noise is far larger)."""


@dataclass
class _Stats:
    """One choice's statistics at a node: visits and the sum of the chooser's rewards."""

    n: int = 0
    total: float = 0.0

    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0


@dataclass
class _Node:
    """A node of the searching seat's tree: the state reached by a path of choices and chance outcomes from the root."""

    kind: str  # "decision", "fixed" (a seat without a side: its heuristic decides), "joint", "chance", "end"
    seats: tuple[str, ...] = ()
    actions: tuple[tuple[Action, ...], ...] = ()
    """Per seat (one for a decision, each waiting seat at a joint node): its legal actions, in the state's order."""
    stats: list[dict[Action, _Stats]] = field(default_factory=list)
    joint: dict[tuple[Action, ...], dict[str, float]] = field(default_factory=dict)
    """At a joint node: per joint choice, visits ``"n"`` and each side's summed reward (the root's payoff matrix)."""
    n: int = 0
    children: dict[Hashable, _Node] = field(default_factory=dict)


def _node_of(state: State) -> _Node:
    node = state.current_player()
    if node == TERMINAL:
        return _Node("end")
    if node == CHANCE:
        return _Node("chance")
    if node == SIMULTANEOUS:
        seats = state.waiting_for()
        actions = tuple(tuple(state.legal_actions(s)) for s in seats)
        return _Node("joint", seats, actions, [{a: _Stats() for a in acts} for acts in actions])
    if state.side_of(node) is None:
        return _Node("fixed", (node,))
    actions = (tuple(state.legal_actions(node)),)
    return _Node("decision", (node,), actions, [{a: _Stats() for a in actions[0]}])


def _rewards(state: State) -> dict[str, float]:
    """Side → 1 if it won, else 0 (at a terminal state)."""
    return {side: 1.0 for side in state.outcome().winners}


class Search:
    """One seat's search from one state: ``iterations`` playouts, then :meth:`decide`.

    Args:
        state: the state as the table has it (it is not changed; the search plays on forks of what ``seat`` sees).
        seat: the seat to decide for; it must be asked now (the current player, or waiting at a secret choice).
        rollout: the policy every seat plays after the tree (the ruleset's heuristic by default).
    """

    def __init__(self, state: State, seat: str, rng: np.random.Generator, rollout: Policy | None = None) -> None:
        self.root_state = state.seen_by(seat)
        self.root_state.quiet = True
        self.seat = seat
        self.rng = rng
        self.rollout = rollout or heuristic_of(state)
        self.root = _node_of(self.root_state)
        if seat not in self.root.seats or self.root.kind not in ("decision", "joint"):
            raise KonfliktError(gettext("{seat} has no decision to search now", seat=seat))
        self.sides: dict[str, str | None] = {}

    def side(self, seat: str) -> str | None:
        found = self.sides.get(seat, "?")
        if found == "?":
            found = self.sides[seat] = self.root_state.side_of(seat)
        return found

    def run(self, iterations: int) -> Search:
        for _ in range(iterations):
            self._iterate()
        return self

    # ---- one iteration -------------------------------------------------------------------------------------------
    def _iterate(self) -> None:
        state = self.root_state.fork()
        node = self.root
        path: list[tuple[_Node, tuple[Action, ...] | None]] = []
        while node.kind != "end":
            if node.kind == "chance":
                roll = state.pending_roll()
                assert roll is not None
                outcome = roll.sample(self.rng)
                state.apply_action(outcome, checked=False)
                path.append((node, None))
                key: Hashable = outcome
            elif node.kind == "fixed":
                seat = node.seats[0]
                action = self.rollout.choose(state, seat, self.rng)
                state.apply_action(action, checked=False)
                path.append((node, None))
                key = action
            else:
                choice = tuple(self._select(node, k) for k in range(len(node.seats)))
                if node.kind == "joint":
                    state.apply_actions(dict(zip(node.seats, choice, strict=True)), checked=False)
                else:
                    state.apply_action(choice[0], checked=False)
                path.append((node, choice))
                key = choice
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _node_of(state)
                node = child
                break  # expanded one node: play the rest out
            node = child
        rewards = self._playout(state)
        for visited, made in path:
            visited.n += 1
            if made is None:
                continue
            for k, action in enumerate(made):
                stats = visited.stats[k][action]
                stats.n += 1
                stats.total += rewards.get(self.side(visited.seats[k]) or "", 0.0)
            if visited.kind == "joint":
                cell = visited.joint.setdefault(made, {"n": 0.0})
                cell["n"] += 1
                for side, r in rewards.items():
                    cell[side] = cell.get(side, 0.0) + r

    def _select(self, node: _Node, k: int) -> Action:
        """UCB1 over seat ``k``'s choices at ``node`` (an untried choice first, in the state's order)."""
        stats = node.stats[k]
        best, best_score = node.actions[k][0], -math.inf
        log_n = math.log(max(node.n, 1))
        for action in node.actions[k]:
            s = stats[action]
            if s.n == 0:
                return action
            score = s.total / s.n + UCT_C * math.sqrt(log_n / s.n)
            if score > best_score:
                best, best_score = action, score
        return best

    def _playout(self, state: State) -> dict[str, float]:
        for _ in range(MAX_ROLLOUT_STEPS):
            node = state.current_player()
            if node == TERMINAL:
                return _rewards(state)
            if node == CHANCE:
                roll = state.pending_roll()
                assert roll is not None
                state.apply_action(roll.sample(self.rng), checked=False)
            elif node == SIMULTANEOUS:
                choices = {s: self.rollout.choose(state, s, self.rng) for s in state.waiting_for()}
                state.apply_actions(choices, checked=False)
            else:
                state.apply_action(self.rollout.choose(state, node, self.rng), checked=False)
        return {}

    # ---- the decision --------------------------------------------------------------------------------------------
    def choice_stats(self) -> list[tuple[Action, int, float]]:
        """The seat's choices at the root: (action, visits, mean reward), most visited first."""
        k = self.root.seats.index(self.seat)
        rows = [(a, s.n, s.mean()) for a, s in self.root.stats[k].items()]
        return sorted(rows, key=lambda row: (-row[1], -row[2]))

    def matrix(self) -> tuple[tuple[Action, ...], tuple[Action, ...], list[list[float]]] | None:
        """At a root secret choice of two seats of different sides: the seat's actions, the other's, and the mean
        win chance of the seat's side after each pair (a pair never tried: its row's mean). ``None`` otherwise."""
        root = self.root
        if root.kind != "joint" or len(root.seats) != 2:
            return None
        me = root.seats.index(self.seat)
        other = 1 - me
        side = self.side(self.seat)
        if side is None or self.side(root.seats[other]) == side:
            return None
        rows: list[list[float]] = []
        for mine in root.actions[me]:
            row: list[float] = []
            for theirs in root.actions[other]:
                pair = (mine, theirs) if me == 0 else (theirs, mine)
                cell = root.joint.get(pair)
                row.append(cell.get(side, 0.0) / cell["n"] if cell else math.nan)
            rows.append(row)
        for k, row in enumerate(rows):
            fill = root.stats[me][root.actions[me][k]].mean()
            rows[k] = [fill if math.isnan(x) else x for x in row]
        return root.actions[me], root.actions[other], rows

    def mixed_strategy(self) -> list[tuple[Action, Fraction]] | None:
        """At a root secret choice (see :meth:`matrix`): the seat's optimal mixed strategy of the estimated game."""
        found = self.matrix()
        if found is None:
            return None
        mine, _, rows = found
        exact = [[Fraction(x).limit_denominator(MATRIX_DENOMINATOR) for x in row] for row in rows]
        solution = solve_exact(exact)
        return [(a, Fraction(p)) for a, p in zip(mine, solution.row, strict=True)]

    def decide(self) -> Action:
        """At a root secret choice: a draw from the mixed strategy of the matrix game. Elsewhere the most visited
        choice, where its mean beats the heuristic's choice by :data:`OVERRIDE_Z` standard errors; else the
        heuristic's choice."""
        mix = self.mixed_strategy()
        if mix is not None:
            weights = np.array([float(p) for _, p in mix])
            return mix[int(self.rng.choice(len(mix), p=weights / weights.sum()))][0]
        best, n_best, mean_best = self.choice_stats()[0]
        usual = self.rollout.choose(self.root_state, self.seat, self.rng)
        stats = self.root.stats[0].get(usual)
        if stats is None or usual == best:
            return best
        return best if better(mean_best, n_best, stats.mean(), stats.n) else usual


def better(p: float, n: int, q: float, m: int) -> bool:
    """Whether a win rate ``p`` of ``n`` tries beats ``q`` of ``m`` by :data:`OVERRIDE_Z` standard errors of the
    difference (each variance at least that of one win or loss more, so that 0 of 3 is not certain)."""
    if m == 0:
        return True
    if n == 0:
        return False
    var = max(p * (1 - p), 1 / (n + 2)) / n + max(q * (1 - q), 1 / (m + 2)) / m
    return p - q > OVERRIDE_Z * math.sqrt(var)


class MctsPolicy:
    """The ``mcts`` policy: a fresh search for every decision, ``iterations`` playouts, seeded from ``rng``."""

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, name: str = "mcts") -> None:
        self.iterations = iterations
        self.name = name

    def choose(self, state: State, seat: str, rng: np.random.Generator) -> Action:
        legal, seed = legal_and_seed(state, seat, rng)
        rollout = heuristic_of(state)
        if state.side_of(seat) is None:
            return rollout.choose(state, seat, np.random.default_rng(seed))
        if len(legal) == 1:
            return legal[0]
        return Search(state, seat, np.random.default_rng(seed), rollout).run(self.iterations).decide()


def make_policy(name: str, argument: str | None) -> Policy:
    """``mcts`` or ``mcts:N`` (N iterations a decision): the registry's maker (``core.ruleset.SEARCH_POLICIES``)."""
    if argument is None:
        return MctsPolicy()
    iterations = budget_after_colon(name, argument, "iterations", MAX_ITERATIONS, 400)
    return MctsPolicy(iterations, f"{name}:{iterations}")
