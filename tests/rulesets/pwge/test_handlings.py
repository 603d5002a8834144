"""The text's points one by one: any handling, striking back first, the attribute, the scale, and the words used."""

from __future__ import annotations

import numpy as np
import pytest

from konflikt.core.actions import Action
from konflikt.core.scenario import scenario_from_document
from konflikt.core.state import SIMULTANEOUS
from konflikt.dice import SumDice
from konflikt.errors import ScenarioError
from konflikt.rulesets.pwge.policies import HeuristicPolicy
from tests.rulesets.pwge.helpers import FIGHTER, act, make, person, roll, texts

ANN, BO = 0, 1
SVARD, STAV, SPJUT, RANGE_1 = 2, 3, 4, 5


# ---- "Vad som helst som är en handling är giltigt, även om man inte behöver slå för den" --------------------------
@pytest.mark.through_cli
def test_vad_som_helst_som_ar_en_handling_ar_giltigt_costs_a_token_and_needs_no_roll() -> None:
    state = make()
    assert Action.of("other", target="bo", roll=False) in state.legal_actions()
    act(state, "other", target="bo", roll=False)
    assert state.tokens[ANN] == 5
    act(state, "no_counter")
    act(state, "no_response")
    assert not state.is_chance_node() and state.phase == "open"
    assert "Ann's handling (action) happens: the GM narrates what it does" in texts(state)


@pytest.mark.through_cli
def test_any_handling_can_be_countered_and_answered_like_any_action() -> None:
    state = make()
    act(state, "other", target="bo", roll=False)
    act(state, "counter")  # Bo tries to stop it: an opposed roll
    act(state, "respond", deed="attack", weapon="melee")
    assert state.ex is not None and state.ex.response is not None
    act(state, "no_counter")
    state.apply_actions({"ann": Action.of("no_order"), "bo": Action.of("no_order")})
    assert state.pending_roll() == SumDice(2, 6, 3, "T")  # Ann's handling: 2T + Styrka 3


@pytest.mark.through_cli
def test_a_handling_the_gm_wants_rolled_is_rolled_against_2t() -> None:
    state = make()
    act(state, "other", target="bo", roll=True)
    act(state, "no_counter")
    act(state, "no_response")
    assert state.pending_roll() == SumDice(2, 6, 3, "T")
    roll(state, 8)
    assert state.pending_roll() == SumDice(2, 6, 0, "T")


@pytest.mark.through_cli
def test_switching_weapons_changes_reach_and_bonus() -> None:
    """A swordsman at Spjut distance cannot reach; drawing the spear he carries, he attacks with its bonus."""
    state = make(person("ann", carried_weapons=["spjut"]), setup={"start_distance": "Spjut"})
    assert Action.of("attack", target="bo", weapon="melee") not in state.legal_actions()
    act(state, "switch", target="bo", weapon="spjut")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.people[ANN].melee_name == "Spjut" and state.people[ANN].carried == ("svard",)
    act(state, "pass")
    assert state.attack_mods(ANN, BO, "melee", SPJUT) == (3 + 1, 0, 2)


def test_a_carried_weapon_must_be_in_the_armoury() -> None:
    doc = {
        "ruleset": "pwge",
        "title": "t",
        "sides": [
            {"id": "a", "participants": [{"id": "x", **FIGHTER, "carried_weapons": ["lasersabel"]}]},
            {"id": "b", "participants": [{"id": "y", **FIGHTER}]},
        ],
    }
    with pytest.raises(ScenarioError, match="carried weapon 'lasersabel'"):
        scenario_from_document(doc, "f.toml")


