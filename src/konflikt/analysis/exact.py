"""Exact outcome distributions of whole conflicts, over chance outcomes and policy choices, as Fractions.

The reachable states are explored once, merged by ``State.key()``; the graph is split into strongly connected
components (Tarjan) and solved from the end backwards. A component without a cycle is a plain weighted sum; a
component with cycles (an exchange where nothing happens) is an absorbing Markov chain, solved exactly by Gaussian
elimination over Fractions. Policies must be deterministic, or say how they randomise (``action_distribution``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any, Protocol

import numpy as np

from konflikt.core.actions import Action
from konflikt.core.errors import KonfliktError
from konflikt.core.ruleset import Policy, RandomPolicy
from konflikt.core.state import CHANCE, SIMULTANEOUS, State

Label = Hashable
Value = dict[Label, Fraction]

DEFAULT_MAX_STATES = 250_000


class StateSpaceTooLarge(KonfliktError):
    """More states than the limit: exact analysis would not finish in reasonable time; use ``konflikt sim``."""

    def __init__(self, explored: int, frontier: int, limit: int) -> None:
        self.explored, self.frontier, self.limit = explored, frontier, limit
        super().__init__(
            f"too many states for exact odds: over {limit:,} explored with {frontier:,} still open "
            f"(estimate: more than {explored + frontier:,}); use 'konflikt sim' for a Monte Carlo estimate"
        )


class DistributionPolicy(Protocol):
    def action_distribution(self, state: State, seat: str) -> list[tuple[Action, Fraction]]: ...


class _NoRandomness(np.random.Generator):
    """A generator that refuses to be used: proves a policy is deterministic where it is called."""

    def __init__(self) -> None:
        super().__init__(np.random.PCG64(0))

    def __getattribute__(self, name: str) -> Any:
        if name in ("random", "integers", "choice", "uniform", "shuffle", "permutation", "normal"):
            raise KonfliktError("policy uses chance")
        return super().__getattribute__(name)


def policy_distribution(policy: Policy, state: State, seat: str) -> list[tuple[Action, Fraction]]:
    """How a policy chooses here, as (action, probability)."""
    if isinstance(policy, RandomPolicy):
        legal = list(state.legal_actions(seat))
        return [(a, Fraction(1, len(legal))) for a in legal]
    spread = getattr(policy, "action_distribution", None)
    if spread is not None:
        result: list[tuple[Action, Fraction]] = spread(state, seat)
        return result
    try:
        return [(policy.choose(state, seat, _NoRandomness()), Fraction(1))]
    except KonfliktError as exc:
        if "policy uses chance" in str(exc):
            raise KonfliktError(
                f"policy {policy.name!r} of {seat} draws random numbers here; exact odds need a deterministic "
                "policy or one with action_distribution"
            ) from None
        raise


@dataclass
class Graph:
    """Explored states: transitions between keys, and terminal labels."""

    edges: dict[Hashable, list[tuple[Fraction, Hashable]]] = field(default_factory=dict)
    terminal: dict[Hashable, Label] = field(default_factory=dict)
    root: Hashable = None


def successors(state: State, policies: Mapping[str, Policy]) -> list[tuple[Fraction, State]]:
    """Every next state with its probability (chance outcomes, policy choices, joint secret choices)."""
    node = state.current_player()
    out: list[tuple[Fraction, State]] = []
    if node == CHANCE:
        for outcome, p in state.chance_outcomes():
            child = state.fork()
            child.apply_action(outcome, checked=False)
            out.append((p, child))
    elif node == SIMULTANEOUS:
        seats = state.waiting_for()
        spreads = [policy_distribution(policies[s], state, s) for s in seats]
        for combo in product(*spreads):
            child = state.fork()
            child.apply_actions({s: a for s, (a, _) in zip(seats, combo, strict=True)}, checked=False)
            p = Fraction(1)
            for _, q in combo:
                p *= q
            out.append((p, child))
    else:
        for action, p in policy_distribution(policies[node], state, node):
            child = state.fork()
            child.apply_action(action, checked=False)
            out.append((p, child))
    return out


def explore(root: State, policies: Mapping[str, Policy], label: Callable[[State], Label], max_states: int) -> Graph:
    graph = Graph(root=root.key())
    frontier: list[State] = [root.fork()]
    seen: set[Hashable] = {graph.root}
    while frontier:
        state = frontier.pop()
        key = state.key()
        if state.is_terminal():
            graph.terminal[key] = label(state)
            continue
        merged: dict[Hashable, Fraction] = {}
        for p, child in successors(state, policies):
            ck = child.key()
            merged[ck] = merged.get(ck, Fraction(0)) + p
            if ck not in seen:
                seen.add(ck)
                frontier.append(child)
                if len(seen) > max_states:
                    raise StateSpaceTooLarge(len(seen) - len(frontier), len(frontier), max_states)
        graph.edges[key] = list((p, k) for k, p in merged.items())
    return graph


def _components(graph: Graph) -> list[list[Hashable]]:
    """Tarjan's strongly connected components, iteratively; returned children-first (reverse topological)."""
    index: dict[Hashable, int] = {}
    low: dict[Hashable, int] = {}
    on_stack: set[Hashable] = set()
    stack: list[Hashable] = []
    result: list[list[Hashable]] = []
    counter = 0
    for start in list(graph.edges) + list(graph.terminal):
        if start in index:
            continue
        work: list[tuple[Hashable, int]] = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            children = graph.edges.get(node, [])
            recurse = False
            while i < len(children):
                child = children[i][1]
                i += 1
                if child not in index:
                    work.append((node, i))
                    work.append((child, 0))
                    recurse = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if recurse:
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                result.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return result


