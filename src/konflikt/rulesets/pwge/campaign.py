"""Between conflicts in a campaign (``Ruleset.campaign``): distances kept, physical damage kept, the sheet.

The aftermath (``persist.py``) already writes what the text carries: "Sociala och diplomatiska avstånd kvarstår
mellan varje konflikt" (each pair's distance, in both characters, by the other's name), the experience dice not
spent ("Erfarenhetstärningar som inte har spenderats"), and the physical kroppspoäng lost (``damage_taken``). Only
the diplomatic and social kroppspoäng "återställs för det mesta helt mellan varje konflikt": a campaign never stores
them spent. The physical ones are "de som man blir av med genom att få fysiskt stryk", and the text gives them no
healing: that is Parallel Worlds' rule. Rest heals them only by konflikt's own stand-in, ``healing_per_day`` points a
day (0 by default: the GM heals by editing ``damage_taken``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from konflikt.core.campaign import CampaignRules, Carried, Rest

MINUTES_PER_DAY = 24 * 60


def days_of(time: Rest) -> int:
    """Whole days of a rest (rounds, minutes and hours short of a day heal nothing)."""
    minutes = time.minutes()
    return 0 if minutes is None else minutes // MINUTES_PER_DAY


def rest_between(
    document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], time: Rest, options: Mapping[str, Any]
) -> Carried:
    """``healing_per_day`` physical kroppspoäng a whole day of rest, down to no damage (konflikt's own stand-in for
    Parallel Worlds' healing); the rest of the sheet unchanged."""
    taken = int(document.get("damage_taken", 0))
    per_day = int(options["healing_per_day"])
    healed = min(taken, per_day * days_of(time))
    doc = dict(document)
    body = int(document.get("body_points", 10))
    if healed:
        doc["damage_taken"] = taken - healed
        line = (
            f"kroppspoäng (body points) {body - taken} → {body - taken + healed} of {body} after {time} of rest "
            f"({per_day} a day: healing_per_day, konflikt's own stand-in for Parallel Worlds' healing)"
        )
    elif taken:
        why = "healing_per_day is 0" if not per_day else "not a whole day"
        line = (
            f"kroppspoäng (body points) {body - taken} of {body} stay ({why}: Parallel Worlds' healing is not in the "
            "text; the GM heals by editing damage_taken)"
        )
    else:
        line = f"kroppspoäng (body points) {body} of {body}: nothing to heal"
    return Carried(doc, tuple(dict(p) for p in pending), (line,))


def sheet(document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]) -> list[str]:
    """The character's sheet in PWGE's words."""
    attributes = ", ".join(f"{name} {value}" for name, value in dict(document.get("attributes", {})).items())
    skills = ", ".join(f"{name} {value}" for name, value in dict(document.get("skills", {})).items())
    body = int(document.get("body_points", 10))
    taken = int(document.get("damage_taken", 0))
    lost = f", {taken} lost (kept until healed): {body - taken} left" if taken else ""
    lines = [
        *([f"identitet (identity): {document['identity']}"] if document.get("identity") else []),
        f"egenskaper (attributes): {attributes}",
        f"färdigheter (skills): {skills or 'inga (none)'}",
        f"närstridsvapen (melee weapon) {document.get('melee_weapon', 'obevapnad')}; avståndsvapen (ranged weapon) "
        f"{document.get('ranged_weapon') or 'inget (none)'}; rustning (armour) {document.get('armour', 0)}",
        f"kroppspoäng (body points) {body}{lost}; the diplomatic and social ones as many, återställs (restored) "
        "between conflicts",
        f"ammunition (social/diplomatic) {document.get('ammunition', 0)}; erfarenhetstärningar (experience dice) "
        f"{document.get('experience_dice', 0)}",
    ]
    for field, word in (("diplomatic_distance", "diplomatiskt avstånd"), ("social_distance", "socialt avstånd")):
        for other, distance in sorted(dict(document.get(field, {})).items()):
            lines.append(f"{word} ({field.replace('_', ' ')}) till {other}: {distance} of 0–10, kvarstår (kept)")
    return lines


CAMPAIGN = CampaignRules(rest_unit="days", sheet=sheet, rest=rest_between)
