"""The conflict's flow said and counted exactly: who is asked next, how many consequences a number of points buys, and
what each step says (found by ``scripts/mutation.sh fimbulfrost:state``).

Each test names the rule it checks. The mutants of ``FimbulfrostState`` they were written against changed an event's
kind or number, a consequence count (``points_per_consequence`` dropped), the order of the buyers, or a hero's
morale, dice or turn.
"""

from __future__ import annotations

from typing import Any

from konflikt.core.actions import Action
from konflikt.dice import SuccessPool
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.state import DEAD, OUT, FimbulfrostState
from tests.rulesets.fimbulfrost.helpers import (
    ALL,
    NONE,
    act,
    hero,
    present_each_other,
    roll,
    sigrun_and_rudolf_in_round2,
    start,
    to_round2,
)

ROUND1_LIST = ["ydmyget", "rygte-plettet", "mareridt", "flygtet", "overgivet"]
"""Every entry of the round-1 list but death (død)."""


def said(state: FimbulfrostState, since: int = 0, kind: str | None = None) -> list[tuple[str, str, dict[str, Any]]]:
    """The events said since ``since``: (kind, text, data), of one kind when given."""
    return [(e.kind, e.text, dict(e.data)) for e in state.history()[since:] if kind is None or e.kind == kind]


def budolf_knocked_out(options: dict[str, Any] | None = None, **budolf: Any) -> FimbulfrostState:
    """Budolf at Status 1 against robbers with Omdømme 4: their answer in round 1 takes 4 off him (3 under 0)."""
    return _knocked_out(4, options, **budolf)


def _knocked_out(hits: int, options: dict[str, Any] | None, **budolf: Any) -> FimbulfrostState:
    budolf_at_1 = hero("budolf", character="builtin:budolf", status=1, **budolf)
    heroes = [budolf_at_1, hero("rudolf", character="builtin:rudolf")]
    state = start(
        heroes=heroes, opponent=hero("roeverne", character="builtin:roeverbanden", omdomme=4), options=options
    )
    present_each_other(state)
    roll(state, 0)
    roll(state, 0)
    roll(state, hits)  # the robbers' Omdømme answer
    act(state, "hit", budolf=hits)
    return state


def three_heroes_defeat_the_robbers(options: dict[str, Any] | None = None) -> FimbulfrostState:
    """Budolf, Rudolf and Sigrun put 9 successes on the robbers (Status 6) in round 1: 3 points under 0."""
    heroes = [hero(h, character=f"builtin:{h}") for h in ("budolf", "rudolf", "sigrun")]
    state = start(heroes=heroes, options=options)
    act(state, "present", by="rudolf")  # Budolf: Omdømme 4 + 0
    act(state, "present", by="sigrun")  # Rudolf: 3 + 0
    act(state, "present", by="budolf")  # Sigrun: 3 + 0
    for successes in (4, 3, 2):
        roll(state, successes)
    for successes in (4, 3, 2):
        act(state, "split", opponent=successes)
    assert state.opp_status == -3
    return state


# ---- the defeated opponent's consequences --------------------------------------------------------------------------
def test_the_heroes_buy_the_defeated_opponents_consequences_in_turn_from_the_first_hero() -> None:
    """ "kan spillerne købe konsekvenser til modstanderen": one entry a point, the heroes in turn from the first."""
    state = three_heroes_defeat_the_robbers()
    assert state.asks == [("opp", 0, 3, 1)]
    buyers = []
    for entry in ("modstander-flygter", "modstander-saaret", "modstander-bytte"):
        buyers.append(state.current_player())
        act(state, "consequence", entry=entry)
    assert buyers == ["budolf", "rudolf", "sigrun"]
    assert state.is_terminal()


def test_the_opponents_consequences_say_how_many_more_may_be_bought() -> None:
    state = three_heroes_defeat_the_robbers()
    before = len(state.history())
    act(state, "consequence", entry="modstander-flygter")
    act(state, "consequence", entry="modstander-saaret")
    act(state, "consequence", entry="modstander-bytte")
    texts = [text for _, text, _ in said(state, before, "consequence")]
    assert [t.split(" for Røverbanden")[1] for t in texts] == [" (2 more may be bought)", " (1 more may be bought)", ""]


def test_points_per_consequence_sets_the_opponents_count() -> None:
    """3 points under 0 at 2 points a consequence: 2 consequences (rounded up)."""
    state = three_heroes_defeat_the_robbers({"points_per_consequence": 2})
    assert state.asks == [("opp", 0, 2, 1)]


def test_sparing_the_opponent_is_said_and_the_heroes_side_wins() -> None:
    state = three_heroes_defeat_the_robbers()
    before = len(state.history())
    act(state, "spare")
    assert said(state, before)[0] == (
        "spare",
        "the heroes buy no more consequences for Røverbanden (spared)",
        {"hero": "budolf", "dice": 0},
    )
    outcome = state.outcome()
    assert outcome.winners == ("helte",) and outcome.ending == "opponent_defeated"
    assert state.side_of("sigrun") == "helte" and state.side_of("roeverne") == "fjende"