def _add(target: Value, scale: Fraction, value: Value) -> None:
    for k, p in value.items():
        target[k] = target.get(k, Fraction(0)) + scale * p


def solve(graph: Graph) -> Value:
    """The outcome distribution from the root."""
    values: dict[Hashable, Value] = {k: {label: Fraction(1)} for k, label in graph.terminal.items()}
    for component in _components(graph):
        members = set(component)
        if len(component) == 1 and component[0] in values:
            continue
        if len(component) == 1 and all(k != component[0] for _, k in graph.edges[component[0]]):
            node = component[0]
            total: Value = {}
            for p, child in graph.edges[node]:
                _add(total, p, values[child])
            values[node] = total
            continue
        values.update(_solve_cycle(graph, component, members, values))
    return values[graph.root]


def _solve_cycle(
    graph: Graph, component: list[Hashable], members: set[Hashable], values: Mapping[Hashable, Value]
) -> dict[Hashable, Value]:
    """x_i = Σ_j Q_ij x_j + r_i inside one component: (I − Q) x = r, by Gauss–Jordan over Fractions."""
    order = {k: i for i, k in enumerate(component)}
    n = len(component)
    labels: list[Label] = []
    rhs_rows: list[Value] = []
    matrix = [[Fraction(0)] * n for _ in range(n)]
    for k in component:
        i = order[k]
        matrix[i][i] += 1
        rhs: Value = {}
        for p, child in graph.edges[k]:
            if child in members:
                matrix[i][order[child]] -= p
            else:
                _add(rhs, p, values[child])
        rhs_rows.append(rhs)
        for label in rhs:
            if label not in labels:
                labels.append(label)
    rhs_matrix = [[row.get(label, Fraction(0)) for label in labels] for row in rhs_rows]
    for col in range(n):
        pivot = next((r for r in range(col, n) if matrix[r][col] != 0), None)
        if pivot is None:
            raise KonfliktError("the conflict can loop forever with probability 1 from some state: no exact outcome")
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        rhs_matrix[col], rhs_matrix[pivot] = rhs_matrix[pivot], rhs_matrix[col]
        inv = 1 / matrix[col][col]
        matrix[col] = [v * inv for v in matrix[col]]
        rhs_matrix[col] = [v * inv for v in rhs_matrix[col]]
        for r in range(n):
            factor = matrix[r][col]
            if r != col and factor != 0:
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[col], strict=True)]
                rhs_matrix[r] = [a - factor * b for a, b in zip(rhs_matrix[r], rhs_matrix[col], strict=True)]
    return {
        k: {label: rhs_matrix[order[k]][j] for j, label in enumerate(labels) if rhs_matrix[order[k]][j]}
        for k in component
    }


def outcome_label(state: State) -> Label:
    """The default label of a terminal state: its ending, its winners, and every participant's fate."""
    outcome = state.outcome()
    return (outcome.ending, outcome.winners, tuple(sorted(outcome.participants.items())))


@dataclass
class ConflictOdds:
    """The exact distribution of a conflict's outcomes, and its marginals."""

    distribution: Value
    states: int

    def marginal(self, part: Callable[[Any], Hashable]) -> dict[Hashable, Fraction]:
        out: dict[Hashable, Fraction] = {}
        for label, p in self.distribution.items():
            key = part(label)
            out[key] = out.get(key, Fraction(0)) + p
        return out

    def winners(self) -> dict[Hashable, Fraction]:
        return self.marginal(lambda label: label[1])

    def endings(self) -> dict[Hashable, Fraction]:
        return self.marginal(lambda label: label[0])

    def fates(self, participant: str) -> dict[Hashable, Fraction]:
        return self.marginal(lambda label: dict(label[2]).get(participant, "?"))


def conflict_odds(state: State, policies: Mapping[str, Policy], max_states: int = DEFAULT_MAX_STATES) -> ConflictOdds:
    """Exact outcome distribution of the conflict from ``state`` on, under ``policies`` (seat → policy).

    Raises:
        StateSpaceTooLarge: more than ``max_states`` distinct states are reachable.
        KonfliktError: a policy is not deterministic, or the conflict can loop forever.
    """
    graph = explore(state, policies, outcome_label, max_states)
    return ConflictOdds(solve(graph), len(graph.edges) + len(graph.terminal))
