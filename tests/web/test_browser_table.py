"""The browser table for a real group, in Debian's Chromium: a player rolls their own dice on a phone, a tap while
the server is down is kept and applied once, the log stays bounded over a long duel, the turn is announced, every
control is a thumb's size, the socket follows the page's scheme, and axe-core finds nothing serious on any page.

The server and the browser are ``test_browser``'s (``konflikt serve`` in its own process, ``/usr/bin/chromium``).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.campaign.helpers import character_file
from tests.web import test_browser
from tests.web.test_browser import DESKTOP, PHONE, Server, every_seat_human, free_port, phone, shot, step_of

server = test_browser.server
browser = test_browser.browser
"""``konflikt serve`` and Chromium, shared with ``test_browser`` (pytest finds fixtures by their names here)."""


def open_table(gm: Any, server: Server, scenario: str, seed: int, dice: str = "auto", humans: bool = True) -> None:
    """The GM opens a table from the console: every participant a person (or as the scenario says)."""
    gm.goto(server.console)
    gm.select_option("select[name=scenario]", scenario)
    gm.click("text=Choose the seats")
    gm.wait_for_selector("select[name^='policy:']")
    if humans:
        every_seat_human(gm)
    gm.select_option("select[name=dice]", dice)
    gm.fill("input[name=seed]", str(seed))
    gm.click("text=Open the table")
    gm.wait_for_selector("text=Game master's console")


def join_links(gm: Any) -> dict[str, str]:
    """Seat label → join link, from the GM's page."""
    links = {}
    for li in gm.locator("#join-links ul.links li").all():
        links[li.inner_text().split(":")[0]] = li.locator("a").get_attribute("href")
    return links


