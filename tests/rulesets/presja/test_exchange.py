"""The flow of an exchange as konflikt plays it: order, declarations, rolls, resolution, zones, endings."""

from __future__ import annotations

import numpy as np
import pytest

from konflikt.core.actions import Action
from konflikt.core.campaign import Rest
from konflikt.core.ruleset import get_ruleset
from konflikt.core.state import CHANCE, GM, TERMINAL
from konflikt.errors import IllegalActionError, ScenarioError
from konflikt.rulesets.presja.policies import HeuristicPolicy
from konflikt.rulesets.presja.state import Declaration, PresjaState
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

KNIFE = {"skill": 2, "weapon": "noz", "fate_points": 0}


@pytest.mark.through_cli
def test_tactics_digest_vector_offensive_skill_3_rolls_plus_1() -> None:
    state = duel({"skill": 3, "zmysly": 1, "fate_points": 0}, {"skill": 0, "fate_points": 0})
    act(state, "attack", target="b", tactic="offensive")
    act(state, "defend", tactic=None)
    roll(state, "+ 0 0 0")
    roll(state, "0 0 0 0")
    a = state.index["a"]
    assert state.result(a) == 4
    attack = state.attack_numbers(a, state.index["b"]).attack
    assert attack == 5
    state.decl[state.index["b"]] = Declaration("attack", target=a)  # let b attack a to read a's Defence
    assert state.attack_numbers(state.index["b"], a).defence == 3


def test_tactics_option_off_allows_only_no_tactic() -> None:
    state = duel(KNIFE, KNIFE, tactics=False)
    assert {a.get("tactic") for a in state.legal_actions() if a.kind == "attack"} == {None}
    with pytest.raises(IllegalActionError, match="option 'tactics'"):
        act(state, "attack", target="b", tactic="offensive")


@pytest.mark.through_cli
def test_order_by_zmysly_then_initiative_edge_then_the_gm() -> None:
    state = scenario(
        [
            [fighter("a", skill=1, zmysly=1), fighter("b", skill=3, zmysly=1)],
            [fighter("c", skill=2, zmysly=1, initiative_edge="Atut: Czujny"), fighter("d", skill=0, zmysly=4)],
        ]
    )
    assert state.current_player() == GM, "a and b tie on Zmysły without an edge: the GM decides"
    assert {a["first"] for a in state.legal_actions()} == {"a", "b"}
    act(state, "order", first="a")
    assert [state.fighters[i].id for i in state.order] == ["d", "c", "a", "b"]
    assert "MG (GM) decides" in texts(state, "order")[0]


def test_heuristic_gm_breaks_a_tie_for_the_higher_skill() -> None:
    import numpy as np

    from konflikt.rulesets.presja.policies import HeuristicPolicy

    state = scenario([[fighter("a", skill=1)], [fighter("b", skill=3)]])
    assert state.current_player() == GM
    assert HeuristicPolicy().choose(state, GM, np.random.default_rng(0)).get("first") == "b"


@pytest.mark.through_cli
def test_declarations_come_before_any_roll_and_each_rolls_once() -> None:
    state = duel(KNIFE, KNIFE)
    act(state, "attack", target="b", tactic=None)
    assert state.current_player() == "b"
    act(state, "defend", tactic="defensive")
    assert state.current_player() == CHANCE
    assert "a:" in state.roll_purpose().lower() or "Atak i Obrona" in state.roll_purpose()
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    assert state.phase != "roll"
    assert len(texts(state, "roll")) == 2


@pytest.mark.through_cli
def test_concede_before_the_roll_ends_the_conflict_and_pays_fate_points() -> None:
    state = duel(KNIFE, KNIFE)
    act(state, "concede")
    assert state.current_player() == TERMINAL
    out = state.outcome()
    assert out.ending == "conceded" and out.winners == ("s1",)
    assert state.fate_points[state.index["a"]] == 1
    assert not texts(state, "roll"), "nobody rolled: conceding comes before the opponent's roll"


