"""The ASGI app: the GM console, one page per seat, a JSON API and a WebSocket per page.

Every request names a table and a token; the token decides the seat, and the seat decides what the page receives
(``WebTable.panel``/``events_for``) and what it may do (``WebTable.handle``). Engine calls are synchronous and run on
the event loop, so two messages never interleave inside a step. Each connection has one writer task that builds its
frame when it sends it: a burst of steps becomes one up-to-date frame, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from konflikt.core.conflict import Conflict
from konflikt.core.scenario import bundled_examples, load_scenario
from konflikt.core.state import GM
from konflikt.errors import KonfliktError
from konflikt.store.db import Store
from konflikt.web.links import Links
from konflikt.web.table import Sent, WebTable

MAX_MESSAGE = 4096
"""Bytes: the largest message a page may send (a choice is under 100)."""
RATE = 10.0
BURST = 20.0
"""Messages per second a connection may send on average, and in a burst."""
FIELDS = ("type", "step", "choice", "seat", "text", "count")

STATIC = Path(__file__).parent / "static"


@dataclass(eq=False)
class Conn:
    """One open page: its socket, seat, what it has received, and its writer's queue."""

    ws: WebSocket
    seat: str
    sent: Sent = field(default_factory=Sent)
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    allowance: float = BURST
    checked: float = field(default_factory=time.monotonic)
    frame_due: bool = False
    ack: str = ""
    """The ``id`` of the last message this page sent that the server has handled (frames carry it)."""

    def wake(self) -> None:
        """Ask the writer for a fresh frame; one is enough however many steps happen before it runs."""
        if not self.frame_due:
            self.frame_due = True
            self.queue.put_nowait({"type": "frame"})

    def take(self) -> bool:
        """A token bucket: ``False`` when the page sends faster than :data:`RATE` allows."""
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Hub:
    """The live tables of one server, their links, and the pages connected to each."""

    def __init__(self, db: Path | None, admin: str | None = None) -> None:
        self.db = db
        self.admin = admin
        self.store: Store | None = None
        self.links: Links | None = None
        self.tables: dict[int, WebTable] = {}
        self.conns: dict[int, set[Conn]] = {}
        self.jinja = Environment(
            loader=PackageLoader("konflikt.web", "templates"), autoescape=select_autoescape(default=True)
        )

    def open(self) -> None:
        self.store = Store.open(self.db)
        self.links = Links.beside(self.store.path)
        if self.admin is not None and self.links.admin != self.admin:
            self.links.admin = self.admin
            self.links.save()

    def close(self) -> None:
        if self.store is not None:
            self.store.close()

    # ---- tables -----------------------------------------------------------------------------------------------
    def table(self, cid: int) -> WebTable:
        assert self.store is not None
        if cid not in self.tables:
            self.tables[cid] = WebTable.load(self.store, self.store.load(cid))
        return self.tables[cid]

    def seat_for(self, cid: int, token: str) -> tuple[WebTable, str]:
        """The table and the seat a token acts for; an unknown pair is refused without saying which part."""
        assert self.links is not None
        seat = self.links.seat_of(cid, token)
        if seat is None:
            raise LookupError("no such table link")
        return self.table(cid), seat

    def create(self, scenario_name: str, policies: Mapping[str, str], dice: str, seed: int | None) -> tuple[int, str]:
        """A new table from a bundled scenario or a scenario file; returns its id and the GM's token."""
        assert self.store is not None and self.links is not None
        if dice not in ("auto", "table"):
            raise KonfliktError(f"dice takes auto or table, not {dice[:20]!r}")
        scenario = load_scenario(scenario_name)
        names = {p.id: p.policy for p in scenario.participants()}
        names[GM] = scenario.gm
        allowed = {*scenario.ruleset.policy_names(), "human"}
        for seat, name in policies.items():
            if seat not in names:
                raise KonfliktError(f"{scenario_name}: no seat {seat[:40]!r} (seats: {', '.join(names)})")
            if name not in allowed:
                raise KonfliktError(f"policy {name[:40]!r} for {seat}: choose one of {', '.join(sorted(allowed))}")
            names[seat] = name
        if seed is None:
            seed = scenario.seed if scenario.seed is not None else secrets.randbelow(2**31)
        conflict = Conflict(scenario, {}, seed)
        conflict.replay()
        cid = self.store.create(conflict, dice, names)
        tokens = self.links.ensure(cid, [p.id for p in scenario.participants()] + [GM])
        self.table(cid)
        return cid, tokens[GM]

    def adopt(self, cid: int) -> str:
        """Open a saved conflict (begun with ``konflikt play`` perhaps) at this table: make its links."""
        assert self.links is not None
        table = self.table(cid)
        return self.links.ensure(cid, table.seats())[GM]

    # ---- frames -----------------------------------------------------------------------------------------------
    def render(self, name: str, **context: Any) -> str:
        return self.jinja.get_template(name).render(**context)

    def panel(self, table: WebTable, seat: str, base: str) -> dict[str, Any]:
        assert self.links is not None
        panel = table.panel(seat)
        token = self.links.tables.get(table.id, {})
        panel["post"] = f"/t/{table.id}/{token.get(seat, '')}"
        if seat == GM:
            panel["links"] = [
                {"label": table.label(s), "url": f"{base}/t/{table.id}/{token[s]}"} for s in table.seats() if s in token
            ]
        return panel

    def frame(self, table: WebTable, seat: str, sent: Sent, base: str) -> dict[str, Any]:
        panel = self.panel(table, seat, base)
        events, reset = table.events_for(seat, sent)
        panel.pop("view", None)
        return {
            "type": "frame",
            **panel,
            "html": self.render("panel.html", p=panel),
            "events": events,
            "reset": reset,
        }

    def changed(self, cid: int) -> None:
        for conn in self.conns.get(cid, ()):
            conn.wake()

    def apply(self, table: WebTable, seat: str, message: Mapping[str, Any]) -> None:
        try:
            table.handle(seat, message)
        finally:
            self.changed(table.id)


