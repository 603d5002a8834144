"""The ``common`` catalog's ``_`` for the dice, without the dice importing the layer above them.

The dice (layer 1) may not import ``konflikt.core`` (layer 2), where the catalogs live; ``konflikt.core`` hands its
translator in as it loads (:func:`use`), so a message of the dice is looked up in the ``common`` catalog like any
other. Before that (the dice imported on their own) a message is its English msgid, its fields filled in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_translate: Callable[..., str] | None = None
_translate_plural: Callable[..., str] | None = None


def use(translate: Callable[..., str], plural: Callable[..., str] | None = None) -> None:
    """Look the dice's messages up with ``translate`` and ``plural`` (``konflikt.core.messages.CATALOG.gettext``
    and ``.ngettext``)."""
    global _translate, _translate_plural
    _translate, _translate_plural = translate, plural


def _(message: str, /, **fields: Any) -> str:
    """``message`` in the language in use, its ``{fields}`` filled in."""
    if _translate is not None:
        return _translate(message, **fields)
    return message.format(**fields) if fields else message


def ngettext(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """The form of ``singular``/``plural`` the language in use gives ``n`` (``{n}`` is filled in)."""
    if _translate_plural is not None:
        return _translate_plural(singular, plural, n, **fields)
    return (singular if n == 1 else plural).format(n=n, **fields)


__all__ = ["_", "ngettext", "use"]
