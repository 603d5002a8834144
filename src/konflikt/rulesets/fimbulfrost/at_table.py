"""What the table shows beside Fimbulfrost's choices: the consequences owed and why, the successes a roll needs
(and the 1s only where they count), each side's numbers from the sheets, list entries and endings in words.

Read-only helpers over :class:`FimbulfrostState` behind the optional ``State`` hooks of the front ends
(``decision_stake``, ``roll_stakes``, ``setup_facts``, ``id_words``, ``ending_words``); no rule lives here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from konflikt.core.stakes import default_stakes
from konflikt.rulesets.fimbulfrost import phases as P

if TYPE_CHECKING:
    from konflikt.rulesets.fimbulfrost.state import FimbulfrostState

ENDINGS = {
    "opponent_defeated": "modstanderen er besejret (the opponent is defeated)",
    "heroes_lost": "heltene har tabt kampen (the heroes have lost)",
    "heroes_out": "alle helte er ude af kampen (every hero is out of the fight)",
    "deadlock": "dødvande (deadlock)",
    "goal_reached": "målet er nået (goal reached)",
}


def decision_stake(conflict: FimbulfrostState, seat: str) -> str:
    """A consequence to buy: how many are owed, for whom, and why; the opponent's hits to split."""
    if conflict.asks:
        kind, i, count, round_no = conflict.asks[0]
        who = conflict.names[i]
        if kind == "back":
            return (
                f"{who} is out, {count} point(s) under 0 (Status {conflict.hstatus[i]}): køb dig ind igen (buy back "
                f"in) for {count} + 1 consequence(s), back at Status 1, or bliv ude (stay out) for {count}"
            )
        per = conflict.points
        each = "" if per == 1 else f" (one per {per} points)"
        if kind == "opp":
            return (
                f"{conflict.opp_name} is defeated: {count} konsekvens(er) (consequence(s)) left to buy for it from "
                f"the {conflict.opp.nederlagsliste} list, for its Status {conflict.opp_status} under 0{each}; "
                f"{who} chooses"
            )
        if kind == "mishap":
            return f"{who} buys {count} konsekvens(er) (consequence(s)) for himself: a 1 rolled each (ulykke, mishap)"
        if conflict.hstatus[i] <= 0:
            why = f"out at Status {conflict.hstatus[i]}, {-conflict.hstatus[i]} point(s) under 0{each}"
        else:
            why = f"{conflict.opp_name} kept Status {conflict.opp_status} after runde (round) {round_no}{each}"
        return f"{who} buys {count} konsekvens(er) (consequence(s)) from runde {round_no}'s list: {why}"
    if conflict.phase == P.HIT and conflict.hits:
        standing = ", ".join(
            f"{conflict.names[i]} Status {conflict.hstatus[i]} + morale {conflict.morale[i]}"
            for i in conflict.standing()
        )
        return f"{conflict.opp_name} splits {conflict.hits} success(es) among the heroes: {standing}"
    return ""


def roll_stakes(conflict: FimbulfrostState) -> list[tuple[str, Fraction]]:
    """A hero's roll: successes up to what the opponent's Status still needs; at least one 1 only in rounds 2 and 3
    (a mishap if the heroes win). The opponent's roll: successes up to what takes the weakest hero out."""
    dice = conflict.pending_roll()
    if dice is None:
        return []
    phase = conflict.phase
    if phase in (P.R1_ANSWER, P.R2_KAMP):
        standing = conflict.standing()
        if not standing:
            return default_stakes(dice)
        weakest = min(standing, key=lambda i: conflict.hstatus[i] + conflict.morale[i])
        need = conflict.hstatus[weakest] + conflict.morale[weakest]
        rows = default_stakes(dice, need=need)
        return _labelled(rows, need, f"enough to put {conflict.names[weakest]} out (Status + morale {need})")
    rolled = 0 if phase == P.R1_ROLL else sum(r.successes for r in conflict.rolls if r is not None)
    need = max(1, conflict.opp_status - rolled)
    rows = default_stakes(dice, ones=phase != P.R1_ROLL, need=need)
    so_far = f", {rolled} rolled already" if rolled else ""
    rows = _labelled(rows, need, f"what {conflict.opp_name}'s Status {conflict.opp_status} needs{so_far}")
    return [
        (f"{label} (ulykke: a mishap consequence if the heroes win)", p) if label == "at least one 1" else (label, p)
        for label, p in rows
    ]


def _labelled(rows: list[tuple[str, Fraction]], need: int, why: str) -> list[tuple[str, Fraction]]:
    return [(f"{label}: {why}", p) if label == f"successes ≥ {need}" else (label, p) for label, p in rows]


def setup_facts(conflict: FimbulfrostState) -> dict[str, dict[str, str]]:
    """Each side's numbers: the heroes' Omdømme, Status and pools; the opponent's Omdømme, Kamp and Status."""
    facts: dict[str, dict[str, str]] = {
        conflict.opp_id: {
            "Omdømme (reputation, round-1 dice)": str(conflict.opp.omdomme),
            "Kamp (fight, round-2 dice)": str(conflict.opp.kamp),
            "Status": str(conflict.opp.status),
            "nederlagsliste (list bought when defeated)": conflict.opp.nederlagsliste,
        }
    }
    for i, hid in enumerate(conflict.hero_ids):
        c = conflict.chars[i]
        row = {
            "Omdømme (reputation, round-1 dice)": str(c.omdomme_this_fight),
            "Status": str(c.status),
            "Rustningspulje (armour pool)": str(c.rustning),
            "Grejpulje (gear pool)": str(c.grej),
        }
        if c.vaaben:
            row["Våbenpulje (weapon pool)"] = str(c.vaaben)
        if c.manovrer:
            row["manøvrer (maneuvers)"] = ", ".join(f"{m.id} {m.dice}d6" for m in c.manovrer)
        if c.konsekvenser:
            row["konsekvenser (carried consequences)"] = ", ".join(_entry_words(conflict, e) for e in c.konsekvenser)
        facts[hid] = row
    return facts


def _entry_words(conflict: FimbulfrostState, entry_id: str) -> str:
    try:
        e = conflict.catalogue.entry(entry_id)
    except KeyError:
        return entry_id
    return f"{e.da} ({e.en})"


def id_words(conflict: FimbulfrostState) -> dict[str, str]:
    """Every list entry's id (``modstander-flygter``, ``brukket-arm``) → its words."""
    return {e.id: f"{e.da} ({e.en})" for lst in conflict.catalogue.lists.values() for e in lst.entries}


__all__ = ["ENDINGS", "decision_stake", "id_words", "roll_stakes", "setup_facts"]
