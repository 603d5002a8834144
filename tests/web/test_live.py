"""Live pages: a page that reconnects catches up from the log, and a restarted server continues where it was."""

from __future__ import annotations

from pathlib import Path

from markupsafe import escape
from starlette.testclient import TestClient

from konflikt.core.events import GM_SEAT
from konflikt.core.scenario import bundled_examples
from konflikt.core.state import GM
from tests.web.helpers import ADMIN, frame, new_table, post, serving, socket

DUEL = ("snurre", "hedda")


def play_round(client: TestClient, cid: int, tokens: dict[str, str]) -> None:
    for seat in DUEL:
        now = frame(client, cid, tokens[seat])
        if now["choices"]:
            assert post(client, cid, tokens[seat], {"type": "act", "step": now["step"], "choice": 0})[0] == 200


def test_events_know_the_gm_seat() -> None:
    assert GM_SEAT == GM


def test_a_page_that_reconnects_gets_exactly_the_events_it_missed(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        with socket(client, cid, tokens["hedda"]) as sock:
            first = sock.sync()[-1]
        have, epoch = len(first["events"]), first["epoch"]
        play_round(client, cid, tokens)
        everything = [e["text"] for e in frame(client, cid, tokens["hedda"])["events"]]
        assert len(everything) > have
        with socket(client, cid, tokens["hedda"], epoch=epoch, have=have) as sock:
            caught_up = sock.sync()[-1]
        assert not caught_up["reset"]
        assert [e["text"] for e in caught_up["events"]] == everything[have:]
        with socket(client, cid, tokens["hedda"], epoch="another-log", have=have) as sock:
            fresh = sock.sync()[-1]
        assert fresh["reset"] and [e["text"] for e in fresh["events"]] == everything


def test_every_page_hears_of_a_step_once_it_is_saved(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        with socket(client, cid, tokens["snurre"]) as snurre, socket(client, cid, tokens[GM]) as gm:
            snurre.sync()
            gm.sync()
            post(client, cid, tokens["hedda"], {"type": "act", "step": 0, "choice": 0})
            for sock in (snurre, gm):
                frames = sock.sync()
                assert frames and frames[-1]["step"] == 1
                assert "Hedda has made a secret choice" in [e["text"] for e in frames[-1]["events"]]


def test_the_core_s_events_name_the_participant_on_every_page(tmp_path: Path) -> None:
    """A secret choice made and a GM's correction are said with the character's name (an uploaded one here, which
    looks like markup and HTML): in the frames as written, on the page escaped by the template (as every text)."""
    name = "Hedda <b>[bold]Bro</b>"
    text = (bundled_examples() / "levald" / "duel.toml").read_text(encoding="utf-8")
    text = text.replace('id = "hedda"\n', f'id = "hedda"\nname = "{name}"\n', 1)
    with serving(tmp_path / "k.sqlite") as (client, _):
        form = {"toml": text, "dice": "auto", "seed": "5", "policy:hedda": "human", "policy:snurre": "human"}
        opened = client.post(f"/console/{ADMIN}/new", data=form, follow_redirects=False)
        cid, gm = opened.headers["location"].split("/")[2:4]
        tokens = dict(client.app.state.hub.links.tables[int(cid)])  # type: ignore[attr-defined]
        assert post(client, int(cid), tokens["hedda"], {"type": "act", "step": 0, "choice": 0})[0] == 200
        correction = {"type": "correct", "target": "hedda|Gard", "value": 2, "reason": "misread"}
        assert post(client, int(cid), gm, correction)[0] == 200
        said = [f"{name} has made a secret choice", f"The GM corrected {name}'s Gard: 14 → 2 (misread)"]
        for token in (gm, tokens["snurre"], tokens["hedda"]):
            assert [e["text"] for e in frame(client, int(cid), token)["events"]][-2:] == said
            page = client.get(f"/t/{cid}/{token}").text
            assert all(f"<li>{escape(line)}</li>" in page for line in said), page  # as the template escapes


def test_a_restarted_server_continues_with_no_lost_step(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        for _ in range(3):
            play_round(client, cid, tokens)
        before = frame(client, cid, tokens[GM])
    with serving(db) as (client, _):
        after = frame(client, cid, tokens[GM])
        for key in ("step", "events", "rolls", "status", "gm_choices", "node"):
            assert after[key] == before[key], key
        play_round(client, cid, tokens)
        assert frame(client, cid, tokens[GM])["step"] > before["step"]
