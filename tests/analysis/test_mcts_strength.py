"""How the ``mcts`` policy plays beside the heuristic (slow: a search at every decision; ``pytest -m slow``).

The numbers of docs/search.md come from ``scripts/search_strength.py`` with larger n.
"""

from __future__ import annotations

import math

import pytest

from konflikt.analysis.exact import conflict_odds
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.sim.runner import Generators, Runner, seat_policies

pytestmark = pytest.mark.slow


def ends(name: str, side: str, policy: str, n: int) -> list[tuple[str, ...]]:
    """The winners of ``n`` conflicts with ``side``'s seats on ``policy`` (seeds 0 … n − 1)."""
    scenario = load_scenario(name)
    policies = seat_policies(scenario, {p.id: policy for p in scenario.participants() if p.side == side})
    out = []
    for i in range(n):
        state = new_state(scenario, {})
        state.quiet = True
        Runner(policies, Generators.from_seed([7, i]), trusted=True).play(state)
        out.append(state.outcome().winners)
    return out


def test_mcts_plays_the_robbers_at_least_as_well_as_the_heuristic() -> None:
    """The heroes on ``mcts:50`` win at least the heuristic's exact rate less 2 standard errors (of n = 20)."""
    scenario = load_scenario("fimbulfrost/robbers")
    odds = conflict_odds(new_state(scenario, {}), seat_policies(scenario))  # type: ignore[arg-type]
    exact = float(sum(p for w, p in odds.winners().items() if "helte" in w))  # type: ignore[operator]
    n = 20
    rate = sum("helte" in w for w in ends("fimbulfrost/robbers", "helte", "mcts:50", n)) / n
    print(f"robbers, helte: heuristic {exact:.3f} exact; mcts:50 {rate:.3f} (n={n})")
    assert rate >= exact - 2 * math.sqrt(exact * (1 - exact) / n)


@pytest.mark.parametrize(("name", "side"), [("presja/skirmish", "zboje"), ("pwge/shootout", "bordare")])
def test_mcts_plays_where_the_state_space_is_too_large(name: str, side: str) -> None:
    """A whole conflict with one side searching (a small budget) ends, the same for a seed; printed beside the
    heuristic's rate (docs/search.md has the rates over more conflicts)."""
    first = ends(name, side, "mcts:8", 1)
    assert first == ends(name, side, "mcts:8", 1)
    plain = ends(name, side, "heuristic", 20)
    rate = sum(side in w for w in plain) / len(plain)
    print(f"{name}, {side}: mcts:8 won {sum(side in w for w in first)}/1; heuristic {rate:.2f} (n=20)")