# ---- "Man sätter ofta turordningen för att 'slå tillbaka först'" --------------------------------------------------
@pytest.mark.through_cli
def test_sla_tillbaka_forst_the_spear_meets_the_one_closing_in() -> None:
    """Ann (sword) closes from range 1 and lands at Spjut; Bo's spear reaches there: he may answer with an attack,
    buy order and strike first, at Spjut with the spear's bonus (before: only distance responses were offered)."""
    state = make(b=person("bo", melee_weapon="spjut"), setup={"start_distance": 1})
    act(state, "distance", target="bo", way="closer")
    act(state, "no_counter")
    assert Action.of("respond", deed="attack", weapon="melee") in state.legal_actions()
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    assert state.current_player() == SIMULTANEOUS
    state.apply_actions({"ann": Action.of("no_order"), "bo": Action.of("order")})
    assert state.ex is not None and state.ex.order == "response"
    assert state.pending_roll() == SumDice(2, 6, 3 + 1, "T")  # Styrka 3 + the spear's bonus at its length
    assert state.pair(ANN, BO) == RANGE_1  # the blow meets her as she comes in
    roll(state, 12, 2)
    assert state.pending_roll() == SumDice(1, 6, 2, "T")


@pytest.mark.through_cli
def test_a_countered_closing_is_not_met_at_the_landing() -> None:
    state = make(b=person("bo", melee_weapon="spjut"), setup={"start_distance": 1})
    act(state, "distance", target="bo", way="closer")
    act(state, "counter")
    assert Action.of("respond", deed="attack", weapon="melee") not in state.legal_actions()


@pytest.mark.through_cli
def test_the_heuristic_strikes_at_the_one_closing_in() -> None:
    state = make(b=person("bo", melee_weapon="spjut"), setup={"start_distance": 1})
    act(state, "distance", target="bo", way="closer")
    act(state, "no_counter")
    choice = HeuristicPolicy().choose(state, "bo", np.random.default_rng(0))
    assert choice == Action.of("respond", deed="attack", weapon="melee")


# ---- "vilken egenskap som bäst representerar den inställning till konflikten som man har valt" ---------------------
def test_the_seat_chooses_the_attribute_when_the_scenario_names_none() -> None:
    """Never silently the highest: a seat without an attribute chooses one first, and the pool follows from it."""
    free = {"id": "ann", "name": "Ann", "attributes": {"Styrka": 5, "Karisma": 2}, "melee_weapon": "svard"}
    state = make(free)
    assert state.phase == "attribute" and state.current_player() == "ann"
    assert set(state.legal_actions()) == {Action.of("attribute", name="Styrka"), Action.of("attribute", name="Karisma")}
    act(state, "attribute", name="Karisma")
    assert state.tokens[ANN] == 2 * 2 and state.people[ANN].roll == 2
    assert state.phase == "open"
    assert state.dry_order == ()  # the pools were empty only because nobody had chosen yet
    assert "Ann takes Karisma 2 as the egenskap (attribute) in use" in texts(state)


def test_the_heuristic_names_its_attribute_as_a_step() -> None:
    """The heuristic cannot judge an approach: it takes its highest attribute, and the log says that much, not that
    it "best fits the approach" (issue 43)."""
    free = {"id": "ann", "name": "Ann", "attributes": {"Styrka": 5, "Karisma": 2}, "melee_weapon": "svard"}
    state = make(free)
    choice = HeuristicPolicy().choose(state, "ann", np.random.default_rng(0))
    assert choice == Action.of("attribute", name="Styrka")
    state.apply_action(choice)
    said = [t for t in texts(state) if "egenskap" in t]
    assert said == ["Ann takes Styrka 5 as the egenskap (attribute) in use, the highest of 2"]
    assert not any("best fits" in t for t in texts(state))


