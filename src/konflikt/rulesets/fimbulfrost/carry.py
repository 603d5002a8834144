"""After the conflict (the ``Ruleset.aftermath`` hook): each participant's character document for the next conflict.

The heroes keep what the conflict cost them: the consequences bought (konsekvenser), and their mechanical effects —
"Rygtet er plettet (−1 Omdømme til næste kamp)" lowers Omdømme for the next fight only (the document keeps the
sheet's Omdømme and carries the −1 as ``omdomme_til_naeste_kamp``, which that fight counts and its own aftermath
drops, so a document reused outside a campaign gives the point back as a campaign does), "Flygtet i panik, udstyr
efterladt" and the other pool losses empty a pool — pool dice spent in round 3 (gone under the default
``pools_spent``: "Ressourcer, hvor man spenderer ressourcer"), and borrowed time taken (lånt tid). Status is the
conflict's own track and starts fresh (the text gives no rule for it: konflikt's own). The opponent keeps the
consequences the heroes bought for it.
"""

from __future__ import annotations

from typing import Any

from konflikt.core.outcome import Aftermath
from konflikt.core.state import State
from konflikt.errors import KonfliktError
from konflikt.rulesets.fimbulfrost.rules import POOLS
from konflikt.rulesets.fimbulfrost.state import DEAD, FimbulfrostState

POOL_WORDS = {"rustning": "Rustning (armour)", "grej": "Grej (gear)", "vaaben": "Våben (weapon pool)"}


def aftermath(state: State) -> Aftermath:
    """Participant id → character document (as in a character file) after the finished conflict, and the same in
    words for the table.

    Raises:
        KonfliktError: the state is not a finished fimbulfrost conflict.
    """
    if not isinstance(state, FimbulfrostState):
        raise KonfliktError("the fimbulfrost aftermath takes a fimbulfrost conflict")
    if not state.is_terminal():
        raise KonfliktError("the aftermath takes a finished conflict: this one is not over")
    documents: dict[str, dict[str, Any]] = {}
    lines: list[str] = []
    for i, hero_id in enumerate(state.hero_ids):
        character = state.chars[i]
        bought = [state.catalogue.entry(entry_id) for entry_id in state.taken[i]]
        document = character.model_dump(exclude_defaults=True)
        document["name"] = character.name
        # each held once: under carried_consequences_count = false a carried one may be taken again
        document["konsekvenser"] = list(dict.fromkeys([*character.konsekvenser, *state.taken[i]]))
        changes: list[str] = []
        document["omdomme"] = character.omdomme
        if character.omdomme_til_naeste_kamp:
            changes.append(
                f"Omdømme {character.omdomme_this_fight} → {character.omdomme}: the last fight's "
                f"{character.omdomme_til_naeste_kamp} held for this fight only"
            )
        next_fight = max(sum(entry.omdomme for entry in bought), -character.omdomme)  # never below 0 Omdømme
        document["omdomme_til_naeste_kamp"] = next_fight
        if next_fight:
            causes = "; ".join(entry.da for entry in bought if entry.omdomme)
            lowered = character.omdomme + next_fight
            changes.append(f"Omdømme {character.omdomme} → {lowered} for the next fight only ({causes})")
        emptied = {entry.loses: entry for entry in bought if entry.loses}
        for k, pool in enumerate(POOLS):
            start = getattr(character, pool)
            if pool in emptied:
                value, why = 0, emptied[pool].da
            elif state.options.pools_spent:
                value, why = state.pools[i][k], f"{start - state.pools[i][k]} dice spent in runde (round) 3"
            else:
                value, why = start, ""
            document[pool] = value
            if value != start:
                changes.append(f"{POOL_WORDS[pool]} {start} → {value} ({why})")
        borrowed = character.laant_tid + state.borrowed[i]
        document["laant_tid"] = borrowed
        if state.borrowed[i]:
            changes.append(f"lånt tid (borrowed time) {character.laant_tid} → {borrowed}: the GM may set a death scene")
        documents[hero_id] = {k: v for k, v in document.items() if v not in ([], 0) or k in ("konsekvenser", "omdomme")}
        lines.append(_hero_line(state, i, bought, changes))
    opponent = state.opp.model_dump(exclude_defaults=True)
    opponent["name"] = state.opp.name
    opponent["role"] = "opponent"
    opponent["konsekvenser"] = list(dict.fromkeys([*state.opp.konsekvenser, *state.opp_taken]))
    documents[state.opp_id] = opponent
    if state.opp_taken:
        taken = [state.catalogue.entry(entry_id) for entry_id in state.opp_taken]
        words = "; ".join(f"{entry.da} ({entry.en})" for entry in taken)
        lines.append(f"{state.opp_name}: {words}")
    return Aftermath(characters=documents, lines=tuple(lines))


def _hero_line(state: FimbulfrostState, i: int, bought: list[Any], changes: list[str]) -> str:
    name = state.names[i]
    if state.fate[i] == DEAD:
        return f"{name}: død (dead) — carries into no next conflict"
    words = "; ".join(f"{entry.da} ({entry.en})" for entry in bought)
    parts = [f"konsekvenser (consequences): {words}"] if bought else []
    if any(entry.death_mark for entry in bought):
        parts.append("dødsmærket (death-marked): dies a week or so later")
    parts += changes
    return f"{name}: " + ("; ".join(parts) if parts else "nothing carries over") + "; Status starts fresh"
