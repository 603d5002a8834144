"""Golden playthroughs: each bundled example replays from its seed to exactly the recorded text."""

from __future__ import annotations

import difflib

import pytest

from konflikt.core.ruleset import ruleset_ids
from konflikt.core.scenario import load_scenario
from konflikt.sim.transcript import golden_text
from tests.examples import GOLDEN_SEED, example_scenarios, golden_path


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_every_ruleset_has_a_golden_playthrough(ruleset_id: str) -> None:
    names = [name for rid, name in example_scenarios() if rid == ruleset_id]
    assert names, f"ruleset {ruleset_id} has no bundled example scenario"
    missing = [n for n in names if not golden_path(n).exists()]
    assert not missing, f"no golden playthrough for {missing}: run python scripts/regen_goldens.py {ruleset_id}"


@pytest.mark.parametrize(("ruleset_id", "name"), example_scenarios())
def test_golden_playthrough_replays_exactly(ruleset_id: str, name: str) -> None:
    path = golden_path(name)
    if not path.exists():
        pytest.fail(f"missing golden {path}")
    expected = path.read_text(encoding="utf-8")
    actual = golden_text(load_scenario(name), GOLDEN_SEED, name)
    if actual != expected:
        diff = "".join(
            list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "golden", "now"))[:80]
        )
        pytest.fail(f"{name} no longer plays as its golden playthrough:\n{diff}")
