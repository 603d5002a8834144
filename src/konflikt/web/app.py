"""The ASGI app: the GM console, one page per seat, a JSON API and a WebSocket per page.

Every request names a table and a token; the token decides the seat, and the seat decides what the page receives
(``WebTable.panel``/``events_for``) and what it may do (``WebTable.handle``). Nothing of the engine runs on the event
loop: a table is loaded, and its inputs applied, under the table's lock in the table's own thread (so two messages
never interleave inside a step, and a table that is slow holds up only itself); a policy that searches or solves
(``mcts``, ``rollout``, ``optimal``) decides apart, in a thread of its own on a copy of the state, within a budget a
decision, without the lock, in a worker process (:mod:`konflikt.web.bots`), so its table's pages go on too and no
other table waits on the interpreter lock. The store's writes run in
their own thread (:mod:`konflikt.web.writer`), and the lock is held until they have committed, so no page ever sees
a step that is not on the disk while other tables go on. Each connection has one writer task that builds its frame
when it sends it: a burst of steps becomes one up-to-date frame, in order. The parts of a frame every page of a step
shares are built once per step (``WebTable.cached``), and each seat's frame is serialized once per step
(``Hub.frame_text``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import json
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes, urlsplit

import orjson
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from konflikt.core.conflict import Conflict
from konflikt.core.i18n import CHOICES, current, language_of, speaking
from konflikt.core.scenario import Scenario, bundled_examples, load_scenario
from konflikt.core.state import GM
from konflikt.errors import KonfliktError, StoreError
from konflikt.safe_text import bad_text, shown
from konflikt.store import library
from konflikt.store.db import LEASE_SECONDS, RENEW_SECONDS, Loaded, Store, TableGone
from konflikt.web import advise
from konflikt.web.bots import Bots
from konflikt.web.campaign import FromCampaign, campaign_names, load_with
from konflikt.web.i18n import Text, _
from konflikt.web.links import Links, TableDeleted
from konflikt.web.odds import FromHere, who_wins_from_here
from konflikt.web.pages import Pages
from konflikt.web.policies import explained, policy_words
from konflikt.web.table import BOT_SECONDS, DICE_MODES, GM_LABEL, LOG_PAGE, TAKEN_IDS, Refused, Sent, WebTable
from konflikt.web.upload import uploaded_scenario
from konflikt.web.writer import StoreThread

MAX_MESSAGE = 4096
"""Bytes: the largest message a page may send (a choice is under 100)."""
RATE = 10.0
BURST = 20.0
"""Messages per second a connection may send on average, and in a burst."""
UPLOAD_MAX = 64 * 1024
"""Bytes: the largest scenario the console takes (the bundled ones are under 4 KB)."""
IN_THE_HTML = frozenset(("status", "rolls", "sheet", "corrections", "goals", "links", "policies", "odds", "post"))
"""A panel's fields that a socket's frames leave to the HTML (see :meth:`Hub._frame_body`)."""
MAX_FIELDS = 50
"""The most fields a posted form may have (the console's seats form has one a seat)."""
MAX_KEY = 64
"""Characters: the longest token or console key a path may hold (they are 24)."""
FIELDS = ("type", "step", "choice", "seat", "text", "count", "target", "value", "reason", "side", "goal", "language")

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

    def __init__(
        self, db: Path | None, admin: str | None = None, bot_seconds: float = BOT_SECONDS, language: str | None = None
    ) -> None:
        self.db = db
        self.language = language_of(language) or current()
        """The server's language (``--lang``, ``KONFLIKT_LANG``, the locale): the tables' own, and every page's
        until its seat chooses another."""
        self.admin = admin
        self.bot_seconds = bot_seconds
        """The budget of one decision of a policy that thinks long (:mod:`konflikt.web.bots`)."""
        self.thinkers: dict[int, tuple[WebTable, asyncio.Task[None]]] = {}
        """Each table's bots at play (:meth:`think`), with the table object they play for."""
        self.failures: dict[str, list[float]] = {}
        """Client address → when it asked for an unknown link (seat token, console key), within the window."""
        self.bots = Bots()
        """Worker processes for the decisions of policies that search (:mod:`konflikt.web.bots`)."""
        self.writer: StoreThread | None = None
        self.links: Links | None = None
        self.tables: dict[int, WebTable] = {}
        self.conns: dict[int, set[Conn]] = {}
        self.pages = Pages()
        self.engines: dict[int, ThreadPoolExecutor] = {}
        """Where each table is loaded and its inputs applied: one thread a table, so a slow table stalls no other."""
        self.loading = asyncio.Lock()

    def open(self) -> None:
        self.writer = StoreThread(self.db, held=True)
        path = self.writer.start()
        try:
            self.links = Links.beside(path)
            self.links.load(self.writer.call_now(lambda store: store.links()))
        except BaseException:
            self.writer.stop()
            raise
        if self.admin is not None and self.links.admin != self.admin:
            self.links.admin = self.admin
            self.links.save()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.stop()  # the store's close releases this server's claims
        for engine in self.engines.values():
            engine.shutdown(wait=False, cancel_futures=True)
        self.bots.close()

    async def stop_thinking(self) -> None:
        """Stop every table's bots (the server is stopping): a decision in progress is given up."""
        thinkers = [task for _, task in self.thinkers.values()]
        for task in thinkers:
            task.cancel()
        for task in thinkers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def renew(self) -> None:
        """Renew this server's claims on its open tables while it runs; a table whose claim was lost (taken over
        after it lapsed, or deleted) is dropped from memory, and its links answer why."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                lost = await self.store.call(lambda store: store.renew(LEASE_SECONDS))
            except StoreError:
                continue
            for cid in lost:
                self.drop(cid, lambda: _("this table was taken over by another konflikt; reload the page"))

    def drop(self, cid: int, why: Text) -> None:
        """Forget a table held in memory: its pages' next inputs are refused with ``why`` and write nothing."""
        table = self.tables.pop(cid, None)
        if table is not None:
            table.dropped = why
        self.changed(cid)

    @property
    def store(self) -> StoreThread:
        assert self.writer is not None
        return self.writer

    # ---- tables -----------------------------------------------------------------------------------------------
    async def table(self, cid: int) -> WebTable:
        """The table of saved conflict ``cid``, loaded and claimed by this server (renewed while it runs).

        Raises:
            TableDeleted: the conflict is gone (its links say so from now on).
            StoreError: another konflikt has it open (``play --resume``), or it cannot be read.
        """
        if cid not in self.tables:
            async with self.loading:
                if cid not in self.tables:

                    def claimed(store: Store) -> Loaded:
                        if not store.exists(cid):
                            raise TableGone(f"conflict {cid} was deleted")
                        store.claim(cid, lease=LEASE_SECONDS)
                        try:
                            return store.load(cid)
                        except BaseException:
                            store.release(cid)
                            raise

                    try:
                        loaded = await self.store.call(claimed)
                    except TableGone:
                        assert self.links is not None
                        self.links.forget(cid)
                        raise TableDeleted(cid) from None
                    engine = self.engines.get(cid)
                    if engine is None:
                        engine = self.engines[cid] = ThreadPoolExecutor(1, thread_name_prefix=f"konflikt-table-{cid}")
                    loop = asyncio.get_running_loop()
                    # replayed off the event loop, speaking the server's language
                    table = await loop.run_in_executor(engine, WebTable.load, loaded, self.language)
                    await self.store.write(table.take_writes())
                    self.tables[cid] = table
                    self.think(table)
        return self.tables[cid]

    def think(self, table: WebTable) -> None:
        """Let the table's policies that think long play, in the background, while it waits for them."""
        running = self.thinkers.get(table.id)
        if running is None or running[1].done() or running[0] is not table:  # a table reloaded: its own bots
            self.thinkers[table.id] = (table, asyncio.create_task(self._think(table)))

    async def _think(self, table: WebTable) -> None:
        """One decision at a time, each in a thread of its own on a copy of the state, within the budget; the
        lock is held only to take the copy and to apply and commit the decision, so the table's pages go on."""
        loop = asyncio.get_running_loop()
        while table.dropped is None and self.tables.get(table.id) is table:
            async with table.lock:
                job = table.bot_job()
                if job is None:
                    return
                seat, policy, copy, rng, version = job
                name = table.names.get(seat, "")
                table.thinking = {"seat": seat, "label": table.label(seat), "policy": name, "budget": self.bot_seconds}
                table.thinking_seq += 1
            self.changed(table.id)
            try:
                action, why = await self.bots.decide(policy, copy, seat, rng, self.bot_seconds)
            finally:
                table.thinking = None
                table.thinking_seq += 1
            async with table.lock:
                if why is not None:
                    table.notice(_notice(table, seat, name, why))
                try:
                    await loop.run_in_executor(self.engines[table.id], table.play_bot, seat, action, version)
                except Exception as exc:  # the GM's page says so; the table waits, paused
                    table.notice(_notice(table, seat, name, _paused(str(exc))))
                    table.paused = True
                try:
                    await self.commit(table)
                except KonfliktError:
                    return  # deleted or taken over: the pages' next inputs say so
                finally:
                    self.changed(table.id)

    async def seat_for(self, cid: int, token: str) -> tuple[WebTable, str]:
        """The table and the seat a token acts for; an unknown pair is refused without saying which part.

        Raises:
            LookupError: no such link.
            TableDeleted: a link made for a conflict that has been deleted.
        """
        assert self.links is not None
        seat = self.links.seat_of(cid, token)
        if seat is None:
            raise LookupError("no such table link")
        held = self.tables.get(cid)
        if held is not None and not await self.store.call(lambda store: store.exists(cid)):
            # deleted by another konflikt after this server's claim had lapsed: nothing more is written for it
            self.links.forget(cid)
            self.drop(cid, TableDeleted(cid).__str__)
            raise TableDeleted(cid)
        return await self.table(cid), seat

    async def ensure_links(self, cid: int, seats: list[str]) -> dict[str, str]:
        """The table's join links by seat, made (in the store, bound to this conflict) where missing."""
        assert self.links is not None
        try:
            tokens = await self.store.call(lambda store: store.link(cid, seats))
        except TableGone:
            self.links.forget(cid)
            raise TableDeleted(cid) from None
        self.links.add(cid, tokens)
        return tokens

    async def create(
        self,
        scenario: Scenario,
        policies: Mapping[str, str],
        dice: str,
        seed: int | None,
        cast: library.Cast | None = None,
    ) -> tuple[int, str]:
        """A new table from a scenario (bundled, or uploaded and checked); returns its id and the GM's token.
        ``cast``: the campaign its characters came from (:mod:`konflikt.web.campaign`), written back at its end."""
        assert self.links is not None
        if dice not in DICE_MODES:
            raise KonfliktError(_("dice takes {modes}, not {dice}", modes=", ".join(DICE_MODES), dice=repr(dice[:20])))
        scenario_name = scenario.source
        names = {p.id: p.policy for p in scenario.participants()}
        names[GM] = scenario.gm
        allowed = {*scenario.ruleset.policy_names(), "human"}
        for seat, name in policies.items():
            if seat not in names:
                raise KonfliktError(
                    _(
                        "{scenario}: no seat {seat} (seats: {seats})",
                        scenario=scenario_name,
                        seat=repr(seat[:40]),
                        seats=", ".join(names),
                    )
                )
            if name not in allowed:
                raise KonfliktError(
                    _(
                        "policy {policy} for {seat}: choose one of {policies}",
                        policy=repr(name[:40]),
                        seat=seat,
                        policies=", ".join(sorted(allowed)),
                    )
                )
            names[seat] = name
        if seed is None:
            seed = scenario.seed if scenario.seed is not None else secrets.randbelow(2**31)
        conflict = Conflict(scenario, {}, seed)
        await asyncio.to_thread(conflict.replay)
        cid = await self.store.call(lambda store: store.create(conflict, dice, names, cast=cast))
        tokens = await self.ensure_links(cid, [p.id for p in scenario.participants()] + [GM])
        await self.table(cid)
        return cid, tokens[GM]

    async def adopt(self, cid: int) -> str:
        """Open a saved conflict (begun with ``konflikt play`` perhaps) at this table: make its links."""
        table = await self.table(cid)
        return (await self.ensure_links(cid, table.seats()))[GM]

    # ---- frames -----------------------------------------------------------------------------------------------
    def render(self, name: str, **context: Any) -> str:
        return self.pages.render(name, **context)

    def panel(self, table: WebTable, seat: str, base: str) -> tuple[dict[str, Any], Markup]:
        """A seat's panel and its HTML, built once per step and seat (call it holding the table's lock)."""
        odds = (table.odds_seq if seat == GM else 0, table.advice.seq, table.thinking_seq)
        return table.cached(("panel", seat, base, odds), lambda: self._panel(table, seat, base))

    def _panel(self, table: WebTable, seat: str, base: str) -> tuple[dict[str, Any], Markup]:
        """Rendered in parts: what changes at every step (whose turn, the buttons) each time; the GM's tools, the
        seat's sheet and the shared cards only when something in them changes (:meth:`WebTable.kept`)."""
        assert self.links is not None
        panel = table.panel(seat)
        token = self.links.tables.get(table.id, {})
        panel["post"] = f"/t/{table.id}/{token.get(seat, '')}"
        panel["advice"] = advise.panel_part(table, seat)
        gm_tools = Markup()
        if seat == GM:
            panel["odds"] = table.odds_now()
            panel["links"] = table.kept(
                ("links", base),
                tuple(token.items()),
                lambda: [
                    {"seat": s, "label": table.label(s), "url": f"{base}/t/{table.id}/{token[s]}"}
                    for s in table.seats()
                    if s in token and s != GM and table.human(s)  # the GM has this page; a bot needs none
                ],
            )
            gm_tools = self._gm_tools(table, panel)
        sheet = table.kept(
            ("sheet", seat),
            orjson.dumps(panel["sheet"]),
            lambda: Markup(self.render("sheet.html", p=panel)),
        )
        shared = table.cached("shared.html", lambda: self._shared_html(table, panel))
        mine = f'<div class="who-row"><h3>{escape(panel["label"])}<span class="you">'
        shared = shared.replace(mine, mine.replace("who-row", "who-row me"), 1)
        html = self.render("panel.html", p=panel, gm_tools=gm_tools, sheet=sheet)
        return panel, Markup(html + shared)  # every part rendered with autoescape

    def _gm_tools(self, table: WebTable, panel: dict[str, Any]) -> Markup:
        """The GM's cards of tools: the table's (undo, pause, the odds, the seats), rendered again only when the
        pause, the odds or the end changes; the correction form only when a correctable value does (in PWGE the
        action pools, at most steps). Neither holds the step number."""
        post, corrections, goals = panel["post"], panel["corrections"], panel["goals"]
        tools = table.kept(
            "gm_tools",
            (post, panel["paused"], panel["terminal"], orjson.dumps(panel["odds"]), tuple(panel["policies"].items())),
            lambda: Markup(self.render("gm_tools.html", p=panel)),
        )
        form = table.kept(
            "corrections",
            (post, tuple(tuple(c.values()) for c in corrections), tuple(tuple(g.values()) for g in goals)),
            lambda: Markup(self.render("corrections.html", post=post, corrections=corrections, goals=goals)),
        )
        return tools + form

    def _shared_html(self, table: WebTable, panel: dict[str, Any]) -> str:
        """The dice and the *Everyone* card, rendered again only when the dice or a value shown in it changes (many
        steps change neither: a secret choice, a declaration, whose turn it is)."""
        return table.kept(
            "shared.html",
            orjson.dumps([panel["rolls"], panel["status"]]),
            lambda: self.render("shared.html", p=panel),
        )

    def frame(self, table: WebTable, seat: str, sent: Sent, base: str) -> dict[str, Any]:
        panel, html = self.panel(table, seat, base)
        events, reset, first = table.events_for(seat, sent)
        return {"type": "frame", **panel, "html": str(html), "events": events, "reset": reset, "first": first}

    def frame_text(self, table: WebTable, seat: str, sent: Sent, base: str, ack: str) -> str:
        """:meth:`frame` as the socket sends it, with the ``ack``: the seat's part serialized once per step (the
        same bytes for every page of that seat), then what this connection has not yet received."""
        odds = (table.odds_seq if seat == GM else 0, table.advice.seq, table.thinking_seq)
        body: bytes = table.cached(("frame", seat, base, odds), lambda: self._frame_body(table, seat, base))
        events, reset, first = table.events_for(seat, sent)
        tail = orjson.dumps({"events": events, "reset": reset, "first": first, "ack": ack})
        return (body + b"," + tail[1:]).decode()

    def _frame_body(self, table: WebTable, seat: str, base: str) -> bytes:
        """The JSON of a seat's frame without its events, open at the end (``{...`` without the ``}``).

        A socket's frame carries the page's HTML and the seat's own fields (whose turn, its choices, the secret
        choices it may see); the parts that are already in the HTML and are the same for every seat or change
        seldom (:data:`IN_THE_HTML`: the whole table's values, the dice, the GM's lists) are left out, a third of
        the bytes every page receives at every step. ``/api/t/…`` still answers with all of it.
        """
        panel, html = self.panel(table, seat, base)
        live = {key: value for key, value in panel.items() if key not in IN_THE_HTML}
        return orjson.dumps({"type": "frame", **live, "html": html})[:-1]

    async def ask_odds(self, table: WebTable, seat: str) -> None:
        """The GM asks who wins from here: worked out in a thread on a copy, shown when it is ready."""
        if seat != GM:
            raise Refused(lambda: _("only the GM may ask the odds"))
        async with table.lock:
            if table.odds is not None and table.odds[0] == table.version():
                return  # asked already at this step: shown, or on its way
            version, state = table.version(), table.state.fork()
            table.odds = (version, None)
            table.odds_seq += 1
        self.changed(table.id)
        try:
            answer = await asyncio.to_thread(who_wins_from_here, table.conflict.scenario, state, dict(table.names))
        except Exception as exc:  # the panel says what went wrong; the table goes on
            error = str(exc)
            answer = FromHere(method="none", words=lambda: one_line(_("the calculation failed: {error}", error=error)))
        async with table.lock:
            if table.odds is not None and table.odds[0] == version:
                table.odds = (version, answer)
                table.odds_seq += 1
        self.changed(table.id)

    def throttled(self, conn: HTTPConnection) -> bool:
        """Whether this client's address asked for too many unknown links lately (:data:`FAILED_LINKS`)."""
        who = conn.client.host if conn.client is not None else ""
        now = time.monotonic()
        recent = [t for t in self.failures.get(who, ()) if now - t < FAILED_WINDOW]
        if recent:
            self.failures[who] = recent
        else:
            self.failures.pop(who, None)
        return len(recent) >= FAILED_LINKS

    def failed(self, conn: HTTPConnection) -> None:
        who = conn.client.host if conn.client is not None else ""
        if len(self.failures) > 10_000:  # a flood from many addresses: forget the oldest half
            for old in list(self.failures)[:5_000]:
                del self.failures[old]
        self.failures.setdefault(who, []).append(time.monotonic())

    def changed(self, cid: int) -> None:
        for conn in self.conns.get(cid, ()):
            conn.wake()

    async def apply(self, table: WebTable, seat: str, message: Mapping[str, Any]) -> None:
        """Handle one input, commit what it caused, then wake the table's pages (in that order).

        A table this server no longer holds (deleted, or taken over) takes nothing: its input is refused with the
        reason, and nothing is written.
        """
        if table.dropped is not None or self.tables.get(table.id) is not table:
            raise Refused(table.dropped or (lambda: _("this table was closed on the server; reload the page")))
        bad = bad_text(dict(message))
        if bad is not None:  # JSON can spell a lone surrogate: no page, frame or save could be written with it
            raise Refused(
                lambda: _("{field}: text that is not valid Unicode (a lone surrogate); nothing was changed", field=bad)
            )
        if message.get("type") == "language":
            self.choose_language(table, seat, message.get("language"))
            return
        if message.get("type") == "odds":
            await self.ask_odds(table, seat)
            return
        if message.get("type") in advise.KINDS:
            await advise.handle(table, seat, message, lambda: self.changed(table.id))
            return
        key = message.get("id")
        taken = (seat, key[:40]) if isinstance(key, str) and key else None
        async with table.lock:
            if taken is not None and taken in table.taken:  # a page that retried: applied once already
                raise Refused(lambda: _("that was taken already (sent again after a reconnect); nothing changed"))
            try:
                # in the table's own thread: a policy that thinks long holds up only this table, while the event
                # loop goes on serving the others; one that searches is left to :meth:`think`
                await asyncio.get_running_loop().run_in_executor(self.engines[table.id], table.handle, seat, message)
                if taken is not None:
                    table.taken[taken] = None
                    while len(table.taken) > TAKEN_IDS:
                        table.taken.popitem(last=False)
            finally:
                try:
                    await self.commit(table)
                finally:
                    self.changed(table.id)
        self.think(table)

    async def commit(self, table: WebTable) -> None:
        """Commit the table's writes (call it holding the table's lock).

        Raises:
            TableDeleted: the conflict was deleted under this server (its claim had lapsed): nothing is written.
            StoreError: the write failed; the table is dropped from memory and reloaded from the file.
        """
        try:
            await self.store.write(table.take_writes())
        except TableGone:
            # deleted under a server whose claim had lapsed: the steps in memory are written nowhere
            assert self.links is not None
            self.links.forget(table.id)
            self.drop(table.id, TableDeleted(table.id).__str__)
            raise TableDeleted(table.id) from None
        except Exception as exc:
            # the table in memory is ahead of the file: forget it, the next request reloads what was saved
            error = str(exc)
            self.drop(
                table.id,
                lambda: one_line(_("the save database could not be written: {error}; reload the page", error=error)),
            )
            raise StoreError(_("the save database could not be written: {error}", error=error)) from None

    # ---- languages ----------------------------------------------------------------------------------------------
    def seat_language(self, cid: int, seat: str) -> str:
        """The language ``seat`` of table ``cid`` reads: its own choice, else the server's."""
        assert self.links is not None
        return self.links.language(f"{cid}/{seat}") or self.language

    def language_for(self, conn: HTTPConnection) -> str:
        """The language a request or socket speaks: its seat's (a table's link), the console's (its key), else the
        server's. An unknown link speaks the server's (the lookup refuses it later, and counts it)."""
        if self.links is None:
            return self.language
        params = conn.path_params
        try:
            if "key" in params:
                return self.links.language("console") or self.language
            if "token" in params and "cid" in params:
                cid = table_id(params["cid"])
                seat = self.links.seat_of(cid, str(params["token"])[:MAX_KEY])
                if seat is not None:
                    return self.seat_language(cid, seat)
        except (LookupError, KonfliktError):
            pass
        return self.language

    def choose_language(self, table: WebTable, seat: str, language: object) -> None:
        """``seat`` reads ``language`` from now on (remembered with the seat); its open pages load again in it."""
        assert self.links is not None
        if not isinstance(language, str) or language not in CHOICES:
            shown_language = repr(str(language)[:20])
            raise Refused(
                lambda: _(
                    "language takes {languages}, not {language}", languages=", ".join(CHOICES), language=shown_language
                )
            )
        self.links.choose_language(f"{table.id}/{seat}", language)
        for conn in self.conns.get(table.id, ()):
            if conn.seat == seat:
                conn.queue.put_nowait({"type": "reload"})


def same_origin(conn: HTTPConnection) -> bool:
    """A browser's Origin must name this server (host and port); clients that send none are not browsers."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == conn.headers.get("host", "")


async def read_form(request: Request, limit: int = MAX_MESSAGE) -> dict[str, str]:
    """A urlencoded form, bounded in size (no multipart: the pages send nothing else)."""
    body = await request.body()
    if len(body) > limit:
        most = format(limit, ",")
        raise KonfliktError(_("form too long (at most {limit} bytes)", limit=most))
    parts = [part for part in body.split(b"&") if part]
    if len(parts) > MAX_FIELDS:
        raise KonfliktError(_("the form could not be read (more than {count} fields)", count=MAX_FIELDS))
    form: dict[str, str] = {}
    for part in parts:
        raw_name, _sep, raw_value = part.partition(b"=")
        try:
            name = unquote_to_bytes(raw_name.replace(b"+", b" ")).decode("utf-8")
        except UnicodeDecodeError:
            raise KonfliktError(_("the form could not be read (a field's name is not UTF-8 text)")) from None
        try:
            form[name] = unquote_to_bytes(raw_value.replace(b"+", b" ")).decode("utf-8")
        except UnicodeDecodeError:
            raise KonfliktError(
                _("{field}: not UTF-8 text; nothing was changed", field=shown(name, newlines=False)[:40])
            ) from None
    return form


class Throttled(LookupError):
    """Too many unknown links from one address: answered 429."""


class PageRefused(Exception):
    """A request a page answers with an error page: one line and its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


async def posted_form(request: Request, limit: int = MAX_MESSAGE) -> dict[str, str]:
    """A form posted from one of this server's pages: the Origin first, then the form, read within ``limit``.

    Raises:
        PageRefused: 403 for another site's form, 400 for a form too long or unreadable.
    """
    if not same_origin(request):
        raise PageRefused(_("refused: this form came from another site"), 403)
    try:
        return await read_form(request, limit)
    except KonfliktError as exc:
        raise PageRefused(str(exc)) from None


def one_line(text: str) -> str:
    return " ".join(str(text).split())[:300]


def base_url(conn: HTTPConnection) -> str:
    """This server's address as a page would link to it (a socket's own URL says ws: or wss:)."""
    url = conn.base_url
    scheme = {"ws": "http", "wss": "https"}.get(url.scheme, url.scheme)
    return str(url.replace(scheme=scheme)).rstrip("/")


def bundled_scenario(name: str) -> Scenario:
    """A bundled scenario by its ``RULESET/NAME``: the console never reads a file of the server's by its path
    (``scenario=/etc/passwd`` was read); a scenario of one's own is uploaded."""
    if name not in bundled_names():
        raise PageRefused(
            _(
                "no bundled scenario {name}: choose one of the list (RULESET/NAME), or upload your own",
                name=repr(shown(name[:60], newlines=False)),
            )
        )
    return load_scenario(name)


SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        b"frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
"""On every response: no inline script (the pages have none), never in a frame, no type sniffing, no referrer
beyond this server."""
HOST_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
"""The characters of a ``Host`` that may be written into the policy (anything else: 'self' alone)."""
FAILED_LINKS = 30
FAILED_WINDOW = 60.0
"""A client address that has asked for this many unknown links (seat tokens, console keys) in this many seconds
is answered 429 until the window has passed: guessing tokens by the thousand is slowed to a crawl."""


@functools.cache
def own_names() -> frozenset[str]:
    """The names this machine answers to on its own: ``localhost``, its host name, that name on the LAN
    (``.local``, mDNS) and its fully qualified name."""
    host = socket.gethostname().lower()
    return frozenset({"localhost", host, f"{host}.local", socket.getfqdn().lower()})


def public_host(url: str) -> str:
    """The ``Host`` a browser sends for a public address (``https://table.example.org`` → ``table.example.org``).

    Raises:
        KonfliktError: not an http(s) address with a host name.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/") or parts.query:
        raise KonfliktError(
            _("--public-url {url}: give the address players open, e.g. https://table.example.org", url=repr(url[:80]))
        )
    return parts.netloc.lower()


def host_allowed(host: str, port: int) -> bool:
    """A request's ``Host`` as a browser that reached this server sends it: an IP address, or one of this
    machine's own names (:func:`own_names`), and this server's port. Another name is refused: a DNS-rebinding page
    reaches the server under a name of its own (``evil.example``)."""
    name, sep, given = host.rpartition(":")
    if not sep or given != str(port):
        return False
    name = name.removeprefix("[").removesuffix("]").lower().rstrip(".")
    if name in own_names():
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """An ASGI wrapper: the security headers on every response, and (for a real server) the ``Host`` checked."""

    def __init__(self, app: Starlette, port: int | None, public: str | None = None) -> None:
        self.app = app
        self.port = port
        self.public = public_host(public) if public else None
        """The ``Host`` a TLS reverse proxy passes on (``--public-url``'s name, and port if it has one)."""
        self.state = app.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if self.port is not None:
            host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
            if not host_allowed(host, self.port) and host.lower() != self.public:
                if scope["type"] == "websocket":
                    reason = close_reason(_("this server's address only"))
                    await send({"type": "websocket.close", "code": 1008, "reason": reason})
                    return
                body = (
                    _("refused: ask this server by its address (a name that is not this server's is refused)") + "\n"
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 421,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"), *SECURITY_HEADERS],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return

        host = dict(scope.get("headers") or []).get(b"host", b"")
        headers = list(SECURITY_HEADERS)
        if host and all(c in HOST_CHARS for c in host):  # older Safari reads 'self' without ws:
            policy = headers[0][1].replace(
                b"connect-src 'self'", b"connect-src 'self' ws://" + host + b" wss://" + host
            )
            headers[0] = (headers[0][0], policy)

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *headers]}
            await send(message)

        await self.app(scope, receive, secured)


def bundled_names() -> list[str]:
    return sorted(f"{p.parent.name}/{p.stem}" for p in bundled_examples().glob("*/*.toml") if p.parent.name != "sweeps")


def create_app(
    db: Path | None = None,
    admin: str | None = None,
    bot_seconds: float = BOT_SECONDS,
    port: int | None = None,
    public: str | None = None,
    language: str | None = None,
) -> Any:
    """The app over the save database ``db``; ``admin`` fixes the console's key (tests), else it is kept beside it;
    ``bot_seconds`` is the budget of one decision of a policy that searches; with ``port`` (a real server) a
    request's ``Host`` must name an address and that port (:func:`host_allowed`), or ``public``'s name: the address
    players open through a TLS reverse proxy (``--public-url``), which passes the name on; ``language`` is the
    server's (the language in use by default), each seat's page speaking it until the seat chooses another."""
    hub = Hub(db, admin, bot_seconds, language)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.open()
        app.state.hub = hub
        renewing = asyncio.create_task(hub.renew())
        try:
            yield
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
            await hub.stop_thinking()
            hub.close()

    def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(hub.render(name, **context), status_code=status)

    def error_page(message: str, status: int) -> HTMLResponse:
        return page("message.html", status, title="konflikt", message=one_line(message))

    def spoken(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        """A request answered in the language of its seat (or the console's, or the server's)."""

        @functools.wraps(handler)
        async def wrapped(request: Request) -> Response:
            with speaking(hub.language_for(request)):
                return await handler(request)

        return wrapped

    def html_errors(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        """A page's refusals (:class:`PageRefused`, and bad input as :class:`KonfliktError`) as one-line pages."""

        async def wrapped(request: Request) -> Response:
            try:
                return await handler(request)
            except PageRefused as exc:
                return error_page(str(exc), exc.status)
            except KonfliktError as exc:
                return error_page(str(exc), 400)

        return wrapped

    async def index(request: Request) -> Response:
        return page(
            "message.html",
            title=_("konflikt table"),
            message=_(
                "Ask your game master for your seat's link. The GM's console link was printed by 'konflikt serve'."
            ),
        )

    def console_key(request: Request) -> str:
        """The console's key from the path; anything else is a page that does not exist."""
        assert hub.links is not None
        if hub.throttled(request):
            raise PageRefused(_("too many unknown links from this address: wait a minute"), 429)
        key = str(request.path_params["key"])
        if len(key) > MAX_KEY or not hub.links.is_admin(key):
            hub.failed(request)
            raise PageRefused(_("no such page"), 404)
        return key

    @html_errors
    async def console(request: Request) -> Response:
        key = console_key(request)
        assert hub.links is not None
        if request.method == "POST":  # the console's language menu
            form = await posted_form(request)
            chosen = form.get("language", "")
            if chosen not in CHOICES:
                raise PageRefused(
                    _("language takes {languages}, not {language}", languages=", ".join(CHOICES), language=repr(chosen))
                )
            hub.links.choose_language("console", chosen)
            return RedirectResponse(str(request.url.path), status_code=303)
        saved = []
        for row in await hub.store.call(lambda store: store.list()):
            tokens = hub.links.tables.get(row.id, {})
            saved.append({"row": row, "gm": f"/t/{row.id}/{tokens[GM]}" if GM in tokens else None})
        campaigns = await hub.store.call(campaign_names)
        return page(
            "console.html",
            key=key,
            examples=bundled_names(),
            saved=saved[::-1],
            upload_max=UPLOAD_MAX,
            campaigns=campaigns,
        )

    def seats_form(
        key: str, scenario: Scenario, name: str = "", toml: str = "", cast: FromCampaign | None = None
    ) -> HTMLResponse:
        """The form that opens a table: who plays each seat (and, from a campaign, as which character), the dice,
        a seed."""
        seats = [(p.id, p.name, p.policy) for p in scenario.participants()] + [(GM, _(GM_LABEL), scenario.gm)]
        return page(
            "new.html",
            key=key,
            scenario=name,
            toml=toml,
            title=scenario.title,
            seats=seats,
            policies=explained(scenario.ruleset),
            campaign=cast.campaign if cast is not None else "",
            taken=cast.taken if cast is not None else {},
            cast=", ".join(
                _("{seat} plays as {name}", seat=s, name=n) for s, n in (cast.taken if cast else {}).items()
            ),
            policy_words=policy_words,
        )

    async def scenario_for(name: str, toml: str, campaign: str) -> tuple[Scenario, FromCampaign | None]:
        """The scenario a form names (bundled, or its uploaded text), with a campaign's characters if it names
        one (read from the library through the server's own connection, in the store's thread)."""

        def load() -> Scenario:
            return uploaded_scenario(toml) if toml else bundled_scenario(name)

        if not campaign:
            return load(), None
        cast = await hub.store.call(lambda store: load_with(store, campaign, load))
        return cast.scenario, cast

    @html_errors
    async def new_table(request: Request) -> Response:
        key = console_key(request)
        if request.method == "GET":
            name = request.query_params.get("scenario", "")
            scenario, cast = await scenario_for(name, "", request.query_params.get("campaign", ""))
            return seats_form(key, scenario, name=name, cast=cast)
        form = await posted_form(request, UPLOAD_MAX + MAX_MESSAGE)
        policies = {k[7:]: str(v) for k, v in form.items() if k.startswith("policy:")}
        seed_text = str(form.get("seed", "")).strip()
        try:
            seed = int(seed_text) if seed_text else None
            if seed is not None and not 0 <= seed < 2**63:
                raise ValueError
        except ValueError:
            raise PageRefused(
                _("seed {seed} is not a whole number from 0 to 2**63 - 1", seed=repr(seed_text[:30]))
            ) from None
        toml = form.get("toml", "")
        scenario, cast = await scenario_for(str(form.get("scenario", "")), toml, str(form.get("campaign", "")))
        cid, token = await hub.create(
            scenario, policies, str(form.get("dice", "auto")), seed, cast.cast if cast is not None else None
        )
        return RedirectResponse(f"/t/{cid}/{token}", status_code=303)

    @html_errors
    async def upload(request: Request) -> Response:
        """A scenario pasted or chosen as a file on the console: checked as the CLI checks one, then the seats."""
        key = console_key(request)
        form = await posted_form(request, UPLOAD_MAX + MAX_MESSAGE)
        text = form.get("toml", "")
        return seats_form(key, uploaded_scenario(text), toml=text)

    @html_errors
    async def adopt(request: Request) -> Response:
        console_key(request)
        await posted_form(request)
        try:
            cid = table_id(request.path_params["cid"])
        except LookupError:
            raise PageRefused(_("no such page"), 404) from None
        token = await hub.adopt(cid)
        return RedirectResponse(f"/t/{cid}/{token}", status_code=303)

    async def lookup(conn: HTTPConnection) -> tuple[WebTable, str]:
        if hub.throttled(conn):
            raise Throttled(_("too many unknown links from this address: wait a minute"))
        token = str(conn.path_params["token"])
        try:
            if len(token) > MAX_KEY:
                raise LookupError("no such table link")
            return await hub.seat_for(table_id(conn.path_params["cid"]), token)
        except LookupError:
            hub.failed(conn)
            raise

    async def json_lookup(request: Request) -> tuple[WebTable, str] | JSONResponse:
        """The table and seat of a link, or the JSON refusal the API and the log answer with (429, 404, 410, 400)."""
        try:
            return await lookup(request)
        except Throttled as exc:
            return JSONResponse({"error": str(exc)}, status_code=429)
        except LookupError:
            return JSONResponse({"error": _("no such table link")}, status_code=404)
        except TableDeleted as exc:
            return JSONResponse({"error": one_line(str(exc))}, status_code=410)
        except KonfliktError as exc:
            return JSONResponse({"error": one_line(str(exc))}, status_code=400)

    @html_errors
    async def seat_page(request: Request) -> Response:
        try:
            table, seat = await lookup(request)
        except Throttled as exc:
            raise PageRefused(str(exc), 429) from None
        except LookupError:
            raise PageRefused(_("no such table link: ask your game master for yours"), 404) from None
        except TableDeleted as exc:
            raise PageRefused(str(exc), 410) from None
        error = None
        if request.method == "POST":
            form = await posted_form(request)
            message = {k: _form_value(k, str(form[k])) for k in FIELDS if k in form}
            try:
                await hub.apply(table, seat, message)
            except TableDeleted as exc:
                raise PageRefused(str(exc), 410) from None
            except KonfliktError as exc:
                error = one_line(str(exc))
            else:
                return RedirectResponse(str(request.url.path), status_code=303)
        async with table.lock:
            panel, html = hub.panel(table, seat, base_url(request))
            visible = table.visible_events(seat)
            first = max(0, len(visible) - LOG_PAGE)
            events = [{"step": e.step, "text": e.text} for e in visible[first:]]
        return page(
            "table.html",
            400 if error else 200,
            p=panel,
            html=html,
            events=events,
            first=first,
            have=first + len(events),
            error=error,
            ws=f"/ws/{table.id}/{request.path_params['token']}",
            log=f"/api/t/{table.id}/{request.path_params['token']}/log",
            texts=script_texts(),
        )

    async def log_page(request: Request) -> Response:
        """Earlier entries of the log a seat sees (the page's "earlier" control): ``?before=N``, at most a page."""
        found = await json_lookup(request)
        if isinstance(found, JSONResponse):
            return found
        table, seat = found
        text = request.query_params.get("before", "")
        if not (text.isascii() and text.isdigit() and len(text) <= 9):
            return JSONResponse({"error": _("before takes the index of the first entry shown")}, status_code=400)
        async with table.lock:
            events, first = table.earlier(seat, int(text))
            epoch = table.epoch_in(current())
        return JSONResponse({"events": events, "first": first, "epoch": epoch})

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def api(request: Request) -> Response:
        found = await json_lookup(request)
        if isinstance(found, JSONResponse):
            return found
        table, seat = found
        if request.method == "POST":
            if not same_origin(request):
                return JSONResponse({"error": _("refused: Origin is not this server")}, status_code=403)
            body = await request.body()
            if len(body) > MAX_MESSAGE:
                return JSONResponse(
                    {"error": _("message too long (at most {limit} bytes)", limit=MAX_MESSAGE)}, status_code=413
                )
            try:
                message = json.loads(body)
                if not isinstance(message, dict):
                    raise ValueError
            except RecursionError:
                return JSONResponse({"error": _("not a JSON object: nested too deeply")}, status_code=400)
            except ValueError:
                return JSONResponse({"error": _("not a JSON object")}, status_code=400)
            try:
                await hub.apply(table, seat, message)
            except TableDeleted as exc:
                return JSONResponse({"error": one_line(str(exc))}, status_code=410)
            except KonfliktError as exc:
                return JSONResponse({"error": one_line(str(exc))}, status_code=400)
        async with table.lock:
            return JSONResponse(hub.frame(table, seat, Sent(), base_url(request)))

    async def socket(ws: WebSocket) -> None:
        with speaking(hub.language_for(ws)):
            await socket_in_language(ws)

    async def socket_in_language(ws: WebSocket) -> None:
        """A page's socket, in its seat's language: each frame and refusal is built in the language the seat reads
        when it is built (a seat that chooses another is told to load its page again)."""
        if not same_origin(ws):
            await ws.close(code=1008, reason=close_reason(_("Origin is not this server")))
            return
        try:
            table, seat = await lookup(ws)
        except TableDeleted as exc:
            await ws.close(code=1008, reason=close_reason(one_line(str(exc))))
            return
        except (LookupError, KonfliktError, ValueError):
            await ws.close(code=1008, reason=close_reason(_("no such table link")))
            return
        await ws.accept()
        conn = Conn(ws, seat)
        hub.conns.setdefault(table.id, set()).add(conn)
        base = base_url(ws)

        def spoken_here() -> contextlib.AbstractContextManager[str]:
            return speaking(hub.seat_language(table.id, seat))

        def refusal(text: Text, ack: str | None = None) -> None:
            with spoken_here():
                message = {"type": "error", "message": text() if callable(text) else text}
            if ack is not None:
                message["ack"] = ack
            conn.queue.put_nowait(message)

        async def writer() -> None:
            while True:
                item = await conn.queue.get()
                if item is None:
                    return
                if item.get("type") == "frame":
                    async with table.lock:
                        conn.frame_due = False
                        with spoken_here():
                            text = hub.frame_text(table, seat, conn.sent, base, conn.ack)
                else:
                    text = orjson.dumps(item).decode()
                await ws.send_text(text)

        task = asyncio.create_task(writer())
        first = True
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(int(frame.get("code", 1000)))
                text = frame.get("text")
                if not isinstance(text, str):
                    with spoken_here():
                        await ws.close(code=1003, reason=close_reason(_("binary frames are not taken: send JSON text")))
                    break
                if len(text) > MAX_MESSAGE:
                    refusal(lambda: _("message too long (at most {limit})", limit=MAX_MESSAGE))
                    continue
                if not conn.take():
                    refusal(lambda: _("too many messages: slow down"))
                    continue
                try:
                    message = json.loads(text)
                    if not isinstance(message, dict):
                        raise ValueError
                except (ValueError, RecursionError) as exc:
                    deep = isinstance(exc, RecursionError)
                    refusal(_("not a JSON object: nested too deeply") if deep else _("not a JSON object"))
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
                ack = str(message.get("id", ""))[:40]
                try:
                    with spoken_here():
                        await hub.apply(table, seat, message)
                except KonfliktError as exc:
                    conn.ack = ack
                    refusal(exc.__str__, ack)
                    if isinstance(exc, TableDeleted):
                        break
                else:  # acknowledged once applied and committed: a page that has no ack sends it again
                    conn.ack = ack
                    conn.wake()
        except WebSocketDisconnect:
            pass
        finally:
            hub.conns.get(table.id, set()).discard(conn)
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await task

    routes = [
        Route("/", spoken(index)),
        Route("/console/{key}", spoken(console), methods=["GET", "POST"]),
        Route("/console/{key}/new", spoken(new_table), methods=["GET", "POST"]),
        Route("/console/{key}/upload", spoken(upload), methods=["POST"]),
        Route("/console/{key}/open/{cid}", spoken(adopt), methods=["POST"]),
        Route("/t/{cid}/{token}", spoken(seat_page), methods=["GET", "POST"]),
        Route("/api/t/{cid}/{token}", spoken(api), methods=["GET", "POST"]),
        Route("/api/t/{cid}/{token}/log", spoken(log_page)),
        Route("/favicon.ico", favicon),
        WebSocketRoute("/ws/{cid}/{token}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return Guard(app, port, public)


def _notice(table: WebTable, seat: str, policy: str, why: Callable[[str], str]) -> Callable[[], str]:
    """A notice on a bot's decision, said of the seat (``Hedda (mcts)``) in the GM page's language."""
    return lambda: why(f"{table.label(seat)} ({policy_words(policy)})")


def _paused(error: str) -> Callable[[str], str]:
    return lambda who: _("{who} could not decide: {error}; the table is paused", who=who, error=error)


def close_reason(text: str) -> str:
    """A socket's close reason: at most 123 bytes of UTF-8 (a Polish reason is longer in bytes than in letters)."""
    data = text.encode()[:120]
    return data.decode("utf-8", "ignore")


def script_texts() -> dict[str, str]:
    """The words the page's script shows, in the language in use (``{title}`` filled in by the script)."""
    return {
        "live": _("● live"),
        "reconnecting": _("reconnecting…"),
        "your_move": _("● your move — {title}"),
        "tap_kept": _("offline: your tap is kept and will be sent as soon as the connection is back"),
        "earlier_failed": _("the earlier entries could not be loaded"),
        "earlier_offline": _("offline: the earlier entries will load once the connection is back"),
    }


def table_id(text: object) -> int:
    """A table id from a path: up to 18 ASCII digits (a 4,400-digit id was a 500: too long for ``int``).

    Raises:
        LookupError: anything else (the page answers 404).
    """
    value = str(text)
    if not (value.isascii() and value.isdigit() and len(value) <= 18):
        raise LookupError("no such table")
    return int(value)


def _form_value(name: str, value: str) -> Any:
    """Form fields arrive as text; the numbers of a message are read back as numbers (or left to be refused)."""
    if name in ("step", "choice", "count", "value"):
        try:
            return int(value)
        except ValueError:
            return value
    return value
