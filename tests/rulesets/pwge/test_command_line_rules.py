"""The text's rules where a game master meets them: at ``konflikt play`` and in what ``konflikt run`` prints (issue 43).

Each test marked ``through_cli`` drives a small conflict step by step and is then played again at
``konflikt play --dice table`` (tests/through_cli.py): the same steps typed at the prompts, the same state, choices and
narration. The expected numbers are the text's (000_2a78769688e39a97.txt), quoted in each docstring.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.scenario import scenario_from_document
from konflikt.dice import SumDice
from konflikt.rulesets.pwge.state import PwgeState
from tests.conftest import Result
from tests.rulesets.pwge.helpers import act, make, person, roll, texts

ANN, BO = 0, 1


def open_attribute(pid: str, **fields: Any) -> dict[str, Any]:
    """A participant whose attribute in use is chosen at the table (the scenario names none)."""
    someone = person(pid, **fields)
    del someone["attribute"]
    return someone


def tokens(state: PwgeState, pid: str) -> str:
    """The "marker (tokens)" cell of the status table the table shows: left/pool."""
    return state.status()[pid]["marker (tokens)"]


def distance(state: PwgeState, a: str, b: str) -> str:
    return state.status()[f"avstånd (distance) {a}–{b}"]["distance"]


def blue_pair(*blue: dict[str, Any], red: dict[str, Any] | None = None) -> PwgeState:
    """Ann (red) against two or more on blue: make() puts the extra people on red."""
    doc = {
        "ruleset": "pwge",
        "title": "test",
        "sides": [{"id": "red", "participants": [red or person("ann")]}, {"id": "blue", "participants": list(blue)}],
    }
    state = new_state(scenario_from_document(doc, "<test>"))
    assert isinstance(state, PwgeState)
    return state


def run_json(cli: Callable[..., Result], *args: str) -> dict[str, Any]:
    result = cli("run", *args, "--json")
    assert result.code == 0, result.err
    payload: dict[str, Any] = json.loads(result.out)
    return payload


# ---- Hur funkar PWGE / Definiera konflikten ----------------------------------------------------------------------
@pytest.mark.through_cli
def test_halla_koll_pa_hur_mycket_man_kan_gora_a_really_good_character_has_a_tjugotal() -> None:
    """ "du dessutom behöver något sätt att hålla koll på hur mycket man kan göra … En riktigt bra rollperson kan komma
    att behöva ett tjugotal som mest": Styrka 6 (2×6 = 12), an identity that fits directly (+4) and two fitting
    skills (+2 each) make 20 tokens; the table counts them down, one per handling."""
    best = person("ann", attributes={"Styrka": 6}, skills={"Svärdskonst": 3, "Närstrid": 2},
                  fitting_skills=["Svärdskonst", "Närstrid"], identity_fit="direct")  # fmt: skip
    state = make(best)
    assert tokens(state, "ann") == "20/20"
    act(state, "attack", target="bo", weapon="melee")
    assert tokens(state, "ann") == "19/20"
    assert "Ann spends 1 token (marker) on a handling (action) — 19 left" in texts(state)


def test_run_says_who_takes_part_and_what_each_side_wants(cli: Callable[..., Result]) -> None:
    """ "avgöra vilka som är inblandade i den och vad de vill uppnå": the duel's two sides, who is on each, and the
    goal its scenario states are printed before the first action."""
    result = cli("run", "pwge/duel", "--seed", "1")
    assert result.code == 0, result.err
    said = " ".join(result.out.replace("│", " ").split())
    assert (
        "side Silverpilen (the Silver Arrow's crew): Kapten Nova (heuristic) — goal: disarm and capture Zorak" in said
    )
    assert "side Zoraks pirater (Zorak's pirates): Zorak (heuristic) — goal: drive Nova off the asteroid" in said


@pytest.mark.through_cli
def test_varje_inblandad_part_bestammer_hur_the_attribute_is_chosen_at_the_table_and_fills_the_pool() -> None:
    """ "Därefter ska varje inblandad part bestämma hur man försöker uppnå det här målet. Slutligen ska man med ledning
    av hur man försöker uppnå målet vilken egenskap som bäst representerar den inställning": Ann, whose
    scenario leaves her approach open, takes Smidighet 5 at the table; her pool is then 2×5 +4 (identity fits
    directly) +2 (one fitting skill) = 16, not the 2×2 + 6 = 10 her Styrka would give."""
    ann = open_attribute("ann", attributes={"Styrka": 2, "Smidighet": 5}, skills={"Svärdskonst": 1},
                         fitting_skills=["Svärdskonst"], identity_fit="direct")  # fmt: skip
    state = make(ann)
    assert state.phase == "attribute" and state.current_player() == "ann"
    assert state.legal_actions() == [Action.of("attribute", name="Styrka"), Action.of("attribute", name="Smidighet")]
    act(state, "attribute", name="Smidighet")
    assert state.tokens[ANN] == 16 and tokens(state, "ann") == "16/16"
    assert (
        "Ann (red): handlingspöl (action pool) 16 tokens = 2×Smidighet 5 +4 identity fits directly "
        "+2×1 fitting skill −0 others on the side"
    ) in texts(state)
    assert state.phase == "open" and state.current_player() == "ann"


# ---- Definiera handlingspölen ------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_varje_rollperson_har_en_egen_handlingspol() -> None:
    """ "Varje rollperson har en egen handlingspöl": Ann's handling is paid from her pool alone; Cid, on her side,
    keeps all of his (6 − 1 for the other on the side = 5)."""
    state = make(extra_a=[person("cid")])
    act(state, "attack", target="bo", weapon="melee")
    assert (tokens(state, "ann"), tokens(state, "cid"), tokens(state, "bo")) == ("4/5", "5/5", "6/6")


@pytest.mark.through_cli
def test_dubbla_vardet_i_egenskapen_som_anvands() -> None:
    """ "Dubbla värdet i egenskapen som används": Ann takes Karisma 4 at the table, not her Styrka 1; with no identity
    fit and no fitting skill her pool is 2×4 = 8."""
    ann = open_attribute("ann", attributes={"Styrka": 1, "Karisma": 4})
    state = make(ann)
    act(state, "attribute", name="Karisma")
    assert tokens(state, "ann") == "8/8"
    assert any(t.startswith("Ann (red): handlingspöl (action pool) 8 tokens = 2×Karisma 4 +0 identity") for t in
               texts(state))  # fmt: skip


@pytest.mark.through_cli
def test_plus_4_om_identiteten_passar_direkt() -> None:
    """ "+4 om identiteten passar direkt": Styrka 3 and an identity that fits directly: 2×3 + 4 = 10."""
    state = make(open_attribute("ann", identity_fit="direct"))
    act(state, "attribute", name="Styrka")
    assert tokens(state, "ann") == "10/10"
    assert any("handlingspöl (action pool) 10 tokens = 2×Styrka 3 +4 identity fits directly" in t for t in texts(state))


@pytest.mark.through_cli
def test_plus_2_om_identiteten_passar_indirekt() -> None:
    """ "+2 om identiteten passar indirekt": Styrka 3 and an identity that fits indirectly: 2×3 + 2 = 8."""
    state = make(open_attribute("ann", identity_fit="indirect"))
    act(state, "attribute", name="Styrka")
    assert tokens(state, "ann") == "8/8"
    assert any(
        "handlingspöl (action pool) 8 tokens = 2×Styrka 3 +2 identity fits indirectly" in t for t in texts(state)
    )


@pytest.mark.through_cli
def test_plus_2_per_fardighet_som_passar() -> None:
    """ "+2 per färdighet som passar": Styrka 3 and three fitting skills: 2×3 + 3×2 = 12; a skill she has that does
    not fit (Pilot) adds nothing."""
    ann = open_attribute("ann", skills={"Svärdskonst": 1, "Närstrid": 1, "Hota": 1, "Pilot": 3},
                         fitting_skills=["Svärdskonst", "Närstrid", "Hota"])  # fmt: skip
    state = make(ann)
    act(state, "attribute", name="Styrka")
    assert tokens(state, "ann") == "12/12"
    assert any("12 tokens = 2×Styrka 3 +0 identity +2×3 fitting skills" in t for t in texts(state))


@pytest.mark.through_cli
def test_minus_1_for_varje_annan_person_som_ar_pa_den_egna_sidan() -> None:
    """ "-1 för varje annan person som är på den egna sidan i konflikten": three swordsmen of Styrka 3 on red have
    2×3 − 2 = 4 tokens each; Bo, alone on blue, 2×3 = 6."""
    state = make(extra_a=[person("cid"), person("dag")])
    act(state, "pass")
    assert [tokens(state, pid) for pid in ("ann", "cid", "dag", "bo")] == ["4/4", "4/4", "4/4", "6/6"]
    assert any(t.startswith("Ann (red): handlingspöl (action pool) 4 tokens") and t.endswith("−2 others on the side")
               for t in texts(state))  # fmt: skip


def test_run_prints_each_pool_by_the_texts_formula(cli: Callable[..., Result]) -> None:
    """ "Handlingspölens storlek bestäms på följande sätt: Dubbla värdet i egenskapen som används, +4 om identiteten
    passar direkt, +2 om identiteten passar indirekt, +2 per färdighet som passar, -1 för varje annan person …": in
    the duel Kapten Nova (Smidighet 4, identity indirect, one fitting skill, alone) has 8 + 2 + 2 = 12, Zorak (Styrka 4,
    identity direct, one fitting skill, alone) 8 + 4 + 2 = 14."""
    pools = {e["text"].split(" (")[0]: e["data"]["tokens"] for e in run_json(cli, "pwge/duel", "--seed", "1")["events"]
             if e["kind"] == "pool"}  # fmt: skip
    assert pools == {"Kapten Nova": 8 + 2 + 2, "Zorak": 8 + 4 + 2}


# ---- Hur man använder handlingspölarna ---------------------------------------------------------------------------
@pytest.mark.through_cli
def test_allvarligt_skadad_costs_five_tokens_even_if_not_unconscious() -> None:
    """ "Varje gång en person blir skadad så tappar denne en marker … Blir man allvarligt skadad så förlorar man två
    marker till, utöver ovanstående [Sårad: totalt tre], även om man inte blir medvetslös": Ann's sword hits Bo for 7
    (1T+2), Allvarligt skadad; he keeps 3 of 10 body points, still in, and loses 3 + 2 = 5 of his 6 tokens."""
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12, 2, 7)
    act(state, "accept")
    act(state, "accept")
    assert state.status()["bo"]["sår (wounds)"].startswith("Allvarligt")
    assert (state.body[BO], state.out[BO], tokens(state, "bo")) == (3, False, "1/6")


@pytest.mark.through_cli
def test_i_jaktsituationer_anfallshandlingar_ar_mojliga_och_skada_anvands() -> None:
    """ "Anfallshandlingar är möjliga, och i så fall kan det leda till att skada används": in a chase the pursuer Ann
    shoots the fleeing Bo at range 2 (2T+2); the hit is followed by a skadeslag, marked on Bo's body points."""
    state = make(
        person("ann", ranged_weapon="stralpistol"),
        setup={"kind": "chase", "fleeing": "blue", "start_distance": 2, "escape_distance": 6},
    )
    assert Action.of("attack", target="bo", weapon="ranged") in state.legal_actions()
    act(state, "attack", target="bo", weapon="ranged")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 12)
    assert state.pending_roll() == SumDice(2, 6, 2, "T")  # the range difficulty, 1…Kort
    roll(state, 4)
    assert state.phase == "damage" and state.pending_roll() is not None
    roll(state, 3)
    act(state, "accept")
    act(state, "accept")
    assert state.body[BO] < 10 and not state.is_terminal()


