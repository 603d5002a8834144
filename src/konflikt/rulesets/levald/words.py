"""Le våld's terms in the language in use: distances, weapons, skills, wound levels, success levels, reach, movement
and fates.

Every term keeps its identifier (the Swedish word of the text: ``Svärd``, ``Lätt``, the fate ``knocked_out``), which
files, saves and the rules use; what is shown comes from the ``levald`` catalog, looked up when it is printed. A term
has two forms where the bilingual register (``both``) wrote it two ways: *bare* (``Svärd``, as in a status table) and
*glossed* (``Svärd (sword)``, as in a sentence); in every other language the two are the same word.

The weapons of the text's table are named by the catalog (``pgettext("weapon", ...)``); a weapon a user's file adds
is shown by its own ``name`` (and ``english`` in English).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache

from konflikt.core.i18n import BILINGUAL, current, percent
from konflikt.rulesets.levald.i18n import _, pgettext

Words = Mapping[str, Callable[[], str]]


class Terms(Mapping[str, str]):
    """A table of terms whose words are looked up in the language in use each time one is read."""

    def __init__(self, words: Words) -> None:
        self._words = dict(words)

    def __getitem__(self, key: str) -> str:
        return self._words[key]()

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)


DISTANCE_BARE = Terms(
    {
        "Kropp": lambda: pgettext("distance", "Body"),
        "Sköld": lambda: pgettext("distance", "Shield"),
        "Dolk": lambda: pgettext("distance", "Dagger"),
        "Svärd": lambda: pgettext("distance", "Sword"),
        "Stång": lambda: pgettext("distance", "Pole"),
        "Spjut": lambda: pgettext("distance", "Spear"),
        "Klo": lambda: pgettext("distance", "Claw"),
        "Hugg": lambda: pgettext("distance", "Bite"),
        "Svans": lambda: pgettext("distance", "Tail"),
        "Fri": lambda: pgettext("distance", "Free"),
    }
)
DISTANCE_GLOSSED = Terms(
    {
        "Kropp": lambda: pgettext("distance, glossed", "Body"),
        "Sköld": lambda: pgettext("distance, glossed", "Shield"),
        "Dolk": lambda: pgettext("distance, glossed", "Dagger"),
        "Svärd": lambda: pgettext("distance, glossed", "Sword"),
        "Stång": lambda: pgettext("distance, glossed", "Pole"),
        "Spjut": lambda: pgettext("distance, glossed", "Spear"),
        "Klo": lambda: pgettext("distance, glossed", "Claw"),
        "Hugg": lambda: pgettext("distance, glossed", "Bite"),
        "Svans": lambda: pgettext("distance, glossed", "Tail"),
        "Fri": lambda: pgettext("distance, glossed", "Free"),
    }
)


def distance(name: str, glossed: bool = False) -> str:
    """A distance (or weapon length) in words: ``Svärd``, or ``Svärd (sword)`` glossed; a name the table lacks as
    it is."""
    table = DISTANCE_GLOSSED if glossed else DISTANCE_BARE
    return table.get(name, name)


WEAPONS = Terms(
    {
        "Spjut": lambda: pgettext("weapon", "Spear"),
        "Kortsvärd": lambda: pgettext("weapon", "Short sword"),
        "Svärd": lambda: pgettext("weapon", "Sword"),
        "Långsvärd": lambda: pgettext("weapon", "Long sword"),
        "Sköld": lambda: pgettext("weapon", "Shield"),
        "Trästav": lambda: pgettext("weapon", "Quarterstaff"),
    }
)
"""The weapons of the text's table (content/weapons.toml), by their ``name``; ``both`` writes ``Svärd (sword)``."""


def weapon(name: str, english: str, bundled: bool) -> str:
    """A weapon's name in the language in use: the catalog's for the text's table, else the file's own name (and its
    ``english`` in English, both of them in the bilingual register)."""
    if bundled and name in WEAPONS:
        return WEAPONS[name]
    language = current()
    if language == BILINGUAL:
        return f"{name} ({english})" if english else name
    if language == "en" and english:
        return english
    return name


SKILL_BARE = Terms(
    {
        "Stridsvana": lambda: pgettext("skill", "Combat experience"),
        "Enhandsvapen": lambda: pgettext("skill", "One-handed weapons"),
        "Enhandsvapen plus sköld": lambda: pgettext("skill", "One-handed weapon and shield"),
        "Stångvapen": lambda: pgettext("skill", "Pole weapons"),
    }
)
SKILL_GLOSSED = Terms(
    {
        "Stridsvana": lambda: pgettext("skill, glossed", "Combat experience"),
        "Enhandsvapen": lambda: pgettext("skill, glossed", "One-handed weapons"),
        "Enhandsvapen plus sköld": lambda: pgettext("skill, glossed", "One-handed weapon and shield"),
        "Stångvapen": lambda: pgettext("skill, glossed", "Pole weapons"),
    }
)


