"""What the language tests look for in a text that should be Swedish, Danish or Polish: English words.

A catalog miss is caught by ``KONFLIKT_STRICT_CATALOG`` (it raises); this catches the rest: an English word inside a
translation, or words assembled outside the catalogs. The list holds common English words that are not also words
of the language checked (Danish ``side``, Swedish ``is``, Polish ``no`` are words there), so a hit is English.
"""

from __future__ import annotations

import re

_WORDS = """
    the and with of is are was were his her their this that which who whom whose wins win won roll rolls rolled
    round damage attack attacks attacker defence defense defends defender takes take taken from into by not has have
    had out chance chances turn each side goal winner nobody does would will than stays remains after before
    until because both only also every none left right hit hits miss misses wound wounds wounded dead dies death
    success failure effect choose chooses chosen choice declare declares secret reveal revealed player players
    seat seats step steps ends ended end conflict outcome heuristic human draw draws yes no
"""
ENGLISH_WORDS = frozenset(_WORDS.split())
"""Words that, in a Swedish, Danish or Polish text, can only be English."""

ALSO_NATIVE = {
    "da": frozenset({"side", "by", "hit", "under", "is", "her", "have", "end", "chance"}),
    "sv": frozenset({"is", "under", "hit", "by"}),
    "pl": frozenset({"no", "to", "on", "by"}),
}
"""Words of ``ENGLISH_WORDS`` that are also words of the language (``side`` is Danish for page and side)."""

WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
IDENTIFIER = re.compile(r"\w+_\w+|--[\w-]+")


def english_words(text: str, language: str, proper_names: frozenset[str] = frozenset()) -> list[str]:
    """The English words in ``text``, which should be in ``language`` (``sv``, ``da``, ``pl``); ``proper_names``
    (characters, scenario ids, file names) are not counted."""
    allowed = ALSO_NATIVE.get(language, frozenset()) | {name.lower() for name in proper_names}
    prose = IDENTIFIER.sub(" ", text)  # a field or option name (damage_taken, --lang) is typed as it is, not read
    return [word for word in WORD.findall(prose) if word.lower() in ENGLISH_WORDS and word.lower() not in allowed]


def with_title(scenario: str, title: str) -> str:
    """A scenario file's text with its title — a string or a ``[title]`` table of languages — replaced by ``title``
    (a TOML value, e.g. ``'"A duel"'``): the bundled scenarios' titles are tables, a test's hostile title a string."""
    without = re.sub(r"^title = .*\n", "", scenario, flags=re.M)
    without = re.sub(r"^\[title\]\n(?:\w+ = .*\n)+\n?", "", without, flags=re.M)
    return f"title = {title}\n" + without
