"""Le våld's rules where a game master meets them: states driven step by step from small inline scenarios (each test
marked ``through_cli`` is played again at ``konflikt play --dice table``, tests/through_cli.py), and ``konflikt``'s
own output. Every expected number comes from the text (001_e8170c3b64f9e9a4.txt), not from the program."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from konflikt.core.state import SIMULTANEOUS
from konflikt.errors import KonfliktError
from konflikt.rulesets.levald.state import LevaldState
from tests.campaign.helpers import character_file, documents
from tests.conftest import Result
from tests.rulesets.levald.helpers import act, document, fighter, move, roll, state_of

# "Här är en liten del av en vapentabell": the text's table, column by column (Vapen, Färdighet, Typ, Anfallsmod,
# Försvarsmod, Skada skyddad, Skada öppen, Vapenlängd, Stryktålighet, "Bra").
TEXTS_TABLE = {
    "Spjut": ("Stångvapen", "Lätt", 10, 10, "1T6", "3T6", "Spjut", 2, 13),
    "Kortsvärd": ("Enhandsvapen", "Lätt", 0, 0, "2T6", "3T6", "Svärd", 4, 12),
    "Svärd": ("Enhandsvapen", "Lätt", 0, 0, "3T6", "3T6", "Svärd", 4, 13),
    "Långsvärd": ("Enhandsvapen", "Tungt", 0, 0, "4T6", "3T6", "Stång", 4, 15),
    "Sköld": ("Enhandsvapen plus sköld", "Lätt + vapen", -10, 40, "4T6", "1T6", "Sköld", 3, 12),
    "Trästav": ("Stångvapen", "Lätt", 10, 10, "3T6", "1T6", "Stång", 2, 12),
}
COLUMNS = (
    "skill",
    "type",
    "attack_mod",
    "defence_mod",
    "damage_guarded",
    "damage_open",
    "length",
    "durability",
    "bra",
)
SKILL = 60  # every fighter of tests/rulesets/levald/helpers.py has 60% in every skill
# Kraft 12, Själ 16 (the helpers' fighter, and Snurre): "Hans skadetrösklar är 6, 12, 28 och 38."
SKRAMA, LATT, ALLVARLIG, KRITISK, DODLIG = "Skråma", "Lätt", "Allvarlig", "Kritisk", "Dödlig"


def _duel(wa: Any = "Svärd", wb: Any = "Spjut", distance: str = "Svärd", **kw: Any) -> LevaldState:
    a_fields = kw.pop("a", {})
    b_fields = kw.pop("b", {})
    return state_of(document(fighter("a", wa, **a_fields), fighter("b", wb, **b_fields), distance, **kw))


def _fighter_view(state: LevaldState, seat: str, pid: str) -> dict[str, Any]:
    return next(f for f in state.view(seat)["fighters"] if f["id"] == pid)


def _wounds(state: LevaldState, pid: str) -> dict[str, int]:
    return dict(_fighter_view(state, "@gm", pid)["wounds"])


def _ticked(state: LevaldState, pid: str) -> list[str]:
    return [level for level, count in _wounds(state, pid).items() for _ in range(count)]


def _distance(state: LevaldState) -> str:
    return str(state.view("@gm")["pairs"][0]["distance"])


def _hit(state: LevaldState, attack: int, damage: int, defence: int = 99, gain_ground: bool = True) -> None:
    """a holds the initiative at an unchanged distance: a attacks, b defends and fails (99), the damage dice fall,
    a keeps the distance (follows)."""
    move(state, a="hold", b="hold")
    assert state.current_player() == "a" and state.phase == "attacker"
    act(state, "attack")
    act(state, "defend")
    roll(state, attack, defence, damage)
    if gain_ground:
        act(state, "ground", step=0)


# ---- Verktyg och härskrud -------------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_har_ar_en_liten_del_av_en_vapentabell_every_column_at_the_table() -> None:
    """ "Här är en liten del av en vapentabell": each of the six weapons, wielded in a scenario at the table, has
    the text's Färdighet, Typ, Anfallsmod, Försvarsmod, Skada skyddad, Skada öppen, Vapenlängd, Stryktålighet and
    "Bra" in the game master's view."""
    names = list(TEXTS_TABLE)
    for a, b in zip(names[0::2], names[1::2], strict=True):
        state = _duel(a, b, "Fri")
        move(state, a="hold", b="hold")  # both too far: nobody fights, the round ends
        for pid, name in (("a", a), ("b", b)):
            weapon = _fighter_view(state, "@gm", pid)["weapon"]
            assert weapon["name"] == name
            assert tuple(weapon[c] for c in COLUMNS) == TEXTS_TABLE[name], name


