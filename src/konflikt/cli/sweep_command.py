"""``konflikt sweep SPEC.toml``: a grid of simulations, written as CSV, JSON and plots."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from konflikt.sim.plots import curve, heatmap, write_table
from konflikt.sim.sweep import SweepSpec, cells, load_spec, run_sweep

MAX_HEATMAPS = 12


def plot_sweep(spec: SweepSpec, rows: list[dict[str, Any]], out: Path) -> list[Path]:
    sides = [k.removeprefix("win_") for k in rows[0] if k.startswith("win_") and not k.endswith(("_lo", "_hi"))]
    side = spec.side or sides[0]
    axes = [a.name for a in spec.axis]
    if len(axes) == 1:
        return curve(rows, axes[0], [f"win_{s}" for s in sides], out / "curve", f"win rate along {axes[0]}")
    paths: list[Path] = []
    rest = axes[2:]
    combos = list(itertools.product(*(a.values for a in spec.axis[2:])))[:MAX_HEATMAPS]
    for combo in combos:
        fixed = dict(zip(rest, combo, strict=True))
        subset = [r for r in rows if all(r[k] == v for k, v in fixed.items())]
        suffix = "".join(f"_{k}-{v}" for k, v in fixed.items())
        title = f"win rate of {side}" + (f" ({', '.join(f'{k}={v}' for k, v in fixed.items())})" if fixed else "")
        paths += heatmap(subset, axes[0], axes[1], f"win_{side}", out / f"heatmap{suffix}", title)
    return paths


def register(app: typer.Typer) -> None:
    @app.command()
    def sweep(
        spec_path: Annotated[Path, typer.Argument(metavar="SPEC", help="A sweep spec (TOML).")],
        engine: Annotated[str, typer.Option(help="local (processes here) or dask (a cluster).")] = "local",
        scheduler: Annotated[str | None, typer.Option(help="The Dask scheduler address, for --engine dask.")] = None,
        workers: Annotated[int, typer.Option(min=1, help="Processes for --engine local.")] = 1,
        out: Annotated[Path | None, typer.Option(help="Output folder (default: sweep-<spec name>).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
    ) -> None:
        """Simulate every cell of a grid over skills, weapons, characters and rule options."""
        spec = load_spec(spec_path)
        total = len(cells(spec))
        console = Console(stderr=as_json)
        with Progress(
            TextColumn("cells"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=console, transient=True, disable=as_json,
        ) as bar:  # fmt: skip
            task = bar.add_task("sweep", total=total)
            rows = run_sweep(spec, spec_path, engine, workers, scheduler, lambda k: bar.update(task, advance=k))
        folder = out or Path(f"sweep-{spec_path.stem}")
        files = write_table(rows, folder, "cells") + plot_sweep(spec, rows, folder)
        if as_json:
            typer.echo(json.dumps({"rows": rows, "files": [str(f) for f in files]}, ensure_ascii=False, indent=1))
            return
        table = Table(title=f"{spec.scenario}: {total} cells × {spec.n:,} conflicts", title_justify="left")
        shown = (
            [a.name for a in spec.axis]
            + [k for k in rows[0] if k.startswith("win_") and "_lo" not in k and "_hi" not in k]
            + ["length_mean"]
        )
        for column in shown:
            table.add_column(column, justify="right")
        for row in rows:
            table.add_row(*(f"{row[c]:.3f}" if isinstance(row[c], float) else str(row[c]) for c in shown))
        console.print(table)
        console.print("wrote " + ", ".join(str(f) for f in files), highlight=False)
