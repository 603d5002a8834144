"""The text's rules where a game master meets them: at ``konflikt play`` and in what ``konflikt`` prints.

Tests marked ``through_cli`` drive a state from a small inline scenario and are played again, typed input by input,
at ``konflikt play --dice table`` (tests/through_cli.py). The others run ``konflikt`` itself (the ``cli`` fixture):
``run`` and ``campaign rest`` for what they print, ``play`` with the GM seat left to the heuristic, whose judgement
(the advantages) is what they check. Every expected number comes from the text (003_5ba08cd670b8dcaf.txt, quoted),
or, where the text leaves a value to the data (a sword's damage factor, a spear's reach), from the bundled tables
named beside it.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from konflikt.core.overrides import dump_toml
from konflikt.core.state import TERMINAL
from tests.conftest import Result
from tests.rulesets.presja.helpers import (
    absorb_choices,
    act,
    duel,
    fighter,
    kinds,
    pass_invocations,
    roll,
    scenario,
    texts,
)

FISTS = {"skill": 2, "fate_points": 0}
"""Walka dobra (+2), bare fists (Czynnik Obrażeń +0), no armour (Czynnik Wyparowań +0), no fate points to spend."""

CARRIED_FULL = {
    "marked_boxes": ["1", "1", "2-3", "2-3", "4-5"],
    "consequences": {"mild": "Zmęczony", "moderate": "Skręcenie kostki", "severe": "Złamana ręka"},
}
"""A character who comes in with every box of the track marked and every consequence taken: no room for presja."""


def _attack(state: Any, who: str) -> dict[str, Any]:
    return dict(next(e for e in state.history() if e.kind == "attack" and e.data["who"] == who).data)


def _attack_text(state: Any, who: str) -> str:
    return str(next(e.text for e in state.history() if e.kind == "attack" and e.data["who"] == who))


# ---- Atak i Obrona: umiejętność + 4dF --------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_atak_i_obrona_jest_rowna_umiejetnosc_plus_4df_the_same_dice_and_the_skill_decides() -> None:
    """ "Jest ona równa: umiejętność +4dF" and "do poziomu używanej umiejętności dodajemy wynik 4dF": both roll
    ``+ + 0 -`` (+1); "Ich skuteczność zdeterminowana jest przez poziom umiejętności użytej w walce": a's skill 3
    makes Atak i Obrona 4, b's skill 1 makes 2."""
    state = duel({"skill": 3, "fate_points": 0}, {"skill": 1, "fate_points": 0})
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "+ + 0 -")
    roll(state, "+ + 0 -")
    a, b = state.index["a"], state.index["b"]
    assert (state.result(a), state.result(b)) == (3 + 1, 1 + 1)
    rolled = texts(state, "roll")
    assert "+ + 0 - = +1" in rolled[0] and rolled[0].endswith("Atak i Obrona (attack and defence) 4")
    assert "+ + 0 - = +1" in rolled[1] and rolled[1].endswith("Atak i Obrona (attack and defence) 2")


@pytest.mark.through_cli
def test_porownanie_swojego_ataku_z_obrona_przeciwnika_okresla_wywarta_presje() -> None:
    """ "porównanie swojego Ataku z Obrona przeciwnika określa nam wywartą presję": a's Atak 4 against b's Obrona 2
    presses b by the margin 2 (fists +0, no armour +0); b's Atak 2 against a's Obrona 4 is repelled. Each attack
    meets the other's Obrona, not its own."""
    state = duel({"skill": 3, "fate_points": 0}, {"skill": 1, "fate_points": 0})
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "+ + 0 -")
    roll(state, "+ + 0 -")
    pass_invocations(state)
    a_on_b, b_on_a = _attack(state, "a"), _attack(state, "b")
    assert (a_on_b["attack"], a_on_b["defence"], a_on_b["margin"], a_on_b["pressure"]) == (4, 2, 2, 2)
    assert (b_on_a["attack"], b_on_a["defence"], b_on_a["margin"], b_on_a["pressure"]) == (2, 4, -2, 0)
    assert "odparty (repelled), no presja" in _attack_text(state, "b")
    assert state.current_player() == "b" and set(kinds(state)) == {"absorb", "taken_out"}, "b takes presja 2"


