"""Optimal play by expectimax over the State API: chance nodes averaged, decisions maximised, states memoised.

A :class:`Game` says who optimises: each *optimising* seat plays for its side, every other seat (the GM, a fixed
opponent) plays its policy. Two questions are this one machine:

* **best response** — one side's seats optimise, the other sides keep their policies (the heuristic): how much
  better could that side do against them?
* **the game value** — every side's seats optimise. With two sides each maximises P(own side wins) − P(other side
  wins): a zero-sum game (with no draws that is the same as maximising one's own win probability). Where "nobody"
  can win (a deadlock, both out) a draw counts for neither side: the value is still zero-sum in win − loss, and the
  win probabilities of the equilibrium found are reported beside it. With more than two sides the game is not
  zero-sum; each side then maximises its own win probability (backward induction; ties broken as below).

Ties between choices of equal value go to the choice the seat's reference policy (the heuristic) makes, then to the
first legal one: the optimal line differs from the heuristic only where it gains. Values are exact Fractions, or
floats with a bound on their absolute error (:attr:`Solution.error_bound`: every rounding on the way, summed along
the longest chain of them).

Secret simultaneous choices (Le våld's movement) are solved only where at most one side optimises there (a best
response to the others' policies); a node where two sides choose in secret is a matrix game, not expectimax.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

from konflikt.analysis.exact import Move, _apply, policy_distribution
from konflikt.core.actions import Action
from konflikt.core.messages import _ as gettext
from konflikt.core.ruleset import Policy
from konflikt.core.state import CHANCE, SIMULTANEOUS, TERMINAL, State
from konflikt.core.thousands import grouped
from konflikt.errors import KonfliktError

Num = Any
"""A probability: ``Fraction`` (exact) or ``float``."""
Vec = tuple[Num, ...]
"""Each side's win probability, in the order of :attr:`Game.sides`."""
UNIT_ROUNDOFF = 2.0**-53
DEFAULT_MAX_STATES = 2_000_000
"""The most states (memo entries) before the search gives up and says how far it got."""


class TooLargeToSolve(KonfliktError):
    """More states than the limit: optimal play is out of reach here (``seen`` is how many were met)."""

    def __init__(self, seen: int, limit: int, seconds: float | None = None) -> None:
        self.seen, self.limit = seen, limit
        why = (
            gettext("more than {states} states", states=grouped(limit))
            if seconds is None
            else gettext("more than {seconds} s of search", seconds=f"{seconds:g}")
        )
        super().__init__(
            gettext(
                "optimal play is out of reach: {why} (estimate: more than {states} states over the State API)",
                why=why,
                states=grouped(seen),
            )
        )


def zero_sum(sides: int) -> bool:
    """Whether the game between ``sides`` sides is zero-sum in the value maximised (two sides: win − loss)."""
    return sides == 2


def score(v: Vec, k: int) -> Num:
    """What side ``k`` maximises: P(own win) − P(other's win) with two sides, its own win probability else."""
    if len(v) == 2:
        return v[k] - v[1 - k]
    return v[k]


@dataclass
class Game:
    """Who plays how: ``sides`` in order, the optimising seats' side (index into ``sides``), everyone's policy.

    ``policies`` holds every seat's policy: the fixed seats play it, the optimising seats use it to break ties.
    """

    sides: tuple[str, ...]
    optimising: Mapping[str, int]
    policies: Mapping[str, Policy]
    exact: bool = True
    skip: frozenset[str] = frozenset()
    """Kinds of decision (an action's ``kind``) the optimising seats leave to their policy: choices that cannot
    change who wins but multiply the states (which consequence to write down)."""

    def optimises(self, state: State, seat: str) -> int | None:
        """The side ``seat`` optimises for at this decision, or ``None`` where it plays its policy."""
        side = self.optimising.get(seat)
        if side is None or not self.skip:
            return side
        legal = state.legal_actions(seat)
        return None if legal and legal[0].kind in self.skip else side

    def terminal(self, state: State) -> Vec:
        winners = state.outcome().winners
        one, zero = (Fraction(1), Fraction(0)) if self.exact else (1.0, 0.0)
        return tuple(one if side in winners else zero for side in self.sides)


