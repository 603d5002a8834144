"""Le våld's data: weapons (the text's weapon table, user files, inline tables), characters and a scenario's setup.

All models forbid unknown fields so that a typo in a file is an error that names the field, not a silent default.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator

from konflikt.core.scenario import Name, Number, read_toml, validation_message
from konflikt.dice import SumDice, parse_dice
from konflikt.errors import KonfliktError, ScenarioError
from konflikt.rulesets.levald.i18n import _
from konflikt.rulesets.levald.rules import DISTANCES, WEAPON_LENGTHS

CONTENT = Path(__file__).parent / "content"


def damage_dice(notation: str) -> SumDice:
    """Read a damage column (``3T6``) as dice; only sums of dice are damage."""
    dice = parse_dice(notation)
    if not isinstance(dice, SumDice):
        raise ValueError(_("damage {notation} is not a sum of dice such as 3T6", notation=repr(notation)))
    return dice


class Weapon(BaseModel):
    """One row of the weapon table (vapentabell)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, description="Vapen")
    english: str = ""
    skill: str = Field(min_length=1, description="Färdighet: the skill used with it")
    type: str = Field(default="Lätt", description="Typ: Lätt (civil) or Tungt (war)")
    attack_mod: Number = Field(default=0, ge=-100, le=100, description="Anfallsmod")
    defence_mod: Number = Field(default=0, ge=-100, le=100, description="Försvarsmod")
    damage_guarded: str = Field(description="Skada skyddad: dice while the target has Gard")
    damage_open: str = Field(description="Skada öppen: dice once the target's Gard is gone")
    length: str = Field(description="Vapenlängd")
    durability: Number = Field(
        default=0, ge=0, le=1000, description="Stryktålighet (carried as data, no breaking rule; the table's ≤ 40)"
    )
    bra: Number | None = Field(
        default=None, ge=-100, le=100, description='"Bra": the designer\'s balance rating, not for players'
    )
    shield: bool = Field(default=False, description="a shield: Gard against ranged attacks, two defence rolls")
    ranged: bool = Field(default=False, description="a ranged weapon: Gard counts against it only with a shield")

    @field_validator("damage_guarded", "damage_open")
    @classmethod
    def _dice(cls, value: str) -> str:
        try:
            damage_dice(value)
        except KonfliktError as exc:
            raise ValueError(str(exc)) from None
        return value

    @field_validator("length")
    @classmethod
    def _length(cls, value: str) -> str:
        if value not in WEAPON_LENGTHS:
            raise ValueError(
                _("weapon length {value} is not one of {lengths}", value=repr(value), lengths=", ".join(WEAPON_LENGTHS))
            )
        return value

    @property
    def length_index(self) -> int:
        return DISTANCES.index(self.length)

    def label(self) -> str:
        """The weapon's name in the language in use (``Svärd (sword)`` in the bilingual register)."""
        from konflikt.rulesets.levald.words import weapon

        return weapon(self.name, self.english, is_bundled(self))


class WeaponFile(BaseModel):
    """A weapons file: ``[[weapon]]`` tables."""

    model_config = ConfigDict(extra="forbid")

    weapon: list[Weapon] = Field(min_length=1)


def load_weapon_file(path: Path) -> list[Weapon]:
    """Read a weapons TOML file; errors name the file and the field."""
    try:
        return WeaponFile.model_validate(read_toml(path)).weapon
    except ValidationError as exc:
        raise ScenarioError(validation_message(str(path), exc)) from None


@cache
def bundled_weapons() -> tuple[Weapon, ...]:
    """The text's weapon table (content/weapons.toml)."""
    with (CONTENT / "weapons.toml").open("rb") as fh:
        return tuple(WeaponFile.model_validate(tomllib.load(fh)).weapon)


@cache
def is_bundled(weapon: Weapon) -> bool:
    """Whether ``weapon`` is a row of the text's table, exactly (its name is then the catalog's)."""
    return weapon in bundled_weapons()


