"""Starting the server: print the console link (and, on a LAN, every open table's join links), then run uvicorn."""

from __future__ import annotations

import errno
import json
import socket
import sys
import warnings
from pathlib import Path

import uvicorn

from konflikt.core.state import GM
from konflikt.errors import KonfliktError
from konflikt.store.db import Store
from konflikt.web import odds
from konflikt.web.app import MAX_MESSAGE, create_app, public_host
from konflikt.web.i18n import _
from konflikt.web.links import Links
from konflikt.web.table import BOT_SECONDS

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def lan_address() -> str:
    """This machine's address on the LAN, as players' phones will reach it (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def banner(host: str, port: int, db: Path | None, public: str | None = None) -> list[str]:
    store = Store.open(db)
    try:
        links = Links.beside(store.path)
        links.load(store.links())
        rows = [r for r in store.list() if not r.finished]
        played = {r.id: _seats(store, r.id) for r in rows}
        path = store.path
    finally:
        store.close()
    shown = host if host in LOOPBACK else lan_address() if host in ("0.0.0.0", "::") else host
    base = f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"  # an IPv6 address in brackets
    if public:  # behind a TLS reverse proxy: the links players open are the proxy's
        base = public.rstrip("/")
    lines = [
        _("konflikt table on {address} (saves in {path})", address=base, path=path),
        _("GM console: {link}", link=base + "/console/" + links.admin),
    ]
    if host not in LOOPBACK or public:
        lines.append(
            _(
                "warning: listening beyond this machine: anyone on the network who has a link can use it; "
                "share each join link only with its player, and stop the server after the game"
            )
        )
        for row in rows:
            tokens = links.tables.get(row.id, {})
            for seat, token in tokens.items():
                if seat != GM and played.get(row.id, {}).get(seat, "human") != "human":
                    continue  # a seat a policy plays has no player to send a link to
                who = _("GM") if seat == GM else seat
                lines.append(f"  #{row.id} {row.title} — {who}: {base}/t/{row.id}/{token}")
    return lines


def _seats(store: Store, cid: int) -> dict[str, str]:
    """Who plays each seat of a saved conflict (seat → policy or ``human``), as it was saved; ``{}`` if unreadable."""
    row = store.conn.execute("SELECT seats FROM conflicts WHERE id = ?", (cid,)).fetchone()
    try:
        seats = json.loads(row[0]) if row is not None and row[0] else {}
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in seats.items()} if isinstance(seats, dict) else {}


def check_port(host: str, port: int) -> None:
    """Bind the address once, as uvicorn is about to, so a port already taken is one line before the banner (not
    uvicorn's log line and exit code 3 after a console link that leads nowhere)."""
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            probe.bind(address)
    except OSError as exc:
        why = (
            _(
                "the port is in use (another program, or another konflikt serve, is listening there): "
                "choose another with --port"
            )
            if exc.errno == errno.EADDRINUSE
            else exc.strerror or str(exc)
        )
        where = host + ":" + str(port)
        raise KonfliktError(_("cannot listen on {address}: {why}", address=where, why=why)) from None


def run(host: str, port: int, db: Path | None, bot_seconds: float = BOT_SECONDS, public: str | None = None) -> None:
    if public:
        public_host(public)  # checked before anything is printed
    check_port(host, port)
    for line in banner(host, port, db, public):
        sys.stdout.write(line + "\n")
    sys.stdout.flush()
    # the `websockets` implementation is the one measured fastest here (docs/table.md): its deprecation notice is
    # for uvicorn's own command line, not for the GM starting a table
    warnings.filterwarnings("ignore", message="The `websockets` implementation is deprecated")
    odds.PREPARE_VALUES = True  # a real table: Le våld's values are worked out for the questions to come
    # no per-message compression: on a LAN it costs the server (and every phone) more than it saves on the wire
    uvicorn.run(
        create_app(db, bot_seconds=bot_seconds, port=port, public=public),
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=MAX_MESSAGE * 4,
        ws="websockets",
        ws_per_message_deflate=False,
    )
