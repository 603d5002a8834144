"""How well the ``mcts`` policy plays beside the heuristic: a side's win rate with its seats on ``mcts:N``.

    .venv/bin/python scripts/search_strength.py fimbulfrost/robbers helte -n 100 --iterations 100

Every other seat keeps the scenario's policy. The heuristic's own rate is exact where the solver finishes (``konflikt
odds``), else played with the same n. Prints both with standard errors. Slow (the State API, a search per decision):
run it under ``nice -n 19``; the numbers in docs/search.md came from it.
"""

from __future__ import annotations

import argparse
import math
import time

from konflikt.analysis.exact import StateSpaceTooLarge, conflict_odds
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.sim.runner import Generators, Runner, seat_policies


def rate(wins: int, n: int) -> str:
    p = wins / n
    return f"{p:.3f} ± {math.sqrt(p * (1 - p) / n):.3f} (SE, n={n})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("side")
    parser.add_argument("-n", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-states", type=int, default=100_000)
    args = parser.parse_args()
    scenario = load_scenario(args.scenario)
    seats = [p.id for p in scenario.participants() if p.side == args.side]
    if not seats:
        raise SystemExit(f"no seat on side {args.side!r}")
    search = seat_policies(scenario, {seat: f"mcts:{args.iterations}" for seat in seats})
    plain = seat_policies(scenario)
    opening = new_state(scenario, {})
    try:
        odds = conflict_odds(opening, plain, args.max_states)  # type: ignore[arg-type]
        exact = sum(p for w, p in odds.winners().items() if args.side in w)  # type: ignore[operator]
        print(f"heuristic: {float(exact):.4f} exact ({odds.states:,} states)")
    except StateSpaceTooLarge:
        wins = 0
        for i in range(args.n):
            state = opening.fork()
            state.quiet = True
            Runner(plain, Generators.from_seed([args.seed, i]), trusted=True).play(state)
            wins += args.side in state.outcome().winners
        print(f"heuristic: {rate(wins, args.n)}")
    wins, start = 0, time.monotonic()
    for i in range(args.n):
        state = opening.fork()
        state.quiet = True
        Runner(search, Generators.from_seed([args.seed, i]), trusted=True).play(state)
        wins += args.side in state.outcome().winners
    took = (time.monotonic() - start) / args.n
    print(f"mcts:{args.iterations} on {', '.join(seats)}: {rate(wins, args.n)}; {took:.1f} s a conflict")


if __name__ == "__main__":
    main()
