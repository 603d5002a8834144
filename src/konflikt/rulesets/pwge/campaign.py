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
from konflikt.core.i18n import localized
from konflikt.rulesets.pwge.i18n import _, pgettext

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
        line = _(
            "body points {before} → {after} of {body} after {time} of rest ({per_day} a day: healing_per_day, "
            "konflikt's own stand-in for Parallel Worlds' healing)",
            before=body - taken,
            after=body - taken + healed,
            body=body,
            time=time,
            per_day=per_day,
        )
    elif taken:
        fields = {"left": body - taken, "body": body}
        if not per_day:
            line = _(
                "body points {left} of {body} stay (healing_per_day is 0: Parallel Worlds' healing is not in the "
                "text; the GM heals by editing damage_taken)",
                **fields,
            )
        else:
            line = _(
                "body points {left} of {body} stay (not a whole day: Parallel Worlds' healing is not in the text; "
                "the GM heals by editing damage_taken)",
                **fields,
            )
    else:
        line = _("body points {body} of {body}: nothing to heal", body=body)
    return Carried(doc, tuple(dict(p) for p in pending), (line,))


def sheet(document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]) -> list[str]:
    """The character's sheet in PWGE's words."""
    attributes = ", ".join(f"{name} {value}" for name, value in dict(document.get("attributes", {})).items())
    skills = ", ".join(f"{name} {value}" for name, value in dict(document.get("skills", {})).items())
    body = int(document.get("body_points", 10))
    taken = int(document.get("damage_taken", 0))
    lost = _(", {taken} lost (kept until healed): {left} left", taken=taken, left=body - taken) if taken else ""
    lines = [
        *([_("identity: {identity}", identity=localized(document["identity"]))] if document.get("identity") else []),
        _("attributes: {attributes}", attributes=attributes),
        _("skills: {skills}", skills=skills or pgettext("skills", "none")),
        _(
            "melee weapon {melee}; ranged weapon {ranged}; armour {armour}",
            melee=document.get("melee_weapon", "obevapnad"),
            ranged=document.get("ranged_weapon") or pgettext("weapon", "none"),
            armour=document.get("armour", 0),
        ),
        _(
            "body points {body}{lost}; the diplomatic and social ones as many, restored between conflicts",
            body=body,
            lost=lost,
        ),
        _(
            "ammunition (social/diplomatic) {ammunition}; experience dice {dice}",
            ammunition=document.get("ammunition", 0),
            dice=document.get("experience_dice", 0),
        ),
    ]
    for field in ("diplomatic_distance", "social_distance"):
        for other, distance in sorted(dict(document.get(field, {})).items()):
            if field == "diplomatic_distance":
                line = _("diplomatic distance to {other}: {distance} of 0–10, kept", other=other, distance=distance)
            else:
                line = _("social distance to {other}: {distance} of 0–10, kept", other=other, distance=distance)
            lines.append(line)
    return lines


CAMPAIGN = CampaignRules(rest_unit="days", sheet=sheet, rest=rest_between)
