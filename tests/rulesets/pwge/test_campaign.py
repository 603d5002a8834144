"""PWGE between conflicts in a campaign, through the command line (issue 43, point 6).

"De räknas separat från de fysiska kroppspoängen (de som man blir av med genom att få fysiskt stryk), och de
återställs för det mesta helt mellan varje konflikt": only the diplomatic and social kroppspoäng come back; the
physical damage of a duel is carried into the next one. Healing it is Parallel Worlds' rule, not in the text:
``healing_per_day`` (konflikt's own stand-in, 0 by default) heals on ``campaign rest --days``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from konflikt.core.campaign import Rest
from konflikt.rulesets.pwge.campaign import CAMPAIGN, rest_between
from tests.campaign.helpers import character_file, documents
from tests.conftest import Result


def add(cli: Callable[..., Result], db: Path, names: dict[str, str]) -> None:
    for key, file in names.items():
        result = cli("chars", "add", str(character_file("pwge", file)), "--ruleset", "pwge", "--name", key,
                     "--db", str(db))  # fmt: skip
        assert result.code == 0, result.err


def duel(cli: Callable[..., Result], db: Path, seed: int) -> dict[str, Any]:
    result = cli("run", "pwge/duel", "--seed", str(seed), "--campaign", "default", "--db", str(db), "--json")
    assert result.code == 0, result.err
    payload: dict[str, Any] = json.loads(result.out)
    return payload


def test_a_second_duel_starts_with_the_physical_damage_of_the_first(cli: Callable[..., Result], tmp_path: Path) -> None:
    """Seed 2: Zorak fells Nova (12 of her 10 kroppspoäng lost). The library keeps the loss beside her 10; a rest
    heals nothing by default; two days at healing_per_day=3 heal 6; the next duel starts her at 4 of 10."""
    db = tmp_path / "c.sqlite"
    add(cli, db, {"nova": "kapten_nova", "zorak": "zorak"})
    first = duel(cli, db, 2)
    assert first["aftermath"]["characters"]["nova"]["damage_taken"] == 12
    assert any(line.startswith("Kapten Nova: 12 kroppspoäng (body points) lost (-2 of 10 left), carried into the next")
               for line in first["aftermath"]["lines"])  # fmt: skip
    kept = documents(db)
    assert kept["nova"]["damage_taken"] == 12 and kept["nova"]["body_points"] == 10
    assert kept["zorak"].get("damage_taken", 0) == first["aftermath"]["characters"]["zorak"]["damage_taken"]
    rested = cli("campaign", "rest", "--days", "3", "--db", str(db))
    assert rested.code == 0, rested.err
    assert documents(db)["nova"]["damage_taken"] == 12, "healing_per_day is 0: a rest heals nothing"
    healed = cli("campaign", "rest", "--days", "2", "-o", "healing_per_day=3", "--db", str(db))
    assert healed.code == 0, healed.err
    assert documents(db)["nova"]["damage_taken"] == 6
    second = duel(cli, db, 3)
    texts = [event["text"] for event in second["events"]]
    assert (
        "Kapten Nova comes to this conflict with 4 of 10 kroppspoäng (body points): 6 lost in an earlier one" in texts
    )


def test_rest_heals_by_the_stand_in_only() -> None:
    nova = {"name": "Kapten Nova", "attributes": {"Smidighet": 4}, "body_points": 10, "damage_taken": 7}
    none = rest_between(nova, (), Rest(5, "days"), {"healing_per_day": 0})
    assert none.document["damage_taken"] == 7
    assert "Parallel Worlds' healing is not in the text" in none.lines[0]
    some = rest_between(nova, (), Rest(2, "days"), {"healing_per_day": 2})
    assert some.document["damage_taken"] == 3
    assert some.lines == (
        "kroppspoäng (body points) 3 → 7 of 10 after 2 days of rest (2 a day: healing_per_day, konflikt's own "
        "stand-in for Parallel Worlds' healing)",
    )
    assert rest_between(nova, (), Rest(30, "days"), {"healing_per_day": 1}).document["damage_taken"] == 0
    assert rest_between(nova, (), Rest(20, "hours"), {"healing_per_day": 5}).document["damage_taken"] == 7
    assert any("7 lost (kept until healed): 3 left" in line for line in CAMPAIGN.sheet(nova, ()))
