"""``konflikt bench --serve``: many tables of simulated players against a real ``konflikt serve`` on loopback.

The server runs in its own process (as at a real table), on 127.0.0.1 only, over a fresh database in a temporary
folder. Each table is Le våld's one-against-two with every participant a human page and the GM's page watching:
four WebSocket clients per table. A player whose page offers choices waits a moment (:data:`THINK`), picks one at random
and sends it. A step's latency is the time from sending a choice until the last page of that table has a frame
showing it. The run stops by itself: when every conflict has ended, or at the time limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from konflikt.errors import KonfliktError

SCENARIO = "levald/one_against_two"
THINK = (0.25, 0.75)
"""Seconds a simulated player waits before pressing a button (uniform): a quick thumb on a phone."""


Sent = dict[tuple[int, int, str], float]
"""(table, step, seat) → when that seat sent its choice at that step."""


@dataclass
class Page:
    """One simulated page: what it has seen (step → first time seen)."""

    table: int
    seat: str
    url: str
    seen: dict[int, float] = field(default_factory=dict)
    ended: bool = False


@dataclass
class ServeBench:
    tables: int
    pages: int
    steps: int
    finished: int
    seconds: float
    latencies_ms: list[float]
    server_rss_mb: float | None
    refused: int
    server_cpu_s: float | None = None
    """CPU time the server process used during the run: less at the mercy of other load than the latencies."""
    client_cpu_s: float | None = None
    """CPU time the simulated pages used (this process): they share the machine with the server."""
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """The machine's load average when the run ended (1, 5, 15 minutes)."""

    def percentile(self, q: float) -> float:
        return float(np.percentile(self.latencies_ms, q)) if self.latencies_ms else float("nan")

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": SCENARIO,
            "tables": self.tables,
            "pages": self.pages,
            "steps": self.steps,
            "finished": self.finished,
            "seconds": round(self.seconds, 2),
            "p50_ms": round(self.percentile(50), 2),
            "p95_ms": round(self.percentile(95), 2),
            "p99_ms": round(self.percentile(99), 2),
            "max_ms": round(max(self.latencies_ms), 2) if self.latencies_ms else None,
            "server_peak_rss_mb": self.server_rss_mb,
            "server_cpu_s": None if self.server_cpu_s is None else round(self.server_cpu_s, 2),
            "server_cpu_ms_per_step": (
                round(self.server_cpu_s * 1000 / self.steps, 2) if self.server_cpu_s and self.steps else None
            ),
            "client_cpu_s": None if self.client_cpu_s is None else round(self.client_cpu_s, 2),
            "refused": self.refused,
            "load_average": [round(x, 2) for x in self.load],
        }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def peak_rss_mb(pid: int) -> float | None:
    """The process's peak resident memory (Linux ``/proc``); ``None`` elsewhere."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    match = re.search(r"VmHWM:\s+(\d+) kB", text)
    return round(int(match.group(1)) / 1024, 1) if match else None


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU time of a process so far (Linux ``/proc``); ``None`` elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(db: Path, port: int) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "konflikt", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    console = ""
    for line in proc.stdout:
        if line.startswith("GM console: "):
            console = line.split(": ", 1)[1].strip()
            break
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, console
        time.sleep(0.05)
    proc.kill()
    raise KonfliktError("bench --serve: the server did not start")


def open_table(console: str, humans: list[str], seed: int) -> list[tuple[str, str]]:
    """Create one table through the console form; the (seat label, page URL) of every page."""
    form = {"scenario": SCENARIO, "dice": "auto", "seed": str(seed)} | {f"policy:{h}": "human" for h in humans}
    data = urllib.parse.urlencode(form).encode()
    with urllib.request.urlopen(urllib.request.Request(console + "/new", data=data)) as response:
        gm_url = response.geturl()
    api = gm_url.replace("/t/", "/api/t/", 1)
    with urllib.request.urlopen(api) as response:
        frame = json.load(response)
    return [(link["label"], link["url"]) for link in frame["links"]]


async def run_page(page: Page, rng: np.random.Generator, sent: Sent, stop: float) -> int:
    """Play one page until its conflict ends or time is up; returns how many of its messages were refused.

    A reader task stamps every frame the moment it arrives, while the player thinks: a page's arrival times never
    include its own player's thinking (they did before: the frames waited while the player slept).
    """
    import websockets

    ws_url = page.url.replace("http://", "ws://", 1).replace("/t/", "/ws/", 1)
    latest: dict[str, Any] = {}
    fresh = asyncio.Event()
    me = {"sent": 0, "waiting": False, "refused": 0}

    async with websockets.connect(ws_url, max_size=2**24, open_timeout=60) as ws:

        async def reader() -> None:
            async for raw in ws:
                now = time.perf_counter()
                frame = json.loads(raw)
                if frame.get("ack") == str(me["sent"]):
                    me["waiting"] = False  # the server has handled our last choice: frames from now on know of it
                if frame.get("type") == "error":
                    me["refused"] += 1
                    continue
                if frame.get("type") != "frame":
                    continue
                page.seen.setdefault(int(frame["step"]), now)
                latest.clear()
                latest.update(frame)
                fresh.set()
                if frame["terminal"]:
                    page.ended = True
                    return

        task = asyncio.create_task(reader())
        await ws.send(json.dumps({"type": "hello"}))
        try:
            while time.perf_counter() < stop and not page.ended:
                try:
                    await asyncio.wait_for(fresh.wait(), timeout=max(0.01, stop - time.perf_counter()))
                except TimeoutError:
                    break
                fresh.clear()
                if task.done() or not latest.get("choices") or me["waiting"]:
                    continue
                await asyncio.sleep(float(rng.uniform(*THINK)))
                frame = dict(latest)  # act on the newest frame: others may have moved while we thought
                if page.ended or not frame.get("choices") or me["waiting"]:
                    continue
                step = int(frame["step"])
                choice = int(rng.integers(len(frame["choices"])))
                me["sent"] += 1
                me["waiting"] = True
                sent[(page.table, step, page.seat)] = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "step": step, "choice": choice, "id": str(me["sent"])}))
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    return me["refused"]


def latencies(pages: list[Page], sent: Sent) -> list[float]:
    """Per step sent: until the last page of its table saw a later step (ms)."""
    by_table: dict[int, list[Page]] = {}
    for page in pages:
        by_table.setdefault(page.table, []).append(page)
    out = []
    for (table, step, _), t0 in sent.items():
        arrivals = []
        for page in by_table[table]:
            later = [t for s, t in page.seen.items() if s > step and t >= t0]
            if not later:
                break
            arrivals.append(min(later))
        else:
            out.append((max(arrivals) - t0) * 1000)
    return out


async def drive(tables: list[list[tuple[str, str]]], seconds: float, seed: int) -> tuple[list[Page], Sent, int]:
    stop = time.perf_counter() + seconds
    pages = [Page(i, label, url) for i, links in enumerate(tables) for label, url in links]
    sent: Sent = {}
    seeds = np.random.SeedSequence(seed).spawn(len(pages))
    results = await asyncio.gather(
        *(run_page(p, np.random.default_rng(s), sent, stop) for p, s in zip(pages, seeds, strict=True))
    )
    return pages, sent, sum(results)


def run_serve_bench(tables: int = 50, seconds: float = 20.0, seed: int = 1) -> ServeBench:
    """Serve ``tables`` tables of four pages each on loopback for at most ``seconds``; measure step latency."""
    if not 1 <= tables <= 500:
        raise KonfliktError(f"--tables {tables}: from 1 to 500")
    if not 1 <= seconds <= 600:
        raise KonfliktError(f"--seconds {seconds}: from 1 to 600")
    from konflikt.core.scenario import load_scenario

    humans = [p.id for p in load_scenario(SCENARIO).participants()]
    with tempfile.TemporaryDirectory(prefix="konflikt-bench-") as folder:
        proc, console = start_server(Path(folder) / "bench.sqlite", free_port())
        try:
            links = [open_table(console, humans, seed + i) for i in range(tables)]
            cpu_before, mine_before = cpu_seconds(proc.pid), time.process_time()
            began = time.perf_counter()
            pages, sent, refused = asyncio.run(drive(links, seconds, seed))
            took = time.perf_counter() - began
            cpu_after, mine_after = cpu_seconds(proc.pid), time.process_time()
            rss = peak_rss_mb(proc.pid)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    finished = len({p.table for p in pages if p.ended})
    return ServeBench(
        tables,
        len(pages),
        len(sent),
        finished,
        took,
        latencies(pages, sent),
        rss,
        refused,
        None if cpu_before is None or cpu_after is None else cpu_after - cpu_before,
        mine_after - mine_before,
        os.getloadavg(),
    )
