"""The presja state's own bookkeeping, said and shown exactly (found by ``scripts/mutation.sh presja:state``).

Each test names the rule or hook it checks; the mutants of ``PresjaState`` it was written against changed the GM's
correctable values, an invariant's words, the exact-analysis clock, the deadlock at the cap or what a seat sees.
"""

from __future__ import annotations

import pytest

from konflikt.core.actions import Action
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.errors import IllegalActionError
from konflikt.rulesets.presja.state import PresjaState, consequence_names_typed
from tests.rulesets.presja.helpers import act, fighter, knife_fight, pass_invocations, roll, scenario

TEXT_TRACK = "[1][1][2-3][2-3][4-5]"


def test_the_gm_may_set_fate_points_and_each_box_of_the_track() -> None:
    """Punkty Losu from 0 to at least 10 (more when a character has more), each box of the tor 0 or 1."""
    state = knife_fight()
    boxes = {f"tor box {b}": (0, 0, 1) for b in range(1, 6)}
    assert state.correctable() == {
        "belzee": {"punkty losu": (3, 0, 10), **boxes},
        "massimo": {"punkty losu": (2, 0, 10), **boxes},
    }
    state.correct("massimo", "punkty losu", 7, "a generous GM")
    state.correct("belzee", "tor box 2", 1, "a bruise from before")
    state.correct("belzee", "tor box 5", 1, "and another")
    assert state.fate_points == [3, 7] and state.marked == [0b10010, 0]
    assert state.correctable()["belzee"]["tor box 2"] == (1, 0, 1)
    state.correct("belzee", "tor box 2", 0, "healed")
    assert state.marked == [0b10000, 0]
    rich = scenario([[fighter("a", skill=2, zmysly=1, fate_points=12)], [fighter("b", skill=2)]])
    assert rich.correctable()["a"]["punkty losu"] == (12, 0, 12)
    rich.fate_points[1] = 11  # more than the character's 3 and than 10: the GM may keep what the conflict gave
    assert rich.correctable()["b"]["punkty losu"] == (11, 0, 11)


def test_invariants_name_each_broken_number() -> None:
    state = knife_fight()
    assert state.invariants() == []
    state.fate_points[0] = -1
    state.marked[1] = 1 << 5
    state.cons[0] = [0, 3, 0]
    state.ticks[1] = 1
    state.zone[0] = 1
    assert state.invariants() == [
        "belzee: Punkty Losu (fate points) -1 < 0",
        "belzee: consequence slot state [0, 3, 0]",
        "belzee: zone 1",
        "massimo: marked boxes beyond the track",
        "massimo: weapon aspect ticks 1 of 0",
    ]


def test_the_clock_is_the_exchange_against_max_exchanges_and_a_copy_moves_its_own_cap() -> None:
    state = knife_fight()
    assert state.clock() == (1, 30)
    other = state.clone()
    assert isinstance(other, PresjaState)
    other.set_clock_cap(4)
    assert other.clock() == (1, 4) and state.clock() == (1, 30)


def test_the_key_without_the_clock_keeps_only_what_the_exchange_number_decides() -> None:
    """Mobility counts from the third exchange, surprise in the first only; otherwise the number is dropped."""
    state = knife_fight()
    state.exchange = 7
    assert state.key_without_clock() == (0, *state.key()[1:])  # type: ignore[index]
    mobile = knife_fight(advantage_mobility=True)
    seen = []
    for exchange in (1, 2, 3, 9):
        mobile.exchange = exchange
        seen.append(mobile.key_without_clock()[0])  # type: ignore[index]
    assert seen == [1, 2, 3, 3]
    surprised = scenario(
        [[fighter("a", skill=2, zmysly=1)], [fighter("b", skill=2)]], {"surprise": True}, {"surprised": ["b"]}
    )
    seen = []
    for exchange in (1, 2, 5):
        surprised.exchange = exchange
        seen.append(surprised.key_without_clock()[0])  # type: ignore[index]
    assert seen == [1, 2, 2]


def test_the_deadlock_at_the_cap_ends_the_conflict_in_the_exchange_before() -> None:
    state = knife_fight()
    state.exchange = 5
    state.end_at_cap()
    assert (state.exchange, state.phase, state.ending) == (4, "done", "deadlock")
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome.ending == "deadlock" and outcome.winners == ()
    assert state.history()[-1].kind == "end"
    assert state.history()[-1].text == "Impas (deadlock): no side prevailed in 4 exchanges"