@pytest.mark.through_cli
def test_detta_upprepas_tills_ingen_langre_vill_gora_en_handling_counted_in_handlingar() -> None:
    """ "En person som vill göra något säger vad han vill göra. … Detta upprepas tills en eller fler sidor tömmer
    sina handlingspölar, eller att ingen längre vill göra en handling": Ann attacks, Bo steps closer, then neither
    wants to act: a dödläge after two handlingar (actions), whatever the rolls and answers in between."""
    state = make()
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    act(state, "no_response")
    roll(state, 7, 9)
    act(state, "accept")
    assert state.actions == 1
    act(state, "distance", target="ann", way="closer")
    act(state, "no_counter")
    act(state, "no_response")
    act(state, "pass")
    assert not state.is_terminal()
    act(state, "pass")
    outcome = state.outcome()
    assert (outcome.ending, outcome.data["actions"]) == ("deadlock", 2)
    assert outcome.data["steps"] > 2


@pytest.mark.through_cli
def test_man_har_inte_fler_handlingar_an_sa_an_emptied_pool_buys_nothing_but_can_be_attacked() -> None:
    """ "Man får spendera dem nästan hur man vill, men man har inte fler handlingar än så": Bo (Styrka 1, one other on
    his side: 2 − 1 = 1 token) spends it on a counter. Empty, he is asked for no response and no top, the floor
    passes him by, and Ann's next attack on him goes straight to the dice and lands."""
    state = blue_pair(person("bo", attributes={"Styrka": 1}), person("dan"))
    bo, dan = state.index["bo"], state.index["dan"]
    assert tokens(state, "bo") == "1/1"
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    assert tokens(state, "bo") == "0/1"
    assert state.is_chance_node(), "no response asked of an empty pool"
    roll(state, 12, 3)  # Ann ahead (Bo defends with 2T + Styrka 1); Bo, behind, is not asked to top
    assert state.phase == "damage"
    roll(state, 3)
    act(state, "accept")  # Ann keeps the damage; Bo is not asked to counter-top
    assert state.phase == "open" and state.current_player() == "dan"
    act(state, "pass")
    assert state.current_player() == "ann"
    act(state, "attack", target="bo", weapon="melee")
    assert state.is_chance_node(), "no counter and no response asked of an empty pool"
    roll(state, 12, 2, 3)
    act(state, "accept")
    assert state.body[bo] == 4 and state.tokens[dan] == 5


