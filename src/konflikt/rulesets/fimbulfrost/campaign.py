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
from konflikt.rulesets.fimbulfrost.carry import POOL_WORDS
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
            return f"død (dead): {entry.da}"
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
            lines.append(f"Omdømme +{effect['amount']} back: '{effect['why']}' held for one fight (til næste kamp)")
        else:
            kept.append(dict(effect))
    bought = _bought(before, after)
    held = int(before.get("omdomme_til_naeste_kamp", 0))
    if held:
        lines.append(f"Omdømme {held} held for this fight only (til næste kamp): {omdomme} again")
    lowered = -int(after.get("omdomme_til_naeste_kamp", 0))
    if lowered:
        why = "; ".join(entry.da for entry in bought if entry.omdomme) or "til næste kamp"
        lines.append(f"Omdømme −{lowered} for the next fight only ({why})")
    document["omdomme"] = omdomme
    for entry in bought:
        if entry.death_mark and fallen(document) is None:
            kept.append({"effect": DEATH, "days": DEATH_MARK_DAYS, "why": entry.da})
            lines.append(f"{entry.da}: dies in {DEATH_MARK_DAYS} days (en uges tid senere)")
    emptied = {entry.loses for entry in bought if entry.loses}
    refills = {effect["pool"]: effect for effect in kept if effect["effect"] == REFILL}
    for pool in POOLS:
        had, has = int(before.get(pool, 0)), int(document.get(pool, 0))
        if pool in emptied:
            refills.pop(pool, None)
            if had:  # an entry that empties a pool the hero never had changes nothing on the sheet
                lines.append(f"{POOL_WORDS[pool]} 0: emptied by a consequence, until the GM gives it back")
        elif has < had:
            full = int(refills[pool]["to"]) if pool in refills else had
            refills[pool] = {"effect": REFILL, "pool": pool, "to": full, "days": REFILL_DAYS}
            lines.append(f"{POOL_WORDS[pool]} {has}: dice spent, back to {full} after a day's rest (konflikt's own)")
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
                lines.append(f"død (dies): {effect['why']}, {DEATH_MARK_DAYS} days after the fight")
                continue
            lines.append(f"{effect['why']}: {left} days left to live")
        elif effect["effect"] == REFILL and days and left <= 0:
            pool = str(effect["pool"])
            lines.append(f"{POOL_WORDS[pool]} {doc.get(pool, 0)} → {effect['to']} (rested)")
            doc[pool] = int(effect["to"])
            continue
        kept.append({**effect, "days": left} if "days" in effect and days else dict(effect))
    if not lines:
        lines.append(f"nothing changes in {time}")
    return Carried(doc, tuple(kept), tuple(lines))


def sheet(document: Mapping[str, Any], pending: Sequence[Mapping[str, Any]]) -> list[str]:
    """The hero's (or opponent's) sheet in Fimbulfrost's words."""
    omdomme, next_fight = int(document.get("omdomme", 0)), int(document.get("omdomme_til_naeste_kamp", 0))
    lines = [f"Omdømme (reputation) {omdomme}; Status {document.get('status', 0)}"]
    if next_fight:
        lines.append(f"Omdømme {max(0, omdomme + next_fight)} in the next fight only ({next_fight}: til næste kamp)")
    if document.get("role") == "opponent":
        lines.append(f"Kamp (fight) {document.get('kamp', 0)}; modstander (opponent)")
    else:
        pools = "; ".join(f"{POOL_WORDS[pool]} {document.get(pool, 0)}" for pool in POOLS)
        lines.append(f"puljer (pools): {pools}")
    for maneuver in document.get("manovrer", []):
        lines.append(f"manøvre (maneuver): {maneuver.get('name')} ({maneuver.get('dice')} dice)")
    bought = document.get("konsekvenser", [])
    if bought:
        words = [entry.da if (entry := _entry(entry_id)) is not None else entry_id for entry_id in bought]
        lines.append("konsekvenser (consequences): " + "; ".join(words))
    if document.get("laant_tid"):
        lines.append(
            f"lånt tid (borrowed time) {document['laant_tid']}: the GM may set a death scene (dødsscene) later"
        )
    for effect in pending:
        if effect["effect"] == OMDOMME:
            lines.append(f"Omdømme +{effect['amount']} back after the next fight ({effect['why']})")
        elif effect["effect"] == DEATH:
            lines.append(f"dødsmærket (death-marked): dies in {effect['days']} days of rest ({effect['why']})")
        elif effect["effect"] == REFILL:
            pool = str(effect["pool"])
            lines.append(f"{POOL_WORDS[pool]} back to {effect['to']} after {effect['days']} day(s) of rest")
    if (dead := fallen(document)) is not None:
        lines.append(dead)
    return lines


CAMPAIGN = CampaignRules(rest_unit="days", sheet=sheet, settle=settle, rest=rest, fallen=fallen)
