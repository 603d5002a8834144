"""The bundled example scenarios, for tests that run over every ruleset."""

from __future__ import annotations

from pathlib import Path

from konflikt.core.ruleset import ruleset_ids
from konflikt.core.scenario import bundled_examples

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


def golden_path(name: str) -> Path:
    return GOLDEN / f"{name}.txt"
