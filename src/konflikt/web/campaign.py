"""A table whose characters come from a campaign's library, written back when the conflict ends.

The console's seats form takes the campaign as ``konflikt play --campaign NAME`` does: every participant whose id
names a character of that campaign (of the scenario's ruleset) plays as the library has it, and a scenario's
``library:NAME`` references are read from it. The conflict is saved with its cast (``Store.create(..., cast=)``),
so the store writes the characters back in the transaction of the conflict's last step (``Store.finish``), and an
undo past the end gives them back: the same store code as the terminal's, not a copy of it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from konflikt.core.scenario import Scenario, characters_from
from konflikt.errors import KonfliktError
from konflikt.store import library
from konflikt.store.db import Store
from konflikt.store.source import LibrarySource
from konflikt.web.i18n import Said, Text, _


class Refused(Said, KonfliktError):
    """A campaign the console cannot take, said in the console's language when the page shows it (the check runs
    in the store's thread)."""

    def __init__(self, text: Text) -> None:
        KonfliktError.__init__(self, "")
        self.text = text


@dataclass(frozen=True)
class FromCampaign:
    """A scenario loaded with a campaign's characters: which seat took whom, and the cast to save with it."""

    scenario: Scenario
    campaign: str
    taken: dict[str, str]
    """Seat id → the library character's name."""
    cast: library.Cast | None


class HeldSource(LibrarySource):
    """:class:`LibrarySource` reading the library through the server's own connection (in the store's thread).

    A second open of the file inside the server (``Store.open(readonly=True)``, as the terminal's source does)
    lost the server's write-ahead log: its recovery step, meant for a killed writer, took the live ``-wal`` for
    one, and the server's later commits reached no other reader."""

    def __init__(self, conn: sqlite3.Connection, campaign: str) -> None:
        super().__init__(None, campaign)
        self.conn = conn

    def _find(self, name: str) -> library.Character | None:
        return library.find(self.conn, self.campaign, name)


def campaign_names(store: Store) -> list[str]:
    """The campaigns of the save database's library (none when it has none)."""
    return [row[0] for row in library.campaigns(store.conn)]


def load_with(store: Store, campaign: str, load: Callable[[], Scenario]) -> FromCampaign:
    """``load()`` with the characters of ``campaign`` (call it in the store's thread); a campaign that gives no
    participant a character is refused (nothing would be written back, and the GM meant something else).

    Raises:
        KonfliktError: an unknown campaign, or one with no character for this scenario, in one line.
    """
    if campaign not in campaign_names(store):
        raise Refused(lambda: _("no campaign {name} in the library (see 'konflikt chars')", name=repr(campaign[:60])))
    source = HeldSource(store.conn, campaign)
    with characters_from(source):
        scenario = load()
    if not source.taken:
        ids = ", ".join(p.id for p in scenario.participants())
        ruleset = scenario.ruleset.id
        raise Refused(
            lambda: _(
                "campaign {name} has no {ruleset} character named as a seat of this scenario ({seats})",
                name=repr(campaign),
                ruleset=ruleset,
                seats=ids,
            )
        )
    return FromCampaign(scenario, campaign, dict(source.taken), source.cast(scenario))
