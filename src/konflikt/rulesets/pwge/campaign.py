"""Between conflicts in a campaign (``Ruleset.campaign``): distances kept, social body points back, the sheet.

The aftermath (``persist.py``) already writes what the text carries: "Sociala och diplomatiska avstånd kvarstår
mellan varje konflikt" (each pair's distance, in both characters, by the other's name) and the experience dice not
spent ("Erfarenhetstärningar som inte har spenderats"). The diplomatic and social kroppspoäng "återställs för det
mesta helt mellan varje konflikt": a campaign never stores them spent. Time has no other effect in the text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from konflikt.core.campaign import CampaignRules


def sheet(document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]) -> list[str]:
    """The character's sheet in PWGE's words."""
    attributes = ", ".join(f"{name} {value}" for name, value in dict(document.get("attributes", {})).items())
    skills = ", ".join(f"{name} {value}" for name, value in dict(document.get("skills", {})).items())
    lines = [
        *([f"identitet (identity): {document['identity']}"] if document.get("identity") else []),
        f"egenskaper (attributes): {attributes}",
        f"färdigheter (skills): {skills or 'inga (none)'}",
        f"närstridsvapen (melee weapon) {document.get('melee_weapon', 'obevapnad')}; avståndsvapen (ranged weapon) "
        f"{document.get('ranged_weapon') or 'inget (none)'}; rustning (armour) {document.get('armour', 0)}",
        f"kroppspoäng (body points) {document.get('body_points', 10)}; the diplomatic and social ones as many, "
        "återställs (restored) between conflicts",
        f"ammunition (social/diplomatic) {document.get('ammunition', 0)}; erfarenhetstärningar (experience dice) "
        f"{document.get('experience_dice', 0)}",
    ]
    for field, word in (("diplomatic_distance", "diplomatiskt avstånd"), ("social_distance", "socialt avstånd")):
        for other, distance in sorted(dict(document.get(field, {})).items()):
            lines.append(f"{word} ({field.replace('_', ' ')}) till {other}: {distance} of 0–10, kvarstår (kept)")
    return lines


CAMPAIGN = CampaignRules(rest_unit="days", sheet=sheet)
