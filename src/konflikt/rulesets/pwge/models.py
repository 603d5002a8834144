"""Pydantic models of PWGE: weapons (content), the character, and a scenario's ``[setup]``.

A character carries its lasting data (attributes, skills, weapons, body points, experience dice, and the social and
diplomatic distances that persist between conflicts) and, usually set in the scenario, how it fights this conflict:
the attribute in use, the fitting skills and how well its identity fits.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from konflikt.core.i18n import LocalText
from konflikt.core.scenario import Name, Number
from konflikt.errors import ScenarioError
from konflikt.rulesets.pwge.i18n import _, pgettext
from konflikt.rulesets.pwge.rules import MELEE_NAMES, code_of_ranged, parse_distance

if TYPE_CHECKING:
    from konflikt.core.scenario import Scenario

CONTENT = Path(__file__).parent / "content"

Kind = Literal["combat", "chase", "diplomatic", "social"]


class MeleeWeapon(BaseModel):
    """A närstridsvapen (melee weapon): its vapenlängd (weapon length), attack bonus and damage modifier."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    gloss: str = ""
    length: Literal["Kropp", "Dolk", "Svärd", "Stav", "Spjut"]
    attack_bonus: Number = Field(default=0, ge=0, le=6)
    damage: Number = Field(default=0, ge=0, le=10)
    skills: tuple[str, ...] = Field(
        default=(),
        description="the färdigheter (skills) an attack with it adds, the best the character has (konflikt's own "
        "stand-in for Parallel Worlds)",
    )

    @property
    def length_code(self) -> int:
        return MELEE_NAMES.index(self.length)


