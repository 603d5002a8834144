"""Regenerate the golden playthroughs: one per bundled example scenario, seed 1.

Run after an intended change of rules or narration, then read the diff before committing it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.examples import GOLDEN_SEED, example_scenarios, golden_path

from konflikt.core.scenario import load_scenario
from konflikt.sim.transcript import golden_text


def main(only: list[str]) -> None:
    for rid, name in example_scenarios():
        if only and rid not in only and name not in only:
            continue
        path = golden_path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(golden_text(load_scenario(name), GOLDEN_SEED, name), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
