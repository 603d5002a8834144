"""A participant as the rules need it during one conflict: numbers read once from the character.

Two of them can change during a conflict, and then the state puts a new record in the participant's place: the
attribute in use, when the seat chooses it as the conflict starts ("vilken egenskap som bäst representerar den
inställning till konflikten som man har valt"), and the weapons in hand, when a handling (action) switches them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from konflikt.core.scenario import Scenario
from konflikt.rulesets.pwge.models import Character, armoury
from konflikt.rulesets.pwge.rules import pool_size


@dataclass(frozen=True, slots=True)
class Fighter:
    """Facts of one participant that change rarely (the changing tallies live in the state's lists).

    Attributes:
        attribute_name: the egenskap (attribute) in use; empty until the seat has chosen it.
        attribute: the attribute's value alone (the order roll adds only this).
        skill_name, skill: the best fitting färdighet (skill) and its value (0 with none).
        roll: what the stand-in roll adds to 2T: the attribute in use + the best fitting skill (every roll but an
            attack's).
        skills: every skill of the character, (name, value), to find the one a weapon takes.
        melee_skill, ranged_skill: the skill an attack with the weapon in hand adds, (name, value): the best of the
            character's skills that the weapon names (``skills`` in weapons.toml); ("", 0) with none.
        pool: the handlingspöl (action pool) at the start, from the text's formula.
        others: the other persons on the same side (−1 token each).
        melee_length: the melee weapon's vapenlängd as a distance code (Kropp 0 … Spjut 4).
        ranged: (Kort, Max, damage) of the ranged weapon, or None.
        carried: other weapons carried (armoury names), to switch to with a handling.
    """

    pid: str
    name: str
    side: int
    attribute_name: str
    attribute: int
    skill_name: str
    skill: int
    skills: tuple[tuple[str, int], ...]
    identity_fit: str
    skill_count: int
    others: int
    melee_key: str
    melee_name: str
    melee_length: int
    melee_bonus: int
    melee_damage: int
    ranged_key: str
    ranged_name: str
    ranged: tuple[int, int, int] | None
    carried: tuple[str, ...]
    melee_skill: tuple[str, int]
    ranged_skill: tuple[str, int]
    armour: int
    body: int
    damage_taken: int
    ammunition: int
    experience_dice: int

    @property
    def roll(self) -> int:
        return self.attribute + self.skill

    def attack_roll(self, weapon: str) -> int:
        """What the stand-in roll of an attack adds to 2T: the attribute in use + the skill of the weapon used
        (``melee`` or ``ranged``), before the weapon's own bonus."""
        return self.attribute + (self.melee_skill if weapon == "melee" else self.ranged_skill)[1]

    @property
    def pool(self) -> int:
        return pool_size(self.attribute, self.identity_fit, self.skill_count, self.others) if self.chosen else 0

    @property
    def chosen(self) -> bool:
        """Whether the attribute in use is known (named in the scenario or chosen at the start)."""
        return bool(self.attribute_name)


def weapon_skill(skills: tuple[tuple[str, int], ...], serving: tuple[str, ...]) -> tuple[str, int]:
    """The best of the character's ``skills`` among those a weapon names (``serving``): (name, value); ("", 0) when
    the character has none of them. Ties go to the name the weapon lists first."""
    own = dict(skills)
    named = [s for s in serving if s in own]
    if not named:
        return "", 0
    best = max(named, key=lambda s: (own[s], -serving.index(s)))
    return best, own[best]


def with_attribute(fighter: Fighter, name: str, value: int) -> Fighter:
    """The participant once its attribute in use is chosen."""
    return replace(fighter, attribute_name=name, attribute=value)


def wielding(fighter: Fighter, weapon: str) -> Fighter:
    """The participant after switching to a carried weapon; the one it replaces is carried instead."""
    arms = armoury()
    if weapon in arms.melee:
        melee = arms.melee[weapon]
        carried = (*tuple(w for w in fighter.carried if w != weapon), fighter.melee_key)
        return replace(
            fighter,
            melee_key=weapon,
            melee_name=melee.name,
            melee_length=melee.length_code,
            melee_bonus=melee.attack_bonus,
            melee_damage=melee.damage,
            melee_skill=weapon_skill(fighter.skills, melee.skills),
            carried=carried,
        )
    ranged = arms.ranged[weapon]
    carried = tuple(w for w in fighter.carried if w != weapon) + ((fighter.ranged_key,) if fighter.ranged_key else ())
    return replace(
        fighter,
        ranged_key=weapon,
        ranged_name=ranged.name,
        ranged=(ranged.kort, ranged.max, ranged.damage),
        ranged_skill=weapon_skill(fighter.skills, ranged.skills),
        carried=carried,
    )


def fighters_of(scenario: Scenario) -> tuple[Fighter, ...]:
    """Read every participant once; its handlingspöl (action pool) follows from the formula once its attribute is
    known."""
    result: list[Fighter] = []
    for side_index, side in enumerate(scenario.sides):
        others = len(side.participants) - 1
        for p in side.participants:
            c: Character = p.data
            melee = c.melee()
            ranged = c.ranged()
            skill_name = max(c.fitting_skills, key=lambda s: (c.skills[s], s), default="")
            skills = tuple(c.skills.items())
            result.append(
                Fighter(
                    pid=p.id,
                    name=p.name,
                    side=side_index,
                    attribute_name=c.attribute or "",
                    attribute=c.attributes[c.attribute] if c.attribute else 0,
                    skill_name=skill_name,
                    skill=c.skills[skill_name] if skill_name else 0,
                    skills=skills,
                    identity_fit=c.identity_fit,
                    skill_count=len(c.fitting_skills),
                    others=others,
                    melee_key=c.melee_weapon,
                    melee_name=melee.name,
                    melee_length=melee.length_code,
                    melee_bonus=melee.attack_bonus,
                    melee_damage=melee.damage,
                    ranged_key=c.ranged_weapon or "",
                    ranged_name=ranged.name if ranged else "",
                    ranged=(ranged.kort, ranged.max, ranged.damage) if ranged else None,
                    carried=tuple(c.carried_weapons),
                    melee_skill=weapon_skill(skills, melee.skills),
                    ranged_skill=weapon_skill(skills, ranged.skills) if ranged else ("", 0),
                    armour=c.armour,
                    body=c.body_points,
                    damage_taken=c.damage_taken,
                    ammunition=c.ammunition,
                    experience_dice=c.experience_dice,
                )
            )
    return tuple(result)
