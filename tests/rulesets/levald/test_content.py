"""Weapons, characters, scenarios and their errors; duels for every pair of weapons; rest between fights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konflikt.core.campaign import Rest
from konflikt.core.conflict import Conflict, new_state
from konflikt.core.ruleset import get_ruleset
from konflikt.core.scenario import load_scenario, scenario_from_document
from konflikt.errors import ScenarioError
from konflikt.rulesets.levald.campaign import CAMPAIGN
from konflikt.rulesets.levald.models import Character, bundled_weapons
from konflikt.rulesets.levald.rest import aftermath
from konflikt.rulesets.levald.scenarios import duel_document, duel_scenario, weapon_pairs
from konflikt.sim.runner import Generators, Runner, play_scenario, seat_policies
from tests.rulesets.levald.helpers import document, fighter, state_of

# The text's table, column by column: Vapen, Färdighet, Typ, Anfallsmod, Försvarsmod, Skada skyddad, Skada öppen,
# Vapenlängd, Stryktålighet, "Bra".
TABLE = [
    ("Spjut", "Stångvapen", "Lätt", 10, 10, "1T6", "3T6", "Spjut", 2, 13),
    ("Kortsvärd", "Enhandsvapen", "Lätt", 0, 0, "2T6", "3T6", "Svärd", 4, 12),
    ("Svärd", "Enhandsvapen", "Lätt", 0, 0, "3T6", "3T6", "Svärd", 4, 13),
    ("Långsvärd", "Enhandsvapen", "Tungt", 0, 0, "4T6", "3T6", "Stång", 4, 15),
    ("Sköld", "Enhandsvapen plus sköld", "Lätt + vapen", -10, 40, "4T6", "1T6", "Sköld", 3, 12),
    ("Trästav", "Stångvapen", "Lätt", 10, 10, "3T6", "1T6", "Stång", 2, 12),
]


def test_the_weapon_table_is_the_texts() -> None:
    rows = [
        (
            w.name,
            w.skill,
            w.type,
            w.attack_mod,
            w.defence_mod,
            w.damage_guarded,
            w.damage_open,
            w.length,
            w.durability,
            w.bra,
        )
        for w in bundled_weapons()
    ]
    assert rows == TABLE
    assert [w.shield for w in bundled_weapons()] == [False, False, False, False, True, False]


def test_bra_is_hidden_from_players_but_not_from_the_gm() -> None:
    state = state_of(document(fighter("a"), fighter("b"), "Fri"))
    assert "bra" not in state.view("a")["fighters"][0]["weapon"]
    assert state.view("@gm")["fighters"][0]["weapon"]["bra"] == 13


def test_bundled_examples_play_to_the_end() -> None:
    for name in ("levald/duel", "levald/one_against_two"):
        state = play_scenario(load_scenario(name), 3)
        assert state.is_terminal()


def test_the_duel_weapons_are_chosen_in_setup() -> None:
    scenario = load_scenario("levald/duel")
    doc = json.loads(json.dumps(scenario.document))
    doc["setup"]["wield"] = {"snurre": "Långsvärd", "hedda": "Trästav"}
    state = new_state(scenario_from_document(doc, "duel.toml"))
    assert [f.weapon.name for f in state.fighters] == ["Långsvärd", "Trästav"]


def test_a_duel_for_every_pair_of_weapons_at_equal_skill() -> None:
    pairs = weapon_pairs()
    assert len(pairs) == 36
    for wa, wb in pairs:
        scenario = duel_scenario(wa, wb, skill=55)
        state = new_state(scenario)
        assert [f.weapon.name for f in state.fighters] == [wa, wb]
        assert [f.skill for f in state.fighters] == [55, 55]
        Runner(seat_policies(scenario), Generators.from_seed(1)).play(state)
        assert state.is_terminal()


def test_a_user_weapons_file_is_read_and_inlined_for_saves(tmp_path: Path) -> None:
    (tmp_path / "vapen.toml").write_text(
        '[[weapon]]\nname = "Dolk"\nenglish = "dagger"\nskill = "Enhandsvapen"\ndamage_guarded = "1T6"\n'
        'damage_open = "2T6"\nlength = "Dolk"\n',
        encoding="utf-8",
    )
    doc = document(fighter("a", "Dolk"), fighter("b"), "Svärd", weapons_file="vapen.toml")
    scenario = scenario_from_document(doc, str(tmp_path / "fight.toml"))
    assert "weapons_file" not in scenario.document["setup"]
    assert scenario.document["setup"]["weapons"][0]["name"] == "Dolk"
    state = new_state(scenario)
    assert state.fighters[0].weapon.length == "Dolk"
    Runner(seat_policies(scenario), Generators.from_seed(2)).play(state)
    saved = json.loads(json.dumps(Conflict.of(state, scenario, {}, 2).to_json()))
    assert Conflict.from_json(saved).replay().outcome() == state.outcome()


def test_an_inline_weapon_in_the_character() -> None:
    claw = {"name": "Klo", "skill": "Enhandsvapen", "damage_guarded": "2T6", "damage_open": "4T6", "length": "Klo"}
    state = state_of(document(fighter("beast", claw), fighter("b"), "Fri"))
    assert state.fighters[0].weapon.name == "Klo"
    assert state.scale == ("Kropp", "Sköld", "Dolk", "Svärd", "Stång", "Spjut", "Klo", "Hugg", "Svans", "Fri")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"setup": {"distance": "Mil"}}, "setup.distance = 'Mil'"),
        ({"weapon": "Hillebard"}, "unknown weapon 'Hillebard'"),
        ({"skills": {"Stångvapen": 50}}, "has no such skill"),
        ({"styrka": 3}, "styrka"),
        ({"kraft": 0}, "kraft"),
        ({"setup": {"wield": {"nobody": "Svärd"}}}, "'nobody' is not a participant"),
        (
            {
                "setup": {
                    "weapons": [
                        {"name": "X", "skill": "S", "damage_guarded": "3d", "damage_open": "1T6", "length": "Svärd"}
                    ]
                }
            },
            "damage_guarded",
        ),
    ],
)
def test_scenario_errors_name_the_problem(change: dict, fragment: str) -> None:  # type: ignore[type-arg]
    a = fighter("a")
    change = dict(change)
    setup = change.pop("setup", {})
    a.update(change)
    doc = document(a, fighter("b"), "Svärd")
    doc["setup"].update(setup)
    with pytest.raises(ScenarioError, match=fragment):
        scenario_from_document(doc, "bad.toml")


def test_duel_document_is_a_plain_scenario_document() -> None:
    doc = duel_document("Spjut", "Sköld", skill=70, distance="Spjut")
    assert doc["sides"][0]["participants"][0]["skills"]["Stångvapen"] == 70
    assert doc["setup"] == {"distance": "Spjut"}
    json.dumps(doc)


def test_after_a_fight_and_rest() -> None:
    """The path a campaign plays: the aftermath carries the boxes and the Omtöckning (not Gard), and rest lowers
    Omtöckning one point a round down to one point per wound."""
    state = state_of(document(fighter("a"), fighter("b", gard_now=0), "Svärd"))
    state.daze[1], state.wounds[1] = 34, [0, 1, 1, 0, 0]
    carried = dict(aftermath(state).characters["b"])
    assert carried["daze"] == 34 and "gard_now" not in carried
    assert carried["wounds"] == {"skråma": 0, "lätt": 1, "allvarlig": 1, "kritisk": 0, "dödlig": 0}
    Character.model_validate({k: v for k, v in carried.items() if k not in ("id", "policy")})
    assert (
        CAMPAIGN.rest(carried, (), Rest(10, "rounds"), get_ruleset("levald").options.resolve()).document["daze"] == 24
    )
    assert (
        CAMPAIGN.rest(carried, (), Rest(100, "rounds"), get_ruleset("levald").options.resolve()).document["daze"] == 2
    )  # one point per wound stays