# ---- a starting distance on the scale -------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["combat", "chase"])
def test_a_starting_distance_outside_the_scale_is_refused_with_the_scale_named(kind: str) -> None:
    setup = {"kind": kind, "start_distance": 13, "max_range": 12, **({"fleeing": "a"} if kind == "chase" else {})}
    doc = {
        "ruleset": "pwge",
        "title": "t",
        "sides": [
            {"id": "a", "participants": [{"id": "x", **FIGHTER}]},
            {"id": "b", "participants": [{"id": "y", **FIGHTER}]},
        ],
        "setup": setup,
    }
    with pytest.raises(
        ScenarioError, match=r"start_distance = 13 is outside the scale: melee Kropp…Spjut, then ranged"
    ):
        scenario_from_document(doc, "f.toml")


# ---- the words at the table ------------------------------------------------------------------------------------------
def test_every_roll_breaks_its_modifier_down() -> None:
    ann = person("ann", attributes={"Smidighet": 4}, attribute="Smidighet", skills={"Svärdskonst": 2},
                 fitting_skills=["Svärdskonst"])  # fmt: skip
    state = make(ann)
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    act(state, "no_response")
    assert (
        state.roll_purpose() == "Ann's anfall (attack) with Svärd: 2T+7 = Smidighet 4 + Svärdskonst 2 + Svärd 1 "
        "(at its length)"
    )
    roll(state, 12)
    assert state.roll_purpose() == "Bo's mothandling (counter): 2T+3 = Styrka 3"
    roll(state, 5)
    act(state, "accept")  # Bo, behind, does not top
    assert state.roll_purpose() == "Ann's skadeslag (damage roll): 1T+2 = Svärd 2"


ZORAK = {"id": "zorak", "name": "Zorak", "character": "builtin:zorak", "attribute": "Styrka",
         "fitting_skills": ["Pålvapen"], "policy": "random"}  # fmt: skip


def test_the_skill_follows_the_weapon_used_and_the_roll_names_the_weapon() -> None:
    """Zorak (Pålvapen 3, Strålvapen 2; only Pålvapen fits this fight) adds Pålvapen 3 and the lance's +2 to a
    lance thrust, and Strålvapen 2 to a ray-pistol shot — not his best fitting skill to every roll (issue 43). His
    counters still add the best fitting skill."""
    state = make(b=ZORAK, setup={"start_distance": "Spjut"})
    zorak = state.index["zorak"]
    assert state.attack_mods(zorak, ANN, "melee", 4) == (4 + 3 + 2, 0, 2)
    assert state.attack_mods(zorak, ANN, "ranged", 6) == (4 + 2, 2, 2)
    act(state, "pass")
    act(state, "attack", target="ann", weapon="ranged")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.roll_purpose() == "Zorak's anfall (attack) with Strålpistol: 2T+6 = Styrka 4 + Strålvapen 2"
    roll(state, 8, 12)  # at Spjut (range 0) against a difficulty of 2T
    assert "Zorak rolls the anfall (attack) with Strålpistol: 2T+6 = Styrka 4 + Strålvapen 2 → 8" in texts(state)
    act(state, "accept")
    assert "Zorak's anfall (attack) with Strålpistol fails (8 against 12; a tie holds for the defence)" in texts(state)
    act(state, "distance", target="zorak", way="closer")
    act(state, "counter")
    act(state, "no_response")
    roll(state, 5)
    assert state.roll_purpose() == "Zorak's mothandling (counter): 2T+7 = Styrka 4 + Pålvapen 3"


def test_an_attack_with_a_weapon_of_no_skill_the_character_has_adds_none() -> None:
    """Ann has only Svärdskonst: her sword thrust adds it, the stun pistol she carries adds nothing."""
    ann = person("ann", skills={"Svärdskonst": 2}, fitting_skills=["Svärdskonst"], ranged_weapon="bedovningspistol")
    state = make(ann)
    assert state.attack_mods(ANN, 1, "melee", 2) == (3 + 2 + 1, 0, 2)
    assert state.attack_mods(ANN, 1, "ranged", 6) == (3, 2, 1)
    assert state.people[ANN].roll == 3 + 2  # her counters and moves: the best fitting skill


