"""A table started from a campaign's characters in the GM's console, written back when the conflict ends: the same
store code as ``konflikt play --campaign`` (``Store.create(cast=)``, ``Store.finish``), so the library ends as the
terminal's ``play --campaign`` leaves it for the same scenario, seed and seats (the same per-step dice)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from konflikt.core.state import GM
from tests.campaign.helpers import documents
from tests.campaign.test_write_back import ROBBERS_SEED, add_heroes
from tests.conftest import Result
from tests.web.helpers import ADMIN, frame, serving


def test_a_table_from_a_campaigns_characters_writes_them_back_as_the_terminal_does(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    db, terminal_db = tmp_path / "web.sqlite", tmp_path / "terminal.sqlite"
    add_heroes(cli, db, "saga")
    shutil.copy(db, terminal_db)
    before = documents(db, "saga")
    ran = cli(
        "play", "fimbulfrost/robbers", "--seed", str(ROBBERS_SEED), "--campaign", "saga", "--db", str(terminal_db)
    )
    assert ran.code == 0, ran.err
    with serving(db) as (client, hub):
        console = client.get(f"/console/{ADMIN}").text
        assert '<option value="saga">saga</option>' in console
        seats = client.get(f"/console/{ADMIN}/new", params={"scenario": "fimbulfrost/robbers", "campaign": "saga"})
        assert seats.status_code == 200
        assert "budolf plays as budolf, rudolf plays as rudolf" in seats.text
        form = {"scenario": "fimbulfrost/robbers", "campaign": "saga", "dice": "auto", "seed": str(ROBBERS_SEED)}
        opened = client.post(f"/console/{ADMIN}/new", data=form, follow_redirects=False)
        assert opened.status_code == 303, opened.text
        cid = int(opened.headers["location"].split("/")[2])
        assert hub.links is not None
        assert frame(client, cid, hub.links.tables[cid][GM])["terminal"]  # every seat a bot: played to the end
    after = documents(db, "saga")
    assert after != before  # the aftermath was written back (Rustning spent, the consequences bought)...
    assert after == documents(terminal_db, "saga")  # ...exactly as the terminal writes it back


def test_a_campaign_without_a_character_for_the_scenario_is_one_line(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    db = tmp_path / "web.sqlite"
    add_heroes(cli, db, "saga")
    with serving(db) as (client, _):
        page = client.get(f"/console/{ADMIN}/new", params={"scenario": "levald/duel", "campaign": "saga"})
        assert page.status_code == 400
        assert "campaign &#39;saga&#39; has no levald character named as a seat of this scenario" in page.text
        page = client.get(f"/console/{ADMIN}/new", params={"scenario": "levald/duel", "campaign": "nope"})
        assert page.status_code == 400 and "no campaign &#39;nope&#39;" in page.text