def skill(name: str, glossed: bool = False) -> str:
    """A skill in words (``Stångvapen``, glossed ``Stångvapen (pole weapons)``); a skill a scenario adds as named."""
    table = SKILL_GLOSSED if glossed else SKILL_BARE
    return table.get(name, name)


WOUND_BARE = Terms(
    {
        "Skråma": lambda: pgettext("wound", "Scratch"),
        "Lätt": lambda: pgettext("wound", "Light"),
        "Allvarlig": lambda: pgettext("wound", "Serious"),
        "Kritisk": lambda: pgettext("wound", "Critical"),
        "Dödlig": lambda: pgettext("wound", "Deadly"),
    }
)
WOUND_GLOSSED = Terms(
    {
        "Skråma": lambda: pgettext("wound, glossed", "Scratch"),
        "Lätt": lambda: pgettext("wound, glossed", "Light"),
        "Allvarlig": lambda: pgettext("wound, glossed", "Serious"),
        "Kritisk": lambda: pgettext("wound, glossed", "Critical"),
        "Dödlig": lambda: pgettext("wound, glossed", "Deadly"),
    }
)


def wound(name: str, glossed: bool = False) -> str:
    """A wound level (a box of the sheet) in words: ``Lätt``, glossed ``Lätt (light)``."""
    return (WOUND_GLOSSED if glossed else WOUND_BARE)[name]


LEVELS = (
    lambda: pgettext("level", "failure"),
    lambda: pgettext("level", "success"),
    lambda: pgettext("level", "exceptional success"),
)


def level(value: int) -> str:
    """A roll's success level (0 failure, 1 success, 2 exceptional): ``lyckat (success)`` in ``both``."""
    return LEVELS[value]()


REACH = Terms(
    {
        "too_far": lambda: pgettext("reach", "too far"),
        "optimal": lambda: pgettext("reach", "optimal"),
        "too_close": lambda: pgettext("reach", "too close"),
    }
)
"""Where the enemy stands against one's own weapon length (``rules.reach``)."""

MOVES = Terms(
    {
        "advance": lambda: pgettext("movement", "Advance"),
        "hold": lambda: pgettext("movement", "Hold"),
        "retreat": lambda: pgettext("movement", "Retreat"),
        "leave": lambda: pgettext("movement", "Leave the fight"),
    }
)
"""The secret movement choices (the arrow markers), by action kind."""
WISH_KINDS = {-1: "advance", 0: "hold", 1: "retreat"}
"""A change of distance as the movement choice that asks for it (``rules.WISH``)."""

FATES = Terms(
    {
        "fighting": lambda: pgettext("fate", "standing"),
        "knocked_out": lambda: pgettext("fate", "knocked out"),
        "dead": lambda: pgettext("fate", "dead"),
        "left": lambda: pgettext("fate", "left the fight"),
    }
)
"""A fighter's fate (``LevaldState.fate``) in words."""

ENDINGS = Terms(
    {
        "parted": lambda: pgettext("ending", "parted: out of reach"),
        "left": lambda: pgettext("ending", "left the fight"),
        "dead": lambda: pgettext("ending", "dead"),
        "taken_out": lambda: pgettext("ending", "taken out"),
        "fight_over": lambda: pgettext("ending", "the fight is over"),
        "deadlock": lambda: pgettext("ending", "deadlock"),
        "goal_reached": lambda: pgettext("ending", "goal reached"),
    }
)
"""A fight's ending (``ConflictOutcome.ending``) in words."""


def whole_percent(value: int) -> str:
    """A whole percentage written the language's way (``-20 %`` in Swedish): kept per language, as the status
    table writes the same few on every step."""
    return _whole_percent(value, current())


@cache
def _whole_percent(value: int, language: str) -> str:
    return percent(value, 0)


def daze(value: int | str) -> str:
    """``Omtöckning 12`` (a resource: the core's fate reading skips a piece with a number in it)."""
    return _("daze {daze}", daze=value)


__all__ = [
    "ENDINGS",
    "FATES",
    "MOVES",
    "REACH",
    "WISH_KINDS",
    "Terms",
    "daze",
    "distance",
    "level",
    "skill",
    "weapon",
    "whole_percent",
    "wound",
]
