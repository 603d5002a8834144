"""CPU seconds of exact whole-conflict odds from a state some way into a bundled duel, as the table asks them: cold
(a fresh process: the model built and the chain explored from there), asked again (the chain reused), and after
the opening's chain (what the table's warm-up, ``analysis.from_here.warm_chain``, explores while the game master
reads the first prompt). In floats (what the table asks since issue 21), or with ``--exact`` in Fractions (what it
asked before).

    .venv/bin/python scripts/exact_from_here.py presja/knife_fight 3 10 40
    .venv/bin/python scripts/exact_from_here.py --exact fimbulfrost/robbers 2 5
    .venv/bin/python scripts/exact_from_here.py pwge/duel 6 30
    .venv/bin/python scripts/exact_from_here.py pwge/duel --every --seed 2

Each number of steps runs in its own process (so "cold" is cold), twice: once cold then again, once after the
opening's chain; the state is the reference runner's, seed 1 (``--seed``). ``--every``: in one process, the odds
from the opening first (the chain explored), then asked again from the state after every step of the conflict, in
floats and exactly (the table's case: "who wins from here" after each step), each with the phase it was asked at.
"""

from __future__ import annotations

import subprocess
import sys
import time


def measure(name: str, steps: int, exact: bool, warm: bool, seed: int = 1) -> str:
    from konflikt.analysis.exact import conflict_odds
    from konflikt.core.conflict import new_state
    from konflikt.core.scenario import load_scenario
    from konflikt.sim.runner import Generators, Runner, seat_policies

    sc = load_scenario(name)
    seats = {s: p for s, p in seat_policies(sc).items() if p is not None}
    state = new_state(sc)
    runner = Runner(seats, Generators.from_seed(seed))
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


def every(name: str, seed: int) -> None:
    """The opening's odds, then asked again after every step (see the module)."""
    from konflikt.analysis.exact import conflict_odds
    from konflikt.core.conflict import new_state
    from konflikt.core.scenario import load_scenario
    from konflikt.sim.runner import Generators, Runner, seat_policies

    sc = load_scenario(name)
    seats = {s: p for s, p in seat_policies(sc).items() if p is not None}
    state = new_state(sc)
    started = time.process_time()
    conflict_odds(state, seats, exact=False)
    print(f"{name}, seed {seed}: the opening {time.process_time() - started:.2f} s (floats)", flush=True)
    runner = Runner(seats, Generators.from_seed(seed))
    steps = 0
    worst = 0.0
    while not state.is_terminal():
        runner.step(state)
        steps += 1
        if state.is_terminal():
            break
        times = []
        for exact in (False, True):
            started = time.process_time()
            odds = conflict_odds(state, seats, exact=exact)
            times.append(time.process_time() - started)
        worst = max(worst, *times)
        phase = getattr(state, "phase", "")
        print(f"  after {steps:3} steps ({phase}): floats {times[0]:.3f} s, exactly {times[1]:.3f} s ({odds.method})")
    print(f"  the most: {worst:.3f} s", flush=True)


def main(argv: list[str]) -> None:
    seed = 1
    if "--seed" in argv:
        at = argv.index("--seed")
        seed = int(argv[at + 1])
        argv = argv[:at] + argv[at + 2 :]
    if len(argv) >= 6 and argv[1] == "--one":
        print(measure(argv[2], int(argv[3]), argv[4] == "exact", argv[5] == "warm", seed), flush=True)
        return
    if len(argv) == 3 and argv[2] == "--every":
        every(argv[1], seed)
        return
    exact = "--exact" in argv
    args = [a for a in argv[1:] if a != "--exact"]
    if len(args) < 2:
        raise SystemExit(__doc__)
    for steps in args[1:]:
        for warm in ("cold", "warm"):
            how = "exact" if exact else "floats"
            command = [sys.executable, __file__, "--one", args[0], steps, how, warm, "--seed", str(seed)]
            subprocess.run(command, check=True)


if __name__ == "__main__":
    main(sys.argv)