def test_a_seat_sees_every_fighter_openly() -> None:
    """Nothing is secret in presja: declarations are made aloud in order."""
    state = knife_fight()
    view = state.view("massimo")
    assert view["exchange"] == 1 and view["phase"] == "declare"
    assert view["zones"] == {"scena": []}
    assert view["participants"]["massimo"] == {
        "name": "Massimo",
        "side": "strona_massimo",
        "zone": "scena",
        "status": "fighting",
        "fate_points": 2,
        "track": TEXT_TRACK,
        "consequences": {},
        "result": None,
        "aspects": ["Dobry nożownik (a good knife fighter)"],
    }
    assert state.status()["belzee"] == {
        "side": "strona_belzee",
        "strefa (zone)": "scena",
        "status": "fighting",
        "Punkty Losu (fate points)": "3",
        "tor (track)": TEXT_TRACK,
        "konsekwencje (consequences)": "-",
    }


def test_the_skirmish_sees_its_zones_and_who_is_next_to_whom() -> None:
    state = new_state(load_scenario("presja/skirmish"))
    assert isinstance(state, PresjaState)
    zones = state.view(state.seats()[0])["zones"]
    assert set(zones) == set(state.zone_ids)
    assert all(sorted(state.zone_ids[k] for k in state.adjacent[n]) == zones[z] for n, z in enumerate(state.zone_ids))


# ---- the exchange of the text, step by step ------------------------------------------------------------------------
def _exchange_of_the_text(**options: object) -> PresjaState:
    """Belzee and Massimo attack each other; Belzee rolls + + 0 −, Massimo 0 0 + + (the text's dice)."""
    state = knife_fight(**options)
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    purpose = "Belzee: 4dF + Walka na noże (knife fighting) +2 — Atak i Obrona (attack and defence) for this exchange"
    assert state.roll_purpose() == purpose
    roll(state, "+ + 0 -")
    roll(state, "0 0 + +")
    pass_invocations(state)
    return state


def test_each_side_of_the_conflict_is_named() -> None:
    state = knife_fight()
    assert [state.side_of(s) for s in ("belzee", "massimo", "nobody")] == ["strona_belzee", "strona_massimo", None]


def test_a_name_typed_as_underscores_or_blanks_names_nothing() -> None:
    """``name=`` gives the consequence's name, ``_`` for spaces; a name of only ``_`` and blanks is no name."""
    assert consequence_names_typed(Action.of("absorb", name=("_", "Rozcięta_dłoń", " "))) == ("Rozcięta dłoń",)
    state = _exchange_of_the_text()
    with pytest.raises(IllegalActionError, match=r"\(words joined by _, several names by commas\)"):
        act(state, "absorb", boxes="1:1", cons="mild", name="__")


def test_refusing_to_take_the_pressure_is_said_as_willing() -> None:
    """One may refuse any way of absorbing and be taken out: "chooses not to take the pressure"."""
    state = _exchange_of_the_text()
    act(state, "taken_out")
    said = [e.text for e in state.history() if e.kind == "taken_out"]
    assert said[0].startswith("Belzee chooses not to take the pressure: wyeliminowany (taken out).")


def test_a_compel_may_be_refused_only_with_a_fate_point_to_pay() -> None:
    state = _exchange_of_the_text()
    assert state.compel_pending is None  # nothing compelled yet this exchange
    act(state, "absorb", boxes="1:1", cons="mild")
    b = state.index["belzee"]
    state.fate_points[b] = 0
    act(state, "compel", consequence="belzee:mild")
    assert [a.kind for a in state.legal_actions()] == ["accept"]
    act(state, "accept")
    assert state.compel_pending is None and state.fate_points[b] == 1


def test_after_the_conflict_the_mild_consequence_and_the_box_stay_until_rest() -> None:
    state = _exchange_of_the_text()
    act(state, "absorb", boxes="1:1", cons="mild")
    left = state.after_conflict()["belzee"]
    assert left.consequences.mild is not None and left.marked_boxes == ["1"]


KNIFE = {"skill": 2, "weapon": "noz"}
ZONES = {
    "zones": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}, {"id": "z", "name": "Z"}],
    "adjacent": [["x", "y"], ["y", "z"]],
}


