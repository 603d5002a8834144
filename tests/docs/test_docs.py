"""The documentation's examples are real: every TOML scenario in docs/scenarios.md loads and plays."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from konflikt.core.conflict import Conflict
from konflikt.core.scenario import scenario_from_document
from konflikt.sim.runner import play_scenario

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = re.findall(r"```toml\n(.*?)```", (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8"), re.DOTALL)


@pytest.mark.parametrize("block", [b for b in BLOCKS if "[[sides.participants]]" in b and "ruleset =" in b][1:])
def test_each_documented_scenario_loads_and_plays(block: str) -> None:
    """The block's own sides and participants are the ones that fight, and the played record replays to the same
    end (a loader that dropped or renamed a participant, or a rule that played differently on replay, fails it)."""
    document = tomllib.loads(block)
    scenario = scenario_from_document(document, "docs/scenarios.md")
    played = play_scenario(scenario, 1)
    outcome = played.outcome()
    documented = {p["id"] for side in document["sides"] for p in side["participants"]}
    assert set(outcome.participants) == documented
    assert set(outcome.winners) <= {side["id"] for side in document["sides"]} and outcome.summary
    assert Conflict(scenario, {}, 1, played.steps()).replay().outcome() == outcome
    assert set(outcome.participants) == {p.id for side in scenario.sides for p in side.participants}
    replayed = Conflict(scenario, {}, 1, played.steps()).replay()
    assert replayed.outcome() == outcome and replayed.history() == played.history()


def test_every_ruleset_has_an_example_in_the_docs() -> None:
    rulesets = {m for b in BLOCKS for m in re.findall(r'^ruleset = "(\w+)"', b, re.MULTILINE)}
    assert {"presja", "levald", "fimbulfrost", "pwge"} <= rulesets


def test_readme_quick_start_has_exactly_two_commands_and_ci_runs_the_second() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n\s*(.*?)\n\s*```", quick, re.DOTALL)
    assert len(commands) == 2
    assert commands[1].strip() in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