# ---- Avstånd -----------------------------------------------------------------------------------------------------
MELEE_LABELS = ["Kropp (body)", "Dolk (dagger)", "Svärd (sword)", "Stav (staff)", "Spjut (spear)"]


@pytest.mark.through_cli
def test_i_narstrid_finns_avstanden_kropp_dolk_svard_stav_och_spjut_one_step_at_a_time() -> None:
    """ "I närstrid finns avstånden Kropp, Dolk, Svärd, Stav och Spjut. Dessa ligger alla inom
    avståndsstridsavståndet 0" and "Så fort man går från avstånd 1 till 0 så är man på närstridsavstånd. Man kommer då
    in på det längsta vapnets optimala avstånd": Ann (spear) closes on Bo (sword) from range 1 and lands at Spjut;
    each further step closer is the next melee distance, down to Kropp, closer than which there is nothing."""
    state = make(person("ann", melee_weapon="spjut"), setup={"start_distance": 1})
    assert distance(state, "ann", "bo") == "avstånd 1 (range 1)"
    seen = []
    for _ in range(5):
        act(state, "distance", target="bo", way="closer")
        act(state, "no_counter")
        act(state, "no_response")
        seen.append(distance(state, "ann", "bo"))
        act(state, "pass")  # Bo
    assert seen == MELEE_LABELS[::-1]
    assert Action.of("distance", target="bo", way="closer") not in state.legal_actions()
    assert Action.of("distance", target="bo", way="farther") in state.legal_actions()


