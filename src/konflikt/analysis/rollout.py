"""One step of policy improvement: each legal choice at a decision scored by seeded playouts of the heuristic.

Where optimal play is out of reach (a Le våld duel, a PWGE duel: far more states than the solver takes in the time
a report may spend), the cheapest stronger play is one step of *policy improvement* (Bertsekas' rollout): at a
decision, try every legal choice, finish the conflict from each by the ruleset's ``heuristic`` on every seat, and
take the choice that wins most. It is not optimal play — it improves on the heuristic by one decision, and its
figures are estimates — and every figure built on it says so.

- **Common random numbers.** Playout ``r`` of every choice draws its dice from the same seed ``(seed, r)``, so the
  choices are compared on the same luck as far as their conflicts run alike: the difference of two choices' means
  has a far smaller standard error than either mean (the *paired* SE, from the per-playout differences).
- **Secret choices** (Le våld's movement): the seat's choice varies; every other waiting seat chooses by its
  heuristic, which never reads another seat's secret.
- **Keep the heuristic's choice unless another is clearly better**: by :data:`OVERRIDE_Z` paired standard errors
  (as the ``mcts`` policy does): with a few playouts the top mean is often noise.
- **Reward**: 1 when the seat's side is among the winners, else 0 (a deadlock is nobody's win).

The ``rollout`` policy (``rollout:N``, N playouts a choice) plays this at every decision of its seat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from konflikt.analysis.search_policy import budget_after_colon, heuristic_of, legal_and_seed
from konflikt.core.actions import Action
from konflikt.core.messages import _ as gettext
from konflikt.core.ruleset import Policy
from konflikt.core.state import CHANCE, SIMULTANEOUS, TERMINAL, State
from konflikt.errors import KonfliktError

DEFAULT_PLAYOUTS = 16
"""Playouts of each choice by default (``rollout``)."""
MAX_PLAYOUTS = 100_000
OVERRIDE_Z = 2.0
"""Another choice replaces the heuristic's only when its mean is better by this many paired standard errors."""
MAX_STEPS = 20_000
"""A playout that has not ended after this many steps counts as nobody's win."""


def playout(state: State, policy: Policy, rng: np.random.Generator) -> State:
    """Play ``state`` to its end in place, every seat by ``policy``, the dice from ``rng``."""
    for _ in range(MAX_STEPS):
        node = state.current_player()
        if node == TERMINAL:
            return state
        if node == CHANCE:
            roll = state.pending_roll()
            assert roll is not None
            state.apply_action(roll.sample(rng), checked=False)
        elif node == SIMULTANEOUS:
            state.apply_actions({s: policy.choose(state, s, rng) for s in state.waiting_for()}, checked=False)
        else:
            state.apply_action(policy.choose(state, node, rng), checked=False)
    return state


def _won(state: State, side: str) -> float:
    return 1.0 if state.is_terminal() and side in state.outcome().winners else 0.0


@dataclass(frozen=True)
class Scored:
    """One choice at a decision: its playouts' results (1 won, 0 not), in seed order."""

    action: Action
    wins: np.ndarray

    @property
    def mean(self) -> float:
        return float(self.wins.mean())


def paired(a: Scored, b: Scored) -> tuple[float, float]:
    """``a``'s mean minus ``b``'s, and the standard error of that difference from the paired playouts (at least
    that of one playout's difference more, so that equal results over few playouts are not certain)."""
    d = a.wins - b.wins
    n = len(d)
    var = max(float(d.var(ddof=1)) if n > 1 else 1.0, 1.0 / (n + 2))
    return float(d.mean()), math.sqrt(var / n)


def score_choices(state: State, seat: str, playouts: int, seed: int) -> list[Scored]:
    """Every legal choice of ``seat`` at ``state`` with its ``playouts`` results (common random numbers, see the
    module); ``state`` is not changed. What ``seat`` may not see (another's secret choice) is taken back first."""
    side = state.side_of(seat)
    if side is None:
        raise KonfliktError(gettext("{seat} belongs to no side: nothing to win by choosing", seat=seat))
    seen = state.seen_by(seat)
    seen.quiet = True
    policy = heuristic_of(seen)
    joint = seen.current_player() == SIMULTANEOUS
    if seat not in (seen.waiting_for() if joint else (seen.current_player(),)):
        raise KonfliktError(f"{seat} has no decision now")
    out: list[Scored] = []
    for action in seen.legal_actions(seat):
        wins = np.zeros(playouts)
        for r in range(playouts):
            rng = np.random.default_rng([seed, r])
            child = seen.fork()
            child.quiet = True
            if joint:
                moves = {s: policy.choose(child, s, rng) for s in child.waiting_for() if s != seat}
                child.apply_actions({**moves, seat: action}, checked=False)
            else:
                child.apply_action(action, checked=False)
            wins[r] = _won(playout(child, policy, rng), side)
        out.append(Scored(action, wins))
    return out


def improved_choice(scored: list[Scored], usual: Action) -> Scored:
    """The choice one step of improvement takes: the best mean, where it beats the heuristic's choice ``usual`` by
    :data:`OVERRIDE_Z` paired standard errors; else the heuristic's."""
    mine = next((s for s in scored if s.action == usual), None)
    best = max(scored, key=lambda s: s.mean)
    if mine is None:
        return best
    diff, se = paired(best, mine)
    return best if diff > OVERRIDE_Z * se else mine


class RolloutPolicy:
    """The ``rollout`` policy: at each decision of its seat, one step of improvement over the heuristic."""

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS, name: str = "rollout") -> None:
        self.playouts = playouts
        self.name = name

    def choose(self, state: State, seat: str, rng: np.random.Generator) -> Action:
        legal, seed = legal_and_seed(state, seat, rng)
        heuristic = heuristic_of(state)
        usual = heuristic.choose(state, seat, np.random.default_rng(seed))
        if state.side_of(seat) is None or len(legal) == 1:
            return usual
        return improved_choice(score_choices(state, seat, self.playouts, seed), usual).action


def make_policy(name: str, argument: str | None) -> Policy:
    """``rollout`` or ``rollout:N`` (N playouts a choice): the registry's maker (``core.ruleset.POLICIES``)."""
    if argument is None:
        return RolloutPolicy()
    playouts = budget_after_colon(name, argument, "playouts", MAX_PLAYOUTS, 16)
    return RolloutPolicy(playouts, f"{name}:{playouts}")


__all__ = ["RolloutPolicy", "Scored", "improved_choice", "make_policy", "paired", "playout", "score_choices"]
