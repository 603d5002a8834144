"""Write each ruleset's conformance table into its guide, ``docs/rulesets/RULESET.md``, between the markers.

Run after editing a ``content/conformance.toml``; ``tests/docs/test_conformance.py`` fails while a guide is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from konflikt.core.conformance import with_table
from konflikt.core.ruleset import all_rulesets

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rulesets"


def main(only: list[str]) -> None:
    for ruleset in all_rulesets():
        if only and ruleset.id not in only:
            continue
        guide = DOCS / f"{ruleset.id}.md"
        guide.write_text(with_table(guide.read_text(encoding="utf-8"), ruleset.conformance()), encoding="utf-8")
        print(f"wrote {guide}")


if __name__ == "__main__":
    main(sys.argv[1:])
