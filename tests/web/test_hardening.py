"""Server hardening (issue 48, 11): security headers, the Host checked (DNS rebinding), a rate limit on unknown
links, the console reading only bundled or uploaded scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from konflikt.core.state import GM
from konflikt.web import app as web_app
from konflikt.web.app import create_app, host_allowed
from tests.web.helpers import ADMIN, new_table, serving


def test_every_response_carries_the_security_headers(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("hedda",))
        for path in (f"/t/{cid}/{tokens[GM]}", f"/api/t/{cid}/{tokens['hedda']}", "/static/table.js", "/nothing", "/"):
            headers = client.get(path).headers
            policy = headers["content-security-policy"]
            assert (
                "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
            )
            assert headers["x-frame-options"] == "DENY"
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "same-origin"


def test_a_name_that_is_not_this_servers_address_is_refused(tmp_path: Path) -> None:
    assert host_allowed("127.0.0.1:8000", 8000) and host_allowed("[::1]:8000", 8000)
    assert host_allowed("192.168.1.20:8000", 8000) and host_allowed("localhost:8000", 8000)
    assert not host_allowed("evil.example:8000", 8000) and not host_allowed("127.0.0.1:9000", 8000)
    assert not host_allowed("127.0.0.1", 8000)
    app = create_app(tmp_path / "k.sqlite", admin=ADMIN, port=8000)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get(f"/console/{ADMIN}").status_code == 200
        rebound = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
        response = client.get(f"/console/{ADMIN}", headers=rebound)
        assert response.status_code == 421 and response.text.count("\n") == 1
        assert (
            client.post(f"/console/{ADMIN}/new", data={"scenario": "levald/duel"}, headers=rebound).status_code == 421
        )
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/1/x", headers=rebound) as ws:
            ws.receive_text()


def test_unknown_links_are_slowed_after_thirty_a_minute(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("hedda",))
        for n in range(web_app.FAILED_LINKS):
            assert client.get(f"/api/t/{cid}/guess{n}").status_code == 404
        assert client.get(f"/api/t/{cid}/{tokens['hedda']}").status_code == 429, "even a good link, for a while"
        assert client.get(f"/t/{cid}/guess").status_code == 429
        assert client.get("/console/wrong-key").status_code == 429
        monkeypatch.setattr(web_app, "FAILED_WINDOW", 0.0)
        assert client.get(f"/api/t/{cid}/{tokens['hedda']}").status_code == 200


def test_the_console_reads_only_bundled_scenarios_by_name(tmp_path: Path) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text('ruleset = "levald"\ntitle = "a file of the server"\n')
    with serving(tmp_path / "k.sqlite") as (client, _):
        for name in ("/etc/passwd", str(secret), "../levald/duel"):
            response = client.get(f"/console/{ADMIN}/new", params={"scenario": name})
            assert response.status_code == 400 and "no bundled scenario" in response.text
            posted = client.post(f"/console/{ADMIN}/new", data={"scenario": name}, follow_redirects=False)
            assert posted.status_code == 400 and "no bundled scenario" in posted.text
        assert client.get(f"/console/{ADMIN}/new", params={"scenario": "levald/duel"}).status_code == 200
