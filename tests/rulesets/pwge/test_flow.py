"""Endings, the order of resolution, surprise, and the four kinds of conflict."""

from __future__ import annotations

import pytest

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import RandomPolicy
from konflikt.core.scenario import load_scenario, scenario_from_document
from konflikt.core.state import GM
from konflikt.dice import SumDice
from konflikt.rulesets.pwge import RULESET
from konflikt.rulesets.pwge.models import Character
from konflikt.rulesets.pwge.state import PwgeState
from konflikt.sim.runner import Generators, Runner
from tests.rulesets.pwge.helpers import act, make, person, roll, texts

ANN, BO = 0, 1


# ---- endings -----------------------------------------------------------------------------------------------------
def three_sides(options: dict[str, object]) -> PwgeState:
    """Ann (red) and Bo (blue) of 6 tokens; Cy (green) of 2 spends his last on a top of his attack on Ann."""
    doc = {
        "ruleset": "pwge",
        "title": "test",
        "options": options,
        "setup": {},
        "sides": [
            {"id": "red", "participants": [person("ann")]},
            {"id": "blue", "participants": [person("bo")]},
            {"id": "green", "participants": [person("cy", attributes={"Styrka": 1})]},
        ],
    }
    state = new_state(scenario_from_document(doc, "<test>"))
    assert isinstance(state, PwgeState) and state.tokens == [6, 6, 2]
    act(state, "pass")
    act(state, "pass")
    act(state, "attack", target="ann", weapon="melee")  # Cy: 1 token left
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 4, 12)  # Cy's attack behind the difficulty
    act(state, "top")  # Cy's last token
    roll(state, 4)
    assert state.tokens[2] == 0 and state.dry_order == ((2,),)
    return state


def test_read_word_for_word_the_first_side_to_run_dry_ends_a_three_sided_conflict() -> None:
    """ "Detta upprepas tills en eller fler sidor tömmer sina handlingspölar", word for word (first_dry_side_ends):
    Cy's side has run dry, the conflict ends, and both sides still able to act have won."""
    state = three_sides({"first_dry_side_ends": True})
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == ("pools_exhausted", ("red", "blue"))
    assert outcome.summary.startswith("green ran out of tokens first: lost the conflict, but red and blue's goals")
    assert three_sides({}).ending is None


@pytest.mark.through_cli
def test_with_three_sides_the_others_go_on_when_one_sides_pool_runs_out() -> None:
    """By default (the text's endings speak of two sides) a third side whose pool runs out drops out of the
    choosing and the two others go on."""
    state = three_sides({})
    assert state.ending is None and state.phase == "open" and state.current_player() == "ann"
    act(state, "pass")
    assert state.current_player() == "bo"  # Cy, with no token, is not given the floor


@pytest.mark.through_cli
def test_deadlock_when_nobody_wants_to_act() -> None:
    state = make()
    act(state, "pass")
    assert state.current_player() == "bo"
    act(state, "pass")
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == ("deadlock", ())
    assert "nobody wants to start a new action" in outcome.summary


@pytest.mark.through_cli
def test_an_action_resets_the_passes() -> None:
    state = make()
    act(state, "pass")
    act(state, "distance", target="ann", way="closer")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.passes == 0 and state.current_player() == "ann"


def test_one_sides_pools_run_out_first() -> None:
    state = make()
    state.tokens[ANN] = 1
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 6, 12)  # a miss; Ann has no token to top
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == ("pools_exhausted", ("blue",))
    assert "live and fight another day" in outcome.summary


def test_ena_sidans_handlingspol_tar_slut_fore_den_andra_sidans_within_the_exchange() -> None:
    """Ann spends her last token on the action, then Bo his on the counter: both pools are empty when the exchange
    ends, but Ann's ran out first — her side has lost (before: a deadlock)."""
    state = make()
    state.tokens[ANN] = 1
    state.tokens[BO] = 1
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    roll(state, 6, 12)
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == ("pools_exhausted", ("blue",))
    assert outcome.summary.startswith("in this exchange, red ran out of tokens first")


