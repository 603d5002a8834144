"""``bench --serve`` for two servers side by side: this checkout's and another source tree's, interleaved.

Under a shared machine's load the latencies say little, but two servers measured in turn, the same simulated
pages, the same minutes, compare: above all the server's CPU a step. ``--before DIR`` is a ``src`` folder (e.g. from
``git archive COMMIT src | tar -x -C DIR``), run by this Python with ``PYTHONPATH=DIR/src``.

    nice -n 10 .venv/bin/python scripts/serve_ab.py --before /tmp/before --rounds 2 --seconds 20
"""

from __future__ import annotations

import argparse
import json
import os

from konflikt.web.bench import SCENARIOS, run_serve_bench


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--scenario", action="append")
    args = parser.parse_args()
    for r in range(args.rounds):
        for name in args.scenario or SCENARIOS:
            order = ("before", "after") if r % 2 == 0 else ("after", "before")
            for which in order:
                if which == "before":
                    os.environ["PYTHONPATH"] = os.path.join(args.before, "src")
                else:
                    os.environ.pop("PYTHONPATH", None)
                run = run_serve_bench(args.tables, args.seconds, scenario=name, seats=args.seats).to_json()
                os.environ.pop("PYTHONPATH", None)
                print(json.dumps({"which": which, "round": r} | run), flush=True)


if __name__ == "__main__":
    main()
