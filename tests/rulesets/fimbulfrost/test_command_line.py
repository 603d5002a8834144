"""Rules of the text checked through the command line (``konflikt run``, ``konflikt odds``), as a game master or a
designer meets them, not only through the State API: the rows of the conformance table name these."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import Result


def _json(result: Result) -> Any:
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_the_opponent_takes_its_successes_off_the_heroes_it_chooses(cli: Callable[..., Result]) -> None:
    """ "Modstanderen præsenterer sig, ruller sine terninger og trækker sine succeser fra en eller flere af heltenes
    Status-pulje": the dragon's own seat splits its hits (a step of its seat), on one hero or on both, and the damage
    each hero takes is what the split named."""
    played = _json(cli("run", "fimbulfrost/dragon", "--seed", "1", "--json"))
    splits = [step["action"] for step in played["steps"] if step.get("node") == "dragen"]
    assert splits and all(split["kind"] == "hit" for split in splits)
    assert any(len(split) == 2 for split in splits) and any(len(split) == 3 for split in splits), "one hero, or more"
    damage = [(e["data"]["hero"], e["data"]["damage"]) for e in played["events"] if e["kind"] == "damage"]
    named = [(hero, d) for split in splits for hero, d in split.items() if hero != "kind"]
    assert damage == named


def test_every_hero_rolls_before_the_first_split_and_morale_goes_to_a_friend(cli: Callable[..., Result]) -> None:
    """ "Trin 2: Man ruller … Trin 3: Hver succes fordeles … til en vens Status-pulje": in round 1 both heroes roll,
    then each splits; a split names the opponent and friends only (morale_rudolf for Budolf, never himself)."""
    played = _json(cli("run", "fimbulfrost/robbers", "--seed", "1", "--json"))
    kinds = [e["kind"] for e in played["events"] if e["kind"] in ("roll", "split")][:4]
    assert kinds == ["roll", "roll", "split", "split"]
    for step in played["steps"]:
        action = step.get("action") or {}
        if action.get("kind") == "split":
            assert f"morale_{step['node']}" not in action


def test_a_lone_hero_presents_himself(cli: Callable[..., Result], tmp_path: Path) -> None:
    """ "Præsenterer man sig selv, ruller man sin Omdømme-pulje-1. Præsenteres man af en ven …": Budolf alone has no
    friend to present him, so he presents himself and rolls 4 − 1 = 3 dice."""
    source = Path(__file__).parents[3] / "src/konflikt/examples/fimbulfrost/robbers.toml"
    text = source.read_text(encoding="utf-8")
    rudolf = '[[sides.participants]]\nid = "rudolf"\ncharacter = "builtin:rudolf"\npolicy = "heuristic"\n'
    assert rudolf in text
    alone = tmp_path / "alone.toml"
    alone.write_text(text.replace(rudolf, ""), encoding="utf-8")
    played = _json(cli("run", str(alone), "--seed", "1", "--json"))
    presented = [e["text"] for e in played["events"] if e["kind"] == "present"]
    assert presented == ["Budolf presents himself (præsenterer sig selv): Omdømme 4 − 1 = 3d6"]


def _deaths(cli: Callable[..., Result], *options: str) -> dict[str, float]:
    odds = _json(cli("odds", "fimbulfrost/dragon", "--json", *options))
    return {
        hero: sum(p for fate, p in odds["distributions"][f"{hero}: fate"].items() if fate.startswith("død"))
        for hero in ("Budolf", "Rudolf")
    }


def test_death_against_the_dragon_only_when_no_entry_is_left(cli: Callable[..., Result]) -> None:
    """ "spilleren bliver kun tvunget ud i at vælge denne, hvis der ikke er flere valgmuligheder tilbage på listen":
    the exact odds of the bundled dragon fight, from the command line: Budolf (no gear, his armour spent) dies in
    18.87% of the fights, Rudolf in 5.09%; konflikt's own option consequence_must_cost, hiding the entries that would
    cost nothing, puts Budolf's death at 21.63%."""
    written = _deaths(cli)
    assert (round(written["Budolf"], 4), round(written["Rudolf"], 4)) == (0.1887, 0.0509)
    hidden = _deaths(cli, "-o", "consequence_must_cost=true")
    assert round(hidden["Budolf"], 4) == 0.2163