# ---- a hero knocked out ----------------------------------------------------------------------------------------
def test_damage_is_said_with_the_status_before_and_after_and_only_for_the_hero_hit() -> None:
    """Trin 4B: the hits split all on Budolf; Rudolf, given 0, takes no damage and nothing is said of him."""
    state = budolf_knocked_out()
    assert said(state, kind="damage") == [
        (
            "damage",
            "Røverbanden takes 4 off Budolf: Status 1 → -3 → ude af kampen (out of the fight), 3 point(s) under 0",
            {"hero": "budolf", "damage": 4, "status": -3},
        )
    ]
    assert state.hits == 0  # the hits are dealt: none left for the key
    assert state.fate == [OUT, 0] and state.morale == [0, 0]


def test_a_hero_out_loses_his_morale_bonus() -> None:
    """Morale given by a friend absorbs damage first; a hero who is out anyway keeps none of it."""
    heroes = [hero("budolf", character="builtin:budolf", status=1), hero("rudolf", character="builtin:rudolf")]
    state = start(heroes=heroes, opponent=hero("roeverne", character="builtin:roeverbanden", omdomme=4))
    present_each_other(state)
    roll(state, 0)
    roll(state, 1)
    act(state, "split", opponent=0, morale_budolf=1)
    assert state.morale == [1, 0]
    roll(state, 4)
    act(state, "hit", budolf=4)
    assert state.hstatus[0] == -2 and state.fate[0] == OUT and state.morale == [0, 0]


def test_no_damage_is_said_when_the_opponent_rolls_no_success() -> None:
    state = start()
    to_round2(state, b=1, r=1, robbers=0)
    assert said(state, kind="damage") == [] and state.hits == 0


def test_points_per_consequence_sets_a_knocked_out_heros_count() -> None:
    """3 points under 0 at 2 points a consequence: 2 of Budolf's own, bought one by one, each saying what is left."""
    state = budolf_knocked_out({"points_per_consequence": 2})
    assert state.asks == [("cons", 0, 2, 1)]
    before = len(state.history())
    act(state, "consequence", entry="ydmyget")
    act(state, "consequence", entry="mareridt")
    texts = [text for _, text, _ in said(state, before, "consequence")]
    assert texts[0].endswith(" (1 more to buy)") and not texts[1].endswith("to buy)")


def test_round2_is_described_and_rolled_by_the_heroes_still_standing() -> None:
    state = budolf_knocked_out()
    for entry in ("ydmyget", "mareridt", "overgivet"):
        act(state, "consequence", entry=entry)
    assert state.phase == P.R2_DESCRIBE and state.current_player() == "rudolf"
    act(state, "describe", **ALL)
    assert state.roll_purpose() == "Rudolf's Stil, Stunt og Snak roll" and state.pending_roll() == SuccessPool(3)


def test_a_hero_who_described_nothing_has_no_round2_roll() -> None:
    state = start()
    to_round2(state, b=1, r=1, robbers=0)
    act(state, "describe", **NONE)
    act(state, "describe", **ALL)
    assert state.roll_purpose() == "Rudolf's Stil, Stunt og Snak roll" and state.pending_roll() == SuccessPool(3)


def test_staying_out_buys_the_points_under_0_at_the_points_per_consequence() -> None:
    """Buy-back (til overvejelse): staying out costs the ordinary consequences, 2 points a consequence: 1 for 2."""
    state = _knocked_out(3, {"buy_back": True, "points_per_consequence": 2})
    assert state.asks == [("back", 0, 2, 1)]
    before = len(state.history())
    act(state, "stay_out")
    assert said(state, before) == [
        ("stay_out", "Budolf stays out of the fight (1 consequence(s))", {"hero": "budolf", "dice": 1})
    ]
    assert state.asks == [("cons", 0, 1, 1)]


def test_buying_back_is_said_with_its_consequences() -> None:
    """Buy-back: the points under 0 and one more (2 points at 2 a consequence: 1 + 1), back at Status 1."""
    state = _knocked_out(3, {"buy_back": True, "points_per_consequence": 2})
    before = len(state.history())
    act(state, "buy_back")
    assert said(state, before) == [
        (
            "buy_back",
            "Budolf køber sig ind i kampen igen (buys back in): 2 consequence(s), back at Status 1",
            {"hero": "budolf", "consequences": 2},
        )
    ]
    assert state.asks == [("cons", 0, 2, 1)] and state.hstatus[0] == 1


def test_buy_back_is_asked_even_when_the_list_has_nothing_left_to_buy() -> None:
    """The buy-back question is no list entry: a hero whose round-1 list is used up (no death in round 1) is still
    asked whether he buys back in."""
    state = budolf_knocked_out({"buy_back": True, "round1_death": False}, konsekvenser=ROUND1_LIST)
    assert state.hero_entries(0, 1) == ()
    assert state.current_player() == "budolf"
    assert state.legal_actions() == [Action.of("buy_back"), Action.of("stay_out")]


