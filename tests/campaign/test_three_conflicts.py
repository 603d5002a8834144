"""Three conflicts in one campaign per ruleset, with rest between: each conflict starts with the library's
characters, and each carried value follows the text's rule between conflicts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from konflikt.core.conflict import Conflict
from konflikt.store.db import Store
from tests.campaign.helpers import character_file, documents
from tests.conftest import Result

Doc = dict[str, Any]


def saved(db: Path, conflict_id: int) -> Conflict:
    store = Store.open(db, readonly=True)
    try:
        return store.load(conflict_id).conflict
    finally:
        store.close()


def started_with_the_library(db: Path, conflict_id: int, library: dict[str, Doc]) -> None:
    """The conflict's participants are the library's characters as they stood (every field of the library's)."""
    members = {p["id"]: p for side in saved(db, conflict_id).scenario.document["sides"] for p in side["participants"]}
    for name, document in library.items():
        assert {k: members[name].get(k) for k in document} == document, (conflict_id, name)


def play(cli: Callable[..., Result], db: Path, scenario: str, seed: int, *extra: str) -> Doc:
    result = cli("run", scenario, "--seed", str(seed), "--campaign", "default", "--db", str(db), "--json", *extra)
    assert result.code == 0, result.err
    payload: Doc = json.loads(result.out)
    return payload


def add(cli: Callable[..., Result], db: Path, ruleset: str, names: dict[str, str]) -> None:
    for key, file in names.items():
        path = str(character_file(ruleset, file))
        assert cli("chars", "add", path, "--ruleset", ruleset, "--name", key, "--db", str(db)).code == 0


def test_fimbulfrost_robbers_rest_dragon_rest_robbers(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    add(cli, db, "fimbulfrost", {"budolf": "budolf", "rudolf": "rudolf"})
    full = {"budolf": {"rustning": 5, "grej": 0}, "rudolf": {"rustning": 6, "grej": 0}}
    for number, (scenario, seed) in enumerate((("robbers", 9), ("dragon", 5), ("robbers", 1)), start=1):
        before = documents(db)
        payload = play(cli, db, f"fimbulfrost/{scenario}", seed)
        started_with_the_library(db, number, before)
        after = documents(db)
        for hero in ("budolf", "rudolf"):
            kept = payload["aftermath"]["characters"][hero]
            # consequences bought stay on the sheet, after the ones carried in
            carried = before[hero].get("konsekvenser", [])
            assert after[hero]["konsekvenser"][: len(carried)] == carried
            assert after[hero]["konsekvenser"] == kept["konsekvenser"]
            # pools: as the fight left them (spent in runde 3, or emptied by a consequence)
            for pool in ("rustning", "grej"):
                assert after[hero].get(pool, 0) == kept.get(pool, 0) <= before[hero].get(pool, 0)
            assert after[hero]["omdomme"] == kept["omdomme"], "no −1 Omdømme was bought in these three"
        cli("campaign", "rest", "--days", "1", "--db", str(db))
        rested = documents(db)
        for hero in ("budolf", "rudolf"):
            emptied = (
                {"rustning"}
                if {"rustning-flaeret", "drage-smeltet-rustning"} & set(after[hero]["konsekvenser"])
                else set()
            )
            for pool in ("rustning", "grej"):
                expected = 0 if pool in emptied else full[hero][pool]
                assert rested[hero].get(pool, 0) == expected, (number, hero, pool)
    # the walk-through's numbers: Rudolf's scratches and gear lost (he has none: still on the list) from the robbers,
    # Budolf's melted armour from the dragon
    final = documents(db)
    assert final["rudolf"]["konsekvenser"][:2] == ["skramme", "grej-tabt"]
    assert "drage-smeltet-rustning" in final["budolf"]["konsekvenser"]


def wound_list(document: Doc) -> list[int]:
    wounds = document.get("wounds", {})
    return [int(wounds.get(key, 0)) for key in ("skråma", "lätt", "allvarlig", "kritisk", "dödlig")]


def test_levald_three_duels_with_rest(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    add(cli, db, "levald", {"hedda": "hedda", "snurre": "snurre"})
    for number, seed in enumerate((1, 2, 3), start=1):
        before = documents(db)
        payload = play(cli, db, "levald/duel", seed)
        started_with_the_library(db, number, before)
        after = documents(db)
        for fighter in ("hedda", "snurre"):
            kept = payload["aftermath"]["characters"][fighter]
            # "Då kryssar man i den rutan", and no healing time: every box ticked before is still ticked
            assert all(a >= b for a, b in zip(wound_list(after[fighter]), wound_list(before[fighter]), strict=True))
            assert wound_list(after[fighter]) == wound_list(kept)
            assert after[fighter].get("daze", 0) == kept["daze"]
            assert "gard_now" not in after[fighter], "Gard is full at the next fight"
        cli("campaign", "rest", "--rounds", "3", "--db", str(db))
        rested = documents(db)
        for fighter in ("hedda", "snurre"):
            daze, wounds = after[fighter].get("daze", 0), sum(wound_list(after[fighter]))
            # one point a round of rest, never below one point per wound
            assert rested[fighter].get("daze", 0) == max(daze - 3, min(daze, wounds))
    assert documents(db)["snurre"]["daze"] == 42 and wound_list(documents(db)["snurre"]) == [0, 1, 3, 0, 0]


def test_presja_three_knife_fights(cli: Callable[..., Result], tmp_path: Path) -> None:
    """The first two back to back (the second starts with the first's marked boxes and mild consequences: no rest
    between), then ten minutes of rest before the third: "zakładając, że postacie mają kilka minut na odpoczynek"."""
    db = tmp_path / "c.sqlite"
    add(cli, db, "presja", {"belzee": "belzee", "massimo": "massimo"})
    for number, seed in enumerate((1, 2, 3), start=1):
        before = documents(db)
        payload = play(cli, db, "presja/knife_fight", seed)
        started_with_the_library(db, number, before)
        after = documents(db)
        for pid in ("belzee", "massimo"):
            kept = payload["aftermath"]["characters"][pid]
            consequences = after[pid].get("consequences", {})
            for slot in ("moderate", "severe"):
                if before[pid].get("consequences", {}).get(slot):
                    assert consequences[slot] == before[pid]["consequences"][slot], "only healing clears them"
            assert consequences == kept.get("consequences", {})
            assert after[pid].get("marked_boxes", []) == kept.get("marked_boxes", [])
            assert after[pid].get("fate_points", 3) == kept.get("fate_points", 3)
        if number == 1:
            assert any(after[pid].get("marked_boxes") for pid in after), "seed 1 leaves a track marked"
            continue  # the second fight follows at once
        cli("campaign", "rest", "--minutes", "10", "--db", str(db))
        rested = documents(db)
        for pid in ("belzee", "massimo"):
            assert "marked_boxes" not in rested[pid] and not rested[pid].get("consequences", {}).get("mild")
            assert {k: v for k, v in rested[pid].items() if k not in ("marked_boxes", "consequences")} == {
                k: v for k, v in after[pid].items() if k not in ("marked_boxes", "consequences")
            }, "rest changes nothing else"


@pytest.mark.parametrize("seeds", [(3, 4, 5)])
def test_pwge_three_evenings_at_the_ball(cli: Callable[..., Result], tmp_path: Path, seeds: tuple[int, ...]) -> None:
    db = tmp_path / "c.sqlite"
    add(cli, db, "pwge", {"quill": "doktor_quill", "lyra": "ambassador_lyra"})
    distance = 7  # relation_distance of the ball when none is stored
    for number, seed in enumerate(seeds, start=1):
        before = documents(db)
        payload = play(cli, db, "pwge/ball", seed, "-p", "quill=random", "-p", "lyra=random")
        started_with_the_library(db, number, before)
        texts = [event["text"] for event in payload["events"]]
        assert f"avstånd (distance) Doktor Quill–Ambassadör Lyra: {distance} of 0–10" in texts
        after = documents(db)
        distance = after["quill"]["social_distance"]["Ambassadör Lyra"]
        assert after["lyra"]["social_distance"]["Doktor Quill"] == distance
        assert payload["aftermath"]["characters"]["quill"]["social_distance"] == {"Ambassadör Lyra": distance}
        for pid in ("quill", "lyra"):
            assert after[pid].get("body_points", 10) == before[pid].get("body_points", 10), "återställs helt"
            assert "attribute" not in after[pid], "the attribute in use belongs to the conflict"
        cli("campaign", "rest", "--days", "2", "--db", str(db))
        assert documents(db) == after
