"""The ``fimbulfrost`` catalog's functions (see ``konflikt.core.i18n``): messages in English, printed in the
language in use, and the words of the consequence lists and the maneuvers, which come from the content files.

A consequence (``content/consequences.toml``) carries its words per language beside its id: ``da`` (the text's),
``en``, and ``sv`` and ``pl`` (a user's own list may give only ``da`` and ``en``: Swedish and Polish then read the
English). The bilingual register shows the Danish with the English beside it, as before.
"""

from __future__ import annotations

from typing import Protocol

from konflikt.core.i18n import BILINGUAL, N_, Catalog, current

CATALOG = Catalog("fimbulfrost", "konflikt.rulesets.fimbulfrost")
_ = CATALOG.gettext
ngettext = CATALOG.ngettext
pgettext = CATALOG.pgettext


class Worded(Protocol):
    """A consequence list entry (or a list): its words in Danish and English, and optionally Swedish and Polish."""

    da: str
    en: str
    sv: str | None
    pl: str | None


def entry_name(entry: Worded) -> str:
    """A consequence's words in the language in use (``Skrammer og blå mærker (scratches and bruises)`` in the
    bilingual register)."""
    language = current()
    if language == BILINGUAL:
        return f"{entry.da} ({entry.en})"
    if language == "da":
        return entry.da
    if language == "sv":
        return entry.sv or entry.en
    if language == "pl":
        return entry.pl or entry.en
    return entry.en


def entry_short(entry: Worded) -> str:
    """A consequence's words where the bilingual register shows the Danish alone (a campaign's notes)."""
    return entry.da if current() == BILINGUAL else entry_name(entry)


def quoted(entry: Worded) -> str:
    """A consequence named in a sentence, quoted the language's way (``'Dybt sår' (deep wound)`` in the bilingual
    register)."""
    if current() == BILINGUAL:
        return f"'{entry.da}' ({entry.en})"
    return pgettext("quoted consequence", "'{entry}'", entry=entry_name(entry))


__all__ = ["CATALOG", "N_", "_", "entry_name", "entry_short", "ngettext", "pgettext", "quoted"]
