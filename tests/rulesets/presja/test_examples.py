"""The bundled scenarios: the text's knife fight and the two-against-three skirmish both play to the end."""

from __future__ import annotations

import pytest

from konflikt.core.scenario import load_scenario
from konflikt.rulesets.presja.options import ADVANTAGE_KINDS
from konflikt.sim.runner import play_scenario


def test_knife_fight_is_the_texts_fight() -> None:
    scenario = load_scenario("presja/knife_fight")
    belzee, massimo = (p.data for p in scenario.participants())
    assert (belzee.skill, belzee.weapon_data().damage, belzee.armour_data().absorption) == (2, 1, 0)
    assert (massimo.skill, massimo.weapon_data().damage) == (3, 1)
    assert not scenario.options


def test_skirmish_is_two_against_three_over_zones_with_every_advantage_on() -> None:
    scenario = load_scenario("presja/skirmish")
    assert [len(s.participants) for s in scenario.sides] == [2, 3]
    assert len(scenario.setup.zones) == 3 and scenario.setup.adjacent
    for _, name, _ in ADVANTAGE_KINDS:
        assert scenario.options[name] in (True, "auto"), name
    assert scenario.options["surprise"] is True and scenario.options["advantage_weapon_quality"] is True


@pytest.mark.mutation_slow
@pytest.mark.parametrize("name", ["presja/knife_fight", "presja/skirmish"])
def test_examples_play_to_the_end_with_a_narrated_log(name: str) -> None:
    for seed in range(3):
        state = play_scenario(load_scenario(name), seed)
        outcome = state.outcome()
        assert outcome.ending in ("taken_out", "conceded", "taken_out_and_conceded", "all_out", "deadlock")
        texts = [e.text for e in state.history()]
        assert any("Atak (attack)" in t for t in texts)
        assert texts[-1] == outcome.summary


def test_every_legal_action_reads_back_from_its_text() -> None:
    import numpy as np

    from konflikt.core.actions import Action
    from konflikt.core.conflict import new_state
    from konflikt.core.state import CHANCE

    rng = np.random.default_rng(3)
    for _ in range(3):
        state = new_state(load_scenario("presja/skirmish"))
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(state.pending_roll().sample(rng))  # type: ignore[union-attr]
                continue
            legal = state.legal_actions()
            for action in legal:
                assert Action.parse(str(action)) == action, str(action)
                assert state.describe_action(state.current_player(), action)
            state.apply_action(legal[int(rng.integers(len(legal)))])