@dataclass
class Solution:
    """The memo of one search: each state's value, and each optimising decision's best action with its Q-values."""

    game: Game
    values: dict[Hashable, Vec] = field(default_factory=dict)
    best: dict[Hashable, Action] = field(default_factory=dict)
    errors: dict[Hashable, float] = field(default_factory=dict)
    """Each state's bound on the absolute error of its values (floats only)."""

    @property
    def error_bound(self) -> float:
        return max(self.errors.values(), default=0.0)


class Expectimax:
    """The search (see the module): :meth:`value` of a state, :meth:`q_values` of a decision's choices."""

    def __init__(self, game: Game, max_states: int = DEFAULT_MAX_STATES, max_seconds: float | None = None) -> None:
        self.game = game
        self.max_seconds = max_seconds
        self._deadline: float | None = None
        self.solution = Solution(game)
        self.max_states = max_states
        self._open: set[Hashable] = set()
        self._one: Num = Fraction(1) if game.exact else 1.0

    def _num(self, p: Fraction) -> Num:
        return p if self.game.exact else float(p)

    def value(self, state: State) -> Vec:
        """Each side's win probability from ``state`` on, under the game's play (``state`` is not changed)."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 200_000))
        if self.max_seconds is not None:
            self._deadline = time.monotonic() + self.max_seconds
        try:
            return self._value(state)
        finally:
            sys.setrecursionlimit(limit)
            self._deadline = None

    def _value(self, state: State) -> Vec:
        key = state.key()
        memo = self.solution.values
        found = memo.get(key)
        if found is not None:
            return found
        if key in self._open:
            raise KonfliktError(
                "the conflict can come back to a state it has been in: expectimax needs a game that always moves "
                "on (a round cap)"
            )
        if len(memo) >= self.max_states:
            raise TooLargeToSolve(len(memo), self.max_states)
        if self._deadline is not None and len(memo) % 64 == 0 and time.monotonic() > self._deadline:
            raise TooLargeToSolve(len(memo), self.max_states, self.max_seconds)
        self._open.add(key)
        try:
            v, err = self._compute(state, key)
        finally:
            self._open.discard(key)
        memo[key] = v
        if not self.game.exact:
            self.solution.errors[key] = err
        return v

    def _child(self, state: State, move: Move) -> tuple[Vec, float]:
        """The value of the state after ``move``: certain moves of the fixed seats (and one-outcome rolls) are
        applied in place first (they are no choice of anyone's), and an end is read off without a memo entry."""
        child = state.fork()
        _apply(child, move)
        for _ in range(10_000):
            node = child.current_player()
            if node == TERMINAL:
                return self.game.terminal(child), 0.0
            if node in (CHANCE, SIMULTANEOUS) or self.game.optimises(child, node) is not None:
                break
            spread = policy_distribution(self.game.policies[node], child, node)
            if len(spread) != 1:
                break
            child.apply_action(spread[0][0], checked=False)
        key = child.key()
        v = self.solution.values.get(key)
        if v is None:
            v = self._value(child)
        return v, self.solution.errors.get(key, 0.0) if not self.game.exact else 0.0

    def _mix(self, parts: Sequence[tuple[Fraction, Vec, float]]) -> tuple[Vec, float]:
        """Σ p·v over the branches, and the error bound: the children's worst, plus this sum's roundings."""
        n = len(self.game.sides)
        total = [self._num(Fraction(0))] * n
        worst = 0.0
        for p, v, err in parts:
            q = self._num(p)
            for k in range(n):
                total[k] += q * v[k]
            worst = max(worst, err)
        if not self.game.exact:
            worst += (len(parts) + 2) * UNIT_ROUNDOFF * 1.01
        return tuple(total), worst

    def _compute(self, state: State, key: Hashable) -> tuple[Vec, float]:
        node = state.current_player()
        if node == TERMINAL:
            return self.game.terminal(state), 0.0
        if node == CHANCE:
            parts = []
            for outcome, p in state.chance_outcomes():
                if p:
                    v, err = self._child(state, (0, outcome))
                    parts.append((p, v, err))
            return self._mix(parts)
        if node == SIMULTANEOUS:
            return self._simultaneous(state, key)
        side = self.game.optimises(state, node)
        if side is None:
            parts = []
            for a, p in policy_distribution(self.game.policies[node], state, node):
                v, err = self._child(state, (2, a))
                parts.append((p, v, err))
            return self._mix(parts)
        q = self._q(state, node)
        best = self._pick(state, node, side, q)
        self.solution.best[key] = best
        return next((v, err) for a, v, err in q if a == best)

    def _q(self, state: State, seat: str) -> list[tuple[Action, Vec, float]]:
        out = []
        for a in state.legal_actions(seat):
            v, err = self._child(state, (2, a))
            out.append((a, v, err))
        return out

    def _pick(self, state: State, seat: str, side: int, q: Sequence[tuple[Action, Vec, float]]) -> Action:
        """The best choice for ``side``; a tie goes to the seat's own policy's choice, then to the first listed."""
        top = max(score(v, side) for _, v, _ in q)
        at_top = [a for a, v, _ in q if score(v, side) == top]
        if len(at_top) > 1:
            policy = self.game.policies.get(seat)
            if policy is not None:
                try:
                    spread = policy_distribution(policy, state, seat)
                except KonfliktError:
                    spread = []
                for a, _ in spread:
                    if a in at_top:
                        return a
        return at_top[0]

    def q_values(self, state: State, seat: str) -> list[tuple[Action, Vec]]:
        """Each legal choice of ``seat`` now with the sides' win probabilities when it is taken (then the game's
        play), best for the seat's side first (an optimising seat; else in the order listed)."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 200_000))
        try:
            q = self._q(state, seat)
        finally:
            sys.setrecursionlimit(limit)
        side = self.game.optimising.get(seat)
        rows = [(a, v) for a, v, _ in q]
        if side is not None:
            rows.sort(key=lambda row: -score(row[1], side))
        return rows

    def _simultaneous(self, state: State, key: Hashable) -> tuple[Vec, float]:
        seats = state.waiting_for()
        mine = [s for s in seats if s in self.game.optimising]
        sides = {self.game.optimising[s] for s in mine}
        if len(sides) > 1:
            raise KonfliktError(
                "two sides choose in secret here (a simultaneous node): that is a matrix game, which expectimax does "
                "not solve; solve one side's best response instead"
            )
        others = [s for s in seats if s not in self.game.optimising]
        spreads = [policy_distribution(self.game.policies[s], state, s) for s in others]
        own = [list(state.legal_actions(s)) for s in mine]
        results: list[tuple[tuple[Action, ...], Vec, float]] = []
        for choice in product(*own):
            parts = []
            for combo in product(*spreads):
                p = Fraction(1)
                for _, w in combo:
                    p *= w
                joint = {
                    **dict(zip(mine, choice, strict=True)),
                    **{s: a for s, (a, _) in zip(others, combo, strict=True)},
                }
                v, err = self._child(state, (1, joint))
                parts.append((p, v, err))
            v, err = self._mix(parts)
            results.append((choice, v, err))
        if not mine:
            return results[0][1], results[0][2]
        side = next(iter(sides))
        top = max(score(v, side) for _, v, _ in results)
        choice, v, err = next(r for r in results if score(r[1], side) == top)
        for s, a in zip(mine, choice, strict=True):
            self.solution.best[(key, s)] = a
        return v, err
