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
from konflikt.rulesets.presja.track import SLOT_NAMES

REST = "rest"
"""The delayed effect that counts the minutes of rest since the last fight, while boxes or a mild consequence wait."""


def _rested(pending: Sequence[Mapping[str, Any]]) -> int:
    """Minutes of rest so far since the last fight."""
    return sum(int(p.get("minutes", 0)) for p in pending if p.get("effect") == REST)


def _others(pending: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [dict(p) for p in pending if p.get("effect") != REST]


def settle(before: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], after: Mapping[str, Any]) -> Carried:
    """The character as the fight left it (the aftermath's document): a rest begun before the fight is broken."""
    broken = _rested(pending)
    lines = (f"the fight broke the rest ({broken} minutes so far): rest starts again",) if broken else ()
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
            f"zakreślone pola wyczyszczone (marked boxes cleared: {', '.join(boxes)}) after {rested} minutes of rest "
            f"(kilka minut: {boxes_rest})"
        )
        boxes = []
    if consequences.get("mild") and rested >= mild_rest:
        lines.append(
            f"{SLOT_NAMES['mild']} '{consequences.pop('mild')}' wyczyszczona (cleared) after {rested} minutes of rest "
            f"(5-10 minut: {mild_rest})"
        )
        after["consequences"] = consequences
        if not any(consequences.values()):
            after.pop("consequences")
    wait = [f"the marked boxes clear at {boxes_rest}"] if boxes else []
    wait += [f"the mild consequence at {mild_rest}"] if consequences.get("mild") else []
    kept = _others(pending) + ([{"effect": REST, "minutes": rested}] if wait else [])
    if wait:
        lines.append(f"{rested} minutes of rest so far: {' and '.join(wait)}")
    healing = [
        f"{SLOT_NAMES[slot]} '{consequences[slot]}'" for slot in ("moderate", "severe") if consequences.get(slot)
    ]
    if healing:
        lines.append(f"{'; '.join(healing)} pozostaje (remains): healing (leczenie) is the GM's")
    return Carried(after, tuple(kept), tuple(lines))


def sheet(document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]) -> list[str]:
    """The character's sheet in the text's words."""
    weapon, armour = document.get("weapon", "piesci"), document.get("armour", "brak")
    weapon = weapon.get("name") if isinstance(weapon, Mapping) else weapon
    armour = armour.get("name") if isinstance(armour, Mapping) else armour
    skill = document.get("skill")
    boxes = list(document.get("marked_boxes", []) or [])
    lines = [
        f"{document.get('skill_name', 'Walka (fighting)')} {'—' if skill is None else f'{skill:+d}'}; "
        f"Zmysły (senses) {document.get('zmysly', 0)}; Ciało (body) {document.get('cialo', 0)}",
        f"broń (weapon) {weapon}; zbroja (armour) {armour}",
        f"Punkty Losu (fate points) {document.get('fate_points', 3)}",
        "Tor Presji (pressure track): "
        + (
            f"zakreślone pola (marked boxes) {', '.join(boxes)}" if boxes else "wszystkie pola czyste (every box clear)"
        ),
    ]
    if document.get("aspects"):
        lines.append("aspekty (aspects): " + "; ".join(document["aspects"]))
    consequences = dict(document.get("consequences", {}) or {})
    held = [f"{SLOT_NAMES[slot]} '{consequences[slot]}'" for slot in ("mild", "moderate", "severe")
            if consequences.get(slot)]  # fmt: skip
    lines.append("konsekwencje (consequences): " + ("; ".join(held) if held else "brak (none)"))
    rested = _rested(pending)
    if rested:
        lines.append(f"odpoczynek (rest) so far: {rested} minutes")
    return lines


CAMPAIGN = CampaignRules(rest_unit="minutes", sheet=sheet, settle=settle, rest=rest_between)