# ---- Taktyka obronna ------------------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_taktyka_obronna_dodaje_1_do_obrony_odejmujac_1_od_ataku() -> None:
    """ "Taktyka obronna, dodaje 1 do obrony postaci, odejmując 1 od ataku bohatera": a (+2, rolls +0) declares the
    defensive tactic: its Atak on b is 1, its Obrona against b's Atak 2 is 3; b (no tactic) stays at 2 and 2."""
    state = duel(FISTS, FISTS)
    act(state, "attack", target="b", tactic="defensive")
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    pass_invocations(state)
    a_on_b, b_on_a = _attack(state, "a"), _attack(state, "b")
    assert (a_on_b["attack"], a_on_b["defence"]) == (2 - 1, 2)
    assert (b_on_a["attack"], b_on_a["defence"]) == (2, 2 + 1)
    assert "taktyka (tactic) -1" in _attack_text(state, "a") and "taktyka (tactic) +1" in _attack_text(state, "b")
    assert not state.is_terminal() and state.exchange == 2, "both repelled: nobody takes presja"


# ---- Otoczenie ------------------------------------------------------------------------------------------------------
def _three_on(target_side: int) -> Any:
    """g0, g1 and g2 all attack lone where it stands; lone's side has ``target_side`` fighters there (lone
    included, the others defending). Numbers, flanking and surrounding follow from the positions."""
    gang = [fighter(f"g{k}", **FISTS, zmysly=5 - k) for k in range(3)]
    friends = [fighter(f"f{k}", **FISTS, zmysly=-2 - k) for k in range(1, target_side)]
    options = {f"advantage_{k}": "auto" for k in ("numbers", "flanking", "surrounded")}
    state = scenario([gang, [fighter("lone", **FISTS, zmysly=-1), *friends]], options)
    for _ in range(3):
        act(state, "attack", target="lone", tactic=None)
    for _ in range(target_side):
        act(state, "defend", tactic=None)
    for _ in range(3 + target_side):
        roll(state, "0 0 0 0")
    return state


@pytest.mark.through_cli
def test_trudno_kogos_otoczyc_nie_bedac_wpierw_w_przewadze_liczebnej_i_nie_oskrzydlajac_go() -> None:
    """ "Otoczenie – bonus +1 dla strony, która otacza przeciwnika ze wszystkich stron, kumulatywnie … (zresztą
    trudno kogoś otoczyć nie będąc wpierw w przewadze liczebnej i nie oskrzydlając go)": three come at lone alone:
    liczebna, oskrzydlenie and otoczenie, Atak 2 + 3; three come at lone among two friends (3 against 3, no
    numbers): oskrzydlenie alone, Atak 2 + 1, and no surrounding."""
    alone = _three_on(1)
    assert _attack(alone, "g0")["attack"] == 2 + 3
    assert "Otoczenie (surrounded) +1" in _attack_text(alone, "g0")
    among_friends = _three_on(3)
    assert _attack(among_friends, "g0")["attack"] == 2 + 1
    assert "Oskrzydlenie (flanking) +1" in _attack_text(among_friends, "g0")
    assert "Otoczenie" not in _attack_text(among_friends, "g0")
    assert "Przewaga liczebna" not in _attack_text(among_friends, "g0")


# ---- Czynniki: po porównaniu, przy 0 lub więcej ----------------------------------------------------------------------
def _one_attack(attacker: dict[str, Any], target: dict[str, Any], attacker_faces: str, target_faces: str) -> Any:
    state = duel({**FISTS, **attacker}, {**FISTS, **target})
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, attacker_faces)
    roll(state, target_faces)
    pass_invocations(state)
    return state


@pytest.mark.through_cli
def test_po_porownaniu_a_sword_does_not_turn_a_repelled_attack_into_presja() -> None:
    """ "Ten krok stosujemy na samym końcu. PO PORÓWNANIU zmodyfikowanych wartości ataku i obrony": a's Atak 3
    against b's Obrona 4 is repelled; the sword's Czynnik Obrażeń (+2, weapons.toml) would have made it 5 against 4
    had it been added before the comparison."""
    state = _one_attack({"weapon": "miecz"}, {}, "+ 0 0 0", "+ + 0 0")
    numbers = _attack(state, "a")
    assert (numbers["attack"], numbers["defence"], numbers["pressure"]) == (3, 4, 0)
    assert "margin -1: odparty (repelled), no presja" in _attack_text(state, "a")
    assert "Czynnik Obrażeń" not in _attack_text(state, "a")
    assert state.exchange == 2 and state.current_player() == "a", "no presja to take: the next exchange"


