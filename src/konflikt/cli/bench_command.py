"""``konflikt bench``: our speed beside icepool's and beside our own reference runner, in one run."""

from __future__ import annotations

import json
import platform
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from konflikt.sim.bench import run_bench


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def register(app: typer.Typer) -> None:
    @app.command()
    def bench(
        quick: Annotated[bool, typer.Option(help="Shorter timings (noisier).")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Time exact dice questions against icepool and conflicts per second against the reference runner."""
        console = Console(stderr=as_json)
        with console.status("measuring…"):
            data = run_bench(quick)
        data["machine"] = f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}"
        if as_json:
            typer.echo(json.dumps(data, indent=1))
            return
        out = Console()
        t = Table(
            title="exact dice questions: konflikt vs icepool (best of several, same process)", title_justify="left"
        )
        for col in ("question", "same Fractions", "konflikt", "icepool", "konflikt is"):
            t.add_column(col, justify="right" if col != "question" else "left")
        for r in data["dice_questions"]:
            t.add_row(
                r["question"],
                "yes" if r["identical"] else "NO",
                f"{r['konflikt_s'] * 1e6:,.0f} µs",
                f"{r['icepool_s'] * 1e6:,.0f} µs",
                f"{r['speedup']:,.1f}× faster",
            )
        out.print(t)
        t = Table(title="conflicts per second (one core)", title_justify="left")
        for col in ("scenario", "reference", "vectorised", "ratio", "dice/conflict", "numpy limit"):
            t.add_column(col, justify="right" if col != "scenario" else "left")
        for r in data["conflicts"]:
            ratio = "-" if r["speedup"] is None else f"{r['speedup']:,.0f}×"
            t.add_row(
                r["scenario"],
                _rate(r["reference_per_s"]),
                _rate(r["vectorised_per_s"]),
                ratio,
                f"{r['dice_per_conflict']:.1f}",
                _rate(r["physical_limit_per_s"]),
            )
        out.print(t)
        out.print(
            f"numpy raw random integers: {data['numpy_random_integers_per_s']:,.0f}/s; "
            f"peak memory {data['peak_memory_mb']:.0f} MB; {data['machine']}",
            highlight=False,
        )
