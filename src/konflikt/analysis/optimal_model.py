"""Optimal play over a ruleset's decision-exposing compact game (:class:`konflikt.core.ruleset.RoundGame`).

Exploring calls the rules (every declaration pair, every difference of the dice) and is most of the time; it is
done once and serves every question: both sides on their heuristic, one side's best response, the game value.
The explored game is a set of compact states, each with a small tree of choices (one level per seat of
``turns``) whose leaves carry the round's outcome distribution. A compact state holds no round number, so the
values are computed round by round backwards from the cap (``V_0`` is the deadlock), every state at once in numpy:
a leaf's value is its successors' values weighted, a choice node takes its best child (or the policy's, for a
seat that does not optimise). Floats: every value is within :attr:`GameSolution.error_bound` (absolute) of the
exact one (the roundings of each round's weighted sums, added up over the rounds).

The objective is :func:`konflikt.analysis.optimal.score`'s (two sides: own win − other's win). Ties go to the
heuristic's choice: a value within ``TIE`` of the best counts as the best.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from konflikt.analysis.optimal import UNIT_ROUNDOFF
from konflikt.core.ruleset import RoundGame
from konflikt.core.thousands import grouped
from konflikt.errors import KonfliktError

TIE = 1e-12
"""Values this close count as equal (well above the stated error bound of about 10⁻¹³)."""
DEFAULT_MAX_STATES = 200_000


@dataclass
class Explored:
    """The game's compact states and, for each one not ended, its tree of choices (see the module)."""

    game: RoundGame
    sides: tuple[str, ...]
    states: list[Hashable] = field(default_factory=list)
    index: dict[Hashable, int] = field(default_factory=dict)
    ended: dict[int, np.ndarray] = field(default_factory=dict)
    """Ended states: each side's win (1 or 0)."""
    live: list[int] = field(default_factory=list)
    """States not ended, in the order of the level-0 nodes."""
    parent: list[list[int]] = field(default_factory=list)
    """Per level ℓ ≥ 1: each node's parent (a node of level ℓ−1); level 0's parents are the live states."""
    choice: list[list[Hashable]] = field(default_factory=list)
    """Per level ℓ ≥ 1: the choice that leads to each node (``None``: the round was decided before this seat)."""
    policy: list[np.ndarray] = field(default_factory=list)
    """Per level ℓ < depth: each node's heuristic child (a node of level ℓ+1)."""
    start: list[np.ndarray] = field(default_factory=list)
    """Per level ℓ < depth: where each node's children begin in level ℓ+1 (and ``count`` how many)."""
    count: list[np.ndarray] = field(default_factory=list)
    node: list[dict[tuple[int, tuple[Hashable, ...]], int]] = field(default_factory=list)
    """Per level: (state, choices made) → node."""
    succ: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    weight: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    """Each leaf's successors (state ids) and probabilities (padded with weight 0)."""
    deadlock: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    horizon: set[int] = field(default_factory=set)
    """States met at the exploring horizon, not expanded (in ``ended`` with their deadlock)."""

    @property
    def depth(self) -> int:
        return len(self.game.turns)