class RangedWeapon(BaseModel):
    """An avståndsvapen (ranged weapon): its Kort (short) and Max ranges, and damage modifier."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    gloss: str = ""
    kort: Number = Field(ge=1, le=50)
    max: Number = Field(ge=1, le=50)
    damage: Number = Field(default=0, ge=0, le=10)
    skills: tuple[str, ...] = Field(
        default=(),
        description="the färdigheter (skills) an attack with it adds, the best the character has (konflikt's own "
        "stand-in for Parallel Worlds)",
    )

    @model_validator(mode="after")
    def _kort_within_max(self) -> RangedWeapon:
        if self.kort > self.max:
            raise ValueError(_("short {short} is longer than max {longest}", short=self.kort, longest=self.max))
        return self


class Armoury(BaseModel):
    model_config = ConfigDict(extra="forbid")

    melee: dict[str, MeleeWeapon]
    ranged: dict[str, RangedWeapon]


@cache
def armoury() -> Armoury:
    """The bundled weapons (content/weapons.toml)."""
    with (CONTENT / "weapons.toml").open("rb") as fh:
        return Armoury.model_validate(tomllib.load(fh))


class Character(BaseModel):
    """One PWGE character, and how it takes part in this conflict."""

    model_config = ConfigDict(extra="forbid")

    name: Name
    identity: LocalText = Field(default="", description="identitet: the character concept (a table of languages)")
    attributes: dict[str, Number] = Field(min_length=1, description="egenskaper 1–6 (PW stand-in scale)")
    skills: dict[str, Number] = Field(default_factory=dict, description="färdigheter 0–5 (PW stand-in scale)")
    melee_weapon: str = "obevapnad"
    ranged_weapon: str | None = None
    armour: Number = Field(default=0, ge=0, le=10)
    carried_weapons: list[str] = Field(
        default_factory=list, description="other melee or ranged weapons carried, to switch to with a handling"
    )
    body_points: Number = Field(
        default=10,
        ge=1,
        le=100,
        description="kroppspoäng (konflikt's own stand-in for Parallel Worlds: 10); the diplomatic and social "
        "kroppspoäng of the text's suggestion are as many ('som bestäms precis som vanligt')",
    )
    damage_taken: Number = Field(
        default=0,
        ge=0,
        le=1000,
        description="physical kroppspoäng lost in earlier conflicts and not yet healed: a fight or a chase starts "
        "with body_points − damage_taken (the diplomatic and social ones are restored between conflicts)",
    )
    ammunition: Number = Field(default=0, ge=0, le=10, description="social/diplomatic ammunition: the damage modifier")
    experience_dice: Number = Field(default=0, ge=0, le=50, description="erfarenhetstärningar not yet spent")
    diplomatic_distance: dict[str, Number] = Field(default_factory=dict, description="name → 0–10, persists")
    social_distance: dict[str, Number] = Field(default_factory=dict, description="name → 0–10, persists")
    # how this conflict is fought (usually set per participant in the scenario)
    attribute: str | None = Field(
        default=None, description="the attribute in use; unnamed, the seat chooses it when the conflict starts"
    )
    fitting_skills: list[str] = Field(default_factory=list)
    identity_fit: Literal["direct", "indirect", "none"] = "none"

    @field_validator("attributes")
    @classmethod
    def _attribute_scale(cls, value: dict[str, int]) -> dict[str, int]:
        for name, v in value.items():
            if not 1 <= v <= 6:
                raise ValueError(_("attribute {name} = {value} is outside 1–6", name=repr(name), value=v))
        return value

    @field_validator("skills")
    @classmethod
    def _skill_scale(cls, value: dict[str, int]) -> dict[str, int]:
        for name, v in value.items():
            if not 0 <= v <= 5:
                raise ValueError(_("skill {name} = {value} is outside 0–5", name=repr(name), value=v))
        return value

    @field_validator("diplomatic_distance", "social_distance")
    @classmethod
    def _relation_scale(cls, value: dict[str, int]) -> dict[str, int]:
        for name, v in value.items():
            if not 0 <= v <= 10:
                raise ValueError(_("distance to {name} = {value} is outside 0–10", name=repr(name), value=v))
        return value

    @model_validator(mode="after")
    def _known_names(self) -> Character:
        if self.attribute is not None and self.attribute not in self.attributes:
            raise ValueError(
                _("attribute {name} is not one of {names}", name=repr(self.attribute), names=", ".join(self.attributes))
            )
        for skill in self.fitting_skills:
            if skill not in self.skills:
                raise ValueError(
                    _(
                        "fitting skill {name} is not one of the skills ({names})",
                        name=repr(skill),
                        names=", ".join(self.skills),
                    )
                )
        arms = armoury()
        if self.melee_weapon not in arms.melee:
            raise ValueError(
                _(
                    "melee weapon {name} is not one of {names}",
                    name=repr(self.melee_weapon),
                    names=", ".join(arms.melee),
                )
            )
        if self.ranged_weapon is not None and self.ranged_weapon not in arms.ranged:
            raise ValueError(
                _(
                    "ranged weapon {name} is not one of {names}",
                    name=repr(self.ranged_weapon),
                    names=", ".join(arms.ranged),
                )
            )
        for weapon in self.carried_weapons:
            if weapon not in arms.melee and weapon not in arms.ranged:
                raise ValueError(
                    _(
                        "carried weapon {name} is not one of {names}",
                        name=repr(weapon),
                        names=", ".join([*arms.melee, *arms.ranged]),
                    )
                )
        return self

    # ---- derived -------------------------------------------------------------------------------------------
    def skill_value(self) -> int:
        """The best fitting skill (0 with none): what the stand-in roll adds to the attribute (but for attacks)."""
        return max((self.skills[s] for s in self.fitting_skills), default=0)

    def melee(self) -> MeleeWeapon:
        return armoury().melee[self.melee_weapon]

    def ranged(self) -> RangedWeapon | None:
        return None if self.ranged_weapon is None else armoury().ranged[self.ranged_weapon]


class Setup(BaseModel):
    """A scenario's ``[setup]``: the kind of conflict and where it starts."""

    model_config = ConfigDict(extra="forbid")

    kind: Kind = "combat"
    start_distance: str | Number = Field(default="Svärd", description="melee name or ranged number, every pair")
    surprise: str | None = Field(default=None, description="id of the side that surprises the others")
    fleeing: str | None = Field(default=None, description="chase: id of the fleeing side")
    escape_distance: Number = Field(default=6, ge=1, le=30, description="chase: range at which a fleer escapes")
    max_range: Number = Field(default=12, ge=1, le=50, description="the farthest ranged distance tracked")
    goal_successes: Number = Field(default=3, ge=1, le=20, description="diplomatic/social without damage: moves won")
    relation_distance: Number = Field(default=5, ge=0, le=10, description="diplomatic/social distance when none stored")
    side_names: dict[str, LocalText] = Field(
        default_factory=dict,
        description="side id → the side's name as a table of languages (both, sv, en, da, pl); a side not named "
        "here is called by its own name",
    )

    @field_validator("start_distance")
    @classmethod
    def _distance_known(cls, value: str | int) -> str | int:
        parse_distance(value)
        return value

    def start_code(self) -> int:
        return parse_distance(self.start_distance)

    def scale_top(self) -> int:
        """The farthest distance code of a physical conflict: ranged ``max_range``."""
        return code_of_ranged(self.max_range)

    def check_scenario(self, scenario: Scenario) -> None:
        sides = [s.id for s in scenario.sides]
        for field_name in ("surprise", "fleeing"):
            value: Any = getattr(self, field_name)
            if value is not None and value not in sides:
                raise ScenarioError(
                    _(
                        "{field} = {value} is not a side ({sides})",
                        field=field_name,
                        value=repr(value),
                        sides=", ".join(sides),
                    )
                )
        for side in self.side_names:
            if side not in sides:
                raise ScenarioError(
                    _("side_names names {side}, which is not a side ({sides})", side=repr(side), sides=", ".join(sides))
                )
        if self.kind == "chase" and self.fleeing is None:
            raise ScenarioError(_("kind = 'chase' needs fleeing = the id of the fleeing side"))
        if self.kind in ("combat", "chase") and self.start_code() > self.scale_top():
            raise ScenarioError(
                _(
                    "start_distance = {value} is outside the scale: melee {melee}, then ranged 1…{top} (max_range)",
                    value=repr(self.start_distance),
                    melee=pgettext("distances", "body…spear"),
                    top=self.max_range,
                )
            )
