"""Issue 40: at 80 columns nothing on ``konflikt play``'s screen is cut.

Each bundled duel is played whole in a real terminal (pexpect), every seat a person and every die typed as it fell.
The default view must hold every event in full (so every number the ``-v`` view shows for it: ``-v`` prints the
same events, each in full, and the whole table), in the order played, with no "…" anywhere and no line wider than
the terminal. The events are read back from the save, as ``-v`` would print them.
"""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from konflikt.core.scenario import load_scenario
from konflikt.store.db import Store
from tests.play.driver import CHOICE, END, NAME, ROLL, Session, menu, table_dice

COLUMNS = 80
DUELS = {
    "presja": "presja/knife_fight",
    "levald": "levald/duel",
    "fimbulfrost": "fimbulfrost/robbers",
    "pwge": "pwge/duel",
}
INPUTS = 300
"""More inputs than a duel takes when most answers are the recommended choice."""


def numbers(text: str) -> list[str]:
    """The numbers of an event's text as written (``-3``, ``+2``, ``12/12``, ``45%``, ``2-3``)."""
    return re.findall(r"[-+−]?\d+(?:[/.,:-]\d+)*%?", text)


def play_whole(tmp_path: Path, scenario: str, seed: int = 4) -> tuple[str, int, Path]:
    """Play ``scenario`` to its end at :data:`COLUMNS` columns; the screen, the conflict's id and its database."""
    session = Session(tmp_path / "screen.sqlite", columns=COLUMNS)
    seats = [f"--policy={p.id}=human" for p in load_scenario(scenario).participants()]
    child = session.spawn(scenario, "--dice", "table", "--seed", str(seed), *seats)
    screen = io.StringIO()
    child.logfile_read = screen
    rng = random.Random(f"{scenario}:{seed}")
    for _ in range(INPUTS):
        which = child.expect([CHOICE, ROLL, END, NAME, pexpect.EOF])
        if which == 2:
            child.expect(pexpect.EOF)
            break
        assert which != 4, f"konflikt play ended without an outcome:\n{screen.getvalue()[-3000:]}"
        if session.conflict_id is None:
            session.conflict_id = int(re.search(r"conflict (\d+), saved", screen.getvalue()).group(1))  # type: ignore[union-attr]
        if which == 3:
            child.sendline(rng.choice(["", "Rozcięty łuk brwiowy"]))
        elif which == 1:
            child.sendline(table_dice(child.match.group(1), rng))
        else:  # mostly the recommended choice (Enter), so the duel ends; now and then another one listed
            child.sendline("" if rng.random() < 0.75 else str(rng.choice(menu(child.before))))
    else:
        pytest.fail(f"no end after {INPUTS} inputs:\n{screen.getvalue()[-3000:]}")
    assert session.conflict_id is not None
    return screen.getvalue().replace("\r", ""), session.conflict_id, session.db


@pytest.mark.parametrize("ruleset", sorted(DUELS))
def test_a_whole_duel_at_80_columns_shows_every_event_in_full(tmp_path: Path, ruleset: str) -> None:
    screen, conflict_id, db = play_whole(tmp_path, DUELS[ruleset])
    assert "…" not in screen
    wide = [line for line in screen.splitlines() if len(line) > COLUMNS]
    assert not wide, wide[:3]
    store = Store.open(db)
    try:
        state = store.load(conflict_id).conflict.replay()
    finally:
        store.close()
    events = [e for e in state.history() if e.visible_to is None and e.step >= 0]
    assert len(events) > 10
    flat = re.sub(r"\s+", "", screen)  # wrapped or folded, the words and numbers are the same
    at = 0
    for event in events:
        text = re.sub(r"\s+", "", event.text)
        found = flat.find(text, at)
        assert found >= 0, f"not on the screen in full: {event.text!r}"
        for number in numbers(event.text):
            assert number in flat[found : found + len(text)]
        at = found + len(text)


NAMED = "Złamany nos od kufla"
MODERATE = re.compile(r"^\s+(\d+)\. przyjmij presję \(take the pressure\): konsekwencja umiarkowana", re.MULTILINE)


def konflikt(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "konflikt", *args], capture_output=True, text=True, check=True)
    return done.stdout


def test_a_consequence_named_at_the_table_reaches_the_log_the_save_and_the_campaign_library(tmp_path: Path) -> None:
    """Belzee, from a campaign's library, takes a moderate consequence at the table and says what it is: the name is
    in the narrated log, in the saved conflict, and in the library's sheet after the conflict (moderate ones stay)."""
    db = tmp_path / "campaign.sqlite"
    konflikt("chars", "add", "builtin:belzee", "--ruleset", "presja", "--campaign", "stol", "--db", str(db))
    session = Session(db, columns=COLUMNS)
    child = session.spawn("presja/knife_fight", "--campaign", "stol", "--seed", "1", "--policy", "belzee=human")
    screen = io.StringIO()
    child.logfile_read = screen
    named = False
    for _ in range(INPUTS):
        which = child.expect([CHOICE, END, NAME])
        if which == 1:
            child.expect(pexpect.EOF)
            break
        if which == 2:
            child.sendline(NAMED)
            named = True
            continue
        if not named and "przyjmuje presję" in child.before:
            moderate = MODERATE.search(child.before)
            if moderate is None:  # not among the first listed: 'more' lists the rest
                child.sendline("more")
                child.expect(CHOICE)
                moderate = MODERATE.search(child.before)
            assert moderate is not None, child.before
            child.sendline(moderate.group(1))
            continue
        child.sendline("")
    assert named, "Belzee never took a hit"
    text = " ".join(screen.getvalue().split())
    assert f"konsekwencja umiarkowana (moderate) '{NAMED}'" in text  # the narrated log
    conflict_id = re.search(r"conflict (\d+), saved", text).group(1)  # type: ignore[union-attr]
    assert NAMED in konflikt("export", conflict_id, "--db", str(db))  # the save
    sheet = konflikt("chars", "show", "belzee", "--campaign", "stol", "--db", str(db))
    assert NAMED in sheet  # the library
