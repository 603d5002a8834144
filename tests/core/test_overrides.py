"""``--set PATH=VALUE``: a what-if applied to a scenario document before it is validated (``core.overrides``).

On each ruleset's bundled duel a ``--set`` gives exactly the answer of the same change written by hand into a copy of
the TOML file (the same fractions; Le våld's block solve: the same floats), and a different one from the scenario
without it. Paths by participant id, side id and position, options and set-up; values as TOML; a path naming nothing
refused with the nearest one; ``dump_toml`` writes every bundled scenario back as the same document.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from konflikt.analysis.questions import whole_conflict_answer
from konflikt.cli.common import bundled_names
from konflikt.core.conflict import new_state
from konflikt.core.odds import OddsAnswer
from konflikt.core.overrides import dump_toml, parse_value, split_path
from konflikt.core.scenario import Scenario, bundled_examples, load_scenario, scenario_from_document
from konflikt.errors import KonfliktError, ScenarioError
from konflikt.sim.runner import seat_policies
from tests.conftest import Result


def answer(scenario: Scenario, exact: bool) -> OddsAnswer:
    return whole_conflict_answer(scenario, new_state(scenario, {}), seat_policies(scenario, {}), exact=exact)


def numbers(a: OddsAnswer) -> tuple[Any, ...]:
    return (list(a.outcomes), {k: list(v) for k, v in a.distributions.items()}, dict(a.probabilities))


def hand_edited(tmp_path: Path, name: str, edits: list[tuple[str, str]]) -> Path:
    """A copy of the bundled scenario with each ``old`` line replaced by ``new`` (as a designer edits it)."""
    text = (bundled_examples() / f"{name}.toml").read_text(encoding="utf-8")
    for old, new in edits:
        if not old:  # appended: a table of its own at the end of the file
            text += new
            continue
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "edited.toml"
    path.write_text(text, encoding="utf-8")
    return path


# Each ruleset's duel: the --set what-ifs, the same change written into the file by hand, and whether the solve is
# in fractions (Le våld's duel is solved in floats within a bound: its numbers are compared as they are).
DUELS = [
    pytest.param(
        "presja/knife_fight",
        ["belzee.skill=3", "options.tactics=false"],
        [('character = "builtin:belzee"\n', 'character = "builtin:belzee"\nskill = 3\n'),
         ("", "\n[options]\ntactics = false\n")],
        [],
        True,
        id="presja",
    ),
    pytest.param(
        "fimbulfrost/robbers",
        ["budolf.status=4", "sides.1.participants.0.kamp=4"],
        [('character = "builtin:budolf"\n', 'character = "builtin:budolf"\nstatus = 4\n'),
         ('character = "builtin:roeverbanden"\n', 'character = "builtin:roeverbanden"\nkamp = 4\n')],
        [],
        True,
        id="fimbulfrost",
    ),
    pytest.param(
        "pwge/duel",
        ["zorak.armour=0", "nova.skills.Svärdskonst=1"],
        [('id = "zorak"\ncharacter = "builtin:zorak"\n', 'id = "zorak"\ncharacter = "builtin:zorak"\narmour = 0\n'),
         ('id = "nova"\ncharacter = "builtin:kapten_nova"\n',
          'id = "nova"\ncharacter = "builtin:kapten_nova"\nskills = { "Svärdskonst" = 1, "Strålvapen" = 3, '
          '"Pilot" = 3, "Förhandla" = 3 }\n')],
        [],
        True,
        id="pwge",
    ),
    pytest.param(
        "levald/duel",
        ["setup.wield.hedda=Svärd"],
        [('hedda = "Spjut"', 'hedda = "Svärd"')],
        # small Gard for both (the same in the base): a solve of seconds, not a minute
        ["hedda.gard=4", "snurre.gard=4"],
        False,
        id="levald",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("name", "settings", "edits", "common", "exact"), DUELS)
def test_a_set_gives_the_answer_of_the_same_edit_by_hand(
    tmp_path: Path, name: str, settings: list[str], edits: list[tuple[str, str]], common: list[str], exact: bool
) -> None:
    with_set = load_scenario(name, settings=[*settings, *common])
    edited = load_scenario(hand_edited(tmp_path, name, edits), settings=common)
    assert with_set.document == edited.document  # the same scenario, characters inlined
    by_set, by_hand = answer(with_set, exact), answer(edited, exact)
    assert numbers(by_set) == numbers(by_hand)
    assert by_set.error_bound == by_hand.error_bound
    if exact:
        assert all(isinstance(p, type(by_hand.outcomes[0][1])) for _, p in by_set.outcomes)
    base = answer(load_scenario(name, settings=common), exact)
    assert numbers(base) != numbers(by_set)  # the what-if changed the answer


def test_the_pwge_edit_by_hand_is_the_character_s_skills_with_one_changed() -> None:
    """The hand edit above copies Kapten Nova's skills: a --set inside a table changes that key alone."""
    folder = bundled_examples().parent / "rulesets" / "pwge" / "content" / "characters"
    character = tomllib.loads((folder / "kapten_nova.toml").read_text(encoding="utf-8"))
    skills = dict(character["skills"], **{"Svärdskonst": 1})
    assert skills == {"Svärdskonst": 1, "Strålvapen": 3, "Pilot": 3, "Förhandla": 3}
    scenario = load_scenario("pwge/duel", settings=["nova.skills.Svärdskonst=1"])
    assert scenario.participant("nova").data.skills == skills


