"""Whole numbers with their thousands grouped the language's way: ``1,000,000`` in English (and ``both``), ``1 000 000``
in Swedish and Polish, ``1.000.000`` in Danish (Babel's locales). Counts of states, conflicts and bytes in messages.

(A candidate for ``konflikt.core.i18n`` beside ``number`` and ``percent``.)
"""

from __future__ import annotations

from konflikt.core.i18n import BABEL_LOCALES, BILINGUAL, current


def grouped(value: int) -> str:
    """``value`` with its thousands grouped as the language in use writes them."""
    language = current()
    if language in ("en", BILINGUAL):
        return f"{value:,}"
    from babel.numbers import format_decimal

    return str(format_decimal(value, locale=BABEL_LOCALES[language]))


__all__ = ["grouped"]