def test_a_hero_who_dies_buys_no_more_but_his_friend_still_does() -> None:
    """Død: the dead hero's own asks go, a friend's stay."""
    state = start()
    present_each_other(state)
    roll(state, 0)
    roll(state, 0)
    roll(state, 0)
    act(state, "describe", **ALL)
    act(state, "describe", **ALL)
    for _ in range(3):
        roll(state, 0)
    act(state, "done")
    act(state, "done")
    assert state.asks == [("cons", 0, 6, 3), ("cons", 1, 6, 3)]
    act(state, "consequence", entry="doed")
    assert state.fate[0] == DEAD and state.asks == [("cons", 1, 6, 3)] and state.current_player() == "rudolf"


def test_hero_entries_follow_an_explicit_allow_death() -> None:
    state = start(options={"round1_death": False})
    assert "doed" not in [e.id for e in state.hero_entries(0, 1)]
    assert "doed" in [e.id for e in state.hero_entries(0, 1, allow_death=True)]
    assert "doed" in [e.id for e in state.hero_entries(0, 2)]
    assert "doed" not in [e.id for e in state.hero_entries(0, 2, allow_death=False)]


# ---- rounds 1 and 2 ----------------------------------------------------------------------------------------------
def test_a_hero_who_presented_himself_presents_nobody_else() -> None:
    """presenters = one_each: Budolf (the first hero) presented himself, so only Rudolf may present Rudolf."""
    state = start()
    act(state, "present", by="budolf")
    assert state.legal_actions() == [Action.of("present", by="rudolf")]


def test_a_split_is_said_with_the_successes_on_the_opponent() -> None:
    state = start()
    to_round2(state, b=1, r=1, robbers=0)
    assert said(state, kind="split")[0] == (
        "split",
        "Budolf fordeler (splits) the successes: 1 off Røverbanden's Status → 5",
        {"hero": "budolf", "opponent": 1, "opponent_status": 5},
    )


def test_round2_total_is_said_and_the_gathered_dice_are_cleared() -> None:
    state = start()
    to_round2(state, b=1, r=1, robbers=0)  # robbers at 4
    act(state, "describe", **ALL)
    act(state, "describe", **ALL)
    roll(state, 1)
    before = len(state.history())
    roll(state, 1)
    total = "Runde (round) 2: the heroes' 2 succes(er) come off Røverbanden's Status: 4 → 2"
    assert said(state, before, "total")[0][1] == total
    assert state.phase == P.R2_KAMP and state.dice == [0, 0]


def test_the_weapon_pool_in_round_2_and_round_3_is_said_with_its_dice() -> None:
    """weapon_pool (til overvejelse): some of the våbenpulje rolled in round 2, the rest in round 3."""
    state = sigrun_and_rudolf_in_round2({"weapon_pool": True})
    act(state, "describe", **ALL)
    before = len(state.history())
    act(state, "weapon", dice=1)
    act(state, "describe", **ALL)
    roll(state, 0)
    roll(state, 0)
    roll(state, 0)
    assert state.phase == P.R3_TURN and state.current_player() == "sigrun"
    act(state, "weapon", dice=1)
    assert said(state, before, "weapon") == [
        (
            "weapon",
            "Sigrun rolls 1 dice of the våbenpulje (weapon pool) in round 2",
            {"hero": "sigrun", "dice": 1},
        ),
        ("weapon", "Sigrun: våbenpulje (weapon pool) → +1d6", {"hero": "sigrun", "dice": 1}),
    ]
    assert state.pools[0][2] == 0


# ---- round 3 -------------------------------------------------------------------------------------------------------
def _sigrun_in_round3(options: dict[str, Any] | None = None) -> FimbulfrostState:
    state = sigrun_and_rudolf_in_round2(options)
    act(state, "describe", **ALL)
    act(state, "describe", **ALL)
    for _ in range(3):
        roll(state, 0)
    assert state.phase == P.R3_TURN and state.current_player() == "sigrun"
    return state


def test_a_maneuver_adds_its_dice_to_those_gathered() -> None:
    state = _sigrun_in_round3()
    act(state, "armour", dice=1)
    act(state, "done")  # Rudolf
    before = len(state.history())
    act(state, "maneuver", id="skjoldmur")
    assert said(state, before)[0][1] == "Sigrun: manøvre Skjoldmur (shield wall) → +2d6 (3d6 gathered)"
    assert state.dice[0] == 3


def test_answering_a_question_is_said_with_its_dice() -> None:
    state = _sigrun_in_round3({"questions": True})
    before = len(state.history())
    act(state, "answer")
    assert said(state, before)[0] == (
        "answer",
        "Sigrun answers a question (spørgsmål og svar) → +2d6",
        {"hero": "sigrun", "dice": 2},
    )


def test_the_round3_roll_is_the_final_roll_of_ressourcer() -> None:
    state = _sigrun_in_round3()
    act(state, "armour", dice=2)
    act(state, "done")
    act(state, "done")
    assert state.roll_purpose() == "Sigrun's Ressourcer (the final roll) roll"