def test_switching_weapons_takes_the_new_weapons_skill() -> None:
    ann = person("ann", skills={"Svärdskonst": 2, "Pålvapen": 4}, carried_weapons=["spjut"])
    state = make(ann, setup={"start_distance": "Spjut"})
    assert state.attack_mods(ANN, 1, "melee", 4) is None
    act(state, "switch", target="bo", weapon="spjut")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.people[ANN].melee_skill == ("Pålvapen", 4)
    assert state.attack_mods(ANN, 1, "melee", 4) == (3 + 4 + 1, 0, 2)


@pytest.mark.through_cli
def test_diplomacy_says_utspel_and_social_says_framstot() -> None:
    diplomatic = make(setup={"kind": "diplomatic"})
    social = make(setup={"kind": "social"})
    assert "utspel" in diplomatic.describe_action("ann", Action.of("press", target="bo"))
    assert "framstöt" in social.describe_action("ann", Action.of("press", target="bo"))
    act(social, "press", target="bo")
    act(social, "no_counter")
    act(social, "no_response")
    assert social.roll_purpose().startswith("Ann's framstöt (verbal thrust)")
    act(diplomatic, "press", target="bo")
    act(diplomatic, "counter")
    assert "Bo: mothandling (counter) — negerar utspelet (negates the move)" in texts(diplomatic)


def test_loses_1_token_not_1_tokens() -> None:
    state = make(b=person("bo", armour=2))
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12, 2, 3)  # 1T+2 = 3, − armour 2: 1 point, hurt: 1 token
    act(state, "accept")
    act(state, "accept")
    assert any("loses 1 token (6 → 5)" in t for t in texts(state))


# ---- more of the text, sentence by sentence ------------------------------------------------------------------------
def test_anfallshandlingar_ar_mojliga_in_a_chase() -> None:
    state = make(
        person("ann", ranged_weapon="stralpistol"),
        setup={"kind": "chase", "fleeing": "blue", "start_distance": 2},
    )
    assert Action.of("attack", target="bo", weapon="ranged") in state.legal_actions()


@pytest.mark.through_cli
def test_avstandet_mats_mellan_varje_par_av_kombattanter() -> None:
    """Stepping away from one foe leaves the distance to another unchanged."""
    state = make(extra_a=[person("cid")], setup={"start_distance": "Svärd"})
    bo = state.index["bo"]
    act(state, "pass")  # Ann
    act(state, "pass")  # Cid
    act(state, "distance", target="ann", way="farther")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.pair(ANN, bo) == RANGE_1
    assert state.pair(state.index["cid"], bo) == SVARD


@pytest.mark.through_cli
def test_unspent_experience_dice_kan_anvandas_precis_som_vanligt_after_the_conflict() -> None:
    """The aftermath keeps the dice not spent as tokens for their ordinary use."""
    from konflikt.rulesets.pwge.persist import aftermath

    state = make(person("ann", experience_dice=3), options={"experience_dice": True})
    act(state, "attack", target="bo", weapon="melee", pay="die")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 6, 12)
    act(state, "accept")
    act(state, "pass")
    act(state, "pass")
    after = aftermath(state)
    assert after.characters["ann"]["experience_dice"] == 2
    assert "Ann: 1 erfarenhetstärning (experience die) spent, 2 left" in after.lines


@pytest.mark.through_cli
def test_pools_not_yet_filled_have_not_run_dry() -> None:
    """Ann chooses first, Bo second: while Bo chooses, no pool is filled, yet none has run out."""
    ann = {"id": "ann", "name": "Ann", "attributes": {"Styrka": 1}}
    bo = {"id": "bo", "name": "Bo", "attributes": {"Styrka": 1}}
    state = make(ann, bo)
    act(state, "attribute", name="Styrka")
    assert state.phase == "attribute" and state.current_player() == "bo"
    act(state, "attribute", name="Styrka")
    assert state.dry_order == () and state.tokens == [2, 2]
