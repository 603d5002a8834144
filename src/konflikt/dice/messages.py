"""The ``common`` catalog's functions for the dice (see ``konflikt.core.messages``), looked up at the call.

``konflikt.dice`` is imported by ``konflikt.core`` while it loads (the State API's stakes read dice), so importing
``konflikt.core.messages`` here at import time would be circular; each call finds it then instead.
"""

from __future__ import annotations

from typing import Any


def _(message: str, /, **fields: Any) -> str:
    """``message`` in the language in use (``konflikt.core.messages._``)."""
    from konflikt.core.messages import _ as gettext

    return gettext(message, **fields)


__all__ = ["_"]
