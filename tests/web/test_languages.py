"""The browser table speaks each seat's language (issue 46): a GM reading Swedish, a player Polish, another English
(or Danish) at one table, each page, frame and refusal in its own; the log told again in the seat's language; the
choice remembered with the seat across a reload and a restarted server; and the bilingual register as before.

Every message of the ``web`` catalog is looked up under ``KONFLIKT_STRICT_CATALOG=web`` (a miss raises), and the
catalog's words a Swedish, Danish or Polish page showed hold no English word. The other domains' words (a ruleset's
narration, the dice) are their own tests' business: only the web catalog's are checked here.
"""

from __future__ import annotations

import random
import re
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from konflikt.core.i18n import current, speaking
from konflikt.core.state import GM
from konflikt.store.db import Store
from konflikt.web.i18n import CATALOG
from tests.languages import english_words
from tests.web.helpers import ADMIN, Socket, frame, new_table, post, serving, socket

DUEL = ("snurre", "hedda")
NAMES = frozenset({"Hedda", "Snurre", "hedda", "snurre", "konflikt", "levald"})
MARKERS = {
    "sv": ("Ditt hemliga val", "Vad som hänt"),
    "da": ("Dit hemmelige valg", "Hvad der er sket"),
    "pl": ("Twój tajny wybór", "Co się wydarzyło"),
    "en": ("Your secret choice", "What happened"),
}
"""Words of the web catalog each language's player page shows at the duel's first (secret) choice."""
GM_MARKERS = {"sv": "Spelledarens konsol", "da": "Spillederens konsol", "pl": "Konsola prowadzącego"}


@pytest.fixture
def heard(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every message of the web catalog looked up while the test runs: its language and the catalog's words (before
    the fields are filled in, so a name or a ruleset's text is not counted); a miss raises."""
    monkeypatch.setenv("KONFLIKT_STRICT_CATALOG", "web")
    found: list[tuple[str, str]] = []
    lookup = CATALOG._lookup

    def recorded(message: str, context: str | None) -> str:
        text = lookup(message, context)
        found.append((current(), text))
        return text

    monkeypatch.setattr(CATALOG, "_lookup", recorded)
    return found


def choose(client: Any, cid: int, token: str, language: str) -> None:
    """The seat's language menu, as the page posts it: the page comes back in the language chosen."""
    answer = client.post(f"/t/{cid}/{token}", data={"type": "language", "language": language}, follow_redirects=False)
    assert answer.status_code == 303, answer.text


def page_language(html: str) -> str:
    match = re.search(r'<html lang="(\w+)">', html)
    assert match is not None
    return match.group(1)


def whole_log(client: Any, cid: int, token: str) -> list[str]:
    """The log a seat's page can show, from its first entry: the last page, then "earlier" until the start."""
    data = frame(client, cid, token)
    texts = [e["text"] for e in data["events"]]
    first = data["first"]
    while first > 0:
        earlier = client.get(f"/api/t/{cid}/{token}/log", params={"before": first}).json()
        texts = [e["text"] for e in earlier["events"]] + texts
        first = earlier["first"]
    return texts


def play(client: Any, cid: int, tokens: dict[str, str], sockets: dict[str, Socket], seed: int) -> int:
    """Play the table to its end, each choice among the page's buttons, a roll on its roller's page (through the
    API: a socket takes 10 messages a second); the seats' sockets are read now and then. Returns the steps played."""
    rng = random.Random(seed)
    for turn in range(2000):
        if turn % 25 == 0:
            for sock in sockets.values():
                sock.sync()
        gm = frame(client, cid, tokens[GM])
        if gm["terminal"]:
            for sock in sockets.values():
                sock.sync()
            return int(gm["step"])
        moved = False
        for seat in DUEL:
            mine = frame(client, cid, tokens[seat])
            if mine["choices"]:
                offered = mine["choices"]
                # the first turns any choice but the last (leaving ends a duel at once), then any: a short duel
                pick = offered[rng.randrange(len(offered) - 1 if turn < 12 and len(offered) > 2 else len(offered))]
                code, _answer = post(
                    client, cid, tokens[seat], {"type": "act", "step": mine["step"], "choice": pick["index"]}
                )
                moved = moved or code == 200
            elif mine["my_roll"]:
                code, _answer = post(client, cid, tokens[seat], {"type": "roll", "step": mine["step"], "text": "auto"})
                moved = moved or code == 200
        if not moved and gm["pending_roll"]:  # dice typed at the table: the GM lets konflikt roll them
            code, _answer = post(client, cid, tokens[GM], {"type": "roll", "step": gm["step"]})
            moved = code == 200
        assert moved, gm["node"]
    raise AssertionError("the duel did not end")


def told_in(db: Path, cid: int, seat: str, language: str) -> list[str]:
    """The log ``seat`` sees, told by replaying the saved conflict in ``language`` (what its page must show)."""
    store = Store.open(db)
    try:
        conflict = store.load(cid).conflict
    finally:
        store.close()
    with speaking(language):
        state = conflict.replay()
        return [e.text for e in state.history() if e.visible(seat)]


def assert_no_english(heard: list[tuple[str, str]], language: str) -> None:
    said = [text for spoken, text in heard if spoken == language]
    assert said, f"no web message was looked up in {language}"
    # the placeholders ({step}) and the markup (<strong>) are the code's, not words of the text
    bare = {text: re.sub(r"\{\w+\}|<[^>]+>", " ", text) for text in said}
    found = {text: english_words(bare[text], language, NAMES) for text in said}
    assert not {text: words for text, words in found.items() if words}


@pytest.mark.parametrize(
    ("languages", "dice"),
    [({GM: "sv", "hedda": "pl", "snurre": "en"}, "auto"), ({GM: "pl", "hedda": "da", "snurre": "sv"}, "players")],
)
def test_each_seat_reads_the_table_in_its_own_language(
    tmp_path: Path, heard: list[tuple[str, str]], languages: dict[str, str], dice: str
) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, hub):
        assert hub.language == "both"  # the server's own (the tests' KONFLIKT_LANG)
        console = client.post(f"/console/{ADMIN}", data={"language": languages[GM]}, follow_redirects=False)
        assert console.status_code == 303
        assert GM_MARKERS[languages[GM]] in client.get(f"/console/{ADMIN}").text
        seats_form = client.get(f"/console/{ADMIN}/new", params={"scenario": "levald/duel"}).text
        assert page_language(seats_form) == languages[GM]
        cid, tokens = new_table(client, "levald/duel", DUEL, dice=dice, seed=11)
        for seat, language in languages.items():
            choose(client, cid, tokens[seat], language)
        pages = {seat: client.get(f"/t/{cid}/{tokens[seat]}").text for seat in languages}
        for seat, language in languages.items():
            assert page_language(pages[seat]) == language
            if seat != GM:
                assert all(words in pages[seat] for words in MARKERS[language]), seat
        assert GM_MARKERS[languages[GM]] in pages[GM]

        with ExitStack() as stack:
            sockets = {seat: stack.enter_context(socket(client, cid, tokens[seat])) for seat in languages}
            for sock in sockets.values():
                sock.sync()
            # a refusal in the language of the page that sent the input
            for seat in DUEL:
                sockets[seat].send({"type": "undo", "id": "not-the-gm"})
                (refused,) = [f for f in sockets[seat].sync() if f["type"] == "error"]
                with speaking(languages[seat]):
                    assert refused["message"] == CATALOG.gettext("only the GM may undo")
            steps = play(client, cid, tokens, sockets, seed=3)
            assert steps > 4
            for seat, sock in sockets.items():
                frames = [f for f in sock.frames if f["type"] == "frame"]
                assert frames and all(f["epoch"].endswith(f"_{languages[seat]}") for f in frames)
            for seat in DUEL:
                language = languages[seat]
                html = [f["html"] for f in sockets[seat].frames if f["type"] == "frame"]
                words = {"sv": "steg ", "da": "trin ", "pl": "krok ", "en": "step "}[language]
                assert all(words in h for h in html), (seat, language)

        # the log, told again in each seat's language, is the saved conflict replayed in it
        for seat, language in languages.items():
            assert whole_log(client, cid, tokens[seat]) == told_in(db, cid, seat, language)
        for language in {*languages.values()} - {"en"}:
            assert_no_english(heard, language)

        # the choice survives a reload
        for seat, language in languages.items():
            assert page_language(client.get(f"/t/{cid}/{tokens[seat]}").text) == language

    with serving(db) as (client, _hub):  # and a restarted server
        for seat, language in languages.items():
            assert page_language(client.get(f"/t/{cid}/{tokens[seat]}").text) == language
        assert page_language(client.get(f"/console/{ADMIN}").text) == languages[GM]


