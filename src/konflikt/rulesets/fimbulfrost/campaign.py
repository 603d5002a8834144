"""Between fights in a campaign (``Ruleset.campaign``): the consequences bought and their effects over time.

The aftermath (``carry.py``) puts on the sheet what the fight left: the consequences bought, −1 Omdømme, a pool
emptied or spent, borrowed time. Three of those effects run on after it, and live here as delayed effects:

- "Rygtet er plettet (−1 Omdømme til næste kamp)": the −1 holds for the hero's next fight only. The aftermath's
  document carries it itself (``omdomme_til_naeste_kamp``: the next fight counts it, that fight's aftermath drops
  it), so the campaign only says so; a library written before keeps its lowered Omdømme and an ``omdomme-back``
  effect, given back here as it was.
- "dødsmærket, så han svinder hen og dør en uges tid senere": a death mark kills seven days of rest later.
- Pool dice spent in runde 3 ("Ressourcer, hvor man spenderer ressourcer") come back after a day's rest; a pool a
  consequence emptied ("udstyr efterladt", "Rustningen er flænset") stays empty until the game master gives it back
  (``konflikt chars edit``). The text says neither: konflikt's own (conformance ``campaign-pools-refill``).

Borrowed time (lånt tid) stays owed: "Spilleder kan sætte en dødsscene for helten senere" — when is the GM's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from konflikt.core.campaign import CampaignRules, Carried, Rest
from konflikt.core.i18n import localized
from konflikt.rulesets.fimbulfrost.carry import pool_word
from konflikt.rulesets.fimbulfrost.i18n import _, entry_short, ngettext
from konflikt.rulesets.fimbulfrost.models import Entry, load_catalogue
from konflikt.rulesets.fimbulfrost.rules import POOLS

DEATH_MARK_DAYS = 7
""""dør en uges tid senere": a week."""
REFILL_DAYS = 1
"""konflikt's own: a day's rest brings back the pool dice spent in runde 3."""
OMDOMME, DEATH, REFILL = "omdomme-back", "death-mark", "refill"


def _entry(entry_id: str) -> Entry | None:
    try:
        return load_catalogue().entry(entry_id)
    except KeyError:  # a user's own list: no mechanical effect known here
        return None


def _why(why: object) -> str:
    """A stored reason (an entry's Danish words, as the library keeps them) in the language in use."""
    text = str(why)
    for lst in load_catalogue().lists.values():
        for entry in lst.entries:
            if entry.da == text:
                return entry_short(entry)
    return text


def rest_words(time: Rest) -> str:
    """A rest in the language in use (``3 days``, ``3 dage``, ``3 dni``)."""
    n = time.amount
    words = {
        "rounds": lambda: ngettext("{n} round", "{n} rounds", n),
        "minutes": lambda: ngettext("{n} minute", "{n} minutes", n),
        "hours": lambda: ngettext("{n} hour", "{n} hours", n),
        "days": lambda: ngettext("{n} day", "{n} days", n),
    }
    return words[time.unit]() if time.unit in words else str(time)


def _bought(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Entry]:
    old = list(before.get("konsekvenser", []))
    new = list(after.get("konsekvenser", []))
    for entry_id in old:
        if entry_id in new:
            new.remove(entry_id)
    return [entry for entry in map(_entry, new) if entry is not None]


def fallen(document: Mapping[str, Any]) -> str | None:
    """A hero with "død" among the consequences fights no more."""
    for entry_id in document.get("konsekvenser", []):
        entry = _entry(entry_id)
        if entry is not None and entry.death:
            return _("dead: {entry}", entry=entry_short(entry))
    return None


def settle(before: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], after: Mapping[str, Any]) -> Carried:
    """The hero after a fight: this fight's delayed effects set; an Omdømme lowered for one fight is the document's
    own (``omdomme_til_naeste_kamp``), an older library's ``omdomme-back`` is given back."""
    document = dict(after)
    kept: list[dict[str, Any]] = []
    lines: list[str] = []
    omdomme = int(document.get("omdomme", 0))
    for effect in pending:
        if effect["effect"] == OMDOMME:
            omdomme += int(effect["amount"])
            lines.append(
                _(
                    "Reputation +{amount} back: '{why}' held for one fight",
                    amount=effect["amount"],
                    why=_why(effect["why"]),
                )
            )
        else:
            kept.append(dict(effect))
    bought = _bought(before, after)
    held = int(before.get("omdomme_til_naeste_kamp", 0))
    if held:
        lines.append(_("Reputation {held} held for this fight only: {reputation} again", held=held, reputation=omdomme))
    lowered = -int(after.get("omdomme_til_naeste_kamp", 0))
    if lowered:
        why = "; ".join(entry_short(entry) for entry in bought if entry.omdomme) or _("for the next fight")
        lines.append(_("Reputation −{lowered} for the next fight only ({why})", lowered=lowered, why=why))
    document["omdomme"] = omdomme
    for entry in bought:
        if entry.death_mark and fallen(document) is None:
            kept.append({"effect": DEATH, "days": DEATH_MARK_DAYS, "why": entry.da})
            lines.append(
                ngettext(
                    "{entry}: dies in {n} day (a week or so later)",
                    "{entry}: dies in {n} days (a week or so later)",
                    DEATH_MARK_DAYS,
                    entry=entry_short(entry),
                )
            )
    emptied = {entry.loses for entry in bought if entry.loses}
    refills = {effect["pool"]: effect for effect in kept if effect["effect"] == REFILL}
    for pool in POOLS:
        had, has = int(before.get(pool, 0)), int(document.get(pool, 0))
        if pool in emptied:
            refills.pop(pool, None)
            if had:  # an entry that empties a pool the hero never had changes nothing on the sheet
                lines.append(_("{pool} 0: emptied by a consequence, until the GM gives it back", pool=pool_word(pool)))
        elif has < had:
            full = int(refills[pool]["to"]) if pool in refills else had
            refills[pool] = {"effect": REFILL, "pool": pool, "to": full, "days": REFILL_DAYS}
            lines.append(
                _(
                    "{pool} {now}: dice spent, back to {full} after a day's rest (konflikt's own)",
                    pool=pool_word(pool),
                    now=has,
                    full=full,
                )
            )
    kept = [effect for effect in kept if effect["effect"] != REFILL] + list(refills.values())
    return Carried(document, tuple(kept), tuple(lines))


