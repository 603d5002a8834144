"""Between conflicts in a campaign (``Ruleset.campaign``): the text's recovery by rest, and the sheet.

"Po zakończeniu starcia, konfliktu - zakładając, że postacie mają kilka minut na odpoczynek, wszystkie zakreślone
pola, zostają wyczyszczone. Dodatkowo, łagodne konsekwencje również zostają wyczyszczone po 5-10 minut
odpoczynku. Pozostają tylko umiarkowane i poważne konsekwencje." Recovery needs rest: a fight leaves its marked
boxes and mild consequences on the sheet (:mod:`.aftermath`), ``konflikt campaign rest --minutes N`` clears the
boxes after ``rest_clears_boxes`` minutes (5) and the mild consequences after ``rest_clears_mild`` (10, within the
text's 5-10). Rests add up until everything they can clear is cleared (a delayed effect, ``rest``, counts the
minutes), and the next fight breaks the rest. Moderate and severe consequences pass "po zaistnieniu pewnych
okoliczności (odpoczynek, leczenie, magiczna interwencja)" with no time given: no rest clears them, and the game
master clears a healed one (``konflikt chars edit NAME --set consequences.moderate=``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from konflikt.core.campaign import CampaignRules, Carried, Rest
from konflikt.core.i18n import localized
from konflikt.rulesets.presja.i18n import _, ngettext
from konflikt.rulesets.presja.models import UNNAMED_SKILL, consequence_text
from konflikt.rulesets.presja.texts import signed
from konflikt.rulesets.presja.track import slot_name

REST = "rest"
"""The delayed effect that counts the minutes of rest since the last fight, while boxes or a mild consequence wait."""


def _rested(pending: Sequence[Mapping[str, Any]]) -> int:
    """Minutes of rest so far since the last fight."""
    return sum(int(p.get("minutes", 0)) for p in pending if p.get("effect") == REST)


def _others(pending: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [dict(p) for p in pending if p.get("effect") != REST]


def _held(consequences: Mapping[str, Any], slot: str) -> str:
    """``łagodna (mild) 'Zmęczony (tired)'``: a consequence held, in the language in use."""
    return _(
        "{slot} consequence '{consequence}'", slot=slot_name(slot), consequence=consequence_text(consequences[slot])
    )


def settle(before: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], after: Mapping[str, Any]) -> Carried:
    """The character as the fight left it (the aftermath's document): a rest begun before the fight is broken."""
    broken = _rested(pending)
    lines = (
        (
            ngettext(
                "the fight broke the rest ({n} minute so far): rest starts again",
                "the fight broke the rest ({n} minutes so far): rest starts again",
                broken,
            ),
        )
        if broken
        else ()
    )
    return Carried(dict(after), tuple(_others(pending)), lines)


def rest_between(
    document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], time: Rest, options: Mapping[str, Any]
) -> Carried:
    """Minutes of rest clear the marked boxes, then the mild consequence; the rest waits for healing."""
    after = dict(document)
    consequences = dict(after.get("consequences", {}) or {})
    boxes = list(after.get("marked_boxes", []) or [])
    minutes = time.minutes()
    lines: list[str] = []
    waiting = bool(boxes) or bool(consequences.get("mild"))
    rested = _rested(pending) + (minutes or 0) if waiting else 0
    boxes_rest, mild_rest = int(options["rest_clears_boxes"]), int(options["rest_clears_mild"])
    if boxes and rested >= boxes_rest:
        after.pop("marked_boxes", None)
        lines.append(
            ngettext(
                "marked boxes cleared ({boxes}) after {n} minute of rest (a few minutes: {needed})",
                "marked boxes cleared ({boxes}) after {n} minutes of rest (a few minutes: {needed})",
                rested,
                boxes=", ".join(boxes),
                needed=boxes_rest,
            )
        )
        boxes = []
    if consequences.get("mild") and rested >= mild_rest:
        lines.append(
            ngettext(
                "{consequence} cleared after {n} minute of rest (5-10 minutes: {needed})",
                "{consequence} cleared after {n} minutes of rest (5-10 minutes: {needed})",
                rested,
                consequence=_held(consequences, "mild"),
                needed=mild_rest,
            )
        )
        consequences.pop("mild")
        after["consequences"] = consequences
        if not any(consequences.values()):
            after.pop("consequences")
    wait = [_("the marked boxes clear at {minutes}", minutes=boxes_rest)] if boxes else []
    wait += [_("the mild consequence at {minutes}", minutes=mild_rest)] if consequences.get("mild") else []
    kept = _others(pending) + ([{"effect": REST, "minutes": rested}] if wait else [])
    if wait:
        lines.append(
            ngettext(
                "{n} minute of rest so far: {waiting}",
                "{n} minutes of rest so far: {waiting}",
                rested,
                waiting=_("{first} and {second}", first=wait[0], second=wait[1]) if len(wait) > 1 else wait[0],
            )
        )
    healing = [_held(consequences, slot) for slot in ("moderate", "severe") if consequences.get(slot)]
    if healing:
        lines.append(_("{consequences} remains: healing is the GM's call", consequences="; ".join(healing)))
    return Carried(after, tuple(kept), tuple(lines))


def _name(thing: object) -> str:
    """A weapon's or armour's id, or the name of one given inline (in the language in use)."""
    if isinstance(thing, Mapping):
        name = thing.get("name", "")
        return localized(name) if isinstance(name, (str, Mapping)) else str(name)
    return str(thing)


def sheet(document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]) -> list[str]:
    """The character's sheet in the language in use."""
    weapon, armour = _name(document.get("weapon", "piesci")), _name(document.get("armour", "brak"))
    skill = document.get("skill")
    boxes = list(document.get("marked_boxes", []) or [])
    lines = [
        _(
            "{skill} {level}; Senses {senses}; Body {body}",
            skill=localized(document.get("skill_name", UNNAMED_SKILL)),
            level="—" if skill is None else signed(skill),
            senses=document.get("zmysly", 0),
            body=document.get("cialo", 0),
        ),
        _("weapon {weapon}; armour {armour}", weapon=weapon, armour=armour),
        _("fate points {fate_points}", fate_points=document.get("fate_points", 3)),
        _("Pressure track: marked boxes {boxes}", boxes=", ".join(boxes))
        if boxes
        else _("Pressure track: every box clear"),
    ]
    if document.get("aspects"):
        lines.append(_("aspects: {aspects}", aspects="; ".join(localized(a) for a in document["aspects"])))
    consequences = dict(document.get("consequences", {}) or {})
    held = [_held(consequences, slot) for slot in ("mild", "moderate", "severe") if consequences.get(slot)]
    lines.append(_("consequences: {consequences}", consequences="; ".join(held)) if held else _("consequences: none"))
    rested = _rested(pending)
    if rested:
        lines.append(ngettext("rest so far: {n} minute", "rest so far: {n} minutes", rested))
    return lines


CAMPAIGN = CampaignRules(rest_unit="minutes", sheet=sheet, settle=settle, rest=rest_between)