def find_weapon(name: str, library: list[Weapon] | tuple[Weapon, ...]) -> Weapon:
    """A weapon by its Swedish or English name (case-insensitive); later entries override earlier ones."""
    wanted = name.strip().lower()
    for weapon in reversed(library):
        if wanted in (weapon.name.lower(), weapon.english.lower()):
            return weapon
    known = ", ".join(sorted({w.name for w in library}))
    raise KonfliktError(_("unknown weapon {name} (known: {known})", name=repr(name), known=known))


MAX_BOXES = 100
"""The most ticked boxes of one wound level a fighter carries in: a fight ticks a few, and one Kritisk or Dödlig box
already ends it; a billion was accepted."""


class Wounds(BaseModel):
    """Ticked wound boxes: how many of each level the character carries."""

    model_config = ConfigDict(extra="forbid")

    skrama: Number = Field(default=0, ge=0, le=MAX_BOXES, validation_alias=AliasChoices("skråma", "skrama"))
    latt: Number = Field(default=0, ge=0, le=MAX_BOXES, validation_alias=AliasChoices("lätt", "latt"))
    allvarlig: Number = Field(default=0, ge=0, le=MAX_BOXES)
    kritisk: Number = Field(
        default=0, ge=0, le=MAX_BOXES, description="a ticked Kritisk box: the fighter starts utslagen"
    )
    dodlig: Number = Field(default=0, ge=0, le=MAX_BOXES, validation_alias=AliasChoices("dödlig", "dodlig"))

    def boxes(self) -> list[int]:
        """The boxes in the order of rules.WOUNDS: Skråma, Lätt, Allvarlig, Kritisk, Dödlig."""
        return [self.skrama, self.latt, self.allvarlig, self.kritisk, self.dodlig]


