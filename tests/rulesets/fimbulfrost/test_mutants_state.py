"""The state's own bookkeeping, said and shown exactly (found by `scripts/mutation.sh fimbulfrost:state`).

Each test names the rule it checks; the mutants of ``FimbulfrostState`` it was written against changed the
opening's words, the view a seat sees, the GM's correctable pools, an invariant's words or the key.
"""

from __future__ import annotations

from konflikt.rulesets.fimbulfrost.state import DEAD, OUT
from tests.rulesets.fimbulfrost.helpers import act, start


def test_the_conflict_opens_with_the_three_rounds_and_the_opponents_status() -> None:
    state = start()
    first = state.history()[0]
    assert (first.kind, first.text, first.data["opponent_status"]) == (
        "start",
        "Kamp (combat) in three rounds: Budolf, Rudolf against Røverbanden (Omdømme 2, Kamp 3, Status 6). "
        "Runde 1: Omdømme (reputation).",
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
            "fate": "standing",
            "dice": 0,
            "pools": {"rustning": 5, "grej": 0, "vaaben": 0},
            "consequences": [],
            "borrowed_time": 0,
        },
        "rudolf": {
            "status": 4,
            "morale": 0,
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
