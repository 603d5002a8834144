"""Fimbulfrost's borrowed time between conflicts, at the command line: ``konflikt chars`` and ``konflikt campaign``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.campaign.helpers import character_file, documents
from tests.conftest import Result


def test_laant_tid_stays_owed_through_any_rest_dodsscene_senere(cli: Callable[..., Result], tmp_path: Path) -> None:
    """ "(til overvejelse) leve på lånt tid – helten erhverver sig ekstra terninger mod at leve på lånt tid.
    Spilleder kan sætte en dødsscene for helten senere": Budolf owing one point of borrowed time still owes it
    after ``konflikt campaign rest --days 100`` (the text sets no time for it: the death scene is the game master's
    to set), and ``konflikt chars show`` tells the game master so."""
    db = tmp_path / "c.sqlite"
    added = cli(
        "chars", "add", str(character_file("fimbulfrost", "budolf")), "--ruleset", "fimbulfrost", "--db", str(db)
    )
    assert added.code == 0, added.err
    assert cli("chars", "edit", "budolf", "--set", "laant_tid=1", "--db", str(db)).code == 0
    for days in ("1", "100"):
        rested = cli("campaign", "rest", "--days", days, "--db", str(db))
        assert rested.code == 0, rested.err
        assert documents(db)["budolf"]["laant_tid"] == 1, days
    shown = cli("chars", "show", "budolf", "--db", str(db))
    assert shown.code == 0, shown.err
    assert "lånt tid (borrowed time) 1" in shown.out and "dødsscene" in shown.out, shown.out