def test_two_pools_emptied_together_by_the_order_bids_remain_a_deadlock() -> None:
    state = make()
    state.tokens[ANN] = 2
    state.tokens[BO] = 2
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    state.apply_actions({"ann": Action.of("order"), "bo": Action.of("order")})
    assert state.tokens == [0, 0] and state.dry_order == ((0, 1),)
    roll(state, 9, 8)  # the order roll: Ann first
    roll(state, 6, 12)  # Ann misses
    roll(state, 6, 12)  # Bo misses
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == ("deadlock", ())
    assert "ran out together" in outcome.summary


@pytest.mark.through_cli
def test_a_double_knock_out_by_simultaneous_blows_is_a_deadlock() -> None:
    """ "En handling och dess svarshandling inträffar samtidigt": Ann's blow and Bo's answer land together and fell
    both. Nobody is left standing and neither fell first: "båda sidorna gör slut på sina handlingspölar … så har man
    nått ett dödläge" (before: whoever the program resolved second won)."""
    state = make(person("ann", body_points=3), person("bo", body_points=3))
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    state.apply_actions({"ann": Action.of("no_order"), "bo": Action.of("no_order")})
    roll(state, 12, 2, 6)  # Ann hits: 6 damage
    act(state, "accept")
    act(state, "accept")
    assert state.out[BO] and not state.is_terminal(), "Bo's answer still happens: it is simultaneous"
    roll(state, 12, 2, 6)  # Bo hits back at the same moment
    act(state, "accept")
    assert state.out == [True, True]
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == ("deadlock", ())
    assert state.dry_order == ((0, 1),)
    assert "together" in outcome.summary


def test_pools_emptied_by_simultaneous_deeds_run_dry_together() -> None:
    """Each blow costs its target its last tokens (a Skråma, −2): both pools empty in the same moment, a deadlock;
    with the order bought the first blow empties its target's pool first, and that side has lost."""
    for order, expected in (("no_order", ("deadlock", ())), ("order", ("pools_exhausted", ("red",)))):
        state = make()
        state.tokens[ANN] = state.tokens[BO] = 3
        act(state, "attack", target="bo", weapon="melee")
        act(state, "no_counter")
        act(state, "respond", deed="attack", weapon="melee")
        act(state, "no_counter")
        state.apply_actions({"ann": Action.of(order), "bo": Action.of("no_order")})
        roll(state, 12, 2, 3)  # Ann hits: 1T + 2 = 3 damage, a Skråma
        act(state, "accept")  # Ann keeps it
        act(state, "accept")  # Bo does not counter-top: −2, his last tokens
        roll(state, 12, 2, 3)  # Bo, still standing, hits back: a Skråma for Ann
        act(state, "accept")  # Ann does not counter-top: her last tokens
        assert state.tokens == [0, 0]
        outcome = state.outcome()
        assert (outcome.ending, outcome.winners) == expected, order


# ---- order of resolution -----------------------------------------------------------------------------------------
def _exchange_of_blows(order: dict[str, str]) -> PwgeState:
    state = make(person("ann", body_points=3))
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    state.apply_actions({seat: Action.of(choice) for seat, choice in order.items()})
    return state


@pytest.mark.through_cli
def test_bought_order_strikes_first_and_a_fallen_actor_does_not_act() -> None:
    state = _exchange_of_blows({"ann": "no_order", "bo": "order"})
    roll(state, 12, 2)  # Bo's response hits first
    roll(state, 6)
    act(state, "accept")  # Bo keeps 6
    act(state, "accept")  # Ann does not counter-top
    assert state.out[ANN]
    assert any("does not happen: Ann is out" in t for t in texts(state))
    assert state.body[BO] == 10


@pytest.mark.through_cli
def test_simultaneous_action_and_response_both_resolve() -> None:
    state = _exchange_of_blows({"ann": "no_order", "bo": "no_order"})
    roll(state, 12, 2)  # Ann's action first in the log, but at the same time
    roll(state, 3)
    act(state, "accept")
    act(state, "accept")
    roll(state, 12, 2)  # Bo's response
    roll(state, 6)
    act(state, "accept")
    act(state, "accept")
    assert state.out[ANN] and state.body[BO] == 7


