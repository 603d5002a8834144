"""The worked example of the text: Belzee (Walka na noże +2) against Massimo (sztylety +3), every number."""

from __future__ import annotations

import pytest

from konflikt.core.actions import Action
from konflikt.core.state import CHANCE
from konflikt.errors import IllegalActionError
from tests.rulesets.presja.helpers import absorb_choices, act, knife_fight, pass_invocations, roll, texts


def _exchange_of_the_text(**options: object):  # type: ignore[no-untyped-def]
    state = knife_fight(**options)
    assert state.current_player() == "belzee", "Belzee (Zmysły +2) declares before Massimo (+1)"
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    assert state.current_player() == CHANCE
    roll(state, "+ + 0 -")  # Gracz wyrzucił + + 0 -
    roll(state, "0 0 + +")  # MG wyrzucił 0 0 + +
    return state


@pytest.mark.through_cli
def test_belzee_massimo_exchange_reproduces_every_number() -> None:
    state = _exchange_of_the_text()
    b, m = state.index["belzee"], state.index["massimo"]
    assert state.result(b) == 3, "2 + (+1) = bardzo dobry (+3): Belzee's Atak and Obrona"
    assert state.result(m) == 5, "3 + (+2) = znakomity (+5): Massimo's Atak and Obrona"
    assert "bardzo dobry (+3, Very good)" in texts(state, "roll")[0]
    assert "znakomity (+5, Superb)" in texts(state, "roll")[1]
    pass_invocations(state)
    attacks = [e for e in state.history() if e.kind == "attack"]
    belzee, massimo = attacks
    assert (belzee.data["attack"], belzee.data["defence"], belzee.data["pressure"]) == (3, 5, 0)
    assert "odparty (repelled)" in belzee.text
    assert (massimo.data["attack"], massimo.data["defence"], massimo.data["margin"]) == (5, 3, 2)
    assert massimo.data["pressure"] == 3, "margin 2 + dagger's Czynnik Obrażeń 1 − no armour 0"
    assert state.current_player() == "belzee"


@pytest.mark.through_cli
def test_belzee_massimo_the_ways_to_absorb_pressure_3() -> None:
    state = _exchange_of_the_text()
    pass_invocations(state)
    # The text's two: one box able to take 3 ("2-3"), or a mild consequence (2) and a "1" box for the rest.
    assert {("2-3:3", ""), ("1:1", "mild")} <= absorb_choices(state)
    # Every legal way on the default track [1][1][2-3][2-3][4-5], all three consequence slots free, a free box
    # taking any amount up to its top (box_absorbs_less, the text's "nie ma wolnego pola" reading):
    assert absorb_choices(state) == {
        ("1:1+1:1+2-3:1", ""),
        ("1:1+1:1+4-5:1", ""),
        ("1:1+2-3:2", ""),
        ("1:1+2-3:1+2-3:1", ""),
        ("1:1+2-3:1+4-5:1", ""),
        ("1:1+4-5:2", ""),
        ("2-3:3", ""),
        ("2-3:2+2-3:1", ""),
        ("2-3:1+2-3:1+4-5:1", ""),
        ("2-3:2+4-5:1", ""),
        ("2-3:1+4-5:2", ""),
        ("4-5:3", ""),
        ("1:1", "mild"),
        ("2-3:2", "mild"),  # the mild takes the remaining 1 (consequence_absorbs_less)
        ("2-3:1", "mild"),
        ("4-5:2", "mild"),
        ("4-5:1", "mild"),
        ("", "moderate"),
        ("", "severe"),
    }
    assert "taken_out" in [a.kind for a in state.legal_actions()], "one may refuse and be taken out"


def test_belzee_massimo_ways_when_a_box_takes_only_its_range() -> None:
    state = _exchange_of_the_text(box_absorbs_less=False)
    pass_invocations(state)
    assert absorb_choices(state) == {
        ("2-3:3", ""),
        ("1:1+2-3:2", ""),
        ("1:1", "mild"),
        ("2-3:2", "mild"),
        ("", "moderate"),
        ("", "severe"),
    }


def test_belzee_massimo_absorb_choices_when_consequences_must_fit_exactly() -> None:
    state = _exchange_of_the_text(consequence_absorbs_less=False, box_absorbs_less=False)
    pass_invocations(state)
    assert absorb_choices(state) == {("2-3:3", ""), ("1:1+2-3:2", ""), ("1:1", "mild")}


@pytest.mark.through_cli
def test_belzee_takes_the_mild_consequence_and_massimo_may_invoke_it_free() -> None:
    state = _exchange_of_the_text()
    pass_invocations(state)
    act(state, "absorb", boxes="1:1", cons="mild")
    b = state.index["belzee"]
    assert state.status()["belzee"]["tor (track)"] == "[x1][1][2-3][2-3][4-5]"
    assert state.cons[b][0] == 1 and state.cons_names[b][0].startswith("Powierzchowne rozcięcie dłoni")
    # Next exchange: Massimo may invoke it negatively, the first time for free; Belzee may pay to ignore it.
    assert {str(a) for a in state.legal_actions()} == {"compel consequence=belzee:mild", "pass"}
    act(state, "pass")  # the GM does not compel it
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    while state.current_player() == "belzee":
        act(state, "pass")
    fp_massimo = state.fate_points[state.index["massimo"]]
    act(state, "invoke", aspect="belzee:mild", effect="bonus")
    assert state.fate_points[state.index["massimo"]] == fp_massimo, "the first invocation of a mild consequence is free"
    assert state.current_player() == "belzee" and state.phase == "ignore"
    fp_belzee = state.fate_points[b]
    act(state, "ignore")
    assert state.fate_points[b] == fp_belzee - 1
    assert state.bonus[state.index["massimo"]] == 0, "an ignored invocation has no effect"


