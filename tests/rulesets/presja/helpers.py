"""Small builders for `presja` tests: scenarios from dicts, and driving a state by hand."""

from __future__ import annotations

from typing import Any

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario, scenario_from_document
from konflikt.rulesets.presja.state import PresjaState


def fighter(pid: str, **fields: Any) -> dict[str, Any]:
    """One participant (inline character fields), policy heuristic."""
    return {"id": pid, "policy": "heuristic", **fields}


def scenario(
    sides: list[list[dict[str, Any]]],
    options: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
    keep_edges: bool = False,
) -> PresjaState:
    """A state from inline sides (side ids s0, s1, ...), past the invocations for the order unless ``keep_edges``."""
    doc = {
        "ruleset": "presja",
        "title": "test",
        "options": options or {},
        "setup": setup or {},
        "sides": [{"id": f"s{k}", "participants": parts} for k, parts in enumerate(sides)],
    }
    state = new_state(scenario_from_document(doc, "test.toml"))
    assert isinstance(state, PresjaState)
    if not keep_edges:
        pass_edges(state)
    return state


def pass_edges(state: PresjaState) -> None:
    """Nobody invokes an aspect for the order of action."""
    while state.phase == "edge":
        act(state, "pass")


def duel(a: dict[str, Any], b: dict[str, Any], **options: Any) -> PresjaState:
    """Two participants; ``a`` acts first (Zmysły 1 against 0) unless told otherwise."""
    a = {"zmysly": 1, **a}
    return scenario([[fighter("a", **a)], [fighter("b", **b)]], options)


def knife_fight(**overrides: Any) -> PresjaState:
    state = new_state(load_scenario("presja/knife_fight"), overrides)
    assert isinstance(state, PresjaState)
    pass_edges(state)
    return state


def act(state: PresjaState, kind: str, **args: Any) -> None:
    state.apply_action(Action.of(kind, **args))


def roll(state: PresjaState, faces: str) -> None:
    """A 4dF roll as it fell at the table (``+ + 0 -``), typed as ``play --dice table`` takes it: faces and all.
    Whoever may still concede before this roll fights on (tests of that window answer it themselves)."""
    fight_on(state)
    dice = state.pending_roll()
    assert dice is not None
    outcome, fell = dice.read_faces(faces)
    state.apply_action(outcome, faces=fell)


def fight_on(state: PresjaState) -> None:
    """Nobody concedes before the next roll (the window "przed rzutem przeciwnika")."""
    while state.phase == "concede_window":
        act(state, "fight_on")


def pass_invocations(state: PresjaState) -> None:
    while state.phase == "invoke":
        act(state, "pass")


def kinds(state: PresjaState) -> list[str]:
    return [a.kind for a in state.legal_actions()]


def absorb_choices(state: PresjaState) -> set[tuple[str, str]]:
    return {(str(a["boxes"]), str(a["cons"])) for a in state.legal_actions() if a.kind == "absorb"}


def texts(state: PresjaState, kind: str) -> list[str]:
    return [e.text for e in state.history() if e.kind == kind]
