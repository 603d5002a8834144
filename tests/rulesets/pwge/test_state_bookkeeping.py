"""The open table's own bookkeeping, said and kept exactly (found by `scripts/mutation.sh pwge:state`).

Each test names the rule it checks; the mutants of ``PwgeState`` it was written against changed an event's kind
or words, a deed's recorded fields, the experience die a spender chose, an invariant's bound or the key.
"""

from __future__ import annotations

from dataclasses import replace

from konflikt.core.actions import Action
from konflikt.rulesets.pwge.exchange import Deed
from konflikt.rulesets.pwge.rules import WOUND_LEVELS
from konflikt.rulesets.pwge.state import PwgeState
from tests.rulesets.pwge.helpers import act, make, person, roll

ANN, BO = 0, 1


def events(state: PwgeState) -> list[tuple[str, str]]:
    return [(e.kind, e.text) for e in state.history()]


# ---- the start -------------------------------------------------------------------------------------------------
def test_before_the_attributes_are_chosen_no_pool_is_filled_and_nobody_is_wounded() -> None:
    state = make(person("ann", attribute=None, attributes={"Styrka": 3, "List": 2}))
    assert state.phase == "attribute"
    assert (state.tokens, state.wounds, state.surprisers, state.contest) == ([0, 0], [0, 0], (), None)


def test_a_stored_relation_distance_is_read_from_the_first_of_the_pair() -> None:
    """Each keeps the distance to the other by name; the first of the pair's stored distance counts."""
    state = make(
        person("ann", social_distance={"Bo": 2}),
        person("bo", social_distance={"Ann": 8}),
        setup={"kind": "social"},
        options={"social_distance_and_damage": True},
    )
    assert state.pair(ANN, BO) == 2


def test_a_surpriser_may_choose_every_starting_distance_out_to_the_longest_range() -> None:
    state = make(setup={"surprise": "red", "max_range": 3})
    assert [a["distance"] for a in state.legal_actions()] == list(range(4 + 3 + 1))


def test_the_surprisers_start_is_said_and_the_frislag_follows() -> None:
    state = make(setup={"surprise": "red"}, options={"free_attack": True})
    act(state, "start", distance=2)
    assert events(state)[-1] == ("start", "Ann surprises the others and chooses the starting distance: Svärd (sword)")
    assert (state.phase, state.current_player()) == ("free_attack", "ann")
    act(state, "no_free_attack")
    assert events(state)[-1] == ("free_attack", "Ann gives up the frislag (free attack)")


# ---- declarations --------------------------------------------------------------------------------------------
def test_an_action_and_a_response_are_recorded_as_declared() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    assert state.ex is not None and state.ex.action == Deed("action", ANN, BO, "attack", "melee", "")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    assert state.ex.response == Deed("response", BO, ANN, "attack", "melee", "")
    act(state, "counter")
    said = "Ann spends 1 token (marker) on a mothandling (counter) against the response — 4 left"
    assert events(state)[-2][1] == said
    state.apply_actions({"ann": Action.of("order"), "bo": Action.of("no_order")})
    assert "turordning (order): Ann's action happens first" in [t for _, t in events(state)]


def test_a_response_that_changes_distance_says_which_way() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "respond", deed="distance", way="farther")
    assert state.ex is not None and state.ex.response == Deed("response", BO, ANN, "distance", "", "farther")
    said = "svarshandling (response) aimed at Ann — ändra avstånd (change distance): öka (farther)"
    assert events(state)[-1][1].endswith(said)


def test_a_counter_is_paid_for_and_said() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    spend = state.history()[-2]
    assert (spend.kind, spend.text) == ("spend", "Bo spends 1 token (marker) on a mothandling (counter) — 5 left")
    assert spend.data["tokens"] == 5


def test_both_buying_order_is_said_and_rolled_as_the_turordningsslag() -> None:
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "respond", deed="attack", weapon="melee")
    act(state, "no_counter")
    state.apply_actions({"ann": Action.of("order"), "bo": Action.of("order")})
    assert ("order", "both sides set turordning (order): both make a turordningsslag (order roll)") in events(state)
    assert state.contest is not None and state.contest.label == "turordningsslag (order roll)"


# ---- paying with an experience die -----------------------------------------------------------------------------
def _with_dice() -> PwgeState:
    return make(
        person("ann", experience_dice=2),
        person("bo", experience_dice=2),
        options={"experience_dice": True},
    )


