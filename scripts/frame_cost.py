"""The parts of a table server's step, timed in-process on the CPU clock (no sockets, no other load's latency).

For each scenario: one table, the first ``--humans`` participants on pages of their own (and the GM's page), random
choices; per step the time to apply the choice (``WebTable.handle``), to build every seat's frame as the socket
sends it (``Hub.frame_text``), and to commit (the store's thread, timed there). Ratios between two checkouts run
back to back are what it is for:

    nice -n 10 .venv/bin/python scripts/frame_cost.py --steps 300
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import time
from pathlib import Path

from konflikt.core.scenario import load_scenario
from konflikt.core.state import GM
from konflikt.web.app import Hub
from konflikt.web.bench import SCENARIOS
from konflikt.web.table import Refused, Sent


async def measure(name: str, steps: int, humans: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        hub = Hub(Path(folder) / "k.sqlite")
        hub.open()
        try:
            scenario = load_scenario(name)
            seats = [p.id for p in scenario.participants()][:humans]
            cid, _ = await hub.create(scenario, {s: "human" for s in seats}, "auto", seed)
            table = hub.tables[cid]
            pages = {seat: Sent() for seat in [*seats, GM]}
            rng = random.Random(seed)
            apply = frames = 0.0
            done = 0
            base = "http://127.0.0.1:8000"
            commit_cpu = time.thread_time  # the store's thread: timed with its own clock below
            store_cpu = [0.0]

            def timed_commit(store, writes, _orig=hub.store._commit):  # type: ignore[no-untyped-def]
                t = commit_cpu()
                _orig(store, writes)
                store_cpu[0] += commit_cpu() - t

            hub.store._commit = timed_commit  # type: ignore[method-assign]
            while done < steps:
                if table.state.is_terminal():
                    table.handle(GM, {"type": "undo", "count": 1000})
                    await hub.store.write(table.take_writes())
                    continue
                deciding = table.deciding()
                if not deciding:
                    raise RuntimeError(f"{name}: nobody to decide at step {len(table.state.steps())}")
                seat = rng.choice(deciding)
                choice = rng.randrange(len(table.choices(seat)))
                t = time.process_time()
                with contextlib.suppress(Refused):
                    table.handle(seat, {"type": "act", "step": len(table.state.steps()), "choice": choice})
                apply += time.process_time() - t
                await hub.store.write(table.take_writes())
                t = time.process_time()
                for page, sent in pages.items():
                    hub.frame_text(table, page, sent, base, "1")
                frames += time.process_time() - t
                done += 1
            return {"apply": apply * 1000 / done, "frames": frames * 1000 / done, "commit": store_cpu[0] * 1000 / done}
        finally:
            hub.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--humans", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenario", action="append")
    args = parser.parse_args()
    for name in args.scenario or SCENARIOS:
        row = asyncio.run(measure(name, args.steps, args.humans, args.seed))
        print(f"{name:26} " + "  ".join(f"{k} {v:.2f} ms" for k, v in row.items()), flush=True)


if __name__ == "__main__":
    main()
