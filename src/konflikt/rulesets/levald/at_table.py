"""What the table shows beside Le våld's choices: each fighter's numbers from the weapon table and the sheet, the
initiative while its Stridsvana contest is rolled, the endings in words.

Read-only helpers over :class:`LevaldState` behind the optional ``State`` hooks of the front ends
(``setup_facts``, ``status_pending``, ``ending_words``); no rule lives here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from konflikt.core.i18n import percent
from konflikt.rulesets.levald import words as W
from konflikt.rulesets.levald.i18n import _, pgettext

if TYPE_CHECKING:
    from konflikt.rulesets.levald.state import LevaldState

ENDINGS = W.ENDINGS
"""The endings in words, looked up in the language in use when read."""


def setup_facts(conflict: LevaldState) -> dict[str, dict[str, str]]:
    """Each fighter's numbers: the weapon's row (skill, Anfallsmod, Försvarsmod, damage dice, length), Stridsvana,
    Gard and the wound thresholds from Kraft and Själ."""
    facts: dict[str, dict[str, str]] = {}
    for f in conflict.fighters:
        w = f.weapon
        facts[f.id] = {
            pgettext("fact", "weapon"): f.arms(),
            _("{skill} (skill)", skill=W.skill(f.skill_name)): percent(f.skill, 0),
            pgettext("fact", "Attack modifier"): _(
                "{modifier} → attack {attack}", modifier=f"{f.attack_mod:+d}", attack=f.attack_base
            ),
            pgettext("fact", "Defence modifier"): _(
                "{modifier} → defence {defence}", modifier=f"{f.defence_mod:+d}", defence=f.defence_base
            ),
            pgettext("fact", "Damage guarded / open"): f"{w.damage_guarded} / {w.damage_open}",
            pgettext("fact", "length"): W.distance(w.length, glossed=True),
            pgettext("fact", "Combat experience"): percent(f.stridsvana, 0),
            pgettext("fact", "Gard"): str(f.gard_max),
            _(
                "wound thresholds {light} / {serious} / {critical} / {deadly}",
                light=W.wound("Lätt"),
                serious=W.wound("Allvarlig"),
                critical=W.wound("Kritisk"),
                deadly=W.wound("Dödlig"),
            ): "/".join(map(str, f.limits)),
        }
    return facts


def status_pending(conflict: LevaldState) -> dict[str, dict[str, str]]:
    """While the initiative's Stridsvana contest is rolled, the pair's initiative holder is being decided afresh."""
    if conflict.phase != "init_roll":
        return {}
    pairs = []
    for p, (a, b) in enumerate(conflict.pairs):
        holder = conflict.holder[p]
        who = (
            _("being decided: combat experience")
            if p == conflict.active
            else conflict.fighters[holder].name
            if holder >= 0
            else "-"
        )
        mark = "*" if p in conflict.subfight and len(conflict.pairs) > 1 else ""
        names = f"{mark}{conflict.fighters[a].id}–{conflict.fighters[b].id} " if len(conflict.pairs) > 1 else ""
        distance = W.distance(conflict.scale[conflict.dist[p]])
        pairs.append(names + _("{distance}, initiative {holder}", distance=distance, holder=who))
    return {"table": {pgettext("status", "distance"): "; ".join(pairs)}}


__all__ = ["ENDINGS", "setup_facts", "status_pending"]
