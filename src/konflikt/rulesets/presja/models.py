"""Pydantic models of `presja`'s data: weapons, armour, the ladder, a character, and a scenario's ``[setup]``.

Content lives in TOML under ``content/``; a character names its weapon and armour by id (``sztylet``) or gives
them inline, so a GM can bring a weapon the bundled list lacks.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from konflikt.core.i18n import LocalText, current, localized
from konflikt.core.scenario import Name, Number
from konflikt.errors import KonfliktError
from konflikt.rulesets.presja.i18n import _

if TYPE_CHECKING:
    from konflikt.core.scenario import Scenario

CONTENT = Path(__file__).parent / "content"
ID = r"^[a-z0-9][a-z0-9_\-]*$"


class Weapon(BaseModel):
    """Broń: its Czynnik Obrażeń (damage factor) and what the zones and advantages need to know."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: LocalText
    damage: Number = Field(0, ge=0, le=10, description="Czynnik Obrażeń (damage factor)")
    ranged: bool = False
    reach: Number = Field(0, ge=0, le=10)
    aspect: LocalText | None = None
    aspect_boxes: Number = Field(0, ge=0, le=5)


class Armour(BaseModel):
    """Zbroja: its Czynnik Wyparowań (absorption factor)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: LocalText
    absorption: Number = Field(0, ge=0, le=10, description="Czynnik Wyparowań (absorption factor)")


class Level(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    value: Number = Field(ge=-100, le=100)
    name: str
    english: str
    names: dict[str, str] = Field(
        default_factory=dict, description="the level's name in other languages (sv, da), beside the text's and English"
    )


def _read(path: Path) -> dict[str, Any]:
    with path.open("rb") as fh:
        return tomllib.load(fh)


@cache
def weapons() -> dict[str, Weapon]:
    """The bundled weapons by id."""
    return {k: Weapon.model_validate(v) for k, v in _read(CONTENT / "weapons.toml").items()}


@cache
def armours() -> dict[str, Armour]:
    """The bundled armour by id."""
    return {k: Armour.model_validate(v) for k, v in _read(CONTENT / "armour.toml").items()}


@cache
def _consequence_tables() -> dict[str, tuple[dict[str, str], ...]]:
    return {k: tuple(dict(row) for row in v) for k, v in _read(CONTENT / "consequences.toml").items()}


@cache
def consequence_names() -> dict[str, tuple[str, ...]]:
    """Sample consequence names per severity (from the text's examples): the names saved with a character, each
    shown in the language in use by :func:`consequence_text`."""
    return {k: tuple(row["both"] for row in rows) for k, rows in _consequence_tables().items()}


@cache
def _consequence_words() -> dict[str, dict[str, str]]:
    return {row["both"]: row for rows in _consequence_tables().values() for row in rows}


def consequence_text(name: str) -> str:
    """A consequence's name in the language in use: a name of the bundled list in its translation, any other name
    (the player's own words, a carried one) as it was given."""
    table = _consequence_words().get(name)
    return name if table is None else localized(table)


@cache
def ladder(name: str = "default") -> dict[int, Level]:
    """The ladder (drabinka): level value → its Polish name and English gloss.

    Raises:
        KonfliktError: no such ladder file, or one that is not a valid ladder.
    """
    path = Path(name) if name.endswith(".toml") else CONTENT / "ladders" / f"{name}.toml"
    shown = name if len(name) <= 60 else name[:57] + "…"
    try:
        found = path.is_file()
        rows = _read(path)["levels"] if found else []
    except OSError as exc:  # a name too long for a file, no permission
        raise KonfliktError(
            _("ladder {ladder}: cannot be read ({reason})", ladder=repr(shown), reason=exc.strerror or exc)
        ) from None
    except (KeyError, TypeError, ValueError) as exc:  # TOMLDecodeError and UnicodeDecodeError are ValueErrors
        raise KonfliktError(
            _("ladder {ladder}: not a valid ladder file ({reason})", ladder=repr(shown), reason=exc)
        ) from None
    if not found:
        raise KonfliktError(
            _("ladder {ladder}: no such file (a bundled ladder's name, or a .toml file)", ladder=repr(shown))
        )
    try:
        levels = [Level.model_validate(row) for row in rows]
    except (KeyError, TypeError, ValueError) as exc:
        raise KonfliktError(
            _("ladder {ladder}: not a valid ladder file ({reason})", ladder=repr(shown), reason=exc)
        ) from None
    return {lv.value: lv for lv in levels}


def level_word(value: int, name: str = "default") -> str | None:
    """The ladder's word for ``value`` in the language in use (``None`` off the ladder)."""
    lv = ladder(name).get(value)
    if lv is None:
        return None
    language = current()
    if language == "both":
        return f"{lv.name}, {lv.english}"
    return {"pl": lv.name, "en": lv.english}.get(language) or lv.names.get(language) or lv.english


def level_text(value: int, name: str = "default") -> str:
    """``bardzo dobry (+3, Very good)`` in the bilingual register, ``bardzo dobry (+3)`` in Polish, ``Very good
    (+3)`` in English, the level's ``names`` in Swedish and Danish (English where the ladder has none); a value off
    the ladder shows as its number."""
    lv = ladder(name).get(value)
    if lv is None:
        return f"{value:+d}"
    if current() == "both":
        return f"{lv.name} ({value:+d}, {lv.english})"
    return f"{level_word(value, name)} ({value:+d})"


class Consequences(BaseModel):
    """Konsekwencje a character already carries when the conflict starts (names, or empty)."""

    model_config = ConfigDict(extra="forbid")

    mild: Name | None = None
    moderate: Name | None = None
    severe: Name | None = None


UNNAMED_SKILL = {"both": "Walka (fighting)", "pl": "Walka", "en": "Fighting", "sv": "Strid", "da": "Kamp"}
"""The combat skill's name when a character file names none."""


class Character(BaseModel):
    """One participant of a physical conflict.

    ``skill`` is the level of the combat skill used (``None``: no combat skill at all, which matters for surprise);
    ``zmysly`` (Senses) sets the order of action; ``cialo`` (Body) adds boxes to the pressure track.
    """

    model_config = ConfigDict(extra="forbid")

    name: Name
    skill_name: LocalText = Field(default_factory=lambda: dict(UNNAMED_SKILL))
    skill: Number | None = Field(None, ge=-4, le=10)
    zmysly: Number = Field(0, ge=-4, le=10, description="Zmysły (Senses)")
    cialo: Number = Field(0, ge=0, le=10, description="Ciało (Body)")
    weapon: str | Weapon = "piesci"
    armour: str | Armour = "brak"
    fate_points: Number = Field(3, ge=0, le=20, description="Punkty Losu (fate points)")
    aspects: list[LocalText] = Field(default_factory=list)
    initiative_edge: LocalText | None = Field(None, description="a stunt or aspect that wins ties of Zmysły")
    player: bool = Field(False, description="a player's character (the GM runs the others)")
    warlike: Number = Field(0, ge=0, le=5, description="levels of a warlike aspect (przewaga w osobowości)")
    edges: list[str] = Field(default_factory=list, description="advantages the GM may see in this character")
    may_concede: bool = True
    consequences: Consequences = Field(default_factory=Consequences)
    marked_boxes: list[str] = Field(
        default_factory=list,
        max_length=40,
        description="boxes of the Tor Presji still marked from an earlier fight, by range ('1', '2-3', '4-5'): a "
        "few minutes of rest clear them",
    )

    @field_validator("skill_name")
    @classmethod
    def _some_skill_name(cls, value: str | dict[str, str]) -> str | dict[str, str]:
        if not (value if isinstance(value, str) else all(value.values())):
            raise ValueError(_("a skill name cannot be empty"))
        return value

    @field_validator("marked_boxes")
    @classmethod
    def _box_labels(cls, value: list[str]) -> list[str]:
        for label in value:
            lo, _sep, hi = label.partition("-")
            if not (lo.isdigit() and (not hi or hi.isdigit())):
                raise ValueError(
                    _("a marked box is named by its range ('1', '2-3', '4-5'), not {label}", label=repr(label))
                )
        return value

    @field_validator("weapon")
    @classmethod
    def _known_weapon(cls, value: str | Weapon) -> str | Weapon:
        if isinstance(value, str) and value not in weapons():
            raise ValueError(
                _("unknown weapon {weapon} (known: {known})", weapon=repr(value), known=", ".join(sorted(weapons())))
            )
        return value

    @field_validator("armour")
    @classmethod
    def _known_armour(cls, value: str | Armour) -> str | Armour:
        if isinstance(value, str) and value not in armours():
            raise ValueError(
                _("unknown armour {armour} (known: {known})", armour=repr(value), known=", ".join(sorted(armours())))
            )
        return value

    @field_validator("edges")
    @classmethod
    def _known_edges(cls, value: list[str]) -> list[str]:
        known = ("mobility", "weapon", "tactics", "reaction", "personality")
        for edge in value:
            if edge not in known:
                raise ValueError(
                    _("unknown advantage {edge} (known: {known})", edge=repr(edge), known=", ".join(known))
                )
        return value

    def weapon_data(self) -> Weapon:
        return weapons()[self.weapon] if isinstance(self.weapon, str) else self.weapon

    def armour_data(self) -> Armour:
        return armours()[self.armour] if isinstance(self.armour, str) else self.armour


class Zone(BaseModel):
    """Strefa: a loosely drawn area of the scene."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ID)
    name: LocalText


DEFAULT_ZONE = Zone(
    id="scena", name={"both": "scena (the scene)", "pl": "scena", "en": "the scene", "sv": "scenen", "da": "scenen"}
)


class Setup(BaseModel):
    """The GM's set-up of the scene: aspekty sytuacyjne, strefy with their neighbours, positions, surprise."""

    model_config = ConfigDict(extra="forbid")

    situation_aspects: list[LocalText] = Field(default_factory=list, description="aspekty sytuacyjne (2-3)")
    zones: list[Zone] = Field(default_factory=list)
    adjacent: list[tuple[str, str]] = Field(default_factory=list, description="pairs of neighbouring zones")
    positions: dict[str, str] = Field(default_factory=dict, description="participant id → zone id")
    surprised: list[str] = Field(default_factory=list, description="participants taken by surprise")
    side_names: dict[str, LocalText] = Field(
        default_factory=dict, description="side id → its name in each language (the side's name otherwise)"
    )

    def zone_list(self) -> list[Zone]:
        return self.zones or [DEFAULT_ZONE]

    def check_scenario(self, scenario: Scenario) -> None:
        """Zones, neighbours and positions must name things that exist."""
        zone_ids = [z.id for z in self.zone_list()]
        if len(set(zone_ids)) != len(zone_ids):
            raise KonfliktError(_("zones: a zone id is used twice in {zones}", zones=zone_ids))
        for a, b in self.adjacent:
            for z in (a, b):
                if z not in zone_ids:
                    raise KonfliktError(
                        _("adjacent: unknown zone {zone} (zones: {zones})", zone=repr(z), zones=", ".join(zone_ids))
                    )
        pids = [p.id for p in scenario.participants()]
        for pid, zone in self.positions.items():
            if pid not in pids:
                raise KonfliktError(
                    _(
                        "positions: unknown participant {participant} (participants: {participants})",
                        participant=repr(pid),
                        participants=", ".join(pids),
                    )
                )
            if zone not in zone_ids:
                raise KonfliktError(
                    _(
                        "positions.{participant}: unknown zone {zone} (zones: {zones})",
                        participant=pid,
                        zone=repr(zone),
                        zones=", ".join(zone_ids),
                    )
                )
        sides = [s.id for s in scenario.sides]
        for sid in self.side_names:
            if sid not in sides:
                raise KonfliktError(
                    _("side_names: unknown side {side} (sides: {sides})", side=repr(sid), sides=", ".join(sides))
                )
        for pid in self.surprised:
            if pid not in pids:
                raise KonfliktError(
                    _(
                        "surprised: unknown participant {participant} (participants: {participants})",
                        participant=repr(pid),
                        participants=", ".join(pids),
                    )
                )
