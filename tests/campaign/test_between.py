"""Each ruleset's rules between conflicts, from its text: what a campaign keeps, gives back and lets time change."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from konflikt.core.campaign import Rest
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import get_ruleset
from konflikt.rulesets.fimbulfrost.campaign import DEATH_MARK_DAYS
from konflikt.rulesets.pwge.state import PwgeState
from konflikt.store import library
from konflikt.store.db import Store
from tests.campaign.helpers import character_file, documents, pending
from tests.conftest import Result

FIMBULFROST = get_ruleset("fimbulfrost").campaign
LEVALD = get_ruleset("levald").campaign
PRESJA = get_ruleset("presja").campaign
assert FIMBULFROST is not None and LEVALD is not None and PRESJA is not None


def defaults(ruleset: str) -> Mapping[str, Any]:
    """The ruleset's rule options as a rest with no ``--option`` gets them."""
    return get_ruleset(ruleset).options.resolve()


BUDOLF = {"name": "Budolf", "role": "hero", "omdomme": 4, "status": 6, "rustning": 5}


# ---- fimbulfrost -----------------------------------------------------------------------------------------------------
def test_rygtet_er_plettet_costs_one_omdomme_for_the_next_fight_only() -> None:
    """ "Rygtet er plettet (−1 Omdømme til næste kamp)": 4 → 3 for the next fight, 4 again after it (the aftermath's
    document carries the −1 for one fight; the next fight's aftermath drops it)."""
    after_first = {**BUDOLF, "omdomme_til_naeste_kamp": -1, "konsekvenser": ["rygte-plettet"]}  # the aftermath's
    first = FIMBULFROST.settle(BUDOLF, (), after_first)
    assert first.document["omdomme"] == 4 and first.document["omdomme_til_naeste_kamp"] == -1
    assert first.pending == ()
    after_second = {k: v for k, v in first.document.items() if k != "omdomme_til_naeste_kamp"}  # nothing new
    second = FIMBULFROST.settle(first.document, first.pending, after_second)
    assert second.document["omdomme"] == 4 and second.pending == ()
    assert second.document["konsekvenser"] == ["rygte-plettet"], "the consequence itself stays on the sheet"
    assert any("til næste kamp" in line for line in second.lines)


def test_a_death_mark_kills_seven_days_later() -> None:
    """ "dødsmærket, så han svinder hen og dør en uges tid senere"."""
    after = {**BUDOLF, "konsekvenser": ["genganger-doedsmaerket"]}
    marked = FIMBULFROST.settle(BUDOLF, (), after)
    assert DEATH_MARK_DAYS == 7
    assert [(p["effect"], p["days"]) for p in marked.pending] == [("death-mark", 7)]
    assert FIMBULFROST.fallen(marked.document) is None
    six = FIMBULFROST.rest(marked.document, marked.pending, Rest(6, "days"), defaults("fimbulfrost"))
    assert FIMBULFROST.fallen(six.document) is None and six.pending[0]["days"] == 1
    hours = FIMBULFROST.rest(six.document, six.pending, Rest(23, "hours"), defaults("fimbulfrost"))
    assert FIMBULFROST.fallen(hours.document) is None, "23 hours are not a day"
    seventh = FIMBULFROST.rest(six.document, six.pending, Rest(1, "days"), defaults("fimbulfrost"))
    assert FIMBULFROST.fallen(seventh.document) == "død (dead): Død"
    assert seventh.pending == () and "doed" in seventh.document["konsekvenser"]


def test_spent_pools_come_back_after_a_days_rest_and_emptied_ones_do_not() -> None:
    """Pool dice spent in runde 3 are gone after the fight; a day's rest brings them back (konflikt's own); a
    pool a consequence emptied ("Rustningen er flænset (Rustningspulje 0)") stays empty."""
    hero = {**BUDOLF, "grej": 3}
    spent = FIMBULFROST.settle(hero, (), {**BUDOLF, "rustning": 2, "grej": 3})
    assert spent.document["rustning"] == 2
    rested = FIMBULFROST.rest(spent.document, spent.pending, Rest(1, "days"), defaults("fimbulfrost"))
    assert rested.document["rustning"] == 5 and rested.pending == ()
    torn = FIMBULFROST.settle(hero, (), {**BUDOLF, "rustning": 0, "grej": 3, "konsekvenser": ["rustning-flaeret"]})
    assert torn.pending == ()
    assert (
        FIMBULFROST.rest(torn.document, torn.pending, Rest(30, "days"), defaults("fimbulfrost")).document["rustning"]
        == 0
    )


def test_borrowed_time_stays_owed() -> None:
    """ "Spilleder kan sætte en dødsscene for helten senere": the count stays until the GM clears it."""
    owed = FIMBULFROST.settle(BUDOLF, (), {**BUDOLF, "laant_tid": 1})
    assert (
        FIMBULFROST.rest(owed.document, owed.pending, Rest(100, "days"), defaults("fimbulfrost")).document["laant_tid"]
        == 1
    )
    assert any("dødsscene" in line for line in FIMBULFROST.sheet(owed.document, owed.pending))