@pytest.mark.through_cli
def test_ordered_distance_change_first_takes_the_attacker_out_of_reach() -> None:
    state = make()
    act(state, "distance", target="bo", way="farther")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    state.apply_actions({"ann": Action.of("order"), "bo": Action.of("no_order")})
    assert state.pair(ANN, BO) == 5
    assert any("cannot reach Ann" in t for t in texts(state))
    assert state.phase == "open"


@pytest.mark.through_cli
def test_simultaneous_attack_sees_the_distance_as_declared() -> None:
    state = make()
    act(state, "distance", target="bo", way="farther")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    state.apply_actions({"ann": Action.of("no_order"), "bo": Action.of("no_order")})
    assert state.pair(ANN, BO) == 5
    assert state.is_chance_node()  # Bo's sword blow still lands at Svärd, as declared


# ---- weapons and distance ----------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_ranged_difficulties_by_distance() -> None:
    pistol = person("ann", ranged_weapon="stralpistol")  # Kort 3, Max 6
    for start, notation in [(2, "2T+2"), (5, "2T+4"), (6, "2T+4")]:
        state = make(pistol, setup={"start_distance": start})
        act(state, "attack", target="bo", weapon="ranged")
        act(state, "no_counter")
        act(state, "no_response")
        roll(state, 10)
        assert str(state.pending_roll()) == notation
    state = make(pistol, setup={"start_distance": 7})
    assert Action.of("attack", target="bo", weapon="ranged") not in state.legal_actions()


def test_dodging_a_ranged_attack_keeps_the_range_difficulty() -> None:
    state = make(person("ann", ranged_weapon="stralpistol"), setup={"start_distance": 5})
    act(state, "attack", target="bo", weapon="ranged")
    act(state, "counter")
    act(state, "no_response")
    roll(state, 10)
    assert state.pending_roll() == SumDice(2, 6, 3 + 4, "T")


def test_spear_at_sword_distance_attacks_without_bonus_dagger_cannot() -> None:
    state = make(
        person("ann", melee_weapon="spjut"), person("bo", melee_weapon="dolk"), setup={"start_distance": "Svärd"}
    )
    assert state.attack_mods(ANN, BO, "melee", 2) == (3, 0, 2)
    assert state.attack_mods(BO, ANN, "melee", 2) is None
    bo_moves = [a for a in state.deeds_against(BO, ANN) if a.kind == "attack"]
    assert bo_moves == []


@pytest.mark.through_cli
def test_closing_from_range_1_arrives_at_the_spear() -> None:
    state = make(b=person("bo", melee_weapon="spjut"), setup={"start_distance": 1})
    act(state, "distance", target="bo", way="closer")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.pair(ANN, BO) == 4  # Spjut


# ---- surprise ----------------------------------------------------------------------------------------------------
def test_without_a_surprise_every_pair_starts_at_the_setups_distance_svard_by_default() -> None:
    """konflikt's own: the text lets only a surpriser choose where a fight starts; otherwise [setup] start_distance,
    Svärd unless told, for every pair of foes."""
    state = make(extra_a=[person("cy")])
    assert set(state.dist.values()) == {2} and len(state.dist) == 2  # Kropp 0, Dolk 1, Svärd 2
    assert make(setup={"start_distance": 3}).pair(ANN, BO) == 7  # range 3


@pytest.mark.through_cli
def test_surprise_start_distance_and_free_attack_without_response() -> None:
    state = make(setup={"surprise": "red", "start_distance": 5})
    assert state.current_player() == "ann" and state.phase == "surprise_distance"
    act(state, "start", distance=2)
    assert state.pair(ANN, BO) == 2
    act(state, "free_attack", target="bo", weapon="melee")
    assert state.tokens[ANN] == 6  # free
    assert state.current_player() == "bo" and {a.kind for a in state.legal_actions()} == {"counter", "no_counter"}
    act(state, "no_counter")
    assert state.is_chance_node()  # no response was offered
    roll(state, 6, 10)
    act(state, "top")  # topping the free attack costs as usual
    assert state.tokens[ANN] == 5


