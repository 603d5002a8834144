"""The bundled scenarios: the four kinds, the content, and errors in files."""

from __future__ import annotations

import pytest

from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario, scenario_from_document
from konflikt.errors import ScenarioError
from konflikt.rulesets.pwge.models import armoury
from konflikt.rulesets.pwge.state import PwgeState
from konflikt.sim.runner import play_scenario


@pytest.mark.parametrize(
    ("name", "kind"),
    [("duel", "combat"), ("shootout", "combat"), ("chase", "chase"), ("negotiation", "diplomatic"), ("ball", "social")],
)
def test_each_scenario_plays_to_an_ending(name: str, kind: str) -> None:
    scenario = load_scenario(f"pwge/{name}")
    assert scenario.setup.kind == kind
    state = play_scenario(scenario, 3)
    assert state.outcome().ending in ("goal_reached", "pools_exhausted", "deadlock")
    assert any("spends 1 token (marker)" in e.text for e in state.history())


def test_the_shootout_starts_at_range_and_can_close_to_melee() -> None:
    state = new_state(load_scenario("pwge/shootout"))
    assert isinstance(state, PwgeState)
    assert all(code > 4 for code in state.dist.values())
    closed = any(
        any(
            e.kind == "moved" and e.data["after"] <= 4
            for e in play_scenario(load_scenario("pwge/shootout"), s).history()
        )
        for s in range(4)
    )
    assert closed


def test_a_ray_pistol_is_among_the_weapons() -> None:
    assert armoury().ranged["stralpistol"].gloss.startswith("ray pistol")
    lengths = {w.length for w in armoury().melee.values()}
    assert lengths == {"Kropp", "Dolk", "Svärd", "Stav", "Spjut"}


def _doc(**setup: object) -> dict[str, object]:
    fighter = {"attributes": {"Styrka": 3}}
    return {
        "ruleset": "pwge",
        "title": "t",
        "sides": [
            {"id": "a", "participants": [{"id": "x", **fighter}]},
            {"id": "b", "participants": [{"id": "y", **fighter}]},
        ],
        "setup": setup,
    }


def test_a_chase_needs_a_fleeing_side() -> None:
    with pytest.raises(ScenarioError, match="needs fleeing"):
        scenario_from_document(_doc(kind="chase"), "f.toml")


def test_unknown_weapon_names_the_field() -> None:
    doc = _doc()
    doc["sides"][0]["participants"][0]["melee_weapon"] = "lasersabel"  # type: ignore[index]
    with pytest.raises(ScenarioError, match=r"participants\[0\].*melee weapon 'lasersabel'"):
        scenario_from_document(doc, "f.toml")


def test_attribute_out_of_scale_is_refused() -> None:
    doc = _doc()
    doc["sides"][0]["participants"][0]["attributes"] = {"Styrka": 9}  # type: ignore[index]
    with pytest.raises(ScenarioError, match="outside 1–6"):
        scenario_from_document(doc, "f.toml")