@pytest.mark.through_cli
def test_zanim_przeciwnik_wykona_rzut_one_may_concede_after_ones_own_roll_before_the_opponents() -> None:
    """ "Zostajesz pokonany, gdy zadecydujesz o poddaniu się. Musisz to uczynić przed rzutem przeciwnika": a rolls
    first; its foe's roll is still to come, so a may still concede (conceding was offered at the declarations
    only). b, whose foe has rolled, is not asked."""
    state = duel(KNIFE, KNIFE)
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    assert state.current_player() == CHANCE, "b declared last: nothing new for it before a's roll"
    roll(state, "- - - -")
    assert state.current_player() == "a" and kinds(state) == ["concede", "fight_on"]
    act(state, "concede")
    assert state.current_player() == TERMINAL
    out = state.outcome()
    assert out.ending == "conceded" and out.winners == ("s1",)
    assert state.fate_points[state.index["a"]] == 1
    assert len(texts(state, "roll")) == 1, "b never rolls"
    assert "a poddaje się (concedes) before b's roll (przed rzutem przeciwnika), after a's roll" in texts(
        state, "declare"
    )


@pytest.mark.through_cli
def test_after_the_opponents_roll_it_is_too_late_to_concede_and_the_reason_says_so() -> None:
    state = duel({**KNIFE, "skill": 0}, {**KNIFE, "skill": 5})
    act(state, "defend", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    act(state, "fight_on")
    assert state.current_player() == CHANCE, "b is not asked: its foe a has rolled"
    roll(state, "0 0 0 0")
    pass_invocations(state)
    assert state.current_player() == "a" and state.phase == "absorb"
    why = state.why_illegal("a", Action.of("concede"))
    assert why.startswith("too late to concede this exchange: b has rolled"), why
    with pytest.raises(IllegalActionError, match="przed rzutem przeciwnika"):
        act(state, "concede")


@pytest.mark.through_cli
def test_in_a_group_fight_each_is_asked_once_before_the_first_roll_of_a_foe() -> None:
    """g0 and g1 against lone, in the order g0, lone, g1: lone may concede before g0's roll (g1 declared after it),
    g0 and g1 before lone's roll; before g1's roll nobody is asked (lone has seen g0's roll)."""
    state = scenario(
        [
            [fighter("g0", **KNIFE, zmysly=3), fighter("g1", **KNIFE, zmysly=1)],
            [fighter("lone", **KNIFE, zmysly=2)],
        ]
    )
    act(state, "attack", target="lone", tactic=None)
    act(state, "defend", tactic=None)
    act(state, "attack", target="lone", tactic=None)
    asked = []
    while state.phase in ("concede_window", "roll"):
        if state.phase == "roll":
            state.apply_action(0)
        else:
            asked.append((state.current_player(), len(texts(state, "roll"))))
            act(state, "fight_on")
    assert len(texts(state, "roll")) == 3
    assert asked == [("lone", 0), ("g0", 1), ("g1", 1)]


@pytest.mark.through_cli
def test_the_window_follows_the_ban_on_conceding_and_the_heuristic_fights_on() -> None:
    for banned in (duel(KNIFE, KNIFE, allow_concede=False), duel({**KNIFE, "may_concede": False}, KNIFE)):
        act(banned, "attack", target="b", tactic=None)
        act(banned, "attack", target="a", tactic=None)
        roll(banned, "- - - -")
        assert banned.current_player() == CHANCE
    state = duel(KNIFE, KNIFE)
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "- - - -")
    assert HeuristicPolicy().choose(state, "a", np.random.default_rng(0)) == Action.of("fight_on")


def test_concede_after_a_mild_and_a_moderate_gives_3_fate_points() -> None:
    state = duel({**KNIFE, "skill": 0}, {**KNIFE, "skill": 5})
    state.cons[state.index["a"]][:2] = [1, 1]
    state.cons_new[state.index["a"]] = 2
    act(state, "concede")
    assert state.fate_points[state.index["a"]] == 3


