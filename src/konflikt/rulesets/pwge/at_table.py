"""What the table shows beside PWGE's choices: each person's numbers (attributes, skills, pool, weapons), the
chance a 2T roll wins its contest, the endings in words.

Read-only helpers over :class:`PwgeState` behind the optional ``State`` hooks of the front ends
(``setup_facts``, ``roll_stakes``, ``ending_words``); no rule lives here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from konflikt.core.stakes import default_stakes
from konflikt.dice import SumDice
from konflikt.rulesets.pwge.exchange import DIFFICULTY

if TYPE_CHECKING:
    from konflikt.rulesets.pwge.state import PwgeState

ENDINGS = {
    "goal_reached": "målet uppnått (goal reached)",
    "pools_exhausted": "handlingspölen slut (an action pool ran out)",
    "deadlock": "dödläge (deadlock)",
}


def setup_facts(conflict: PwgeState) -> dict[str, dict[str, str]]:
    """Each person's numbers: attributes, skills, the attribute and skill in use, the handlingspöl, weapons,
    armour, kroppspoäng and experience dice."""
    facts: dict[str, dict[str, str]] = {}
    for f, sheet in zip(conflict.people, conflict.characters, strict=True):
        row = {
            "egenskaper (attributes)": ", ".join(f"{k} {v}" for k, v in sheet.get("attributes", {}).items()),
            "färdigheter (skills)": ", ".join(f"{k} {v}" for k, v in sheet.get("skills", {}).items()) or "-",
        }
        if f.chosen:
            row["slag (roll)"] = (
                f"2T + {f.attribute_name} {f.attribute} + {f.skill_name or 'no skill'} {f.skill} (an attack: the "
                "weapon's skill)"
            )
            row["handlingspöl (action pool)"] = f"{f.pool} marker (tokens)"
        else:
            row["egenskap (attribute in use)"] = "chosen at the start"
        melee_skill = f"{f.melee_skill[0]} {f.melee_skill[1]}" if f.melee_skill[0] else "no skill"
        row["närstridsvapen (melee weapon)"] = (
            f"{f.melee_name}: {melee_skill}, +{f.melee_bonus}, skada (damage) +{f.melee_damage}"
        )
        if f.ranged is not None:
            short, longest, damage = f.ranged
            ranged_skill = f"{f.ranged_skill[0]} {f.ranged_skill[1]}" if f.ranged_skill[0] else "no skill"
            row["avståndsvapen (ranged weapon)"] = (
                f"{f.ranged_name}: {ranged_skill}, Kort {short}, Max {longest}, skada +{damage}"
            )
        row["rustning (armour)"] = str(f.armour)
        row["kroppspoäng (body points)"] = str(f.body)
        if f.ammunition:
            row["ammunition"] = str(f.ammunition)
        row["erfarenhetstärningar (experience dice)"] = str(f.experience_dice)
        facts[f.pid] = row
    return facts


def roll_stakes(conflict: PwgeState) -> list[tuple[str, Fraction]]:
    """A contest's roll: the chance that this side comes out ahead, before any toppa (top up); the other side's
    roll still to come where it is. A damage roll: the default."""
    dice = conflict.pending_roll()
    c = conflict.contest
    if dice is None or conflict.phase != "contest" or c is None:
        return default_stakes(dice) if dice is not None else []
    mine = dice.distribution()
    if c.a_roll is None:
        theirs = SumDice(2, 6, c.b_mod, "T").distribution()
        ahead = sum(
            (p * q for a, p in mine.items() for b, q in theirs.items() if a > b),
            Fraction(0),
        )
        other = "the difficulty" if c.b == DIFFICULTY else conflict.people[c.b].name
        return [(f"{dice.notation} ahead of {other}'s 2T{c.b_mod:+d} (still to roll)", ahead)]
    a_roll = c.a_roll
    ahead = sum((p for b, p in mine.items() if b > a_roll or (b == a_roll and c.tie == "b")), Fraction(0))
    name = conflict.people[c.a].name
    if c.tie == "b":
        return [(f"{dice.notation} reaches {name}'s {a_roll} (a tie is enough)", ahead)]
    return [(f"{dice.notation} beats {name}'s {a_roll}", ahead)]


__all__ = ["ENDINGS", "roll_stakes", "setup_facts"]
