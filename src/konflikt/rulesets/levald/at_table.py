"""What the table shows beside Le våld's choices: each fighter's numbers from the weapon table and the sheet, the
initiative while its Stridsvana contest is rolled, the endings in words.

Read-only helpers over :class:`LevaldState` behind the optional ``State`` hooks of the front ends
(``setup_facts``, ``status_pending``, ``ending_words``); no rule lives here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from konflikt.rulesets.levald import rules as R

if TYPE_CHECKING:
    from konflikt.rulesets.levald.state import LevaldState

ENDINGS = {
    "parted": "skildes åt (parted: out of reach)",
    "left": "lämnade striden (left the fight)",
    "dead": "död (dead)",
    "taken_out": "utslagen (taken out)",
    "fight_over": "striden är över (the fight is over)",
    "deadlock": "dödläge (deadlock)",
    "goal_reached": "målet nått (goal reached)",
}


def setup_facts(conflict: LevaldState) -> dict[str, dict[str, str]]:
    """Each fighter's numbers: the weapon's row (skill, Anfallsmod, Försvarsmod, damage dice, length), Stridsvana,
    Gard and the wound thresholds from Kraft and Själ."""
    facts: dict[str, dict[str, str]] = {}
    for f in conflict.fighters:
        w = f.weapon
        length = f"{w.length} ({R.DISTANCE_ENGLISH[w.length]})" if w.length in R.DISTANCE_ENGLISH else w.length
        facts[f.id] = {
            "vapen (weapon)": f.arms(),
            f"{f.skill_name} (skill)": f"{f.skill}%",
            "Anfallsmod (attack modifier)": f"{f.attack_mod:+d} → anfall (attack) {f.attack_base}",
            "Försvarsmod (defence modifier)": f"{f.defence_mod:+d} → försvar (defence) {f.defence_base}",
            "Skada skyddad / öppen (damage guarded / open)": f"{w.damage_guarded} / {w.damage_open}",
            "längd (length)": length,
            "Stridsvana (combat experience)": f"{f.stridsvana}%",
            "Gard (guard)": str(f.gard_max),
            "trösklar (wound thresholds) Lätt / Allvarlig / Kritisk / Dödlig": "/".join(map(str, f.limits)),
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
            "avgörs nu (being decided: Stridsvana)"
            if p == conflict.active
            else conflict.fighters[holder].name
            if holder >= 0
            else "-"
        )
        mark = "*" if p in conflict.subfight and len(conflict.pairs) > 1 else ""
        names = f"{mark}{conflict.fighters[a].id}–{conflict.fighters[b].id} " if len(conflict.pairs) > 1 else ""
        pairs.append(f"{names}{conflict.scale[conflict.dist[p]]}, initiativ {who}")
    return {"table": {"avstånd (distance)": "; ".join(pairs)}}


__all__ = ["ENDINGS", "setup_facts", "status_pending"]