@pytest.mark.through_cli
def test_nar_avstandet_okas_fran_det_langsta_vapnet_hamnar_man_pa_avstand_1() -> None:
    """ "När avståndet ökas från det längsta vapnet så hamnar man på avstånd 1": Ann (sword) steps back from Bo
    (spear) at Svärd: first to Stav, then to Spjut, the longest weapon's distance, and only from there to range 1;
    out at range one step goes one range farther, and back."""
    state = make(b=person("bo", melee_weapon="spjut"), setup={"start_distance": "Svärd"})
    seen = []
    for way in ("farther", "farther", "farther", "farther", "closer"):
        act(state, "distance", target="bo", way=way)
        act(state, "no_counter")
        act(state, "no_response")
        seen.append(distance(state, "ann", "bo"))
        act(state, "pass")  # Bo
    assert seen == ["Stav (staff)", "Spjut (spear)", "avstånd 1 (range 1)", "avstånd 2 (range 2)",
                    "avstånd 1 (range 1)"]  # fmt: skip


TEXT_LENGTHS = {
    "obevapnad": "Kropp (body)",  # "För obeväpnad är vapenlängden Kropp"
    "dolk": "Dolk (dagger)",  # "för dolkar och sköldar är vapenlängden Dolk"
    "skold": "Dolk (dagger)",
    "svard": "Svärd (sword)",  # "för svärd och enhandsyxor är vapenlängden Svärd"
    "yxa": "Svärd (sword)",
    "tvahandssvard": "Stav (staff)",  # "tvåhandssvärd, tvåhandsyxor och stavar har vapenlängden Stav"
    "tvahandsyxa": "Stav (staff)",
    "stav": "Stav (staff)",
    "spjut": "Spjut (spear)",  # "och spjut och pålvapen har vapenlängden Spjut"
    "elektrospjut": "Spjut (spear)",
}