def rest(
    document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], time: Rest, options: Mapping[str, Any]
) -> Carried:
    """Days pass: a death mark runs out, spent pools come back. Rounds, minutes and hours are less than a day."""
    minutes = time.minutes()
    days = 0 if minutes is None else minutes // (24 * 60)
    doc = {key: (list(value) if isinstance(value, list) else value) for key, value in document.items()}
    kept: list[dict[str, Any]] = []
    lines: list[str] = []
    for effect in pending:
        left = int(effect.get("days", 0)) - days
        if effect["effect"] == DEATH and days:
            if left <= 0:
                doc["konsekvenser"] = list(dict.fromkeys([*doc.get("konsekvenser", []), "doed"]))
                lines.append(
                    ngettext(
                        "dies: {why}, {n} day after the fight",
                        "dies: {why}, {n} days after the fight",
                        DEATH_MARK_DAYS,
                        why=_why(effect["why"]),
                    )
                )
                continue
            lines.append(
                ngettext("{why}: {n} day left to live", "{why}: {n} days left to live", left, why=_why(effect["why"]))
            )
        elif effect["effect"] == REFILL and days and left <= 0:
            pool = str(effect["pool"])
            lines.append(
                _(
                    "{pool} {before} → {after} (rested)",
                    pool=pool_word(pool),
                    before=doc.get(pool, 0),
                    after=effect["to"],
                )
            )
            doc[pool] = int(effect["to"])
            continue
        kept.append({**effect, "days": left} if "days" in effect and days else dict(effect))
    if not lines:
        lines.append(_("nothing changes in {time}", time=rest_words(time)))
    return Carried(doc, tuple(kept), tuple(lines))


def sheet(document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]) -> list[str]:
    """The hero's (or opponent's) sheet in Fimbulfrost's words."""
    omdomme, next_fight = int(document.get("omdomme", 0)), int(document.get("omdomme_til_naeste_kamp", 0))
    lines = [_("Reputation {reputation}; Status {status}", reputation=omdomme, status=document.get("status", 0))]
    if next_fight:
        lines.append(
            _(
                "Reputation {reputation} in the next fight only ({change}: for the next fight)",
                reputation=max(0, omdomme + next_fight),
                change=next_fight,
            )
        )
    if document.get("role") == "opponent":
        lines.append(_("Fight {fight}; opponent", fight=document.get("kamp", 0)))
    else:
        pools = "; ".join(f"{pool_word(pool)} {document.get(pool, 0)}" for pool in POOLS)
        lines.append(_("pools: {pools}", pools=pools))
    for maneuver in document.get("manovrer", []):
        name = maneuver.get("name")
        lines.append(
            ngettext(
                "maneuver: {name} ({n} die)",
                "maneuver: {name} ({n} dice)",
                int(maneuver.get("dice", 0)),
                name=localized(name) if isinstance(name, str | dict) else str(name),
            )
        )
    bought = document.get("konsekvenser", [])
    if bought:
        words = [entry_short(entry) if (entry := _entry(entry_id)) is not None else entry_id for entry_id in bought]
        lines.append(_("consequences: {entries}", entries="; ".join(words)))
    if document.get("laant_tid"):
        lines.append(_("borrowed time {count}: the GM may set a death scene later", count=document["laant_tid"]))
    for effect in pending:
        if effect["effect"] == OMDOMME:
            lines.append(
                _(
                    "Reputation +{amount} back after the next fight ({why})",
                    amount=effect["amount"],
                    why=_why(effect["why"]),
                )
            )
        elif effect["effect"] == DEATH:
            lines.append(
                ngettext(
                    "death-marked: dies in {n} day of rest ({why})",
                    "death-marked: dies in {n} days of rest ({why})",
                    int(effect["days"]),
                    why=_why(effect["why"]),
                )
            )
        elif effect["effect"] == REFILL:
            lines.append(
                ngettext(
                    "{pool} back to {to} after {n} day of rest",
                    "{pool} back to {to} after {n} days of rest",
                    int(effect["days"]),
                    pool=pool_word(str(effect["pool"])),
                    to=effect["to"],
                )
            )
    if (dead := fallen(document)) is not None:
        lines.append(dead)
    return lines


CAMPAIGN = CampaignRules(rest_unit="days", sheet=sheet, settle=settle, rest=rest, fallen=fallen)