def test_a_move_keeps_its_tactic_and_only_the_mover_changes_zone() -> None:
    """Moving takes the action and happens at the end of the exchange; the attacker who stood stays where he was."""
    setup = {**ZONES, "positions": {"a": "x", "b": "x"}}
    state = scenario([[fighter("a", **KNIFE, zmysly=1)], [fighter("b", **KNIFE)]], setup=setup)
    act(state, "move", to="y", tactic="defensive")
    a, b = state.index["a"], state.index["b"]
    assert state.tactic(a) == "defensive"
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    pass_invocations(state)
    if state.phase == "absorb":
        state.apply_action(state.legal_actions()[0])
    assert [state.zone_ids[state.zone[k]] for k in (a, b)] == ["y", "x"]


def test_a_reroll_says_the_dice_it_replaces() -> None:
    state = scenario([[fighter("a", **KNIFE, zmysly=1, fate_points=2, aspects=["Zwinny"])], [fighter("b", **KNIFE)]])
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "+ + 0 0")
    roll(state, "0 0 0 0")
    act(state, "invoke", aspect="own:1", effect="reroll")
    roll(state, "+ + + -")
    reroll = next(e for e in state.history() if e.kind == "reroll")
    assert (reroll.data["old"], reroll.data["dice"]) == (2, 2)
    assert "rerolls) 4dF: +2 →" in reroll.text


def test_the_attack_numbers_of_the_text() -> None:
    """Belzee's attack: 3 against Massimo's Defence 5, no tactic, no advantage, no crowd, repelled."""
    state = _exchange_of_the_text()
    b, m = state.index["belzee"], state.index["massimo"]
    assert state.attack_numbers(b, m) == (3, 5, 0, 0, (), 0, 0, 0)


def test_numbers_count_an_ally_standing_in_the_targets_zone() -> None:
    """Przewaga liczebna: a friend of the attacker still fighting in the target's zone counts, though he defends."""
    state = scenario([[fighter("a1", **KNIFE, zmysly=3), fighter("a2", **KNIFE, zmysly=2)], [fighter("b", **KNIFE)]])
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    a1, a2, b = state.index["a1"], state.index["a2"], state.index["b"]
    assert state.positional(a1, b) == (True, False, False)  # (numbers, flanking, surrounded)
    state.fate[a2] = 1  # a2 out of the fight: he no longer counts
    assert state.positional(a1, b) == (False, False, False)


def test_conceding_is_declared_aloud_before_the_roll() -> None:
    state = knife_fight()
    before = len(state.history())
    act(state, "concede")
    declared = state.history()[before]
    assert (declared.kind, declared.data["declared"]) == ("declare", "concede")
    assert declared.text == "Belzee deklaruje (declares): poddaje się (concedes) before the opponents roll"
    assert state.decl[state.index["belzee"]].kind == "concede"  # type: ignore[union-attr]


def test_after_an_invocation_everyone_may_answer_again() -> None:
    """Invocations go round in the order of action until a whole round passes with nobody invoking."""
    state = scenario(
        [
            [fighter("a", **KNIFE, zmysly=1, fate_points=2, aspects=["Zwinny (nimble)"])],
            [fighter("b", **KNIFE, fate_points=1, aspects=["Silny (strong)"])],
        ]
    )
    act(state, "attack", target="b", tactic=None)
    act(state, "attack", target="a", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    act(state, "invoke", aspect="own:1", effect="bonus")
    asked = []
    while state.phase == "invoke":
        asked.append(state.current_player())
        act(state, "pass")
    assert asked == ["a", "b", "a", "b"]


@pytest.mark.parametrize(
    ("kind", "args", "words"),
    [
        ("attack", {"target": "massimo", "tactic": "offensive"}, "atak na (attack on) Massimo, taktyka zaczepna"),
        ("defend", {"tactic": "defensive"}, "tylko obrona (defends only), taktyka obronna"),
        ("defend", {"tactic": None}, "tylko obrona (defends only)"),
    ],
)
def test_the_tables_declaration_cell_reads_as_the_narration_declares(
    kind: str, args: dict[str, str | None], words: str
) -> None:
    """The table's *deklaracja* cell holds the declaration in the text's words with the English beside them, the
    same words the narration's ``declare`` line gives (not the action's ids: ``attack massimo offensive``)."""
    state = knife_fight()
    act(state, kind, **args)
    cell = state.status()["belzee"]["deklaracja (declaration)"]
    assert cell.startswith(words), cell
    declared = [e.text for e in state.history() if e.kind == "declare"][-1]
    assert declared == f"Belzee deklaruje (declares): {cell}"
