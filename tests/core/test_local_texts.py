"""A scenario's texts as tables of languages: the title, the description, a side's name and goal are read in the
language in use (English, then the bilingual register, where the table lacks it), and a wrong table is refused in
one line naming the field and the language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from konflikt.core.i18n import speaking
from konflikt.core.scenario import scenario_from_document
from konflikt.errors import ScenarioError


def _document(**side: Any) -> dict[str, Any]:
    return {
        "ruleset": "levald",
        "title": {"sv": "Tvekamp vid bron", "en": "A duel at the bridge", "both": "Tvekamp vid bron (a duel)"},
        "description": {"en": "Two fighters."},
        "setup": {"distance": "Fri"},
        "sides": [
            {"id": "a", "participants": [{"id": "snurre", "character": "builtin:snurre"}], **side},
            {"id": "b", "participants": [{"id": "hedda", "character": "builtin:hedda"}]},
        ],
    }


def _load(document: dict[str, Any]) -> Any:
    return scenario_from_document(document, "test.toml", base=Path("."))


def test_texts_are_read_in_the_language_in_use() -> None:
    side = {"name": {"sv": "Hjältarna", "en": "The heroes"}, "goal": {"sv": "ta sig över bron", "en": "cross"}}
    seen = {}
    for language in ("sv", "en", "da", "both"):
        with speaking(language):
            scenario = _load(_document(**side))
            seen[language] = (scenario.title, scenario.description, scenario.sides[0].name, scenario.sides[0].goal)
    assert seen["sv"] == ("Tvekamp vid bron", "Two fighters.", "Hjältarna", "ta sig över bron")
    assert seen["en"] == ("A duel at the bridge", "Two fighters.", "The heroes", "cross")
    assert seen["da"] == seen["en"]  # no Danish: English
    assert seen["both"][0] == "Tvekamp vid bron (a duel)" and seen["both"][2] == "The heroes"


def test_a_saved_conflict_keeps_every_language() -> None:
    with speaking("sv"):
        scenario = _load(_document())
    assert scenario.document["title"]["en"] == "A duel at the bridge"


@pytest.mark.parametrize(
    ("side", "words"),
    [
        ({"name": {"xx": "Heroes"}}, ("sides[0].name", "'xx'")),
        ({"name": {"sv": "bad\u0007"}}, ("sides[0].name", "\\x07")),
        ({"goal": {}}, ("sides[0].goal", "at least one")),
        ({"goal": {"sv": 3}}, ("sides[0].goal", "string")),
    ],
)
def test_a_wrong_table_is_refused_naming_field_and_value(side: dict[str, Any], words: tuple[str, ...]) -> None:
    with pytest.raises(ScenarioError) as refused:
        _load(_document(**side))
    message = str(refused.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


@pytest.mark.parametrize("ruleset_id", ["levald", "fimbulfrost", "pwge", "presja"])
def test_a_systems_name_is_said_in_each_language(ruleset_id: str) -> None:
    from konflikt.core.ruleset import get_ruleset
    from tests.languages import english_words

    ruleset = get_ruleset(ruleset_id)
    names = {}
    for language in ("sv", "da", "pl", "en", "both"):
        with speaking(language):
            names[language] = ruleset.display_name
    assert "(" in names["both"] and names["both"] != names["sv"]
    proper = frozenset({"Parallel", "Worlds", "Gamist's", "Edition", "Gamist", "s", "PWGE", "FATE"})
    for language in ("sv", "da", "pl"):
        assert not english_words(names[language], language, proper), names[language]