@pytest.mark.through_cli
def test_wartosc_0_lub_wiecej_a_tie_brings_the_factors_in() -> None:
    """ "Jeśli którakolwiek ze stron w swoim ataku uzyskała wartość 0 lub więcej" and "jeśli którakolwiek ze stron
    uzyskała wynik wyższy lub równy, dodajemy do wartości Ataku Czynnik Obrażeń, a do wartości Obrony Czynnik
    Wyparowań": Atak 4 against Obrona 4 (margin 0) with a sword (+2) against a leather jerkin (+1, armour.toml) is
    presja 0 + 2 − 1 = 1, which b must take."""
    state = _one_attack({"weapon": "miecz"}, {"armour": "skorzana"}, "+ + 0 0", "+ + 0 0")
    numbers = _attack(state, "a")
    assert (numbers["attack"], numbers["defence"], numbers["margin"], numbers["pressure"]) == (4, 4, 0, 1)
    assert "margin 0, +2 Czynnik Obrażeń (damage factor" in _attack_text(state, "a")
    assert "−1 Czynnik Wyparowań (absorption" in _attack_text(state, "a")
    assert state.current_player() == "b" and "absorb" in kinds(state)


@pytest.mark.through_cli
def test_do_wartosci_ataku_nalezy_dodac_czynnik_obrazen_broni() -> None:
    """ "Do wartości ataku należy dodać Czynnik Obrażeń broni jaką postać się posługuje": margin 1 with a sword
    (Czynnik Obrażeń +2, weapons.toml) against no armour (+0) is presja 3; with a knife (+1, the text's "nóż,
    sztylet") presja 2."""
    sword = _one_attack({"weapon": "miecz"}, {}, "+ + 0 0", "+ 0 0 0")
    assert _attack(sword, "a")["pressure"] == 1 + 2 - 0
    assert "+2 Czynnik Obrażeń (damage factor, miecz (sword))" in _attack_text(sword, "a")
    knife = _one_attack({"weapon": "noz"}, {}, "+ + 0 0", "+ 0 0 0")
    assert _attack(knife, "a")["pressure"] == 1 + 1 - 0
    assert "presja (pressure) 2" in _attack_text(knife, "a")


@pytest.mark.through_cli
def test_do_wartosci_obrony_nalezy_dodac_czynnik_wyparowan_ze_zbroi() -> None:
    """ "Do wartości obrony należy dodać Czynnik Wyparowań z posiadanej zbroi": margin 2 with a knife (+1) against
    a mail shirt (Czynnik Wyparowań +2, armour.toml) is presja 2 + 1 − 2 = 1; against plate (+3) margin 1 is
    2 − 3, below 0: no presja at all."""
    mail = _one_attack({"weapon": "noz"}, {"armour": "kolczuga"}, "+ + 0 0", "0 0 0 0")
    assert _attack(mail, "a")["pressure"] == 2 + 1 - 2
    assert "−2 Czynnik Wyparowań (absorption, kolczuga (mail shirt)) → presja (pressure) 1" in _attack_text(mail, "a")
    plate = _one_attack({"weapon": "noz"}, {"armour": "plytowa"}, "+ 0 0 0", "0 0 0 0")
    assert _attack(plate, "a")["pressure"] == 0
    assert plate.exchange == 2, "the plate takes it all: nothing to mark"


# ---- Tor Presji ------------------------------------------------------------------------------------------------------
def _pressed(target: dict[str, Any], attacker_faces: str, target_faces: str = "0 0 0 0", **options: Any) -> Any:
    """a (Walka +2, a knife: Czynnik Obrażeń +1) hits b (no armour): presja = margin + 1."""
    state = duel({**FISTS, "weapon": "noz"}, {**FISTS, **target}, **options)
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, attacker_faces)
    roll(state, target_faces)
    pass_invocations(state)
    assert state.current_player() == "b"
    return state


@pytest.mark.through_cli
def test_kazda_przewaga_musi_byc_zaznaczona_na_torze_presji() -> None:
    """ "Każda przewaga (przebicie) … musi być zaznaczona na Torze Presji": presja 3 (margin 2 + knife 1) is taken
    whole or not at all — every choice covers exactly 3 (a box "1" takes 1, a "2-3" or "4-5" up to its top, a
    consequence łagodna/umiarkowana/poważna up to 2/4/6), else b is taken out; there is no leaving it unmarked."""
    state = _pressed({}, "+ + 0 0")
    assert set(kinds(state)) == {"absorb", "taken_out"}
    for boxes, cons in absorb_choices(state):
        taken = sum(int(part.partition(":")[2]) for part in boxes.split("+") if part)
        room = {"": 0, "mild": 2, "moderate": 4, "severe": 6}[cons]
        assert 0 < 3 - taken <= room if cons else taken == 3, (boxes, cons)
    act(state, "absorb", boxes="2-3:3", cons="")
    assert texts(state, "absorb") == [
        'b takes presja 3 (pressure): pole (box) "2-3" takes 3 → tor (track) [1][1][x2-3][2-3][4-5]'
    ]


