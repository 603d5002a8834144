"""``konflikt sweep SPEC.toml``: a grid of simulations, written as CSV, JSON and plots."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from konflikt.cli.common import ForceOption, SetOption, over_budget
from konflikt.cli.i18n import _, whole
from konflikt.cli.render import plain_console
from konflikt.core.i18n import number
from konflikt.safe_text import json_text

if TYPE_CHECKING:  # the sweep machinery and matplotlib are imported when a sweep runs, not for --help
    from konflikt.sim.sweep import SweepSpec

MAX_HEATMAPS = 12
MAX_CELLS = 2_000
"""The most cells a sweep starts without ``--force``: ~35 ms and ~60 KB a cell before any conflict is played, so
2,000 cells are a minute of a core and 120 MB (83,521 cells started); the bundled sweeps have 8 to 36."""
MAX_CONFLICTS = 20_000_000
"""The most conflicts (cells × n) a sweep starts without ``--force``: minutes with a ruleset's kernel; the bundled
sweeps play 32,000 and 36,000 (a sweep of 10**12 conflicts started)."""


def outcome_labels(rows: list[dict[str, Any]], names: dict[str, str], short: bool = False) -> dict[str, str]:
    """Each outcome column of the rows → words for a reader: ``win_snurres`` → ``Snurre's side wins``."""
    from konflikt.sim.sweep import outcome_columns

    labels = {}
    for column in outcome_columns(rows):
        if column == "nobody":
            labels[column] = _("nobody") if short else _("nobody wins (draw / deadlock)")
        else:
            sides = column.removeprefix("win_").split("+")
            labels[column] = _("{sides} wins", sides=" + ".join(names.get(s, s) for s in sides))
    return labels


def plot_sweep(
    spec: SweepSpec, rows: list[dict[str, Any]], out: Path, names: dict[str, str], header: dict[str, Any]
) -> list[Path]:
    """Every outcome (each side's win and nobody's) along one axis, or as side-by-side heatmaps over two."""
    from konflikt.sim.plots import curve, heatmaps  # matplotlib: imported when drawn, not at every start-up

    labels = outcome_labels(rows, names)
    if all(r["nobody"] == 0 for r in rows):
        labels.pop("nobody")
    axes = [a.name for a in spec.axis]
    title = f"{header['scenario'].rsplit('/', 1)[-1]}: who wins, n = {spec.n:,} per cell"
    if len(axes) == 1:
        return curve(rows, axes[0], labels, out / "curve", f"{title}, along {axes[0]}", header)
    paths: list[Path] = []
    rest = axes[2:]
    combos = list(itertools.product(*(a.values for a in spec.axis[2:])))[:MAX_HEATMAPS]
    for combo in combos:
        fixed = dict(zip(rest, combo, strict=True))
        subset = [r for r in rows if all(r[k] == v for k, v in fixed.items())]
        suffix = "".join(f"_{k}-{v}" for k, v in fixed.items())
        where = f" ({', '.join(f'{k}={v}' for k, v in fixed.items())})" if fixed else ""
        paths += heatmaps(subset, axes[0], axes[1], labels, out / f"heatmap{suffix}", title + where, header)
    return paths


def sweep_tables(spec: SweepSpec, rows: list[dict[str, Any]], names: dict[str, str]) -> list[Table]:
    """Every outcome per cell, in two tables that fit a terminal: who wins (each side, nobody, and a note where
    the cap decides), and how it ended (each ending, the mean length in the system's unit)."""
    axes = [(a.name, a.name) for a in spec.axis]
    labels = outcome_labels(rows, names, short=True)
    endings = [(k, k.removeprefix("end_")) for k in rows[0] if k.startswith("end_")]
    unit = rows[0].get("length_unit", "steps")
    title = _("{scenario}: {cells} cells × {n} conflicts", scenario=spec.scenario, cells=len(rows), n=whole(spec.n))
    return [
        _table(_("{title}: who wins", title=title), rows, axes + list(labels.items()) + [("note", _("note"))]),
        _table(_("how it ended"), rows, axes + endings + [("length_mean", _("mean {unit}", unit=unit))]),
    ]


def _table(title: str, rows: list[dict[str, Any]], columns: list[tuple[str, str]]) -> Table:
    table = Table(title=Text(title), title_justify="left")
    for _key, heading in columns:
        table.add_column(Text(heading), justify="right", overflow="fold")
    for row in rows:
        cells = []
        for key, _heading in columns:
            value = row.get(key, "")
            cells.append(Text(number(value, 3) if isinstance(value, float) else str(value)))
        table.add_row(*cells)
    return table


def register(app: typer.Typer) -> None:
    @app.command()
    def sweep(
        spec_path: Annotated[Path, typer.Argument(metavar="SPEC", help="A sweep spec (TOML).")],
        engine: Annotated[str, typer.Option(help="local (processes here) or dask (a cluster).")] = "local",
        scheduler: Annotated[str | None, typer.Option(help="The Dask scheduler address, for --engine dask.")] = None,
        workers: Annotated[int, typer.Option(min=1, help="Processes for --engine local.")] = 1,
        out: Annotated[Path | None, typer.Option(help="Output folder (default: sweep-<spec name>).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
        settings: SetOption = None,
        force: ForceOption = False,
    ) -> None:
        """Simulate every cell of a grid over skills, weapons, characters and rule options."""
        from konflikt.core.scenario import read_toml
        from konflikt.sim.engine import capped_workers
        from konflikt.sim.header import writable_folder
        from konflikt.sim.plots import write_table
        from konflikt.sim.sweep import base_scenario, cells, check_axes, load_spec, run_sweep, sweep_header

        spec = load_spec(spec_path)
        spec = spec.model_copy(update={"set": [*spec.set, *(settings or [])]})  # --set: on the base, before the axes
        workers, note = capped_workers(workers)
        if note is not None:
            plain_console(stderr=True).print(note, highlight=False)
        total = len(cells(spec))
        if not force and total > MAX_CELLS:
            raise over_budget(f"sweep {spec_path}", total, MAX_CELLS, _("cells"), _("fewer values on the axes"))
        if not force and total * spec.n > MAX_CONFLICTS:
            raise over_budget(
                _("sweep {spec}: {cells} cells × n = {n}", spec=spec_path, cells=whole(total), n=whole(spec.n)),
                total * spec.n,
                MAX_CONFLICTS,
                _("conflicts"),
                _("a smaller n or fewer cells"),
            )
        folder = out or Path(f"sweep-{spec_path.stem}")
        scenario_path, scenario = base_scenario(spec, spec_path)
        check_axes(spec, spec_path, read_toml(scenario_path), scenario_path)  # a bad spec leaves no folder behind
        writable_folder(folder)  # before the cells are played, not after them
        console = plain_console(stderr=as_json)
        with Progress(
            TextColumn(_("cells")), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=console, transient=True, disable=as_json,
        ) as bar:  # fmt: skip
            task = bar.add_task("sweep", total=total)
            rows = run_sweep(spec, spec_path, engine, workers, scheduler, lambda k: bar.update(task, advance=k))
        header = sweep_header(spec, spec_path)
        names = {side.id: str(side.name) for side in scenario.sides}
        files = write_table(rows, folder, "cells", header) + plot_sweep(spec, rows, folder, names, header)
        if as_json:
            document = {"run": header, "rows": rows, "files": [str(f) for f in files]}
            typer.echo(json_text(document, indent=1))
            return
        for table in sweep_tables(spec, rows, names):
            console.print(table)
        console.print(Text(_("wrote {path}", path=", ".join(str(f) for f in files))))
