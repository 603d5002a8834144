"""The ``web`` catalog's functions (see ``konflikt.core.i18n``): messages in English, printed in the
language in use.

Each seat of a browser table reads its own language (chosen on its page, remembered with the table's seat in
:class:`konflikt.web.links.Links`): every request and socket frame of a seat is built inside
``konflikt.core.i18n.speaking(language)``. A refusal raised where the reader's language is not known yet (the
table's engine thread) is a :class:`Said`: its words are looked up when it is read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup, escape

from konflikt.core.i18n import BILINGUAL, LANGUAGES, N_, Catalog

CATALOG = Catalog("web", "konflikt.web")
_ = CATALOG.gettext
ngettext = CATALOG.ngettext
pgettext = CATALOG.pgettext

MENU = (*LANGUAGES, BILINGUAL)
"""The languages a seat's menu offers, in this order."""

Text = str | Callable[[], str]
"""Words to show: a string, or a function that says them in the language in use when they are read."""


def said(text: Text) -> str:
    """``text`` in the language in use now."""
    return text() if callable(text) else text


class Said:
    """A mixin for an exception whose message is looked up when it is read (``str(exc)``), in the reader's language:
    raised in the table's thread, read in the request of the seat that sent the input."""

    text: Text

    def _said_init(self, text: Text) -> None:
        self.text = text

    def __str__(self) -> str:
        return said(self.text)


def language_names() -> list[tuple[str, str]]:
    """The menu's entries: each language's code and its name in its own words (``both``, the bilingual register:
    English sentences with each text's terms glossed, named in the language in use). Short: the menu fits a phone's
    top bar."""
    own = {"en": "English", "sv": "svenska", "da": "dansk", "pl": "polski"}
    return [(code, own[code] if code in own else _("bilingual")) for code in MENU]


def _escaped(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: v if isinstance(v, int | float) else escape(v) for k, v in fields.items()}


def markup_gettext(message: str, /, **fields: Any) -> Markup:
    """``_`` for the templates: the translation is the page's own HTML (ours, from the catalog), the fields are
    escaped before they are filled in, so a name never becomes markup."""
    return Markup(_(message, **_escaped(fields)))


def markup_ngettext(singular: str, plural: str, n: int, /, **fields: Any) -> Markup:
    return Markup(ngettext(singular, plural, n, **_escaped(fields)))


def markup_pgettext(context: str, message: str, /, **fields: Any) -> Markup:
    return Markup(pgettext(context, message, **_escaped(fields)))


__all__ = [
    "CATALOG",
    "MENU",
    "N_",
    "Said",
    "_",
    "language_names",
    "markup_gettext",
    "markup_ngettext",
    "markup_pgettext",
    "ngettext",
    "pgettext",
    "said",
]
