"""Fimbulfrost's data: characters (helte, heroes; modstandere, opponents), the scenario's [setup], and the
consequence lists (konsekvenslister) as validated TOML content.

Why one Character model for both kinds: a scenario's participants come from one pydantic model per ruleset; the
``role`` field says which kind, and :meth:`Setup.check_scenario` checks that there is exactly one opponent.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from konflikt.core.i18n import LocalText
from konflikt.core.scenario import Name, Number, read_toml, validation_message, within_scenario
from konflikt.errors import ScenarioError
from konflikt.rulesets.fimbulfrost.i18n import _

if TYPE_CHECKING:
    from konflikt.core.scenario import Scenario

CONTENT = Path(__file__).parent / "content"
BUNDLED_LISTS = CONTENT / "consequences.toml"
ID = r"^[a-z0-9][a-z0-9_\-]*$"


class Maneuver(BaseModel):
    """A special maneuver (manøvre i kamp): activated once in round 3 for more dice."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ID)
    name: LocalText = Field(
        description="the maneuver's name: one string, or a table of languages (read with localized)"
    )
    dice: Number = Field(ge=1, le=12)


MAX_CARRIED = 200
"""The most consequences one character carries: the bundled lists hold fewer entries than this, each held once."""
MAX_BORROWED = 1000
"""The most times a hero has lived on borrowed time: once a conflict (the round-3 choice is taken at most once), so
a thousand is a campaign longer than any table plays; 10**12 was accepted."""


class Character(BaseModel):
    """A hero (helt) or an opponent (modstander).

    Heroes have Omdømme, Status and resource pools (Rustning, Grej, and under an option a våbenpulje); opponents
    have Omdømme, Kamp and Status, and may bring special consequence lists.
    """

    model_config = ConfigDict(extra="forbid")

    name: Name
    role: Literal["hero", "opponent"] = "hero"
    omdomme: Number = Field(ge=0, le=30, description="Omdømme (reputation): round-1 dice")
    status: Number = Field(ge=1, le=60, description="Status: the conflict's 'hit points'")
    kamp: Number = Field(0, ge=0, le=30, description="Kamp (fight): the opponent's round-2 dice")
    rustning: Number = Field(0, ge=0, le=30, description="Rustningspulje (armour pool), spent in round 3")
    grej: Number = Field(0, ge=0, le=30, description="Grejpulje (gear pool), spent in round 3")
    vaaben: Number = Field(0, ge=0, le=30, description="Våbenpulje (weapon pool), only under the weapon_pool option")
    manovrer: list[Maneuver] = Field(default_factory=list, description="manøvrer (maneuvers), each once")
    konsekvenser: list[str] = Field(
        default_factory=list,
        max_length=MAX_CARRIED,
        description="consequences carried from earlier conflicts, each once, by their ids on the lists",
    )
    omdomme_til_naeste_kamp: Number = Field(
        0,
        ge=-30,
        le=0,
        description="a change to Omdømme for this fight only, set by the last fight's consequences ('−1 Omdømme til "
        "næste kamp'): the fight's dice count from omdomme plus it, and the fight's aftermath drops it",
    )
    laant_tid: Number = Field(
        0,
        ge=0,
        le=MAX_BORROWED,
        description="times the hero has lived on borrowed time (death scenes owed): at most once a conflict",
    )
    konsekvensliste: str | None = Field(None, description="opponent: a special list used against the heroes")
    nederlagsliste: str = Field("modstander", description="opponent: the list bought for it when defeated")

    @property
    def omdomme_this_fight(self) -> int:
        """The Omdømme this fight's dice count from: the sheet's, less what the last fight's consequences took for
        this one fight ("−1 Omdømme til næste kamp"), never below 0."""
        return max(0, self.omdomme + self.omdomme_til_naeste_kamp)

    @field_validator("konsekvenser")
    @classmethod
    def _known_once(cls, value: list[str], info: ValidationInfo) -> list[str]:
        seen: set[str] = set()
        for entry in value:
            if entry in seen:
                raise ValueError(
                    _("consequence {entry} is carried twice: a consequence is held once", entry=repr(entry))
                )
            seen.add(entry)
        if within_scenario(info):
            return value  # the scenario's check_scenario reads its own lists, laid over the bundled ones
        known = bundled_catalogue().known_ids()
        for entry in value:
            if entry not in known:
                raise ValueError(
                    _(
                        "unknown consequence {entry} (the lists' ids: {ids})",
                        entry=repr(entry),
                        ids=", ".join(sorted(known)),
                    )
                )
        return value

    @model_validator(mode="after")
    def _kinds(self) -> Character:
        if self.role == "hero" and self.kamp:
            raise ValueError(_("a hero has no Fight pool (kamp): only opponents roll Fight in round 2"))
        if self.role == "opponent" and (self.rustning or self.grej or self.vaaben or self.manovrer):
            raise ValueError(_("an opponent has no resource pools (rustning, grej, vaaben, manovrer)"))
        ids = [m.id for m in self.manovrer]
        if len(set(ids)) != len(ids):
            raise ValueError(_("maneuver ids must differ: {ids}", ids=ids))
        return self