# ---- chases, diplomacy, social -----------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_chase_escape_and_capture() -> None:
    state = make(setup={"kind": "chase", "fleeing": "red", "start_distance": 5, "escape_distance": 6})
    act(state, "distance", target="bo", way="farther")
    act(state, "no_counter")
    act(state, "no_response")
    assert (state.outcome().ending, state.outcome().winners) == ("goal_reached", ("red",))
    state = make(setup={"kind": "chase", "fleeing": "red", "start_distance": 1})
    act(state, "pass")
    act(state, "distance", target="ann", way="closer")
    act(state, "no_counter")
    act(state, "no_response")
    assert (state.outcome().ending, state.outcome().winners) == ("goal_reached", ("blue",))


@pytest.mark.through_cli
def test_diplomacy_avstand_andras_i_princip_aldrig_och_man_slar_i_princip_aldrig_skada() -> None:
    """By default a diplomatic conflict has no distance actions, no distance penalty and no damage: moves won carry
    the point (before: distance moves and −(distance ÷ 2) on every move)."""
    lyra = person("bo", diplomatic_distance={"Ann": 7})
    state = make(b=lyra, setup={"kind": "diplomatic", "goal_successes": 1})
    assert {a.kind for a in state.legal_actions()} == {"press", "other", "pass"}
    act(state, "press", target="bo")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.pending_roll() == SumDice(2, 6, 3, "T")  # no distance penalty
    roll(state, 9, 5)
    assert (state.outcome().ending, state.outcome().winners) == ("goal_reached", ("red",))
    assert not any("kroppspoäng" in word for word in state.status()["ann"])


def test_ju_langre_avstandet_desto_svarare_att_forhandla_with_the_suggestion() -> None:
    lyra = person("bo", diplomatic_distance={"Ann": 7})
    state = make(b=lyra, setup={"kind": "diplomatic"}, options={"social_distance_and_damage": True})
    assert Action.of("distance", target="bo", way="closer") in state.legal_actions()
    act(state, "press", target="bo")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.pending_roll() == SumDice(2, 6, 3 - 3, "T")  # −(7 ÷ 2)
    assert "− 3 diplomatiskt avstånd (diplomatic distance) 7" in state.roll_purpose()


def test_sociala_konflikter_skada_och_avstand_inte_aktuellt() -> None:
    state = make(setup={"kind": "social"})
    assert {a.kind for a in state.legal_actions()} == {"press", "other", "pass"}
    assert not state.tracks_body()
    assert not any(key.startswith("avstånd") for key in state.status())
    assert not any("avstånd" in t for t in texts(state))


@pytest.mark.through_cli
def test_social_kroppspoang_bestams_precis_som_vanligt_and_damage_is_1t_plus_ammunition() -> None:
    """With the suggestion, the social body points are as many as the physical ones (here 4), not free data."""
    state = make(
        person("ann", ammunition=2),
        person("bo", body_points=4),
        setup={"kind": "social"},
        options={"social_distance_and_damage": True},
    )
    assert state.body[BO] == 4
    act(state, "press", target="bo")
    act(state, "no_counter")
    act(state, "no_response")
    assert state.pending_roll() == SumDice(2, 6, 3, "T")  # no distance penalty in a social conflict
    roll(state, 12, 2)
    assert state.pending_roll() == SumDice(1, 6, 2, "T")  # 1T + ammunition
    roll(state, 5)
    act(state, "accept")
    act(state, "accept")
    assert state.out[BO] and state.outcome().winners == ("red",)
    said = " ".join(texts(state))
    assert "sociala kroppspoäng" in said
    for wound in ("Skråma", "Sårad", "Allvarligt", "Medvetslös", "kroppspoäng (body points)"):
        assert wound not in said


@pytest.mark.through_cli
def test_sociala_och_diplomatiska_avstand_kvarstar_mellan_varje_konflikt() -> None:
    """The aftermath hook writes the distance as it ended into both characters, and the documents load back."""
    state = make(setup={"kind": "social", "relation_distance": 4}, options={"social_distance_and_damage": True})
    act(state, "distance", target="bo", way="closer")
    act(state, "no_counter")
    act(state, "no_response")
    act(state, "pass")
    act(state, "pass")
    after = RULESET.aftermath(state) if RULESET.aftermath else None
    assert after is not None
    assert after.characters["ann"]["social_distance"] == {"Bo": 3}
    assert after.characters["bo"]["social_distance"] == {"Ann": 3}
    assert (
        after.lines[0]
        == "Ann–Bo: socialt avstånd (social distance) 4 → 3 of 0–10, kvarstår (kept) for the next conflict"
    )
    again = make(
        {"id": "ann", "name": "Ann", **after.characters["ann"]},
        {"id": "bo", "name": "Bo", **after.characters["bo"]},
        setup={"kind": "social"},
        options={"social_distance_and_damage": True},
    )
    assert again.pair(ANN, BO) == 3


