"""Rules of issue 43 as the command line shows them: what ``konflikt run`` prints and records."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.conftest import Result


def run_json(cli: Callable[..., Result], *args: str) -> dict[str, Any]:
    result = cli("run", *args, "--json")
    assert result.code == 0, result.err
    payload: dict[str, Any] = json.loads(result.out)
    return payload


def test_run_duel_seed_170_blows_exchanged_samtidigt_empty_both_pools_a_deadlock(cli: Callable[..., Result]) -> None:
    """Nova's action and Zorak's response resolve at the same time; each leaves the other without tokens. Neither
    ran out first: "båda sidorna gör slut på sina handlingspölar … dödläge" (before: Zorak's pirates won, because
    the program resolved Nova's blow first)."""
    outcome = run_json(cli, "pwge/duel", "--seed", "170")["outcome"]
    assert (outcome["ending"], outcome["winners"]) == ("deadlock", [])
    assert "ran out together (samtidigt)" in outcome["summary"]


def test_run_shootout_zoraks_ray_pistol_adds_stralvapen_and_the_roll_names_the_pistol(
    cli: Callable[..., Result],
) -> None:
    """Zorak's fitting skills in the hangar are Strålvapen 2 and Pålvapen 3: a shot with his ray pistol adds
    Strålvapen, the skill of the weapon used (before: Pålvapen 3, his best, to every roll), and the roll says which
    weapon it is."""
    texts = [event["text"] for event in run_json(cli, "pwge/shootout", "--seed", "1")["events"]]
    shots = [t for t in texts if t.startswith("Zorak rolls the anfall (attack)")]
    assert shots and all(
        t.startswith("Zorak rolls the anfall (attack) with Strålpistol: 2T+6 = Styrka 4 + Strålvapen 2 →")
        for t in shots
    ), shots
    assert not any("Strålpistol" in t and "Pålvapen" in t for t in texts)


def test_run_logs_the_heuristics_attribute_as_its_highest_not_as_the_best_fit(
    cli: Callable[..., Result], tmp_path: Any
) -> None:
    """A scenario that leaves the attribute to the seats: the heuristic takes its highest and the log says so."""
    from pathlib import Path

    scenario = Path(tmp_path) / "open_attribute.toml"
    scenario.write_text(
        'ruleset = "pwge"\ntitle = "t"\n'
        '[[sides]]\nid = "a"\n[[sides.participants]]\nid = "nova"\ncharacter = "builtin:kapten_nova"\n'
        'policy = "heuristic"\n'
        '[[sides]]\nid = "b"\n[[sides.participants]]\nid = "zorak"\ncharacter = "builtin:zorak"\n'
        'policy = "heuristic"\n',
        encoding="utf-8",
    )
    texts = [event["text"] for event in run_json(cli, str(scenario), "--seed", "1")["events"]]
    assert "Zorak takes Styrka 4 as the egenskap (attribute) in use, the highest of 4" in texts
    assert "Kapten Nova takes Smidighet 4 as the egenskap (attribute) in use, the highest of 4" in texts
    assert not any("best fits" in t for t in texts)
