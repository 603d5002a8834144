"""The ``common`` catalog's ``_`` for the dice, without the dice importing the layer above them.

The dice (layer 1) may not import ``konflikt.core`` (layer 2), where the catalogs live; ``konflikt.core`` hands its
translator in as it loads (:func:`use`), so a message of the dice is looked up in the ``common`` catalog like any
other. Before that (the dice imported on their own) a message is its English msgid, its fields filled in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_translate: Callable[..., str] | None = None


def use(translate: Callable[..., str]) -> None:
    """Look the dice's messages up with ``translate`` (``konflikt.core.messages.CATALOG.gettext``)."""
    global _translate
    _translate = translate


def _(message: str, /, **fields: Any) -> str:
    """``message`` in the language in use, its ``{fields}`` filled in."""
    if _translate is not None:
        return _translate(message, **fields)
    return message.format(**fields) if fields else message


__all__ = ["_", "use"]