def test_a_language_the_table_does_not_speak_is_refused_in_one_line(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _hub):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        choose(client, cid, tokens["hedda"], "pl")
        refused = client.post(f"/api/t/{cid}/{tokens['hedda']}", json={"type": "language", "language": "klingon"})
        assert refused.status_code == 400
        assert refused.json()["error"].startswith("language przyjmuje en, sv, da, pl, both, nie 'klingon'")
        assert client.post(f"/console/{ADMIN}", data={"language": "xx"}).status_code == 400


def test_a_seat_that_changes_language_has_its_open_pages_load_again(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _hub):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        with socket(client, cid, tokens["hedda"]) as phone, socket(client, cid, tokens["hedda"]) as tablet:
            phone.sync()
            tablet.sync()
            phone.send({"type": "language", "language": "da", "id": "1"})
            assert {"type": "reload"} in tablet.sync()
            with socket(client, cid, tokens["hedda"]) as again:
                (first,) = [f for f in again.sync() if f["type"] == "frame"]
                assert "Dit hemmelige valg" in first["html"] and first["reset"]


def test_the_bilingual_register_reads_as_before(tmp_path: Path) -> None:
    """``both``, the server's language in the tests: the GM's label keeps the three texts' words, the advice panel
    its command's name, and the English sentences are the msgids themselves."""
    with serving(tmp_path / "k.sqlite") as (client, _hub):
        cid, tokens = new_table(client, "levald/duel", DUEL)
        gm = client.get(f"/t/{cid}/{tokens[GM]}").text
        assert "<li>the GM (prowadzący / spelledare / spilleder): heuristic</li>" in gm
        assert "<h2>Advice (advise)</h2>" in gm
        assert "Game master's console" in gm and page_language(gm) == "en"
