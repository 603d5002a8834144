"""Between fights in a campaign (``Ruleset.campaign``): wounds stay, Omtöckning recovers with rest.

"Omtöckning återvinns i alla fall med ett poäng per runda då man vilar … förmodligen en poäng per skada inklusive
skråmor": rest is counted in rounds, one point a round, down to one point per ticked wound box. "Ja, åsså är det
läkningstid, förstås, men det tar jag sen": the text promises healing time and does not give it, so wound boxes
stay ticked whatever the rest (a ``gap``; the game master clears a healed box with ``konflikt chars edit``). A rest
given in minutes, hours or days is counted at ten rounds a minute (konflikt's own: the text gives no round length).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from konflikt.core.campaign import CampaignRules, Carried, Rest
from konflikt.rulesets.levald.rules import WOUNDS, daze_penalty, rest

ROUNDS_PER_MINUTE = 10
"""konflikt's own: a round of about six seconds (the text gives no length)."""
BOX_KEYS = ("skråma", "lätt", "allvarlig", "kritisk", "dödlig")
ALIASES = {"skråma": "skrama", "lätt": "latt", "dödlig": "dodlig"}


def wound_boxes(document: Mapping[str, Any]) -> list[int]:
    """The ticked boxes in the order of ``rules.WOUNDS``, whichever spelling the document uses."""
    wounds = document.get("wounds", {}) or {}
    return [int(wounds.get(key, wounds.get(ALIASES.get(key, key), 0))) for key in BOX_KEYS]


def rounds_of(time: Rest) -> int:
    minutes = time.minutes()
    return time.amount if minutes is None else minutes * ROUNDS_PER_MINUTE


def rest_between(
    document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], time: Rest, options: Mapping[str, Any]
) -> Carried:
    """Omtöckning −1 a round of rest, down to one point per wound (``rest_floor_per_wound``, the text's
    "förmodligen"; off: down to 0); wounds and everything else unchanged."""
    daze = int(document.get("daze", 0))
    boxes = wound_boxes(document)
    floor_per_wound = bool(options["rest_floor_per_wound"])
    after = rest(daze, sum(boxes), rounds_of(time), floor_per_wound)
    doc = dict(document)
    if after != daze:
        doc["daze"] = after
        floor = f", floor {sum(boxes)} (one per wound)" if floor_per_wound and after == sum(boxes) and after else ""
        line = f"Omtöckning {daze} → {after} after {rounds_of(time)} rounds of rest{floor}"
    elif daze:
        line = f"Omtöckning {daze} stays (already at the floor of one point per wound)"
    else:
        line = "Omtöckning 0 stays"
    ticked = " ".join(f"{name}×{n}" for name, n in zip(WOUNDS, boxes, strict=True) if n)
    lines = [line] + ([f"sår (wounds) {ticked} stay: läkningstid (healing time) is not in the text"] if ticked else [])
    return Carried(doc, tuple(dict(p) for p in pending), tuple(lines))


def sheet(document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]) -> list[str]:
    """The fighter's sheet in Le våld's words."""
    kraft, sjal = int(document.get("kraft", 0)), int(document.get("själ", document.get("sjal", 0)))
    weapon = document.get("weapon")
    weapon_name = weapon.get("name") if isinstance(weapon, Mapping) else weapon
    skills = ", ".join(f"{name} {value}%" for name, value in dict(document.get("skills", {})).items())
    daze = int(document.get("daze", 0))
    boxes = wound_boxes(document)
    ticked = " ".join(f"{name}×{n}" for name, n in zip(WOUNDS, boxes, strict=True) if n) or "inga (none)"
    return [
        f"Kraft (strength) {kraft}; Själ (soul) {sjal}; Stridsvana {document.get('stridsvana', 0)}%",
        f"skadetrösklar (wound thresholds): Lätt {kraft // 2}, Allvarlig {kraft}, Kritisk {kraft + sjal}, "
        f"Dödlig {kraft + sjal + 10}",
        f"färdigheter (skills): {skills}; vapen (weapon): {weapon_name}",
        f"Gard {document.get('gard', 0)} (full at the next fight)",
        f"Omtöckning (daze) {daze} ({daze_penalty(daze)}%), floor {min(daze, sum(boxes))} at rest",
        f"sår (wound boxes): {ticked}",
    ]


CAMPAIGN = CampaignRules(rest_unit="rounds", sheet=sheet, rest=rest_between)