@pytest.mark.through_cli
def test_varje_vapen_har_en_vapenlangd_closing_in_lands_at_it() -> None:
    """The sentence's lengths, weapon by weapon ("För obeväpnad är vapenlängden Kropp, för dolkar och sköldar … Dolk,
    för svärd och enhandsyxor … Svärd, tvåhandssvärd, tvåhandsyxor och stavar … Stav, och spjut och pålvapen …
    Spjut"), as the table shows them: each fighter closes from range 1 on the unarmed Bo and lands "på det längsta
    vapnets optimala avstånd", its own weapon's length."""
    fighters = [person(f"f{n}", attributes={"Styrka": 6}, melee_weapon=key) for n, key in enumerate(TEXT_LENGTHS)]
    doc = {
        "ruleset": "pwge",
        "title": "lengths",
        "setup": {"start_distance": 1},
        "sides": [
            {"id": "red", "participants": fighters},
            {"id": "blue", "participants": [person("bo", melee_weapon="obevapnad")]},
        ],
    }
    state = new_state(scenario_from_document(doc, "<test>"))
    assert isinstance(state, PwgeState)
    for n in range(len(fighters)):
        assert state.current_player() == f"f{n}"
        act(state, "distance", target="bo", way="closer")
        act(state, "no_counter")
        act(state, "no_response")
    landed = {key: distance(state, f"f{n}", "bo") for n, key in enumerate(TEXT_LENGTHS)}
    assert landed == TEXT_LENGTHS


@pytest.mark.through_cli
def test_kortare_an_vapenlangden_utan_anfallsbonus_langre_inget_anfall_men_forsvar() -> None:
    """ "Om vapenlängden är lika lång som avståndet så får anfallsbonusen från vapnet användas. Om avståndet är kortare
    än vapenlängden så kan vapnet användas, men inte optimalt. Då får anfallsbonusen från vapnet inte användas. Om
    avståndet är längre än vapenlängden så kan man inte anfalla med vapnet. Däremot kan man försvara sig": at Svärd,
    Ann's spear (its bonus +1 in content/weapons.toml) attacks at 2T + Styrka 3, without the bonus; Bo's dagger cannot
    attack there, but he defends with it. At Spjut the same spear attacks at 2T + 3 + 1."""
    state = make(
        person("ann", melee_weapon="spjut"), person("bo", melee_weapon="dolk"), setup={"start_distance": "Svärd"}
    )
    act(state, "attack", target="bo", weapon="melee")
    assert {a.kind for a in state.legal_actions()} == {"counter", "no_counter"}  # Bo may defend
    act(state, "counter")
    act(state, "no_response")
    assert state.pending_roll() == SumDice(2, 6, 3, "T")  # no spear bonus at Svärd
    roll(state, 5, 12)
    act(state, "accept")  # Ann, behind, lets it stand
    assert state.current_player() == "bo"
    bo_may = state.legal_actions()
    assert Action.of("distance", target="ann", way="closer") in bo_may  # Bo has the floor
    assert not any(a.kind == "attack" and a.get("weapon") == "melee" for a in bo_may)
    optimal = make(person("ann", melee_weapon="spjut"), setup={"start_distance": "Spjut"})
    act(optimal, "attack", target="bo", weapon="melee")
    act(optimal, "no_counter")
    act(optimal, "no_response")
    assert optimal.pending_roll() == SumDice(2, 6, 3 + 1, "T")


@pytest.mark.through_cli
def test_pa_avstand_0_forsvarar_man_sig_med_narstridsvapen_ingen_skillnad_mot_narstrid() -> None:
    """ "Om avståndet är 0 så får motståndaren försvara sig med närstridsvapen. Det blir ingen skillnad gentemot
    vanliga närstridsanfall": Ann fires her ray pistol at Bo at Svärd (a melee distance, ranged 0): uncountered it is
    rolled against 2T, as a melee attack, not 2T+2; countered, Bo parries with his sword at 2T + Styrka 3, without
    the range difficulty a dodge at range 1 gets."""
    pistol = person("ann", ranged_weapon="stralpistol")
    state = make(pistol, setup={"start_distance": "Svärd"})
    act(state, "attack", target="bo", weapon="ranged")
    act(state, "no_counter")
    act(state, "no_response")
    roll(state, 9)
    assert state.pending_roll() == SumDice(2, 6, 0, "T")
    countered = make(pistol, setup={"start_distance": "Svärd"})
    act(countered, "attack", target="bo", weapon="ranged")
    act(countered, "counter")
    act(countered, "no_response")
    roll(countered, 9)
    assert countered.pending_roll() == SumDice(2, 6, 3, "T")
    at_range = make(pistol, setup={"start_distance": 1})
    act(at_range, "attack", target="bo", weapon="ranged")
    act(at_range, "counter")
    act(at_range, "no_response")
    roll(at_range, 9)
    assert at_range.pending_roll() == SumDice(2, 6, 3 + 2, "T")


