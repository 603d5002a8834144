"""What the table shows beside Fimbulfrost's choices: the consequences owed and why, the successes a roll needs
(and the 1s only where they count), each side's numbers from the sheets, list entries and endings in words.

Read-only helpers over :class:`FimbulfrostState` behind the optional ``State`` hooks of the front ends
(``decision_stake``, ``roll_stakes``, ``setup_facts``, ``id_words``, ``ending_words``); no rule lives here. Every
text is in the language in use (``i18n.py``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from konflikt.core.stakes import default_stakes
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.i18n import N_, _, entry_name, ngettext, pgettext

if TYPE_CHECKING:
    from konflikt.dice import Dice
    from konflikt.rulesets.fimbulfrost.state import FimbulfrostState

ENDINGS = {
    "opponent_defeated": N_("the opponent is defeated"),
    "heroes_lost": N_("the heroes have lost"),
    "heroes_out": N_("every hero is out of the fight"),
    "deadlock": N_("deadlock"),
    "goal_reached": N_("goal reached"),
}
"""Each ending in words (English, for the catalogs: :func:`ending_words` translates)."""


def ending_words(ending: str) -> str | None:
    """An ending in the language in use, or None for one Fimbulfrost does not name."""
    return _(ENDINGS[ending]) if ending in ENDINGS else None


def decision_stake(conflict: FimbulfrostState, seat: str) -> str:
    """A consequence to buy: how many are owed, for whom, and why; the opponent's hits to split."""
    if conflict.asks:
        kind, i, count, round_no = conflict.asks[0]
        who = conflict.names[i]
        if kind == "back":
            return ngettext(
                "{name} is out, {n} point under 0 (Status {status}): buy back in for {n} + 1 consequences, back at "
                "Status 1, or stay out for {n}",
                "{name} is out, {n} points under 0 (Status {status}): buy back in for {n} + 1 consequences, back at "
                "Status 1, or stay out for {n}",
                count,
                name=who,
                status=conflict.hstatus[i],
            )
        per = conflict.points
        each = "" if per == 1 else " (" + _("one per {per} points", per=per) + ")"
        if kind == "opp":
            return ngettext(
                "{opponent} is defeated: {n} consequence left to buy for it from the list '{list}', for its Status "
                "{status} under 0{each}; {name} chooses",
                "{opponent} is defeated: {n} consequences left to buy for it from the list '{list}', for its Status "
                "{status} under 0{each}; {name} chooses",
                count,
                opponent=conflict.opp_name,
                list=conflict.list_words(conflict.opp.nederlagsliste),
                status=conflict.opp_status,
                each=each,
                name=who,
            )
        if kind == "mishap":
            return ngettext(
                "{name} buys {n} consequence for himself: a 1 rolled each (a mishap)",
                "{name} buys {n} consequences for himself: a 1 rolled each (a mishap)",
                count,
                name=who,
            )
        if conflict.hstatus[i] <= 0:
            why = ngettext(
                "out at Status {status}, {n} point under 0{each}",
                "out at Status {status}, {n} points under 0{each}",
                -conflict.hstatus[i],
                status=conflict.hstatus[i],
                each=each,
            )
        else:
            why = _(
                "{opponent} kept Status {status} after round {round}{each}",
                opponent=conflict.opp_name,
                status=conflict.opp_status,
                round=round_no,
                each=each,
            )
        return ngettext(
            "{name} buys {n} consequence from round {round}'s list: {why}",
            "{name} buys {n} consequences from round {round}'s list: {why}",
            count,
            name=who,
            round=round_no,
            why=why,
        )
    if conflict.phase == P.HIT and conflict.hits:
        standing = ", ".join(
            _(
                "{name} Status {status} + morale {morale}",
                name=conflict.names[i],
                status=conflict.hstatus[i],
                morale=conflict.morale[i],
            )
            for i in conflict.standing()
        )
        return ngettext(
            "{opponent} splits {n} success among the heroes: {standing}",
            "{opponent} splits {n} successes among the heroes: {standing}",
            conflict.hits,
            opponent=conflict.opp_name,
            standing=standing,
        )
    return ""


