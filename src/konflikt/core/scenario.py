"""Scenario files: TOML, validated with pydantic, errors that name the file, the field path and the value.

A scenario names its ruleset, sets rule options, lists the sides with their participants (inline, or a character
file: a path relative to the scenario, or ``builtin:NAME`` for the ruleset's bundled characters), gives each seat a
policy, and carries a ruleset-specific ``[setup]`` table.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from konflikt.core.errors import KonfliktError, ScenarioError
from konflikt.core.ruleset import Ruleset, get_ruleset

ID_PATTERN = r"^[a-z0-9][a-z0-9_\-]*$"


class ParticipantSpec(BaseModel):
    """One participant: ids, seat policy, and any ruleset fields (merged over its character file)."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(pattern=ID_PATTERN)
    name: str | None = None
    character: str | None = None
    policy: str | None = None


class SideSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ID_PATTERN)
    name: str | None = None
    goal: str | None = None
    participants: list[ParticipantSpec] = Field(min_length=1)


class ScenarioSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ruleset: str
    title: str
    description: str = ""
    seed: int | None = None
    gm: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    sides: list[SideSpec] = Field(min_length=2)
    setup: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class Participant:
    """A participant as the rules see it: ids, name, side, seat policy and validated ruleset data."""

    id: str
    name: str
    side: str
    policy: str
    data: Any


@dataclass(frozen=True)
class Side:
    id: str
    name: str
    goal: str | None
    participants: tuple[Participant, ...]


@dataclass(frozen=True)
class Scenario:
    """A loaded, validated scenario.

    Attributes:
        document: the scenario with every character file inlined: what a saved conflict stores, so that it
            replays on another machine without the files.
    """

    ruleset: Ruleset
    title: str
    description: str
    seed: int | None
    gm: str
    options: Mapping[str, Any]
    sides: tuple[Side, ...]
    setup: Any
    source: str
    document: Mapping[str, Any]

    def participants(self) -> list[Participant]:
        return [p for side in self.sides for p in side.participants]

    def participant(self, pid: str) -> Participant:
        for p in self.participants():
            if p.id == pid:
                return p
        raise KeyError(pid)


