"""The state's own bookkeeping, said and shown exactly (found by `scripts/mutation.sh fimbulfrost:state`).

Each test names the rule it checks; the mutants of ``FimbulfrostState`` it was written against changed the
opening's words, the view a seat sees, the GM's correctable pools, an invariant's words or the key.
"""

from __future__ import annotations

from konflikt.rulesets.fimbulfrost.state import DEAD, OUT
from tests.rulesets.fimbulfrost.helpers import act, roll, start


def test_the_conflict_opens_with_the_three_rounds_and_the_opponents_status() -> None:
    state = start()
    first = state.history()[0]
    assert (first.kind, first.text, first.data["opponent_status"]) == (
        "start",
        "Kamp (combat) in three rounds: Budolf, Rudolf against Røverbanden (Omdømme 2, Kamp 3, Status 6). "
        "Runde (round) 1: Omdømme (reputation).",
        6,
    )


def test_a_hero_presenting_himself_rolls_one_die_less() -> None:
    """ "præsenterer sig selv": Omdømme − 1 (presented by a friend: Omdømme + 0, in test_budolf_example)."""
    state = start()
    act(state, "present", by="budolf")
    assert state.history()[-1].text == "Budolf presents himself (præsenterer sig selv): Omdømme 4 − 1 = 3d6"


def test_a_seat_sees_the_round_the_heroes_and_their_pools() -> None:
    state = start()
    state.fate[1] = OUT
    view = state.view("budolf")
    assert view["round"] == 1
    assert view["heroes"] == {
        "budolf": {
            "status": 6,
            "morale": 0,
            "status_pool": 6,
            "fate": "standing",
            "dice": 0,
            "pools": {"rustning": 5, "grej": 0, "vaaben": 0},
            "consequences": [],
            "borrowed_time": 0,
        },
        "rudolf": {
            "status": 4,
            "morale": 0,
            "status_pool": 4,
            "fate": "out",
            "dice": 0,
            "pools": {"rustning": 6, "grej": 0, "vaaben": 0},
            "consequences": [],
            "borrowed_time": 0,
        },
    }
    state.fate[1] = DEAD
    assert state.view("budolf")["heroes"]["rudolf"]["fate"] == "dead"


def test_the_gm_may_set_each_pool_from_0_to_the_characters_value() -> None:
    state = start()
    assert state.correctable() == {
        "budolf": {"rustning": (5, 0, 5), "grej": (0, 0, 0), "vaaben": (0, 0, 0)},
        "rudolf": {"rustning": (6, 0, 6), "grej": (0, 0, 0), "vaaben": (0, 0, 0)},
    }
    state.correct("rudolf", "rustning", 2, "a broken shield")
    assert state.pools[1][0] == 2 and state.pools[0][0] == 5


def test_invariants_name_negative_morale_and_negative_dice() -> None:
    state = start()
    assert state.invariants() == []
    state.morale[0] = -1
    state.dice[1] = -2
    assert state.invariants() == ["Budolf: negative morale -1", "Rudolf: negative dice"]


def test_the_key_tells_a_hero_who_has_taken_an_area_apart() -> None:
    state, other = start(), start()
    assert state.areas == [0, 0] and state.key() == other.key()
    other.areas[0] = 1
    assert state.key() != other.key()


def test_round3_options_are_said_with_the_dice_they_add() -> None:
    """Runde 3: the armour pool, "Det skal være endnu vildere" (+1d6) and taking no more, each said once."""
    from tests.rulesets.fimbulfrost.test_budolf_example import _to_round3

    state = start()
    _to_round3(state)
    before = len(state.history())
    act(state, "armour", dice=2)
    act(state, "wilder", by="budolf")
    act(state, "done")
    act(state, "done")
    said = [(e.kind, e.text, e.data["hero"], e.data["dice"]) for e in state.history()[before:]]
    assert said == [
        (
            "armour",
            "Budolf: Rustningspulje (armour pool): beskriver sin rustnings indvirkning på kampen "
            "(the armour's part in the fight) → +2d6 (2d6 gathered)",
            "budolf",
            2,
        ),
        (
            "wilder",
            "Rudolf: 'Det skal være endnu vildere' (even wilder): Budolf re-tells the round-2 deeds, wilder → +1d6 "
            "(1d6 gathered)",
            "rudolf",
            1,
        ),
        ("done", "Budolf takes no more options (2d6 gathered)", "budolf", 0),
        ("done", "Rudolf takes no more options (1d6 gathered)", "rudolf", 0),
    ]


def test_each_roll_says_whose_it_is_and_what_for() -> None:
    state = start()
    act(state, "present", by="budolf")
    act(state, "present", by="rudolf")
    purposes = []
    for successes in (0, 0, 0, None, 1, 1, 0):
        if successes is None:  # round 2: both describe their deeds with stil, stunt and snak
            act(state, "describe", stil=True, stunt=True, snak=True)
            act(state, "describe", stil=True, stunt=True, snak=True)
            continue
        purposes.append(state.roll_purpose())
        roll(state, successes)
    assert purposes == [
        "Budolf's Omdømme roll (presenting himself)",
        "Rudolf's Omdømme roll (presenting himself)",
        "Røverbanden's Omdømme roll (reputation: frightening the heroes)",
        "Budolf's Stil, Stunt og Snak roll",
        "Rudolf's Stil, Stunt og Snak roll",
        "Røverbanden's Kamp roll (fight: striking back)",
    ]