def _pool_rows(dice: Dice, need: int, ones: bool) -> tuple[list[tuple[int, Fraction]], Fraction]:
    """A pool's at-least chances of successes 1..``need`` (as :func:`default_stakes` counts them), and the chance of
    at least one 1."""
    dist: dict[Any, Fraction] = dice.distribution()
    successes: dict[int, Fraction] = {}
    one = Fraction(0)
    for roll, p in dist.items():
        successes[roll.successes] = successes.get(roll.successes, Fraction(0)) + p
        if roll.ones:
            one += p
    values = [v for v in sorted(successes)[1:] if v <= need]
    rows = [(v, sum((p for k, p in successes.items() if k >= v), Fraction(0))) for v in values]
    if need > max(successes):
        rows.append((need, Fraction(0)))
    return rows, (one if ones else Fraction(0))


def _labelled(rows: list[tuple[int, Fraction]], need: int, why: str) -> list[tuple[str, Fraction]]:
    out = []
    for value, p in rows:
        label = _("successes ≥ {n}", n=value)
        out.append((_("{label}: {why}", label=label, why=why) if value == need else label, p))
    return out


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
        rows, _one = _pool_rows(dice, need, ones=False)
        why = _("enough to put {name} out (Status + morale {need})", name=conflict.names[weakest], need=need)
        return _labelled(rows, need, why)
    rolled = 0 if phase == P.R1_ROLL else sum(r.successes for r in conflict.rolls if r is not None)
    need = max(1, conflict.opp_status - rolled)
    rows, one = _pool_rows(dice, need, ones=phase != P.R1_ROLL)
    if rolled:
        why = _(
            "what {opponent}'s Status {status} needs, {rolled} rolled already",
            opponent=conflict.opp_name,
            status=conflict.opp_status,
            rolled=rolled,
        )
    else:
        why = _("what {opponent}'s Status {status} needs", opponent=conflict.opp_name, status=conflict.opp_status)
    labelled = _labelled(rows, need, why)
    if one:
        labelled.append((_("at least one 1 (a mishap consequence if the heroes win)"), one))
    return labelled


def setup_facts(conflict: FimbulfrostState) -> dict[str, dict[str, str]]:
    """Each side's numbers: the heroes' Omdømme, Status and pools; the opponent's Omdømme, Kamp and Status."""
    reputation = pgettext("setup", "Reputation (round-1 dice)")
    status = pgettext("setup", "Status")
    facts: dict[str, dict[str, str]] = {
        conflict.opp_id: {
            reputation: str(conflict.opp.omdomme),
            pgettext("setup", "Fight (round-2 dice)"): str(conflict.opp.kamp),
            status: str(conflict.opp.status),
            pgettext("setup", "list bought when defeated"): conflict.list_words(conflict.opp.nederlagsliste),
        }
    }
    for i, hid in enumerate(conflict.hero_ids):
        c = conflict.chars[i]
        row = {
            reputation: str(c.omdomme_this_fight),
            status: str(c.status),
            pgettext("setup", "Armour pool"): str(c.rustning),
            pgettext("setup", "Gear pool"): str(c.grej),
        }
        if c.vaaben:
            row[pgettext("setup", "Weapon pool")] = str(c.vaaben)
        if c.manovrer:
            row[pgettext("setup", "maneuvers")] = ", ".join(f"{m.id} {m.dice}d6" for m in c.manovrer)
        if c.konsekvenser:
            row[pgettext("setup", "carried consequences")] = ", ".join(
                _entry_words(conflict, e) for e in c.konsekvenser
            )
        facts[hid] = row
    return facts


def _entry_words(conflict: FimbulfrostState, entry_id: str) -> str:
    try:
        e = conflict.catalogue.entry(entry_id)
    except KeyError:
        return entry_id
    return entry_name(e)


def id_words(conflict: FimbulfrostState) -> dict[str, str]:
    """Every list entry's id (``modstander-flygter``, ``brukket-arm``) → its words."""
    return {e.id: entry_name(e) for lst in conflict.catalogue.lists.values() for e in lst.entries}


__all__ = ["ENDINGS", "decision_stake", "ending_words", "id_words", "roll_stakes", "setup_facts"]
