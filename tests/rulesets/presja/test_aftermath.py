"""After the conflict: the text's recovery, as the documents `run` and `play` show and a campaign stores."""

from __future__ import annotations

from konflikt.core.ruleset import get_ruleset
from konflikt.rulesets.presja.models import Character
from tests.rulesets.presja.helpers import act, duel


def _finished_with_consequences():  # type: ignore[no-untyped-def]
    state = duel({"skill": 2, "fate_points": 1}, {"skill": 2, "fate_points": 0})
    a = state.index["a"]
    state.marked[a] = 0b00101
    state.cons[a] = [1, 1, 0]
    state.cons_names[a] = ["Zmęczony", "Skręcenie kostki", ""]
    act(state, "concede")
    assert state.is_terminal()
    return state


def test_wszystkie_zakreslone_pola_zostaja_wyczyszczone_lagodne_tez_pozostaja_umiarkowane() -> None:
    """ "wszystkie zakreślone pola, zostają wyczyszczone … łagodne konsekwencje również … Pozostają tylko
    umiarkowane i poważne konsekwencje": a concedes with two boxes marked, a mild and a moderate consequence."""
    state = _finished_with_consequences()
    after = get_ruleset("presja").aftermath(state)  # type: ignore[misc]
    doc = after.characters["a"]
    assert doc["consequences"] == {"moderate": "Skręcenie kostki"}
    assert doc["fate_points"] == 2, "1 kept and 1 for conceding (the consequences were not taken in this conflict)"
    line = next(text for text in after.lines if text.startswith("a:"))
    assert "[x1][1][x2-3]" in line and "łagodna (mild) 'Zmęczony' wyczyszczona" in line
    assert "umiarkowana (moderate) 'Skręcenie kostki' pozostaje" in line


def test_aftermath_documents_load_back_as_characters() -> None:
    state = _finished_with_consequences()
    after = get_ruleset("presja").aftermath(state)  # type: ignore[misc]
    for pid, doc in after.characters.items():
        character = Character.model_validate(doc)
        assert character.name == state.fighters[state.index[pid]].name
    assert Character.model_validate(after.characters["b"]).consequences.mild is None
