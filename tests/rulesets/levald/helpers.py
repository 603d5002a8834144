"""Build Le våld states from small inline scenario documents, and drive them step by step."""

from __future__ import annotations

from typing import Any

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.scenario import scenario_from_document
from konflikt.rulesets.levald.state import LevaldState

SKILLS = {"Enhandsvapen": 60, "Stångvapen": 60, "Enhandsvapen plus sköld": 60}


def fighter(pid: str, weapon: Any = "Svärd", **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": pid,
        "name": pid.capitalize(),
        "policy": "heuristic",
        "kraft": 12,
        "själ": 16,
        "stridsvana": 50,
        "gard": 12,
        "weapon": weapon,
        "skills": dict(SKILLS),
    }
    data.update(fields)
    return data


def document(
    a: dict[str, Any] | list[dict[str, Any]],
    b: dict[str, Any] | list[dict[str, Any]],
    distance: str = "Svärd",
    options: dict[str, Any] | None = None,
    **setup: Any,
) -> dict[str, Any]:
    side_a = a if isinstance(a, list) else [a]
    side_b = b if isinstance(b, list) else [b]
    return {
        "ruleset": "levald",
        "title": "test",
        "options": options or {},
        "setup": {"distance": distance, **setup},
        "sides": [
            {"id": "left", "name": "Left", "participants": side_a},
            {"id": "right", "name": "Right", "participants": side_b},
        ],
    }


def state_of(doc: dict[str, Any], overrides: dict[str, Any] | None = None) -> LevaldState:
    state = new_state(scenario_from_document(doc, "test.toml"), overrides or {})
    assert isinstance(state, LevaldState)
    return state


def move(state: LevaldState, **wishes: str) -> None:
    state.apply_actions({seat: Action.of(kind) for seat, kind in wishes.items()})


def act(state: LevaldState, kind: str, **args: Any) -> None:
    state.apply_action(Action.of(kind, **args))


def roll(state: LevaldState, *outcomes: int) -> None:
    for outcome in outcomes:
        state.apply_action(outcome)


def texts(state: LevaldState) -> str:
    return "\n".join(e.text for e in state.history())