@pytest.mark.through_cli
def test_gracz_ktory_bierze_konsekwencje_powinien_opisac_names_it() -> None:
    """ "Gracz, który bierze konsekwencję, powinien opisać co się stało z jego postacią": the player names it."""
    state = _exchange_of_the_text()
    pass_invocations(state)
    act(state, "absorb", boxes="1:1", cons="mild", name="Rozcięta_dłoń")
    assert state.cons_names[state.index["belzee"]][0] == "Rozcięta dłoń"
    assert "'Rozcięta dłoń'" in texts(state, "absorb")[0]


@pytest.mark.through_cli
def test_any_name_the_player_gives_is_a_legal_choice_and_a_wrong_one_is_refused_for_its_true_reason() -> None:
    """The legal choices hold each way to take the hit with any name the player gives its consequence ("Gracz, który
    bierze konsekwencję, powinien opisać"): the table's ``action in legal`` took ``absorb … name=…`` for an illegal
    choice and why_illegal said it "does not take presja 3 by the rules"."""
    state = _exchange_of_the_text()
    pass_invocations(state)
    legal = state.legal_actions("belzee")
    for name in ("Rozcięta_dłoń", "Powierzchowne_rozcięcie_dłoni", "yes", 7, ("Krwawiąca_dłoń",)):
        assert Action.of("absorb", boxes="1:1", cons="mild", name=name) in legal, name
    assert Action.of("absorb", boxes="1:1", cons="mild") in legal
    too_many = Action.of("absorb", boxes="1:1", cons="mild", name=("A", "B"))
    assert too_many not in legal
    why = state.why_illegal("belzee", too_many)
    assert "2 names for 1 consequence" in why and "does not take presja" not in why
    boxes_only = Action.of("absorb", boxes="2-3:3", cons="", name="A")
    assert boxes_only not in legal
    assert "takes none (only boxes)" in state.why_illegal("belzee", boxes_only)
    wrong_way = Action.of("absorb", boxes="2-3:3", cons="mild", name="A")
    assert "does not take presja 3 by the rules" in state.why_illegal("belzee", wrong_way)
    state.apply_action(Action.parse("absorb boxes=1:1 cons=mild name=yes"))
    assert state.cons_names[state.index["belzee"]][0] == "yes", "the word the player typed, not a boolean"


@pytest.mark.through_cli
def test_a_name_for_more_consequences_than_taken_is_refused() -> None:
    state = _exchange_of_the_text()
    pass_invocations(state)
    with pytest.raises(IllegalActionError, match="one name per consequence"):
        act(state, "absorb", boxes="1:1", cons="mild", name=("A", "B"))
    with pytest.raises(IllegalActionError):
        act(state, "absorb", boxes="2-3:3", cons="mild", name="A")  # not a legal way to take 3


@pytest.mark.through_cli
def test_konsekwencje_moga_byc_wymuszone_the_owner_accepts_for_a_fate_point_or_pays_to_refuse() -> None:
    """ "Konsekwencje mogą być, podobnie jak inne Aspekty, wymuszone": the GM compels Belzee's mild consequence;
    accepting pays Belzee a fate point, refusing costs one (FATE's compel: the aspects chapter is not in the text)."""
    for answer, change in (("accept", +1), ("refuse", -1)):
        state = _exchange_of_the_text()
        pass_invocations(state)
        act(state, "absorb", boxes="1:1", cons="mild")
        b = state.index["belzee"]
        before = state.fate_points[b]
        act(state, "compel", consequence="belzee:mild")
        assert state.current_player() == "belzee"
        act(state, answer)
        assert state.fate_points[b] == before + change
        assert state.phase == "declare", "each consequence is compelled once per exchange: nothing left to compel"


@pytest.mark.through_cli
def test_the_mild_consequence_przejelaby_2_pkt_presji_takes_2_of_2() -> None:
    """ "Łagodną konsekwencję…, która przejęłaby 2 pkt presji": the narration says how much it took, of what."""
    state = _exchange_of_the_text()
    pass_invocations(state)
    act(state, "absorb", boxes="1:1", cons="mild")
    assert "konsekwencja łagodna (mild) 'Powierzchowne rozcięcie dłoni" in texts(state, "absorb")[0]
    assert "takes 2 of 2" in texts(state, "absorb")[0]
    state = _exchange_of_the_text()
    pass_invocations(state)
    act(state, "absorb", boxes="", cons="severe")
    assert "takes 3 of 6" in texts(state, "absorb")[0]