def test_a_dead_hero_is_refused_by_the_next_scenario(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    cli("chars", "add", str(character_file("fimbulfrost", "budolf")), "--ruleset", "fimbulfrost", "--db", str(db))
    cli("chars", "edit", "budolf", "--set", "konsekvenser=['doed']", "--db", str(db))
    refused = cli("run", "fimbulfrost/robbers", "--campaign", "default", "--db", str(db))
    assert refused.code == 2 and "budolf of campaign 'default' fights no more: død (dead)" in refused.err


def test_campaign_rest_runs_a_death_mark_out(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    cli("chars", "add", str(character_file("fimbulfrost", "budolf")), "--ruleset", "fimbulfrost", "--db", str(db))
    store = Store.open(db)
    try:
        with store.transaction() as tx:
            budolf = library.get(tx, "default", "budolf")
            marked = FIMBULFROST.settle(
                budolf.document, budolf.pending, {**budolf.document, "konsekvenser": ["genganger-doedsmaerket"]}
            )
            library.update(tx, budolf, marked, library.EDITED, "a fight with the revenant")
    finally:
        store.close()
    first = cli("campaign", "rest", "--days", "3", "--db", str(db))
    assert "4 days left to live" in " ".join(first.out.split())
    assert pending(db, "budolf")[0]["days"] == 4
    second = cli("campaign", "rest", "--days", "4", "--db", str(db), "--json")
    assert json.loads(second.out)["changes"]["budolf"][0].startswith("død (dies)")
    assert "doed" in documents(db)["budolf"]["konsekvenser"]
    assert json.loads(cli("campaign", "rest", "--days", "1", "--db", str(db), "--json").out)["rest"] == "1 day"
    assert cli("campaign", "rest", "--days", "2", "--hours", "1", "--db", str(db)).code == 2
    assert cli("campaign", "rest", "--days", "0", "--db", str(db)).code == 2
    assert cli("campaign", "rest", "--days", "1", "--campaign", "nowhere", "--db", str(db)).code == 2


# ---- levald ----------------------------------------------------------------------------------------------------------
SNURRE = {"name": "Snurre", "kraft": 12, "själ": 16, "stridsvana": 45, "skills": {"Enhandsvapen": 55},
          "weapon": "Svärd", "gard": 12, "daze": 20, "wounds": {"lätt": 1, "allvarlig": 2}}  # fmt: skip


def test_omtockning_recovers_one_a_round_down_to_one_per_wound() -> None:
    """ "Omtöckning återvinns … med ett poäng per runda då man vilar … förmodligen en poäng per skada"."""
    assert LEVALD.rest(SNURRE, (), Rest(5, "rounds"), defaults("levald")).document["daze"] == 15
    assert LEVALD.rest(SNURRE, (), Rest(100, "rounds"), defaults("levald")).document["daze"] == 3, "floor: three wounds"
    assert LEVALD.rest(SNURRE, (), Rest(1, "minutes"), defaults("levald")).document["daze"] == 10, (
        "ten rounds a minute (gap)"
    )


def test_rest_floor_per_wound_off_lets_omtockning_fall_to_nothing(cli: Callable[..., Result], tmp_path: Path) -> None:
    """``rest_floor_per_wound`` (the text's "förmodligen en poäng per skada" on by default) reaches the campaign's
    rest: ``campaign rest --option rest_floor_per_wound=false`` lets Omtöckning fall below one point per wound; an
    option no ruleset of the campaign has, or a wrong value, is one line, exit 2, and changes nothing."""
    off = get_ruleset("levald").options.resolve({"rest_floor_per_wound": "false"})
    assert LEVALD.rest(SNURRE, (), Rest(100, "rounds"), off).document["daze"] == 0
    assert LEVALD.rest(SNURRE, (), Rest(100, "rounds"), defaults("levald")).document["daze"] == 3
    db = tmp_path / "c.sqlite"
    cli("chars", "add", str(character_file("levald", "snurre")), "--ruleset", "levald", "--db", str(db))
    cli("chars", "edit", "snurre", "--set", "daze=20", "--set", "wounds.lätt=2", "--db", str(db))
    kept = cli("campaign", "rest", "--rounds", "100", "--db", str(db))
    assert kept.code == 0 and documents(db)["snurre"]["daze"] == 2, kept.out + kept.err
    for bad, said in (("no_such_option=1", "unknown rule option 'no_such_option'"), ("rest_floor_per_wound=maybe", "")):
        refused = cli("campaign", "rest", "--rounds", "1", "--option", bad, "--db", str(db))
        assert refused.code == 2 and said in refused.err and len(refused.err.strip().splitlines()) == 1, refused.err
        assert documents(db)["snurre"]["daze"] == 2
    fell = cli("campaign", "rest", "--rounds", "100", "--option", "rest_floor_per_wound=false", "--db", str(db))
    assert fell.code == 0 and documents(db)["snurre"]["daze"] == 0, fell.out + fell.err


def test_wounds_stay_whatever_the_rest() -> None:
    """ "läkningstid … det tar jag sen": healing time is not given, so no rest heals a wound box."""
    rested = LEVALD.rest(SNURRE, (), Rest(365, "days"), defaults("levald"))
    assert rested.document["wounds"] == {"lätt": 1, "allvarlig": 2}
    assert any("läkningstid" in line for line in rested.lines)


# ---- presja ----------------------------------------------------------------------------------------------------------
def test_moderate_and_severe_consequences_wait_for_healing() -> None:
    """Rest clears marked boxes and mild ones; "Pozostają tylko umiarkowane i poważne konsekwencje"."""
    lis = {"name": "Lis", "consequences": {"moderate": "Skręcenie kostki", "severe": "Złamana ręka"}}
    rested = PRESJA.rest(lis, (), Rest(30, "days"), defaults("presja"))
    assert rested.document == lis
    assert "Skręcenie kostki" in rested.lines[0] and "leczenie" in rested.lines[0]


def test_presja_through_the_library(cli: Callable[..., Result], tmp_path: Path) -> None:
    """Belzee and Massimo fight: the library keeps what the fight left (marked boxes, mild consequences too: the end
    of a fight is not rest); ``campaign rest --minutes`` clears the boxes at 5 minutes and the mild ones at 10."""
    db = tmp_path / "c.sqlite"
    for name in ("belzee", "massimo"):
        added = cli("chars", "add", str(character_file("presja", name)), "--ruleset", "presja", "--db", str(db))
        assert added.code == 0
    payload = json.loads(cli("run", "presja/knife_fight", "--seed", "1", "--campaign", "default", "--db", str(db),
                             "--json").out)  # fmt: skip
    docs = documents(db)
    for pid in ("belzee", "massimo"):
        kept = payload["aftermath"]["characters"][pid]
        assert docs[pid].get("consequences", {}) == kept.get("consequences", {})
        assert docs[pid].get("marked_boxes", []) == kept.get("marked_boxes", [])
        assert docs[pid].get("fate_points", 3) == kept.get("fate_points", 3)
    assert docs["massimo"]["marked_boxes"], "seed 1: Massimo's track is marked at the end"
    two = json.loads(cli("campaign", "rest", "--minutes", "2", "--db", str(db), "--json").out)
    assert documents(db) == docs and pending(db, "massimo") == [{"effect": "rest", "minutes": 2}]
    assert "2 minutes of rest so far" in two["changes"]["massimo"][0]
    cli("campaign", "rest", "--minutes", "3", "--db", str(db))
    rested = documents(db)
    assert "marked_boxes" not in rested["massimo"] and pending(db, "massimo") == []
    assert rested["belzee"]["consequences"].get("moderate") == docs["belzee"]["consequences"].get("moderate")
    healed = cli("chars", "edit", "belzee", "--set", "consequences.moderate=", "--set", "consequences.severe=",
                 "--db", str(db))  # fmt: skip
    assert healed.code == 0, healed.err
    assert not documents(db)["belzee"].get("consequences", {}).get("moderate")


# ---- pwge ------------------------------------------------------------------------------------------------------------
def test_the_ball_sets_the_distance_of_the_next_meeting(cli: Callable[..., Result], tmp_path: Path) -> None:
    """ball.toml: "whatever it ends at is kept for their next meeting" — "Sociala och diplomatiska avstånd kvarstår
    mellan varje konflikt". Seed 3 with both seats random ends the evening at 8 (it starts at 7)."""
    db = tmp_path / "c.sqlite"
    for name, file in (("quill", "doktor_quill"), ("lyra", "ambassador_lyra")):
        assert cli("chars", "add", str(character_file("pwge", file)), "--ruleset", "pwge", "--name", name,
                   "--db", str(db)).code == 0  # fmt: skip
    random = ("-p", "quill=random", "-p", "lyra=random")
    first = json.loads(cli("run", "pwge/ball", "--seed", "3", "--campaign", "default", "--db", str(db), "--json",
                           *random).out)  # fmt: skip
    assert first["aftermath"]["characters"]["quill"]["social_distance"] == {"Ambassadör Lyra": 8}
    docs = documents(db)
    assert docs["quill"]["social_distance"] == {"Ambassadör Lyra": 8}
    assert docs["lyra"]["social_distance"] == {"Doktor Quill": 8}
    second = cli("run", "pwge/ball", "--seed", "1", "--campaign", "default", "--db", str(db), "--json")
    assert second.code == 0
    store = Store.open(db, readonly=True)
    try:
        conflict = store.load(2).conflict
    finally:
        store.close()
    opening = new_state(conflict.scenario, conflict.overrides)
    assert isinstance(opening, PwgeState)
    assert list(opening.dist.values()) == [8], "the second meeting starts where the first ended"
    texts = [event["text"] for event in json.loads(second.out)["events"]]
    assert "avstånd (distance) Doktor Quill–Ambassadör Lyra: 8 of 0–10" in texts