def explore(
    game: RoundGame,
    start: Hashable,
    sides: Sequence[str],
    max_states: int = DEFAULT_MAX_STATES,
    horizon: int | None = None,
) -> Explored:
    """Every compact state reachable from ``start`` under any choices within ``horizon`` rounds, with its choice
    tree (a state first met at the horizon is not expanded: from the start it is only ever met with no round
    left, where the cap ends the conflict)."""
    ex = Explored(game, tuple(sides))
    depth = ex.depth
    parent: list[list[int]] = [[] for _ in range(depth + 1)]
    choice: list[list[Hashable]] = [[] for _ in range(depth + 1)]
    policy: list[list[int]] = [[] for _ in range(depth)]
    first: list[list[int]] = [[] for _ in range(depth)]
    count: list[list[int]] = [[] for _ in range(depth)]
    node: list[dict[tuple[int, tuple[Hashable, ...]], int]] = [{} for _ in range(depth + 1)]
    leaves: list[tuple[list[int], list[float]]] = []

    depth_of: list[int] = []

    def add(c: Hashable, at: int = 0) -> int:
        found = ex.index.get(c)
        if found is None:
            found = ex.index[c] = len(ex.states)
            depth_of.append(at)
            if found >= max_states:
                raise KonfliktError(
                    _("optimal play is out of reach: more than {states} compact states", states=grouped(max_states))
                )
            ex.states.append(c)
            queue.append(found)
        return found

    queue: deque[int] = deque()
    add(start)
    while queue:
        u = queue.popleft()
        c = ex.states[u]
        label = game.end(c)
        if label is not None:
            ex.ended[u] = _wins(label, ex.sides)
            continue
        if horizon is not None and depth_of[u] >= horizon:
            ex.ended[u] = _wins(game.deadlock(c), ex.sides)
            ex.horizon.add(u)
            continue
        ex.live.append(u)
        level_nodes: list[tuple[int, tuple[Hashable, ...]]] = [(len(parent[0]), ())]
        parent[0].append(u)
        choice[0].append(None)
        node[0][(u, ())] = level_nodes[0][0]
        for level in range(depth):
            below: list[tuple[int, tuple[Hashable, ...]]] = []
            for idx, made in level_nodes:
                options = list(game.choices(c, made)) if made is not None else []
                here = len(parent[level + 1])
                first[level].append(here)
                if options:
                    chosen = game.policy_choice(c, made)
                    policy[level].append(here + options.index(chosen))
                    for option in options:
                        k = len(parent[level + 1])
                        parent[level + 1].append(idx)
                        choice[level + 1].append(option)
                        node[level + 1][(u, (*made, option))] = k
                        below.append((k, (*made, option)))
                else:  # the round is decided already (a concession): one way on, the same choices
                    policy[level].append(here)
                    parent[level + 1].append(idx)
                    choice[level + 1].append(None)
                    node[level + 1].setdefault((u, made), here)
                    below.append((here, made))
                count[level].append(len(parent[level + 1]) - here)
            level_nodes = below
        for _, made in level_nodes:
            den, ways = game.resolve(c, made)
            leaves.append(([add(t, depth_of[u] + 1) for t, _ in ways], [w / den for _, w in ways]))
    width = max((len(ids) for ids, _ in leaves), default=1)
    ex.succ = np.zeros((len(leaves), width), dtype=np.int64)
    ex.weight = np.zeros((len(leaves), width))
    for i, (ids, ws) in enumerate(leaves):
        ex.succ[i, : len(ids)] = ids
        ex.weight[i, : len(ws)] = ws
    ex.parent, ex.choice, ex.node = parent, choice, node
    ex.policy = [np.array(p, dtype=np.int64) for p in policy]
    ex.start = [np.array(f, dtype=np.int64) for f in first]
    ex.count = [np.array(n, dtype=np.int64) for n in count]
    ex.deadlock = np.zeros((len(ex.states), len(ex.sides)))
    for u in ex.live:
        ex.deadlock[u] = _wins(game.deadlock(ex.states[u]), ex.sides)
    return ex


def _wins(label: Hashable, sides: Sequence[str]) -> np.ndarray:
    winners = label[1]  # type: ignore[index]
    return np.array([1.0 if side in winners else 0.0 for side in sides])


def _score(values: np.ndarray, side: int) -> np.ndarray:
    if values.shape[1] == 2:
        return np.asarray(values[:, side] - values[:, 1 - side])
    return np.asarray(values[:, side])


@dataclass
class GameSolution:
    """Values round by round: ``values[r]`` is every state's win vector with ``r`` rounds left; ``picks[r][ℓ]`` each
    level-ℓ node's chosen child with ``r`` rounds left."""

    explored: Explored
    optimising: Mapping[str, int]
    values: list[np.ndarray]
    picks: list[list[np.ndarray]]
    error_bound: float

    def value(self, u: int, rounds: int) -> np.ndarray:
        return np.asarray(self.values[min(rounds, len(self.values) - 1)][u])


