"""Scenario documents built in code: a duel for any pair of weapons at equal skill (for balancing sweeps)."""

from __future__ import annotations

from typing import Any

from konflikt.core.i18n import BILINGUAL, current
from konflikt.core.scenario import Scenario, scenario_from_document
from konflikt.rulesets.levald.i18n import _
from konflikt.rulesets.levald.models import bundled_weapons, find_weapon
from konflikt.rulesets.levald.words import WEAPONS, whole_percent


def named(weapon: str) -> str:
    """A weapon of a generated duel in the title's words (the bilingual register names it as it was asked for)."""
    return weapon if current() == BILINGUAL or weapon not in WEAPONS else WEAPONS[weapon]


def duel_document(
    weapon_a: str,
    weapon_b: str,
    skill: int = 60,
    stridsvana: int = 50,
    kraft: int = 12,
    sjal: int = 12,
    gard: int = 12,
    distance: str = "Fri",
    policy: str = "heuristic",
) -> dict[str, Any]:
    """A scenario document: two identical fighters but for their weapons, every skill at ``skill`` %."""
    library = bundled_weapons()
    skills = {w.skill: skill for w in library}
    for name in (weapon_a, weapon_b):
        skills[find_weapon(name, library).skill] = skill

    def fighter(pid: str, weapon: str) -> dict[str, Any]:
        return {
            "id": pid,
            "name": f"{pid.upper()} ({weapon})",
            "policy": policy,
            "kraft": kraft,
            "själ": sjal,
            "stridsvana": stridsvana,
            "gard": gard,
            "weapon": weapon,
            "skills": dict(skills),
        }

    return {
        "ruleset": "levald",
        "title": _("Duel {a} against {b} at {skill}", a=named(weapon_a), b=named(weapon_b), skill=whole_percent(skill)),
        "options": {},
        "setup": {"distance": distance},
        "sides": [
            {"id": "side_a", "name": "A", "participants": [fighter("a", weapon_a)]},
            {"id": "side_b", "name": "B", "participants": [fighter("b", weapon_b)]},
        ],
    }


def duel_scenario(weapon_a: str, weapon_b: str, skill: int = 60, **kwargs: Any) -> Scenario:
    """The duel of :func:`duel_document`, loaded and validated."""
    return scenario_from_document(duel_document(weapon_a, weapon_b, skill, **kwargs), f"duel:{weapon_a}-{weapon_b}")


def weapon_pairs() -> list[tuple[str, str]]:
    """Every ordered pair of weapons of the table (mirror matches included): the balancing sweep's grid."""
    names = [w.name for w in bundled_weapons()]
    return [(a, b) for a in names for b in names]