@pytest.mark.through_cli
def test_presje_mozna_dzielic_4_as_a_2_3_box_and_a_1_box() -> None:
    """ "Presję można dzielić. Tzn, jeśli w wyniku starcia bohater otrzyma presję o wartości 4 pkt, to może
    zaznaczyć pole presji 2-3 [x] i pole presji 1 [x]. Sumarycznie jest to 4 pkt.": margin 3 + knife 1 = 4."""
    state = _pressed({}, "+ + + 0")
    assert ("1:1+2-3:3", "") in absorb_choices(state)
    act(state, "absorb", boxes="1:1+2-3:3", cons="")
    assert texts(state, "absorb") == [
        'b takes presja 4 (pressure): pole (box) "1" takes 1; pole (box) "2-3" takes 3 → tor (track) '
        "[x1][1][x2-3][2-3][4-5]"
    ]


@pytest.mark.through_cli
def test_moze_tez_zaznaczyc_od_razu_pole_presji_4_5() -> None:
    """ "Może też zaznaczyć od razu pole presji 4-5 [x]": the same presja 4 in the one box "4-5"."""
    state = _pressed({}, "+ + + 0")
    assert ("4-5:4", "") in absorb_choices(state)
    act(state, "absorb", boxes="4-5:4", cons="")
    assert texts(state, "absorb")[0].endswith('pole (box) "4-5" takes 4 → tor (track) [1][1][2-3][2-3][x4-5]')


@pytest.mark.through_cli
@pytest.mark.parametrize(
    ("cialo", "ones"),
    [(0, 2), (1, 3), (2, 4), (3, 4)],
)
def test_kazdy_punkt_atrybutu_cialo_do_liczby_2_dodaje_pole_1_w_nawiasach_okraglych(cialo: int, ones: int) -> None:
    """ "Tor Presji Fizycznej może być zmodyfikowany, jeśli Atrybut Ciało jest wyższy niż 0. Każdy punkt Atrybutu,
    do liczby 2, zwiększa o jedno pole rząd presji o wartości 1 (nawiasy okrągłe)": the default row of "1" has two
    boxes (the text's track [1][1][2-3][2-3][4-5]); Ciało 1 makes three, Ciało 2 and 3 four. b takes presja equal to
    its boxes of "1" (a margin one less, and the knife's +1) in them alone; the whole track, after, has just those
    boxes of "1", Ciało's in round brackets."""
    faces = {2: "+ 0 0 0", 3: "+ + 0 0", 4: "+ + + 0"}[ones]
    state = _pressed({"cialo": cialo}, faces)
    spread = "+".join(["1:1"] * ones)
    assert (spread, "") in absorb_choices(state)
    act(state, "absorb", boxes=spread, cons="")
    body = "".join(["(x1)"] * (ones - 2))
    rest = "[2-3][2-3](2-3)[4-5]" if cialo == 3 else "[2-3][2-3][4-5]"
    assert texts(state, "absorb")[0].endswith(f"→ tor (track) [x1][x1]{body}{rest}")


@pytest.mark.through_cli
def test_wartosc_atrybutu_3_zwieksza_rowniez_o_jedno_pole_rzad_presji_2_3() -> None:
    """ "Wartość Atrybutu 3, zwiększa również o jedno pole rząd presji wartości 2-3 (nawias okrągły)": with Ciało 3,
    b takes presja 9 (margin 8 + knife 1) in three boxes of "2-3", the third in round brackets; with Ciało 2 it has
    only the two of the text's track."""
    three = _pressed({"cialo": 3, "skill": -2}, "+ + + +")
    assert ("2-3:3+2-3:3+2-3:3", "") in absorb_choices(three)
    act(three, "absorb", boxes="2-3:3+2-3:3+2-3:3", cons="")
    assert texts(three, "absorb")[0].endswith("→ tor (track) [1][1](1)(1)[x2-3][x2-3](x2-3)[4-5]")
    two = _pressed({"cialo": 2, "skill": -2}, "+ + + +")
    assert ("2-3:3+2-3:3+2-3:3", "") not in absorb_choices(two)


