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
from konflikt.rulesets.fimbulfrost.i18n import _, entry_name, entry_short, ngettext, pgettext
from konflikt.rulesets.fimbulfrost.rules import POOLS
from konflikt.rulesets.fimbulfrost.state import DEAD, FimbulfrostState


def pool_word(pool: str) -> str:
    """A resource pool (``rustning``, ``grej``, ``vaaben``) in the language in use, as the status table names it."""
    words = {
        "rustning": pgettext("status", "Armour"),
        "grej": pgettext("status", "Gear"),
        "vaaben": pgettext("status", "Weapon pool"),
    }
    return words[pool]


def aftermath(state: State) -> Aftermath:
    """Participant id → character document (as in a character file) after the finished conflict, and the same in
    words for the table.

    Raises:
        KonfliktError: the state is not a finished fimbulfrost conflict.
    """
    if not isinstance(state, FimbulfrostState):
        raise KonfliktError("the fimbulfrost aftermath takes a fimbulfrost conflict")
    if not state.is_terminal():
        raise KonfliktError(_("the aftermath takes a finished conflict: this one is not over"))
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
                _(
                    "Reputation {now} → {sheet}: the last fight's {held} held for this fight only",
                    now=character.omdomme_this_fight,
                    sheet=character.omdomme,
                    held=character.omdomme_til_naeste_kamp,
                )
            )
        next_fight = max(sum(entry.omdomme for entry in bought), -character.omdomme)  # never below 0 Omdømme
        document["omdomme_til_naeste_kamp"] = next_fight
        if next_fight:
            causes = "; ".join(entry_short(entry) for entry in bought if entry.omdomme)
            lowered = character.omdomme + next_fight
            changes.append(
                _(
                    "Reputation {sheet} → {lowered} for the next fight only ({causes})",
                    sheet=character.omdomme,
                    lowered=lowered,
                    causes=causes,
                )
            )
        emptied = {entry.loses: entry for entry in bought if entry.loses}
        for k, pool in enumerate(POOLS):
            start = getattr(character, pool)
            if pool in emptied:
                value, why = 0, entry_short(emptied[pool])
            elif state.options.pools_spent:
                spent = start - state.pools[i][k]
                weapon_in_round_2 = pool == "vaaben" and state.options.weapon_pool
                value, why = (
                    state.pools[i][k],
                    # the weapon pool may be rolled in round 2 as well under the option ``weapon_pool``
                    ngettext("{n} die spent in round 2 or 3", "{n} dice spent in round 2 or 3", spent)
                    if weapon_in_round_2
                    else ngettext("{n} die spent in round 3", "{n} dice spent in round 3", spent),
                )
            else:
                value, why = start, ""
            document[pool] = value
            if value != start:
                changes.append(
                    _("{pool} {before} → {after} ({why})", pool=pool_word(pool), before=start, after=value, why=why)
                )
        borrowed = character.laant_tid + state.borrowed[i]
        document["laant_tid"] = borrowed
        if state.borrowed[i]:
            changes.append(
                _(
                    "borrowed time {before} → {after}: the GM may set a death scene",
                    before=character.laant_tid,
                    after=borrowed,
                )
            )
        documents[hero_id] = {k: v for k, v in document.items() if v not in ([], 0) or k in ("konsekvenser", "omdomme")}
        lines.append(_hero_line(state, i, bought, changes))
    opponent = state.opp.model_dump(exclude_defaults=True)
    opponent["name"] = state.opp.name
    opponent["role"] = "opponent"
    opponent["konsekvenser"] = list(dict.fromkeys([*state.opp.konsekvenser, *state.opp_taken]))
    documents[state.opp_id] = opponent
    if state.opp_taken:
        taken = [state.catalogue.entry(entry_id) for entry_id in state.opp_taken]
        words = "; ".join(entry_name(entry) for entry in taken)
        lines.append(f"{state.opp_name}: {words}")
    return Aftermath(characters=documents, lines=tuple(lines))


def _hero_line(state: FimbulfrostState, i: int, bought: list[Any], changes: list[str]) -> str:
    name = state.names[i]
    if state.fate[i] == DEAD:
        return _("{name}: dead — carries into no next conflict", name=name)
    words = "; ".join(entry_name(entry) for entry in bought)
    parts = [_("consequences: {entries}", entries=words)] if bought else []
    if any(entry.death_mark for entry in bought):
        parts.append(_("death-marked: dies a week or so later"))
    parts += changes
    return _(
        "{name}: {changes}; Status starts fresh",
        name=name,
        changes="; ".join(parts) if parts else _("nothing carries over"),
    )
