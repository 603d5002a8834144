"""Ids as people read them: a participant's or side's id in a displayed text replaced by its name.

The rulesets' displays (``State.status()``, declarations) hold ids, which are short and stable; every front end
shows names. One function does it for the terminal and the browser table alike, so both read the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from konflikt.core.scenario import Scenario


def scenario_names(scenario: Scenario) -> dict[str, str]:
    """Participant and side ids → the names people read (a status cell holding an id shows the name)."""
    names = {side.id: side.name for side in scenario.sides}
    names.update({p.id: p.name for p in scenario.participants()})
    return names


def named(text: str, names: Mapping[str, str]) -> str:
    """``text`` with each word that is a participant or side id replaced by its name (``attack massimo`` →
    ``attack Massimo``); other words stay as they are, and so does a name the text already holds (a side named
    "Zoraks pirater" with the id ``pirater`` is not named twice)."""
    if text in names:
        return names[text]
    if not names:
        return text
    held = sorted({name for name in names.values() if name and name in text}, key=len, reverse=True)
    if not held:
        return _ids_named(text, names)
    parts = re.split("(" + "|".join(rf"(?<!\w){re.escape(name)}(?!\w)" for name in held) + ")", text)
    return "".join(part if i % 2 else _ids_named(part, names) for i, part in enumerate(parts))


def _ids_named(text: str, names: Mapping[str, str]) -> str:
    return " ".join(names.get(word, word) for word in text.split(" "))
