"""CPU seconds of exact whole-conflict odds from a state some way into a bundled duel, as the table asks them: cold
(a fresh process: the model built and the chain explored from there), asked again (the chain reused), and after
the opening's chain (what the table's warm-up, ``analysis.from_here.warm_chain``, explores while the game master
reads the first prompt). In floats (what the table asks since issue 21), or with ``--exact`` in Fractions (what it
asked before).

    .venv/bin/python scripts/exact_from_here.py presja/knife_fight 3 10 40
    .venv/bin/python scripts/exact_from_here.py --exact fimbulfrost/robbers 2 5
    .venv/bin/python scripts/exact_from_here.py pwge/duel 6 30

Each number of steps runs in its own process (so "cold" is cold), twice: once cold then again, once after the
opening's chain; the state is the reference runner's, seed 1.
"""

from __future__ import annotations

import subprocess
import sys
import time


def measure(name: str, steps: int, exact: bool, warm: bool) -> str:
    from konflikt.analysis.exact import conflict_odds
    from konflikt.core.conflict import new_state
    from konflikt.core.scenario import load_scenario
    from konflikt.sim.runner import Generators, Runner, seat_policies

    sc = load_scenario(name)
    seats = {s: p for s, p in seat_policies(sc).items() if p is not None}
    state = new_state(sc)
    runner = Runner(seats, Generators.from_seed(1))
    for _ in range(steps):
        if state.is_terminal():
            break
        runner.step(state)
    if state.is_terminal():
        return f"{name} after {steps} steps: already over"
    how = "exact" if exact else "floats"
    if warm:
        started = time.process_time()
        conflict_odds(new_state(sc), seats, exact=False)  # the warm-up's question: always floats
        opening = time.process_time() - started
        started = time.process_time()
        odds = conflict_odds(state, seats, exact=exact)
        after = time.process_time() - started
        return (
            f"{name} after {steps} steps, {how}: after the opening's chain ({opening:.2f} s) {after:.2f} s "
            f"({odds.method}, {odds.states:,} states)"
        )
    started = time.process_time()
    odds = conflict_odds(state, seats, exact=exact)
    cold = time.process_time() - started
    started = time.process_time()
    conflict_odds(state, seats, exact=exact)
    again = time.process_time() - started
    return (
        f"{name} after {steps} steps, {how}: cold {cold:.2f} s, asked again {again:.2f} s "
        f"({odds.method}, {odds.states:,} states)"
    )


def main(argv: list[str]) -> None:
    if len(argv) >= 6 and argv[1] == "--one":
        print(measure(argv[2], int(argv[3]), argv[4] == "exact", argv[5] == "warm"), flush=True)
        return
    exact = "--exact" in argv
    args = [a for a in argv[1:] if a != "--exact"]
    if len(args) < 2:
        raise SystemExit(__doc__)
    for steps in args[1:]:
        for warm in ("cold", "warm"):
            command = [sys.executable, __file__, "--one", args[0], steps, "exact" if exact else "floats", warm]
            subprocess.run(command, check=True)


if __name__ == "__main__":
    main(sys.argv)
