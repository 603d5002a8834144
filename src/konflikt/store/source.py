"""Scenario characters from a campaign's library: the ``CharacterSource`` the command line hands to scenario loading.

``character = "lib:budolf"`` takes Budolf from the campaign (``--campaign NAME``, else the default one); with an
explicit ``--campaign`` every participant whose id names a character of the campaign (of the same ruleset) is
taken from it too, so a bundled scenario plays with the campaign's Budolf and Rudolf. The source remembers whom it
handed out: :meth:`LibrarySource.cast` is the conflict's link to its campaign, or ``None`` when nothing came from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from konflikt.core.messages import N_, _
from konflikt.core.ruleset import Ruleset
from konflikt.core.scenario import LIBRARY_PREFIX, Scenario
from konflikt.errors import KonfliktError
from konflikt.store import library
from konflikt.store.db import NoDatabase, Store


class LibrarySource:
    """A campaign's characters for one scenario load (the library is only read here)."""

    def __init__(self, db: Path | None, campaign: str | None) -> None:
        self.db = db
        self.explicit = campaign is not None
        self.campaign = library.check_name(campaign, N_("a campaign name")) if campaign else library.DEFAULT_CAMPAIGN
        self.taken: dict[str, str] = {}

    def _find(self, name: str) -> library.Character | None:
        try:
            store = Store.open(self.db, readonly=True)
        except NoDatabase:
            return None
        try:
            return library.find(store.conn, self.campaign, name)
        finally:
            store.close()

    def __call__(self, ref: str | None, pid: str, ruleset: Ruleset) -> Mapping[str, Any] | None:
        if ref is not None and ref.startswith(LIBRARY_PREFIX):
            name = ref.removeprefix(LIBRARY_PREFIX)
            library.check_name(name)
            found = self._find(name)
            if found is None:
                raise KonfliktError(
                    _(
                        "no character {name} in campaign {campaign} (see 'konflikt chars --campaign {plain}')",
                        name=repr(name),
                        campaign=repr(self.campaign),
                        plain=self.campaign,
                    )
                )
        elif self.explicit:
            found = self._find(pid)
            if found is None or found.ruleset != ruleset.id:
                return None
        else:
            return None
        if found.ruleset != ruleset.id:
            raise KonfliktError(
                _(
                    "{name} is a {ruleset} character, not {wanted}",
                    name=found.name,
                    ruleset=found.ruleset,
                    wanted=ruleset.id,
                )
            )
        rules = ruleset.campaign
        fallen = rules.fallen(found.document) if rules is not None else None
        if fallen is not None:
            raise KonfliktError(
                _(
                    "{name} of campaign {campaign} fights no more: {why}",
                    name=found.name,
                    campaign=repr(self.campaign),
                    why=fallen,
                )
            )
        if found.name in self.taken.values():
            raise KonfliktError(
                _(
                    "{name} of campaign {campaign} takes part once in a conflict",
                    name=found.name,
                    campaign=repr(self.campaign),
                )
            )
        self.taken[pid] = found.name
        return found.document

    def cast(self, scenario: Scenario) -> library.Cast | None:
        """The conflict's link to the campaign: each library character and the fields it starts with."""
        if not self.taken and not self.explicit:
            return None
        members: dict[str, tuple[str, Mapping[str, Any]]] = {}
        for side in scenario.document["sides"]:
            for part in side["participants"]:
                if part["id"] in self.taken:
                    started = {k: v for k, v in part.items() if k not in library.SCENARIO_ONLY}
                    members[part["id"]] = (self.taken[part["id"]], started)
        return library.Cast(self.campaign, members)
