"""The round as the state machine plays it: secret movement, initiative, attack/defence/counter, damage, ground."""

from __future__ import annotations

import pytest

from konflikt.core.state import CHANCE, GM, SIMULTANEOUS, TERMINAL
from konflikt.errors import IllegalActionError
from konflikt.rulesets.levald import rules as R
from tests.rulesets.levald.helpers import act, document, fighter, move, roll, state_of, texts


def duel(wa: str = "Svärd", wb: str = "Svärd", distance: str = "Svärd", options: dict | None = None, **kw):  # type: ignore[no-untyped-def,type-arg]
    a_fields = kw.pop("a", {})
    b_fields = kw.pop("b", {})
    return state_of(document(fighter("a", wa, **a_fields), fighter("b", wb, **b_fields), distance, options, **kw))


# ---- secret movement ----------------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_a_secret_choice_is_hidden_from_the_other_seat_until_all_have_chosen() -> None:
    state = duel()
    assert state.current_player() == SIMULTANEOUS
    move(state, a="advance")
    assert state.waiting_for() == ("b",)
    assert state.view("b")["secret_choices"] == {"a": "hidden"}
    assert state.view("a")["secret_choices"] == {"a": "advance"}
    assert state.view(GM)["secret_choices"] == {"a": "advance"}
    assert not any("Avancera" in t for t in state.view("b")["events"])
    move(state, b="advance")
    assert state.pair_distance() == R.DISTANCES.index("Dolk")


def test_same_wish_moves_without_a_roll() -> None:
    state = duel(distance="Stång")
    move(state, a="retreat", b="retreat")
    assert state.scale[state.dist[0]] == "Spjut"


@pytest.mark.through_cli
def test_different_wishes_contest_stridsvana_and_the_winner_has_its_way() -> None:
    state = duel(distance="Stång")
    move(state, a="advance", b="hold")
    assert state.current_player() == CHANCE and "Stridsvana" in state.roll_purpose()
    roll(state, 20, 90)  # a succeeds, b fails
    assert state.scale[state.dist[0]] == "Svärd"


@pytest.mark.through_cli
def test_different_wishes_nobody_wins_gives_the_option_nobody_chose() -> None:
    state = duel(distance="Stång")
    move(state, a="advance", b="hold")
    roll(state, 90, 95)  # both fail: retreat, which nobody chose
    assert state.scale[state.dist[0]] == "Spjut"
    state = duel(distance="Stång")
    move(state, a="advance", b="retreat")
    roll(state, 47, 38)  # both succeed with effect 11: nobody wins → hold
    assert state.scale[state.dist[0]] == "Stång"


# ---- initiative ---------------------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_one_optimal_attacks_without_a_roll() -> None:
    state = duel("Svärd", "Spjut")
    move(state, a="hold", b="hold")
    assert state.phase == "attacker" and state.att == 0


@pytest.mark.through_cli
def test_the_one_too_far_defends() -> None:
    state = duel("Svärd", "Spjut", distance="Spjut")
    move(state, a="hold", b="hold")
    assert state.att == 1 and state.dfn == 0


@pytest.mark.through_cli
def test_both_too_close_roll_stridsvana_and_the_winner_attacks() -> None:
    state = duel("Svärd", "Spjut", distance="Dolk")
    move(state, a="hold", b="hold")
    assert state.phase == "init_roll"
    roll(state, 80, 30)
    assert state.att == 1


@pytest.mark.through_cli
def test_nobody_wins_the_initiative_both_regain_one_gard_and_the_round_ends() -> None:
    state = duel(a={"gard_now": 5}, b={"gard_now": 12})
    move(state, a="hold", b="hold")
    roll(state, 90, 99)
    assert state.gard == [6, 12]
    assert state.holder == [-1]
    assert state.current_player() == SIMULTANEOUS and state.rounds == 1
    move(state, a="hold", b="hold")
    assert state.phase == "init_roll"  # roll again next round


@pytest.mark.through_cli
def test_both_too_far_nobody_fights() -> None:
    state = duel(distance="Fri", a={"gard_now": 3}, b={"gard_now": 4})
    move(state, a="hold", b="hold")
    assert state.gard == [4, 5] and state.rounds == 1
    assert "both too far" in texts(state)


@pytest.mark.through_cli
def test_the_initiative_stays_while_nobody_damages_the_holder_and_the_distance_holds() -> None:
    state = duel()
    move(state, a="hold", b="hold")
    roll(state, 20, 90)  # a wins the initiative
    act(state, "attack")
    act(state, "defend")
    roll(state, 90, 20)  # the attack misses: no gain ground
    move(state, a="hold", b="hold")
    assert state.phase == "attacker" and state.att == 0  # no new roll


@pytest.mark.through_cli
def test_a_change_of_distance_decides_the_initiative_afresh() -> None:
    state = duel("Svärd", "Spjut")
    move(state, a="hold", b="hold")
    assert state.att == 0
    act(state, "regain")
    move(state, a="retreat", b="retreat")  # Stång: a too far, b too close → b attacks
    assert state.att == 1


