"""Exact outcome distributions of whole conflicts, over chance outcomes and policy choices, as Fractions.

The reachable states are explored once and merged by ``State.key()``, into a graph whose nodes are only the states
where something branches: a chance node, a simultaneous node with several joint choices, a randomising policy, or
the end. Between them the deterministic policies' decisions are applied in place (*chain compression*): most states
of a conflict are decisions that a deterministic policy makes in one way only, and forking and storing them cost
most of the time. The graph is split into strongly connected components (Tarjan) and solved from the end backwards:
a component without a cycle is a plain weighted sum (in integers over a common denominator), a component with cycles
(an exchange where nothing happens) is an absorbing Markov chain, solved exactly by Gauss–Jordan over Fractions.

**Round clock.** A ruleset whose ``key()`` holds a round counter used only for a round cap (``max_exchanges``) may
declare it with ``State.clock()`` (see its docstring). Then the states are merged by ``key_without_clock()`` and the
solver explores two graphs instead of the cap's many copies of one: how a round goes before the cap (explored with
the cap lifted; the edges that end a round lead to the *entries* of the next round) and how the last round goes
(from every entry, with the cap set to its round). Solving the first graph once gives each entry's *round transfer*
(to outcomes and to next-round entries); a dynamic programme over the rounds then carries the probability of every
entry from round to round up to the cap, where the last-round graph's values take over. All of it exact.

Policies must be deterministic, or say how they randomise (``action_distribution``); they may look at no more of
the state than ``key()`` (or ``key_without_clock()``) records.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import gcd, lcm
from typing import Any, Protocol

import numpy as np

from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.capabilities import ChanceClasses, Spreads
from konflikt.core.deadline import check_time
from konflikt.core.messages import N_
from konflikt.core.messages import _ as gettext
from konflikt.core.ruleset import Policy, RandomPolicy
from konflikt.core.state import CHANCE, SIMULTANEOUS, TERMINAL, State
from konflikt.core.thousands import grouped
from konflikt.errors import KonfliktError

Label = Hashable
Value = dict[Label, Fraction]

DEFAULT_MAX_STATES = 100_000
"""The most distinct states told apart before giving up: graph nodes (branching states and ends, after chain
compression) and the chain states remembered (see :class:`Explorer`)."""
MOVES_PER_STATE = 20
"""The work allowed per state of the limit, in moves applied (a chain of certain moves is work without nodes)."""
OPEN_SHARE = 20
"""At most one state in this many of the limit may be open at once (each is a whole state in memory); a frontier
that wide means a space far larger than the limit (the knife fight, 51,173 nodes, never has more than 148 open)."""
MIN_OPEN = 1_000
"""The open states always allowed, however small the limit."""
PROBE_SHARE = 20
"""The walk begins breadth first, for one state in this many of the limit (the probe, :meth:`Explorer.judge`)..."""
MIN_PROBE = 500
"""...and at least this many (or the whole limit, where it is smaller)."""
MIN_MET = 100
"""Successors the probe's last half must meet before it judges: fewer say nothing of the space's size."""
GROWING_LEVELS = 3
"""The probe judges only a space whose breadth-first levels grew this many times in a row, up to its last complete
level (the knife fight's levels fall every third: its declarations fan out, the rolls merge them again)."""
GROWTH_MARGIN = 10
"""The levels' growth, continued, refuses only where it passes this many times the limit as deep as a conflict goes
(it overshoots where the growth slows: the toy duel's 803 states grow ×1.05 a level over levels 17–20, and at 4×
a limit of 900 was refused)."""
PLAYOUTS = 20
"""Conflicts played down the probabilities from the root to learn how many levels deep a conflict goes."""
CHAIN_LIMIT = 100_000
"""The most deterministic decisions in a row before the solver calls it a loop."""
LIFTED_CAP = 1 << 62
"""A round cap never reached: how the solver learns how a round goes before the cap."""


SIM_HINT = N_("; use 'konflikt sim' for a Monte Carlo estimate")
"""How a refusal of exact odds ends (a front end that estimates instead leaves it out)."""


class StateSpaceTooLarge(KonfliktError):
    """More states than the limit: exact analysis would not finish in reasonable time; use ``konflikt sim``.

    ``why`` says which bound was hit, if not the number of states: the work (moves applied), or the open states.
    ``estimate`` (with ``estimated``, the words saying how it was found) replaces the lower bound ``explored +
    frontier`` where the breadth-first probe refused (:meth:`Explorer.judge`).
    """

    def __init__(
        self,
        explored: int,
        frontier: int,
        limit: int,
        why: str | None = None,
        *,
        estimate: int | None = None,
        estimated: str | None = None,
    ) -> None:
        self.explored, self.frontier, self.limit = explored, frontier, limit
        self.estimate, self.estimated, self.why = estimate, estimated, why
        where = (
            gettext(
                "over {limit} explored with {frontier} still open",
                limit=grouped(limit),
                frontier=grouped(frontier),
            )
            if why is None
            else gettext(
                "{explored} explored and {frontier} still open, {why}",
                explored=grouped(explored),
                frontier=grouped(frontier),
                why=why,
            )
        )
        guess = estimated or gettext("estimate: more than {states}", states=grouped(explored + frontier))
        super().__init__(
            gettext("too many states for exact odds: {where} ({guess})", where=where, guess=guess) + gettext(SIM_HINT)
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


_REFUSE = _NoRandomness()


def policy_distribution(policy: Policy, state: State, seat: str) -> list[tuple[Action, Fraction]]:
    """How a policy chooses here, as (action, probability); actions of probability 0 are left out."""
    if isinstance(policy, RandomPolicy):
        legal = list(state.legal_actions(seat))
        return [(a, Fraction(1, len(legal))) for a in legal]
    if isinstance(policy, Spreads):
        result: list[tuple[Action, Fraction]] = policy.action_distribution(state, seat)
        return [(a, p) for a, p in result if p]
    try:
        return [(policy.choose(state, seat, _REFUSE), Fraction(1))]
    except KonfliktError as exc:
        if "policy uses chance" in str(exc):
            raise KonfliktError(
                gettext(
                    "policy {policy} of {seat} draws random numbers here; exact odds need a deterministic policy or "
                    "one with action_distribution",
                    policy=repr(policy.name),
                    seat=seat,
                )
            ) from None
        raise


# ---- exploring -----------------------------------------------------------------------------------------------------
Move = tuple[int, Any]
"""How to take one branch: (0, a chance outcome), (1, joint secret choices), (2, a seat's action)."""


def _apply(state: State, move: Move) -> None:
    how, what = move
    if how == 1:
        state.apply_actions(what, checked=False)
    else:
        state.apply_action(what, checked=False)


def grouped_branches(state: State, policies: Mapping[str, Policy]) -> list[tuple[Fraction, Move]]:
    """:func:`branches`, with a chance node's outcomes grouped where the State says which the rules read alike (its
    optional ``chance_classes``: Le våld's d100 by quality and effect): one outcome stands for each group, with the
    group's probability. The bridge to a model's starts walks these (a saved round of Le våld: thousands of States
    instead of tens of thousands)."""
    if state.current_player() == CHANCE and isinstance(state, ChanceClasses):
        grouped: list[tuple[ChanceOutcome, Fraction]] = state.chance_classes()
        return [(p, (0, outcome)) for outcome, p in grouped if p]
    return branches(state, policies)


def branches(state: State, policies: Mapping[str, Policy]) -> list[tuple[Fraction, Move]]:
    """Every way on from ``state`` with its probability (chance outcomes, policy choices, joint secret choices)."""
    node = state.current_player()
    if node == TERMINAL:
        return []
    if node == CHANCE:
        outcomes: list[tuple[ChanceOutcome, Fraction]] = state.chance_outcomes()
        return [(p, (0, outcome)) for outcome, p in outcomes if p]
    if node == SIMULTANEOUS:
        seats = state.waiting_for()
        spreads = [policy_distribution(policies[s], state, s) for s in seats]
        out: list[tuple[Fraction, Move]] = []
        for combo in product(*spreads):
            p = Fraction(1)
            for _, q in combo:
                p *= q
            out.append((p, (1, {s: a for s, (a, _) in zip(seats, combo, strict=True)})))
        return out
    return [(p, (2, a)) for a, p in policy_distribution(policies[node], state, node)]


def _loop(state: State) -> KonfliktError:
    return KonfliktError(
        f"the policies make more than {CHAIN_LIMIT:,} certain moves in a row without chance: a loop with no exact "
        f"outcome (at {state.current_player()})"
    )


@dataclass
class Graph:
    """Explored branching states (nodes 0..n−1): edges ``(numerator, child, round step)`` over a denominator each.

    A node's probabilities are ``numerator / den[node]``; ``step`` is 1 when the edge ends a round (clock only).
    Ends are merged by label: they have no edges and a label.
    """

    keys: list[Hashable]
    den: list[int]
    edges: list[list[tuple[int, int, int]]]
    labels: dict[int, Label]

    @property
    def size(self) -> int:
        return len(self.keys)


CHAIN_MEMO = 400_000
"""The most chain states remembered (state key → where its chain ends); beyond it the memo starts afresh."""
MEMO_TRIAL = 20_000
"""Look-ups of chain states before deciding whether remembering them pays."""


class Explorer:
    """Builds a :class:`Graph` from a root, merging states by ``key()`` (``key_without_clock()`` with ``clocked``).

    With ``compress``, a move taken with certainty is applied in place and the state is not a node; the states
    met on such chains are remembered with where their chain ends, so converging chains are followed once.
    With ``clocked``, a chain stops where a round ends: edges that end a round have step 1 and lead to the round
    entries, each kept with a state that stands for it.
    """

    def __init__(
        self,
        policies: Mapping[str, Policy],
        label: Callable[[State], Label],
        max_states: int,
        *,
        compress: bool = True,
        clocked: bool = False,
        probe: bool = False,
    ) -> None:
        self.policies, self.label, self.max_states = policies, label, max_states
        self.compress, self.clocked = compress, clocked
        self.graph = Graph([], [], [], {})
        self.index: dict[Hashable, int] = {}
        """Key → node, for branching states and ends."""
        self.chains: dict[Hashable, tuple[int, int]] = {}
        """Key of a state on a chain of certain moves → (the node where the chain ends, its round step)."""
        self.moves, self.max_moves = 0, max_states * MOVES_PER_STATE
        self.remembered = 0
        """Chain states told apart and remembered (distinct states that are not nodes)."""
        self.widest = 0
        self.max_open = max(MIN_OPEN, max_states // OPEN_SHARE)
        """The most open states at once (each is a whole state in memory)."""
        self.remember, self.looked, self.hits = True, 0, 0
        """Whether chain states are remembered: only while at least one look-up in 50 finds its chain's end."""
        self.ends: dict[Label, int] = {}
        self.entries: dict[int, State] = {}
        """Nodes where a round begins, each with a state that stands for it (clock only)."""
        self.frontier: deque[tuple[int, State, list[tuple[Fraction, Move]]]] = deque()
        self.breadth_first = probe
        """Expand the oldest open state first (the probe: level by level), else the newest (depth first: few open)."""
        self.probe_states = min(max_states, max(MIN_PROBE, max_states // PROBE_SHARE))
        """Distinct states (as the limit counts them) the probe explores before :meth:`judge`."""
        self.met = 0
        self.again = 0
        """In the probe's last half: the successors met (distinct per state expanded, not ends), and those already
        known before their parent was expanded (capture–recapture, :meth:`judge`)."""
        self.level_of: dict[int, int] = {}
        """Open node → its breadth-first level (while breadth first)."""
        self.levels: list[int] = []
        """Branching nodes found at each breadth-first level (while breadth first)."""
        self.level = -1
        """The level of the node being expanded (the root's parent: −1)."""
        self.root: State | None = None
        """A copy of the root, for :meth:`depth`."""

    def _key(self, state: State) -> Hashable:
        return state.key_without_clock() if self.clocked else state.key()

    def _new(self, key: Hashable) -> int:
        g = self.graph
        idx = len(g.keys)
        g.keys.append(key)
        g.den.append(1)
        g.edges.append([])
        if idx + self.remembered >= self.max_states:
            open_ = len(self.frontier)
            raise StateSpaceTooLarge(idx + 1 + self.remembered - open_, open_, self.max_states)
        return idx

    def _node(self, state: State, key: Hashable, ways: list[tuple[Fraction, Move]]) -> int:
        """A new node for ``state`` (not yet in the index): an end (merged by label) or a branching state."""
        if not ways:
            label = self.label(state)
            found = self.ends.get(label)
            if found is None:
                found = self.ends[label] = self._new(("end", label))
                self.graph.labels[found] = label
            self.index[key] = found
            return found
        idx = self.index[key] = self._new(key)
        self.frontier.append((idx, state, ways))
        if self.breadth_first:
            level = self.level + 1
            self.level_of[idx] = level
            if level == len(self.levels):
                self.levels.append(0)
            self.levels[level] += 1
        open_ = len(self.frontier)
        if open_ > self.widest:
            self.widest = open_
            if open_ > self.max_open:
                raise StateSpaceTooLarge(
                    idx + 1 - open_,
                    open_,
                    self.max_states,
                    f"more than {self.max_open:,} open at once",
                )
        return idx

    def _follow(self, state: State, before: int | None) -> tuple[int, int, bool]:
        """Where ``state`` leads: (node, round step, whether the node is new and holds ``state`` now)."""
        index, chains, policies = self.index, self.chains, self.policies
        path: list[Hashable] = []
        on_path: set[Hashable] = set()
        for _ in range(CHAIN_LIMIT):
            step = 0
            if before is not None and _round(state) != before and not state.is_terminal():
                step = _round(state) - before
                if step != 1:
                    raise KonfliktError(
                        f"the round clock went from {before} to {before + step} in one move: clock() must grow "
                        "by 1 when a round ends"
                    )
            if self.remember or step or not self.compress:
                key = self._key(state)
                found = index.get(key)
                if found is not None:
                    return self._remember(path, found, step, False)
                if not step and self.remember:
                    hit = chains.get(key)
                    self.looked += 1
                    if hit is not None:
                        self.hits += 1
                        return self._remember(path, hit[0], hit[1], False)
                ways = branches(state, policies)
                if len(ways) != 1 or step or not self.compress:
                    return self._remember(path, self._node(state, key, ways), step, bool(ways))
                if self.remember:
                    if key in on_path:
                        raise KonfliktError(
                            f"the policies loop: a state comes back after {len(path) - path.index(key)} certain "
                            f"moves without chance (at {state.current_player()}); no exact outcome"
                        )
                    path.append(key)
                    on_path.add(key)
            else:
                ways = branches(state, policies)
                if len(ways) != 1:
                    key = self._key(state)
                    found = index.get(key)
                    if found is not None:
                        return found, 0, False
                    return self._node(state, key, ways), 0, bool(ways)
            _apply(state, ways[0][1])
            self.moves += 1
        raise _loop(state)

    def _remember(self, path: list[Hashable], target: int, step: int, new: bool) -> tuple[int, int, bool]:
        """Remember where the chain states on ``path`` lead; stop remembering when it rarely helps."""
        chains = self.chains
        if path:
            if len(chains) + len(path) > CHAIN_MEMO:
                chains.clear()
            for key in path:
                chains[key] = (target, step)
            self.remembered += len(path)
        if self.looked > MEMO_TRIAL and self.hits * 50 < self.looked:
            self.remember = False
            chains.clear()
        return target, step, new

    def add_root(self, state: State) -> tuple[int, int]:
        """Explore from ``state`` (not changed); return the root's node and its round step (the round ended)."""
        root = state.fork()
        self.root = state.fork()
        idx, step, new = self._follow(root, _round(root) if self.clocked else None)
        if step and idx not in self.entries:
            self.entries[idx] = root.fork() if new else root
        self.run()
        return idx, step

    def run(self) -> None:
        g = self.graph
        clocked = self.clocked
        while self.frontier:
            check_time()
            if self.breadth_first:
                if g.size + self.remembered >= self.probe_states:
                    self.judge()
                    self.breadth_first = False
                    self.level_of.clear()
                    self.max_open += len(self.frontier)  # the probe's level is wide; depth first adds few more
                    self.widest = len(self.frontier)
                    continue
                idx, state, ways = self.frontier.popleft()
                self.level = self.level_of.pop(idx)
            else:
                idx, state, ways = self.frontier.pop()
            first_new = g.size
            before = _round(state) if clocked else None
            merged: dict[tuple[int, int], Fraction] = {}
            last = len(ways) - 1
            for i, (p, move) in enumerate(ways):
                child = state if i == last else state.fork()
                _apply(child, move)
                self.moves += 1
                if self.moves > self.max_moves:
                    open_ = len(self.frontier) + 1
                    raise StateSpaceTooLarge(
                        g.size - open_,
                        open_,
                        self.max_states,
                        f"after {self.moves:,} moves, the work of {self.max_states:,} states",
                    )
                target, step, new = self._follow(child, before)
                if step and target not in self.entries:
                    self.entries[target] = child.fork() if new else child
                merged[target, step] = merged.get((target, step), Fraction(0)) + p
            den = lcm(*(p.denominator for p in merged.values()))
            g.den[idx] = den
            g.edges[idx] = [(p.numerator * (den // p.denominator), t, s) for (t, s), p in merged.items()]
            if self.breadth_first and 2 * (g.size + self.remembered) >= self.probe_states:
                for t, _ in merged:
                    if t not in g.labels:
                        self.met += 1
                        self.again += t < first_new

    def judge(self) -> None:
        """The probe's verdict: raise :class:`StateSpaceTooLarge` where the states are estimated beyond the limit.

        Only a space still growing is judged: its breadth-first levels grew :data:`GROWING_LEVELS` times in a row up
        to the last complete one (a space whose levels fall again, as the knife fight's do every third level, is
        walked to its end or its limit as before). Two estimates, either of which refuses:

        * *capture–recapture*: if the space held N states and the probe has seen n, about a share n/N of the
          successors it meets should be states it has seen, so N ≈ n ÷ (the share met again), over the successors
          of the probe's last half (each state's distinct successors, ends aside; one is met *again* only if it
          was known before that state was expanded: two rolls leading to one state say nothing of the space's
          size). Low while the space still grows (the knife fight's State-API walk: about 12,000 from a probe of
          5,000, 31,981 in truth); where nothing is met again (presja's skirmish: each level nine times the last)
          it has no upper end.
        * *the levels' growth, continued*: the last complete levels' mean growth a level, continued level by level
          until the count passes :data:`GROWTH_MARGIN` times the limit, if a short conflict goes that deep (the
          lower quartile of the distinct branching states on :data:`PLAYOUTS` conflicts played down the
          probabilities from the root): the count where it passes the limit itself is the estimate, "more than"
          it. High where the levels' growth slows before then.
        """
        levels = self.levels
        last = self.level  # expanding this level, the probe has found every state of it
        growing = last >= GROWING_LEVELS and all(
            levels[j] > levels[j - 1] for j in range(last - GROWING_LEVELS + 1, last + 1)
        )
        if not growing or self.met < MIN_MET:
            return
        seen = self.graph.size + self.remembered
        open_ = len(self.frontier)
        probe = f"a breadth-first probe of {seen:,} states ({len(levels)} levels deep)"
        if self.again == 0:
            estimate: int | None = None
            guess = (
                f"estimated: far more, since {probe} met none of its last half's {self.met:,} successors again "
                "(capture–recapture: no upper end)"
            )
        else:
            estimate = round(seen * self.met / self.again)
            guess = (
                f"estimated: about {estimate:,} in all, since {probe} met {self.again / self.met:.0%} of its "
                f"last half's {self.met:,} successors again (capture–recapture: seen ÷ share met again, low "
                "while the space still grows)"
            )
        if estimate is not None and estimate <= self.max_states:
            growth = (levels[last] / levels[last - GROWING_LEVELS]) ** (1 / GROWING_LEVELS)
            further = self.depth() - last
            per_node = seen / max(1, sum(levels))  # the states the limit counts per branching state
            total, width, more = float(seen), levels[last] * per_node, 0
            while total <= GROWTH_MARGIN * self.max_states and more < further:
                more += 1
                width *= growth
                total += width
            if total <= GROWTH_MARGIN * self.max_states:
                return
            passed = next(  # the estimate: the count where the growth passes the limit itself
                i
                for i in range(1, more + 1)
                if seen + per_node * levels[last] * sum(growth**k for k in range(1, i + 1)) > self.max_states
            )
            more = passed
            total = seen + per_node * levels[last] * sum(growth**k for k in range(1, passed + 1))
            estimate = round(total)
            guess = (
                f"estimated: more than {estimate:,}, since {probe} grew ×{growth:.2f} a level over its last "
                f"{GROWING_LEVELS} complete levels: at that rate {more} more levels pass the limit, {GROWTH_MARGIN}× "
                f"it within the {further} levels further that a short conflict played from here goes (the levels' "
                "growth, continued)"
            )
        raise StateSpaceTooLarge(
            seen - open_,
            open_,
            self.max_states,
            f"more than the limit of {self.max_states:,} by the probe",
            estimate=estimate,
            estimated=guess,
        )

    def depth(self) -> int:
        """The lower quartile of the distinct branching states met on :data:`PLAYOUTS` conflicts played from the
        root down the probabilities (seeded: the same question gets the same answer; a state met again on the way,
        an exchange where nothing happened, is not a level deeper)."""
        import random

        assert self.root is not None
        dice = random.Random(0)
        depths: list[int] = []
        for _ in range(PLAYOUTS):
            state, met = self.root.fork(), set()
            for _ in range(CHAIN_LIMIT):
                check_time()
                ways = branches(state, self.policies)
                if not ways:
                    break
                chosen = 0
                if len(ways) > 1:
                    met.add(self._key(state))
                    pick = dice.random() * float(sum(p for p, _ in ways))
                    while chosen < len(ways) - 1 and pick >= float(ways[chosen][0]):
                        pick -= float(ways[chosen][0])
                        chosen += 1
                _apply(state, ways[chosen][1])
            depths.append(len(met))
        return sorted(depths)[len(depths) // 4]


def _round(state: State) -> int:
    clock = state.clock()
    assert clock is not None
    return clock[0]


# ---- solving -------------------------------------------------------------------------------------------------------
Num = tuple[int, dict[int, int]]
"""A distribution as (denominator, {outcome id: numerator}); outcome ids ≥ 0 are labels, < 0 next-round entries."""


def components(n: int, children: Callable[[int], list[int]]) -> list[list[int]]:
    """Tarjan's strongly connected components of nodes 0..n−1, iteratively; children first (reverse topological)."""
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    result: list[list[int]] = []
    counter = 0
    for start in range(n):
        if index[start] >= 0:
            continue
        work: list[tuple[int, int]] = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            kids = children(node)
            recurse = False
            while i < len(kids):
                child = kids[i]
                i += 1
                if index[child] < 0:
                    work.append((node, i))
                    work.append((child, 0))
                    recurse = True
                    break
                if on_stack[child] and index[child] < low[node]:
                    low[node] = index[child]
            if recurse:
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component.append(member)
                    if member == node:
                        break
                result.append(component)
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
    return result


def _reduce(den: int, nums: dict[int, int]) -> Num:
    g = gcd(den, *nums.values())
    if g > 1:
        return den // g, {k: v // g for k, v in nums.items()}
    return den, nums


def solve_graph(graph: Graph, outcome: Callable[[int], int], exit_of: Callable[[int, int], int | None]) -> list[Num]:
    """Every node's distribution over outcome ids: terminals are ``outcome(node)``; an edge for which
    ``exit_of(child, step)`` gives an id ends there (a next-round entry) instead of following the child."""
    n = graph.size
    values: list[Num | None] = [None] * n
    for node, _ in graph.labels.items():
        values[node] = (1, {outcome(node): 1})

    def followed(node: int) -> list[int]:
        return [c for _, c, s in graph.edges[node] if exit_of(c, s) is None]

    for component in components(n, followed):
        check_time()
        if len(component) == 1:
            node = component[0]
            if values[node] is not None:
                continue
            if node not in followed(node):
                values[node] = _weighted(graph, node, values, exit_of)
                continue
        for node, value in _solve_cycle(graph, component, values, exit_of).items():
            values[node] = value
    assert all(v is not None for v in values)
    return values  # type: ignore[return-value]


def _weighted(graph: Graph, node: int, values: list[Num | None], exit_of: Callable[[int, int], int | None]) -> Num:
    """Σ p·value(child) in integers: the common denominator is the node's times the lcm of its children's."""
    parts: list[tuple[int, int, dict[int, int]]] = []
    for a, child, step in graph.edges[node]:
        ex = exit_of(child, step)
        if ex is not None:
            parts.append((a, 1, {ex: 1}))
        else:
            value = values[child]
            assert value is not None
            parts.append((a, value[0], value[1]))
    common = lcm(*(d for _, d, _ in parts))
    nums: dict[int, int] = {}
    for a, d, child_nums in parts:
        f = a * (common // d)
        for k, v in child_nums.items():
            nums[k] = nums.get(k, 0) + f * v
    return _reduce(graph.den[node] * common, nums)


def _solve_cycle(
    graph: Graph, component: list[int], values: list[Num | None], exit_of: Callable[[int, int], int | None]
) -> dict[int, Num]:
    """x_i = Σ_j Q_ij x_j + r_i inside one component: (I − Q) x = r, by Gauss–Jordan over Fractions."""
    order = {k: i for i, k in enumerate(component)}
    n = len(component)
    ids: list[int] = []
    where: dict[int, int] = {}
    rhs_rows: list[dict[int, Fraction]] = []
    matrix = [[Fraction(0)] * n for _ in range(n)]
    for k in component:
        i = order[k]
        matrix[i][i] += 1
        rhs: dict[int, Fraction] = {}
        den = graph.den[k]
        for a, child, step in graph.edges[k]:
            p = Fraction(a, den)
            ex = exit_of(child, step)
            if ex is None and child in order:
                matrix[i][order[child]] -= p
                continue
            if ex is not None:
                rhs[ex] = rhs.get(ex, Fraction(0)) + p
                continue
            value = values[child]
            assert value is not None
            for o, v in value[1].items():
                rhs[o] = rhs.get(o, Fraction(0)) + p * Fraction(v, value[0])
        rhs_rows.append(rhs)
        for o in rhs:
            if o not in where:
                where[o] = len(ids)
                ids.append(o)
    rhs_matrix = [[row.get(o, Fraction(0)) for o in ids] for row in rhs_rows]
    for col in range(n):
        pivot = next((r for r in range(col, n) if matrix[r][col] != 0), None)
        if pivot is None:
            raise KonfliktError(
                gettext("the conflict can loop forever with probability 1 from some state: no exact outcome")
            )
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
    out: dict[int, Num] = {}
    for k in component:
        row = rhs_matrix[order[k]]
        den = lcm(*(v.denominator for v in row))
        out[k] = _reduce(den, {o: int(v * den) for o, v in zip(ids, row, strict=True) if v})
    return out


def outcome_label(state: State) -> Label:
    """The default label of a terminal state: its ending, its winners, and every participant's fate."""
    outcome = state.outcome()
    return (outcome.ending, outcome.winners, tuple(sorted(outcome.participants.items())))


@dataclass
class ConflictOdds:
    """The exact distribution of a conflict's outcomes, and its marginals.

    From a ruleset's compact model (``method`` ``model``) it also holds the distribution of the length in the
    system's unit (``lengths``); in floats (``exact=False``) the probabilities are floats, each within
    ``error_bound`` (relative) of the exact value.
    """

    distribution: Value
    states: int
    """Distinct states told apart: the graph's nodes and the chain states remembered (the model's states)."""
    nodes: int = 0
    """Nodes of the graph: branching states and ends (merged by label)."""
    moves: int = 0
    """Moves applied while exploring (chance outcomes, decisions, joint choices)."""
    lengths: dict[int, Fraction] | None = None
    """Probability of each length of the conflict in ``unit`` (the compact model only)."""
    unit: str = "steps"
    method: str = "state"
    """``state``: the State-API solver; ``model``: the ruleset's compact model (see :mod:`.compact`)."""
    error_bound: float = 0.0
    """A bound on each probability's relative error: 0 for Fractions."""
    absolute_bound: float = 0.0
    """A bound on the mass misplaced in all (a model's block solve: residuals, roundings, the round cap's share):
    every probability, and every sum of them, is within it of the exact value, on top of :attr:`error_bound`."""
    marks: dict[Hashable, Fraction] | None = None
    """What the labels leave out, each with its probability (the compact model's marks: presja's consequences by
    name, as ``(participant, severity, name)``)."""

    def marginal(self, part: Callable[[Any], Hashable]) -> dict[Hashable, Fraction]:
        out: dict[Hashable, Fraction] = {}
        for label, p in self.distribution.items():
            key = part(label)
            out[key] = out.get(key, 0 * p) + p
        return out

    def winners(self) -> dict[Hashable, Fraction]:
        return self.marginal(lambda label: label[1])

    def endings(self) -> dict[Hashable, Fraction]:
        return self.marginal(lambda label: label[0])

    def fates(self, participant: str) -> dict[Hashable, Fraction]:
        return self.marginal(lambda label: dict(label[2]).get(participant, "?"))

    def expected_length(self) -> Fraction | None:
        """The mean length in ``unit`` (``None`` where the lengths are not known)."""
        if self.lengths is None:
            return None
        return sum((n * p for n, p in self.lengths.items()), 0 * next(iter(self.lengths.values())))


class _Labels:
    """Outcome labels as small ids, shared by the graphs of one question."""

    def __init__(self) -> None:
        self.ids: dict[Label, int] = {}
        self.labels: list[Label] = []

    def id(self, label: Label) -> int:
        found = self.ids.get(label)
        if found is None:
            found = self.ids[label] = len(self.labels)
            self.labels.append(label)
        return found

    def distribution(self, num: Num) -> Value:
        den, nums = num
        return {self.labels[o]: Fraction(v, den) for o, v in nums.items() if v}


def conflict_odds(
    state: State,
    policies: Mapping[str, Policy],
    max_states: int = DEFAULT_MAX_STATES,
    *,
    label: Callable[[State], Label] = outcome_label,
    compress: bool = True,
    use_clock: bool = True,
    use_model: bool = True,
    exact: bool = True,
) -> ConflictOdds:
    """Exact outcome distribution of the conflict from ``state`` on, under ``policies`` (seat → policy).

    Where the state's ruleset registers a compact model (``Ruleset.exact_model``) that covers the state and the
    policies, it is solved (:mod:`.compact`; ``exact=False``: in floats with a stated error bound); otherwise the
    State API is walked. ``use_model=False`` forces the State API (the oracle the models are tested against), as
    does a ``label`` other than :func:`outcome_label`. ``compress`` (chain compression) and ``use_clock`` (the
    round clock) change the State-API solver's speed, never the answer; the tests solve small conflicts both ways.

    Raises:
        StateSpaceTooLarge: more than ``max_states`` states are reachable (graph nodes, or compact states).
        KonfliktError: a policy is not deterministic, or the conflict can loop forever.
    """
    if use_model and label is outcome_label:
        from konflikt.analysis.model_odds import model_odds

        found = model_odds(state, policies, max_states, exact)
        if found is not None:
            return found
    labels = _Labels()
    if not use_clock or state.clock() is None:
        explorer = Explorer(policies, label, max_states, compress=compress, probe=True)
        root, _ = explorer.add_root(state)
        g = explorer.graph
        values = solve_graph(g, lambda node: labels.id(g.labels[node]), lambda child, step: None)
        return _odds(labels.distribution(values[root]), explorer)
    return _clocked_odds(state, policies, max_states, label, compress, labels)


def _clocked_odds(
    state: State,
    policies: Mapping[str, Policy],
    max_states: int,
    label: Callable[[State], Label],
    compress: bool,
    labels: _Labels,
) -> ConflictOdds:
    """The round clock: one graph of how a round goes, solved once; then the rounds, carried up to the cap."""
    cap = _clock(state)[1]
    lifted = state.fork()
    lifted.set_clock_cap(LIFTED_CAP)
    explorer = Explorer(policies, label, max_states, compress=compress, clocked=True, probe=True)
    root, step = explorer.add_root(lifted)
    g = explorer.graph
    now = _round(state) + step
    # one round: every node's distribution over outcomes (ids ≥ 0) and next-round entries (ids < 0)
    rounds = solve_graph(g, lambda node: labels.id(g.labels[node]), lambda child, step: -1 - child if step else None)
    entries = explorer.entries
    at_cap: dict[int, int] = {}

    def cap_end(entry: int) -> int:
        """The outcome id of the conflict ended by the cap as ``entry``'s round would begin."""
        found = at_cap.get(entry)
        if found is None:
            ended = entries[entry].fork()
            ended.set_clock_cap(_round(ended) - 1)
            ended.end_at_cap()
            if not ended.is_terminal():
                raise KonfliktError(f"{type(ended).__name__}.end_at_cap() did not end the conflict")
            found = at_cap[entry] = labels.id(label(ended))
        return found

    if now > cap:
        return _odds({labels.labels[cap_end(root)]: Fraction(1)}, explorer)
    # carry the probability of every entry from round to round (numerators over one denominator per round)
    mass: dict[int, int] = {root: 1}
    mass_den = 1
    total: dict[int, Fraction] = {}
    for r in range(now, cap + 1):
        common = lcm(*(rounds[e][0] for e in mass))
        moved: dict[int, int] = {}
        ended: dict[int, int] = {}
        for e, m in mass.items():
            den, nums = rounds[e]
            f = m * (common // den)
            for o, v in nums.items():
                if o >= 0:
                    ended[o] = ended.get(o, 0) + f * v
                elif r < cap:
                    moved[-1 - o] = moved.get(-1 - o, 0) + f * v
                else:
                    o = cap_end(-1 - o)
                    ended[o] = ended.get(o, 0) + f * v
        mass_den *= common
        for o, v in ended.items():
            total[o] = total.get(o, Fraction(0)) + Fraction(v, mass_den)
        if not moved:
            break
        mass_den, mass = _reduce(mass_den, moved)
    distribution = {labels.labels[o]: p for o, p in total.items() if p}
    return _odds(distribution, explorer)


def _odds(distribution: Value, explorer: Explorer) -> ConflictOdds:
    size = explorer.graph.size
    return ConflictOdds(distribution, size + explorer.remembered, size, explorer.moves)


def _clock(state: State) -> tuple[int, int]:
    clock = state.clock()
    assert clock is not None
    return clock
