"""Rule options and scenario files: typed values, and one-line errors naming the file, the field and the value."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from konflikt.core.options import RuleOption, parse_assignments
from konflikt.core.scenario import load_scenario, scenario_from_document
from konflikt.errors import OptionError, ScenarioError
from tests.core.toy import DOCUMENT, OPTIONS


def test_options_resolve_defaults_then_layers() -> None:
    """The command line (the later layer) wins over the scenario file. Deliberate mutation that fails it: ``resolve``
    applying the layers in reverse."""
    options = OPTIONS.resolve({"open_hit": 2}, {"open_hit": "4", "max_rounds": "7"})
    assert options.open_hit == 4
    assert options.max_rounds == 7
    assert options.guard_hit == 5


@pytest.mark.parametrize(
    ("layer", "fragment"),
    [
        ({"open_hti": 2}, "unknown rule option 'open_hti'"),
        ({"open_hit": "x"}, "takes a whole number, not 'x'"),
        ({"open_hit": True}, "takes a whole number"),
        ({"open_hit": 0}, "at least 1"),
    ],
)
def test_bad_options_are_refused(layer: dict[str, Any], fragment: str) -> None:
    with pytest.raises(OptionError, match=fragment):
        OPTIONS.resolve(layer)


def test_bool_and_choice_options_parse_from_text() -> None:
    flag = RuleOption("tactics", bool, True, "tactics on")
    assert flag.coerce("off") is False
    assert flag.coerce("yes") is True
    with pytest.raises(OptionError, match="true or false"):
        flag.coerce("maybe")
    choice = RuleOption("mode", str, "a", "mode", choices=("a", "b"))
    with pytest.raises(OptionError, match="one of a, b"):
        choice.coerce("c")
    assert parse_assignments(["a=1", "b = x", "c=x=y"]) == {"a": "1", "b": "x", "c": "x=y"}
    with pytest.raises(OptionError, match="name=value"):
        parse_assignments(["novalue"])


def broken(path: list[Any], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(DOCUMENT)
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "fragment"),
    [
        (["sides", 0, "participants", 0, "points"], "many", "duel.toml: sides[0].participants[0].points = 'many'"),
        (["sides", 1, "participants", 0, "points"], 99, "sides[1].participants[0].points = 99"),
        (["sides", 0, "participants", 0, "policy"], "genius", "policy = 'genius': unknown policy"),
        (["sides", 0, "participants", 0, "id"], "Ada Lovelace", "sides[0].participants[0].id = 'Ada Lovelace'"),
        (["sides", 1, "participants", 0, "id"], "ada", "used twice"),
        (["ruleset"], "chess", "ruleset = 'chess': unknown ruleset"),
        (["options"], {"open_hit": "x"}, "options: option 'open_hit' takes a whole number"),
        (["setup"], {"arena": 3}, "setup.arena = 3"),
        (["sides"], [], "sides"),
        (["title"], None, "title = none"),
    ],
)
def test_scenario_errors_name_file_field_and_value(path: list[Any], value: Any, fragment: str) -> None:
    with pytest.raises(ScenarioError) as info:
        scenario_from_document(broken(path, value), "duel.toml")
    message = str(info.value)
    assert fragment.lower() in message.lower(), message
    assert "\n" not in message


def test_character_files_are_merged_under_inline_fields(tmp_path: Path) -> None:
    (tmp_path / "ada.toml").write_text('name = "Ada"\npoints = 4\n')
    (tmp_path / "duel.toml").write_text(
        'ruleset = "toy"\ntitle = "t"\n'
        '[[sides]]\nid = "a"\n[[sides.participants]]\nid = "ada"\ncharacter = "ada.toml"\n'
        '[[sides]]\nid = "b"\n[[sides.participants]]\nid = "bo"\ncharacter = "ada.toml"\npoints = 1\nname = "Bo"\n'
    )
    scenario = load_scenario(tmp_path / "duel.toml")
    ada, bo = scenario.participants()
    assert (ada.name, ada.data.points) == ("Ada", 4)
    assert (bo.name, bo.data.points) == ("Bo", 1)
    assert scenario.document["sides"][0]["participants"][0]["points"] == 4


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("ruleset = ", "(?i)not valid toml"),
        (
            'ruleset = "toy"\ntitle = "t"\n[[sides]]\nid = "a"\n[[sides.participants]]\nid = "x"\n'
            'character = "nope.toml"\n[[sides]]\nid = "b"\n[[sides.participants]]\nid = "y"\n',
            "character = 'nope.toml': no such file",
        ),
    ],
)
def test_unreadable_files_get_one_line(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError, match=fragment):
        load_scenario(path)


def test_missing_scenario_is_named() -> None:
    with pytest.raises(ScenarioError, match=r"nowhere\.toml: no such file"):
        load_scenario("nowhere.toml")


def refused_duel(tmp_path: Path, old: str, new: str) -> str:
    """The line that refuses Le våld's bundled duel with ``old`` replaced by ``new`` in its file."""
    duel = (Path(__file__).parents[2] / "src/konflikt/examples/levald/duel.toml").read_text(encoding="utf-8")
    path = tmp_path / "duel.toml"
    path.write_text(duel.replace(old, new), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    return str(caught.value)


def test_a_bundled_character_of_another_ruleset_is_named_with_the_ones_there_are(tmp_path: Path) -> None:
    """``builtin:budolf`` in a Le våld scenario: Budolf is Fimbulfrost's, so the line lists Le våld's bundled
    characters instead of saying "no such file" (there is no file the GM named)."""
    line = refused_duel(tmp_path, '"builtin:hedda"', '"builtin:budolf"')
    assert "character = 'builtin:budolf': no bundled levald character 'budolf'" in line, line
    folder = Path(__file__).parents[2] / "src/konflikt/rulesets/levald/content/characters"
    bundled = ", ".join(sorted(p.stem for p in folder.glob("*.toml")))
    assert "hedda" in bundled and f"(bundled: {bundled})" in line and "\n" not in line, line


def test_a_field_s_message_keeps_the_case_of_what_it_quotes(tmp_path: Path) -> None:
    """The line said ``distance 'far' is not one of kropp, sköld, …`` for ``distance = "Far"``: the whole message
    was lower-cased, so the value and the names to choose from were not as written. Only its first letter is."""
    line = refused_duel(tmp_path, 'distance = "Fri"', 'distance = "Far"')
    assert "setup.distance = 'Far': value error, " in line, line
    assert "'Far'" in line.split("value error, ", 1)[1] and "Sköld" in line, line