@pytest.mark.through_cli
def test_bra_kommer_inte_att_publiceras_oppet_the_players_never_see_it() -> None:
    """'"Bra" slutligen är ett spelbalanseringsvärde … Det kommer inte att publiceras öppet i slutet': in the
    middle of a fight no seat's view holds a weapon's "Bra", while the game master's holds the table's 12 and 13."""
    state = _duel("Kortsvärd", "Spjut", "Fri")
    move(state, a="advance", b="advance")  # Spjut: b's spear reaches, a's short sword does not
    for seat in ("a", "b"):
        for shown in state.view(seat)["fighters"]:
            assert "bra" not in shown["weapon"], (seat, shown["weapon"])
            assert shown["weapon"]["damage_guarded"]  # the rest of the weapon is shown
    assert [f["weapon"]["bra"] for f in state.view("@gm")["fighters"]] == [12, 13]


# ---- Avstånd, vapenlängd och rörelse ---------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_sju_avstand_inifran_och_ut_walked_from_kropp_to_fri() -> None:
    """ "Det finns sju avstånd, inifrån och ut Kropp, Sköld, Dolk, Svärd, Stång Spjut och Fri": two swordsmen who
    both retreat every round walk the seven distances from Kropp out to Fri, one step a round, and no further.
    "Vapenlängderna är samma, utom Fri som inte finns": a weapon of length Fri is refused."""
    state = _duel("Svärd", "Svärd", "Kropp")
    seen = [_distance(state)]
    while _distance(state) != "Fri":
        move(state, a="retreat", b="retreat")
        seen.append(_distance(state))
        if state.phase == "init_roll":  # both too close, or both optimal: Stridsvana, and both fail
            roll(state, 99, 99)
        assert state.current_player() == SIMULTANEOUS, state.phase
    assert seen == ["Kropp", "Sköld", "Dolk", "Svärd", "Stång", "Spjut", "Fri"]
    move(state, a="retreat", b="retreat")
    assert _distance(state) == "Fri"  # nothing beyond Fri
    fri = {"name": "Lans", "skill": "Stångvapen", "damage_guarded": "1T6", "damage_open": "3T6", "length": "Fri"}
    with pytest.raises(KonfliktError):
        _duel(fri, "Svärd")


@pytest.mark.through_cli
def test_stora_bestar_klo_hugg_och_svans_between_spjut_and_fri_at_the_table() -> None:
    """ "Stora bestar och monster kan dessutom ha några avstånd till, som hamnar mellan Spjut och Fri. Dessa är i
    avstånd räknat, Klo, Hugg och Svans": a beast with a claw of length Hugg closes in from Fri through Svans and
    Hugg, and on to Klo and Spjut; at Hugg its claw is at the optimal distance and it attacks."""
    claw = {"name": "Klor", "skill": "Enhandsvapen", "damage_guarded": "2T6", "damage_open": "2T6", "length": "Hugg"}
    state = _duel(claw, "Spjut", "Fri")
    seen = [_distance(state)]
    move(state, a="advance", b="hold")
    roll(state, 20, 99)  # Stridsvana: the beast has its way
    seen.append(_distance(state))  # Svans: both too far
    move(state, a="advance", b="advance")
    seen.append(_distance(state))
    assert state.phase == "attacker" and state.current_player() == "a"  # Hugg: the claw's own length
    act(state, "regain")
    move(state, a="advance", b="advance")
    seen.append(_distance(state))
    act(state, "regain")
    move(state, a="advance", b="advance")
    seen.append(_distance(state))
    assert seen == ["Fri", "Svans", "Hugg", "Klo", "Spjut"]


