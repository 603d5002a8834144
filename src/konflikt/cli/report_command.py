"""``konflikt report``: the two balancing reports the source texts ask for."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from konflikt.cli.render import plain_console
from konflikt.errors import KonfliktError

report_app = typer.Typer(
    help="Balancing reports the source texts ask for (tables, CSV and plots).", no_args_is_help=True
)


def _emit(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=1, default=str))


@report_app.command("levald-weapons")
def levald_weapons(
    n: Annotated[int, typer.Option("-n", min=1, help="Duels per ordered pair of weapons.")] = 2000,
    seed: Annotated[int, typer.Option(min=0, help="Seed.")] = 1,
    skills: Annotated[str, typer.Option(help="Skill levels in %, comma-separated.")] = "40,60,80",
    out: Annotated[Path, typer.Option(help="Folder for the CSV files and the plot.")] = Path("report-levald-weapons"),
    as_json: Annotated[bool, typer.Option("--json", help="Print the numbers as JSON.")] = False,
) -> None:
    """Le våld: a round robin of duels over the weapon table → a Bradley–Terry rating per weapon beside "Bra"."""
    from konflikt.reports.levald_weapons import weapon_report

    try:
        levels = [int(s) for s in skills.split(",") if s.strip()]
    except ValueError:
        raise KonfliktError(f"--skills takes whole numbers separated by commas, not {skills!r}") from None
    if not levels or any(not 1 <= s <= 200 for s in levels):
        raise KonfliktError(f"--skills takes levels from 1 to 200, not {skills!r}")
    console = plain_console(file=io.StringIO()) if as_json else plain_console()
    data = weapon_report(n, seed, levels, out, console)
    if not as_json:
        console.print("wrote " + ", ".join(data["files"]), highlight=False)
    _emit(data, as_json)


@report_app.command("fimbulfrost-opponents")
def fimbulfrost_opponents(
    n: Annotated[
        int, typer.Option("-n", min=1, help="Conflicts per opponent where exact odds are too large.")
    ] = 200_000,
    seed: Annotated[int, typer.Option(min=0, help="Seed.")] = 1,
    out: Annotated[Path, typer.Option(help="Folder for the CSV and the plot.")] = Path("report-fimbulfrost-opponents"),
    as_json: Annotated[bool, typer.Option("--json", help="Print the numbers as JSON.")] = False,
) -> None:
    """Fimbulfrost: the heroes' chance to win and the expected consequences, from the robber band to the dragon."""
    from konflikt.reports.fimbulfrost_opponents import opponent_report, print_report

    data = opponent_report(n, seed, out)
    if as_json:
        _emit(data, True)
        return
    console = plain_console()
    print_report(data, console)
    console.print("wrote " + ", ".join(data["files"]), highlight=False)


def register(app: typer.Typer) -> None:
    app.add_typer(report_app, name="report")
