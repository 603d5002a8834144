"""The browser table in a real browser: Debian's Chromium driven by Playwright, a GM and two phones.

Playwright's own browser download is not used: the tests drive ``/usr/bin/chromium`` (``apt-get install
chromium``). Without it they skip, with the reason, except in CI (``CI=true``), where a missing browser fails.
Screenshots go to ``test-artefacts/web/`` (or ``$KONFLIKT_ARTEFACTS``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from konflikt.core.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = Path(os.environ.get("KONFLIKT_ARTEFACTS", ROOT / "test-artefacts" / "web"))
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = chromium_path()
if CHROMIUM is None:
    if os.environ.get("CI") == "true":
        pytest.fail("CI: chromium is missing (.ci/run installs it with apt-get install chromium)", pytrace=False)
    pytest.skip("chromium is not installed (apt-get install chromium); browser tests skipped", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """``konflikt serve`` in its own process, so it can be killed like a real one."""

    db: Path
    port: int
    proc: subprocess.Popen[str] | None = None
    console: str = ""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "konflikt", "serve", "--port", str(self.port), "--db", str(self.db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("GM console: "):
                self.console = line.split(": ", 1)[1].strip()
                break
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise AssertionError("konflikt serve did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("serve") / "table.sqlite", free_port())
    srv.start()
    yield srv
    if srv.proc is not None and srv.proc.poll() is None:
        srv.proc.terminate()
        srv.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def phone(browser: Any) -> Any:
    return browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)


def shot(page: Any, name: str) -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTEFACTS / name
    page.screenshot(path=str(path), full_page=False)
    return path


def every_seat_human(gm: Any) -> None:
    """On the seats form: a person plays every participant (the scenario's seats start as its policies say)."""
    gm.wait_for_selector("select[name^='policy:']")
    for select in gm.locator("select[name^='policy:']").all():
        if select.get_attribute("name") != "policy:@gm":
            select.select_option("human")


def step_of(page: Any) -> int:
    return int(page.evaluate("() => document.body.dataset.step"))


def text_outside_choices(page: Any) -> str:
    """The page's text without its own choice buttons (which list every movement, the chosen one too)."""
    script = (
        "() => { const b = document.body.cloneNode(true);"
        " b.querySelector('#choices')?.remove(); return b.textContent; }"
    )
    return str(page.evaluate(script))


def test_a_le_vald_duel_on_two_phones_with_secret_movement_a_reload_and_a_server_restart(
    server: Server, browser: Any
) -> None:
    gm_context = browser.new_context(viewport=DESKTOP)
    gm = gm_context.new_page()
    gm.goto(server.console)
    gm.select_option("select[name=scenario]", "levald/duel")
    gm.click("text=Choose the seats")
    every_seat_human(gm)
    gm.fill("input[name=seed]", "11")
    gm.click("text=Open the table")
    gm.wait_for_selector("text=Game master's console")
    items = gm.locator("ul.links li").all()
    links = {li.inner_text().split(":")[0]: li.locator("a").get_attribute("href") for li in items}
    snurre_link, hedda_link = links["Snurre (snurre)"], links["Hedda (hedda)"]

    snurre_context, hedda_context = phone(browser), phone(browser)
    snurre, hedda = snurre_context.new_page(), hedda_context.new_page()
    hedda_frames: list[dict[str, Any]] = []
    hedda.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda payload: hedda_frames.append(json.loads(payload))),
    )
    snurre.goto(snurre_link)
    hedda.goto(hedda_link)
    for page in (snurre, hedda):
        page.wait_for_selector("#connection:text('live')")
        assert page.locator("#choices h2").inner_text() == "Your secret choice"

    # Snurre retreats, in secret: Hedda's phone says that he has chosen, never what
    snurre.click("button.choice:has-text('Retirera (retreat)')")
    snurre.wait_for_selector("#my-secret:has-text('Retirera (retreat)')")
    hedda.wait_for_selector("#chosen .has-chosen:has-text('Snurre (snurre) has chosen')")
    assert "Retirera" not in text_outside_choices(hedda)
    assert "You chose" not in hedda.content()
    gm.wait_for_selector("text=Secret choices so far")
    assert "Snurre (snurre): Retirera (retreat)" in gm.locator("body").inner_text()
    shot(hedda, "phone-hedda-secret-choice.png")
    shot(gm, "desktop-gm-secret-choice.png")

    hedda.click("button.choice:has-text('Bibehålla (hold)')")
    for page in (snurre, hedda, gm):
        page.wait_for_selector("#log li:has-text('revealed: Snurre Retirera (retreat), Hedda Bibehålla (hold)')")
    before_reveal = [f for f in hedda_frames if f.get("type") == "frame" and f["step"] <= 1]
    assert before_reveal
    for f in before_reveal:
        assert not f["gm_secrets"] and f["my_secret"] in (None, "Bibehålla (hold)")
        assert not any("Retirera" in e["text"] or "snurre chose" in e["text"] for e in f["events"])

    # a reload mid-conflict: the page comes back with the same step and the whole log
    step = step_of(gm)
    log_size = gm.locator("#log li").count()
    hedda.reload()
    hedda.wait_for_selector("#connection:text('live')")
    assert step_of(hedda) == step and hedda.locator("#log li").count() <= log_size

    # the server is killed and restarted mid-conflict: the pages reconnect and play on with no lost step
    server.kill()
    for page in (snurre, hedda):
        page.wait_for_selector("#connection:text('reconnecting')")
    server.start()
    for page in (snurre, hedda, gm):
        page.wait_for_selector("#connection:text('live')", timeout=15_000)
    assert step_of(gm) == step

    # play on: whoever has a button presses the first one; after a dozen presses Snurre leaves the fight
    clicks = 0
    for _ in range(300):
        if gm.locator("#outcome").count():
            break
        for page, leaving in ((snurre, "Lämna"), (hedda, "Retirera")):
            buttons = page.locator("#choices button.choice")
            if not buttons.count():
                continue
            before = step_of(page)
            wanted = buttons.filter(has_text=leaving)
            try:
                (wanted if clicks >= 12 and wanted.count() else buttons).first.click(timeout=2000)
            except sync_api.TimeoutError:
                continue
            page.wait_for_function(f"() => document.body.dataset.step !== '{before}'", timeout=5000)
            clicks += 1
            break
        else:
            gm.wait_for_timeout(20)
    gm.wait_for_selector("#outcome")
    snurre.wait_for_selector("#outcome")
    assert gm.locator("#outcome").inner_text() == snurre.locator("#outcome").inner_text()
    assert snurre.locator("#dice .die").count() >= 2
    shot(snurre, "phone-snurre-outcome.png")
    shot(gm, "desktop-gm-outcome.png")
    for context in (gm_context, snurre_context, hedda_context):
        context.close()


