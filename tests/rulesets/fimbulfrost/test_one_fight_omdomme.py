"""'Rygtet er plettet (−1 Omdømme til næste kamp)' holds for the next fight only (issue 43): the aftermath's document
carries the −1 as a one-fight effect (``omdomme_til_naeste_kamp``), the next fight counts it, and that fight's
aftermath drops it — the same whether the document goes through a campaign or is reused by hand."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from konflikt.rulesets.fimbulfrost import aftermath
from konflikt.rulesets.fimbulfrost.campaign import CAMPAIGN
from konflikt.rulesets.fimbulfrost.models import Character
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from tests.campaign.helpers import character_file, documents
from tests.conftest import Result
from tests.rulesets.fimbulfrost.helpers import act, hero, roll, start

BUDOLF = {"name": "Budolf", "role": "hero", "omdomme": 4, "status": 6, "rustning": 5}


def _budolf_tarnished(document: dict[str, Any]) -> FimbulfrostState:
    """Budolf alone against a troll (Omdømme 7), out in round 1 at −1: he buys 'Rygtet er plettet'."""
    troll = hero("trolden", name="Trolden", role="opponent", omdomme=7, kamp=0, status=12)
    state = start(heroes=[hero("budolf", **document)], opponent=troll)
    act(state, "present", by="budolf")
    roll(state, 0)
    roll(state, 7)  # the troll's Omdømme: 6 − 7 = −1
    act(state, "consequence", entry="rygte-plettet")
    assert state.is_terminal() and state.taken == [["rygte-plettet"]]
    return state


def _a_quiet_fight(document: dict[str, Any]) -> FimbulfrostState:
    """Budolf alone against robbers at Status 1, who fall to his round-1 roll at exactly 0: nothing is bought."""
    state = start(
        heroes=[hero("budolf", **document)], opponent=hero("roeverne", character="builtin:roeverbanden", status=1)
    )
    act(state, "present", by="budolf")
    roll(state, 1)
    assert state.is_terminal() and state.taken == [[]]
    return state


def test_a_reused_aftermath_document_lowers_omdomme_for_the_next_fight_only() -> None:
    """The document after the fight keeps Omdømme 4 and carries −1 for the next fight; reused by hand (no campaign),
    the next fight rolls from 3 (Budolf presents himself: 3 − 1 = 2d6) and its aftermath gives him 4 again for good:
    the −1 is not permanent."""
    first = aftermath(_budolf_tarnished(dict(BUDOLF)))
    document = first.characters["budolf"]
    assert document["omdomme"] == 4 and document["omdomme_til_naeste_kamp"] == -1
    assert any("Omdømme 4 → 3 for the next fight only (Rygtet er plettet" in line for line in first.lines)
    assert Character.model_validate(document).omdomme_this_fight == 3

    second_fight = start(heroes=[hero("budolf", **document)])
    act(second_fight, "present", by="budolf")
    assert second_fight.pending_roll().count == 2  # type: ignore[union-attr]
    presented = next(e.text for e in second_fight.history() if e.kind == "present")
    assert "Omdømme 3 (4 − 1 til næste kamp: this fight only) − 1 = 2d6" in presented
    assert second_fight.status()["budolf"]["Omdømme (reputation)"].startswith("3 (4 − 1")

    second = aftermath(_a_quiet_fight(document))
    again = second.characters["budolf"]
    assert again["omdomme"] == 4 and "omdomme_til_naeste_kamp" not in again
    assert any("held for this fight only" in line for line in second.lines)
    third_fight = start(heroes=[hero("budolf", **again)])
    act(third_fight, "present", by="budolf")
    assert third_fight.pending_roll().count == 3  # type: ignore[union-attr]


def test_settle_keeps_the_one_fight_effect_on_the_document_and_says_so() -> None:
    """Through the campaign's rules: settle keeps the aftermath's document (Omdømme 4, −1 for the next fight) with no
    delayed effect of its own, the sheet says it; after the next fight it is gone."""
    after_first = aftermath(_budolf_tarnished(dict(BUDOLF))).characters["budolf"]
    first = CAMPAIGN.settle(BUDOLF, (), after_first)
    assert first.document["omdomme"] == 4 and first.document["omdomme_til_naeste_kamp"] == -1
    assert first.pending == ()
    assert any("Omdømme −1 for the next fight only (Rygtet er plettet" in line for line in first.lines)
    assert "Omdømme 3 in the next fight only (-1: til næste kamp)" in CAMPAIGN.sheet(first.document, first.pending)
    after_second = aftermath(_a_quiet_fight(first.document)).characters["budolf"]
    second = CAMPAIGN.settle(first.document, first.pending, after_second)
    assert second.document["omdomme"] == 4 and "omdomme_til_naeste_kamp" not in second.document
    assert any("held for this fight only" in line for line in second.lines)


def test_an_older_librarys_omdomme_back_is_still_given_back() -> None:
    """A library written before kept the lowered Omdømme (3) and an 'omdomme-back' effect: the next settle gives the
    point back, as it did."""
    older = {**BUDOLF, "omdomme": 3, "konsekvenser": ["rygte-plettet"]}
    pending = ({"effect": "omdomme-back", "amount": 1, "why": "Rygtet er plettet"},)
    settled = CAMPAIGN.settle(older, pending, dict(older))
    assert settled.document["omdomme"] == 4 and settled.pending == ()


LISTS = """
[lists.runde3]
da = "Runde 3, kun rygtet (round 3, reputation only)"
en = "round 3 list for the test"
[[lists.runde3.entries]]
id = "rygte-plettet"
da = "Rygtet er plettet (−1 Omdømme til næste kamp)"
en = "reputation tarnished (−1 Omdømme next conflict)"
severity = 0
omdomme = -1
[[lists.runde3.entries]]
id = "skramme"
da = "Skrammer og blå mærker"
en = "scratches and bruises"
severity = 1
[[lists.runde3.entries]]
id = "dybt-saar"
da = "Dybt sår"
en = "deep wound"
severity = 3
[[lists.runde3.entries]]
id = "brukket-arm"
da = "Brækket arm"
en = "broken arm"
severity = 4
[[lists.runde3.entries]]
id = "doed"
da = "Død"
en = "death"
severity = 10
death = true
"""

SCENARIO = """
ruleset = "fimbulfrost"
title = "Budolf against a wall he cannot break"
options = {points_per_consequence = 10}
[setup]
konsekvenslister = "lists.toml"
[[sides]]
id = "helte"
[[sides.participants]]
id = "budolf"
character = "lib:budolf"
policy = "heuristic"
[[sides]]
id = "vaeg"
[[sides.participants]]
id = "mur"
name = "Muren"
role = "opponent"
omdomme = 0
kamp = 0
status = 30
policy = "heuristic"
"""


def test_through_a_campaign_the_minus_one_holds_for_one_fight(cli: Callable[..., Result], tmp_path: Path) -> None:
    """Two fights of one campaign from the command line: Budolf cannot beat the wall (Status 30), loses round 3 and
    buys 'Rygtet er plettet' first (2–3 entries at 10 points an entry); the library keeps Omdømme 4 with −1 for the
    next fight; the second fight rolls from 3, and after it the library holds 4 and nothing more."""
    db = tmp_path / "c.sqlite"
    (tmp_path / "lists.toml").write_text(LISTS, encoding="utf-8")
    scenario = tmp_path / "wall.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    path = str(character_file("fimbulfrost", "budolf"))
    assert cli("chars", "add", path, "--ruleset", "fimbulfrost", "--db", str(db)).code == 0

    first = cli("run", str(scenario), "--seed", "1", "--campaign", "default", "--db", str(db), "--json")
    assert first.code == 0, first.err
    assert "rygte-plettet" in json.loads(first.out)["aftermath"]["characters"]["budolf"]["konsekvenser"]
    kept = documents(db)["budolf"]
    assert kept["omdomme"] == 4 and kept["omdomme_til_naeste_kamp"] == -1

    second = cli("run", str(scenario), "--seed", "2", "--campaign", "default", "--db", str(db), "--json")
    assert second.code == 0, second.err
    events = json.loads(second.out)["events"]
    presented = next(e["text"] for e in events if e["kind"] == "present")
    assert "= 2d6" in presented, presented
    kept = documents(db)["budolf"]
    assert kept["omdomme"] == 4 and "omdomme_til_naeste_kamp" not in kept
