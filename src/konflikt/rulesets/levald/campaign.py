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
from konflikt.core.i18n import BILINGUAL, current, percent
from konflikt.rulesets.levald import words as W
from konflikt.rulesets.levald.i18n import _, pgettext
from konflikt.rulesets.levald.narration import wound_marks
from konflikt.rulesets.levald.rules import daze_penalty, rest

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
        fields = {"before": daze, "after": after, "rounds": rounds_of(time)}
        if floor_per_wound and after == sum(boxes) and after:
            line = _(
                "daze {before} → {after} after {rounds} rounds of rest, floor {floor} (one per wound)",
                floor=sum(boxes),
                **fields,
            )
        else:
            line = _("daze {before} → {after} after {rounds} rounds of rest", **fields)
    elif daze:
        line = _("daze {daze} stays (already at the floor of one point per wound)", daze=daze)
    else:
        line = _("daze 0 stays")
    ticked = wound_marks(boxes)
    lines = [line] + ([_("wounds {boxes} stay: healing time is not in the text", boxes=ticked)] if ticked else [])
    return Carried(doc, tuple(dict(p) for p in pending), tuple(lines))


def sheet(document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]) -> list[str]:
    """The fighter's sheet in Le våld's words."""
    kraft, sjal = int(document.get("kraft", 0)), int(document.get("själ", document.get("sjal", 0)))
    weapon = document.get("weapon")
    weapon_name = weapon.get("name") if isinstance(weapon, Mapping) else weapon
    skills = ", ".join(
        f"{W.skill(name)} {percent(value, 0)}" for name, value in dict(document.get("skills", {})).items()
    )
    if isinstance(weapon_name, str) and weapon_name in W.WEAPONS and current() != BILINGUAL:
        weapon_name = W.WEAPONS[weapon_name]
    daze = int(document.get("daze", 0))
    boxes = wound_boxes(document)
    return [
        _(
            "Strength {kraft}; Soul {sjal}; combat experience {stridsvana}",
            kraft=kraft,
            sjal=sjal,
            stridsvana=percent(int(document.get("stridsvana", 0)), 0),
        ),
        _(
            "wound thresholds: {light} {light_value}, {serious} {serious_value}, {critical} {critical_value}, "
            "{deadly} {deadly_value}",
            light=W.wound("Lätt"),
            light_value=kraft // 2,
            serious=W.wound("Allvarlig"),
            serious_value=kraft,
            critical=W.wound("Kritisk"),
            critical_value=kraft + sjal,
            deadly=W.wound("Dödlig"),
            deadly_value=kraft + sjal + 10,
        ),
        _("skills: {skills}; weapon: {weapon}", skills=skills, weapon=weapon_name),
        _("Gard {gard} (full at the next fight)", gard=document.get("gard", 0)),
        _(
            "daze {daze} ({penalty}), floor {floor} at rest",
            daze=daze,
            penalty=percent(daze_penalty(daze), 0),
            floor=min(daze, sum(boxes)),
        ),
        _("wound boxes: {boxes}", boxes=wound_marks(boxes) or pgettext("sheet", "none")),
    ]


CAMPAIGN = CampaignRules(rest_unit="rounds", sheet=sheet, rest=rest_between)
