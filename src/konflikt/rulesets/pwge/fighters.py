"""A participant as the rules need it during one conflict: fixed numbers read once from the character."""

from __future__ import annotations

from dataclasses import dataclass

from konflikt.core.scenario import Scenario
from konflikt.rulesets.pwge.models import Character
from konflikt.rulesets.pwge.rules import pool_size


@dataclass(frozen=True, slots=True)
class Fighter:
    """Fixed facts of one participant (the changing ones live in the state's lists).

    Attributes:
        roll: what the stand-in roll adds to 2T: the attribute in use + the best fitting skill.
        attribute: the attribute's value alone (the order roll adds only this).
        melee_length: the melee weapon's vapenlängd as a distance code (Kropp 0 … Spjut 4).
        ranged: (Kort, Max, damage) of the ranged weapon, or None.
    """

    pid: str
    name: str
    side: int
    attribute_name: str
    attribute: int
    roll: int
    pool: int
    identity_fit: str
    skill_count: int
    melee_name: str
    melee_length: int
    melee_bonus: int
    melee_damage: int
    ranged_name: str
    ranged: tuple[int, int, int] | None
    armour: int
    body: int
    social_body: int
    ammunition: int
    experience_dice: int


def fighters_of(scenario: Scenario) -> tuple[Fighter, ...]:
    """Read every participant once, computing its handlingspöl (action pool) from the formula."""
    result: list[Fighter] = []
    for side_index, side in enumerate(scenario.sides):
        others = len(side.participants) - 1
        for p in side.participants:
            c: Character = p.data
            melee = c.melee()
            ranged = c.ranged()
            result.append(
                Fighter(
                    pid=p.id,
                    name=p.name,
                    side=side_index,
                    attribute_name=c.attribute_in_use(),
                    attribute=c.attribute_value(),
                    roll=c.attribute_value() + c.skill_value(),
                    pool=pool_size(c.attribute_value(), c.identity_fit, len(c.fitting_skills), others),
                    identity_fit=c.identity_fit,
                    skill_count=len(c.fitting_skills),
                    melee_name=melee.name,
                    melee_length=melee.length_code,
                    melee_bonus=melee.attack_bonus,
                    melee_damage=melee.damage,
                    ranged_name=ranged.name if ranged else "",
                    ranged=(ranged.kort, ranged.max, ranged.damage) if ranged else None,
                    armour=c.armour,
                    body=c.body_points,
                    social_body=c.social_body_points,
                    ammunition=c.ammunition,
                    experience_dice=c.experience_dice,
                )
            )
    return tuple(result)
