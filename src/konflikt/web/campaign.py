"""A table whose characters come from a campaign's library, written back when the conflict ends.

The console's seats form takes the campaign as ``konflikt play --campaign NAME`` does: every participant whose id
names a character of that campaign (of the scenario's ruleset) plays as the library has it, and a scenario's
``library:NAME`` references are read from it. The conflict is saved with its cast (``Store.create(..., cast=)``),
so the store writes the characters back in the transaction of the conflict's last step (``Store.finish``), and an
undo past the end gives them back: the same store code as the terminal's, not a copy of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from konflikt.core.scenario import Scenario, characters_from
from konflikt.errors import KonfliktError
from konflikt.store import library
from konflikt.store.db import NoDatabase, Store
from konflikt.store.source import LibrarySource


@dataclass(frozen=True)
class FromCampaign:
    """A scenario loaded with a campaign's characters: which seat took whom, and the cast to save with it."""

    scenario: Scenario
    campaign: str
    taken: dict[str, str]
    """Seat id → the library character's name."""
    cast: library.Cast | None


def campaign_names(db: Path) -> list[str]:
    """The campaigns of the save database's library (none when it has none)."""
    try:
        store = Store.open(db, readonly=True)
    except NoDatabase:
        return []
    try:
        return [name for name, _, _ in library.campaigns(store.conn)]
    finally:
        store.close()


def load_with(db: Path, campaign: str, load: Callable[[], Scenario]) -> FromCampaign:
    """``load()`` with the characters of ``campaign``; a campaign that gives no participant a character is refused
    (nothing would be written back, and the GM meant something else).

    Raises:
        KonfliktError: an unknown campaign, or one with no character for this scenario, in one line.
    """
    if campaign not in campaign_names(db):
        raise KonfliktError(f"no campaign {campaign[:60]!r} in the library (see 'konflikt chars')")
    source = LibrarySource(db, campaign)
    with characters_from(source):
        scenario = load()
    if not source.taken:
        ids = ", ".join(p.id for p in scenario.participants())
        raise KonfliktError(
            f"campaign {campaign!r} has no {scenario.ruleset.id} character named as a seat of this scenario ({ids})"
        )
    return FromCampaign(scenario, campaign, dict(source.taken), source.cast(scenario))