@pytest.mark.through_cli
def test_behalla_minska_eller_oka_avstandet_the_three_choices_at_the_start_of_a_round() -> None:
    """ "I början på en runda så kan man välja mellan att behålla avståndet, minska avståndet eller öka
    avståndet": every round opens with Avancera, Bibehålla and Retirera for each fighter; both advancing close
    the distance, both holding keep it, both retreating open it."""
    state = _duel("Svärd", "Svärd", "Fri")
    for wish, after in (("advance", "Spjut"), ("hold", "Spjut"), ("retreat", "Fri")):
        for seat in ("a", "b"):
            assert [x.kind for x in state.legal_actions(seat)][:3] == ["advance", "hold", "retreat"]
        move(state, a=wish, b=wish)  # out of reach of both swords: the round ends at once
        assert _distance(state) == after, wish


@pytest.mark.through_cli
def test_tre_fall_for_kort_optimalt_och_for_langt_avstand_decide_the_attacker() -> None:
    """ "För långt avstånd innebär att fienden är längre bort än ens eget vapens längd. Optimalt avstånd … på samma
    avstånd … För kort avstånd … närmare": a sword (length Svärd) against a spear (length Spjut), closing in.
    At Fri both are too far: nobody fights. At Spjut the sword is too far, the spear optimal: the spear attacks.
    At Stång the sword is too far, the spear too close: "den som är på för långt avstånd [blir] automatiskt
    försvarare". At Svärd the sword is optimal, the spear too close: the sword attacks. At Dolk both are too close:
    an opposed Stridsvana roll."""
    state = _duel("Svärd", "Spjut", "Fri", a={"gard_now": 6}, b={"gard_now": 6})
    move(state, a="hold", b="hold")
    assert state.current_player() == SIMULTANEOUS and [f["gard"] for f in state.view("@gm")["fighters"]] == [7, 7]
    for distance, attacker in (("Spjut", "b"), ("Stång", "b"), ("Svärd", "a")):
        move(state, a="advance", b="advance")
        assert _distance(state) == distance
        assert state.phase == "attacker" and state.current_player() == attacker, distance
        act(state, "regain")
    move(state, a="advance", b="advance")
    assert _distance(state) == "Dolk" and state.phase == "init_roll"


# ---- Anfall och försvar ----------------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_anfallsslaget_vinns_only_when_it_succeeds_with_higher_quality() -> None:
    """ "Om anfallsslaget vinns (anfallsslaget lyckas och kvaliteten är högre än försvarsslaget) så gör den som slog
    anfallsslaget skada … Om försvarsslaget vinns, eller om anfallsslaget missar, så görs ingen skada": the sword
    (60) attacks the spear (defence 70). 47 against 38: both succeed, equal quality (effect 4+7 = 3+8): no damage.
    70 against 95: the attack misses: no damage, though the defence failed too. 35 against 99: the attack succeeds,
    the defence fails: the damage dice are rolled."""
    state = _duel("Svärd", "Spjut", "Svärd")
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 47, 38)
    assert state.phase == "ground" and state.pending_roll() is None  # succeeded, gains ground, no damage
    assert [f["gard"] for f in state.view("@gm")["fighters"]] == [12, 12]
    act(state, "ground", step=0)
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 70, 95)
    assert state.current_player() == SIMULTANEOUS  # the round is over: no damage, no ground
    assert [f["gard"] for f in state.view("@gm")["fighters"]] == [12, 12]
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 35, 99)
    pending = state.pending_roll()
    assert pending is not None and pending.notation == "3T6"  # the sword's damage against b


# ---- Skada -----------------------------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_gard_kvar_skyddad_skadepotential_marked_on_gard_fjorton_steg() -> None:
    """ "Om anfallsslaget lyckades och det finns Gard kvar, slå skyddad skadepotential börja markera skadan på Gard"
    and "Får man 14 poäng i skada så flyttar man ner gemet 14 steg": a Kortsvärd (Skada skyddad 2T6, öppen 3T6)
    hits a spearman with 20 Gard: the guarded 2T6 are rolled; effect 8 (35: 3+5) and 6 on the dice, 14 points, move
    the paper clip from 20 down to 6, and no wound is ticked."""
    state = _duel("Kortsvärd", "Spjut", "Svärd", b={"gard": 20})
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 35, 99)
    pending = state.pending_roll()
    assert pending is not None and pending.notation == "2T6"
    roll(state, 6)
    assert _fighter_view(state, "@gm", "b")["gard"] == 20 - 14
    assert _ticked(state, "b") == []