#: One bundled scenario of every ruleset, and a seed that gives a conflict of a few dozen decisions at most.
EVERY_RULESET = [("levald/duel", 3), ("presja/knife_fight", 2), ("fimbulfrost/dragon", 2), ("pwge/duel", 4)]


@pytest.mark.parametrize(("scenario", "seed"), EVERY_RULESET)
def test_a_whole_conflict_of_every_ruleset_played_on_the_pages(
    server: Server, browser: Any, scenario: str, seed: int
) -> None:
    """The GM opens the table from the console on a laptop; every participant plays from a phone by pressing buttons."""
    ruleset = scenario.split("/")[0]
    gm_context = browser.new_context(viewport=DESKTOP)
    gm = gm_context.new_page()
    gm.goto(server.console)
    gm.select_option("select[name=scenario]", scenario)
    gm.click("text=Choose the seats")
    gm.wait_for_selector("select[name^='policy:']")  # the seats' page has loaded: locator.all() does not wait
    seats = [s.get_attribute("name")[len("policy:") :] for s in gm.locator("select[name^='policy:']").all()]
    written = {p.id: p.policy for p in load_scenario(scenario).participants()}
    for seat in seats:
        if seat != "@gm":  # the scenario's own policy first; a person is chosen for every seat
            assert gm.locator(f"select[name='policy:{seat}']").input_value() == written[seat]
    every_seat_human(gm)
    gm.fill("input[name=seed]", str(seed))
    gm.click("text=Open the table")
    gm.wait_for_selector("text=Game master's console")
    links = [li.locator("a").get_attribute("href") for li in gm.locator("#join-links ul.links li").all()]
    players = links  # the GM's own page has no join link
    assert len(players) == len(seats) - 1 >= 2
    contexts = [phone(browser) for _ in players]
    pages = [c.new_page() for c in contexts]
    for page, link in zip(pages, players, strict=True):
        page.goto(link)
        page.wait_for_selector("#connection:text('live')")
        assert page.locator("#sheet").count() == 1

    # the GM corrects a value by hand through the form, with a reason: every page's log says so
    option = gm.locator("#correct select[name=target] option").first
    match = re.search(r"\(now (-?\d+); (-?\d+)–(-?\d+)\)", option.inner_text())
    assert match is not None, option.inner_text()
    now, lowest, highest = (int(g) for g in match.groups())
    gm.select_option("#correct select[name=target]", option.get_attribute("value"))
    gm.fill("#correct input[name=value]", str(lowest if now != lowest else highest))
    gm.fill("#correct input[name=reason]", "read off the sheet wrongly")
    gm.click("#correct button")
    for page in (gm, *pages):
        page.wait_for_selector("#log li:has-text('(read off the sheet wrongly)')")
    gm.click("#ask-odds")  # who wins from here: exact within the budget, else "too large", on the GM's page only
    gm.wait_for_selector("#odds:not(:has-text('working'))", timeout=60_000)
    assert gm.locator("#odds").inner_text().strip() and not pages[0].locator("#odds").count()
    gm.click("#join-links li:first-child details summary")
    gm.evaluate("() => window.scrollTo(0, 0)")
    shot(gm, f"desktop-{ruleset}-gm-start.png")

    presses = 0
    for turn in range(400):
        if gm.locator("#outcome").count():
            break
        pressed = False
        for page in pages:
            buttons = page.locator("#choices button.choice")
            count = buttons.count()
            if not count:
                continue
            before = step_of(page)
            try:
                buttons.nth((turn * 7 + presses) % count).click(timeout=3000)
            except sync_api.TimeoutError:
                continue  # the page was redrawn under the thumb: look again
            page.wait_for_function(f"() => document.body.dataset.step !== '{before}'", timeout=10_000)
            presses += 1
            pressed = True
            break
        if not pressed:
            gm.wait_for_timeout(50)
    gm.wait_for_selector("#outcome", timeout=10_000)
    outcome = gm.locator("#outcome").inner_text()
    for page in pages:
        page.wait_for_selector("#outcome", timeout=10_000)
        assert page.locator("#outcome").inner_text() == outcome
        assert not page.locator("#choices").count()
    assert presses >= 1 and step_of(gm) > presses
    assert 0 < gm.locator("#log li").count() <= 50  # the last 50 entries; "Earlier entries" has the rest
    shot(pages[0], f"phone-{ruleset}-outcome.png")
    shot(gm, f"desktop-{ruleset}-outcome.png")
    for context in (gm_context, *contexts):
        context.close()


