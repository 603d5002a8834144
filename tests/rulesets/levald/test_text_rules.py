"""The Swedish text's rules that konflikt once read otherwise, each named after the text's words.

Every test here failed on the earlier defaults: sub-fights of one pair at a time, leaving checked against one
enemy, the initiative table re-applied for a damaged holder, Kritisk and Dödlig without boxes, a shield instead of a
weapon, contests that did not say why, and damage that exactly empties Gard giving no wound.
"""

from __future__ import annotations

import pytest

from konflikt.core.state import CHANCE, SIMULTANEOUS, TERMINAL
from konflikt.errors import KonfliktError
from konflikt.rulesets.levald import rules as R
from tests.rulesets.levald.helpers import act, document, fighter, move, roll, state_of, texts


def one_against(*enemies: str, solo_weapon: str = "Spjut", distance: str = "Svärd", **options: object):  # type: ignore[no-untyped-def]
    solo = fighter("solo", solo_weapon)
    return state_of(document(solo, [fighter(e) for e in enemies], distance, dict(options)))


# ---- 1. delstrider ------------------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_varje_delstrid_en_kombatant_mot_ett_antal_kombatanter_one_against_two() -> None:
    """ "en kombatant på ena sidan och ett antal kombatanter på andra sidan": both robbers act in the same round."""
    state = one_against("x", "y")
    assert state.simultaneous_seats() == ("solo", "x", "y")
    move(state, solo="hold", x="hold", y="hold")
    # solo's spear is too close at Svärd, each robber's sword optimal: each robber attacks, no roll
    assert state.current_player() == "x" and state.phase == "attacker"
    act(state, "attack")
    act(state, "defend")
    assert state.rounds == 0 and state.current_player() == "y" and state.phase == "attacker"
    act(state, "attack")
    act(state, "defend")
    roll(state, 50, 90, 3)  # x: effect 5 + 3T6 3 = 8 on solo's Gard 12
    roll(state, 50, 90, 3)  # y: 8 more: Gard 4 → 0 with 4 falling through, a Skråma
    assert state.gard[0] == 0 and state.wounds[0] == [1, 0, 0, 0, 0]
    act(state, "ground", step=0)  # x, then y: last in the round
    act(state, "ground", step=0)
    assert state.rounds == 1 and state.current_player() == SIMULTANEOUS
    assert state.simultaneous_seats() == ("solo", "x", "y")


@pytest.mark.through_cli
def test_varje_delstrid_kors_i_nagra_rundor_och_sedan_byter_man_delstrid_two_against_two() -> None:
    doc = document([fighter("a1"), fighter("a2")], [fighter("b1"), fighter("b2")], "Fri", {"subfight_rounds": 2})
    state = state_of(doc)
    assert state.simultaneous_seats() == ("a1", "b1")
    move(state, a1="hold", b1="hold")  # both too far: nobody fights
    assert state.simultaneous_seats() == ("a1", "b1")
    move(state, a1="hold", b1="hold")
    assert state.simultaneous_seats() == ("a2", "b2")
    assert "Byte av delstrid (sub-fight switches): A2 mot (vs) B2" in texts(state)


def test_one_against_three_all_three_in_the_one_delstrid() -> None:
    state = one_against("x", "y", "z", distance="Fri")
    assert state.simultaneous_seats() == ("solo", "x", "y", "z")
    assert state.legal_actions("z")  # z chooses its marker in the same secret choice


@pytest.mark.through_cli
def test_each_pair_of_a_delstrid_keeps_its_own_distance() -> None:
    state = one_against("x", "y", distance="Stång")
    move(state, solo="advance", x="advance", y="hold")
    assert state.scale[state.dist[0]] == "Svärd"  # solo–x: both advance
    assert state.current_player() == CHANCE  # solo–y: the wishes differ, a Stridsvana contest
    roll(state, 90, 20)  # y wins: hold
    assert state.scale[state.dist[1]] == "Stång"


def test_one_gard_point_a_round_however_many_pairs_find_nobody_fighting() -> None:
    state = state_of(document(fighter("solo", gard_now=2), [fighter("x"), fighter("y")], "Fri"))
    move(state, solo="hold", x="hold", y="hold")
    assert state.gard[0] == 3


