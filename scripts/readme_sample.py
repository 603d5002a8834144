"""The README's "short session" sample, cut from real runs of ``konflikt``.

    python scripts/readme_sample.py           # rewrite the sample between the markers in README.md
    python scripts/readme_sample.py --check   # exit 1, with a diff, when README.md's sample is not a fresh run's

Each command runs in a fresh process at 100 columns without colour; the sample keeps the first lines of the first
exchange and the outcome panel of ``konflikt run presja/knife_fight --seed 1``, and the whole summary of
``konflikt odds presja/knife_fight``. ``tests/cli/test_readme_sample.py`` runs ``--check``, so a change to the
narration fails until the sample is made again with this script.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
BEGIN = "<!-- sample: made by scripts/readme_sample.py from real runs; do not edit by hand -->"
END = "<!-- sample: end -->"
COLUMNS = 100
EXCHANGE_LINES = 10
"""How many lines of the first exchange are shown before the cut."""


def konflikt(*args: str) -> list[str]:
    """The lines ``konflikt ARGS`` prints, trailing spaces removed."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "_KONFLIKT_COMPLETE")}
    env |= {"NO_COLOR": "1", "TERM": "dumb", "COLUMNS": str(COLUMNS), "LINES": "50"}
    done = subprocess.run(
        [sys.executable, "-m", "konflikt", *args], capture_output=True, text=True, env=env, timeout=600,
        stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"konflikt {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return [line.rstrip() for line in done.stdout.splitlines()]


def run_excerpt(lines: list[str]) -> list[str]:
    """The first lines of the first exchange (``— …``, else after the opening panel), a cut, and the last panel."""
    start = next((i for i, line in enumerate(lines) if line.startswith("— ")), None)
    if start is None:
        start = next((i + 1 for i, line in enumerate(lines) if line.startswith("╰")), 0)
    last_panel = max((i for i, line in enumerate(lines) if line.startswith("╭")), default=len(lines))
    shown = lines[start : min(start + EXCHANGE_LINES, last_panel)]
    return [*shown, "…", *lines[last_panel:]]


def odds_excerpt(lines: list[str]) -> list[str]:
    """The first table and the line after it when it gives the expected length; a summary without borders (a
    whole conflict's ``odds``) whole."""
    end = next((i for i, line in enumerate(lines) if line.startswith("└")), len(lines) - 1)
    after = lines[end + 1 : end + 2]
    return lines[: end + 1] + [line for line in after if line.startswith("expected")]


def sample() -> str:
    run = ("run", "presja/knife_fight", "--seed", "1")
    odds = ("odds", "presja/knife_fight")
    lines = ["```text", f"$ konflikt {' '.join(run)}", *run_excerpt(konflikt(*run)), ""]
    lines += [f"$ konflikt {' '.join(odds)}          # who wins, exactly (floats within a stated bound)"]
    lines += [*odds_excerpt(konflikt(*odds)), "```"]
    return "\n".join(lines)


def with_sample(readme: str, text: str) -> str:
    head, begin, rest = readme.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise SystemExit(f"{README}: the markers {BEGIN!r} and {END!r} are not both there")
    return f"{head}{BEGIN}\n{text}\n{END}{tail}"


def main() -> None:
    readme = README.read_text(encoding="utf-8")
    fresh = with_sample(readme, sample())
    if "--check" in sys.argv[1:]:
        if fresh != readme:
            diff = difflib.unified_diff(
                readme.splitlines(), fresh.splitlines(), "README.md", "a fresh run", lineterm=""
            )
            sys.stdout.write("\n".join(diff) + "\n")
            sys.stdout.write("README.md's sample is not what konflikt prints now: python scripts/readme_sample.py\n")
            raise SystemExit(1)
        return
    if fresh != readme:
        README.write_text(fresh, encoding="utf-8")
        print(f"{README}: sample rewritten")


if __name__ == "__main__":
    main()