@pytest.mark.parametrize("scenario", ["pwge/negotiation", "presja/skirmish", "levald/one_against_two"])
def test_no_phone_page_is_wider_than_the_phone(server: Server, browser: Any, scenario: str) -> None:
    """A sheet's long row name (``diplomatiska kroppspoäng (diplomatic body points)``) took the whole width of its
    card and left the value a column of single letters running off the screen: every page of every seat fits 390
    pixels, with the row name wrapped instead."""
    gm_context = browser.new_context(viewport=DESKTOP)
    gm = gm_context.new_page()
    gm.goto(server.console)
    gm.select_option("select[name=scenario]", scenario)
    gm.click("text=Choose the seats")
    every_seat_human(gm)
    gm.click("text=Open the table")
    gm.wait_for_selector("text=Game master's console")
    links = [li.locator("a").get_attribute("href") for li in gm.locator("#join-links ul.links li").all()]
    context = phone(browser)
    for link in [*links, gm.url]:
        page = context.new_page()
        page.goto(link)
        page.wait_for_selector("#connection:text('live')")
        wide, seen = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        if wide > seen:
            shot(page, f"too-wide-{scenario.replace('/', '-')}.png")
        assert wide <= seen, (scenario, link, wide, seen)
        page.close()
    context.close()
    gm_context.close()


def test_the_connection_line_covers_no_text_of_the_page(server: Server, browser: Any) -> None:
    """*live* / *reconnecting…* was pinned to the bottom corner and lay across the words scrolled under it (a sheet's
    value, a button's line): it is in the page's flow now, in a bar of its own above the cards, so at no scroll
    position is anything under it."""
    gm_context = browser.new_context(viewport=DESKTOP)
    gm = gm_context.new_page()
    gm.goto(server.console)
    gm.select_option("select[name=scenario]", "levald/duel")
    gm.click("text=Choose the seats")
    every_seat_human(gm)
    gm.click("text=Open the table")
    gm.wait_for_selector("text=Game master's console")
    link = gm.locator("#join-links ul.links li a").first.get_attribute("href")
    context = phone(browser)
    page = context.new_page()
    page.goto(link)
    page.wait_for_selector("#connection:text('live')")
    assert page.evaluate("() => getComputedStyle(document.getElementById('connection')).position") == "static"
    for where in ("0", "document.documentElement.scrollHeight / 2", "document.documentElement.scrollHeight"):
        covered = page.evaluate(
            f"""() => {{
            window.scrollTo(0, {where});
            const badge = document.getElementById('connection').getBoundingClientRect();
            return [...document.querySelectorAll('.card, #panel p, #panel h1, button')].some(el => {{
              const r = el.getBoundingClientRect();
              return r.width && r.left < badge.right && badge.left < r.right && r.top < badge.bottom
                && badge.top < r.bottom;
            }});
          }}"""
        )
        assert not covered, where
    shot(page, "phone-connection-line.png")
    context.close()
    gm_context.close()
