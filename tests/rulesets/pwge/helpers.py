"""Build small PWGE conflicts by hand and drive them step by step (no runner, no randomness)."""

from __future__ import annotations

from typing import Any

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, scenario_from_document
from konflikt.rulesets.pwge.state import PwgeState

FIGHTER: dict[str, Any] = {
    "attributes": {"Styrka": 3},
    "attribute": "Styrka",
    "melee_weapon": "svard",
    "body_points": 10,
}


def person(pid: str, **fields: Any) -> dict[str, Any]:
    return {"id": pid, "name": pid.capitalize(), "policy": "random", **FIGHTER, **fields}


def make(
    a: dict[str, Any] | None = None,
    b: dict[str, Any] | None = None,
    *,
    setup: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    extra_a: list[dict[str, Any]] | None = None,
) -> PwgeState:
    """Two sides, ``red`` (Ann, …) and ``blue`` (Bo): a 3-strength swordsman each unless told otherwise."""
    doc = {
        "ruleset": "pwge",
        "title": "test",
        "options": options or {},
        "sides": [
            {"id": "red", "participants": [a or person("ann"), *(extra_a or [])]},
            {"id": "blue", "participants": [b or person("bo")]},
        ],
        "setup": setup or {},
    }
    state = new_state(scenario_from_document(doc, "<test>"))
    assert isinstance(state, PwgeState)
    return state


def weak_diplomats(distance: int) -> Scenario:
    """Two heuristic diplomats of Styrka 1 and a fitting skill of 0 (a 2T + 1 roll, 4 tokens) at a diplomatic
    distance of ``distance``, with the text's suggestion: −(distance ÷ 2) on every move, so a move's total can fall
    below 0."""

    def diplomat(pid: str, other: str) -> dict[str, Any]:
        return {
            **person(pid, attributes={"Styrka": 1}, body_points=3),
            "policy": "heuristic",
            "skills": {"Tala": 0},
            "fitting_skills": ["Tala"],
            "diplomatic_distance": {other: distance},
        }

    doc = {
        "ruleset": "pwge",
        "title": "weak diplomats",
        "options": {"social_distance_and_damage": True},
        "sides": [
            {"id": "red", "participants": [diplomat("ann", "Bo")]},
            {"id": "blue", "participants": [diplomat("bo", "Ann")]},
        ],
        "setup": {"kind": "diplomatic"},
    }
    return scenario_from_document(doc, "weak_diplomats.toml")


def act(state: PwgeState, kind: str, **args: Any) -> None:
    state.apply_action(Action.of(kind, **args))


def roll(state: PwgeState, *totals: int) -> None:
    """Give the pending chance nodes these totals, in order."""
    for total in totals:
        assert state.is_chance_node(), f"expected a roll, but {state.current_player()} decides ({state.phase})"
        state.apply_action(total)


def texts(state: PwgeState) -> list[str]:
    return [e.text for e in state.history()]