# ---- En konflikts utgång -----------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_ena_sidans_handlingspol_tar_slut_the_loser_may_withdraw_and_regroup() -> None:
    """ "Om ena sidans handlingspöl tar slut innan den andra sidans pöl utan att nå ett avgörande så har den första
    sidan förlorat konflikten … Om den förlorande sidan kan dra sig ur konflikten så kan denne fortfarande omgruppera
    och ta nya tag med en annan strategi": Ann (Styrka 1: 2 tokens) attacks, is parried, tops and misses again; her
    pool is empty with Bo standing: red has lost, the conflict is over, and the summary says she may fight another
    day."""
    state = make(person("ann", attributes={"Styrka": 1}))
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    act(state, "no_response")
    roll(state, 5, 10)
    act(state, "top")
    assert tokens(state, "ann") == "0/2"
    roll(state, 6)
    outcome = state.outcome()
    assert state.is_terminal() and (outcome.ending, outcome.winners) == ("pools_exhausted", ("blue",))
    assert "live and fight another day" in outcome.summary
    assert state.body == [10, 10]


# ---- Skada och avstånd i diplomati och kärlek --------------------------------------------------------------------
@pytest.mark.through_cli
def test_sociala_och_diplomatiska_avstand_mats_bara_pa_skalan_0_10() -> None:
    """ "och mäts bara på skalan 0-10. 10 är väldigt fientliga relationer, medan 1 är väldigt välvilliga relationer":
    with the suggestion on, a diplomatic distance of 1 can be closed to 0 and no closer; one of 9 can be widened to
    10 and no farther."""
    options = {"social_distance_and_damage": True}
    near = make(setup={"kind": "diplomatic", "relation_distance": 1}, options=options)
    act(near, "distance", target="bo", way="closer")
    act(near, "no_counter")
    act(near, "no_response")
    assert distance(near, "ann", "bo") == "0 of 0–10"
    assert near.current_player() == "bo"
    assert Action.of("distance", target="ann", way="closer") not in near.legal_actions()
    assert Action.of("distance", target="ann", way="farther") in near.legal_actions()
    far = make(setup={"kind": "diplomatic", "relation_distance": 9}, options=options)
    act(far, "distance", target="bo", way="farther")
    act(far, "no_counter")
    act(far, "no_response")
    assert distance(far, "ann", "bo") == "10 of 0–10"
    assert far.current_player() == "bo"
    assert Action.of("distance", target="ann", way="farther") not in far.legal_actions()
    assert Action.of("distance", target="ann", way="closer") in far.legal_actions()


# ---- Liten frivillig regel på slutet -----------------------------------------------------------------------------
@pytest.mark.through_cli
def test_vill_man_spendera_erfarenhetstarningar_maste_man_ha_minst_en_marker_kvar() -> None:
    """ "Man kan alltså spendera en erfarenhetstärning istället för en marker ur ens handlingspöl. Är pölen tom så är
    man dock körd, så vill man spendera erfarenhetstärningar så måste man ha minst en marker kvar i pölen": Ann
    (Styrka 1: 2 tokens, 2 experience dice) attacks with a token; with one token left she tops with a die; then tops
    with her last token. Her pool is empty: she holds a die she may not spend, and red has run out."""
    state = make(person("ann", attributes={"Styrka": 1}, experience_dice=2), options={"experience_dice": True})
    act(state, "attack", target="bo", weapon="melee")
    act(state, "counter")
    act(state, "no_response")
    roll(state, 5, 10)
    assert Action.of("top", pay="die") in state.legal_actions()
    act(state, "top", pay="die")
    assert (state.tokens[ANN], state.xp[ANN]) == (1, 1)
    roll(state, 6)
    act(state, "top")
    assert (state.tokens[ANN], state.xp[ANN]) == (0, 1)
    roll(state, 7)
    assert state.is_terminal() and state.outcome().ending == "pools_exhausted"
    assert state.outcome().winners == ("blue",) and state.xp[ANN] == 1