@pytest.mark.through_cli
def test_gard_slut_redan_fran_borjan_oppen_skadepotential_hela_skadan_jamfors() -> None:
    """ "Om Gard har tagit slut, slå öppen skadepotential och jämför med skadetrösklar" and "Är Gard slut redan
    från början så jämförs hela skadeslaget med trösklarna": a Kortsvärd hits a spearman who starts without Gard:
    the open 3T6 are rolled (not the guarded 2T6), and all of effect 8 + 10 = 18 is compared: 12 ≤ 18 < 28, an
    Allvarlig wound (Kraft 12, Själ 16: thresholds 6, 12, 28, 38)."""
    state = _duel("Kortsvärd", "Spjut", "Svärd", b={"gard_now": 0})
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 35, 99)
    pending = state.pending_roll()
    assert pending is not None and pending.notation == "3T6"
    roll(state, 10)
    assert _ticked(state, "b") == [ALLVARLIG]
    assert _fighter_view(state, "@gm", "b")["gard"] == 0


@pytest.mark.through_cli
def test_gard_tar_slut_innan_skadan_den_overskjutande_delen_jamfors() -> None:
    """ "Skulle det vara så att Gard tar slut innan skadan gör det så jämförs den överskjutande delen av skadan med
    trösklarna": 10 Gard left and 18 points (effect 8 + 10 on the Svärd's guarded 3T6): 10 eat the Gard, the 8 that
    fall over are compared: 6 ≤ 8 < 12, a Lätt wound (the whole 18 would have been Allvarlig)."""
    state = _duel("Svärd", "Spjut", "Svärd", b={"gard_now": 10})
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 35, 99, 10)
    assert _fighter_view(state, "@gm", "b")["gard"] == 0
    assert _ticked(state, "b") == [LATT]


@pytest.mark.through_cli
def test_storre_an_eller_lika_med_en_skadetroskel_ger_den_skadenivan() -> None:
    """ "Om skada som jämförs med skadeströsklarna är större än eller lika med med en skadetröskel så får man den
    skadenivån" (thresholds 6, 12, 28, 38 for Kraft 12, Själ 16), against a spearman without Gard, Kortsvärd's open
    3T6: 2 + 3 = 5, under the lowest: a Skråma ("skråmor får man om skadan är mindre än lägsta tröskeln");
    2 + 4 = 6, exactly Lätt; 8 + 3 = 11, still Lätt; 8 + 4 = 12, exactly Allvarlig."""
    state = _duel("Kortsvärd", "Spjut", "Svärd", b={"gard_now": 0})
    expected: list[str] = []
    for attack, dice, level in ((20, 3, SKRAMA), (20, 4, LATT), (35, 3, LATT), (35, 4, ALLVARLIG)):
        _hit(state, attack, dice)
        expected.append(level)
        assert sorted(_ticked(state, "b")) == sorted(expected), (attack, dice)


@pytest.mark.through_cli
def test_snurre_kraft_12_och_sjal_16_skadetrosklar_6_12_28_och_38_at_the_table() -> None:
    """ "Snurre har Kraft 12 och Själ 16. Hans skadetrösklar är 6, 12, 28 och 38": the bundled Snurre's
    thresholds in the game master's view, and open hits (effect 8 and a war hammer's 6T6) at each side of the two
    highest: 27 is Allvarlig, then 28 Kritisk; against a fresh Snurre 37 is Kritisk, against another 38 Dödlig."""
    hammer = {"name": "Hammare", "skill": "Enhandsvapen", "damage_guarded": "6T6", "damage_open": "6T6"}
    hammer["length"] = "Svärd"
    snurre = {"id": "b", "character": "builtin:snurre", "policy": "heuristic", "gard_now": 0}
    for hits in ((27, 28), (37,), (38,)):
        state = state_of(document(fighter("a", hammer), snurre, "Svärd", wield={"b": "Spjut"}))
        assert _fighter_view(state, "@gm", "b")["thresholds"] == [6, 12, 28, 38]
        for number, damage in enumerate(hits):
            _hit(state, 35, damage - 8, gain_ground=number < len(hits) - 1)
        expected = {(27, 28): [ALLVARLIG, KRITISK], (37,): [KRITISK], (38,): [DODLIG]}[hits]
        assert _ticked(state, "b") == expected, hits


