"""The shared engine (the ``common`` catalog) in each language: no catalog miss, no English word in sv/da/pl."""

from __future__ import annotations

from fractions import Fraction

import pytest

from konflikt.core.i18n import speaking
from konflikt.core.odds import percent_text


@pytest.mark.parametrize(
    ("language", "eighth", "tiny", "almost"),
    [
        ("both", "12.50%", "<0.01%", ">99.99%"),
        ("en", "12.50%", "<0.01%", ">99.99%"),
        ("sv", "12,50\u00a0%", "<0,01\u00a0%", ">99,99\u00a0%"),
        ("da", "12,50\u00a0%", "<0,01\u00a0%", ">99,99\u00a0%"),
        ("pl", "12,50\u00a0%", "<0,01\u00a0%", ">99,99\u00a0%"),
    ],
)
def test_a_chance_is_written_the_languages_way(language: str, eighth: str, tiny: str, almost: str) -> None:
    with speaking(language):
        assert percent_text(Fraction(1, 8)) == eighth
        assert percent_text(1e-6) == tiny
        assert percent_text(1 - 1e-6) == almost
        assert percent_text(Fraction(1)) == ("100.00%" if language in ("en", "both") else "100,00\u00a0%")
        assert percent_text(0) == ("0.00%" if language in ("en", "both") else "0,00\u00a0%")
