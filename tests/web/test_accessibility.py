"""axe-core on every kind of page the table serves (the console, the seats form, the GM's page, a player's page, a
one-line message): no serious or critical violation, on a phone and on a laptop; every control is reached by Tab.

axe-core comes with axe-playwright-python (the dev extras); without it the test skips, except in CI."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.web import test_browser
from tests.web.test_browser import DESKTOP, Server, every_seat_human, phone, shot

server = test_browser.server
browser = test_browser.browser

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # pragma: no cover - the dev extras install it
    if os.environ.get("CI") == "true":
        pytest.fail("CI: axe-playwright-python is missing (pip install -e '.[dev]')", pytrace=False)
    pytest.skip("axe-playwright-python is not installed", allow_module_level=True)

SERIOUS = ("serious", "critical")


def violations(page: Any) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it stands, one line each."""
    results = Axe().run(page)
    found = results.response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in SERIOUS
    ]


def unreachable_by_tab(page: Any) -> list[str]:
    """Controls that Tab never reaches (a negative tabindex, or disabled without reason)."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll(
                'a[href], button, select, input:not([type=hidden]), textarea, summary')]
              .filter(el => el.getClientRects().length && (el.tabIndex < 0 || el.disabled))
              .map(el => el.outerHTML.slice(0, 80))"""
        )
    )


def pages_of_every_kind(server: Server, context: Any) -> list[tuple[str, Any]]:
    gm = context.new_page()
    gm.goto(server.console)
    kinds = [("console", gm)]
    seats = context.new_page()
    seats.goto(server.console)
    seats.select_option("select[name=scenario]", "fimbulfrost/robbers")
    seats.click("text=Choose the seats")
    seats.wait_for_selector("select[name^='policy:']")
    kinds.append(("seats form", seats))
    table = context.new_page()
    table.goto(seats.url)
    every_seat_human(table)
    table.select_option("select[name=dice]", "players")
    table.click("text=Open the table")
    table.wait_for_selector("#connection:text('live')")
    kinds.append(("GM page", table))
    link = table.locator("#join-links ul.links li a").first.get_attribute("href")
    player = context.new_page()
    player.goto(link)
    player.wait_for_selector("#connection:text('live')")
    kinds.append(("player page", player))
    message = context.new_page()
    message.goto(server.base + "/t/1/no-such-link")
    kinds.append(("message", message))
    return kinds


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_axe_finds_nothing_serious_on_any_kind_of_page(server: Server, browser: Any, size: str) -> None:
    context = phone(browser) if size == "phone" else browser.new_context(viewport=DESKTOP)
    found = {}
    for kind, page in pages_of_every_kind(server, context):
        problems = violations(page) + unreachable_by_tab(page)
        if problems:
            shot(page, f"axe-{size}-{kind.replace(' ', '-')}.png")
            found[kind] = problems
    context.close()
    assert found == {}