# ---- Konsekwencje ----------------------------------------------------------------------------------------------------
def _consequence_then_next_exchange(slot: str, presja_faces: str, **options: Any) -> Any:
    """Exchange 1: a (a knife, 1 fate point) hits b, who takes the ``slot`` consequence for it; exchange 2: a hits
    again and may invoke it."""
    state = duel({**FISTS, "weapon": "noz", "fate_points": 1}, FISTS, compels=False, **options)
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, presja_faces)
    roll(state, "0 0 0 0")
    pass_invocations(state)
    act(state, "absorb", boxes="", cons=slot)
    assert state.exchange == 2
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    assert state.current_player() == "a"
    return state


@pytest.mark.through_cli
@pytest.mark.parametrize(
    ("slot", "faces", "words"), [("mild", "+ 0 0 0", "łagodna"), ("moderate", "+ + + 0", "umiarkowana")]
)
def test_konsekwencja_kazdy_przeciwnik_moze_ja_wywolac_pierwszy_raz_darmowy_kazdy_kolejny_za_punkt_losu(
    slot: str, faces: str, words: str
) -> None:
    """ "Konsekwencja jest formą aspektu. Aspekt ten może zostać wywołany" — "Łagodna konsekwencja - każdy
    przeciwnik może ja wywołać. Pierwszy raz jest darmowy, każdy kolejny wymaga zapłacenia Punktu Losu przez
    wywołującą postać", and the same words for "Umiarkowana konsekwencja": b takes it in exchange 1 (presja 2 or
    4); in exchange 2 a invokes it for +2 free, then again for its one Punkt Losu."""
    state = _consequence_then_next_exchange(slot, faces, invoke_limit=2)
    a = state.index["a"]
    assert f"konsekwencja {words}" in texts(state, "absorb")[0]
    act(state, "invoke", aspect=f"b:{slot}", effect="bonus")
    assert state.fate_points[a] == 1 and state.result(a) == 2 + 2
    assert texts(state, "invoke")[0].endswith(": +2 (free)")
    act(state, "invoke", aspect=f"b:{slot}", effect="bonus")
    assert state.fate_points[a] == 0 and state.result(a) == 2 + 2 + 2
    assert texts(state, "invoke")[1].endswith(": +2 (pays a Punkt Losu (fate point, 0 left))")


@pytest.mark.through_cli
def test_the_names_offered_for_consequences_are_the_texts_examples() -> None:
    """ "Przykładem łagodnej konsekwencji jest: Zmęczony, Oszołomiony, Zamroczony, Naciągnięty mięsień",
    "Przykładem umiarkowanej konsekwencji jest: oparzenie 1 stopnia, skręcenie kostki, powierzchowna rana" and
    "Przykłady poważnych konsekwencji to: złamana ręka, odcięte palce, głęboka, krwawiąca rana": b takes all three
    for presja 12 (margin 11 + knife 1) in the second exchange, each under one of the text's examples."""
    state = duel({**FISTS, "weapon": "noz", "skill": 5}, {**FISTS, "skill": -2}, compels=False)
    act(state, "defend", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "- - - -")
    pass_invocations(state)
    act(state, "absorb", boxes="", cons="mild+moderate+severe")
    taken = texts(state, "absorb")[0]
    mild = ("zmęczony", "oszołomiony", "zamroczony", "naciągnięty mięsień")
    moderate = ("oparzenie 1 stopnia", "skręcenie kostki", "powierzchowna rana")
    severe = ("złamana ręka", "odcięte palce", "głęboka, krwawiąca rana", "oparzenie 2 stopnia")
    for severity, examples in (("łagodna", mild), ("umiarkowana", moderate), ("poważna", severe)):
        said = taken.partition(f"konsekwencja {severity} (")[2].partition("'")[2].partition(" (")[0]
        assert said.lower() in examples, (severity, said)


# ---- Wyeliminowanie --------------------------------------------------------------------------------------------------
def _two_on_two(b_extra: dict[str, Any]) -> Any:
    """a and c (Zmysły 3 and 2) against b (Zmysły 1) and d (Zmysły 0), everyone Walka +2 and fists; a and c attack
    b, b attacks a, d defends."""
    state = scenario(
        [
            [fighter("a", **FISTS, zmysly=3), fighter("c", **FISTS, zmysly=2)],
            [fighter("b", **FISTS, zmysly=1, **b_extra), fighter("d", **FISTS, zmysly=0)],
        ],
        {"compels": False},
    )
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    act(state, "defend", tactic=None)
    return state