@pytest.mark.through_cli
def test_concede_pays_for_the_consequences_taken_in_this_conflict_not_those_carried_in() -> None:
    """ "1 punkt losu za ustąpienie i 1 punkt losu za każdą konsekwencję wziętą w tym konflikcie": a moderate
    consequence carried in from an earlier conflict pays nothing; the mild one taken in this conflict pays one."""
    state = duel({**KNIFE, "consequences": {"moderate": "Skręcona kostka"}}, {**KNIFE, "skill": 5})
    a = state.index["a"]
    while state.phase == "compel":  # the GM compels nothing
        act(state, "pass")
    act(state, "defend", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    pass_invocations(state)
    assert state.current_player() == "a", "b's Attack 5 against a's Defence 2: presja 3 + knife 1"
    state.apply_action(next(x for x in state.legal_actions() if x.kind == "absorb" and x["cons"] == "mild"))
    while state.phase == "compel":
        act(state, "pass")
    assert state.fate_points[a] == 0 and state.exchange == 2
    act(state, "concede")
    assert state.fate_points[a] == 2, "1 for conceding and 1 for the mild one; the carried moderate one pays nothing"


def test_concede_can_be_forbidden() -> None:
    assert "concede" not in kinds(duel(KNIFE, KNIFE, allow_concede=False))
    assert "concede" not in kinds(duel({**KNIFE, "may_concede": False}, KNIFE))


@pytest.mark.through_cli
def test_both_sides_can_hurt_each_other_in_the_same_exchange() -> None:
    state = duel({**KNIFE, "zmysly": 1}, KNIFE)
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    pass_invocations(state)
    hits = [e.data["pressure"] for e in state.history() if e.kind == "attack"]
    assert hits == [1, 1], "Attack 2 vs Defence 2: margin 0 + knife 1 on both sides"
    assert state.current_player() == "b", "hits are absorbed in the order of action: a's hit on b first"
    act(state, "absorb", boxes="1:1", cons="")
    assert state.current_player() == "a"


def test_unabsorbable_pressure_takes_out_and_the_other_side_wins() -> None:
    state = duel({**KNIFE, "zmysly": 1}, {"skill": 0, "fate_points": 0})
    state.marked[state.index["b"]] = 0b11111
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    assert state.current_player() == "b", "the mild consequence can still take it"
    act(state, "taken_out")
    assert state.outcome().ending == "taken_out"
    assert state.outcome().winners == ("s0",)
    assert "decides what happens" in texts(state, "taken_out")[0]


def test_taken_out_automatically_when_nothing_absorbs() -> None:
    state = duel({**KNIFE, "zmysly": 1}, {"skill": 0, "fate_points": 0})
    b = state.index["b"]
    state.marked[b] = 0b11111
    state.cons[b] = [2, 2, 1]
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    pass_invocations(state)  # a may invoke b's severe consequence (always free) but passes
    assert state.is_terminal()
    assert "cannot absorb" in texts(state, "taken_out")[0]


def test_several_attackers_each_meet_the_single_defence_or_a_divided_one() -> None:
    sides = [[fighter("a", **KNIFE, zmysly=2), fighter("b", **KNIFE, zmysly=1)], [fighter("c", **KNIFE)]]
    for mode, expected in (("single", [1, 1]), ("divided", [2, 2])):
        state = scenario(sides, {"defence_vs_many": mode})
        act(state, "attack", target="c", tactic=None)
        act(state, "attack", target="c", tactic=None)
        act(state, "defend", tactic=None)
        for _ in range(3):
            roll(state, "0 0 0 0")
        assert [e.data["pressure"] for e in state.history() if e.kind == "attack"] == expected


ZONES = {
    "zones": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}, {"id": "z", "name": "Z"}],
    "adjacent": [["x", "y"], ["y", "z"]],
}


@pytest.mark.through_cli
def test_zones_same_zone_or_adjacent_with_a_ranged_weapon() -> None:
    setup = {**ZONES, "positions": {"a": "x", "bow": "x", "c": "y", "d": "z"}}
    state = scenario(
        [
            [fighter("a", **KNIFE, zmysly=3), fighter("bow", skill=2, weapon="luk", zmysly=2)],
            [fighter("c", **KNIFE, zmysly=1), fighter("d", **KNIFE)],
        ],
        setup=setup,
    )
    assert {a["target"] for a in state.legal_actions() if a.kind == "attack"} == set()
    with pytest.raises(IllegalActionError, match="adjacent one with a ranged weapon"):
        act(state, "attack", target="c", tactic=None)
    assert {a["to"] for a in state.legal_actions() if a.kind == "move"} == {"y"}
    act(state, "move", to="y", tactic="defensive")
    assert {a["target"] for a in state.legal_actions() if a.kind == "attack"} == {"c"}, "the bow reaches y, not z"


