"""What a fighter brings to a fight and never changes during it: weapon, shield, targets, thresholds, conditions."""

from __future__ import annotations

from dataclasses import dataclass

from konflikt.core.options import Options
from konflikt.core.scenario import Scenario
from konflikt.dice import SumDice
from konflikt.rulesets.levald.models import Character, Setup, Weapon, carried_shield, damage_dice, wielded
from konflikt.rulesets.levald.rules import thresholds


@dataclass(frozen=True, slots=True)
class Fighter:
    """One combatant's fixed data (the changing tracks live in the state as plain lists).

    ``weapon`` is the table row the fighter strikes with (its length and damage dice); ``shield`` the shield carried
    with it, if any. ``attack_mod`` and ``defence_mod`` are what the rows add to the skill together.
    """

    id: str
    name: str
    side: str
    weapon: Weapon
    shield: Weapon | None
    in_hand: Weapon
    """The weapon the fighter carries (``weapon`` is the Sköld row instead with ``shield_with_weapon = shield_row``)."""
    skill_name: str
    skill: int
    attack_mod: int
    defence_mod: int
    stridsvana: int
    limits: tuple[int, int, int, int]
    gard_max: int
    length: int
    guarded: SumDice
    open: SumDice
    cornered: bool
    prepared: bool

    @property
    def attack_base(self) -> int:
        """Skill + Anfallsmod: the attack target before Omtöckning."""
        return self.skill + self.attack_mod

    @property
    def defence_base(self) -> int:
        """Skill + Försvarsmod: the defence target before Omtöckning."""
        return self.skill + self.defence_mod

    @property
    def has_shield(self) -> bool:
        """A shield in hand (carried with a weapon, or the Sköld row wielded alone): Gard counts against ranged
        attacks, and option ``two_defence_rolls`` gives two defence rolls."""
        return self.shield is not None or self.weapon.shield

    def arms(self) -> str:
        """The weapon, and the shield carried with it, in words."""
        return self.in_hand.label() + (f" + {self.shield.label()}" if self.shield is not None else "")


def combined(weapon: Weapon, shield: Weapon | None, options: Options) -> tuple[Weapon, str, int, int]:
    """(the row struck with, the skill, Anfallsmod, Försvarsmod) of a weapon and the shield carried with it.

    konflikt's own reading (the text promises shield rules, "Därtill kommer förstås regler för sköld", but does not
    give them): with ``shield_with_weapon = shield_mods`` the fighter strikes with the weapon (its length and its
    damage dice) at the shield row's skill, Enhandsvapen plus sköld, and the shield's Anfallsmod (−10) and
    Försvarsmod (+40) are added to the weapon's; with ``shield_row`` the Sköld row's own numbers are used.
    """
    if shield is None:
        return weapon, weapon.skill, weapon.attack_mod, weapon.defence_mod
    if options.shield_with_weapon == "shield_row":
        return shield, shield.skill, shield.attack_mod, shield.defence_mod
    return weapon, shield.skill, weapon.attack_mod + shield.attack_mod, weapon.defence_mod + shield.defence_mod


def make_fighter(pid: str, name: str, side: str, character: Character, setup: Setup, options: Options) -> Fighter:
    """Build a fighter from its character data and the scenario's setup."""
    shield = carried_shield(character, setup)
    in_hand = wielded(pid, character, setup)
    weapon, skill_name, attack_mod, defence_mod = combined(in_hand, shield, options)
    return Fighter(
        id=pid,
        name=name,
        side=side,
        weapon=weapon,
        shield=shield,
        in_hand=in_hand,
        skill_name=skill_name,
        skill=character.skills[skill_name],
        attack_mod=attack_mod,
        defence_mod=defence_mod,
        stridsvana=character.stridsvana,
        limits=thresholds(character.kraft, character.sjal, options.light_threshold_round_up),
        gard_max=character.gard,
        length=weapon.length_index,
        guarded=damage_dice(weapon.damage_guarded),
        open=damage_dice(weapon.damage_open),
        cornered=pid in setup.cornered,
        prepared=pid not in setup.unprepared,
    )


def fighters_of(scenario: Scenario, options: Options) -> list[Fighter]:
    setup: Setup = scenario.setup
    return [make_fighter(p.id, p.name, p.side, p.data, setup, options) for p in scenario.participants()]