class Character(BaseModel):
    """A fighter: Kraft and Själ (the thresholds), Stridsvana, weapon skills, weapon, Gard and any daze carried in."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: Name
    description: str = ""
    kraft: Number = Field(ge=1, le=200, description="Kraft (strength)")
    sjal: Number = Field(ge=0, le=200, validation_alias=AliasChoices("själ", "sjal"), description="Själ (soul)")
    stridsvana: Number = Field(ge=0, le=200, description="Stridsvana (combat experience), a skill in %")
    skills: dict[str, Number] = Field(min_length=1, description="Färdigheter: weapon skill name → %")
    weapon: str | Weapon = Field(description="a weapon's name from the table, or a whole inline weapon table")
    shield: str | Weapon | None = Field(
        default=None, description="a shield carried with the weapon (Typ 'Lätt + vapen'): its name or table"
    )
    gard: Number = Field(ge=0, le=500, description="Gard maximum (no formula in the text)")
    gard_now: Number | None = Field(default=None, ge=0, le=500, description="Gard at the start, if not full")
    daze: Number = Field(
        default=0,
        ge=0,
        le=1000,
        description="Omtöckning carried into the fight (−10 % for every 5 past the first: at 1,000 no roll succeeds)",
    )
    wounds: Wounds = Field(default_factory=Wounds, description="wound boxes carried into the fight")

    @field_validator("skills")
    @classmethod
    def _skills(cls, value: dict[str, int]) -> dict[str, int]:
        for skill, percent in value.items():
            if not 0 <= percent <= 300:
                raise ValueError(_("skill {skill} = {value}: a skill is 0 to 300 %", skill=repr(skill), value=percent))
        return value


class Setup(BaseModel):
    """A scenario's ``[setup]``: starting distance, extra weapons, weapon choices and the GM's conditions."""

    model_config = ConfigDict(extra="forbid")

    distance: str = Field(default="Fri", description="starting distance (Avstånd)")
    weapons_file: str | None = Field(default=None, description="a user weapons file, relative to the scenario")
    weapons: list[Weapon] = Field(default_factory=list, description="inline [[setup.weapons]] tables")
    wield: dict[str, str] = Field(default_factory=dict, description="participant id → weapon name (overrides)")
    cornered: list[str] = Field(default_factory=list, description="participants cornered or unable to move back")
    unprepared: list[str] = Field(default_factory=list, description="participants not prepared: their Gard is void")
    gm_conditions: bool = Field(
        default=False, description="the GM may toggle cornered / prepared before each round's movement"
    )

    @field_validator("distance")
    @classmethod
    def _distance(cls, value: str) -> str:
        if value not in DISTANCES:
            raise ValueError(
                _("distance {value} is not one of {distances}", value=repr(value), distances=", ".join(DISTANCES))
            )
        return value

    def library(self) -> list[Weapon]:
        """The bundled table, then the weapons file, then the inline weapons (later names override)."""
        return [*bundled_weapons(), *self.weapons]

    def check_scenario(self, scenario: Any) -> None:
        """Inline the weapons file (so a saved conflict replays without it) and check every name used."""
        if self.weapons_file is not None:
            base = Path(str(scenario.source)).parent
            path = Path(self.weapons_file)
            extra = load_weapon_file(path if path.is_absolute() else base / path)
            self.weapons = [*extra, *self.weapons]
            self.weapons_file = None
            document_setup = scenario.document.get("setup")
            if isinstance(document_setup, dict):
                document_setup.pop("weapons_file", None)
                document_setup["weapons"] = [w.model_dump(exclude_defaults=True) for w in self.weapons]
        ids = {p.id for p in scenario.participants()}
        for field, names in (("wield", list(self.wield)), ("cornered", self.cornered), ("unprepared", self.unprepared)):
            for pid in names:
                if pid not in ids:
                    raise KonfliktError(
                        _(
                            "{field}: {pid} is not a participant (participants: {ids})",
                            field=field,
                            pid=repr(pid),
                            ids=", ".join(sorted(ids)),
                        )
                    )
        if len(scenario.sides) != 2:
            raise KonfliktError(_("Le våld fights have two sides, not {count}", count=len(scenario.sides)))
        for p in scenario.participants():
            if isinstance(p.data.weapon, str) and p.id in self.wield:
                # the character's own weapon must exist even where [setup.wield] overrides it: a save or a later
                # scenario without the override would meet it
                try:
                    find_weapon(p.data.weapon, self.library())
                except KonfliktError as exc:
                    raise KonfliktError(_("{pid}: weapon: {error}", pid=p.id, error=exc)) from None
            weapon = wielded(p.id, p.data, self)
            shield = carried_shield(p.data, self)
            skill = shield.skill if shield is not None else weapon.skill
            if skill not in p.data.skills:
                fields = {"pid": p.id, "weapon": weapon.name, "skill": skill, "skills": ", ".join(p.data.skills)}
                if shield is not None:
                    raise KonfliktError(
                        _(
                            "{pid} wields {weapon} and {shield} ({skill}) but has no such skill (skills: {skills})",
                            shield=shield.name,
                            **fields,
                        )
                    )
                raise KonfliktError(
                    _("{pid} wields {weapon} ({skill}) but has no such skill (skills: {skills})", **fields)
                )
            if shield is not None and not shield.shield:
                raise KonfliktError(
                    _(
                        "{pid}: {shield} is not a shield (its table row has no shield = true)",
                        pid=p.id,
                        shield=shield.name,
                    )
                )
            if shield is not None and (weapon.shield or weapon.skill != ONE_HANDED):
                raise KonfliktError(
                    _(
                        "{pid}: a shield is carried with a one-handed weapon ({one_handed}), not {weapon} ({skill})",
                        pid=p.id,
                        one_handed=ONE_HANDED,
                        weapon=weapon.name,
                        skill=weapon.skill,
                    )
                )


ONE_HANDED = "Enhandsvapen"
"""The skill of the weapons a shield is carried with: the table's "Enhandsvapen plus sköld"."""


def carried_shield(character: Character, setup: Setup) -> Weapon | None:
    """The shield a character carries with its weapon (the Sköld row's Typ "Lätt + vapen"), if any."""
    if character.shield is None or isinstance(character.shield, Weapon):
        return character.shield
    return find_weapon(character.shield, setup.library())


def wielded(pid: str, character: Character, setup: Setup) -> Weapon:
    """The weapon a participant fights with: the setup's ``wield`` override, else the character's weapon."""
    choice = setup.wield.get(pid, character.weapon)
    if isinstance(choice, Weapon):
        return choice
    return find_weapon(choice, setup.library())
