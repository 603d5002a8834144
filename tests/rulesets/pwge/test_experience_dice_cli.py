"""The experience-dice rule through the command line, in every bundled scenario (issue 43, point 1).

The heuristic weighs each choice once and pays for it with a die by its own rule (:func:`.policies.pays_with_die`);
a social or diplomatic conflict where it answered a move holding experience dice once stopped with an internal error
(``Action.of() got multiple values for keyword argument 'pay'``).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.conftest import Result

SCENARIOS = ("duel", "chase", "negotiation", "ball", "shootout")


@pytest.mark.parametrize("name", SCENARIOS)
def test_run_plays_every_bundled_scenario_with_experience_dice(cli: Callable[..., Result], name: str) -> None:
    for seed in range(4):
        result = cli("run", f"pwge/{name}", "--seed", str(seed), "-o", "experience_dice=true", "--json")
        assert result.code == 0, f"seed {seed}: {result.err}"
        payload = json.loads(result.out)
        assert payload["outcome"]["ending"] in ("goal_reached", "pools_exhausted", "deadlock")


def test_the_heuristic_answers_a_move_paying_with_an_experience_die(cli: Callable[..., Result]) -> None:
    """Seed 0 of the negotiation: Nova, down to her last tokens, counters and answers Lyra's utspel with her dice."""
    result = cli("run", "pwge/negotiation", "--seed", "0", "-o", "experience_dice=true", "--json")
    assert result.code == 0, result.err
    texts = [event["text"] for event in json.loads(result.out)["events"]]
    assert any("spends 1 erfarenhetstärning (experience die) instead of a token on a svarshandling" in t for t in texts)


@pytest.mark.parametrize("name", SCENARIOS)
def test_sim_on_the_reference_runner_plays_every_bundled_scenario_with_experience_dice(
    cli: Callable[..., Result], name: str
) -> None:
    result = cli(
        "sim", f"pwge/{name}", "-n", "30", "--seed", "2", "--engine", "reference", "-o", "experience_dice=true",
        "--json",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert "internal error" not in result.err
