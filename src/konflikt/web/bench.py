"""``konflikt bench --serve``: many tables of simulated players against a real ``konflikt serve`` on loopback.

The server runs in its own process (as at a real table), on 127.0.0.1 only, over a fresh database in a temporary
folder; the simulated pages run in this process, so the two compete for the cores only as a server and its
players' phones would on one machine. Each table has ``seats`` pages: the GM's and one per human participant (the
scenario's first ``seats - 1`` participants; more pages than participants watch on the GM's link). A player whose
page offers choices waits a moment (:data:`THINK`), picks one at random and sends it. A step's latency is the time
from sending a choice until the last page of that table has a frame showing it. The load stays steady: when a
conflict ends, the GM's page undoes it back to the start (one message) and the table plays again. The run stops
by itself at the time limit.

The simulated pages are kept cheap (no compression, frames read with ``orjson``): a page that spends more time
reading its frames than the server spends writing them measures itself, not the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from konflikt.core.state import GM
from konflikt.errors import KonfliktError
from konflikt.web.i18n import _

SCENARIOS = ("levald/one_against_two", "presja/skirmish", "fimbulfrost/dragon", "pwge/shootout")
"""One scenario of each ruleset with at least three participants: four pages a table (three players and the GM)."""
THINK = (0.25, 0.75)
"""Seconds a simulated player waits before pressing a button (uniform): a quick thumb on a phone."""
RESTART = 1000
"""The GM's undo count that takes a finished conflict back to its start (undo stops at the first human input)."""


Sent = dict[tuple[int, str, int, str], float]
"""(table, epoch, step, seat) → when that seat sent its choice at that step of that run of the conflict."""


@dataclass
class Page:
    """One simulated page: what it has seen ((epoch, step) → first time seen)."""

    table: int
    seat: str
    url: str
    gm: bool = False
    seen: dict[tuple[str, int], float] = field(default_factory=dict)
    ended: set[str] = field(default_factory=set)
    """The epochs (runs of the conflict) this page saw end."""
    restart: bool = True
    """The GM's page starts a finished conflict over (``--long-log`` keeps its log instead)."""
    first: bool = False
    """The player presses the first choice, not one at random (``--long-log``: a Le våld fighter who never
    leaves the fight, as :func:`grow` plays)."""


@dataclass
class Start:
    """Every page connects and has its first frame before the clock starts: the handshakes are not the steps."""

    pending: int
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    stop: float = 0.0

    def arrived(self) -> None:
        self.pending -= 1
        if self.pending == 0:
            self.connected.set()


@dataclass
class ServeBench:
    scenario: str
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
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """The load average when the run began: the neighbours' share, before the bench added its own."""

    def percentile(self, q: float) -> float:
        return float(np.percentile(self.latencies_ms, q)) if self.latencies_ms else float("nan")

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "tables": self.tables,
            "pages": self.pages,
            "steps": self.steps,
            "finished": self.finished,
            "seconds": round(self.seconds, 2),
            "p50_ms": _ms(self.percentile(50)),
            "p95_ms": _ms(self.percentile(95)),
            "p99_ms": _ms(self.percentile(99)),
            "max_ms": round(max(self.latencies_ms), 2) if self.latencies_ms else None,
            "server_peak_rss_mb": self.server_rss_mb,
            "server_cpu_s": None if self.server_cpu_s is None else round(self.server_cpu_s, 2),
            "server_cpu_ms_per_step": (
                round(self.server_cpu_s * 1000 / self.steps, 2) if self.server_cpu_s and self.steps else None
            ),
            "client_cpu_s": None if self.client_cpu_s is None else round(self.client_cpu_s, 2),
            "refused": self.refused,
            "load_average_before": [round(x, 2) for x in self.load_before],
            "load_average": [round(x, 2) for x in self.load],
        }


def _ms(value: float) -> float | None:
    return None if np.isnan(value) else round(value, 2)


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
    raise KonfliktError(_("bench --serve: the server did not start"))