@pytest.mark.through_cli
def test_ktokolwiek_do_tego_doprowadzil_opisuje_the_one_whose_hit_took_b_out_decides() -> None:
    """ "Zostajesz wyeliminowany, jeśli nie możesz … przyjąć całości otrzymanych obrażeń. Przeciwnik decyduje, co
    się z tobą stanie" and "Ktokolwiek do tego doprowadził, opisuje, co się z tobą stało": b comes in with a full
    track and every consequence; a's attack is repelled (Atak 1 against Obrona 2), c's lands (presja 1): c, not the
    first of b's foes, decides what happens to b."""
    state = _two_on_two(CARRIED_FULL)
    for faces in ("- 0 0 0", "+ 0 0 0", "0 0 0 0", "0 0 0 0"):
        roll(state, faces)
    pass_invocations(state)
    assert _attack(state, "a")["pressure"] == 0 and _attack(state, "c")["pressure"] == 1
    assert texts(state, "taken_out") == [
        "b cannot absorb the pressure: wyeliminowany (taken out). c decides what happens to them "
        "(Przeciwnik decyduje, co się z tobą stanie)"
    ]
    assert [e.data["by"] for e in state.history() if e.kind == "taken_out"] == ["c"]


@pytest.mark.through_cli
def test_ktokolwiek_do_tego_doprowadzil_when_b_will_not_take_it() -> None:
    """ "Zostajesz wyeliminowany, jeśli nie możesz (lub nie chcesz) przyjąć całości otrzymanych obrażeń. Przeciwnik
    decyduje, co się z tobą stanie": b could take c's presja 1 in a box, chooses not to, and c decides."""
    state = _two_on_two({})
    for faces in ("- 0 0 0", "+ 0 0 0", "0 0 0 0", "0 0 0 0"):
        roll(state, faces)
    pass_invocations(state)
    assert state.current_player() == "b" and "absorb" in kinds(state)
    act(state, "taken_out")
    assert texts(state, "taken_out") == [
        "b chooses not to take the pressure: wyeliminowany (taken out). c decides what happens to them "
        "(Przeciwnik decyduje, co się z tobą stanie)"
    ]


@pytest.mark.through_cli
def test_jesli_zostales_wyeliminowany_nie_mozesz_wiecej_dzialac_w_danej_scenie() -> None:
    """ "Jeśli zostałeś wyeliminowany, nie możesz więcej działać w danej scenie": a's hit takes b out (full track,
    every consequence); c's hit on b that exchange finds nobody to press; in the next exchange b neither declares,
    nor rolls, nor is anyone's target."""
    state = _two_on_two(CARRIED_FULL)
    for faces in ("+ 0 0 0", "+ 0 0 0", "0 0 0 0", "0 0 0 0"):
        roll(state, faces)
    pass_invocations(state)
    assert [e.data["by"] for e in state.history() if e.kind == "taken_out"] == ["a"], "taken out once, by a"
    assert not texts(state, "absorb")
    assert state.exchange == 2
    declared = []
    while state.phase == "declare":
        declared.append(state.current_player())
        targets = {x.get("target") for x in state.legal_actions() if x.kind == "attack"}
        assert "b" not in targets
        act(state, "attack", target="a" if declared[-1] == "d" else "d", tactic=None)
    assert declared == ["a", "c", "d"]
    rolled = len(texts(state, "roll"))
    for _ in range(3):
        roll(state, "0 0 0 0")
    assert [e.data["who"] for e in state.history() if e.kind == "roll"][rolled:] == ["a", "c", "d"]


# ---- Poddanie się ----------------------------------------------------------------------------------------------------
@pytest.mark.through_cli
def test_poddanie_sie_pozwala_kontrolowac_jak_opuscisz_scene_i_daje_punkty_losu() -> None:
    """ "powala ci kontrolować, w jaki sposób opuścisz scenę. W zamian możesz otrzymać 1 lub więcej punktów losu!":
    b took a łagodna consequence in exchange 1 and concedes at the declarations of exchange 2: it leaves on its own
    terms, and gains 1 + 1 Punkty Losu ("1 punkt losu za ustąpienie i 1 punkt losu za każdą konsekwencję")."""
    state = duel({**FISTS, "weapon": "noz"}, FISTS, compels=False)
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "+ 0 0 0")
    roll(state, "0 0 0 0")
    pass_invocations(state)
    act(state, "absorb", boxes="", cons="mild")
    act(state, "attack", target="b", tactic=None)
    act(state, "concede")
    assert state.current_player() == TERMINAL and not texts(state, "taken_out")
    assert state.fate_points[state.index["b"]] == 0 + 1 + 1
    assert texts(state, "concede") == [
        "b is pokonany (conceded): leaves the scene on their own terms; the opponents gain a fitting concession. "
        "+2 Punkty Losu (fate points): 1 + 1 for consequences taken in this conflict → 2"
    ]
    assert state.outcome().ending == "conceded" and state.outcome().winners == ("s0",)
    assert len(texts(state, "roll")) == 2, "nobody rolls in exchange 2: b gave up before a's roll"


