"""A conflict is data: (scenario, option overrides, seed, steps). It serialises to JSON and replays exactly."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from konflikt.core.actions import Step
from konflikt.core.errors import KonfliktError, ReplayError, ScenarioError
from konflikt.core.scenario import Scenario, scenario_from_document
from konflikt.core.state import State

FORMAT = "konflikt-conflict"
VERSION = 1


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
            except KonfliktError as exc:
                raise ReplayError(f"step {index} ({json.dumps(step.to_json())}) does not replay: {exc}") from None
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
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise ScenarioError(f"{source}: not a konflikt conflict (format is not {FORMAT!r})")
        if data.get("version") != VERSION:
            raise ScenarioError(f"{source}: version = {data.get('version')!r}: this konflikt reads version {VERSION}")
        scenario = scenario_from_document(data["scenario"], f"{source} (scenario)")
        steps = data.get("steps", [])
        if not isinstance(steps, list):
            raise ScenarioError(f"{source}: steps: not a list")
        try:
            parsed = [Step.from_json(s) for s in steps]
        except KonfliktError as exc:
            raise ScenarioError(f"{source}: steps: {exc}") from None
        seed = data.get("seed")
        return cls(scenario, dict(data.get("overrides", {})), seed if isinstance(seed, int) else None, parsed)

    @classmethod
    def of(cls, state: State, scenario: Scenario, overrides: Mapping[str, Any], seed: int | None) -> Conflict:
        return cls(scenario, dict(overrides), seed, state.steps())