@pytest.mark.through_cli
def test_without_the_suggestion_no_distance_is_written_into_the_characters() -> None:
    """A social conflict with ``social_distance_and_damage`` off has no distance in play ("Off: no distance"): the
    aftermath wrote the default start distance (5) into both characters and said "still 5 … kvarstår", so a later
    scenario's own start distance was overridden by a number no conflict had set. Now the documents keep what they
    held, and no distance line is said."""
    state = make(setup={"kind": "social", "relation_distance": 4})
    assert not state.distance_in_play()
    act(state, "pass")
    act(state, "pass")
    after = RULESET.aftermath(state) if RULESET.aftermath else None
    assert after is not None and state.is_terminal()
    assert after.characters["ann"]["social_distance"] == {} and after.characters["bo"]["social_distance"] == {}
    assert not any("avstånd" in line for line in after.lines), after.lines


def test_physical_body_points_lost_in_a_fight_are_carried_to_the_next() -> None:
    """Only the diplomatic and social kroppspoäng "återställs … mellan varje konflikt"; the physical ones, "de som
    man blir av med genom att få fysiskt stryk", stay lost (before: every conflict started at full body points)."""
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 14, 2, 8)  # the attack beats 2T; the skadeslag 8 against no armour
    act(state, "accept")
    act(state, "accept")
    assert state.body[BO] == 2
    after = RULESET.aftermath(state) if RULESET.aftermath else None
    assert after is not None
    assert after.characters["bo"]["body_points"] == 10 and after.characters["bo"]["damage_taken"] == 8
    assert after.characters["ann"]["damage_taken"] == 0
    assert "Bo: 8 kroppspoäng (body points) lost (2 of 10 left), carried into the next conflict" in " ".join(
        after.lines
    )
    bo = {k: v for k, v in after.characters["bo"].items() if v is not None}
    again = make(b={"id": "bo", "policy": "random", **bo})
    assert again.body[BO] == 2 and not again.out[BO]
    assert "Bo comes to this conflict with 2 of 10 kroppspoäng (body points): 8 lost in an earlier one" in texts(again)


def test_a_character_with_no_body_points_left_is_out_of_a_fight_but_not_of_a_ball() -> None:
    """Earlier damage that left no body points: Medvetslös (unconscious) from the start of a fight, which the other
    side has then won; at a ball the separate social kroppspoäng are whole and it takes part."""
    fight = make(b=person("bo", damage_taken=10))
    assert fight.out[BO] and fight.body[BO] == 0 and fight.is_terminal()
    assert fight.outcome().winners == ("red",)
    ball = make(b=person("bo", damage_taken=10), setup={"kind": "social"},
                options={"social_distance_and_damage": True})  # fmt: skip
    assert not ball.out[BO] and ball.body[BO] == 10 and not ball.is_terminal()
    after = RULESET.aftermath(ball) if RULESET.aftermath else None
    assert after is not None and after.characters["bo"]["damage_taken"] == 10, "a ball heals no physical damage"


@pytest.mark.parametrize("name", ["negotiation", "ball"])
def test_the_bundled_negotiation_and_ball_keep_the_distance_they_end_at(name: str) -> None:
    scenario = load_scenario(f"pwge/{name}")
    for seed in range(40):
        state = new_state(scenario)
        assert isinstance(state, PwgeState)
        Runner({s: RandomPolicy() for s in (*state.seats(), GM)}, Generators.from_seed(seed)).play(state)
        after = RULESET.aftermath(state) if RULESET.aftermath else None
        assert after is not None
        (distance,) = state.dist.values()
        field = "diplomatic_distance" if state.kind == "diplomatic" else "social_distance"
        assert after.characters["nova" if name == "negotiation" else "quill"][field]["Ambassadör Lyra"] == distance
        for document in after.characters.values():
            Character.model_validate({**document})
        if distance != state.characters[0][field].get("Ambassadör Lyra", 7 if name == "ball" else 6):
            return
    pytest.fail("the distance never moved in 40 conflicts")


