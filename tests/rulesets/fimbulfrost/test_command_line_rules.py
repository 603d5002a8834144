"""Fimbulfrost's rules where a game master meets them: ``konflikt``'s own output for the example's numbers, and states
driven step by step (each test marked ``through_cli`` is played again at ``konflikt play --dice table``,
tests/through_cli.py). Every expected number comes from the text (002_4c207fadc00080de.txt), not from the program."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from konflikt.core.overrides import dump_toml
from konflikt.dice import SuccessPool
from konflikt.rulesets.fimbulfrost.models import load_catalogue
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from tests.conftest import Result
from tests.rulesets.fimbulfrost.helpers import act, doc, hero, present_each_other, roll, start

HERO_POOLS = ("omdomme", "status", "rustning")
OPPONENT_POOLS = ("omdomme", "kamp", "status")


def _shown(cli: Callable[..., Result], scenario: str) -> dict[str, dict[str, Any]]:
    """The participants of ``konflikt scenario show SCENARIO`` (every character inlined), by id."""
    shown = cli("scenario", "show", scenario)
    assert shown.code == 0, shown.err
    document = tomllib.loads(shown.out)
    return {p["id"]: p for side in document["sides"] for p in side["participants"]}


def _numbers(participant: dict[str, Any], pools: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(participant[pool] for pool in pools)


# ---- Designet -------------------------------------------------------------------------------------------------------
def test_heltene_besidder_omdomme_status_og_ressourcer_modstanderne_status_kamp_og_omdomme(
    cli: Callable[..., Result],
) -> None:
    """ "Heltene besidder Omdømme-puljer, Status-puljer og diverse Ressource-puljer. Modstanderne besidder Status,
    Kamp og Omdømme": the example as ``konflikt scenario show`` reads it gives the heroes Omdømme, Status and a
    Rustning pool and no Kamp, the band Omdømme, Kamp and Status and no resource pool; ``konflikt run`` refuses a
    hero given Kamp and an opponent given Rustning, each with one line naming the pool."""
    shown = _shown(cli, "fimbulfrost/robbers")
    for pid in ("budolf", "rudolf"):
        assert all(isinstance(shown[pid][pool], int) for pool in HERO_POOLS) and "kamp" not in shown[pid], pid
    band = shown["roeverne"]
    assert all(isinstance(band[pool], int) for pool in OPPONENT_POOLS) and "rustning" not in band
    for wrong, said in (("budolf.kamp=3", "a hero has no Kamp pool"), ("roeverne.rustning=2", "no resource pools")):
        refused = cli("run", "fimbulfrost/robbers", "--set", wrong)
        assert refused.code == 2 and said in refused.err and len(refused.err.strip().splitlines()) == 1, refused.err


# ---- Eksempel -------------------------------------------------------------------------------------------------------
def test_budolf_rudolf_og_roverbanden_have_the_texts_numbers_at_the_command_line(cli: Callable[..., Result]) -> None:
    """ "Budolf har Omdømme 4, Status 6 og Rustning 5, mens Rudolf har Omdømme 3, Status 4 og Rustning 6.
    Røverbanden har Omdømme 2, Kamp 3 og Status 6 (mens en drage vil f.eks. have omdømme 12, kamp 12 og status 12)":
    the bundled example and the dragon's scenario as ``konflikt scenario show`` prints them, and the opening of
    ``konflikt run fimbulfrost/robbers``."""
    robbers = _shown(cli, "fimbulfrost/robbers")
    assert _numbers(robbers["budolf"], HERO_POOLS) == (4, 6, 5)
    assert _numbers(robbers["rudolf"], HERO_POOLS) == (3, 4, 6)
    assert _numbers(robbers["roeverne"], OPPONENT_POOLS) == (2, 3, 6)
    dragon = _shown(cli, "fimbulfrost/dragon")
    assert _numbers(dragon["dragen"], OPPONENT_POOLS) == (12, 12, 12)
    run = cli("run", "fimbulfrost/robbers", "--seed", "1")
    assert run.code == 0, run.err
    assert "Røverbanden (Omdømme 2, Kamp 3, Status 6)" in " ".join(run.out.split())


def test_en_bande_roevere_is_one_opponent_and_a_second_is_refused(cli: Callable[..., Result], tmp_path: Path) -> None:
    """ "Eventyrerne Budolf og Rudolf møder en bande røvere. … Røverbanden har Omdømme 2, Kamp 3 og Status 6": the
    band is one opponent with one set of pools in the bundled example; a scenario file with the band and the dragon
    on the other side is refused by ``konflikt run`` (fight them as two conflicts)."""
    robbers = _shown(cli, "fimbulfrost/robbers")
    opponents = [p for p in robbers.values() if "kamp" in p]
    assert [p["name"] for p in opponents] == ["Røverbanden"]
    two = doc()
    two["sides"][1]["participants"].append(hero("dragen", character="builtin:drage"))
    path = tmp_path / "two.toml"
    path.write_text(dump_toml(two), encoding="utf-8")
    refused = cli("run", str(path))
    assert refused.code == 2 and "exactly one opponent" in refused.err, refused.err


@pytest.mark.through_cli
@pytest.mark.parametrize("split", [{"budolf": 2}, {"rudolf": 2}, {"budolf": 1, "rudolf": 1}])
def test_bandens_omdomme_er_solle_hojest_to_succeser_skraemmer_ingen_fra_kamp(split: dict[str, int]) -> None:
    """ "men da bandens omdømme er sølle, kan de højest få to succeser, så de kan ikke skræmme hverken Budolf eller
    Rudolf fra kamp": after the example's presentations and no success for the heroes, the band rolls its Omdømme
    2 as 2d6; its best, two successes, taken off Budolf (Status 6), Rudolf (Status 4) or one each, leaves both
    standing, and the fight goes on to round 2."""
    state = start()
    present_each_other(state)
    roll(state, 0)
    roll(state, 0)
    assert state.pending_roll() == SuccessPool(2)
    assert max(r.successes for r in SuccessPool(2).distribution()) == 2
    roll(state, 2)
    act(state, "hit", **split)
    heroes = state.view("@gm")["heroes"]
    assert {pid: heroes[pid]["status"] for pid in ("budolf", "rudolf")} == {
        "budolf": 6 - split.get("budolf", 0),
        "rudolf": 4 - split.get("rudolf", 0),
    }
    assert [heroes[pid]["fate"] for pid in ("budolf", "rudolf")] == ["standing", "standing"]
    assert state.round == 2


# ---- Konsekvenser ---------------------------------------------------------------------------------------------------
def _out_in_round1(opponent: str, omdomme: int) -> FimbulfrostState:
    """Budolf (Status 1) and Rudolf against ``opponent``: no success for the heroes, the opponent's full Omdømme of
    successes all on Budolf, who is out and asked for his consequences."""
    state = start(
        heroes=[hero("budolf", character="builtin:budolf", status=1), hero("rudolf", character="builtin:rudolf")],
        opponent=hero("fjenden", character=f"builtin:{opponent}"),
    )
    present_each_other(state)
    roll(state, 0)
    roll(state, 0)
    assert state.pending_roll() == SuccessPool(omdomme)
    roll(state, omdomme)
    act(state, "hit", budolf=omdomme)
    assert state.view("@gm")["heroes"]["budolf"]["fate"] == "out"
    return state


def _menu(state: FimbulfrostState) -> list[str]:
    return [str(action["entry"]) for action in state.legal_actions("budolf")]


@pytest.mark.through_cli
def test_mod_banditter_den_almindelige_konsekvensliste_mod_en_drage_dens_egen() -> None:
    """ "I kamp med en flok banditter bruges den almindelige konsekvensliste, men mod en drage, bliver konsekvenserne
    så langt farligere": Budolf driven out in round 1 by the robbers (Omdømme 2) chooses from the ordinary list of
    round 1; driven out by the dragon (Omdømme 12, "en drage vil f.eks. have omdømme 12") he chooses from the
    dragon's list only, and buys his consequence from it."""
    catalogue = load_catalogue()
    ordinary = {entry.id for entry in catalogue.lists["runde1"].entries}
    dragons = {entry.id for entry in catalogue.lists["drage"].entries}
    bandits = _out_in_round1("roeverbanden", 2)
    assert set(_menu(bandits)) <= ordinary and not set(_menu(bandits)) & (dragons - ordinary)
    dragon = _out_in_round1("drage", 12)
    menu = _menu(dragon)
    assert set(menu) <= dragons and not set(menu) & (ordinary - dragons)
    assert "doed" in menu  # "Det inkluderer blandt “død”"
    act(dragon, "consequence", entry=menu[0])
    assert dragon.view("@gm")["heroes"]["budolf"]["consequences"] == [menu[0]]


@pytest.mark.through_cli
@pytest.mark.parametrize(("monster", "omdomme"), [("drage", 12), ("heks", 6), ("genganger", 5)])
def test_unikke_monstres_saerlige_konsekvensliste_drage_heks_og_genganger(monster: str, omdomme: int) -> None:
    """ "Unikke Monstres særlige konsekvensliste (at tabe til en drage, en heks eller en genganger kan have unikke
    konsekvenser": a hero who loses to the dragon, the witch or the revenant chooses from that monster's own list,
    never from the ordinary list of the round (death, on every list, aside)."""
    catalogue = load_catalogue()
    own = {entry.id for entry in catalogue.lists[monster].entries}
    ordinary = {entry.id for entry in catalogue.lists["runde1"].entries}
    state = _out_in_round1(monster, omdomme)
    menu = _menu(state)
    assert menu and set(menu) <= own and set(menu) & ordinary <= {"doed"}
    act(state, "consequence", entry=menu[0])
    assert state.view("@gm")["heroes"]["budolf"]["consequences"] == [menu[0]]
    assert re.search(r"Budolf takes konsekvens", state.history()[-1].text)
