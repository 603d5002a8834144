"""The browser table over HTTP and WebSocket (Starlette's TestClient): seats, secrets, checks, whole conflicts."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import numpy as np
import pytest
import segno
from starlette.websockets import WebSocketDisconnect

from konflikt.core.conflict import Conflict, new_state
from konflikt.core.scenario import load_scenario
from konflikt.core.state import GM
from konflikt.store.db import Store
from tests.web.helpers import ADMIN, frame, new_table, post, serving, socket

DUEL = ("snurre", "hedda")


def test_console_needs_its_key_and_opens_a_table_with_a_link_per_seat(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        assert client.get("/console/wrong").status_code == 404
        page = client.get(f"/console/{ADMIN}")
        assert page.status_code == 200 and "levald/duel" in page.text
        assert "Hedda" in client.get(f"/console/{ADMIN}/new", params={"scenario": "levald/duel"}).text
        cid, tokens = new_table(client, "levald/duel", DUEL)
        assert set(tokens) == {"snurre", "hedda", GM}
        assert len({*tokens.values()}) == 3 and all(len(t) >= 24 for t in tokens.values())
        gm_page = client.get(f"/t/{cid}/{tokens[GM]}").text
        for seat in DUEL:
            assert f"/t/{cid}/{tokens[seat]}" in gm_page
        player_page = client.get(f"/t/{cid}/{tokens['hedda']}").text
        assert tokens["snurre"] not in player_page and tokens[GM] not in player_page
        assert "Avancera (advance)" in player_page


def test_a_token_acts_only_for_its_seat(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        other, other_tokens = new_table(client, "levald/duel", DUEL)
        hedda = tokens["hedda"]
        code, body = post(client, cid, hedda, {"type": "act", "step": 0, "choice": 0, "seat": "snurre"})
        assert (code, body) == (400, {"error": "this link acts only for hedda, not for 'snurre'"})
        code, body = post(client, cid, hedda, {"type": "act", "step": 0, "choice": 0, "seat": GM})
        assert code == 400 and "acts only for hedda" in body["error"]
        for kind in ("undo", "pause", "resume"):
            assert post(client, cid, hedda, {"type": kind}) == (400, {"error": f"only the GM may {kind}"})
        code, body = post(client, cid, hedda, {"type": "roll", "step": 0, "text": "47"})
        assert code == 400
        # a token is good for its own table only, and a made-up one for none
        assert client.get(f"/api/t/{other}/{hedda}").status_code == 404
        assert client.get(f"/api/t/{cid}/{other_tokens['hedda']}").status_code == 404
        assert client.get(f"/t/{cid}/not-a-token").status_code == 404
        assert client.get(f"/api/t/999/{hedda}").status_code == 404
        # the same refusals on the socket
        with socket(client, cid, hedda) as sock:
            sock.sync()
            sock.send({"type": "act", "step": 0, "choice": 1, "seat": "snurre"})
            sock.send({"type": "undo"})
            errors = [f["message"] for f in sock.sync() if f["type"] == "error"]
        assert errors == ["this link acts only for hedda, not for 'snurre'", "only the GM may undo"]
        assert frame(client, cid, tokens[GM])["step"] == 0
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(f"/ws/{cid}/nope") as ws:
            ws.receive_text()
        assert closed.value.code == 1008


def test_origin_is_checked_on_sockets_and_posts(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        url = f"/ws/{cid}/{tokens['hedda']}"
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(url, headers={"origin": "http://evil.example"}) as ws,
        ):
            ws.receive_text()
        assert closed.value.code == 1008
        with client.websocket_connect(url, headers={"origin": "http://testserver"}) as ws:
            ws.send_text(json.dumps({"type": "hello"}))
            assert json.loads(ws.receive_text())["type"] == "frame"
        evil = {"origin": "http://evil.example"}
        message = {"type": "act", "step": 0, "choice": 0}
        assert client.post(f"/api/t/{cid}/{tokens['hedda']}", json=message, headers=evil).status_code == 403
        form = {"type": "act", "step": "0", "choice": "0"}
        assert client.post(f"/t/{cid}/{tokens['hedda']}", data=form, headers=evil).status_code == 403
        assert frame(client, cid, tokens[GM])["step"] == 0


def test_bad_input_gets_one_line_and_changes_nothing(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        hedda = tokens["hedda"]
        cases = [
            ({"type": "act", "step": 0, "choice": 9}, "choice 9 is not on hedda's list: a number from 0 to 3"),
            ({"type": "act", "step": 0, "choice": "x"}, "choice x is not on hedda's list: a number from 0 to 3"),
            ({"type": "act", "step": 5, "choice": 0}, "the table has moved on (now at step 0); your page is updated"),
            ({"type": "act", "choice": 0}, "a choice needs the step it was made at ('step': a number)"),
            ({"type": "fly"}, "unknown message type 'fly' (act, roll, undo, pause, resume, correct, declare, odds)"),
            ({"type": "undo", "count": 0}, "undo takes a number of steps from 1 to 1000, not 0"),
        ]
        for message, error in cases:
            token = tokens[GM] if message["type"] == "undo" else hedda
            assert post(client, cid, token, message) == (400, {"error": error})
        response = client.post(f"/api/t/{cid}/{hedda}", content=b"{not json")
        assert (response.status_code, response.json()) == (400, {"error": "not a JSON object"})
        response = client.post(f"/api/t/{cid}/{hedda}", content=b"[1]")
        assert response.json() == {"error": "not a JSON object"}
        response = client.post(f"/api/t/{cid}/{hedda}", content=b"x" * 5000)
        assert response.status_code == 413
        page = client.post(f"/t/{cid}/{hedda}", data={"type": "act", "step": "0", "choice": "7"})
        assert page.status_code == 400 and "choice 7 is not on hedda&#39;s list" in page.text
        bad_seed = {"scenario": "levald/duel", "seed": "-3", "dice": "auto"}
        assert client.post(f"/console/{ADMIN}/new", data=bad_seed).status_code == 400
        for form, error in (
            ({"scenario": "levald/nope", "dice": "auto"}, "no bundled scenario &#39;levald/nope&#39;"),
            ({"scenario": "levald/duel", "dice": "dice"}, "dice takes auto, table, players, not &#39;dice&#39;"),
            (
                {"scenario": "levald/duel", "dice": "auto", "policy:hedda": "genius"},
                "policy &#39;genius&#39; for hedda",
            ),
        ):
            page = client.post(f"/console/{ADMIN}/new", data=form)
            assert page.status_code == 400 and error in page.text
        with socket(client, cid, hedda) as sock:
            sock.sync()
            sock.ws.send_text("{oops")
            sock.ws.send_text("x" * 5000)
            errors = [f["message"] for f in sock.sync() if f["type"] == "error"]
            assert errors == ["not a JSON object", "message too long (at most 4096)"]
            for _ in range(40):
                sock.send({"type": "act", "step": 99, "choice": 0})
            time.sleep(0.3)  # the bucket refills, so the ping that ends sync() is taken
            errors = [f["message"] for f in sock.sync() if f["type"] == "error"]
            assert "too many messages: slow down" in errors and all("\n" not in e for e in errors)
        assert frame(client, cid, tokens[GM])["step"] == 0
        assert Store.open(tmp_path / "k.sqlite").load(cid).conflict.steps == []


def hedda_frames(tmp_path: Path, snurre_choice: int) -> tuple[list[str], list[dict[str, object]]]:
    """Every frame Hedda's page receives while Snurre chooses in secret, then Hedda, then the reveal."""
    with serving(tmp_path / f"k{snurre_choice}.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        with socket(client, cid, tokens["hedda"]) as hedda, socket(client, cid, tokens[GM]) as gm:
            hedda.sync()
            gm.sync()
            assert post(client, cid, tokens["snurre"], {"type": "act", "step": 0, "choice": snurre_choice})[0] == 200
            before_reveal = hedda.sync()
            assert before_reveal[-1]["chosen"] == [{"seat": "snurre", "label": "Snurre (snurre)"}]
            gm_frames = gm.sync()
            hedda.send({"type": "act", "step": 1, "choice": 1})
            after = hedda.sync()
            assert after[-1]["step"] > 2
        normal = [
            re.sub(r'"epoch": ?"\w+"', "", text).replace(tokens["hedda"], "TOKEN").replace(f"/t/{cid}/", "/t/N/")
            for text in hedda.raw
            if json.loads(text)["type"] == "frame"
        ]
        return normal, gm_frames + [f for f in before_reveal]


def test_a_player_never_receives_another_seats_secret_choice_or_gm_only_events(tmp_path: Path) -> None:
    """Snurre advances in one world and retreats in the other: Hedda's frames are identical until the reveal."""
    advance, frames_a = hedda_frames(tmp_path, 0)
    retreat, _ = hedda_frames(tmp_path, 2)
    reveal = next(i for i, text in enumerate(advance) if "revealed" in text)
    assert advance[:reveal] == retreat[:reveal]
    assert "Snurre Avancera (advance)" in advance[reveal] and "Snurre Retirera (retreat)" in retreat[reveal]
    for text in advance[:reveal]:
        assert "snurre chose" not in text and re.search(r"\"gm_secrets\": ?{}", text) and "links" not in text
    # the GM, and only the GM, sees the choice before the reveal
    gm = [f for f in frames_a if f.get("gm")]
    assert gm[-1]["gm_secrets"] == {"Snurre (snurre)": "Avancera (advance)"}


def test_the_gm_undoes_and_the_store_follows(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        post(client, cid, tokens["snurre"], {"type": "act", "step": 0, "choice": 0})
        _, after = post(client, cid, tokens["hedda"], {"type": "act", "step": 1, "choice": 0})
        assert after["step"] >= 2
        code, undone = post(client, cid, tokens[GM], {"type": "undo", "count": 1})
        assert code == 200 and undone["step"] == 1 and undone["gm_secrets"] == {"Snurre (snurre)": "Avancera (advance)"}
        saved = Store.open(db).load(cid)
        assert len(saved.conflict.steps) == 1 and saved.sources == ["human"]
        assert frame(client, cid, tokens["hedda"])["choices"] != []


def test_a_conflict_begun_in_the_terminal_is_opened_at_the_browser_table(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    store = Store.open(db)
    scenario = load_scenario("presja/knife_fight")
    seats = {p.id: "human" for p in scenario.participants()} | {GM: scenario.gm}
    cid = store.create(Conflict(scenario, {}, 3), "auto", seats)
    store.close()
    with serving(db) as (client, _):
        response = client.post(f"/console/{ADMIN}/open/{cid}", follow_redirects=False)
        assert response.status_code == 303
        gm = frame(client, cid, response.headers["location"].rsplit("/", 1)[1])
        assert gm["gm"] and gm["gm_choices"] and gm["step"] == 0


def test_dice_typed_at_the_table_are_read_as_the_terminal_reads_them(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "presja/knife_fight", (), dice="table")
        gm = frame(client, cid, tokens[GM])
        assert gm["pending_roll"]["notation"] == "4dF"
        step = gm["step"]
        assert post(client, cid, tokens["belzee"], {"type": "roll", "step": step, "text": "+ + + +"})[0] == 400
        code, body = post(client, cid, tokens[GM], {"type": "roll", "step": step, "text": "+ + 0 x"})
        assert code == 400 and body["error"].startswith("cannot read '+ + 0 x' as 4dF")
        code, body = post(client, cid, tokens[GM], {"type": "roll", "step": step, "text": "+ + 0 -"})
        assert code == 200 and body["step"] == step + 2, "the roll, and Belzee fights on before Massimo's roll"
        # the faces typed are shown on every page, as the dice the app rolls are
        assert body["rolls"][0]["faces"] == ["+", "+", "0", "-"] and body["rolls"][0]["result"] == "+1"


def test_text_is_escaped(tmp_path: Path) -> None:
    source = (Path(__file__).parents[2] / "src/konflikt/examples/levald/duel.toml").read_text(encoding="utf-8")
    evil = tmp_path / "evil.toml"
    evil.write_text(source.replace("Tvekamp vid bron", "<script>alert(1)</script>"), encoding="utf-8")
    with serving(tmp_path / "k.sqlite") as (client, _):
        form = {"toml": evil.read_text(encoding="utf-8"), "dice": "auto", "seed": "7", "policy:snurre": "human"}
        response = client.post(f"/console/{ADMIN}/new", data=form, follow_redirects=False)
        assert response.status_code == 303, response.text
        _, _, table, token = response.headers["location"].split("/")
        cid = int(table)
        page = client.get(f"/t/{cid}/{token}").text
        assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "&lt;script&gt;" in frame(client, cid, token)["html"]


EVERY_RULESET = ["presja/knife_fight", "levald/duel", "fimbulfrost/robbers", "pwge/duel"]


@pytest.mark.parametrize("name", EVERY_RULESET)
def test_a_whole_conflict_of_every_ruleset_through_the_api(tmp_path: Path, name: str) -> None:
    """Every participant a human on their own link; the GM's frame says who is asked; the store replays the end."""
    db = tmp_path / "k.sqlite"
    humans = tuple(p.id for p in load_scenario(name).participants())
    rng = np.random.default_rng(5)
    with serving(db) as (client, _):
        cid, tokens = new_table(client, name, humans)
        for _ in range(2000):
            gm = frame(client, cid, tokens[GM])
            if gm["terminal"]:
                break
            asked = gm["gm_choices"]
            assert asked, f"nobody is asked at step {gm['step']}: {gm['node']}"
            seat = asked[0]["seat"]
            mine = frame(client, cid, tokens[seat])
            assert [c["words"] for c in mine["choices"]] == [c["words"] for c in asked[0]["choices"]]
            for other in humans:
                if other not in {a["seat"] for a in asked}:
                    assert frame(client, cid, tokens[other])["choices"] == []
            choice = int(rng.integers(len(mine["choices"])))
            code, after = post(client, cid, tokens[seat], {"type": "act", "step": mine["step"], "choice": choice})
            assert code == 200, after
        assert gm["terminal"] and gm["outcome"]
        steps = gm["step"]
    saved = Store.open(db)
    loaded = saved.load(cid)
    state = loaded.conflict.replay()
    assert state.is_terminal() and len(loaded.conflict.steps) == steps
    assert next(r for r in saved.list() if r.id == cid).outcome == state.outcome().summary


def test_secret_choices_sent_from_two_phones_at_once_are_both_taken(tmp_path: Path) -> None:
    """Both pages show step 0; Snurre's choice lands first; Hedda's, still marked step 0, is taken, not refused."""
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        assert post(client, cid, tokens["snurre"], {"type": "act", "step": 0, "choice": 1})[0] == 200
        code, after = post(client, cid, tokens["hedda"], {"type": "act", "step": 0, "choice": 1})
        assert code == 200 and after["step"] >= 2
        assert any("revealed: Snurre Bibehålla (hold), Hedda Bibehålla (hold)" in e["text"] for e in after["events"])
        code, body = post(client, cid, tokens["snurre"], {"type": "act", "step": 0, "choice": 1})
        assert code == 400 and body["error"].startswith("the table has moved on")


def test_the_gm_page_shows_each_join_link_as_an_inline_qr_code_and_a_player_page_none(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        gm = client.get(f"/t/{cid}/{tokens[GM]}").text
        qr = r'<details class="qr"><summary>QR code <span class="visually-hidden">[^<]*</span></summary>(<svg.*?</svg>)'
        svgs = re.findall(qr, gm, re.S)
        assert len(svgs) == 2  # the players' links; the GM's own page has none of its own
        url = f"http://testserver/t/{cid}/{tokens['hedda']}"
        assert (
            segno.make(url, error="m", micro=False, mask=0, boost_error=False).svg_inline(
                scale=4, border=2, svgclass="qr", lineclass=None
            )
            in svgs
        )
        assert "<svg" not in client.get(f"/t/{cid}/{tokens['hedda']}").text
        assert 'src="http' not in gm and 'href="http' not in gm.replace('href="http://testserver/', "")


def test_a_socket_frame_leaves_to_its_html_what_is_in_it_and_the_gm_tools_are_rendered_only_when_they_change(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "k.sqlite") as (client, hub):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        rendered: list[str] = []
        render = hub.pages.render

        def counting(name: str, **context: object) -> str:
            rendered.append(name)
            return render(name, **context)

        hub.pages.render = counting  # type: ignore[method-assign]
        with socket(client, cid, tokens[GM]) as gm, socket(client, cid, tokens["hedda"]) as hedda:
            first = hedda.sync()[-1]
            gm.sync()
            assert {"html", "choices", "step", "epoch"} <= first.keys()
            assert not {"status", "rolls", "sheet", "corrections", "links", "policies"} & first.keys()
            assert "Gard" in first["html"]  # the sheet and the whole table's values are in the page's HTML
            assert {"status", "sheet", "policies"} <= frame(client, cid, tokens["hedda"]).keys()
            tools = rendered.count("gm_tools.html")
            for seat in DUEL:  # two secret choices: the GM's tools (undo, pause, odds, seats) do not change
                code, _ = post(client, cid, tokens[seat], {"type": "act", "step": first["step"], "choice": 0})
                assert code == 200
            frames = gm.sync()
            hedda.sync()
            assert frames and frames[-1]["step"] > first["step"]
            assert 'id="undo"' in frames[-1]["html"] and 'id="correct"' in frames[-1]["html"]
            assert rendered.count("gm_tools.html") == tools
            assert rendered.count("panel.html") > 0


def test_the_everyone_card_names_sides_and_participants_as_the_terminal_does(tmp_path: Path) -> None:
    """A status cell that holds an id (presja's ``side``: ``strona_belzee``) shows the name on the page and in the
    API's ``status``, as the terminal's status table does (``core.names.named``)."""
    scenario = load_scenario("presja/knife_fight")
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "presja/knife_fight", ("belzee",))
        data = frame(client, cid, tokens[GM])
        sides = {side.id: side.name for side in scenario.sides}
        cells = [cell for row in data["status"] for cell in row["cells"].values()]
        raw = [cell for row in new_state(scenario).status().values() for cell in row.values()]
        assert set(sides) & set(raw), raw  # the display holds side ids: the test has something to name
        assert not set(sides) & set(cells), cells
        assert set(sides.values()) <= set(cells)
        page = client.get(f"/t/{cid}/{tokens[GM]}").text
        everyone = page[page.index("<h2>Everyone</h2>") :]
        assert "strona_belzee" not in everyone and "<dd>Belzee</dd>" in everyone


def test_now_says_that_the_seat_asked_decides(tmp_path: Path) -> None:
    """Every page's *Now* line: "Belzee (belzee) decides", not the bare name (a watching player read "Now: Lis (lis)"
    and could not tell whether Lis was deciding, rolling or had been hit)."""
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "presja/knife_fight", ("belzee", "massimo"))
        page = frame(client, cid, tokens["massimo"])
        asked = page["node"]
        assert asked.endswith(" decides") and asked.split(" decides")[0] in {"Belzee (belzee)", "Massimo (massimo)"}
        assert f"Now: <strong>{asked}</strong>" in page["html"]
