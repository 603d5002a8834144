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
from konflikt.rulesets.pwge.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from konflikt.rulesets.pwge.state import PwgeState

ENDINGS = {
    "goal_reached": N_("goal reached"),
    "pools_exhausted": N_("an action pool ran out"),
    "deadlock": N_("deadlock"),
}


def ending_words(ending: str) -> str | None:
    """An ending in the table's language, or None for one PWGE does not name."""
    return _(ENDINGS[ending]) if ending in ENDINGS else None


def setup_facts(conflict: PwgeState) -> dict[str, dict[str, str]]:
    """Each person's numbers: attributes, skills, the attribute and skill in use, the handlingspöl, weapons,
    armour, kroppspoäng and experience dice."""
    facts: dict[str, dict[str, str]] = {}
    no_skill = _("no skill")
    for f, sheet in zip(conflict.people, conflict.characters, strict=True):
        row = {
            _("attributes"): ", ".join(f"{k} {v}" for k, v in sheet.get("attributes", {}).items()),
            _("skills"): ", ".join(f"{k} {v}" for k, v in sheet.get("skills", {}).items()) or "-",
        }
        if f.chosen:
            row[_("roll")] = _(
                "2T + {attribute} {value} + {skill} {level} (an attack: the weapon's skill)",
                attribute=f.attribute_name,
                value=f.attribute,
                skill=f.skill_name or no_skill,
                level=f.skill,
            )
            row[_("action pool")] = ngettext("{n} token in all", "{n} tokens in all", f.pool)
        else:
            row[_("attribute in use")] = _("chosen at the start")
        melee_skill = f"{f.melee_skill[0]} {f.melee_skill[1]}" if f.melee_skill[0] else no_skill
        row[_("melee weapon")] = _(
            "{weapon}: {skill}, +{bonus}, damage +{damage}",
            weapon=f.melee_name,
            skill=melee_skill,
            bonus=f.melee_bonus,
            damage=f.melee_damage,
        )
        if f.ranged is not None:
            short, longest, damage = f.ranged
            ranged_skill = f"{f.ranged_skill[0]} {f.ranged_skill[1]}" if f.ranged_skill[0] else no_skill
            row[_("ranged weapon")] = _(
                "{weapon}: {skill}, short {short}, max {longest}, damage +{damage}",
                weapon=f.ranged_name,
                skill=ranged_skill,
                short=short,
                longest=longest,
                damage=damage,
            )
        row[_("armour")] = str(f.armour)
        row[_("body points")] = str(f.body)
        if f.ammunition:
            row[_("ammunition")] = str(f.ammunition)
        row[_("experience dice")] = str(f.experience_dice)
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
        fields = {"dice": dice.notation, "theirs": f"2T{c.b_mod:+d}"}
        if c.b == DIFFICULTY:
            return [(_("{dice} ahead of the difficulty's {theirs} (still to roll)", **fields), ahead)]
        words = _("{dice} ahead of {name}'s {theirs} (still to roll)", name=conflict.people[c.b].name, **fields)
        return [(words, ahead)]
    a_roll = c.a_roll
    ahead = sum((p for b, p in mine.items() if b > a_roll or (b == a_roll and c.tie == "b")), Fraction(0))
    name = conflict.people[c.a].name
    if c.tie == "b":
        return [
            (_("{dice} reaches {name}'s {roll} (a tie is enough)", dice=dice.notation, name=name, roll=a_roll), ahead)
        ]
    return [(_("{dice} beats {name}'s {roll}", dice=dice.notation, name=name, roll=a_roll), ahead)]


__all__ = ["ENDINGS", "ending_words", "roll_stakes", "setup_facts"]