@pytest.mark.through_cli
def test_moving_takes_the_action_and_happens_at_the_end_of_the_exchange() -> None:
    setup = {**ZONES, "positions": {"a": "x", "b": "x"}}
    state = scenario([[fighter("a", **KNIFE, zmysly=1)], [fighter("b", **KNIFE)]], setup=setup)
    act(state, "move", to="y", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    attacks = [e for e in state.history() if e.kind == "attack"]
    assert [e.data["who"] for e in attacks] == ["b"], "the mover makes no attack but still defends"
    act(state, "absorb", boxes="1:1", cons="")
    assert state.zone_ids[state.zone[state.index["a"]]] == "y"
    assert texts(state, "move")


def test_surprise_lowers_the_first_exchange_only() -> None:
    state = scenario(
        [
            [fighter("a", **KNIFE, zmysly=1)],
            [fighter("b", skill=4, fate_points=0), fighter("c", fate_points=0, zmysly=-1)],
        ],
        {"surprise": True},
        {"surprised": ["b", "c"]},
    )
    b, c = state.index["b"], state.index["c"]
    assert (state.level(b), state.level(c)) == (-1, -3), "Poor; Terrible without any combat skill"
    act(state, "defend", tactic=None)
    act(state, "defend", tactic=None)
    act(state, "defend", tactic=None)
    for _ in range(3):
        roll(state, "0 0 0 0")
    assert state.exchange == 2 and (state.level(b), state.level(c)) == (4, -2), "c: the default level, kiepski"


def test_surprise_is_off_by_default() -> None:
    state = scenario([[fighter("a", **KNIFE)], [fighter("b", skill=4)]], setup={"surprised": ["b"]})
    assert state.level(state.index["b"]) == 4


def test_deadlock_after_max_exchanges() -> None:
    state = duel(KNIFE, KNIFE, max_exchanges=1)
    act(state, "defend", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    assert state.outcome().ending == "deadlock" and state.outcome().winners == ()


def test_recovery_by_rest_clears_boxes_and_mild_but_keeps_moderate_and_severe() -> None:
    state = duel(KNIFE, KNIFE)
    a = state.index["a"]
    state.marked[a] = 0b111
    state.cons[a] = [1, 1, 1]
    state.cons_names[a] = ["Zmęczony", "Skręcenie kostki", "Złamana ręka"]
    state.fate_points[a] = 4
    left = state.after_conflict()["a"]
    assert left.consequences.mild == "Zmęczony" and left.marked_boxes == ["1", "1", "2-3"] and left.fate_points == 4
    campaign = get_ruleset("presja").campaign
    assert campaign is not None
    rested = campaign.rest(left.model_dump(), (), Rest(10, "minutes"), get_ruleset("presja").options.resolve())
    doc = rested.document
    assert doc["consequences"] == {"moderate": "Skręcenie kostki", "severe": "Złamana ręka"}
    assert "marked_boxes" not in doc and doc["fate_points"] == 4
    again = duel(doc, KNIFE)
    assert again.marked[0] == 0 and again.cons[0] == [0, 2, 2], "after the rest a new conflict starts with clear boxes"


def test_scenario_errors_name_the_field() -> None:
    with pytest.raises(ScenarioError, match=r"weapon.*unknown weapon 'laser'"):
        duel({"weapon": "laser"}, KNIFE)
    with pytest.raises(ScenarioError, match="unknown zone 'q'"):
        scenario([[fighter("a")], [fighter("b")]], setup={**ZONES, "positions": {"a": "q"}})
    with pytest.raises(ScenarioError, match="skill"):
        duel({"skill": 99}, KNIFE)


def test_absorb_choices_reflect_marked_boxes() -> None:
    state = duel({**KNIFE, "zmysly": 1}, {"skill": 0, "fate_points": 0})
    state.marked[state.index["b"]] = 0b00011
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 -")
    roll(state, "0 0 0 0")
    assert absorb_choices(state) == {
        ("2-3:2", ""),
        ("2-3:1+2-3:1", ""),
        ("2-3:1+4-5:1", ""),
        ("4-5:2", ""),
        ("", "mild"),
        ("", "moderate"),
        ("", "severe"),
    }


FISTS = {"skill": 1, "fate_points": 0}
"""Skill 1 with bare fists (Czynnik Obrażeń 0) against skill 0: both rolling 0 0 0 0 deals presja exactly 1."""


def _hit_for_1(marked: int, cons: list[int], **options: object) -> PresjaState:
    state = duel(FISTS, {"skill": 0, "fate_points": 0}, **options)
    b = state.index["b"]
    state.marked[b], state.cons[b] = marked, cons
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    pass_invocations(state)  # a may invoke b's consequences: it does not
    return state


def test_wyeliminowany_only_when_the_track_is_full_no_consequence_saves_and_no_box_is_free() -> None:
    """ "Bohater zostaje wyeliminowany, w chwili całkowitego zapełnienia Toru Presji, kiedy nie może uratować się
    konsekwencją i nie ma wolnego pola": a free "4-5" box takes a 1-point hit; only a full track is the end."""
    state = _hit_for_1(marked=0b01111, cons=[1, 1, 1])
    assert state.current_player() == "b", "a free box is left: b is not taken out"
    assert absorb_choices(state) == {("4-5:1", "")}
    act(state, "absorb", boxes="4-5:1", cons="")
    assert state.fate[state.index["b"]] == 0
    full = _hit_for_1(marked=0b11111, cons=[1, 1, 1])
    assert full.fate[full.index["b"]] == 1, "the track is full and no consequence is free: wyeliminowany"


def test_no_consequence_is_forced_while_a_box_is_free() -> None:
    state = _hit_for_1(marked=0b00011, cons=[0, 0, 0])
    assert ("2-3:1", "") in absorb_choices(state), "a free 2-3 box takes 1 point: no consequence is forced"


def test_box_absorbs_less_off_takes_out_a_fighter_with_a_free_box() -> None:
    state = _hit_for_1(marked=0b01111, cons=[1, 1, 1], box_absorbs_less=False)
    assert state.fate[state.index["b"]] == 1, "the other reading: a 4-5 box cannot take 1, so b is out"


def test_gm_sets_the_whole_order_as_an_option() -> None:
    state = scenario([[fighter("a", zmysly=3)], [fighter("b", zmysly=0)]], {"gm_sets_order": True})
    assert state.current_player() == GM
    act(state, "order", first="b")
    assert [state.fighters[i].id for i in state.order] == ["b", "a"]
    assert "sets the order" in texts(state, "order")[0]


def test_an_absorption_that_does_not_cover_says_why() -> None:
    state = duel({**KNIFE, "zmysly": 1}, {"skill": 0, "fate_points": 0})
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 -")
    roll(state, "0 0 0 0")
    with pytest.raises(IllegalActionError, match="does not take presja 2"):
        act(state, "absorb", boxes="1:1", cons="")


def test_actions_typed_as_text_are_the_legal_ones() -> None:
    state = duel(KNIFE, KNIFE)
    for action in state.legal_actions():
        assert Action.parse(str(action)) == action, str(action)
    state.apply_action(Action.parse("attack target=b tactic=none"))
    assert state.decl[state.index["a"]] == Declaration("attack", target=state.index["b"])


def test_both_taken_out_in_the_same_exchange_leaves_no_winner() -> None:
    state = duel(KNIFE, KNIFE)
    for i in (0, 1):
        state.marked[i] = 0b11111
        state.cons[i] = [2, 2, 1]
    state.fate_points = [0, 0]
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    pass_invocations(state)
    assert state.is_terminal()
    outcome = state.outcome()
    assert (outcome.ending, outcome.winners) == ("all_out", ())
    assert len(texts(state, "taken_out")) == 2, "both attacks land: the exchange is simultaneous"


@pytest.mark.through_cli
def test_gracze_moga_uzyc_aspektow_by_zdobyc_przewage_na_tym_etapie() -> None:
    """ "Gracze mogą użyć swoich Aspektów lub Atutów, by zdobyć przewagę na tym etapie": before the order is fixed,
    b (Zmysły 0) pays a fate point for an aspect, +2 for the order, and acts before a (Zmysły 1)."""
    state = scenario(
        [[fighter("a", skill=2, zmysly=1, aspects=["Czujny"])], [fighter("b", skill=2, aspects=["Szybki"])]],
        keep_edges=True,
    )
    assert state.phase == "edge" and state.current_player() == "a", "highest Zmysły asked first"
    assert set(kinds(state)) == {"edge", "pass"}
    act(state, "pass")
    act(state, "edge", aspect="own:1")
    assert state.fate_points[state.index["b"]] == 2
    assert [state.fighters[i].id for i in state.order] == ["b", "a"]
    assert "Zmysły +0 +2 aspekt" in texts(state, "order")[0]


def test_decydujace_zdanie_ma_mg_on_a_tie_after_the_invocations() -> None:
    """ "W ustalenia właściwej kolejności decydujące zdanie ma MG": a's aspect brings it level with b; the GM
    decides the tie."""
    state = scenario(
        [[fighter("a", skill=2, zmysly=0, aspects=["Czujny"])], [fighter("b", skill=2, zmysly=2, fate_points=0)]],
        keep_edges=True,
    )
    act(state, "edge", aspect="own:1")
    assert state.current_player() == GM and {a["first"] for a in state.legal_actions()} == {"a", "b"}


def test_order_invocations_off_goes_straight_to_the_order() -> None:
    state = scenario(
        [[fighter("a", skill=2, aspects=["Czujny"])], [fighter("b", skill=2, zmysly=1)]],
        {"order_invocations": False},
        keep_edges=True,
    )
    assert state.phase == "declare"
