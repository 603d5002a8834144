"""A link acts on its own conflict only (issue 48, 1 and 6): ids are never reused, a link is bound to the conflict it
was made for, and a served conflict is claimed by the server (a lease, renewed while it runs)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from konflikt.core.state import GM
from konflikt.store.db import Store
from konflikt.web import app as web_app
from tests.conftest import Result
from tests.web.helpers import frame, new_table, post, serving, socket


def steps_of(db: Path, cid: int) -> list[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT step FROM steps WHERE conflict_id = ? ORDER BY idx", (cid,)).fetchall()
    finally:
        conn.close()
    return [str(row[0]) for row in rows]


def lapse(db: Path, cid: int) -> None:
    """The server's lease on ``cid`` runs out (as when a server hangs and stops renewing it)."""
    conn = sqlite3.connect(db)
    try:
        conn.execute("UPDATE sessions SET lease = 0 WHERE conflict_id = ?", (cid,))
        conn.commit()
    finally:
        conn.close()


def press(client: TestClient, cid: int, gm: str) -> tuple[int, dict[str, Any]]:
    """The GM's link presses the first choice of a human seat that decides now."""
    page = frame(client, cid, gm)
    seat = page["gm_choices"][0]["seat"] if page["gm_choices"] else GM
    return post(client, cid, gm, {"type": "act", "step": page["step"], "seat": seat, "choice": 0})


def test_a_stale_link_after_delete_and_a_new_conflict_answers_deleted_and_writes_nothing(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        old, tokens = new_table(client, "presja/knife_fight", ("belzee", "massimo"))
        assert press(client, old, tokens[GM])[0] == 200  # the table is held, and played
        lapse(db, old)  # its claim lapses: now another konflikt may take it over
        deleted = cli("saves", "--db", str(db), "--delete", str(old))
        assert deleted.code == 0, deleted.err
        made = cli("run", "pwge/duel", "--seed", "1", "--save", str(tmp_path / "run.json"), "-q")
        assert made.code == 0, made.err
        imported = cli("import", str(tmp_path / "run.json"), "--db", str(db))
        assert imported.code == 0, imported.err
        new = int(imported.out.split()[-1])
        assert new != old, "a deleted conflict's id is never given to another"
        before = steps_of(db, new)
        for seat in ("belzee", "massimo", "belzee", "massimo", "belzee", "massimo", GM):
            for step in range(3):  # whatever step the phone names, nothing is applied
                message = {"type": "act", "step": step, "choice": 0, "seat": seat if seat != GM else "belzee"}
                code, body = post(client, old, tokens[seat], message)
                assert code == 410 and "this table was deleted" in str(body["error"]), (code, body)
        for path in (f"/t/{old}/{tokens['belzee']}", f"/api/t/{old}/{tokens[GM]}"):
            response = client.get(path)
            assert response.status_code == 410 and "this table was deleted" in response.text
        assert steps_of(db, new) == before
        assert steps_of(db, old) == []
    # after a restart too: the link is bound to no conflict, for good
    with serving(db) as (client, _):
        response = client.get(f"/api/t/{old}/{tokens['belzee']}")
        assert response.status_code == 410 and "this table was deleted" in response.json()["error"]
        assert client.get(f"/api/t/{new}/{tokens['belzee']}").status_code == 404
        assert steps_of(db, new) == before


def test_a_link_of_a_table_deleted_while_the_server_did_not_hold_it_answers_deleted(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        old, tokens = new_table(client, "levald/duel", ("hedda", "snurre"))
    with serving(db) as (client, _):  # a server that has not opened the table: it holds no claim on it
        assert cli("saves", "--db", str(db), "--delete", str(old)).code == 0
        new, new_tokens = new_table(client, "levald/duel", ("hedda",))
        assert new != old
        before = steps_of(db, new)
        for seat in ("hedda", "snurre", GM):
            code, body = post(client, old, tokens[seat], {"type": "act", "step": 0, "choice": 0})
            assert code == 410 and "this table was deleted" in str(body["error"])
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{old}/{tokens['hedda']}") as ws:
            ws.receive_text()
        assert steps_of(db, new) == before
        assert frame(client, new, new_tokens[GM])["step"] == len(before)


def test_a_served_conflict_is_claimed_play_and_delete_refuse_and_take_over_once_it_lapses(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("hedda",))
        for args in (("saves", "--delete", str(cid)), ("play", "--resume", str(cid))):
            result = cli(*args, "--db", str(db))
            assert result.code == 2, result.out
            lines = result.err.strip().splitlines()
            assert len(lines) == 1 and f"conflict {cid} is open at a konflikt serve table" in lines[0], lines
        exported = cli("export", str(cid), "--db", str(db), "--out", str(tmp_path / "c.json"))
        assert exported.code == 0, exported.err
        again = cli("import", str(tmp_path / "c.json"), "--db", str(db))
        assert again.code == 0 and int(again.out.split()[-1]) != cid  # an import never lands on a served table
        assert press(client, cid, tokens[GM])[0] == 200
        lapse(db, cid)
        deleted = cli("saves", "--delete", str(cid), "--db", str(db))
        assert deleted.code == 0, deleted.err
        code, body = post(client, cid, tokens[GM], {"type": "act", "step": 1, "seat": "hedda", "choice": 0})
        assert code == 410 and "this table was deleted" in str(body["error"])


def test_the_server_renews_its_claims_and_a_table_taken_over_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(web_app, "RENEW_SECONDS", 0.05)
    db = tmp_path / "k.sqlite"

    def lease() -> float:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return float(conn.execute("SELECT lease FROM sessions").fetchone()[0])
        finally:
            conn.close()

    with serving(db) as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("hedda",))
        first = lease()
        with socket(client, cid, tokens["hedda"]) as page:
            for _ in range(200):
                page.sync()
                if lease() > first:
                    break
            assert lease() > first, "renewed while it runs"
            step = frame(client, cid, tokens[GM])["step"]
            lapse(db, cid)
            other = Store.open(db)
            try:
                other.claim(cid)  # play --resume takes the lapsed claim over
                steps = steps_of(db, cid)
                for _ in range(3):  # before the server's next renewal sees it, and after
                    message = {"type": "act", "step": step, "seat": "hedda", "choice": 0}
                    code, body = post(client, cid, tokens[GM], message)
                    error = str(body["error"])
                    assert code == 400 and ("taken over" in error or "open in another konflikt" in error), body
                    page.sync()
                assert steps_of(db, cid) == steps
            finally:
                other.close()
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM sessions").fetchone()[0] == 0, "claims released at the end"
    finally:
        conn.close()


def test_saved_links_are_rows_of_the_store_and_a_json_key_file_keeps_only_the_console(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("hedda",))
    assert set(json.loads((tmp_path / "k.sqlite.links.json").read_text())) == {"admin"}
    store = Store.open(db, readonly=True)
    try:
        assert {(t, s) for t, _, c, s in store.links() if c == cid} == {(t, s) for s, t in tokens.items()}
    finally:
        store.close()


def test_serve_prints_an_ipv6_address_in_brackets(tmp_path: Path) -> None:
    from konflikt.web.serve import banner

    lines = banner("::1", 8000, tmp_path / "k.sqlite")
    assert lines[0].startswith("konflikt table on http://[::1]:8000 ")
    assert lines[1].startswith("GM console: http://[::1]:8000/console/")
