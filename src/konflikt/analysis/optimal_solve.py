"""``konflikt solve``: each side's win probability under optimal play beside the heuristic's, and where it loses.

One :class:`Solver` per (scenario, rule options) answers every question about it: both sides on their heuristic,
each side's best response to the other's heuristic, the game value with both optimal, each choice's value at a
state (``advise``), and the optimal policy's choice. It uses the ruleset's decision-exposing compact game where it
has one (:class:`konflikt.core.ruleset.RoundGame`, presja) and expectimax over the State API otherwise
(:mod:`.optimal`). A solved game is kept on disk by the scenario's digest (:mod:`.optimal_cache`).
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from konflikt.analysis import optimal_model as om
from konflikt.analysis.exact import _apply, branches, policy_distribution
from konflikt.analysis.optimal import Expectimax, Game, TooLargeToSolve, score
from konflikt.core.actions import Action
from konflikt.core.capabilities import DescribesStates, NamesRounds
from konflikt.core.messages import _
from konflikt.core.ruleset import Policy, RoundGame
from konflikt.core.scenario import Scenario
from konflikt.core.state import GM, State
from konflikt.errors import KonfliktError

STATE_LIMIT = 300_000
"""States the State-API expectimax may memoise before ``solve`` refuses (about a minute of work)."""
BRIDGE_STEPS = 10_000
TOP_LOSSES = 8


def objective(sides: int) -> str:
    """What each side maximises, in words (the issue asks to say it plainly when the game is not zero-sum)."""
    if sides == 2:
        return (
            "zero-sum: each side maximises P(own side wins) − P(other side wins); where nobody can win (a deadlock, "
            "both out) a draw counts for neither, so that is not quite 'maximise the own win probability'"
        )
    return (
        f"not zero-sum ({sides} sides): each side maximises its own win probability, backward induction, ties to "
        "the heuristic's choice"
    )


@dataclass
class SideRow:
    """One side's win probability: both on the heuristic, its best response, both optimal; the heuristic's gap."""

    side: str
    name: str
    heuristic: float
    best_response: float
    optimal: float
    exact: dict[str, Fraction] = field(default_factory=dict)

    @property
    def gap(self) -> float:
        """How much more this side wins by playing its best response instead of the heuristic (both against the
        other side's heuristic)."""
        return self.best_response - self.heuristic


@dataclass
class Loss:
    """A decision where the heuristic gives away win probability (against the other side's heuristic)."""

    side: str
    seat: str
    where: str
    heuristic: str
    optimal: str
    loss: float
    """Win − loss probability given away at this state, in the side's score."""
    reach: float
    """How likely heuristic play is to meet this state."""

    @property
    def weight(self) -> float:
        return self.loss * self.reach


@dataclass
class SolveReport:
    title: str
    method: str
    scope: str
    objective: str
    rows: list[SideRow]
    losses: list[Loss]
    error_bound: float
    states: int
    seconds: float
    nobody: dict[str, float] = field(default_factory=dict)

    @property
    def zero_sum(self) -> bool:
        """Whether one side's win is exactly the other's loss: two sides and nobody-wins never met (under both
        plays solved); then maximising one's own win chance is minimising the other's."""
        return len(self.rows) == 2 and max(self.nobody.values(), default=0.0) <= self.error_bound + 1e-12

    def zero_sum_words(self) -> str:
        if self.zero_sum:
            return "zero-sum: yes, one side always wins (no draw, no deadlock), so P(win) + P(other wins) = 1"
        if len(self.rows) != 2:
            return f"zero-sum: no, {len(self.rows)} sides each play for their own win"
        return (
            "zero-sum in win − loss only: nobody wins with chance "
            f"{self.nobody.get('heuristic', 0):.3%} (heuristic) / {self.nobody.get('optimal', 0):.3%} (optimal)"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.title,
            "method": self.method,
            "scope": self.scope,
            "objective": self.objective,
            "zero_sum": self.zero_sum,
            "error_bound": self.error_bound,
            "states": self.states,
            "seconds": round(self.seconds, 2),
            "sides": [
                {
                    "side": r.side,
                    "name": r.name,
                    "heuristic": r.heuristic,
                    "best_response": r.best_response,
                    "optimal": r.optimal,
                    "gap": r.gap,
                    **({"exact": {k: str(v) for k, v in r.exact.items()}} if r.exact else {}),
                }
                for r in self.rows
            ],
            "nobody": self.nobody,
            "losses": [
                {
                    "side": x.side,
                    "seat": x.seat,
                    "where": x.where,
                    "heuristic": x.heuristic,
                    "optimal": x.optimal,
                    "loss": x.loss,
                    "reach": x.reach,
                }
                for x in self.losses
            ],
        }


def side_names(scenario: Scenario) -> list[tuple[str, str]]:
    return [(s.id, s.name or s.id) for s in scenario.sides]


def seat_sides(scenario: Scenario) -> dict[str, int]:
    """Each participant's side, as an index into the scenario's sides."""
    return {p.id: i for i, s in enumerate(scenario.sides) for p in s.participants}


def fixed_policies(scenario: Scenario, state: State) -> dict[str, Policy]:
    """The policies of the seats no side optimises (the GM: its scenario policy, the heuristic for a person or for
    optimal play), and every participant's heuristic (the reference optimal play breaks ties towards)."""
    ruleset = scenario.ruleset
    base = "heuristic" if "heuristic" in ruleset.policy_names() else "random"
    gm = scenario.gm if scenario.gm in ruleset.policies or scenario.gm == "random" else base
    out: dict[str, Policy] = {seat: ruleset.policy(base) for seat in state.seats()}
    out[GM] = ruleset.policy(gm)
    return out


class Solver:
    """Optimal play for one scenario under one set of rule options (see the module)."""

    def __init__(
        self,
        scenario: Scenario,
        opening: State,
        max_states: int = STATE_LIMIT,
        max_seconds: float | None = None,
        explore: bool = True,
    ) -> None:
        self.scenario, self.opening = scenario, opening
        self.sides = tuple(s.id for s in scenario.sides)
        self.side_of = seat_sides(scenario)
        self.policies = fixed_policies(scenario, opening)
        self.max_states, self.max_seconds = max_states, max_seconds
        self.game: RoundGame | None = None
        self.explored: om.Explored | None = None
        self.root: tuple[int, int] | None = None
        self._solutions: dict[tuple[tuple[str, int], ...], om.GameSolution] = {}
        self._searches: dict[tuple[tuple[str, int], ...], Expectimax] = {}
        self.seconds = 0.0
        self._start: tuple[Hashable, int, tuple[Hashable, ...]] | None = None
        self._prepare(explore)

    def explore(self) -> None:
        """Explore the round game now (a solver made with ``explore=False`` whose cache did not fit)."""
        if self.game is not None and self.explored is None and self._start is not None:
            began = time.process_time()
            self.explored = om.explore(self.game, self._start[0], self.sides, horizon=self._start[1])
            self.root = (self.explored.index[self._start[0]], self._start[1])
            self.seconds += time.process_time() - began

    # ---- which machinery ---------------------------------------------------------------------------------------
    def cache_payload(self) -> dict[str, Any]:
        """What the optimal policy needs again: the game's equilibrium (or the State-API search's memo)."""
        everyone = list(range(len(self.sides)))
        if self.explored is not None:
            sol = self.game_solution(everyone)
            explored = replace(self.explored, game=None)  # type: ignore[arg-type]
            return {
                "explored": explored,
                "root": self.root,
                "values": sol.values,
                "picks": sol.picks,
                "bound": sol.error_bound,
            }
        search = self.search(everyone)
        search.value(self.opening)
        return {"memo": replace(search.solution, game=None)}  # type: ignore[arg-type]

    def restore(self, payload: dict[str, Any]) -> bool:
        """Take a cached solution back (see :meth:`cache_payload`); ``False`` where it does not fit."""
        everyone = list(range(len(self.sides)))
        try:
            if self.game is not None and "explored" in payload:
                explored = replace(payload["explored"], game=self.game)
                self.explored, self.root = explored, payload["root"]
                opt = self.optimising(everyone)
                self._solutions[tuple(sorted(opt.items()))] = om.GameSolution(
                    explored, opt, payload["values"], payload["picks"], payload["bound"]
                )
                return True
            if self.game is None and "memo" in payload:
                search = self.search(everyone)
                memo = payload["memo"]
                search.solution = replace(memo, game=search.game)
                return True
        except Exception:  # a cache of another shape: solve again
            return False
        return False

    def _prepare(self, explore: bool = True) -> None:
        factory = self.scenario.ruleset.round_game
        if factory is None:
            return
        state = self.opening.fork()
        for _step in range(BRIDGE_STEPS):
            made = factory(state, self.policies)
            if isinstance(made, str):
                return
            if made is not None:
                where = made.start(state)
                if where is None or where[2]:
                    return
                began = time.process_time()
                self.game = made
                if not explore:
                    self._start = where
                    return
                self.explored = om.explore(made, where[0], self.sides, horizon=where[1])
                self.root = (self.explored.index[where[0]], where[1])
                self.seconds += time.process_time() - began
                return
            ways = branches(state, self.policies)
            if len(ways) != 1:
                return  # the opening branches before the game starts: the State API answers
            _apply(state, ways[0][1])

    @property
    def method(self) -> str:
        return "round game" if self.game is not None else "state"

    @property
    def scope(self) -> str:
        if self.game is not None:
            return self.game.scope
        return "optimised: every decision of the sides' seats; the GM plays its policy"

    # ---- solving -----------------------------------------------------------------------------------------------
    def optimising(self, sides: Sequence[int]) -> dict[str, int]:
        return {seat: k for seat, k in self.side_of.items() if k in sides}

    def game_solution(self, sides: Sequence[int]) -> om.GameSolution:
        assert self.explored is not None and self.root is not None
        opt = self.optimising(sides)
        key = tuple(sorted(opt.items()))
        found = self._solutions.get(key)
        if found is None:
            began = time.process_time()
            found = self._solutions[key] = om.solve(self.explored, opt, self.root[1])
            self.seconds += time.process_time() - began
        return found

    def search(self, sides: Sequence[int], exact: bool = False) -> Expectimax:
        opt = self.optimising(sides)
        key = (*sorted(opt.items()), ("exact", int(exact)))
        found = self._searches.get(key)
        if found is None:
            found = self._searches[key] = Expectimax(
                Game(self.sides, opt, self.policies, exact), self.max_states, self.max_seconds
            )
        return found

    def values(self, sides: Sequence[int], exact: bool = False, uniform: Sequence[int] = ()) -> tuple[Any, ...]:
        """Each side's win probability from the opening when the seats of ``sides`` optimise (and those of
        ``uniform`` choose at random: in a round game among its choices only, the rest heuristic)."""
        if self.explored is not None and self.root is not None:
            if uniform:
                seats = [seat for seat, k in self.side_of.items() if k in uniform]
                sol = om.solve(self.explored, self.optimising(sides), self.root[1], seats)
            else:
                sol = self.game_solution(sides)
            return tuple(float(x) for x in sol.value(*self.root))
        if uniform:
            random = self.scenario.ruleset.policy("random")
            policies = {**self.policies, **{s: random for s, k in self.side_of.items() if k in uniform}}
            search = Expectimax(Game(self.sides, self.optimising(sides), policies, exact), self.max_states)
            return search.value(self.opening)
        search = self.search(sides, exact)
        began = time.process_time()
        try:
            return search.value(self.opening)
        finally:
            self.seconds += time.process_time() - began

    def error_bound(self) -> float:
        bounds = [s.error_bound for s in self._solutions.values()]
        bounds += [s.solution.error_bound for s in self._searches.values()]
        return max(bounds, default=0.0)

    def states(self) -> int:
        if self.explored is not None:
            return len(self.explored.states)
        return max((len(s.solution.values) for s in self._searches.values()), default=0)

    # ---- at a state: the optimal choice, and each choice's value -----------------------------------------------
    def choose(self, state: State, seat: str) -> Action | None:
        """The equilibrium's choice for ``seat`` at ``state`` (``None``: not one of the game's decisions)."""
        side = self.side_of.get(seat)
        if side is None:
            return None
        everyone = list(range(len(self.sides)))
        if self.game is not None:
            where = self._locate(state)
            if where is None:
                return None
            u, rounds, made = where
            if self.game.turns[len(made)] != seat:
                return None
            choice = om.best_choice(self.game_solution(everyone), u, rounds, made)
            return None if choice is None else self.game.action(state, seat, choice)
        search = self.search(everyone)
        search.value(state)
        return search.solution.best.get(state.key())

    def _locate(self, state: State) -> tuple[int, int, tuple[Hashable, ...]] | None:
        assert self.game is not None and self.explored is not None
        where = self.game.start(state)
        if where is None:
            return None
        c, rounds, made = where
        u = self.explored.index.get(c)
        if u is None or len(made) >= len(self.game.turns) or rounds < 1:
            return None
        return u, rounds, made

    def advise(self, state: State, seat: str) -> list[tuple[Action, dict[str, float]]] | None:
        """Each legal choice of ``seat`` with each side's win probability when it is taken and both sides play
        optimally after, best for the seat's side first; ``None`` where this is no decision of the game."""
        side = self.side_of.get(seat)
        if side is None:
            return None
        everyone = list(range(len(self.sides)))
        rows: list[tuple[Action, tuple[float, ...]]] = []
        if self.game is not None:
            where = self._locate(state)
            if where is None or self.game.turns[len(where[2])] != seat:
                return None
            u, rounds, made = where
            for choice, v in om.q_values(self.game_solution(everyone), u, rounds, made):
                rows.append((self.game.action(state, seat, choice), tuple(float(x) for x in v)))
        else:
            search = self.search(everyone)
            rows = [(a, tuple(float(x) for x in v)) for a, v in search.q_values(state, seat)]
        rows.sort(key=lambda row: -float(score(row[1], side)))
        return [(a, dict(zip(self.sides, v, strict=True))) for a, v in rows]

    # ---- where the heuristic loses -----------------------------------------------------------------------------
    def losses(self, side: int) -> list[Loss]:
        """The decisions of ``side`` where its heuristic gives away most against the other side's heuristic,
        weighted by how likely heuristic play is to meet them."""
        if self.game is None or self.explored is None or self.root is None:
            return self._state_losses(side)
        ex, game = self.explored, self.game
        best = self.game_solution([side])
        plain = self.game_solution([])
        met = om.reach(plain, *self.root)
        numbered = _round_name(game) is not None
        if not numbered:  # steps are decisions (fimbulfrost): a state is one situation whatever the steps left
            first: dict[int, int] = {}
            merged: dict[tuple[int, int], float] = {}
            for (u, rounds), p in met.items():
                at = (u, first.setdefault(u, rounds))
                merged[at] = merged.get(at, 0.0) + p
            met = merged
        out: list[Loss] = []
        for (u, rounds), p in met.items():
            if u in ex.ended or p < 1e-9:
                continue
            k = ex.node[0][(u, ())]
            made: tuple[Hashable, ...] = ()
            for level, seat in enumerate(game.turns):
                options = om.q_values(best, u, rounds, made)
                if not options:
                    break
                chosen = ex.choice[level + 1][int(plain.picks[rounds][level][k])]
                if self.side_of.get(seat) == side:
                    scores = {c: float(score(tuple(v), side)) for c, v in options}
                    top = max(scores, key=lambda c: scores[c])
                    gap = scores[top] - scores[chosen]
                    if gap > 1e-9:
                        where = _describe_state(game, ex.states[u])
                        if numbered:
                            name = _round_name(game)
                            where = f"{name} {self.root[1] - rounds + 1}: {where}"
                        out.append(
                            Loss(self.sides[side], seat, where, game.describe(chosen), game.describe(top), gap, p)
                        )
                k = int(plain.picks[rounds][level][k])
                if chosen is None:
                    break
                made = (*made, chosen)
        out.sort(key=lambda x: -x.weight)
        return out[:TOP_LOSSES]

    def _state_losses(self, side: int) -> list[Loss]:
        """The same over the State API: heuristic play walked (states merged by key), each decision of ``side``
        compared with its best response's choice."""
        best = self.search([side])
        best.value(self.opening)
        plain = self.policies
        mass: dict[Hashable, tuple[State, float]] = {self.opening.key(): (self.opening, 1.0)}
        out: list[Loss] = []
        frontier = [self.opening.key()]
        seen = 0
        while frontier and seen < 20_000:
            key = frontier.pop(0)
            state, p = mass.pop(key)
            seen += 1
            node = state.current_player()
            if state.is_terminal():
                continue
            if self.side_of.get(node) == side:
                q = {a: float(score(v, side)) for a, v in best.q_values(state, node)}
                mine = policy_distribution(plain[node], state, node)[0][0]
                top = max(q, key=lambda a: q[a])
                if q[top] - q[mine] > 1e-9:
                    out.append(
                        Loss(
                            self.sides[side],
                            node,
                            _state_words(state),
                            state.describe_action(node, mine),
                            state.describe_action(node, top),
                            q[top] - q[mine],
                            p,
                        )
                    )
            for w, move in branches(state, plain):
                child = state.fork()
                _apply(child, move)
                ck = child.key()
                if ck in mass:
                    mass[ck] = (mass[ck][0], mass[ck][1] + p * float(w))
                else:
                    mass[ck] = (child, p * float(w))
                    frontier.append(ck)
        out.sort(key=lambda x: -x.weight)
        return out[:TOP_LOSSES]

    # ---- the report --------------------------------------------------------------------------------------------
    def report(self, exact: bool = False) -> SolveReport:
        began = time.monotonic()
        n = len(self.sides)
        heuristic = self.values([], exact)
        both = self.values(list(range(n)), exact)
        rows: list[SideRow] = []
        for k, (side, name) in enumerate(side_names(self.scenario)):
            br = self.values([k], exact)
            exact_values = (
                {"heuristic": heuristic[k], "best_response": br[k], "optimal": both[k]}
                if isinstance(heuristic[k], Fraction)
                else {}
            )
            rows.append(SideRow(side, name, float(heuristic[k]), float(br[k]), float(both[k]), exact_values))
        losses = [x for k in range(n) for x in self.losses(k)]
        losses.sort(key=lambda x: -x.weight)
        nobody = {
            "heuristic": 1 - sum(float(x) for x in heuristic),
            "optimal": 1 - sum(float(x) for x in both),
        }
        return SolveReport(
            self.scenario.title,
            self.method,
            self.scope,
            objective(n),
            rows,
            losses[:TOP_LOSSES],
            self.error_bound(),
            self.states(),
            self.seconds + (time.monotonic() - began) * 0,
            nobody,
        )


def _describe_state(game: RoundGame, compact: Hashable) -> str:
    return str(game.describe_state(compact)) if isinstance(game, DescribesStates) else repr(compact)


def _round_name(game: RoundGame) -> str | None:
    """What a round of the game is called (its unit unless it names its rounds; ``None``: steps, not rounds)."""
    return game.round_name if isinstance(game, NamesRounds) else game.unit


def _state_words(state: State) -> str:
    """A state in the system's words: its status table's rows, shortened."""
    rows = state.status()
    parts = []
    for row, cols in rows.items():
        parts.append(f"{row}: " + ", ".join(f"{k} {v}" for k, v in list(cols.items())[:4]))
    return "; ".join(parts)[:200]


def solver_for(
    scenario: Scenario, state: State, max_states: int = STATE_LIMIT, max_seconds: float | None = None
) -> Solver:
    """A :class:`Solver`; ``state`` is the opening under the rule options asked for."""
    return Solver(scenario, state, max_states, max_seconds)


def out_of_reach(scenario: Scenario, exc: TooLargeToSolve | KonfliktError) -> str:
    name = scenario.title
    return _("optimal play for {name} is out of reach: {reason}", name=repr(name), reason=exc)


def advice(scenario: Scenario, state: State, seat: str) -> tuple[list[tuple[Action, float]] | None, str]:
    """``advise`` at a prompt: each legal choice of ``seat`` with its side's win probability when both sides play
    optimally after it, best first; or ``None`` and why not (out of reach, or a decision the game leaves to the
    heuristic)."""
    from konflikt.analysis.optimal_policy import solver_for as solved

    side = seat_sides(scenario).get(seat)
    if side is None:
        return None, _("the GM's decisions are not optimised")
    try:
        solver = solved(scenario, state)
        rows = solver.advise(state, seat)
    except KonfliktError as exc:
        return None, str(exc).split(";")[0]
    if rows is None:
        return None, _("this decision is played by the heuristic in the solved game ({scope})", scope=solver.scope)
    mine = solver.sides[side]
    return [(a, v[mine]) for a, v in rows], ""


__all__ = ["Loss", "SideRow", "SolveReport", "Solver", "objective", "out_of_reach", "solver_for"]
_USED = (Mapping, np)