@pytest.mark.parametrize(("rule", "defence_rolled"), [("defence_each", True), ("one_defence", False)])
def test_several_attackers_defence_each_or_one_defence(rule: str, defence_rolled: bool) -> None:
    state = one_against("x", "y", several_attackers=rule)
    move(state, solo="hold", x="hold", y="hold")
    for _ in range(2):  # x's and y's choices, before any roll
        act(state, "attack")
        act(state, "defend")
    roll(state, 50, 5)  # solo's defence 05 ≤ 70 // 5: exceptional, the attack (a success) does not win
    roll(state, 50)
    assert (state.phase == "defence_roll") == defence_rolled
    if not defence_rolled:
        assert state.phase == "ground"  # the kept exceptional defence held: y's attack succeeded, no damage
        assert state.gard[0] == 12


def test_an_out_opponent_leaves_the_delstrid_to_the_others() -> None:
    doc = document(fighter("solo"), [fighter("x", gard_now=0, kraft=10, själ=0), fighter("y")], "Svärd")
    state = state_of(doc)
    move(state, solo="hold", x="hold", y="hold")
    roll(state, 20, 90)  # solo wins the initiative against x
    roll(state, 20, 90)  # and against y: every pair's initiative before any roll
    act(state, "attack")
    act(state, "defend")
    act(state, "regain")  # solo lets y be
    roll(state, 35, 90, 10)  # 18 open damage ≥ Kraft + Själ 10: Kritisk, x is out
    assert state.fate[1] == "knocked_out"
    assert state.current_player() == SIMULTANEOUS and state.simultaneous_seats() == ("solo", "y")


# ---- 2. leaving checks every enemy -------------------------------------------------------------------------------
def test_man_kan_lamna_en_strid_men_fienden_far_da_ett_gratisanfall_every_enemy_in_reach() -> None:
    state = state_of(document(fighter("solo"), [fighter("x", "Spjut"), fighter("y")], "Svärd"))
    move(state, solo="leave", x="hold", y="hold")
    roll(state, 90, 20)  # x wins the movement contest: the distance holds at Svärd
    roll(state, 90, 20)  # y too
    assert "within reach of X (Spjut), Y (Svärd)" in texts(state)
    assert "gratisanfall" in state.roll_purpose() and state.roll_purpose().startswith("X")
    roll(state, 95)  # x's free attack misses
    assert "gratisanfall" in state.roll_purpose() and state.roll_purpose().startswith("Y")
    roll(state, 95)  # y's misses too
    assert state.fate[0] == "left" and state.current_player() == TERMINAL


