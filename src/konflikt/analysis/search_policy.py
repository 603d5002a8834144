"""What the search policies (``mcts``, ``rollout``) share: the play after the tree, the decision they are asked
for, and the budget written after the colon (``mcts:400``, ``rollout:16``). One copy, so both read the same."""

from __future__ import annotations

import numpy as np

from konflikt.core.actions import Action
from konflikt.core.messages import _
from konflikt.core.ruleset import Policy, RandomPolicy, get_ruleset
from konflikt.core.state import State
from konflikt.errors import KonfliktError


def heuristic_of(state: State) -> Policy:
    """The ruleset's ``heuristic`` (random where a ruleset has none): every seat's play after a searched choice."""
    ruleset = get_ruleset(state.ruleset)
    return ruleset.policy("heuristic") if "heuristic" in ruleset.policies else RandomPolicy()


def legal_and_seed(state: State, seat: str, rng: np.random.Generator) -> tuple[list[Action], int]:
    """``seat``'s legal actions and one seed for its search, drawn from ``rng`` (the same for a seed).

    Raises:
        KonfliktError: the seat has no legal action.
    """
    legal = list(state.legal_actions(seat))
    if not legal:
        raise KonfliktError(_("{seat} has no legal action to choose from", seat=seat))
    return legal, int(rng.integers(2**63))


def budget_after_colon(name: str, argument: str, what: str, most: int, example: int) -> int:
    """The whole number after ``name:`` (iterations, playouts), from 1 to ``most``.

    Raises:
        KonfliktError: anything else, saying what was expected.
    """
    text = argument.strip()
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= most:
        raise KonfliktError(
            f"policy {name}:{argument}: the {what} after the colon must be a whole number from 1 to "
            f"{most:,} (e.g. {name}:{example})"
        )
    return int(text)