def test_paths_by_id_position_side_options_and_setup() -> None:
    scenario = load_scenario(
        "levald/duel",
        settings=[
            "hedda.kraft=20",
            "snurre.skills.stangvapen=70",  # case and accents as typed on any keyboard: the key the file holds
            "hedda.sjal=12",  # the field's other spelling: the file's själ, not a second key beside it
            "sides[0].participants[0].stridsvana=30",
            "sides.heddas.goal=hold",
            "heddas.name=Hedda's side",
            "options.max_rounds=30",
            "setup.wield.hedda=Svärd",
            "setup.cornered=['hedda']",
        ],
    )
    hedda, snurre = scenario.participant("hedda").data, scenario.participant("snurre").data
    assert (hedda.kraft, hedda.sjal, snurre.stridsvana) == (20, 12, 30)
    assert snurre.skills["Stångvapen"] == 70 and len(snurre.skills) == 3
    assert scenario.sides[1].goal == "hold" and scenario.sides[1].name == "Hedda's side"
    assert scenario.options["max_rounds"] == 30
    assert scenario.setup.wield["hedda"] == "Svärd" and scenario.setup.cornered == ["hedda"]
    part = scenario.document["sides"][1]["participants"][0]
    assert part["själ"] == 12 and "sjal" not in part