@pytest.mark.parametrize(("rule", "phase"), [("table", "attacker"), ("roll", "init_roll")])
def test_a_damaged_holder_loses_the_kept_initiative(rule: str, phase: str) -> None:
    state = duel("Svärd", "Spjut", options={"holder_damaged": rule})
    move(state, a="hold", b="hold")
    assert state.att == 0
    act(state, "attack")
    act(state, "counter")
    roll(state, 90)  # a's attack misses; b's counter comes
    roll(state, 30)  # b's counter succeeds: undefended, it hits
    roll(state, 2)  # Spjut guarded 1T6: 3 + 2 = 5 on a's Gard 12
    assert state.gard[0] == 7
    move(state, a="hold", b="hold")
    assert state.phase == phase


def test_gard_only_damage_can_be_excluded_from_being_damaged() -> None:
    state = duel("Svärd", "Spjut", options={"holder_damaged": "roll", "gard_damage_is_damage": False})
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "counter")
    roll(state, 90, 30, 2)
    move(state, a="hold", b="hold")
    assert state.phase == "attacker"


# ---- attack, defence, counter ----------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_not_attacking_gives_both_one_gard() -> None:
    state = duel("Svärd", "Spjut", a={"gard_now": 2}, b={"gard_now": 3})
    move(state, a="hold", b="hold")
    act(state, "regain")
    assert state.gard == [3, 4] and state.current_player() == SIMULTANEOUS


@pytest.mark.through_cli
def test_counter_needs_the_distance_within_the_defenders_reach() -> None:
    state = duel("Spjut", "Svärd", distance="Spjut")
    move(state, a="hold", b="hold")
    act(state, "attack")
    assert [str(x) for x in state.legal_actions("b")] == ["defend"]
    with pytest.raises(IllegalActionError, match="weapon length"):
        act(state, "counter")


@pytest.mark.through_cli
def test_the_counter_comes_after_the_attack_with_the_penalty_just_received() -> None:
    state = duel(b={"gard_now": 0})
    move(state, a="hold", b="hold")
    roll(state, 20, 90)
    act(state, "attack")
    act(state, "counter")
    roll(state, 35)  # a hits (no defence roll): effect 8
    roll(state, 10)  # open 3T6: 18 damage, Allvarlig: 18 daze → −30
    assert state.daze[1] == 18 and state.phase == "counter_roll"
    roll(state, 45)
    last = [e for e in state.history() if e.kind == "roll"][-1]
    assert last.data["target"] == 60 - 30 and last.data["level"] == R.FAILURE


@pytest.mark.through_cli
def test_a_knocked_out_defender_makes_no_counter() -> None:
    state = duel(b={"gard_now": 0, "kraft": 10, "själ": 0})  # thresholds 5/10/10/20: 18 is Kritisk
    move(state, a="hold", b="hold")
    roll(state, 20, 90)
    act(state, "attack")
    act(state, "counter")
    roll(state, 35, 10)
    assert state.fate[1] == "knocked_out" and state.current_player() == TERMINAL
    assert "no counter-attack" in texts(state)
    assert state.outcome().winners == ("left",)


def test_a_deadly_wound_kills_unless_the_option_says_knocked_out() -> None:
    for rule, fate in (("dead", "dead"), ("knocked_out", "knocked_out")):
        state = duel(b={"gard_now": 0, "kraft": 2, "själ": 0}, options={"deadly_wound": rule})
        move(state, a="hold", b="hold")
        roll(state, 20, 90)
        act(state, "attack")
        act(state, "defend")
        roll(state, 35, 90, 10)  # 18 ≥ Dödlig 12
        assert state.fate[1] == fate


@pytest.mark.through_cli
def test_exceptional_success_ignores_gard_and_rolls_the_open_dice() -> None:
    state = duel("Svärd", "Långsvärd")
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 11, 90)  # 11 ≤ 60 // 5: exceptional
    assert state.pending_roll().notation == "3T6"
    roll(state, 3)  # 2 + 3 = 5 compared directly: Skråma
    assert state.gard[1] == 12 and state.wounds[1] == [1, 0, 0, 0, 0] and state.daze[1] == 1


@pytest.mark.through_cli
def test_an_unprepared_target_has_no_gard() -> None:
    state = duel("Svärd", "Spjut", unprepared=["b"])
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 35, 90, 4)  # 8 + 4 = 12: Allvarlig although b has 12 Gard
    assert state.gard[1] == 12 and state.wounds[1] == [0, 0, 1, 0, 0]
    assert "not prepared" in texts(state)