def api(url: str, message: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """The JSON API of a page's link (``/t/`` → ``/api/t/``), as a script would call it."""
    target = url.replace("/t/", "/api/t/", 1)
    data = json.dumps(message).encode() if message is not None else None
    request = urllib.request.Request(target, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as answer:
        return answer.code, json.loads(answer.read())


def press_until(pages: list[Any], done: str, limit: int = 200) -> None:
    """Whoever has a button presses the first one until one of ``pages`` shows ``done`` (a selector)."""
    for _ in range(limit):
        if any(page.locator(done).count() for page in pages):
            return
        for page in pages:
            buttons = page.locator("#choices button.choice")
            if buttons.count():
                before = step_of(page)
                try:
                    buttons.first.click(timeout=2000)
                    page.wait_for_function(f"() => document.body.dataset.step !== '{before}'", timeout=5000)
                except Exception:  # redrawn under the thumb: look again
                    pass
                break
        else:
            pages[0].wait_for_timeout(50)
    raise AssertionError(f"{done} never showed")


def test_a_player_rolls_their_own_dice_on_a_phone_and_every_page_shows_the_faces(server: Server, browser: Any) -> None:
    gm_context = browser.new_context(viewport=DESKTOP)
    gm = gm_context.new_page()
    open_table(gm, server, "levald/duel", seed=5, dice="players")
    links = join_links(gm)
    contexts = [phone(browser) for _ in links]
    phones = [c.new_page() for c in contexts]
    for page, link in zip(phones, links.values(), strict=True):
        assert page.viewport_size == PHONE
        page.goto(link)
        page.wait_for_selector("#connection:text('live')")
    press_until(phones, "#my-roll")
    roller = next(page for page in phones if page.locator("#my-roll").count())
    watcher = next(page for page in phones if page is not roller)
    purpose = roller.locator("#my-roll h2").inner_text().removeprefix("Your roll: ")
    # the roller's page shows the roll's chances, the same the GM's roll form shows (the terminal's)
    gm.wait_for_selector("#gm-roll .stakes")
    chances = roller.locator("#my-roll .stakes").inner_text()
    assert "%" in chances and chances == gm.locator("#gm-roll .stakes").first.inner_text()
    assert watcher.locator("#rolling").inner_text().startswith(purpose.split("'s ")[0])
    step = step_of(roller)
    shot(roller, "phone-player-roll.png")
    roller.locator("#roll-button").dblclick()  # a double tap: one roll
    faces = []
    for page in (roller, watcher, gm):
        page.wait_for_function(f"() => Number(document.body.dataset.step) > {step}")
        item = page.locator("#dice li", has_text=purpose.split(":")[0]).first
        faces.append(item.locator(".die").all_inner_texts())
        assert item.locator(".meaning").inner_text().strip(), "what the roll meant"
    assert faces[0] and faces[0] == faces[1] == faces[2]
    shot(watcher, "phone-watcher-sees-faces.png")
    code, frame = api(gm.url)
    assert code == 200
    assert [r["step"] for r in frame["rolls"]].count(step) == 1  # the double tap rolled once
    assert all(
        not page.locator("#error").is_visible() or "taken already" in page.locator("#error").inner_text()
        for page in phones
    )
    for context in (gm_context, *contexts):
        context.close()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test's own, to kill and start again on the same port and database."""
    srv = Server(tmp_path / "table.sqlite", free_port())
    srv.start()
    yield srv
    if srv.proc is not None and srv.proc.poll() is None:
        srv.proc.terminate()
        srv.proc.wait(timeout=10)


def test_a_tap_while_the_server_is_down_is_kept_and_applied_once_when_it_is_back(
    own_server: Server, browser: Any
) -> None:
    gm_context = browser.new_context(viewport=DESKTOP)
    gm = gm_context.new_page()
    open_table(gm, own_server, "levald/duel", seed=11)
    links = join_links(gm)
    context = phone(browser)
    snurre = context.new_page()
    navigations: list[str] = []
    snurre.on("framenavigated", lambda frame: navigations.append(frame.url))
    snurre.goto(links["Snurre (snurre)"])
    snurre.wait_for_selector("#connection:text('live')")
    navigations.clear()
    own_server.kill()
    snurre.wait_for_selector("#connection:text('reconnecting')")
    snurre.locator("#choices button.choice").first.click()
    snurre.wait_for_selector("#error:text('offline')")  # said on the page; the page stays where it is
    snurre.locator("#choices button.choice").first.click()  # a second tap while offline: the first is on its way
    shot(snurre, "phone-offline-tap.png")
    assert navigations == [] and snurre.url == links["Snurre (snurre)"]
    own_server.start()
    snurre.wait_for_selector("#connection:text('live')", timeout=20_000)
    snurre.wait_for_selector("#my-secret", timeout=10_000)  # the kept tap was sent and taken
    gm.wait_for_selector("#connection:text('live')", timeout=20_000)
    gm.wait_for_selector("text=Secret choices so far")
    assert not snurre.locator("#error").is_visible()
    code, frame = api(gm.url)
    assert code == 200 and frame["step"] == 1  # one secret choice, not two
    assert sum("Snurre has made a secret choice" in e["text"] for e in frame["events"]) == 1
    assert navigations == []
    context.close()
    gm_context.close()


def test_the_log_stays_bounded_after_a_long_duel(server: Server, browser: Any) -> None:
    """A Le våld duel kept going past 1,700 steps, driven through the API as a script at the table would: the
    fighters press their first choice, and the GM corrects every value the fight has changed back to where it began
    (Gard, Omtöckning, wounds), so nobody falls. A phone then shows the last 50 entries, the page under three screens
    high, and "Earlier entries" loads 50 more."""
    gm_context = browser.new_context(viewport=DESKTOP)
    gm = gm_context.new_page()
    open_table(gm, server, "levald/duel", seed=3)
    seats = list(join_links(gm).values())
    _, first = api(gm.url)
    fresh = {c["target"]: c["now"] for c in first["corrections"]}
    steps = 0
    for _ in range(3000):
        for link in seats:
            _, frame = api(link)
            if frame["choices"]:
                api(link, {"type": "act", "step": frame["step"], "choice": 0})
        _, gm_frame = api(gm.url)
        assert not gm_frame["terminal"], gm_frame["outcome"]
        for c in gm_frame["corrections"]:
            if c["target"] in fresh and c["now"] != fresh[c["target"]]:
                message = {"type": "correct", "target": c["target"], "value": fresh[c["target"]], "reason": "fresh"}
                assert api(gm.url, message)[0] == 200
        steps = api(gm.url)[1]["step"]
        if steps >= 1700:
            break
    assert steps >= 1700, steps
    context = phone(browser)
    page = context.new_page()
    page.goto(seats[0])
    page.wait_for_selector("#connection:text('live')")
    assert page.locator("#log li").count() == 50
    height = page.evaluate("() => document.documentElement.scrollHeight")
    page.screenshot(path=str(shot(page, "phone-long-duel.png")).replace(".png", "-whole.png"), full_page=True)
    assert height < 3 * PHONE["height"], height
    page.click("#earlier")
    page.wait_for_function("() => document.querySelectorAll('#log li').length === 100")
    gm_page = context.new_page()
    gm_page.goto(gm.url)
    gm_page.wait_for_selector("#connection:text('live')")
    assert gm_page.locator("#log li").count() == 50
    context.close()
    gm_context.close()


def controls_smaller_than_a_thumb(page: Any) -> list[str]:
    """Every visible control under 44 px high (a checkbox counts by its label, which is what one taps)."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll(
                'a, button, select, summary, input:not([type=hidden]):not([type=checkbox]), textarea,'
                + ' label:has(input[type=checkbox])')]
              .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
              .filter(el => el.getBoundingClientRect().height < 44)
              .map(el => el.outerHTML.slice(0, 80) + ' ' + el.getBoundingClientRect().height)"""
        )
    )


