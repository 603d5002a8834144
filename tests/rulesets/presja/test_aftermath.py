"""After the conflict: the characters as the fight leaves them, and the text's recovery by rest in a campaign."""

from __future__ import annotations

from typing import Any

import pytest

from konflikt.core.campaign import Rest
from konflikt.core.ruleset import get_ruleset
from konflikt.errors import KonfliktError
from konflikt.rulesets.presja.campaign import CAMPAIGN, REST
from konflikt.rulesets.presja.models import Character
from konflikt.rulesets.presja.track import track_text
from tests.rulesets.presja.helpers import act, duel

OPTIONS = get_ruleset("presja").options.resolve()


def _finished_with_consequences():  # type: ignore[no-untyped-def]
    state = duel({"skill": 2, "fate_points": 1}, {"skill": 2, "fate_points": 0})
    a = state.index["a"]
    state.marked[a] = 0b00101
    state.cons[a] = [1, 1, 0]
    state.cons_names[a] = ["Zmęczony", "Skręcenie kostki", ""]
    act(state, "concede")
    assert state.is_terminal()
    return state


def _aftermath(state) -> Any:  # type: ignore[no-untyped-def]
    return get_ruleset("presja").aftermath(state)  # type: ignore[misc]


def test_the_end_of_a_fight_is_not_yet_rest_boxes_and_mild_consequences_stay() -> None:
    """ "zakładając, że postacie mają kilka minut na odpoczynek, wszystkie zakreślone pola, zostają wyczyszczone …
    łagodne konsekwencje również zostają wyczyszczone po 5-10 minut odpoczynku": recovery needs the rest, which
    the end of the fight is not. The aftermath cleared both at the moment the conflict ended."""
    state = _finished_with_consequences()
    after = _aftermath(state)
    doc = after.characters["a"]
    assert doc["marked_boxes"] == ["1", "2-3"]
    assert doc["consequences"] == {"mild": "Zmęczony", "moderate": "Skręcenie kostki"}
    assert doc["fate_points"] == 2, "1 kept and 1 for conceding (the consequences were not taken in this conflict)"
    line = next(text for text in after.lines if text.startswith("a:"))
    assert "tor (track) [x1][1][x2-3][2-3][4-5]: zakreślone pola (marked boxes) stay until 5 minutes of rest" in line
    assert "łagodna (mild) 'Zmęczony' stays until 10 minutes of rest (5-10 minut odpoczynku)" in line
    assert "umiarkowana (moderate) 'Skręcenie kostki' pozostaje (remains) until healed" in line
    assert "marked_boxes" not in after.characters["b"], "a clear track says nothing"


def test_a_fight_straight_after_starts_with_what_the_first_left() -> None:
    """Back to back, no rest between: the second fight's track and consequences are the first's end."""
    doc = _aftermath(_finished_with_consequences()).characters["a"]
    second = duel({**doc, "skill": 2}, {"skill": 2, "fate_points": 0})
    a = second.index["a"]
    fighter = second.fighters[a]
    assert track_text(fighter.track, second.marked[a], fighter.body) == "[x1][1][x2-3][2-3][4-5]"
    assert second.cons[a] == [2, 2, 0], "carried in: their free invocation counts as used"
    assert second.cons_names[a][:2] == ["Zmęczony", "Skręcenie kostki"]


def test_boxes_marked_beyond_the_track_or_named_wrongly_are_refused() -> None:
    with pytest.raises(KonfliktError, match=r"a: marked_boxes: 2 box\(es\) '4-5' marked, but the track"):
        duel({"skill": 2, "marked_boxes": ["4-5", "4-5"]}, {"skill": 2})
    with pytest.raises(KonfliktError, match="a marked box is named by its range"):
        duel({"skill": 2, "marked_boxes": ["big"]}, {"skill": 2})


def test_rest_clears_the_boxes_after_5_minutes_and_the_mild_one_after_10_and_rests_add_up() -> None:
    doc = _aftermath(_finished_with_consequences()).characters["a"]
    three = CAMPAIGN.rest(doc, (), Rest(3, "minutes"), OPTIONS)
    assert three.document == doc and three.pending == ({"effect": REST, "minutes": 3},)
    assert three.lines[0] == "3 minutes of rest so far: the marked boxes clear at 5 and the mild consequence at 10"
    five = CAMPAIGN.rest(three.document, three.pending, Rest(2, "minutes"), OPTIONS)
    assert "marked_boxes" not in five.document and five.document["consequences"]["mild"] == "Zmęczony"
    assert "zakreślone pola wyczyszczone (marked boxes cleared: 1, 2-3) after 5 minutes of rest" in five.lines[0]
    ten = CAMPAIGN.rest(five.document, five.pending, Rest(5, "minutes"), OPTIONS)
    assert ten.document["consequences"] == {"moderate": "Skręcenie kostki"} and ten.pending == ()
    assert "łagodna (mild) 'Zmęczony' wyczyszczona (cleared) after 10 minutes of rest" in ten.lines[0]
    assert "pozostaje (remains): healing (leczenie) is the GM's" in ten.lines[-1]
    at_five = CAMPAIGN.rest(doc, (), Rest(5, "minutes"), {**OPTIONS, "rest_clears_mild": 5})
    assert "marked_boxes" not in at_five.document and "mild" not in at_five.document["consequences"]
    hour = CAMPAIGN.rest(doc, (), Rest(1, "hours"), OPTIONS)
    assert hour.document == ten.document and hour.pending == ()


def test_the_next_fight_breaks_the_rest() -> None:
    doc = _aftermath(_finished_with_consequences()).characters["a"]
    three = CAMPAIGN.rest(doc, (), Rest(3, "minutes"), OPTIONS)
    settled = CAMPAIGN.settle(three.document, three.pending, doc)
    assert settled.pending == () and settled.lines == (
        "the fight broke the rest (3 minutes so far): rest starts again",
    )
    assert CAMPAIGN.rest(settled.document, settled.pending, Rest(2, "minutes"), OPTIONS).document == doc


def test_aftermath_documents_load_back_as_characters() -> None:
    state = _finished_with_consequences()
    after = _aftermath(state)
    for pid, doc in after.characters.items():
        character = Character.model_validate(doc)
        assert character.name == state.fighters[state.index[pid]].name
    assert Character.model_validate(after.characters["b"]).consequences.mild is None
    assert Character.model_validate(after.characters["a"]).marked_boxes == ["1", "2-3"]