@pytest.mark.through_cli
def test_omtockning_skrama_ett_latt_vapnets_skada_allvarlig_plus_effekten() -> None:
    """ "En Skråma ger 1 Omtöckning, en Lätt skada ger vapnets skada som Omtöckning, och en Allvarlig skada ger
    vapnets skada plus anfallsslaget effekt som Omtöckning": three open hits of a Kortsvärd: 2 + 3 = 5 a Skråma,
    +1; 2 + 4 = 6 a Lätt, + the dice 4; 8 + 10 = 18 an Allvarlig, + 10 + 8: 1, 5, 23."""
    state = _duel("Kortsvärd", "Spjut", "Svärd", b={"gard_now": 0})
    dazes = []
    for attack, dice in ((20, 3), (20, 4), (35, 10)):
        _hit(state, attack, dice)
        dazes.append(_fighter_view(state, "@gm", "b")["daze"])
    assert dazes == [1, 1 + 4, 1 + 4 + 18]


@pytest.mark.through_cli
def test_var_femte_poang_omtockning_ger_minus_tio_procent_pa_alla_slag() -> None:
    """ "Var femte poäng Omtöckning ger en modifikation på -10% på alla slag", read with the text's example ("De
    första 5 ger inte någon negativ modifikation, men de nästföljande 5 ger -10%"; 34 points: "totalt -60%"): the
    sword (60%) with 10 Omtöckning attacks at 50, so 55 misses; the spear's defence (70) with 34 Omtöckning is
    10, so 11 fails and the sword's 45 hits."""
    state = _duel("Svärd", "Spjut", "Svärd", a={"daze": 10}, b={"daze": 34})
    assert [f["penalty"] for f in state.view("@gm")["fighters"]] == [-10, -60]
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 55, 99)
    assert state.current_player() == SIMULTANEOUS  # 55 > 60 − 10: a miss, no damage, no ground
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 45, 11)
    assert state.pending_roll() is not None  # 11 > 70 − 60: the defence failed, the attack wins


# ---- what the command line prints ------------------------------------------------------------------------------------
def test_run_prints_snurres_skadetrosklar_6_12_28_och_38(cli: Callable[..., Result]) -> None:
    """ "Snurre har Kraft 12 och Själ 16. Hans skadetrösklar är 6, 12, 28 och 38": ``konflikt run levald/duel``
    opens with Snurre's thresholds."""
    result = cli("run", "levald/duel", "--seed", "1")
    assert result.code == 0, result.err
    text = " ".join(result.out.split())
    assert re.search(r"Snurre \(Snurre\): .*?trösklar \(thresholds\) 6/12/28/38", text), text[:800]


def test_campaign_rest_omtockning_atervinns_ett_poang_per_runda(cli: Callable[..., Result], tmp_path: Path) -> None:
    """ "Omtöckning återvinns i alla fall med ett poäng per runda då man vilar": Snurre with 20 Omtöckning and one
    Lätt wound rests 5 rounds (``konflikt campaign rest --rounds 5``) and has 15, then 4 more and has 11."""
    db = tmp_path / "c.sqlite"
    added = cli("chars", "add", str(character_file("levald", "snurre")), "--ruleset", "levald", "--db", str(db))
    assert added.code == 0, added.err
    assert cli("chars", "edit", "snurre", "--set", "daze=20", "--set", "wounds.lätt=1", "--db", str(db)).code == 0
    rested = cli("campaign", "rest", "--rounds", "5", "--db", str(db))
    assert rested.code == 0 and documents(db)["snurre"]["daze"] == 15, rested.out + rested.err
    rested = cli("campaign", "rest", "--rounds", "4", "--db", str(db))
    assert rested.code == 0 and documents(db)["snurre"]["daze"] == 11, rested.out + rested.err