# ---- 3. a damaged holder rolls anew -------------------------------------------------------------------------------
def test_om_anfallaren_blir_skadad_sa_slas_ett_nytt_slag_by_default() -> None:
    state = state_of(document(fighter("a"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "counter")
    roll(state, 90, 30, 2)  # a misses; b's counter hits a's Gard
    move(state, a="hold", b="hold")
    assert state.phase == "init_roll"  # the table alone would give a (optimal) the initiative again
    assert "anfallaren blev skadad" in texts(state)


@pytest.mark.through_cli
def test_a_damaged_holders_new_roll_never_makes_the_one_too_far_the_attacker() -> None:
    """ "Om ena parten är på för långt avstånd … blir den som är på för långt avstånd automatiskt försvarare": the
    new roll for a damaged holder does not give a fighter whose weapon does not reach the initiative."""
    doc = document(fighter("a", "Spjut"), [fighter("b", "Svärd"), fighter("c", "Spjut")], distance="Spjut")
    state = state_of(doc)
    move(state, a="hold", b="hold", c="hold")
    roll(state, 90, 10)  # a–c: both optimal, c wins the initiative (a–b: a optimal, b too far: a attacks)
    act(state, "regain")  # a–b: a lets it be
    act(state, "attack")
    act(state, "defend")
    roll(state, 35, 99, 3)  # c hits a's Gard: the holder of a–b is damaged
    act(state, "ground", step=0)
    move(state, a="hold", b="hold", c="hold")
    assert state.phase == "attacker" and (state.att, state.dfn) == (0, 1)  # b is still too far: a attacks
    assert "the one too far stays försvarare (automatiskt): no new roll" in texts(state)


# ---- 4. Kritisk and Dödlig are ticked -----------------------------------------------------------------------------
@pytest.mark.through_cli
def test_da_kryssar_man_i_den_rutan_kritisk_is_ticked_utslagen_without_omtockning() -> None:
    state = state_of(document(fighter("a"), fighter("b", gard_now=0, kraft=10, själ=0), "Svärd"))
    move(state, a="hold", b="hold")
    roll(state, 20, 90)
    act(state, "attack")
    act(state, "defend")
    roll(state, 35, 90, 10)  # 8 + 10 = 18 ≥ 10: Kritisk (Dödlig at 20)
    assert state.wounds[1] == [0, 0, 0, 1, 0]
    assert state.fate[1] == "knocked_out" and state.daze[1] == 0
    assert "Kritisk×1" in state.outcome().participants["b"]


@pytest.mark.through_cli
def test_da_kryssar_man_i_den_rutan_dodlig_is_ticked() -> None:
    state = state_of(document(fighter("a"), fighter("b", gard_now=0, kraft=4, själ=0), "Svärd"))
    move(state, a="hold", b="hold")
    roll(state, 20, 90)
    act(state, "attack")
    act(state, "defend")
    roll(state, 35, 90, 10)  # 18 ≥ 4 + 0 + 10: Dödlig
    assert state.wounds[1] == [0, 0, 0, 0, 1] and state.fate[1] == "dead" and state.daze[1] == 0


def test_a_ticked_kritisk_box_carried_in_starts_the_fighter_utslagen() -> None:
    state = state_of(document(fighter("a"), [fighter("b", wounds={"kritisk": 1}), fighter("c")], "Fri"))
    assert state.fate[1] == "knocked_out"
    assert state.simultaneous_seats() == ("a", "c")
    over = state_of(document(fighter("a"), fighter("b", wounds={"kritisk": 1}), "Fri"))
    assert over.current_player() == TERMINAL and over.outcome().winners == ("left",)


# ---- 5. the shield is carried with a weapon ------------------------------------------------------------------------
def test_skold_latt_plus_vapen_is_carried_with_a_one_handed_weapon() -> None:
    skills = {"Enhandsvapen": 50, "Enhandsvapen plus sköld": 55}
    state = state_of(document(fighter("bruno", "Svärd", shield="Sköld", skills=skills), fighter("b"), "Svärd"))
    bruno = state.fighters[0]
    assert bruno.weapon.name == "Svärd" and bruno.shield is not None and bruno.shield.name == "Sköld"
    assert bruno.length == R.DISTANCES.index("Svärd") and bruno.guarded.notation == "3T6"
    assert (bruno.skill_name, bruno.attack_base, bruno.defence_base) == ("Enhandsvapen plus sköld", 45, 95)
    assert bruno.has_shield
    row = state_of(
        document(fighter("bruno", "Svärd", shield="Sköld", skills=skills), fighter("b"), "Svärd"),
        {"shield_with_weapon": "shield_row"},
    ).fighters[0]
    assert row.length == R.DISTANCES.index("Sköld") and (row.attack_base, row.defence_base) == (45, 95)
    assert row.guarded.notation == "4T6"


def test_a_shield_goes_with_a_one_handed_weapon_only() -> None:
    with pytest.raises(KonfliktError, match="one-handed"):
        state_of(document(fighter("a", "Spjut", shield="Sköld"), fighter("b"), "Svärd"))
    with pytest.raises(KonfliktError, match="not a shield"):
        state_of(document(fighter("a", "Svärd", shield="Kortsvärd"), fighter("b"), "Svärd"))


def test_bruno_carries_his_sword_and_shield() -> None:
    from konflikt.core.scenario import load_scenario

    scenario = load_scenario("levald/one_against_two")
    bruno = next(p for p in scenario.participants() if p.id == "bruno").data
    assert (bruno.weapon, bruno.shield) == ("Svärd", "Sköld")


# ---- 6. a contest won on effect says so -----------------------------------------------------------------------------
def test_a_stridsvana_contest_won_on_effect_says_so() -> None:
    state = state_of(document(fighter("a", name="Snurre"), fighter("b", name="Hedda"), "Stång"))
    move(state, a="advance", b="hold")
    roll(state, 23, 47)  # both succeed against 50; effects 5 and 11
    assert "both succeed; Hedda's effect 11 beats 5" in texts(state)
    state = state_of(document(fighter("a", name="Snurre"), fighter("b", name="Hedda"), "Stång"))
    move(state, a="advance", b="hold")
    roll(state, 9, 47)  # 09 ≤ 50 // 5: exceptional beats a success
    assert "Snurre's exceptional success beats Hedda's success" in texts(state)


# ---- 7. damage that exactly empties Gard ---------------------------------------------------------------------------
def test_om_gard_tar_slut_nar_skadan_markeras_det_minsta_man_kan_fa_ar_skramor() -> None:
    state = state_of(document(fighter("a"), fighter("b", "Spjut", gard_now=8), "Svärd"))
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 50, 90, 3)  # 5 + 3 = 8 on Gard 8: Gard runs out, the rest 0 is a Skråma
    assert state.gard[1] == 0 and state.wounds[1] == [1, 0, 0, 0, 0] and state.daze[1] == 1
    off = state_of(document(fighter("a"), fighter("b", "Spjut", gard_now=8), "Svärd"), {"empty_gard_scratch": False})
    move(off, a="hold", b="hold")
    act(off, "attack")
    act(off, "defend")
    roll(off, 50, 90, 3)
    assert off.gard[1] == 0 and off.wounds[1] == [0, 0, 0, 0, 0] and off.daze[1] == 0


# ---- what carries into the next fight (the aftermath) ---------------------------------------------------------------
def test_aftermath_carries_the_ticked_boxes_and_the_omtockning_and_loads_back() -> None:
    from konflikt.rulesets.levald.models import Character
    from konflikt.rulesets.levald.rest import aftermath

    skills = {"Enhandsvapen": 50, "Enhandsvapen plus sköld": 55}
    doc = document(fighter("a", "Svärd", shield="Sköld", skills=skills), fighter("b", gard_now=0, kraft=10, själ=0))
    state = state_of(doc)
    move(state, a="hold", b="hold")
    roll(state, 20, 90)
    act(state, "attack")
    act(state, "defend")
    roll(state, 35, 99, 10)  # Kritisk: b is utslagen
    state.daze[0] = 12
    carried = aftermath(state)
    b = Character.model_validate(carried.characters["b"])
    assert b.wounds.boxes() == [0, 0, 0, 1, 0] and b.daze == 0
    a = Character.model_validate(carried.characters["a"])
    assert (a.weapon, a.shield, a.daze, a.gard_now) == ("Svärd", "Sköld", 12, None)
    assert any(line.startswith("B: utslagen (knocked out); sår (wound boxes) Kritisk×1") for line in carried.lines)
    again = state_of(document(fighter("a"), [{"id": "b", "policy": "heuristic", **carried.characters["b"]}]))
    assert again.current_player() == TERMINAL  # the Kritisk box carried in: b starts utslagen


# ---- distances, reach, gain ground -------------------------------------------------------------------------------
def test_sju_avstand_inifran_och_ut_and_the_weapon_lengths_are_the_same_but_fri() -> None:
    people = R.distance_scale(monsters=False)
    assert people == ("Kropp", "Sköld", "Dolk", "Svärd", "Stång", "Spjut", "Fri")
    assert R.WEAPON_LENGTHS == ("Kropp", "Sköld", "Dolk", "Svärd", "Stång", "Spjut", "Klo", "Hugg", "Svans")


def test_stora_bestar_klo_hugg_och_svans_between_spjut_and_fri() -> None:
    beasts = R.distance_scale(monsters=True)
    assert beasts[beasts.index("Spjut") :] == ("Spjut", "Klo", "Hugg", "Svans", "Fri")


def test_tre_fall_for_kort_optimalt_och_for_langt_avstand() -> None:
    svard = R.DISTANCES.index("Svärd")
    assert [R.reach(d, svard) for d in (svard - 1, svard, svard + 1)] == ["too_close", "optimal", "too_far"]


@pytest.mark.through_cli
def test_forsvararen_far_aldrig_dessa_valmojligheter() -> None:
    state = state_of(document(fighter("a"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 50, 90, 3)
    assert state.phase == "ground" and state.legal_actions("b") == () and state.legal_actions("a")
