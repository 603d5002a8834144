"""Hosting a table for friends behind a TLS reverse proxy (docs/table.md): ``--public-url`` names the address
players open; the proxy passes that name on, the server takes it (and no other name), and the links it prints and
shows are the proxy's https ones."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from starlette.testclient import TestClient

from konflikt.core.state import GM
from konflikt.web.app import create_app
from konflikt.web.serve import banner
from tests.conftest import Result
from tests.web.helpers import ADMIN, new_table

PUBLIC = "https://table.example.org"


def test_behind_a_proxy_the_public_name_is_taken_and_the_links_are_https(tmp_path: Path) -> None:
    app = create_app(tmp_path / "k.sqlite", admin=ADMIN, port=8000, public=PUBLIC)
    with TestClient(app, base_url=PUBLIC) as client:  # as the proxy passes it on: Host and the scheme
        assert client.get(f"/console/{ADMIN}").status_code == 200
        cid, tokens = new_table(client, "levald/duel", ("snurre", "hedda"))
        gm = client.get(f"/t/{cid}/{tokens[GM]}")
        assert gm.status_code == 200
        links = re.findall(r'<a href="([^"]+)" class="join">', gm.text)
        assert sorted(links) == sorted(f"{PUBLIC}/t/{cid}/{tokens[s]}" for s in ("snurre", "hedda"))
        policy = gm.headers["content-security-policy"]
        assert "wss://table.example.org" in policy  # the page's socket is wss: behind https
        # a tap from the proxied page: its Origin is the public address, the same as the Host passed on
        posted = client.post(
            f"/api/t/{cid}/{tokens['snurre']}", json={"type": "act", "step": 0, "choice": 0}, headers={"origin": PUBLIC}
        )
        assert posted.status_code == 200
        # another name is still refused (DNS rebinding), as is the public name on another port
        assert client.get("/", headers={"host": "evil.example"}).status_code == 421
        assert client.get("/", headers={"host": "table.example.org:9999"}).status_code == 421


def test_the_banner_prints_the_public_links_and_a_bad_public_url_is_one_line(
    tmp_path: Path, cli: Callable[..., Result]
) -> None:
    lines = banner("127.0.0.1", 8000, tmp_path / "k.sqlite", PUBLIC)
    assert lines[1].startswith(f"GM console: {PUBLIC}/console/")
    result = cli("serve", "--public-url", "table.example.org", "--db", str(tmp_path / "k.sqlite"))
    assert result.code == 2
    assert result.err.startswith("konflikt: error: --public-url 'table.example.org': give the address players open")
    assert result.err.count("\n") == 1
