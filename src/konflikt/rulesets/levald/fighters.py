"""What a fighter brings to a fight and never changes during it: weapon, target values, thresholds, conditions."""

from __future__ import annotations

from dataclasses import dataclass

from konflikt.core.options import Options
from konflikt.core.scenario import Scenario
from konflikt.dice import SumDice
from konflikt.rulesets.levald.models import Character, Setup, Weapon, damage_dice, wielded
from konflikt.rulesets.levald.rules import thresholds


@dataclass(frozen=True, slots=True)
class Fighter:
    """One combatant's fixed data (the changing tracks live in the state as plain lists)."""

    id: str
    name: str
    side: str
    weapon: Weapon
    skill: int
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
        return self.skill + self.weapon.attack_mod

    @property
    def defence_base(self) -> int:
        """Skill + Försvarsmod: the defence target before Omtöckning."""
        return self.skill + self.weapon.defence_mod


def make_fighter(pid: str, name: str, side: str, character: Character, setup: Setup, options: Options) -> Fighter:
    """Build a fighter from its character data and the scenario's setup."""
    weapon = wielded(pid, character, setup)
    return Fighter(
        id=pid,
        name=name,
        side=side,
        weapon=weapon,
        skill=character.skills[weapon.skill],
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
