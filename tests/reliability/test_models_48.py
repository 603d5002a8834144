"""The rulesets' models refuse nonsense (issue 48, 9), each case in one line naming the file, the field and the
value: booleans where a number belongs, consequences the lists do not hold or hold twice, borrowed time and wound
boxes beyond reason, names that are not one line of text, and a ``--set`` holding a second line.

Each of these was accepted before: ``omdomme = true`` was Omdømme 1, ``konsekvenser = ["nonexistent"]`` was stored
and then every ``run --campaign`` refused the character, 2,000 copies of one consequence and ``laant_tid = 10**12``
were stored, and ``--set $'omdomme=3\\nstatus=60'`` set Omdømme and silently dropped Status.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import ValidationError

from konflikt.core.scenario import bundled_examples
from konflikt.rulesets.fimbulfrost.models import Character as Hero
from konflikt.rulesets.levald.models import Character as Fighter
from konflikt.rulesets.presja.models import Character as PresjaCharacter
from konflikt.rulesets.pwge.models import Character as PwgeCharacter
from tests.conftest import Result, refused_in_one_line

BUDOLF = {"name": "Budolf", "omdomme": 4, "status": 6}
SNURRE = {"name": "Snurre", "kraft": 12, "själ": 16, "stridsvana": 45, "weapon": "Svärd", "gard": 12}
SNURRE_SKILLS = {"Enhandsvapen": 55}
ZORAK = {"name": "Zorak", "attributes": {"Styrka": 4, "Karisma": 3}}


@pytest.fixture
def db(cli: Callable[..., Result], tmp_path: Path) -> str:
    path = str(tmp_path / "k.sqlite")
    assert cli("chars", "add", "builtin:budolf", "--ruleset", "fimbulfrost", "--db", path).code == 0
    return path


@pytest.mark.parametrize(
    ("model", "document", "field"),
    [
        (Hero, {**BUDOLF, "omdomme": True}, "omdomme"),
        (Hero, {**BUDOLF, "laant_tid": False}, "laant_tid"),
        (PwgeCharacter, {**ZORAK, "attributes": {"Styrka": 4, "Karisma": True}}, "attributes.Karisma"),
        (PwgeCharacter, {**ZORAK, "armour": True}, "armour"),
        (Fighter, {**SNURRE, "skills": {"Enhandsvapen": True}}, "skills.Enhandsvapen"),
        (Fighter, {**SNURRE, "skills": SNURRE_SKILLS, "kraft": True}, "kraft"),
        (PresjaCharacter, {"name": "Belzee", "skill": True}, "skill"),
        (PresjaCharacter, {"name": "Belzee", "fate_points": True}, "fate_points"),
    ],
)
def test_a_boolean_is_not_a_number_in_any_model(model: type, document: dict[str, object], field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(document)
    error = caught.value.errors()[0]
    assert ".".join(str(p) for p in error["loc"]) == field
    assert "a number is wanted, not true or false" in error["msg"]


def test_karisma_true_in_a_scenario_file_is_one_line_naming_file_field_and_value(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    text = (bundled_examples() / "pwge" / "negotiation.toml").read_text()
    scenario = tmp_path / "negotiation.toml"
    scenario.write_text(
        text.replace('character = "builtin:kapten_nova"', 'character = "builtin:kapten_nova"\nbody_points = true')
    )
    line = refused_in_one_line(cli("run", str(scenario), "--seed", "1", "-q"), "negotiation.toml", "body_points = true")
    assert "a number is wanted" in line
    line = refused_in_one_line(
        cli("run", "pwge/negotiation", "--set", "nova.attributes.Karisma=true", "-q"), "Karisma", "true"
    )
    assert "a number is wanted" in line


def test_omdomme_true_in_a_character_file_is_refused(cli: Callable[..., Result], tmp_path: Path, db: str) -> None:
    character = tmp_path / "sigrun.toml"
    character.write_text('ruleset = "fimbulfrost"\nname = "Sigrun"\nomdomme = true\nstatus = 6\n')
    refused_in_one_line(
        cli("chars", "add", str(character), "--db", db), "sigrun.toml", "omdomme = true", "a number is wanted"
    )


def test_carried_consequences_must_be_on_the_lists_and_held_once(cli: Callable[..., Result], db: str) -> None:
    line = refused_in_one_line(
        cli("chars", "edit", "budolf", "--set", 'konsekvenser=["nonexistent"]', "--db", db),
        "budolf --set",
        "konsekvenser",
        "unknown consequence 'nonexistent'",
    )
    assert "skramme" in line and "grej-tabt" in line, "the valid names are listed"
    many = "[" + ", ".join(['"skramme"'] * 2000) + "]"
    refused_in_one_line(cli("chars", "edit", "budolf", "--set", f"konsekvenser={many}", "--db", db), "konsekvenser")
    twice = cli("chars", "edit", "budolf", "--set", 'konsekvenser=["skramme", "grej-tabt", "skramme"]', "--db", db)
    refused_in_one_line(twice, "konsekvenser", "'skramme' is carried twice")
    assert cli("chars", "edit", "budolf", "--set", 'konsekvenser=["skramme", "grej-tabt"]', "--db", db).code == 0
    played = cli("run", "fimbulfrost/robbers", "--campaign", "default", "--db", db, "-q", "--seed", "2")
    assert played.code == 0, played.err  # what the library holds, a conflict takes


def test_a_scenario_carrying_an_unknown_or_doubled_consequence_is_refused(cli: Callable[..., Result]) -> None:
    refused_in_one_line(
        cli("run", "fimbulfrost/robbers", "--set", 'budolf.konsekvenser=["nonexistent"]', "-q"),
        "unknown carried consequence 'nonexistent'",
    )
    refused_in_one_line(
        cli("run", "fimbulfrost/robbers", "--set", 'budolf.konsekvenser=["skramme", "skramme"]', "-q"),
        "konsekvenser",
        "carried twice",
    )


@pytest.mark.parametrize(
    ("setting", "words"),
    [
        ("laant_tid=1000000000000", ("laant_tid = 1000000000000", "less than or equal to 1000")),
        ("laant_tid=1000", ()),
    ],
)
def test_borrowed_time_is_bounded_with_a_reason(
    cli: Callable[..., Result], db: str, setting: str, words: tuple[str, ...]
) -> None:
    result = cli("chars", "edit", "budolf", "--set", setting, "--db", db)
    if words:
        refused_in_one_line(result, *words)
    else:
        assert result.code == 0, result.err


def test_le_vald_wounds_and_daze_are_bounded() -> None:
    for document in (
        {**SNURRE, "skills": SNURRE_SKILLS, "daze": 10**9},
        {**SNURRE, "skills": SNURRE_SKILLS, "wounds": {"skråma": 10**9}},
        {**SNURRE, "skills": SNURRE_SKILLS, "gard_now": 10**9},
    ):
        with pytest.raises(ValidationError, match="less than or equal to"):
            Fighter.model_validate(document)


def test_a_second_line_in_set_is_refused_not_dropped(cli: Callable[..., Result]) -> None:
    for command in (("run", "fimbulfrost/robbers", "-q"), ("scenario", "show", "fimbulfrost/robbers")):
        line = refused_in_one_line(
            cli(*command, "--set", "budolf.omdomme=3\nbudolf.status=60"), "one PATH=VALUE on one line"
        )
        assert "status=60" in line
        refused_in_one_line(cli(*command, "--set", "budolf.omdomme=3\x00"), "without line breaks or NUL")


def test_names_are_stripped_and_one_line_in_every_model() -> None:
    assert Hero.model_validate({**BUDOLF, "name": "  Budolf\n"}).name == "Budolf"
    for model, document in (
        (Hero, BUDOLF),
        (Fighter, {**SNURRE, "skills": SNURRE_SKILLS}),
        (PresjaCharacter, {"name": "Belzee"}),
        (PwgeCharacter, ZORAK),
    ):
        for name in ("Bu\ndolf", "Bu\x00dolf", "Bu\x1b[2Jdolf", "", " \t "):
            with pytest.raises(ValidationError, match="name"):
                model.model_validate({**document, "name": name})
