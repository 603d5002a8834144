"""The table ``play`` and the browser show: what a game master needs at a glance of each hero and the opponent."""

from __future__ import annotations

from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario


def test_every_hero_s_omdomme_is_on_the_table_as_the_opponent_s_is() -> None:
    """Round 1's choice is "Omdømme − 1 dice" or "Omdømme + 0 dice": the number it counts from must be on the table
    for each hero (the text's Budolf has Omdømme 4, Rudolf 3), not only for the opponent (the robbers' 2)."""
    status = new_state(load_scenario("fimbulfrost/robbers")).status()
    assert status["budolf"]["Omdømme (reputation)"] == "4"
    assert status["rudolf"]["Omdømme (reputation)"] == "3"
    assert status["roeverne"]["Omdømme (reputation)"] == "2"


def test_the_choices_name_the_friend_as_the_narration_does() -> None:
    """ "præsenteres af Rudolf", as the log says "Budolf is presented by Rudolf": a name, not the seat id."""
    state = new_state(load_scenario("fimbulfrost/robbers"))
    seat = state.current_player()
    described = [state.describe_action(seat, action) for action in state.legal_actions(seat)]
    assert "præsenteres af Rudolf (presented by a friend): Omdømme + 0 dice" in described, described