def same_origin(conn: HTTPConnection) -> bool:
    """A browser's Origin must name this server (host and port); clients that send none are not browsers."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == conn.headers.get("host", "")


async def read_form(request: Request) -> dict[str, str]:
    """A urlencoded form, bounded in size (no multipart: the pages send nothing else)."""
    body = await request.body()
    if len(body) > MAX_MESSAGE:
        raise KonfliktError(f"form too long (at most {MAX_MESSAGE} bytes)")
    try:
        return dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=50))
    except (UnicodeDecodeError, ValueError):
        raise KonfliktError("the form could not be read") from None


def one_line(text: str) -> str:
    return " ".join(str(text).split())[:300]


def base_url(conn: HTTPConnection) -> str:
    """This server's address as a page would link to it (a socket's own URL says ws: or wss:)."""
    url = conn.base_url
    scheme = {"ws": "http", "wss": "https"}.get(url.scheme, url.scheme)
    return str(url.replace(scheme=scheme)).rstrip("/")


def create_app(db: Path | None = None, admin: str | None = None) -> Starlette:
    """The app over the save database ``db``; ``admin`` fixes the console's key (tests), else it is kept beside it."""
    hub = Hub(db, admin)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.open()
        app.state.hub = hub
        try:
            yield
        finally:
            hub.close()

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(hub.render(name, **context), status_code=status)

    def error_page(request: Request, message: str, status: int) -> HTMLResponse:
        return page(request, "message.html", status, title="konflikt", message=one_line(message))

    async def index(request: Request) -> Response:
        return page(
            request,
            "message.html",
            title="konflikt table",
            message="Ask your game master for your seat's link. The GM's console link was printed by 'konflikt serve'.",
        )

    def console_key(request: Request) -> bool:
        assert hub.links is not None
        return hub.links.is_admin(str(request.path_params["key"]))

    async def console(request: Request) -> Response:
        if not console_key(request):
            return error_page(request, "no such page", 404)
        assert hub.store is not None and hub.links is not None
        examples = sorted(
            f"{p.parent.name}/{p.stem}" for p in bundled_examples().glob("*/*.toml") if p.parent.name != "sweeps"
        )
        saved = []
        for row in hub.store.list():
            tokens = hub.links.tables.get(row.id, {})
            saved.append({"row": row, "gm": f"/t/{row.id}/{tokens[GM]}" if GM in tokens else None})
        return page(request, "console.html", key=request.path_params["key"], examples=examples, saved=saved[::-1])

    async def new_table(request: Request) -> Response:
        if not console_key(request):
            return error_page(request, "no such page", 404)
        key = request.path_params["key"]
        if request.method == "GET":
            name = request.query_params.get("scenario", "")
            try:
                scenario = load_scenario(name)
            except KonfliktError as exc:
                return error_page(request, str(exc), 400)
            seats = [(p.id, p.name, p.policy) for p in scenario.participants()] + [(GM, "the GM", scenario.gm)]
            return page(
                request,
                "new.html",
                key=key,
                scenario=name,
                title=scenario.title,
                seats=seats,
                policies=[*scenario.ruleset.policy_names(), "human"],
            )
        if not same_origin(request):
            return error_page(request, "refused: this form came from another site", 403)
        try:
            form = await read_form(request)
        except KonfliktError as exc:
            return error_page(request, str(exc), 400)
        policies = {k[7:]: str(v) for k, v in form.items() if k.startswith("policy:")}
        seed_text = str(form.get("seed", "")).strip()
        try:
            seed = int(seed_text) if seed_text else None
            if seed is not None and not 0 <= seed < 2**63:
                raise ValueError
        except ValueError:
            return error_page(request, f"seed {seed_text[:30]!r} is not a whole number from 0 to 2**63 - 1", 400)
        try:
            cid, token = hub.create(str(form.get("scenario", "")), policies, str(form.get("dice", "auto")), seed)
        except KonfliktError as exc:
            return error_page(request, str(exc), 400)
        return RedirectResponse(f"/t/{cid}/{token}", status_code=303)

    async def adopt(request: Request) -> Response:
        if not console_key(request) or not same_origin(request):
            return error_page(request, "no such page", 404)
        try:
            token = hub.adopt(int(request.path_params["cid"]))
        except KonfliktError as exc:
            return error_page(request, str(exc), 400)
        return RedirectResponse(f"/t/{request.path_params['cid']}/{token}", status_code=303)

    def lookup(conn: HTTPConnection) -> tuple[WebTable, str]:
        return hub.seat_for(int(conn.path_params["cid"]), str(conn.path_params["token"]))

    async def seat_page(request: Request) -> Response:
        try:
            table, seat = lookup(request)
        except LookupError:
            return error_page(request, "no such table link: ask your game master for yours", 404)
        except KonfliktError as exc:
            return error_page(request, str(exc), 400)
        error = None
        if request.method == "POST":
            if not same_origin(request):
                return error_page(request, "refused: this form came from another site", 403)
            try:
                form = await read_form(request)
            except KonfliktError as exc:
                return error_page(request, str(exc), 400)
            message = {k: _form_value(k, str(form[k])) for k in FIELDS if k in form}
            try:
                hub.apply(table, seat, message)
            except KonfliktError as exc:
                error = one_line(str(exc))
            else:
                return RedirectResponse(str(request.url.path), status_code=303)
        panel = hub.panel(table, seat, base_url(request))
        events = [{"step": e.step, "text": e.text} for e in table.visible_events(seat)]
        return page(
            request,
            "table.html",
            400 if error else 200,
            p=panel,
            events=events,
            error=error,
            ws=f"/ws/{table.id}/{request.path_params['token']}",
        )

    async def api(request: Request) -> Response:
        try:
            table, seat = lookup(request)
        except LookupError:
            return JSONResponse({"error": "no such table link"}, status_code=404)
        except KonfliktError as exc:
            return JSONResponse({"error": one_line(str(exc))}, status_code=400)
        if request.method == "POST":
            if not same_origin(request):
                return JSONResponse({"error": "refused: Origin is not this server"}, status_code=403)
            body = await request.body()
            if len(body) > MAX_MESSAGE:
                return JSONResponse({"error": f"message too long (at most {MAX_MESSAGE} bytes)"}, status_code=413)
            try:
                message = json.loads(body)
                if not isinstance(message, dict):
                    raise ValueError
            except ValueError:
                return JSONResponse({"error": "not a JSON object"}, status_code=400)
            try:
                hub.apply(table, seat, message)
            except KonfliktError as exc:
                return JSONResponse({"error": one_line(str(exc))}, status_code=400)
        return JSONResponse(hub.frame(table, seat, Sent(), base_url(request)))

    async def socket(ws: WebSocket) -> None:
        if not same_origin(ws):
            await ws.close(code=1008, reason="Origin is not this server")
            return
        try:
            table, seat = lookup(ws)
        except (LookupError, KonfliktError, ValueError):
            await ws.close(code=1008, reason="no such table link")
            return
        await ws.accept()
        conn = Conn(ws, seat)
        hub.conns.setdefault(table.id, set()).add(conn)
        base = base_url(ws)

        async def writer() -> None:
            while True:
                item = await conn.queue.get()
                if item is None:
                    return
                if item.get("type") == "frame":
                    conn.frame_due = False
                    item = hub.frame(table, seat, conn.sent, base) | {"ack": conn.ack}
                await ws.send_text(json.dumps(item, ensure_ascii=False))

        task = asyncio.create_task(writer())
        first = True
        try:
            while True:
                text = await ws.receive_text()
                if len(text) > MAX_MESSAGE:
                    conn.queue.put_nowait({"type": "error", "message": f"message too long (at most {MAX_MESSAGE})"})
                    continue
                if not conn.take():
                    conn.queue.put_nowait({"type": "error", "message": "too many messages: slow down"})
                    continue
                try:
                    message = json.loads(text)
                    if not isinstance(message, dict):
                        raise ValueError
                except ValueError:
                    conn.queue.put_nowait({"type": "error", "message": "not a JSON object"})
                    continue
                if message.get("type") == "ping":
                    conn.queue.put_nowait({"type": "pong", "id": str(message.get("id", ""))[:40]})
                    continue
                if message.get("type") == "hello":
                    # the page says what it has: catch up from there if the log is the same, else start over
                    epoch, have = message.get("epoch"), message.get("have")
                    if first and isinstance(epoch, str) and isinstance(have, int) and have >= 0:
                        conn.sent = Sent(epoch, have)
                    first = False
                    conn.wake()
                    continue
                if first:
                    first = False
                    conn.wake()
                conn.ack = str(message.get("id", ""))[:40]
                try:
                    hub.apply(table, seat, message)
                except KonfliktError as exc:
                    conn.queue.put_nowait({"type": "error", "message": one_line(str(exc)), "ack": conn.ack})
        except WebSocketDisconnect:
            pass
        finally:
            hub.conns.get(table.id, set()).discard(conn)
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await task

    routes = [
        Route("/", index),
        Route("/console/{key}", console),
        Route("/console/{key}/new", new_table, methods=["GET", "POST"]),
        Route("/console/{key}/open/{cid:int}", adopt, methods=["POST"]),
        Route("/t/{cid:int}/{token}", seat_page, methods=["GET", "POST"]),
        Route("/api/t/{cid:int}/{token}", api, methods=["GET", "POST"]),
        WebSocketRoute("/ws/{cid:int}/{token}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _form_value(name: str, value: str) -> Any:
    """Form fields arrive as text; the numbers of a message are read back as numbers (or left to be refused)."""
    if name in ("step", "choice", "count"):
        try:
            return int(value)
        except ValueError:
            return value
    return value
