"""The bundled example scenarios, for tests that run over every ruleset."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from konflikt.core.ruleset import ruleset_ids
from konflikt.core.scenario import Scenario, bundled_examples, load_scenario, scenario_from_document

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_SEED = 1


def example_scenarios() -> list[tuple[str, str]]:
    """(ruleset id, ``RULESET/NAME``) for every bundled example."""
    root = bundled_examples()
    found = []
    for rid in ruleset_ids():
        for path in sorted((root / rid).glob("*.toml")):
            found.append((rid, f"{rid}/{path.stem}"))
    return found


def renamed(name: str, seat: str, to: str) -> Scenario:
    """The bundled scenario ``name`` with the participant ``seat`` named ``to`` (a name unlike its id shows which of
    the two a text holds)."""
    scenario = load_scenario(name)
    doc: dict[str, Any] = copy.deepcopy(dict(scenario.document))
    people = [p for side in doc["sides"] for p in side["participants"] if p["id"] == seat]
    assert len(people) == 1
    people[0]["name"] = to
    return scenario_from_document(doc, scenario.source)


def golden_path(name: str) -> Path:
    return GOLDEN / f"{name}.txt"


def phases_of_goldens(names: list[str]) -> tuple[set[str], set[str]]:
    """Every phase cell of the status table that the goldens of ``names`` pass through, and those of them written
    as code names (``counter_response``): a table's cells are words a game master reads."""
    import re

    from konflikt.core.conflict import new_state
    from konflikt.core.scenario import load_scenario
    from konflikt.sim.transcript import recorded_steps

    seen: set[str] = set()
    for name in names:
        state = new_state(load_scenario(name))
        for step in [None, *recorded_steps(golden_path(name).read_text(encoding="utf-8"))]:
            if step is not None:
                state.apply_step(step)
            seen.add(state.status()["table"]["phase"])
    return seen, {p for p in seen if re.fullmatch(r"[a-z_]+", p)}
