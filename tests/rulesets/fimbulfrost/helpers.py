"""Building fimbulfrost conflicts inline and driving them step by step with chosen actions and dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, scenario_from_document
from konflikt.dice import PoolRoll
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState

CHARS = Path(__file__).parents[3] / "src/konflikt/rulesets/fimbulfrost/content/characters"


def hero(pid: str, **fields: Any) -> dict[str, Any]:
    return {"id": pid, "policy": "heuristic", **fields}


def doc(
    heroes: list[dict[str, Any]] | None = None,
    opponent: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A scenario document: by default the text's example (Budolf and Rudolf against the robbers)."""
    return {
        "ruleset": "fimbulfrost",
        "title": "test",
        "options": options or {},
        "setup": setup or {},
        "sides": [
            {
                "id": "helte",
                "participants": heroes
                or [hero("budolf", character="builtin:budolf"), hero("rudolf", character="builtin:rudolf")],
            },
            {"id": "fjende", "participants": [opponent or hero("roeverne", character="builtin:roeverbanden")]},
        ],
    }


def scenario(source: str = "test.toml", **kwargs: Any) -> Scenario:
    return scenario_from_document(doc(**kwargs), source, base=Path(source).parent)


def start(**kwargs: Any) -> FimbulfrostState:
    state = new_state(scenario(**kwargs))
    assert isinstance(state, FimbulfrostState)
    return state


def act(state: FimbulfrostState, kind: str, **args: Any) -> None:
    state.apply_action(Action.of(kind, **args))


def roll(state: FimbulfrostState, successes: int, ones: int = 0) -> None:
    state.apply_action(PoolRoll(successes, ones))


def faces(state: FimbulfrostState, text: str) -> None:
    """Dice as they fell at the table, e.g. '6 5 1'."""
    dice = state.pending_roll()
    assert dice is not None
    outcome, fell = dice.read_faces(text)
    state.apply_action(outcome, faces=fell)


def present_each_other(state: FimbulfrostState) -> None:
    """The example's presentations: Budolf presents Rudolf, Rudolf presents Budolf."""
    act(state, "present", by="rudolf")
    act(state, "present", by="budolf")


def to_round2(state: FimbulfrostState, b: int = 1, r: int = 1, robbers: int = 0) -> None:
    """Round 1 of the example with Budolf's and Rudolf's successes all on the robbers, then the robbers' answer."""
    present_each_other(state)
    roll(state, b)
    roll(state, r)
    if b and state.current_player() == "budolf":
        act(state, "split", opponent=b)
    if r and state.current_player() == "rudolf":
        act(state, "split", opponent=r)
    roll(state, robbers)
    if robbers and state.current_player() == "roeverne":
        act(state, "hit", budolf=robbers)


def sigrun_and_rudolf_in_round2(options: dict[str, Any] | None = None) -> FimbulfrostState:
    """Sigrun and Rudolf against the robbers, presented to each other, through a round 1 where nobody succeeds."""
    sigrun = hero("sigrun", character="builtin:sigrun")
    state = start(heroes=[sigrun, hero("rudolf", character="builtin:rudolf")], options=options)
    act(state, "present", by="rudolf")
    act(state, "present", by="sigrun")
    for _ in range(3):
        roll(state, 0)
    return state


def budolf_below_0_in_round1(options: dict[str, Any] | None = None) -> FimbulfrostState:
    """Budolf (Status 1) and Rudolf against the dragon: round 1 rolled (nobody succeeds but the dragon, 12) and the
    dragon's 12 points on Budolf, who is then asked for his consequences."""
    state = start(
        heroes=[hero("budolf", character="builtin:budolf", status=1), hero("rudolf", character="builtin:rudolf")],
        opponent=hero("dragen", character="builtin:drage"),
        options=options,
    )
    present_each_other(state)
    roll(state, 0)
    roll(state, 0)
    roll(state, 12)
    act(state, "hit", budolf=12)
    return state


ALL = {"stil": True, "stunt": True, "snak": True}
"""A round-2 description with Stil, Stunt and Snak all in it."""
NONE = {"stil": False, "stunt": False, "snak": False}
"""A round-2 description with none of the three."""
