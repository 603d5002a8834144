"""Which language konflikt speaks (``--lang``, ``KONFLIKT_LANG``, the locale, the default) and how it writes numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from konflikt.core.i18n import DEFAULT, from_environment, language_of, number, percent, speaking


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({"KONFLIKT_LANG": "pl", "LANG": "sv_SE.UTF-8"}, "pl"),
        ({"KONFLIKT_LANG": "both", "LANG": "sv_SE.UTF-8"}, "both"),
        ({"LANG": "sv_SE.UTF-8"}, "sv"),
        ({"LANG": "da_DK.UTF-8", "LC_MESSAGES": "pl_PL.UTF-8"}, "pl"),
        ({"LC_ALL": "C", "LANG": "sv_SE.UTF-8"}, DEFAULT),
        ({"LANGUAGE": "fr:da", "LANG": "sv_SE.UTF-8"}, "da"),
        ({"LANG": "C.UTF-8"}, DEFAULT),
        ({"LANG": "fr_FR.UTF-8"}, DEFAULT),
        ({}, DEFAULT),
        ({"KONFLIKT_LANG": "klingon", "LANG": "en_GB.UTF-8"}, "en"),
    ],
)
def test_the_language_the_environment_chooses(environment: dict[str, str], expected: str) -> None:
    assert from_environment(environment) == expected


def test_language_names_are_read_loosely() -> None:
    assert language_of("SV") == "sv"
    assert language_of("pl-PL") == "pl"
    assert language_of("da_DK.UTF-8@euro") == "da"
    assert language_of("BOTH") == "both"
    assert language_of("C") is None


@pytest.mark.parametrize(
    ("language", "written"), [("en", "12.50%"), ("both", "12.50%"), ("sv", "12,50\u00a0%"), ("pl", "12,50\u00a0%")]
)
def test_percentages_in_the_languages_way(language: str, written: str) -> None:
    with speaking(language):
        assert percent(12.5) == written


def test_numbers_in_the_languages_way() -> None:
    with speaking("da"):
        assert number(Fraction(5, 2), 1) == "2,5"
        assert number(1234.5, 1) == "1234,5"
    with speaking("en"):
        assert number(Fraction(5, 2), 1) == "2.5"


def test_the_command_line_chooses_and_forgets(cli) -> None:  # type: ignore[no-untyped-def]
    import os

    before = os.environ.get("KONFLIKT_LANG")
    result = cli("--lang", "pl", "roll", "1d6", "--seed", "1")
    assert result.code == 0
    assert os.environ.get("KONFLIKT_LANG") == before
    refused = cli("--lang", "tlh", "roll", "1d6")
    assert refused.code == 2 and "--lang" in refused.err


def test_english_words_are_found_in_a_swedish_text_and_not_in_a_translated_one() -> None:
    from tests.languages import english_words

    assert english_words("Hedda attacks Snurre", "sv") == ["attacks"]
    assert english_words("Hedda anfaller Snurre", "sv") == []
    assert english_words("Hedda angriber fra venstre side", "da") == []
    assert english_words("to jest atak", "pl") == []