class Entry(BaseModel):
    """One consequence (konsekvens) on a list, in Danish with English (and Swedish and Polish where the list gives
    them: ``i18n.entry_name`` reads the language in use); ``severity`` orders the heuristics."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ID)
    da: str
    en: str
    sv: str | None = Field(None, description="the entry in Swedish (English is shown when it is missing)")
    pl: str | None = Field(None, description="the entry in Polish (English is shown when it is missing)")
    severity: Number = Field(ge=0, le=10)
    death: bool = False
    death_mark: bool = Field(False, description="dødsmærket: alive now, wastes away and dies about a week later")
    runder: list[Number] = Field(default_factory=lambda: [1, 2, 3], description="rounds in which the entry applies")
    loses: Literal["rustning", "grej", "vaaben"] | None = Field(None, description="a resource pool emptied")
    omdomme: Number = Field(
        0, ge=-10, le=0, description="a change to Omdømme for the next conflict (−1: rygtet plettet)"
    )
    excludes: list[str] = Field(
        default_factory=list,
        description="entries of the same list that cannot be held with this one (opposing fates: flees, captured, "
        "killed); the relation goes both ways",
    )

    @property
    def effects(self) -> frozenset[str]:
        """The character fields this entry changes after the conflict (its mechanical effects)."""
        return frozenset({self.loses} if self.loses else set()) | ({"omdomme"} if self.omdomme else set())


class ConsequenceList(BaseModel):
    model_config = ConfigDict(extra="forbid")

    da: str
    en: str
    sv: str | None = None
    pl: str | None = None
    entries: list[Entry] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> ConsequenceList:
        ids = [e.id for e in self.entries]
        if len(set(ids)) != len(ids):
            raise ValueError(_("entry ids on one list must differ: {ids}", ids=ids))
        for e in self.entries:
            unknown = [other for other in e.excludes if other not in ids or other == e.id]
            if unknown:
                raise ValueError(
                    _(
                        "entry {entry} excludes {other}, which is not another entry of its list",
                        entry=repr(e.id),
                        other=repr(unknown[0]),
                    )
                )
        return self


class Catalogue(BaseModel):
    """All consequence lists by name: ``runde1``, ``runde2``, ``runde3``, ``modstander`` and monster lists."""

    model_config = ConfigDict(extra="forbid")

    lists: dict[str, ConsequenceList]

    def entry(self, entry_id: str) -> Entry:
        for lst in self.lists.values():
            for e in lst.entries:
                if e.id == entry_id:
                    return e
        raise KeyError(entry_id)

    def known_ids(self) -> set[str]:
        return {e.id for lst in self.lists.values() for e in lst.entries}


REQUIRED_LISTS = ("runde1", "runde2", "runde3", "modstander")


@cache
def bundled_catalogue() -> Catalogue:
    """The bundled lists, read and checked once a process: every fimbulfrost state, check and save load needs
    them (reading them each time was 40 ms a conflict). Nothing changes a catalogue once it is made."""
    try:
        return Catalogue.model_validate(read_toml(BUNDLED_LISTS))
    except ValidationError as exc:
        raise ScenarioError(validation_message(str(BUNDLED_LISTS), exc)) from None


def load_catalogue(user_file: Path | None = None) -> Catalogue:
    """The bundled lists, with a user's file laid over them list by list (a list of the same name replaces)."""
    lists = dict(bundled_catalogue().lists)
    if user_file is not None:
        try:
            lists.update(Catalogue.model_validate(read_toml(user_file)).lists)
        except ValidationError as exc:
            raise ScenarioError(validation_message(str(user_file), exc)) from None
    return Catalogue(lists=lists)


class Setup(BaseModel):
    """The scenario's ``[setup]``: an optional file of the user's own consequence lists."""

    model_config = ConfigDict(extra="forbid")

    konsekvenslister: str | None = Field(
        None, description="a TOML file of consequence lists (relative to the scenario) laid over the bundled ones"
    )

    def lists_path(self, source: str) -> Path | None:
        if self.konsekvenslister is None:
            return None
        path = Path(self.konsekvenslister)
        return path if path.is_absolute() else Path(source).parent / path

    def check_scenario(self, scenario: Scenario) -> None:
        """One opponent (a band is one) against one side of heroes; every named list and consequence exists."""
        catalogue = load_catalogue(self.lists_path(scenario.source))
        opponents = [p for p in scenario.participants() if p.data.role == "opponent"]
        if len(opponents) != 1:
            raise ScenarioError(
                _(
                    "a fimbulfrost conflict has exactly one opponent (a band is one opponent), not {count}",
                    count=len(opponents),
                )
            )
        if len(scenario.sides) != 2:
            raise ScenarioError(_("two sides: the heroes and the opponent, not {count}", count=len(scenario.sides)))
        opp = opponents[0]
        for side in scenario.sides:
            if opp.side != side.id and any(p.data.role != "hero" for p in side.participants):
                raise ScenarioError(
                    _("side {side}: every participant facing the opponent must be a hero", side=repr(side.id))
                )
            if opp.side == side.id and len(side.participants) != 1:
                raise ScenarioError(_("side {side}: the opponent stands alone on its side", side=repr(side.id)))
        for name in REQUIRED_LISTS:
            if name not in catalogue.lists:
                raise ScenarioError(_("consequence list {name} is missing", name=repr(name)))
        for p in scenario.participants():
            for list_name in (p.data.konsekvensliste, p.data.nederlagsliste):
                if list_name is not None and list_name not in catalogue.lists:
                    raise ScenarioError(
                        _(
                            "{participant}: no consequence list {name} (known: {known})",
                            participant=p.id,
                            name=repr(list_name),
                            known=", ".join(sorted(catalogue.lists)),
                        )
                    )
            unknown = [c for c in p.data.konsekvenser if c not in catalogue.known_ids()]
            if unknown:
                raise ScenarioError(
                    _("{participant}: unknown carried consequence {entry}", participant=p.id, entry=repr(unknown[0]))
                )
