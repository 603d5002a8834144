"""Profile ``konflikt serve`` under the ``bench --serve`` load: where a step's server CPU goes.

The server runs in its own process (as in the bench) with a ``cProfile`` per thread on that thread's CPU clock
(``time.thread_time``: the event loop, the engine's thread, the store's thread), switched on only while the
simulated pages play; each thread's profile is written as ``OUT.<thread>.prof`` and summarised on stdout.

    nice -n 10 .venv/bin/python scripts/profile_serve.py --scenario levald/one_against_two --tables 20 --seconds 15
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any


def serve(port: int, db: Path, out: str) -> None:
    """The server, with a profiler per thread, switched on by SIGUSR1 and written by SIGUSR2."""
    import uvicorn

    from konflikt.web.app import MAX_MESSAGE, create_app

    profiles: dict[str, cProfile.Profile] = {}
    on = threading.Event()
    lock = threading.Lock()

    def profiler() -> cProfile.Profile | None:
        name = threading.current_thread().name.split("_")[0]
        with lock:
            if name not in profiles:
                profiles[name] = cProfile.Profile(time.thread_time)
            return profiles[name]

    def start(*_: Any) -> None:
        on.set()
        prof = profiler()
        assert prof is not None
        prof.enable()  # the event loop's thread (signals arrive there); the others in their work items below

    def stop(*_: Any) -> None:
        on.clear()
        for name, prof in profiles.items():
            prof.disable()
            prof.dump_stats(f"{out}.{name}.prof")
        Path(out + ".done").write_text("ok")

    # the engine and store threads already exist when the signal comes: their work items enable the profiler
    import konflikt.web.table as table_mod
    import konflikt.web.writer as writer_mod

    handle = table_mod.WebTable.handle

    def profiled_handle(self: Any, seat: str, message: Any) -> None:
        if on.is_set():
            prof = profiler()
            assert prof is not None
            prof.enable()
            try:
                handle(self, seat, message)
            finally:
                prof.disable()
        else:
            handle(self, seat, message)

    table_mod.WebTable.handle = profiled_handle  # type: ignore[method-assign]
    commit = writer_mod.StoreThread._commit

    def profiled_commit(self: Any, store: Any, jobs: Any) -> None:
        if on.is_set():
            prof = profiler()
            assert prof is not None
            prof.enable()
            try:
                commit(self, store, jobs)
            finally:
                prof.disable()
        else:
            commit(self, store, jobs)

    writer_mod.StoreThread._commit = profiled_commit  # type: ignore[method-assign]
    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    app = create_app(db)
    print("serving", flush=True)  # the parent reads the console link from the links file
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_max_size=MAX_MESSAGE * 4,
        ws="websockets",
        ws_per_message_deflate=False,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", default="levald/one_against_two")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--out", default="/tmp/webprof/serve")
    parser.add_argument("--top", type=int, default=45)
    parser.add_argument("--server", nargs=2, metavar=("PORT", "DB"))
    args = parser.parse_args()
    if args.server:
        serve(int(args.server[0]), Path(args.server[1]), args.out)
        return

    import konflikt.web.bench as bench
    from konflikt.web.links import Links

    procs: list[subprocess.Popen[str]] = []

    def start_server(db: Path, port: int) -> tuple[subprocess.Popen[str], str]:
        proc = subprocess.Popen(
            [sys.executable, __file__, "--server", str(port), str(db), "--out", args.out],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        procs.append(proc)
        assert proc.stdout is not None
        proc.stdout.readline()
        deadline = time.monotonic() + 30
        import socket

        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        links = Links.beside(db)
        return proc, f"http://127.0.0.1:{port}/console/{links.admin}"

    bench.start_server = start_server  # type: ignore[assignment]
    drive = bench.drive

    async def profiled_drive(pages: Any, seconds: float, seed: int, started: Any = lambda: None) -> Any:
        def go() -> None:
            os.kill(procs[-1].pid, signal.SIGUSR1)
            started()

        result = await drive(pages, seconds, seed, go)
        os.kill(procs[-1].pid, signal.SIGUSR2)
        deadline = time.monotonic() + 30
        while not Path(args.out + ".done").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        return result

    Path(args.out + ".done").unlink(missing_ok=True)
    bench.drive = profiled_drive  # type: ignore[assignment]
    run = bench.run_serve_bench(args.tables, args.seconds, scenario=args.scenario, seats=args.seats).to_json()
    print(json.dumps(run))
    for prof in sorted(Path(args.out).parent.glob(Path(args.out).name + ".*.prof")):
        buf = io.StringIO()
        stats = pstats.Stats(str(prof), stream=buf)
        per_step = stats.total_tt * 1000 / max(1, run["steps"])
        print(f"==== {prof.name}: {stats.total_tt:.2f} s CPU, {per_step:.2f} ms a step")
        stats.sort_stats("cumulative").print_stats(args.top)
        print("\n".join(buf.getvalue().splitlines()[6:]))


if __name__ == "__main__":
    main()
