"""Shared helpers of the web table's tests: an app over a fresh database, tables, and a socket that syncs."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from konflikt.core.state import GM
from konflikt.web.app import Hub, create_app

ADMIN = "test-admin-key"


@contextmanager
def serving(db: Path) -> Iterator[tuple[TestClient, Hub]]:
    app = create_app(db, admin=ADMIN)
    with TestClient(app) as client:
        yield client, app.state.hub


def new_table(
    client: TestClient, scenario: str, humans: tuple[str, ...], dice: str = "auto", seed: int = 7
) -> tuple[int, dict[str, str]]:
    """Open a table through the console form; returns its id and every seat's token."""
    form = {"scenario": scenario, "dice": dice, "seed": str(seed)}
    form.update({f"policy:{seat}": "human" for seat in humans})
    response = client.post(f"/console/{ADMIN}/new", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    match = re.fullmatch(r"/t/(\d+)/([\w-]+)", response.headers["location"])
    assert match is not None
    cid = int(match.group(1))
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.links is not None
    tokens = dict(hub.links.tables[cid])
    assert tokens[GM] == match.group(2)
    return cid, tokens


def frame(client: TestClient, cid: int, token: str) -> dict[str, Any]:
    response = client.get(f"/api/t/{cid}/{token}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def post(client: TestClient, cid: int, token: str, message: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
    response = client.post(f"/api/t/{cid}/{token}", json=dict(message))
    data: dict[str, Any] = response.json()
    return response.status_code, data


class Socket:
    """A page's WebSocket in a test: every frame it receives is kept, and :meth:`sync` waits for all pending."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.pings = 0

    def send(self, message: Mapping[str, Any]) -> None:
        self.ws.send_text(json.dumps(dict(message)))

    def sync(self) -> list[dict[str, Any]]:
        """Everything the server had queued for this page before now (a ping's pong comes after it)."""
        self.pings += 1
        self.send({"type": "ping", "id": str(self.pings)})
        got = []
        while True:
            text = self.ws.receive_text()
            self.raw.append(text)
            item = json.loads(text)
            if item.get("type") == "pong" and item.get("id") == str(self.pings):
                return got
            got.append(item)
            self.frames.append(item)


@contextmanager
def socket(client: TestClient, cid: int, token: str, **hello: Any) -> Iterator[Socket]:
    with client.websocket_connect(f"/ws/{cid}/{token}") as ws:
        sock = Socket(ws)
        sock.send({"type": "hello", **hello})
        yield sock
