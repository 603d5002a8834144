"""Each seat's language in Debian's Chromium (issue 46): the menu on a player's phone and on the GM's page is a plain
form (the page's script leaves it to the browser), the page loads again in the language chosen, the script's own
words (the connection line) come from the server in that language, a reload keeps it, and a second seat at the
same table keeps its own.

The server and the browser are ``test_browser``'s (``konflikt serve`` in its own process, ``/usr/bin/chromium``).
"""

from __future__ import annotations

from typing import Any

from tests.web import test_browser
from tests.web.test_browser import DESKTOP, Server, phone
from tests.web.test_browser_table import join_links, open_table

server = test_browser.server
browser = test_browser.browser
"""``konflikt serve`` and Chromium, shared with ``test_browser`` (pytest finds fixtures by their names here)."""


def choose_language(page: Any, language: str) -> None:
    page.select_option("form.language select[name=language]", language)
    page.click("form.language button")


def test_each_seat_chooses_its_language_on_its_own_page(server: Server, browser: Any) -> None:
    gm_context = browser.new_context(viewport=DESKTOP)
    gm = gm_context.new_page()
    open_table(gm, server, "levald/duel", seed=4)
    links = join_links(gm)
    hedda_link = next(url for label, url in links.items() if label.startswith("Hedda"))
    snurre_link = next(url for label, url in links.items() if label.startswith("Snurre"))

    choose_language(gm, "sv")
    gm.wait_for_selector("text=Spelledarens konsol")
    assert gm.evaluate("() => document.documentElement.lang") == "sv"

    context = phone(browser)
    hedda = context.new_page()
    hedda.goto(hedda_link)
    hedda.wait_for_selector("#connection:text('live')")
    choose_language(hedda, "pl")
    hedda.wait_for_selector("text=Grasz jako")
    hedda.wait_for_selector("#connection:text('połączono')")  # the script's words, from the server, in Polish
    assert hedda.locator("#choices h2").inner_text() == "Twój tajny wybór"
    hedda.reload()
    hedda.wait_for_selector("#connection:text('połączono')")
    assert hedda.evaluate("() => document.documentElement.lang") == "pl"

    snurre = context.new_page()
    snurre.goto(snurre_link)
    snurre.wait_for_selector("#connection:text('live')")  # the server's language: the bilingual register
    assert "You are" in snurre.locator("p.who").inner_text()

    # a choice on the Polish page reaches the Swedish GM's page, each in its own words
    hedda.locator("#choices button.choice").first.click()
    gm.wait_for_selector("li.has-chosen:has-text('har valt')")
    context.close()
    gm_context.close()
