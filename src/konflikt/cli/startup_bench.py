"""How long ``konflikt`` takes to start, beside the command-line framework's own start (``import typer``).

A command that answers in 50 ms feels instant; one that first imports matplotlib does not. The target: ``konflikt
--help`` within 3× ``python -c "import typer"``, measured on the same machine in the same run (best of several,
each in a fresh process, so the numbers are wall-clock starts as a user sees them).
"""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

from rich.table import Table

TARGET = 3.0
"""``konflikt --help`` within this many times ``import typer``."""

COMMANDS: tuple[tuple[str, list[str]], ...] = (
    ('python -c "import typer"', ["-c", "import typer"]),
    ("konflikt --help", ["-m", "konflikt", "--help"]),
    ("konflikt --version", ["-m", "konflikt", "--version"]),
    ("konflikt run presja/knife_fight --quiet", ["-m", "konflikt", "run", "presja/knife_fight", "--seed", "1", "-q"]),
)


def best_start(args: list[str], runs: int) -> float:
    """The shortest wall time of ``runs`` fresh ``python ARGS`` processes (the least disturbed by others)."""
    best = float("inf")
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run([sys.executable, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        best = min(best, time.perf_counter() - began)
    return best


def measure_startup(runs: int = 5) -> dict[str, Any]:
    """Seconds to start each command (best of ``runs``) and each one's ratio to ``import typer``."""
    seconds = {name: best_start(args, runs) for name, args in COMMANDS}
    base = seconds[COMMANDS[0][0]]
    rows = [{"command": name, "seconds": s, "ratio": s / base} for name, s in seconds.items()]
    return {"runs": runs, "target_ratio": TARGET, "rows": rows}


def startup_table(data: dict[str, Any]) -> Table:
    table = Table(
        title=f"start-up, best of {data['runs']} fresh processes (target: --help within {TARGET:g}× import typer)",
        title_justify="left",
    )
    for col in ("command", "seconds", "× import typer"):
        table.add_column(col, justify="left" if col == "command" else "right")
    for r in data["rows"]:
        table.add_row(r["command"], f"{r['seconds']:.3f}", f"{r['ratio']:.2f}×")
    return table
