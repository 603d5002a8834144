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