def format_loc(loc: Sequence[str | int]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def validation_message(source: str, exc: ValidationError, prefix: Sequence[str | int] = ()) -> str:
    """One line for the first problem: file, field path, value, and what is wrong."""
    err = exc.errors()[0]
    loc = format_loc([*prefix, *err["loc"]])
    value = err.get("input")
    shown = "" if isinstance(value, dict) else f" = {value!r}"
    more = len(exc.errors()) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"{source}: {loc}{shown}: {err['msg'].lower()}{tail}"


def read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ScenarioError(f"{path}: is a folder, not a TOML file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not a UTF-8 text file") from None


def bundled_examples() -> Path:
    return Path(str(resources.files("konflikt") / "examples"))


def find_scenario(name: str) -> Path:
    """A path as given, or a bundled example as ``RULESET/NAME`` (``presja/knife_fight``)."""
    path = Path(name)
    if path.exists():
        return path
    bundled = bundled_examples() / (name if name.endswith(".toml") else name + ".toml")
    if bundled.exists():
        return bundled
    raise ScenarioError(f"{name}: no such file, and no bundled example of that name (see 'konflikt examples')")


def load_scenario(name: str | Path) -> Scenario:
    path = find_scenario(str(name))
    return scenario_from_document(read_toml(path), str(path), base=path.parent)


def scenario_from_document(doc: Mapping[str, Any], source: str, base: Path | None = None) -> Scenario:
    """Validate a scenario document (a parsed TOML file, or the inlined copy stored with a saved conflict)."""
    try:
        spec = ScenarioSpec.model_validate(doc)
    except ValidationError as exc:
        raise ScenarioError(validation_message(source, exc)) from None
    try:
        ruleset = get_ruleset(spec.ruleset)
    except KonfliktError as exc:
        raise ScenarioError(f"{source}: ruleset = {spec.ruleset!r}: {exc}") from None
    try:
        ruleset.options.resolve(spec.options)
    except KonfliktError as exc:
        raise ScenarioError(f"{source}: options: {exc}") from None

    default_policy = "heuristic" if "heuristic" in ruleset.policies else "random"
    seen: set[str] = set()
    sides: list[Side] = []
    inlined_sides: list[dict[str, Any]] = []
    for si, side in enumerate(spec.sides):
        if side.id in seen:
            raise ScenarioError(f"{source}: sides[{si}].id = {side.id!r}: this id is used twice")
        seen.add(side.id)
        members: list[Participant] = []
        inlined_members: list[dict[str, Any]] = []
        for pi, part in enumerate(side.participants):
            where: list[str | int] = ["sides", si, "participants", pi]
            if part.id in seen:
                raise ScenarioError(f"{source}: {format_loc([*where, 'id'])} = {part.id!r}: this id is used twice")
            seen.add(part.id)
            fields = _character_fields(ruleset, part, source, base, where)
            try:
                data = ruleset.character.model_validate(fields)
            except ValidationError as exc:
                raise ScenarioError(validation_message(source, exc, where)) from None
            policy = part.policy or default_policy
            if policy != "human":
                try:
                    ruleset.policy(policy)
                except KonfliktError as exc:
                    raise ScenarioError(f"{source}: {format_loc([*where, 'policy'])} = {policy!r}: {exc}") from None
            name = part.name or fields.get("name") or part.id
            members.append(Participant(part.id, str(name), side.id, policy, data))
            inlined_members.append({"id": part.id, "name": str(name), "policy": policy, **_plain(fields)})
        sides.append(Side(side.id, side.name or side.id, side.goal, tuple(members)))
        inlined_sides.append(
            {k: v for k, v in {"id": side.id, "name": side.name, "goal": side.goal}.items() if v is not None}
            | {"participants": inlined_members}
        )
    gm = spec.gm or default_policy
    if gm != "human":
        try:
            ruleset.policy(gm)
        except KonfliktError as exc:
            raise ScenarioError(f"{source}: gm = {gm!r}: {exc}") from None
    try:
        setup = ruleset.setup.model_validate(spec.setup)
    except ValidationError as exc:
        raise ScenarioError(validation_message(source, exc, ["setup"])) from None

    document = {
        "ruleset": spec.ruleset,
        "title": spec.title,
        "description": spec.description,
        **({"seed": spec.seed} if spec.seed is not None else {}),
        "gm": gm,
        "options": dict(spec.options),
        "sides": inlined_sides,
        "setup": dict(spec.setup),
    }
    scenario = Scenario(
        ruleset,
        spec.title,
        spec.description,
        spec.seed,
        gm,
        dict(spec.options),
        tuple(sides),
        setup,
        source,
        document,
    )
    check = getattr(ruleset.setup, "check_scenario", None)
    if check is not None:
        try:
            check(setup, scenario)
        except KonfliktError as exc:
            raise ScenarioError(f"{source}: setup: {exc}") from None
    return scenario


def _character_fields(
    ruleset: Ruleset, part: ParticipantSpec, source: str, base: Path | None, where: list[str | int]
) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if part.character:
        path = _character_path(ruleset, part.character, base)
        if path is None or not path.exists():
            raise ScenarioError(f"{source}: {format_loc([*where, 'character'])} = {part.character!r}: no such file")
        fields.update(read_toml(path))
    fields.update(part.model_extra or {})
    if part.name:
        fields["name"] = part.name
    fields.setdefault("name", part.id)
    return fields


def _character_path(ruleset: Ruleset, ref: str, base: Path | None) -> Path | None:
    if ref.startswith("builtin:"):
        if ruleset.content_dir is None:
            return None
        name = ref.removeprefix("builtin:")
        return ruleset.content_dir / "characters" / (name if name.endswith(".toml") else name + ".toml")
    path = Path(ref)
    return path if path.is_absolute() or base is None else base / path


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
