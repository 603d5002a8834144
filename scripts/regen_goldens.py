"""Review and accept golden playthroughs: one per bundled example scenario.

    python scripts/regen_goldens.py NAME...            print the diff a new golden would make (writes nothing)
    python scripts/regen_goldens.py --accept NAME...   write it, after reading the diff
    python scripts/regen_goldens.py --keep-steps ...   rewrite the text from the golden's own recorded steps
                                                       (a narration change: the path through the conflict stays)

NAME is ``RULESET/SCENARIO`` or a ruleset id; none means every example. Without ``--keep-steps`` the new golden is
played by the scenario's policies from the golden seed. The golden test replays the recorded steps, so making a new
golden is always this reviewed act, never a side effect of running the tests.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.examples import GOLDEN_SEED, example_scenarios, golden_path

from konflikt.core.scenario import load_scenario
from konflikt.errors import KonfliktError
from konflikt.sim.transcript import golden_text, policy_steps, recorded_steps


def new_golden(name: str, keep_steps: bool) -> str:
    scenario = load_scenario(name)
    path = golden_path(name)
    if keep_steps and path.exists():
        steps = recorded_steps(path.read_text(encoding="utf-8"))
    else:
        steps = policy_steps(scenario, GOLDEN_SEED)
    return golden_text(scenario, GOLDEN_SEED, name, steps)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*")
    parser.add_argument("--accept", action="store_true", help="write the new goldens")
    parser.add_argument("--keep-steps", action="store_true", help="replay the recorded steps instead of the policies")
    args = parser.parse_args(argv)
    changed = 0
    for rid, name in example_scenarios():
        if args.names and rid not in args.names and name not in args.names:
            continue
        path = golden_path(name)
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        try:
            new = new_golden(name, args.keep_steps)
        except KonfliktError as exc:
            print(f"{name}: {exc}")
            return 2
        if new == old:
            print(f"{name}: unchanged")
            continue
        changed += 1
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), str(path), "new"))
        if args.accept:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(new, encoding="utf-8")
            print(f"{name}: written")
        else:
            print(f"{name}: differs (not written; add --accept after reading the diff)")
    return 0 if args.accept or not changed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