# ---- What konflikt prints --------------------------------------------------------------------------------------------
def test_mg_przygotowuje_scene_aspekty_sytuacyjne_opisuje_wszystko_graczom(cli: Callable[..., Result]) -> None:
    """ "MG przygotowuje scenę, aspekty sytuacyjne, opisuje wszystko graczom": ``konflikt run presja/knife_fight``
    describes the situation aspects, the zone and who stands in it, and every participant's numbers, before the
    first exchange is fought."""
    out = cli("run", "presja/knife_fight", "--seed", "1").out
    flat = " ".join(out.split())
    first_exchange = flat.index("Sekwencja walki (exchange) 1")
    for said in (
        "Aspekty sytuacyjne (situation aspects): Stół pod ręką (a table at hand); Śliskie od krwi deski",
        "Strefa (zone) scena (the scene): Belzee, Massimo",
        "Belzee (Belzee): Walka na noże (knife fighting) dobry (+2, Good)",
        "Massimo (Massimo): Sztylety (daggers) bardzo dobry (+3, Very good)",
    ):
        assert 0 <= flat.index(said) < first_exchange, said


def test_belzee_walka_na_noze_dobra_plus_2_massimo_sztylety_bardzo_dobre_plus_3(cli: Callable[..., Result]) -> None:
    """ "Belzee posiada umiejętność Walka na noże dobrą (+2), natomiast Massimo sztylety na poziomie bardzo dobrym
    (+3)": the bundled example as ``konflikt run --json`` reads it."""
    payload = json.loads(cli("run", "presja/knife_fight", "--seed", "1", "--json").out)
    setup = [e["text"] for e in payload["events"] if e["kind"] == "setup"]
    assert any(t.startswith("Belzee (Belzee): Walka na noże (knife fighting) dobry (+2, Good)") for t in setup)
    assert any(t.startswith("Massimo (Massimo): Sztylety (daggers) bardzo dobry (+3, Very good)") for t in setup)
    belzee_rolls = [e["data"] for e in payload["events"] if e["kind"] == "roll" and e["data"]["who"] == "belzee"]
    massimo_rolls = [e["data"] for e in payload["events"] if e["kind"] == "roll" and e["data"]["who"] == "massimo"]
    assert belzee_rolls and {r["level"] for r in belzee_rolls} == {2}
    assert massimo_rolls and {r["level"] for r in massimo_rolls} == {3}