def test_a_counter_and_a_response_may_be_paid_with_an_experience_die() -> None:
    state = _with_dice()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter", pay="die")
    spend = state.history()[-2]
    assert (spend.kind, spend.data["tokens"], spend.data["experience_dice"]) == ("spend", 6, 1)
    act(state, "respond", deed="attack", weapon="melee", pay="die")
    assert (state.tokens[BO], state.xp[BO]) == (6, 0)


def test_a_damage_top_may_be_paid_with_an_experience_die() -> None:
    state = _with_dice()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12, 2)  # a hit
    assert state.phase == "damage"
    roll(state, 3)
    act(state, "top", pay="die")
    assert (state.tokens[ANN], state.xp[ANN]) == (5, 1)


# ---- the floor and the endings ---------------------------------------------------------------------------------
def test_passing_is_said_and_two_passes_end_in_a_deadlock_in_the_texts_words() -> None:
    state = make()
    act(state, "pass")
    assert events(state)[-1] == ("pass", "Ann passes (lets the floor go) — 1 of 2 in a row")
    act(state, "pass")
    assert state.outcome().summary == "nobody wants to start a new action (ingen vill göra en handling)"
    assert state.history()[-1].kind == "ending"


def test_the_exchange_is_closed_when_it_is_over() -> None:
    state = make()
    act(state, "distance", target="bo", way="closer")
    act(state, "no_counter")
    act(state, "no_response")
    assert (state.phase, state.ex) == ("open", None)


def test_a_ranged_attack_at_exactly_max_follows_the_option() -> None:
    pistol = person("ann", ranged_weapon="stralpistol")  # Kort 3, Max 6
    shot = Action.of("attack", target="bo", weapon="ranged")
    assert shot in make(pistol, setup={"start_distance": 6}).legal_actions()
    assert shot not in make(pistol, setup={"start_distance": 6}, options={"max_is_in_range": False}).legal_actions()


def test_one_body_point_left_is_still_standing() -> None:
    state = make()
    state.suffer_damage(BO, 9, 1)
    assert (state.body[BO], state.out[BO]) == (1, False)
    state.suffer_damage(BO, 1, 1)
    assert state.out[BO]


def test_switching_weapons_changes_only_the_switchers_hand() -> None:
    state = make(extra_a=[person("cid")])
    before = state.people
    state.wield(0, "dolk")
    assert len(state.people) == 3 and state.people[1:] == before[1:]
    assert state.people[0].melee_key == "dolk"


# ---- the State hooks -------------------------------------------------------------------------------------------
def test_side_of_a_seat_and_of_nobody() -> None:
    state = make()
    assert (state.side_of("ann"), state.side_of("bo"), state.side_of("gm")) == ("red", "blue", None)


def test_legal_actions_of_an_unknown_seat_are_none() -> None:
    state = make()
    assert tuple(state._legal_actions("nobody")) == ()
    state.phase = "done"
    assert tuple(state._legal_actions("ann")) == ()


def test_the_view_names_the_kind_and_phase() -> None:
    view = make().view("ann")
    assert (view["kind"], view["phase"]) == ("combat", "open")


def test_the_key_tells_wounds_distances_and_exchanges_apart() -> None:
    state, other = make(), make()
    assert state.key() == other.key()
    other.wounds[BO] = 1
    assert state.key() != other.key()
    other = make()
    other.set_pair(ANN, BO, 3)
    assert state.key() != other.key()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12, 2)
    assert state.ex is not None and state.dmg is not None and state.key()[-4] == state.ex.key()


def test_invariants_hold_at_the_bounds_and_name_what_breaks() -> None:
    state = _with_dice()
    state.tokens[ANN] = 0
    assert state.invariants() == []
    state.xp[ANN] = 3
    state.wounds[BO] = len(WOUND_LEVELS)
    state.set_pair(ANN, BO, 4 + state.setup.max_range + 1)
    top = 4 + state.setup.max_range
    assert state.invariants() == [
        "ann: experience dice 3 outside 0–2",
        f"bo: wound level {state.wounds[BO]}",
        f"distance ann–bo = {top + 1} outside 0–{top}",
    ]


def test_invariants_find_an_unknown_weapon_in_hand() -> None:
    state = make()
    state.people = (state.people[0], replace(state.people[1], melee_key="ljussvärd"))
    assert state.invariants() == ["bo: unknown weapon in hand"]


def test_invariants_bound_a_relation_distance_by_10() -> None:
    state = make(setup={"kind": "social"}, options={"social_distance_and_damage": True})
    state.set_pair(ANN, BO, 10)
    assert state.invariants() == []
    state.set_pair(ANN, BO, 11)
    assert state.invariants() == ["distance ann–bo = 11 outside 0–10"]