def solve(ex: Explored, optimising: Mapping[str, int], rounds: int, uniform: Collection[str] = ()) -> GameSolution:
    """Backward induction over ``rounds`` rounds: each seat of ``optimising`` maximises its side's score, a seat of
    ``uniform`` chooses uniformly at random among its choices (the ``random`` baseline), the others choose as their
    heuristic."""
    n, sides = len(ex.states), len(ex.sides)
    current = ex.deadlock.copy()
    fixed = np.zeros((n, sides))
    ended = np.zeros(n, dtype=bool)
    for u, wins in ex.ended.items():
        fixed[u] = wins
        ended[u] = True
    current[ended] = fixed[ended]
    values = [current]
    picks: list[list[np.ndarray]] = [[]]
    live = np.array(ex.live, dtype=np.int64)
    width = ex.succ.shape[1]
    per_round = (width + 2) * UNIT_ROUNDOFF * 1.01
    bound = 0.0
    for _ in range(rounds):
        leaf = np.einsum("lk,lks->ls", ex.weight, current[ex.succ])
        child = leaf
        chosen: list[np.ndarray] = [np.zeros(0, dtype=np.int64)] * ex.depth
        for level in range(ex.depth - 1, -1, -1):
            seat = ex.game.turns[level]
            side = optimising.get(seat)
            pick = ex.policy[level]
            if seat in uniform:
                chosen[level] = pick
                child = np.add.reduceat(child, ex.start[level], axis=0) / ex.count[level][:, None]
                continue
            if side is not None:
                pick = _best(_score(child, side), ex.start[level], ex.count[level], pick)
            chosen[level] = pick
            child = child[pick]
        current = fixed.copy()
        if len(live):
            current[live] = child
        values.append(current)
        picks.append(chosen)
        bound += per_round
    return GameSolution(ex, dict(optimising), values, picks, bound)


def _best(score: np.ndarray, start: np.ndarray, count: np.ndarray, policy: np.ndarray) -> np.ndarray:
    """Each segment's best child (segments ``start[i] .. start[i] + count[i]``); the policy's child when it is
    within :data:`TIE` of the best."""
    top = np.maximum.reduceat(score, start)
    seg = np.repeat(np.arange(len(start)), count)
    good = score >= np.repeat(top, count) - TIE
    pick = policy.copy()
    bad = ~good[policy]
    if bad.any():
        idx = np.flatnonzero(good)
        firsts = np.full(len(start), -1, dtype=np.int64)
        segs = seg[idx]
        # the first good child of each segment: idx is sorted, so the first occurrence of each segment
        uniq, where = np.unique(segs, return_index=True)
        firsts[uniq] = idx[where]
        pick[bad] = firsts[bad]
    return pick


def q_values(sol: GameSolution, u: int, rounds: int, made: tuple[Hashable, ...]) -> list[tuple[Hashable, np.ndarray]]:
    """Each choice open at (state ``u``, ``rounds`` left, ``made`` so far) with the sides' win probabilities when it
    is taken and the solution's play follows."""
    ex = sol.explored
    level = len(made)
    k = ex.node[level].get((u, made))
    if k is None or level >= ex.depth:
        return []
    following = sol.values[min(rounds - 1, len(sol.values) - 1)]
    start, n = int(ex.start[level][k]), int(ex.count[level][k])
    out = []
    for child in range(start, start + n):
        out.append((ex.choice[level + 1][child], _node_value(sol, level + 1, child, rounds, following)))
    return out


def _node_value(sol: GameSolution, level: int, k: int, rounds: int, following: np.ndarray) -> np.ndarray:
    ex = sol.explored
    while level < ex.depth:
        k = int(sol.picks[min(rounds, len(sol.picks) - 1)][level][k])
        level += 1
    # k is a leaf: its index among the leaves is its node number at the last level
    return np.asarray(ex.weight[k] @ following[ex.succ[k]])


def best_choice(sol: GameSolution, u: int, rounds: int, made: tuple[Hashable, ...]) -> Hashable | None:
    """The solution's choice at (state ``u``, ``rounds`` left, ``made``), or ``None`` where it has none."""
    ex = sol.explored
    level = len(made)
    k = ex.node[level].get((u, made)) if level < ex.depth else None
    if k is None or rounds < 1:
        return None
    pick = int(sol.picks[min(rounds, len(sol.picks) - 1)][level][k])
    return ex.choice[level + 1][pick]


def reach(sol: GameSolution, u0: int, rounds: int) -> dict[tuple[int, int], float]:
    """The probability of meeting each (state, rounds left) when the solution's play is followed from ``u0``."""
    ex = sol.explored
    mass: dict[int, float] = {u0: 1.0}
    seen: dict[tuple[int, int], float] = {}
    leaf_of = {}
    for r in range(rounds, 0, -1):
        nxt: dict[int, float] = {}
        for u, m in mass.items():
            seen[(u, r)] = seen.get((u, r), 0.0) + m
            if u in ex.ended:
                continue
            k = ex.node[0][(u, ())]
            for level in range(ex.depth):
                k = int(sol.picks[r][level][k])
            leaf_of[u] = k
            for t, w in zip(ex.succ[k], ex.weight[k], strict=True):
                if w:
                    nxt[int(t)] = nxt.get(int(t), 0.0) + m * float(w)
        mass = nxt
    return seen