def test_values_are_toml_and_a_bare_word_is_a_string() -> None:
    assert parse_value("60") == 60 and parse_value("1.5") == 1.5 and parse_value("true") is True
    assert parse_value('"60"') == "60" and parse_value("Svärd") == "Svärd" and parse_value("") == ""
    assert parse_value('["a", "b"]') == ["a", "b"] and parse_value("{ a = 1 }") == {"a": 1}
    assert parse_value("2024-01-01") == "2024-01-01"  # a word here, not a date
    with pytest.raises(KonfliktError, match="need quotes"):
        parse_value("[a, b]")
    assert split_path('sides[0].participants.1."a.b"') == ("sides", "0", "participants", "1", "a.b")


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("hedda.wepon=Spjut", "no 'wepon' in hedda (a levald participant) (did you mean 'hedda.weapon'?)"),
        ("weapon=Spjut", "(did you mean 'hedda.weapon'?)"),
        ("options.max_round=3", "(did you mean 'options.max_rounds'?)"),
        ("setup.wiled.hedda=Svärd", "(did you mean 'setup.wield'?)"),
        ("hedas.kraft=3", "(did you mean 'heddas'?)"),
        ("sides.5.name=x", "sides is a list of 2 entries; no [5] in it"),
        ("hedda=3", "hedda is a whole participant"),
        ("seed.x=1", "a single value"),
        ("hedda.kraft", "not of the form PATH=VALUE"),
    ],
)
def test_a_path_that_names_nothing_is_refused_with_the_nearest(setting: str, expected: str) -> None:
    with pytest.raises(KonfliktError) as caught:
        load_scenario("levald/duel", settings=[setting])
    assert expected in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        (["hedda.kraft=x"], "--set hedda.kraft=x: sides[1].participants[0].kraft = 'x': input should be a valid"),
        (["hedda.kraft=14", "snurre.kraft=1000"], "--set snurre.kraft=1000: sides[0].participants[0].kraft = 1000"),
        (["setup.wield.hedda=Yxa"], "--set setup.wield.hedda=Yxa: setup: unknown weapon 'Yxa'"),
        (["options.max_rounds=-3"], "--set options.max_rounds=-3: options:"),
    ],
)
def test_a_value_the_model_refuses_names_the_set_and_its_value(settings: list[str], expected: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario("levald/duel", settings=settings)
    message = str(caught.value)
    assert message.startswith(str(bundled_examples() / "levald/duel.toml")) and expected in message, message


def test_the_command_line_refuses_in_one_line_with_exit_code_2(cli: Callable[..., Result]) -> None:
    for args in (
        ("odds", "presja/knife_fight", "--set", "belzee.skil=3"),
        ("run", "presja/knife_fight", "--set", "belzee.skill=x"),
        ("sim", "fimbulfrost/robbers", "-n", "10", "--set", "options.moral=round1"),
        ("solve", "fimbulfrost/robbers", "--set", "budolf.status=0"),
        ("scenario", "show", "levald/duel", "-s", "hedda.wepon=Svärd"),
        ("odds", "3d6", "--set", "a=1"),
    ):
        result = cli(*args)
        assert result.code == 2 and result.out == "", args
        assert result.err.count("\n") == 1 and "Traceback" not in result.err, result.err
        assert "--set" in result.err
    assert "did you mean 'belzee.skill'" in cli("odds", "presja/knife_fight", "--set", "belzee.skil=3").err


@pytest.mark.parametrize("name", bundled_names())
def test_dump_toml_writes_each_bundled_scenario_back_as_the_same_document(name: str) -> None:
    document = dict(load_scenario(name).document)
    assert tomllib.loads(dump_toml(document)) == document


def test_scenario_show_round_trips_to_the_same_odds(cli: Callable[..., Result], tmp_path: Path) -> None:
    settings = ["--set", "budolf.status=4", "--set", "options.morale=next_hit"]
    shown = cli("scenario", "show", "fimbulfrost/robbers", *settings)
    assert shown.code == 0, shown.err
    path = tmp_path / "shown.toml"
    path.write_text(shown.out, encoding="utf-8")
    again = load_scenario(path)
    assert again.document == load_scenario("fimbulfrost/robbers", settings=settings[1::2]).document
    direct = cli("odds", "fimbulfrost/robbers", *settings, "--json", "--exact")
    from_file = cli("odds", str(path), "--json", "--exact")
    assert direct.code == from_file.code == 0
    a, b = json.loads(direct.out), json.loads(from_file.out)
    assert a["outcomes"] == b["outcomes"] and a["distributions"] == b["distributions"]


def test_a_document_without_a_character_file_validates_the_same(tmp_path: Path) -> None:
    """What ``scenario show`` prints is what a saved conflict stores: valid without the character files."""
    scenario = load_scenario("pwge/duel", settings=["zorak.armour=0"])
    again = scenario_from_document(scenario.document, "copy")
    assert again.participant("zorak").data == scenario.participant("zorak").data


def test_a_campaign_s_character_is_not_changed_by_a_what_if() -> None:
    """``run --campaign`` writes what a conflict leaves back to the library: a ``--set`` on a character taken from
    it would go into the campaign, so it is refused (the scene and the other participants may still be set)."""
    from konflikt.cli.common import check_library_settings

    scenario = load_scenario("fimbulfrost/robbers")
    taken = {"budolf": "budolf"}
    for text in (
        "budolf.status=3",
        "Budolf.status=3",
        "sides.0.participants.0.status=3",
        "sides.helte.participants.budolf.status=3",
    ):
        with pytest.raises(KonfliktError, match="is budolf of the campaign"):
            check_library_settings(scenario, taken, [text])
    check_library_settings(scenario, taken, ["rudolf.status=3", "sides.0.participants.1.status=3", "seed=4"])