def test_konsekwencja_to_czasowy_aspekt_rest_clears_the_mild_one_and_leaves_the_others(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    """ "Konsekwencja pojawia się jako czasowy aspekt, który mija po zaistnieniu pewnych okoliczności (odpoczynek,
    leczenie, magiczna interwencja)" — "łagodne konsekwencje również zostają wyczyszczone po 5-10 minut
    odpoczynku. Pozostają tylko umiarkowane i poważne konsekwencje": ``konflikt campaign rest --minutes 10`` clears
    Lis's mild one and keeps the moderate and severe ones for healing."""
    db = tmp_path / "c.sqlite"
    lis = tmp_path / "lis.toml"
    lis.write_text(
        dump_toml(
            {
                "name": "Lis",
                "skill": 2,
                "consequences": {"mild": "Zmęczony", "moderate": "Skręcenie kostki", "severe": "Złamana ręka"},
            }
        ),
        encoding="utf-8",
    )
    added = cli("chars", "add", str(lis), "--ruleset", "presja", "--db", str(db))
    assert added.code == 0, added.err
    rested = cli("campaign", "rest", "--minutes", "10", "--db", str(db), "--json")
    assert rested.code == 0, rested.err
    shown = json.loads(cli("chars", "show", "lis", "--db", str(db), "--json").out)
    kept = shown.get("document", shown).get("consequences", {})
    assert kept == {"moderate": "Skręcenie kostki", "severe": "Złamana ręka"}
    changes = " ".join(json.loads(rested.out)["changes"]["lis"])
    assert "'Zmęczony' wyczyszczona (cleared)" in changes and "leczenie" in changes


# ---- The GM's judgement of the advantages, with the GM seat left to konflikt ---------------------------------------
def _play(cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch, folder: Path, doc: dict[str, Any],
          lines: list[str]) -> str:  # fmt: skip
    """What ``konflikt play FILE --dice table`` prints with a and b human seats typing ``lines`` and the GM seat
    the heuristic (background preparation of odds switched off)."""
    path = folder / "scenario.toml"
    path.write_text(dump_toml(doc), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    monkeypatch.setattr("konflikt.cli.table.prepare", lambda *args: None)
    monkeypatch.setattr("konflikt.cli.table.prepared", lambda *args: None)
    played = cli("play", str(path), "--dice", "table", "--seed", "1", "--db", str(folder / "saves.sqlite"),
                 "-p", "a=human", "-p", "b=human", "-p", "gm=heuristic")  # fmt: skip
    assert played.code == 0, played.err[-600:]
    return " ".join(played.out.split())


def _duel_doc(a: dict[str, Any], b: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    return {
        "ruleset": "presja",
        "title": "advantages",
        "gm": "heuristic",
        "options": options,
        "sides": [
            {"id": "s0", "participants": [{"id": "a", "name": "A", **FISTS, "zmysly": 1, **a}]},
            {"id": "s1", "participants": [{"id": "b", "name": "B", **FISTS, **b}]},
        ],
    }


BOTH_ATTACK_EVEN = ["1", "1", "0 0 0 0", "2", "0 0 0 0"]
"""One exchange typed at the table: a and b attack each other without a tactic, a rolls 0 0 0 0, fights on, b rolls
0 0 0 0."""


@pytest.mark.parametrize(("cialo", "holder"), [(0, "B (+1 Atak)"), (2, "nobody")])
def test_przewaga_mobilnosci_na_uwadze_nalezy_miec_rowniez_atrybut_cialo(
    cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cialo: int, holder: str
) -> None:
    """ "jeśli jeden z przeciwników ma zbroję wyraźnie cięższą … to po jakimś czasie walki MG może zastosować
    przewagę +1 dla jego przeciwnika" — "Na uwadze należy mieć również atrybut Ciało": A in plate (Czynnik
    Wyparowań 3, armour.toml) against unarmoured B. Ciało 0 bears none of it: after some time (the heuristic's third
    exchange) the GM gives B the mobility advantage; Ciało 2 bears two points of it, and the plate is no longer
    clearly heavier: nobody."""
    doc = _duel_doc({"armour": "plytowa", "cialo": cialo}, {}, {"advantage_mobility": True})
    shown = _play(cli, monkeypatch, tmp_path, doc, BOTH_ATTACK_EVEN * 3)
    said = re.findall(r"Przewaga mobilności \(mobility\), A / B, this exchange → (nobody|\w+ \(\+1 Atak\))", shown)
    assert said == ["nobody", "nobody", holder]


@pytest.mark.parametrize(("weapon", "holder"), [("palka", "A (+1 Atak)"), ("miecz", "nobody")])
def test_przewaga_uzbrojenia_znaczna_roznica_w_dlugosci_broni(
    cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, weapon: str, holder: str
) -> None:
    """ "Generalnie znaczna różnica w długości (zasięgu) broni do walki wręcz, daje nam podstawy do przyznani
    przewagi": A's spear (reach 4, weapons.toml) against B's club (reach 2) is a clear difference and the GM gives A
    the weapon advantage; against B's sword (reach 3) it is not, and nobody has it (neither closes in)."""
    doc = _duel_doc({"weapon": "wlocznia"}, {"weapon": weapon}, {"advantage_weapon": True})
    shown = _play(cli, monkeypatch, tmp_path, doc, BOTH_ATTACK_EVEN)
    assert f"Przewaga uzbrojenia (weapon), A / B, this exchange → {holder}" in shown


def test_jesli_bohater_ze_sztyletem_wszedlby_w_zwarcie_sytuacja_by_sie_odwrocila(
    cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """ "Jeśli bohater ze sztyletem wszedłby w zwarcie z postacią z mieczem, sytuacja by się odwróciła i on dostałby
    +1 za przewagę w broni": B's dagger against A's spear (reach 1 and 4, weapons.toml); B closes in (typed: the
    attack with the offensive tactic, the heuristic's sign of it) and the GM gives B the weapon advantage."""
    doc = _duel_doc({"weapon": "wlocznia"}, {"weapon": "sztylet"}, {"advantage_weapon": True})
    shown = _play(cli, monkeypatch, tmp_path, doc, ["1", "3", "0 0 0 0", "2", "0 0 0 0"])
    assert "B deklaruje (declares): atak na (attack on) A, taktyka zaczepna" in shown
    assert "Przewaga uzbrojenia (weapon), A / B, this exchange → B (+1 Atak)" in shown
