"""Every strange input at the server refused in one line (issue 48, 4 and 8): lone surrogates at every input (forms,
JSON, socket frames), a table that already holds one loads; binary frames, deep JSON, huge path ids."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from konflikt.core.conflict import Conflict
from konflikt.core.scenario import load_scenario
from konflikt.core.state import GM
from konflikt.errors import StoreError
from konflikt.store.db import Store
from konflikt.web.links import Links
from tests.conftest import Result
from tests.web.helpers import ADMIN, frame, new_table, serving, socket

SURROGATE = "forgot \ud800 a point"


def steps(db: Path) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM steps").fetchone()[0])
    finally:
        conn.close()


def test_a_lone_surrogate_is_refused_at_every_input_naming_the_field(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("hedda", "snurre"))
        gm = tokens[GM]
        before = steps(db)
        correction = {"type": "correct", "target": "hedda|Gard", "value": 2, "reason": SURROGATE}
        response = client.post(f"/api/t/{cid}/{gm}", content=json.dumps(correction).encode())  # "\\ud800" in JSON
        code, body = response.status_code, response.json()
        assert code == 400
        assert body["error"] == "reason: text that is not valid Unicode (a lone surrogate); nothing was changed"
        with socket(client, cid, gm) as page:
            page.sync()
            page.send(correction | {"id": "c1"})
            errors = [f for f in page.sync() if f.get("type") == "error"]
            assert [e["message"] for e in errors] == [body["error"]]
            page.send({"type": "correct", "target": "hedda|Gard", "value": 2, "reason": "ok", "\udfff": 1})
            assert "not valid Unicode" in next(f for f in page.sync() if f.get("type") == "error")["message"]
        # a form can carry bytes that are not UTF-8 at all
        response = client.post(
            f"/t/{cid}/{gm}",
            content=b"type=correct&target=hedda%7CGard&value=2&reason=%ED%A0%80bad",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert response.status_code == 400 and "reason: not UTF-8 text; nothing was changed" in response.text
        assert steps(db) == before
        assert frame(client, cid, gm)["step"] == before


def test_a_table_that_already_holds_a_lone_surrogate_loads_escaped(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    scenario = load_scenario("levald/duel")
    conflict = Conflict(scenario, {}, 3)
    state = conflict.start()
    state.correct("hedda", "Gard", 2, SURROGATE)  # as an older server committed it
    store = Store.open(db)
    try:
        cid = store.create(conflict, "auto", {"hedda": "human", "snurre": "human"})
        store.append(cid, 0, state.steps()[0], "correction")
    finally:
        store.close()
    for _ in range(2):  # and after a restart
        with serving(db) as (client, hub):
            assert client.post(f"/console/{ADMIN}/open/{cid}", follow_redirects=False).status_code == 303
            assert hub.links is not None
            tokens = hub.links.tables[cid]
            assert client.get(f"/t/{cid}/{tokens[GM]}").status_code == 200
            data = frame(client, cid, tokens[GM])
            assert any("forgot \\ud800 a point" in e["text"] for e in data["events"])
            with socket(client, cid, tokens["hedda"]) as page:
                assert page.sync()
    exported = cli("export", str(cid), "--db", str(db))
    assert exported.code == 0 and "forgot \\\\ud800 a point" in exported.out


def test_an_import_holding_a_lone_surrogate_is_one_line(cli: Callable[..., Result], tmp_path: Path) -> None:
    made = cli("run", "levald/duel", "--seed", "1", "--save", str(tmp_path / "c.json"), "-q")
    assert made.code == 0, made.err
    data = json.loads((tmp_path / "c.json").read_text())
    data["scenario"]["title"] = "a \ud800 title"
    (tmp_path / "bad.json").write_text(json.dumps(data))
    result = cli("import", str(tmp_path / "bad.json"), "--db", str(tmp_path / "k.sqlite"))
    assert result.code == 2, result.err
    assert result.err.count("\n") == 1 and "title" in result.err and "lone surrogate" in result.err


def test_binary_frames_deep_json_and_huge_ids_are_refused(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("hedda",))
        gm = tokens[GM]
        deep = "[" * 2000 + "]" * 2000
        response = client.post(f"/api/t/{cid}/{gm}", content=deep.encode())
        assert response.status_code == 400 and response.json()["error"].startswith("not a JSON object")
        with socket(client, cid, gm) as page:
            page.sync()
            page.ws.send_text(deep)
            assert page.sync()[0]["message"].startswith("not a JSON object")
            page.ws.send_bytes(b"\x00\x01binary")
            with pytest.raises(WebSocketDisconnect) as closed:
                page.ws.receive_text()
            assert closed.value.code == 1003
        huge = "9" * 4400
        for path in (f"/t/{huge}/{gm}", f"/api/t/{huge}/{gm}", f"/api/t/{cid}/{'x' * 5000}"):
            assert client.get(path).status_code == 404
        assert client.post(f"/console/{ADMIN}/open/{huge}").status_code == 404
        assert frame(client, cid, gm)["step"] >= 0  # the server goes on


def test_a_damaged_key_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite.links.json"
    path.write_text("[" * 100_000)
    with pytest.raises(StoreError, match="the console's key cannot be read"):
        Links(path)
