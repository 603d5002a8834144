"""A scenario uploaded on the GM console: checked by the CLI's models, one-line errors on the page, bounded."""

from __future__ import annotations

import re
from pathlib import Path

from konflikt.core.scenario import bundled_examples
from konflikt.core.state import GM
from konflikt.web.app import UPLOAD_MAX
from tests.languages import with_title
from tests.web.helpers import ADMIN, frame, serving


def error_line(html: str) -> str:
    match = re.search(r'<p class="message">(.*?)</p>', html, re.S)
    assert match is not None, html
    return match.group(1)


def test_an_uploaded_scenario_opens_a_table_with_its_seats(tmp_path: Path) -> None:
    text = (bundled_examples() / "levald" / "duel.toml").read_text(encoding="utf-8")
    text = with_title(text, '"Uploaded: a duel at the bridge"')
    with serving(tmp_path / "k.sqlite") as (client, _):
        seats = client.post(f"/console/{ADMIN}/upload", data={"toml": text})
        assert seats.status_code == 200 and "Uploaded: " in seats.text and 'name="policy:hedda"' in seats.text
        form = {"toml": text, "dice": "auto", "seed": "5", "policy:hedda": "human", "policy:snurre": "human"}
        opened = client.post(f"/console/{ADMIN}/new", data=form, follow_redirects=False)
        assert opened.status_code == 303
        cid, token = opened.headers["location"].split("/")[2:4]
        gm = frame(client, int(cid), token)
        assert gm["title"].startswith("Uploaded: ") and gm["seat"] == GM and gm["choices"] == []
        assert sorted(g["seat"] for g in gm["gm_choices"]) == ["hedda", "snurre"]


def test_a_bad_upload_gets_one_line_on_the_page(tmp_path: Path) -> None:
    good = (bundled_examples() / "levald" / "duel.toml").read_text(encoding="utf-8")
    cases = [
        ("", "uploaded scenario: empty; paste a scenario's TOML or choose its file"),
        ("title = ", "uploaded scenario: not valid TOML: "),
        ('ruleset = "levald"\ntitle = 3', "uploaded scenario: "),
        ('ruleset = "chess"\ntitle = "x"\n[[sides]]\nid = "a"', "uploaded scenario: "),
        (
            good.replace('character = "builtin:hedda"', 'character = "/etc/passwd"', 1),
            "uploaded scenario: sides[",
        ),
    ]
    with serving(tmp_path / "k.sqlite") as (client, _):
        for text, start in cases:
            page = client.post(f"/console/{ADMIN}/upload", data={"toml": text})
            assert page.status_code == 400, text
            line = error_line(page.text)
            assert "\n" not in line and line.startswith(start.replace("'", "&#39;")), line
        too_big = client.post(f"/console/{ADMIN}/upload", data={"toml": "#" * (UPLOAD_MAX + 5000)})
        assert too_big.status_code == 400 and "form too long" in error_line(too_big.text)
        other_site = client.post(
            f"/console/{ADMIN}/upload", data={"toml": good}, headers={"origin": "http://evil.example"}
        )
        assert other_site.status_code == 403
        assert client.post("/console/wrong-key/upload", data={"toml": good}).status_code == 404
