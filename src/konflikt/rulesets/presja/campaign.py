"""Between conflicts in a campaign (``Ruleset.campaign``): what the text's recovery leaves, and the sheet.

The aftermath already applies the text's rest: "zakładając, że postacie mają kilka minut na odpoczynek, wszystkie
zakreślone pola, zostają wyczyszczone … łagodne konsekwencje również zostają wyczyszczone po 5-10 minut
odpoczynku. Pozostają tylko umiarkowane i poważne konsekwencje." Moderate and severe consequences pass "po zaistnieniu
pewnych okoliczności (odpoczynek, leczenie, magiczna interwencja)" with no time given: rest leaves them (a ``gap``),
and the game master clears a healed one (``konflikt chars edit NAME --set consequences.moderate=``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from konflikt.core.campaign import CampaignRules, Carried, Rest
from konflikt.rulesets.presja.track import SLOT_NAMES


def rest_between(
    document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], time: Rest, options: Mapping[str, Any]
) -> Carried:
    """Nothing more than the aftermath did: the remaining consequences wait for healing the text does not time."""
    consequences = dict(document.get("consequences", {}) or {})
    kept = [f"{SLOT_NAMES[slot]} '{consequences[slot]}'" for slot in ("moderate", "severe") if consequences.get(slot)]
    lines = [f"{'; '.join(kept)} pozostaje (remains): healing (leczenie) is the GM's"] if kept else []
    return Carried(dict(document), tuple(dict(p) for p in pending), tuple(lines))


def sheet(document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]) -> list[str]:
    """The character's sheet in the text's words."""
    weapon, armour = document.get("weapon", "piesci"), document.get("armour", "brak")
    weapon = weapon.get("name") if isinstance(weapon, Mapping) else weapon
    armour = armour.get("name") if isinstance(armour, Mapping) else armour
    skill = document.get("skill")
    lines = [
        f"{document.get('skill_name', 'Walka (fighting)')} {'—' if skill is None else f'{skill:+d}'}; "
        f"Zmysły (senses) {document.get('zmysly', 0)}; Ciało (body) {document.get('cialo', 0)}",
        f"broń (weapon) {weapon}; zbroja (armour) {armour}",
        f"Punkty Losu (fate points) {document.get('fate_points', 3)}",
        "Tor Presji (pressure track): wszystkie pola czyste (every box clear)",
    ]
    if document.get("aspects"):
        lines.append("aspekty (aspects): " + "; ".join(document["aspects"]))
    consequences = dict(document.get("consequences", {}) or {})
    held = [f"{SLOT_NAMES[slot]} '{consequences[slot]}'" for slot in ("mild", "moderate", "severe")
            if consequences.get(slot)]  # fmt: skip
    lines.append("konsekwencje (consequences): " + ("; ".join(held) if held else "brak (none)"))
    return lines


CAMPAIGN = CampaignRules(rest_unit="minutes", sheet=sheet, rest=rest_between)
