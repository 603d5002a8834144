"""A conflict is data: (scenario, option overrides, seed, steps). It serialises to JSON and replays exactly."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr, ValidationError

from konflikt.core.actions import Step
from konflikt.core.i18n import BILINGUAL, current
from konflikt.core.messages import _
from konflikt.core.scenario import Scenario, Seed, check_depth, scenario_from_document, validation_message
from konflikt.core.state import State
from konflikt.core.thousands import grouped
from konflikt.errors import KonfliktError, ReplayError, ScenarioError

FORMAT = "konflikt-conflict"
VERSION = 1


#: The largest conflict file or saved record read (a played conflict is a few hundred kB at most).
MAX_JSON_BYTES = 32 * 1024 * 1024


def parse_json(text: str | bytes, source: str) -> Any:
    """JSON from a file or a save, with every way it can fail as one :class:`ScenarioError`.

    Why not plain ``json.loads``: integers over 4,300 digits raise ``ValueError``, deep nesting ``RecursionError``,
    and neither is a ``JSONDecodeError``.
    """
    if not isinstance(text, str | bytes):
        raise ScenarioError(_("{source}: not JSON text ({kind})", source=source, kind=type(text).__name__))
    if len(text) > MAX_JSON_BYTES:
        raise ScenarioError(
            _(
                "{source}: {size} bytes, more than the {most} a conflict may have",
                source=source,
                size=grouped(len(text)),
                most=grouped(MAX_JSON_BYTES),
            )
        )
    try:
        value = json.loads(text)
    except RecursionError:
        raise ScenarioError(_("{source}: nested too deeply to be a konflikt file", source=source)) from None
    except UnicodeDecodeError:
        raise ScenarioError(_("{path}: not a UTF-8 text file", path=source)) from None
    except json.JSONDecodeError as exc:
        if current() not in ("en", BILINGUAL):  # the decoder's words are English; its place is not
            raise ScenarioError(
                _(
                    "{source}: not valid JSON at line {line}, column {column}",
                    source=source,
                    line=exc.lineno,
                    column=exc.colno,
                )
            ) from None
        raise ScenarioError(_("{source}: not valid JSON ({error})", source=source, error=exc)) from None
    except ValueError as exc:
        raise ScenarioError(_("{source}: not valid JSON ({error})", source=source, error=exc)) from None
    check_depth(value, source)
    return value


Overrides = dict[str, StrictStr | StrictBool | StrictInt | StrictFloat]


class PlayInfo(BaseModel):
    """How a conflict was being played at the table (an export's ``play`` section, a save's columns)."""

    model_config = ConfigDict(extra="forbid")

    dice: Literal["auto", "table", "players"] = "auto"  # players: each rolls on their own page (web)
    seats: dict[str, StrictStr] = Field(default_factory=dict)
    sources: list[StrictStr] = Field(default_factory=list)

    @classmethod
    def from_record(cls, data: Mapping[str, Any], source: str = "<conflict>") -> PlayInfo:
        """The ``play`` section of a checked conflict record (defaults when there is none).

        Raises:
            ScenarioError: a field of the wrong type, an unknown dice mode, or more sources than steps.
        """
        raw = data.get("play")
        try:
            info = cls() if raw is None else cls.model_validate(raw)
        except ValidationError as exc:
            raise ScenarioError(validation_message(source, exc, ["play"])) from None
        steps = data.get("steps", [])
        if isinstance(steps, list) and len(info.sources) > len(steps):
            raise ScenarioError(
                _(
                    "{source}: play.sources: {sources} sources for {steps} steps",
                    source=source,
                    sources=len(info.sources),
                    steps=len(steps),
                )
            )
        return info


class ConflictFile(BaseModel):
    """The shape of a conflict record (``export``, ``run --save``, a save's row), checked before it is used."""

    model_config = ConfigDict(extra="ignore")

    format: Literal["konflikt-conflict"]
    version: Literal[1]
    scenario: dict[str, Any]
    source: StrictStr = "<conflict>"
    overrides: Overrides = Field(default_factory=dict)
    seed: Seed
    steps: list[dict[str, Any]] = Field(default_factory=list)
    play: PlayInfo | None = None


def new_state(scenario: Scenario, overrides: Mapping[str, Any] | None = None) -> State:
    """The opening state: the scenario's options, then the overrides (``--option``), over the defaults."""
    options = scenario.ruleset.options.resolve(scenario.options, overrides or {})
    return scenario.ruleset.new_state(scenario, options)


@dataclass
class Conflict:
    """Everything needed to rebuild a conflict on any machine."""

    scenario: Scenario
    overrides: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    steps: list[Step] = field(default_factory=list)

    def start(self) -> State:
        return new_state(self.scenario, self.overrides)

    def replay(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` steps (all of them by default).

        Raises:
            ReplayError: a step is not legal where it stands (the record was altered or the rules changed).
        """
        state = self.start()
        for index, step in enumerate(self.steps[:upto]):
            try:
                state.apply_step(step)
            except (KonfliktError, TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
                # a step from a file or a save can hold anything: values of the wrong shape are a bad record too
                raise ReplayError(
                    _(
                        "step {index} ({step}) does not replay: {error}",
                        index=index,
                        step=json.dumps(step.to_json()),
                        error=exc,
                    )
                ) from None
        return state

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "scenario": dict(self.scenario.document),
            "source": self.scenario.source,
            "overrides": dict(self.overrides),
            "seed": self.seed,
            "steps": [s.to_json() for s in self.steps],
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "<conflict>") -> Conflict:
        """A conflict record checked field by field (the same scenario model as scenario files) before use.

        Raises:
            ScenarioError: not a conflict record, a field of the wrong type or out of range, a bad scenario or step.
        """
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise ScenarioError(
                _("{source}: not a konflikt conflict (format is not {format})", source=source, format=repr(FORMAT))
            )
        if data.get("version") != VERSION:
            raise ScenarioError(
                _(
                    "{source}: version = {version}: this konflikt reads version {known}",
                    source=source,
                    version=repr(data.get("version")),
                    known=VERSION,
                )
            )
        check_depth(data, source)
        try:
            record = ConflictFile.model_validate(data)
        except ValidationError as exc:
            raise ScenarioError(validation_message(source, exc)) from None
        scenario = scenario_from_document(record.scenario, _("{source} (scenario)", source=source))
        try:
            scenario.ruleset.options.resolve(scenario.options, record.overrides)
        except KonfliktError as exc:
            raise ScenarioError(f"{source}: overrides: {exc}") from None
        try:
            parsed = [Step.from_json(s) for s in record.steps]
        except KonfliktError as exc:
            raise ScenarioError(f"{source}: steps: {exc}") from None
        return cls(scenario, dict(record.overrides), record.seed, parsed)

    @classmethod
    def of(cls, state: State, scenario: Scenario, overrides: Mapping[str, Any], seed: int | None) -> Conflict:
        return cls(scenario, dict(overrides), seed, state.steps())