def test_two_defence_rolls_with_a_shield() -> None:
    state = duel("Svärd", "Sköld", options={"two_defence_rolls": True})
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 29, 100)  # 00 = 100 ≤ 60 + 40: a success with effect 0, which the attack (effect 11) beats
    assert state.phase == "defence_roll"
    roll(state, 39)  # the second succeeds with effect 12: the attack must beat both
    assert "the defence held" in texts(state)


def test_without_the_option_a_shield_makes_one_defence_roll() -> None:
    state = duel("Svärd", "Sköld")
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 29, 100)
    assert state.phase == "damage"


# ---- gain ground -------------------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_gain_ground_after_a_successful_attack_even_without_damage() -> None:
    state = duel("Svärd", "Spjut")
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 29, 10)  # a succeeds, b defends better
    assert state.phase == "ground" and state.current_player() == "a"
    assert [x["step"] for x in state.legal_actions()] == [0, 1]
    act(state, "ground", step=1)
    assert state.scale[state.dist[0]] == "Stång"
    move(state, a="hold", b="hold")  # the step changed the distance: the table again, b is now optimal
    assert state.att == 1


@pytest.mark.through_cli
def test_gain_ground_against_a_cornered_defender() -> None:
    state = duel("Svärd", "Spjut", cornered=["b"])
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 29, 10)
    assert [x["step"] for x in state.legal_actions()] == [-1, 0]
    act(state, "ground", step=-1)
    assert state.scale[state.dist[0]] == "Dolk"


def test_gain_ground_may_leave_the_initiative_alone_by_option() -> None:
    """a's spear at Stång (too close) against b's sword (too far): a attacks, steps out to Spjut (still in reach);
    with the option off the step is not a change of distance, and the log says so."""
    state = duel("Spjut", "Svärd", "Stång", options={"gain_ground_changes_initiative": False})
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 29, 10)  # b's exceptional defence holds; a's attack succeeded: a may gain ground
    act(state, "ground", step=1)
    since = len(state.history())
    move(state, a="hold", b="hold")
    assert state.att == 0 and state.scale[state.dist[0]] == "Spjut"
    said = "\n".join(e.text for e in state.history()[since:])
    assert "the distance changed only by gaining ground, which does not count (gain_ground_changes_initiative" in said
    assert "the distance did not change" not in said


def test_an_attacker_who_steps_out_of_its_own_reach_keeps_no_initiative_it_cannot_use() -> None:
    """With the option off, a's sword steps out to Stång: a's weapon no longer reaches, so the table decides —
    "den som är på för långt avstånd [blir] automatiskt försvarare" — and b's spear attacks."""
    state = duel("Svärd", "Spjut", options={"gain_ground_changes_initiative": False})
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 29, 10)
    act(state, "ground", step=1)
    since = len(state.history())
    move(state, a="hold", b="hold")
    assert state.scale[state.dist[0]] == "Stång"
    assert state.att == 1 and state.legal_actions("b")
    said = "\n".join(e.text for e in state.history()[since:])
    assert "A's weapon no longer reaches (gaining ground took the distance beyond it)" in said
    assert "the distance did not change" not in said


@pytest.mark.through_cli
def test_no_gain_ground_after_a_missed_attack() -> None:
    state = duel("Svärd", "Spjut")
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 95, 10)
    assert state.current_player() == SIMULTANEOUS


@pytest.mark.through_cli
def test_gard_counts_against_a_ranged_attack_only_with_a_shield() -> None:
    bow = {
        "name": "Båge",
        "skill": "Enhandsvapen",
        "damage_guarded": "2T6",
        "damage_open": "2T6",
        "length": "Spjut",
        "ranged": True,
    }
    for weapon, gard_left in (("Svärd", 12), ("Sköld", 12 - 10)):
        state = duel(bow, weapon, distance="Spjut")
        move(state, a="hold", b="hold")  # a optimal at Spjut, b too far: a shoots
        act(state, "attack")
        act(state, "defend")
        roll(state, 35, 100)  # effect 8 beats the defence 00 (a failure at 60, effect 0 at the shield's 100)
        roll(state, 2)  # 8 + 2 = 10
        assert state.gard[1] == gard_left


@pytest.mark.through_cli
def test_the_gm_sets_cornered_and_prepared_before_a_round() -> None:
    state = duel("Svärd", "Spjut", gm_conditions=True)
    assert state.current_player() == GM and GM in state.seats()
    assert [str(x) for x in state.legal_actions()] == [
        "fight",
        "cornered who=a",
        "cornered who=b",
        "unprepared who=a",
        "unprepared who=b",
    ]
    act(state, "cornered", who="b")
    act(state, "unprepared", who="b")
    assert state.view("a")["fighters"][1]["cornered"] is True
    act(state, "fight")
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 29, 90)  # a hits: b is unprepared, so the open dice
    assert state.pending_roll().notation == "3T6" and state.gard[1] == 12
    roll(state, 3)
    assert [x["step"] for x in state.legal_actions()] == [-1, 0]  # b is cornered
    assert "Spelledaren (GM)" in texts(state)
