"""Le våld's forward propagation on a duel, round by round: the round starts alive, the mass still fighting, CPU.

Usage: ``.venv/bin/python scripts/levald_propagation.py [SCENARIO] [--rounds N] [--max-rounds M] [--lumped]
[--drop EPS] [--reach SAMPLE]``

Pushes the scenario's opening (``rulesets/levald/propagate.py``) for ``--rounds`` rounds (or until the fight is
over everywhere) and prints, after each round, the round starts alive, how many of them hold more than 1e-12, the
mass still fighting and the CPU seconds so far. ``--lumped`` also counts them with the wound boxes left out (what
the rules and the heuristic read: no rule reads the boxes but the fate). ``--max-rounds`` sets the option
``max_rounds`` (a short duel finishes: its odds, their sum and the stated bound are printed). ``--drop EPS`` pushes
only the rows without the wound boxes (merged) and after each round drops the least likely rows whose mass sums to
at most EPS, printing how many were kept: how diffuse the mass is (1e-11 a round keeps 715,873 of the 760,895 alive
after round 4, and even 1e-6 a round 13,629 of the 17,017 after round 3 — no threshold that keeps the answer
within 10⁻⁶ makes the live set small). ``--reach SAMPLE`` walks the chain without the wound boxes breadth-first (each
state once, probabilities ignored), expanding only a random share SAMPLE of a frontier above 20,000 states: a lower
bound on the reachable states (2% samples: 41, 676, 17,019, 761,043 within 1–4 rounds, then at least 1,761,424 and
2,765,030 within 5 and 6, Omtöckning up to 67 and 62). The bundled duel's
round starts multiply by 20–30 a round (40, 882, 23,684, about 2.5 million after round 4): the figures the
documentation quotes come from this script.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.rulesets.levald.model import (
    BOXES,
    DAZE,
    DIST,
    FATE,
    GARD,
    HOLDER,
    REDECIDE,
    WOUNDS,
    LevaldModel,
    exact_model,
)
from konflikt.rulesets.levald.propagate import Propagator
from konflikt.sim.runner import seat_policies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", nargs="?", default="levald/duel")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--max-rounds", type=int, default=None)
    parser.add_argument("--lumped", action="store_true")
    parser.add_argument("--drop", type=float, default=None)
    parser.add_argument("--reach", type=float, default=None)
    args = parser.parse_args()
    sc = load_scenario(args.scenario)
    policies = {s: p for s, p in seat_policies(sc).items() if p is not None}
    options = {} if args.max_rounds is None else {"max_rounds": args.max_rounds}
    start = time.process_time()
    state = new_state(sc, options)
    model = exact_model(state, policies)
    assert isinstance(model, LevaldModel), model
    compact = model.encode(state)
    assert compact is not None
    push = Propagator(model)
    if args.max_rounds is not None and args.max_rounds <= args.rounds:
        done = push.run([(compact, 1.0)], 10**8)
        total = sum(done.ends.values())
        print(f"{done.rounds} rounds, alive after each: {done.live}; sum {total!r}; bound {done.error_bound:.1e}")
        print(f"CPU {time.process_time() - start:.2f} s")
        return
    s = np.array([[0, *compact[1:]]], dtype=np.int64)
    p = np.ones(1)
    if args.reach is not None:
        reach(push, s, args.rounds, args.reach, start)
        return
    for r in range(1, args.rounds + 1):
        ends: dict[object, float] = {}
        if args.drop is not None:
            s, p, line = dropped(push, s, p, args.drop)
            print(f"round {r}: {line}; CPU {time.process_time() - start:.2f} s", flush=True)
            continue
        s, p = push._step(s, p, r, ends, {}, 10**9, [])  # type: ignore[arg-type]
        line = f"round {r}: alive {len(s):,} (> 1e-12: {int((p > 1e-12).sum()):,}), still fighting {p.sum():.6f}"
        if args.lumped:
            boxes = s.copy()
            boxes[:, WOUNDS : WOUNDS + 2 * BOXES] = 0
            line += f", without the wound boxes {len(np.unique(boxes, axis=0)):,}"
        print(f"{line}; CPU {time.process_time() - start:.2f} s", flush=True)
        if not len(s) or not (s[:, FATE] == 0).any():
            break


def dropped(push: Propagator, s: np.ndarray, p: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray, str]:
    """One round of the live rows without their wound boxes (merged), the ends left out, then the least likely
    rows summing to at most ``eps`` dropped."""
    rows, probs = [], []
    for at in range(0, len(s), 1_000):
        t, q = push.round(s[at : at + 1_000], p[at : at + 1_000])
        live = (t[:, FATE] == 0) & (t[:, FATE + 1] == 0)
        t, q = t[live], q[live]
        t[:, WOUNDS : WOUNDS + 2 * BOXES] = 0
        t, q = push._merge(t, q)
        rows.append(t)
        probs.append(q)
    s, p = push._merge(np.concatenate(rows), np.concatenate(probs))
    order = np.argsort(p)
    k = int(np.searchsorted(np.cumsum(p[order]), eps, side="right"))
    keep = np.sort(order[k:])
    line = (
        f"alive {len(s):,}, kept {len(keep):,}, dropped {float(p[order[:k]].sum()):.1e}, still fighting {p.sum():.6f}"
    )
    return s[keep], p[keep], line


def lumped_code(t: np.ndarray) -> np.ndarray:
    """One int64 per row without its wound boxes or fates (distance, holder, why, Gard ×2, Omtöckning ×2)."""
    code = (t[:, DIST] * 3 + t[:, HOLDER] + 1) * 4 + t[:, REDECIDE]
    for col, span in ((GARD, 64), (GARD + 1, 64), (DAZE, 1024), (DAZE + 1, 1024)):
        code = code * span + t[:, col]
    return code  # type: ignore[no-any-return]


def reach(push: Propagator, front: np.ndarray, rounds: int, sample: float, start: float) -> None:
    """Breadth-first over the fights still going without their wound boxes, a frontier above 20,000 sampled."""
    seen = np.unique(lumped_code(front))
    rng = np.random.default_rng(0)
    for r in range(1, rounds + 1):
        if len(front) > 20_000:
            front = front[rng.random(len(front)) < sample]
        found = []
        for at in range(0, len(front), 250):
            t, _ = push.round(front[at : at + 250], np.ones(len(front[at : at + 250])))
            t = t[(t[:, FATE] == 0) & (t[:, FATE + 1] == 0)]
            t[:, WOUNDS : WOUNDS + 2 * BOXES] = 0
            keys, first = np.unique(lumped_code(t), return_index=True)
            found.append(t[first[~np.isin(keys, seen)]])
        t = np.concatenate(found)
        keys, first = np.unique(lumped_code(t), return_index=True)
        front, seen = t[first], np.union1d(seen, keys)
        top = (int(front[:, DAZE].max(initial=0)), int(front[:, DAZE + 1].max(initial=0)))
        print(f"within {r} rounds: at least {len(seen):,} states (new {len(keys):,}, Omtöckning up to {top}); "
              f"CPU {time.process_time() - start:.2f} s", flush=True)  # fmt: skip
        if not len(front):
            return


if __name__ == "__main__":
    main()