def test_your_turn_is_announced_every_control_is_a_thumbs_size_and_no_request_fails(
    server: Server, browser: Any
) -> None:
    context = phone(browser)
    gm = context.new_page()
    failed: list[str] = []
    gm.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    open_table(gm, server, "levald/duel", seed=11)
    gm.wait_for_selector("#connection:text('live')")
    gm.locator("#join-links details summary").first.click()
    links = join_links(gm)
    snurre = context.new_page()
    snurre.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    snurre.goto(links["Snurre (snurre)"])
    snurre.wait_for_selector("#connection:text('live')")
    assert snurre.title().startswith("● your move")  # a secret choice is asked of him
    for page in (gm, snurre):
        assert controls_smaller_than_a_thumb(page) == []
    snurre.locator("#choices button.choice").first.click()
    snurre.wait_for_selector("#my-secret")
    snurre.wait_for_function("() => !document.title.startsWith('●')")
    assert failed == []
    favicon = gm.request.get(f"{server.base}/favicon.ico")
    assert favicon.status == 200 and favicon.headers["content-type"].startswith("image/svg")
    context.close()


def test_the_socket_follows_the_pages_scheme(server: Server, browser: Any) -> None:
    """Behind a TLS reverse proxy the page is https: and its socket must be wss: (a browser refuses ws: there)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.base + "/")
    url = "async (loc) => (await import('/static/socket_url.js')).socketUrl(loc, '/ws/1/abc')"
    assert page.evaluate(url, {"protocol": "https:", "host": "table.example.org"}) == "wss://table.example.org/ws/1/abc"
    assert page.evaluate(url, {"protocol": "http:", "host": "192.168.1.20:8000"}) == "ws://192.168.1.20:8000/ws/1/abc"
    context.close()


def documents(db: Path, campaign: str) -> dict[str, Any]:
    """The campaign's characters as the library holds them, read with a connection of the test's own while the
    server runs (its commits are in its write-ahead log, which a reader of the file sees)."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT h.name, h.document FROM characters h JOIN campaigns c ON c.id = h.campaign_id WHERE c.name = ?",
            (campaign,),
        ).fetchall()
    finally:
        conn.close()
    return {name: json.loads(doc) for name, doc in rows}


def test_a_table_from_a_campaigns_characters_in_the_console_writes_them_back(server: Server, browser: Any) -> None:
    for name in ("budolf", "rudolf"):
        added = subprocess.run(
            [sys.executable, "-m", "konflikt", "chars", "add", str(character_file("fimbulfrost", name)), "--ruleset",
             "fimbulfrost", "--campaign", "browser-saga", "--db", str(server.db)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert added.returncode == 0, added.stderr
    before = documents(server.db, "browser-saga")
    context = browser.new_context(viewport=DESKTOP)
    gm = context.new_page()
    gm.goto(server.console)
    gm.select_option("select[name=scenario]", "fimbulfrost/robbers")
    gm.select_option("select[name=campaign]", "browser-saga")
    gm.click("text=Choose the seats")
    gm.wait_for_selector("#campaign:has-text('budolf plays as budolf')")
    gm.fill("input[name=seed]", "9")
    gm.click("text=Open the table")
    gm.wait_for_selector("#outcome")  # the robbers' conflict with every seat a bot: played to its end at once
    after = documents(server.db, "browser-saga")
    assert after != before and set(after) == {"budolf", "rudolf"}
    context.close()