class _Keep(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_NO_REDIRECT = urllib.request.build_opener(_Keep)


def open_table(console: str, scenario: str, humans: list[str], seed: int) -> dict[str, str]:
    """Create one table through the console form; seat → page URL for every human seat and the GM."""
    form = {"scenario": scenario, "dice": "auto", "seed": str(seed)} | {f"policy:{h}": "human" for h in humans}
    if scenario.endswith(".toml") and Path(scenario).is_file():  # the console reads only bundled ones by name
        form["toml"] = Path(scenario).read_text(encoding="utf-8")
    data = urllib.parse.urlencode(form).encode()
    try:  # the answer is a redirect to the GM's page: its address is enough (the page itself draws QR codes)
        _NO_REDIRECT.open(urllib.request.Request(console + "/new", data=data)).close()
        raise KonfliktError(_("bench --serve: the console did not open a table"))
    except urllib.error.HTTPError as answer:
        if answer.code != 303:
            raise KonfliktError(_("bench --serve: the console answered {code}", code=answer.code)) from None
        location = answer.headers["location"]
    gm_page = urllib.parse.urljoin(console, location)
    with urllib.request.urlopen(gm_page.replace("/t/", "/api/t/", 1)) as response:
        frame = orjson.loads(response.read())
    return {link["seat"]: link["url"] for link in frame["links"]} | {GM: gm_page}  # join links: human seats


def table_pages(table: int, urls: dict[str, str], humans: list[str], seats: int) -> list[Page]:
    """The pages of one table: every human participant's, the GM's, and watchers on the GM's link up to ``seats``."""
    pages = [Page(table, h, urls[h]) for h in humans] + [Page(table, GM, urls[GM], gm=True)]
    pages += [Page(table, f"watcher {i}", urls[GM]) for i in range(seats - len(pages))]
    return pages


async def run_page(page: Page, rng: np.random.Generator, sent: Sent, start: Start) -> int:
    """Play one page until time is up; returns how many of its messages were refused.

    A reader task stamps every frame the moment it arrives, while the player thinks: a page's arrival times never
    include its own player's thinking. The GM's page starts a finished conflict over (undo to the start).
    """
    import websockets

    ws_url = page.url.replace("http://", "ws://", 1).replace("/t/", "/ws/", 1)
    latest: dict[str, Any] = {}
    fresh = asyncio.Event()
    me = {"sent": 0, "waiting": False, "refused": 0}

    async with websockets.connect(ws_url, max_size=2**24, open_timeout=60, compression=None) as ws:

        async def reader() -> None:
            async for raw in ws:
                now = time.perf_counter()
                frame = orjson.loads(raw)
                if frame.get("ack") == str(me["sent"]):
                    me["waiting"] = False  # the server has handled our last message: frames from now on know of it
                if frame.get("type") == "error":
                    me["refused"] += 1
                    continue
                if frame.get("type") != "frame":
                    continue
                page.seen.setdefault((frame["epoch"], int(frame["step"])), now)
                if frame["terminal"]:
                    page.ended.add(frame["epoch"])
                latest.clear()
                latest.update(frame)
                fresh.set()

        async def send(message: dict[str, Any]) -> None:
            me["sent"] += 1
            me["waiting"] = True
            await ws.send(orjson.dumps(message | {"id": str(me["sent"])}).decode())

        task = asyncio.create_task(reader())
        await ws.send('{"type": "hello"}')
        await fresh.wait()  # the first frame: connected
        start.arrived()
        await start.go.wait()
        try:
            while time.perf_counter() < start.stop:
                try:
                    await asyncio.wait_for(fresh.wait(), timeout=max(0.01, start.stop - time.perf_counter()))
                except TimeoutError:
                    break
                fresh.clear()
                if task.done() or me["waiting"]:
                    continue
                if latest.get("terminal"):
                    if page.gm and page.restart:
                        await send({"type": "undo", "count": RESTART})
                    continue
                if not latest.get("choices"):
                    continue
                await asyncio.sleep(float(rng.uniform(*THINK)))
                frame = dict(latest)  # act on the newest frame: others may have moved while we thought
                if frame.get("terminal") or not frame.get("choices") or me["waiting"]:
                    continue
                step = int(frame["step"])
                sent[(page.table, frame["epoch"], step, page.seat)] = time.perf_counter()
                choice = 0 if page.first else int(rng.integers(len(frame["choices"])))
                await send({"type": "act", "step": step, "choice": choice})
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    return me["refused"]


def latencies(pages: list[Page], sent: Sent) -> list[float]:
    """Per choice sent: until the last page of its table saw a later step of the same run (ms)."""
    by_table: dict[int, list[Page]] = {}
    for page in pages:
        by_table.setdefault(page.table, []).append(page)
    out = []
    for (table, epoch, step, _seat), t0 in sent.items():
        arrivals = []
        for page in by_table[table]:
            later = [t for (e, s), t in page.seen.items() if e == epoch and s > step and t >= t0]
            if not later:
                break
            arrivals.append(min(later))
        else:
            out.append((max(arrivals) - t0) * 1000)
    return out


async def drive(
    pages: list[Page], seconds: float, seed: int, started: Callable[[], None] = lambda: None
) -> tuple[Sent, int]:
    """Connect every page, call ``started`` (the clocks), then play for ``seconds``."""
    sent: Sent = {}
    start = Start(len(pages))
    seeds = np.random.SeedSequence(seed).spawn(len(pages))
    tasks = [
        asyncio.create_task(run_page(p, np.random.default_rng(s), sent, start))
        for p, s in zip(pages, seeds, strict=True)
    ]
    try:
        await asyncio.wait_for(start.connected.wait(), timeout=120)
    except TimeoutError:
        for task in tasks:
            task.cancel()
        raise KonfliktError(_("bench --serve: the pages could not all connect within 2 minutes")) from None
    started()
    start.stop = time.perf_counter() + seconds
    start.go.set()
    results = await asyncio.gather(*tasks)
    return sent, sum(results)


def check_sizes(tables: int, seats: int, seconds: float) -> None:
    if not 1 <= tables <= 500:
        raise KonfliktError(_("--tables {tables}: from 1 to 500", tables=tables))
    if not 2 <= seats <= 8:
        raise KonfliktError(_("--seats {seats}: from 2 to 8 pages a table (the GM's and the players')", seats=seats))
    if not 1 <= seconds <= 600:
        raise KonfliktError(_("--seconds {seconds}: from 1 to 600", seconds=seconds))


def run_serve_bench(
    tables: int = 50, seconds: float = 20.0, seed: int = 1, scenario: str = SCENARIOS[0], seats: int = 4
) -> ServeBench:
    """Serve ``tables`` tables of ``seats`` pages each on loopback for ``seconds``; measure step latency."""
    check_sizes(tables, seats, seconds)
    from konflikt.core.scenario import load_scenario

    humans = [p.id for p in load_scenario(scenario).participants()][: seats - 1]
    with tempfile.TemporaryDirectory(prefix="konflikt-bench-") as folder:
        proc, console = start_server(Path(folder) / "bench.sqlite", free_port())
        try:
            pages = [
                page
                for i in range(tables)
                for page in table_pages(i, open_table(console, scenario, humans, seed + i), humans, seats)
            ]
            clocks: dict[str, Any] = {}

            def started() -> None:
                clocks.update(load=os.getloadavg(), cpu=cpu_seconds(proc.pid), mine=time.process_time())
                clocks["began"] = time.perf_counter()

            sent, refused = asyncio.run(drive(pages, seconds, seed, started))
            took = time.perf_counter() - clocks["began"]
            load_before, cpu_before, mine_before = clocks["load"], clocks["cpu"], clocks["mine"]
            cpu_after, mine_after = cpu_seconds(proc.pid), time.process_time()
            rss = peak_rss_mb(proc.pid)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    finished = sum(len(p.ended) for p in pages if p.gm)
    return ServeBench(
        scenario,
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
        load_before,
    )


LONG_SCENARIO = "levald/duel"
"""The table of ``bench --serve --long-log``: a duel, its two fighters on pages of their own."""
LONG_STEPS = 1000
"""The log's length (steps) at which the second measurement begins."""


def _api(url: str, message: dict[str, Any] | None = None) -> dict[str, Any]:
    """A page's JSON API (``/t/`` → ``/api/t/``): its frame, after ``message`` if one is given (a refusal too)."""
    target = url.replace("/t/", "/api/t/", 1)
    data = orjson.dumps(message) if message is not None else None
    request = urllib.request.Request(target, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            answer: dict[str, Any] = orjson.loads(response.read())
    except urllib.error.HTTPError as refused:
        answer = orjson.loads(refused.read())
    return answer


def keep_fresh(gm_url: str, fresh: dict[str, int]) -> int:
    """The GM corrects every value the fight has changed back to where it began (Gard, Omtöckning), so the duel
    never ends and its log only grows; returns the table's step."""
    frame = _api(gm_url)
    for c in frame.get("corrections", []):
        if c["target"] in fresh and c["now"] != fresh[c["target"]]:
            message = {"type": "correct", "target": c["target"], "value": fresh[c["target"]], "reason": "bench"}
            frame = _api(gm_url, message)
    return int(frame.get("step", 0))


def grow(urls: dict[str, str], humans: list[str], fresh: dict[str, int], steps: int) -> int:
    """Drive a table through its API until its log has ``steps`` steps: each fighter presses the first choice,
    and the GM keeps everyone fresh. Returns the step reached."""
    reached = 0
    for _turn in range(steps * 4):
        for seat in humans:
            frame = _api(urls[seat])
            if frame.get("choices"):
                _api(urls[seat], {"type": "act", "step": frame["step"], "choice": 0})
        reached = keep_fresh(urls[GM], fresh)
        if reached >= steps:
            return reached
    raise KonfliktError(
        _("bench --serve --long-log: the duel did not reach {steps} steps ({reached})", steps=steps, reached=reached)
    )


async def drive_kept(pages: list[Page], seconds: float, seed: int, gm_url: str, fresh: dict[str, int]) -> Sent:
    """:func:`drive`, with the GM keeping everyone fresh meanwhile (through the API, every 0.1 s)."""
    stop = asyncio.Event()

    async def keeper() -> None:
        while not stop.is_set():
            await asyncio.to_thread(keep_fresh, gm_url, fresh)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=0.1)

    task = asyncio.create_task(keeper())
    try:
        sent, _seen = await drive(pages, seconds, seed)
    finally:
        stop.set()
        await task
    return sent


def run_long_log_bench(seconds: float = 20.0, seed: int = 1) -> dict[str, Any]:
    """Latency per tap on one table at its start, and on one whose log is already :data:`LONG_STEPS` long, one
    after the other on the same server, under the same players (two fighters and the GM's page) and the same
    GM keeping the duel going: the pages receive a bounded log, so the second should cost what the first does."""
    humans = ["snurre", "hedda"]
    with tempfile.TemporaryDirectory(prefix="konflikt-bench-") as folder:
        proc, console = start_server(Path(folder) / "bench.sqlite", free_port())
        try:
            fresh_table = open_table(console, LONG_SCENARIO, humans, seed)
            long_table = open_table(console, LONG_SCENARIO, humans, seed)
            fresh = {c["target"]: c["now"] for c in _api(fresh_table[GM])["corrections"]}
            grown = grow(long_table, humans, fresh, LONG_STEPS)
            measured: dict[str, Any] = {"scenario": LONG_SCENARIO, "seconds": seconds, "grown_to_step": grown}
            for label, urls in (("start", fresh_table), ("after", long_table)):
                pages = table_pages(0, urls, humans, len(humans) + 1)
                for page in pages:
                    page.restart, page.first = False, True  # the duel goes on: its log only grows
                sent = asyncio.run(drive_kept(pages, seconds, seed, urls[GM], fresh))
                found = latencies(pages, sent)
                measured[f"{label}_taps"] = len(found)
                measured[f"{label}_p95_ms"] = _ms(float(np.percentile(found, 95))) if found else None
                measured[f"{label}_p50_ms"] = _ms(float(np.percentile(found, 50))) if found else None
                measured[f"{label}_end_step"] = _api(urls[GM])["step"]
                measured[f"{label}_ended"] = bool(_api(urls[GM])["terminal"])
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    start, after = measured["start_p95_ms"], measured["after_p95_ms"]
    measured["ratio"] = round(after / start, 2) if start and after else None
    return measured