# ---- paths the examples seldom walk ------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_a_chase_is_won_by_the_fleers_when_every_pursuer_is_out() -> None:
    """Deliberate mutation that fails it: ``endings._chase_goal`` never reporting "every pursuer is out"."""
    state = make(
        person("ann", ranged_weapon="stralpistol"),
        person("bo", body_points=2),
        setup={"kind": "chase", "fleeing": "red", "start_distance": 2},
    )
    act(state, "attack", target="bo", weapon="ranged")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 14, 4)  # 2T+3 against the difficulty 2T+2
    roll(state, 3)  # 1T+2 = 3 damage: Bo (2 body points) is out
    act(state, "accept")
    act(state, "accept")
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == ("goal_reached", ("red",))
    assert outcome.summary.endswith("every pursuer is out")


def test_giving_up_the_frislag_opens_the_floor_without_a_spend() -> None:
    """Deliberate mutation that fails it: ``PwgeState`` not recognising ``no_free_attack`` in the free-attack phase."""
    state = make(setup={"surprise": "red"})
    act(state, "start", distance=2)
    act(state, "no_free_attack")
    assert "Ann gives up the frislag (free attack)" in texts(state)
    assert (state.phase, state.current_player(), state.tokens) == ("open", "ann", [6, 6])


@pytest.mark.through_cli
def test_a_second_surpriser_chooses_and_strikes_after_the_first() -> None:
    """Deliberate mutations that fail it: ``_apply_start`` ending the surprise after the first surpriser, or giving
    up the frislag opening the floor (``open_floor(0)``) instead of passing to the next surpriser."""
    state = make(setup={"surprise": "red", "start_distance": 5}, extra_a=[person("cid")])
    bo, cid = state.index["bo"], state.index["cid"]
    act(state, "start", distance=2)
    assert state.current_player() == "cid"
    act(state, "start", distance=1)
    assert (state.pair(ANN, bo), state.pair(cid, bo)) == (2, 1)
    act(state, "no_free_attack")  # Ann's frislag
    assert state.current_player() == "cid" and state.phase == "free_attack"
    act(state, "free_attack", target="bo", weapon="melee")
    assert state.tokens[cid] == 5  # free: 6 − 1 for the other person on the side, nothing spent
    act(state, "no_counter")
    roll(state, 5, 12)  # a miss (Cid's sword at Dolk, without its bonus: 2T+3)
    act(state, "accept")  # Cid does not top
    assert state.phase == "open" and state.current_player() == "ann"


def test_a_side_without_tokens_from_the_start_has_run_out_and_none_at_all_is_a_deadlock() -> None:
    """Three on a side with Styrka 1 have pools of 2 × 1 − 2 = 0.

    Deliberate mutation that fails it: ``endings`` treating sides that are all dry at once as one side running out
    last (``if len(last) == 1 or True``) instead of a deadlock."""
    broke = {"attributes": {"Styrka": 1}, "attribute": "Styrka"}
    crowd = [{"id": pid, "name": pid.capitalize(), **broke} for pid in ("ann", "cid", "dag")]
    state = make(crowd[0], extra_a=crowd[1:])
    assert state.tokens == [0, 0, 0, 6]
    assert (state.outcome().ending, state.outcome().winners) == ("pools_exhausted", ("blue",))
    doc = {
        "ruleset": "pwge",
        "title": "t",
        "sides": [
            {"id": "red", "participants": crowd},
            {"id": "blue", "participants": [{"id": p, "name": p, **broke} for p in ("bo", "eva", "fia")]},
        ],
    }
    nobody = new_state(scenario_from_document(doc, "<test>"))
    assert isinstance(nobody, PwgeState) and nobody.is_terminal()
    assert (nobody.outcome().ending, nobody.outcome().winners) == ("deadlock", ())
