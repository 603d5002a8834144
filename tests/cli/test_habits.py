"""Command-line habits: seats named in any case, "did you mean" for scenarios, seats, policies, options and
commands, a ruleset id alone listing its scenarios, and ``examples`` listing each scenario's seats."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

Cli = Callable[..., Result]


def refused(result: Result, *words: str) -> None:
    """Exit 2 with one line on stderr holding ``words``."""
    assert result.code == 2, (result.code, result.err)
    assert result.err.startswith("konflikt: error: ") and result.err.count("\n") == 1, result.err
    for word in words:
        assert word in result.err, result.err


def test_seat_ids_in_any_case(cli: Cli, tmp_path: Path) -> None:
    lower = cli("run", "presja/knife_fight", "--seed", "1", "-q", "--policy", "massimo=random")
    upper = cli("run", "presja/knife_fight", "--seed", "1", "-q", "--policy", "MASSIMO=Random")
    assert upper.code == 0 and upper.out == lower.out, upper.err
    assert cli("run", "pwge/duel", "--seed", "2", "-q", "-p", "Nova=heuristic", "-p", "GM=heuristic").code == 0
    db = str(tmp_path / "s.sqlite")
    played = cli("play", "fimbulfrost/robbers", "--seed", "3", "--db", db, "-q", "--policy", "Budolf=Random")
    assert played.code == 0, played.err
    exported = json.loads(cli("export", "1", "--db", db).out)
    assert exported["play"]["seats"]["budolf"] == "random"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("run", "presja/knife_figt"), ("did you mean 'presja/knife_fight'?", "konflikt examples")),
        (("run", "knife_fight"), ("did you mean 'presja/knife_fight'?",)),
        (("sim", "levald/dual", "-n", "10"), ("did you mean 'levald/duel'?",)),
        (("odds", "fimbulfrost/robers"), ("did you mean 'fimbulfrost/robbers'?",)),
        (("run", "presja/knife_fight", "-p", "belze=human"), ("no seat 'belze' (did you mean 'belzee'?)",)),
        (("run", "presja/knife_fight", "-p", "belzee=heuristc"), ("did you mean 'heuristic'?",)),
        (("run", "presja/knife_fight", "-o", "surprse=true"), ("did you mean 'surprise'?",)),
        (("run", "presja/knife_fight", "--sed", "1"), ("did you mean --seed?",)),
        (("rn", "presja/knife_fight"), ("Did you mean 'run'?",)),
    ],
)
def test_did_you_mean(cli: Cli, args: tuple[str, ...], words: tuple[str, ...]) -> None:
    refused(cli(*args), *words)


def test_play_names_the_nearest_scenario_before_any_save_is_made(cli: Cli, tmp_path: Path) -> None:
    refused(cli("play", "pwge/shotout", "--db", str(tmp_path / "s.sqlite")), "did you mean 'pwge/shootout'?")
    assert not (tmp_path / "s.sqlite").exists()


@pytest.mark.parametrize("command", ["run", "play", "sim", "solve"])
def test_a_ruleset_alone_lists_its_scenarios(cli: Cli, command: str, tmp_path: Path) -> None:
    extra = ("--db", str(tmp_path / "s.sqlite")) if command == "play" else ()
    result = cli(command, "presja", *extra)
    assert result.code == 0, result.err
    assert "presja/knife_fight" in result.out and "presja/skirmish" in result.out and "belzee" in result.out
    assert "levald" not in result.out
    assert not (tmp_path / "s.sqlite").exists()


def test_a_ruleset_alone_in_json_is_one_line(cli: Cli) -> None:
    refused(cli("run", "levald", "--json"), "levald/duel, levald/one_against_two")


def test_a_folder_of_a_rulesets_name_is_still_read_as_a_path(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "presja").mkdir()
    monkeypatch.chdir(tmp_path)
    refused(cli("run", "presja"), "a folder")


def test_examples_list_seats(cli: Cli) -> None:
    result = cli("examples")
    assert result.code == 0
    for seat in ("belzee", "massimo", "snurre", "hedda", "budolf", "roeverne", "nova", "zorak"):
        assert seat in result.out
    assert "heuristic" in result.out
    listed = {item["name"]: item for item in json.loads(cli("examples", "--json").out)}
    knife = listed["presja/knife_fight"]
    assert knife["title"] and knife["gm"] == "heuristic"
    assert [(s["id"], s["name"], s["policy"]) for s in knife["seats"]] == [
        ("belzee", "Belzee", "heuristic"),
        ("massimo", "Massimo", "heuristic"),
    ]
    assert {s["side"] for s in listed["pwge/shootout"]["seats"]} == {"besattning", "bordare"}
    only = json.loads(cli("examples", "levald", "--json").out)
    assert [item["name"] for item in only] == ["levald/duel", "levald/one_against_two"]
    refused(cli("examples", "levlad"), "levlad")
