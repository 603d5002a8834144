"""``konflikt report``: the balancing reports the rulesets register (``Ruleset.reports``), listed from the registry.

The sub-commands are built when asked for (``konflikt report --help``, ``konflikt report levald-weapons``), not at
start-up: listing them imports every ruleset, which the other commands need not pay for.
"""

from __future__ import annotations

import io
import json
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperGroup

from konflikt.cli.common import over_budget, working
from konflikt.cli.i18n import _, whole
from konflikt.cli.render import plain_console
from konflikt.errors import KonfliktError
from konflikt.sim.header import writable_folder


def _reports() -> Any:
    import konflikt.reports

    return konflikt.reports


class ReportGroup(TyperGroup):
    """The reports of every ruleset as sub-commands, from the registry."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [found.key for found in _reports().all_reports()]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        return _command(_reports().find_report(cmd_name))  # an unknown name: one line naming the known ones


report_app = typer.Typer(
    cls=ReportGroup,
    help="Balancing reports the source texts ask for (tables, CSV and plots): `konflikt report` lists them.",
    invoke_without_command=True,
)


@report_app.callback()
def report_list(ctx: typer.Context) -> None:
    """Without a report's name: the list of every ruleset's reports."""
    if ctx.invoked_subcommand is not None:
        return
    console = plain_console()
    for found in _reports().all_reports():
        console.print(f"{found.key}: {found.report.title}", highlight=False)
    console.print(_("konflikt report NAME --help: what a report does and its options"), highlight=False)


def parse_levels(raw: str, low: int, high: int) -> list[int]:
    """``40,60,80`` → [40, 60, 80], each within the report's range; one line naming the input otherwise."""
    try:
        levels = [int(s) for s in raw.split(",") if s.strip()]
    except ValueError:
        raise KonfliktError(
            _("--levels takes whole numbers separated by commas, not {typed}", typed=repr(raw))
        ) from None
    if not levels or any(not low <= s <= high for s in levels):
        raise KonfliktError(
            _("--levels takes levels from {low} to {high}, not {typed}", low=low, high=high, typed=repr(raw))
        )
    return levels


def _command(found: Any) -> Any:
    """One report's sub-command, its defaults from the report's data."""
    report = found.report
    content = report.content
    unit = getattr(content, "level_unit", "")
    default_levels = ",".join(str(level) for level in content.levels)
    low, high = content.level_range
    default_out = Path(f"report-{found.key}")
    app = typer.Typer(add_completion=False)

    @app.command(name=found.key, help=report.summary, short_help=report.title)
    def run(
        # defaults built here, from the report's data (an annotation cannot see this function's variables)
        n: int = typer.Option(report.n, "-n", min=1, help="Conflicts per pairing, or per opponent where not exact."),
        seed: int = typer.Option(1, min=0, help="Seed."),
        levels: str = typer.Option(
            default_levels,
            "--levels",
            "--skills",
            help=f"Levels{f' in {unit}' if unit else ''}, comma-separated ({low}–{high}).",
        ),
        out: Path = typer.Option(default_out, help="Folder for the CSV files and the plot."),  # noqa: B008
        as_json: bool = typer.Option(False, "--json", help="Print the numbers as JSON."),
        strong: str | None = typer.Option(
            None,
            "--strong",
            help="Round robins: each entrant against the baseline again with every seat on this policy (rollout:8, "
            "mcts:50), beside the heuristic's standing.",
        ),
        strong_n: int = typer.Option(10, "--strong-n", min=1, help="Duels in each seat order under --strong."),
        force: bool = typer.Option(
            False, "--force", help="Play it even where it is over the budget of conflicts (Ctrl-C stops it)."
        ),
        scheduler: str | None = typer.Option(
            None,
            metavar="ADDRESS",
            help="Play the report's simulations on the Dask cluster of this scheduler (tcp://HOST:8786): the same "
            "numbers as here.",
        ),
    ) -> None:
        chosen = parse_levels(levels, low, high)
        planned = _reports().planned_conflicts(found, n, chosen)
        if planned > _reports().MAX_CONFLICTS and not force:
            raise over_budget(
                f"report {found.key}",
                planned,
                _reports().MAX_CONFLICTS,
                _("conflicts"),
                _("a smaller -n or fewer --levels"),
            )
        writable_folder(out)  # before the minutes of play, not after them
        console = plain_console(file=io.StringIO()) if as_json else plain_console()
        from konflikt.core.reports import RoundRobin

        quiet = isinstance(report.content, RoundRobin)  # a round robin prints its table as it goes
        from konflikt.sim.cluster import on_cluster

        with (
            on_cluster(scheduler),
            nullcontext()
            if quiet or as_json
            else working(_("report {name}: at most {count} conflicts", name=found.key, count=whole(planned))),
        ):
            data = _reports().run_report(found, n, seed, chosen, out, console, strong, strong_n)
        if as_json:
            typer.echo(json.dumps(data, ensure_ascii=False, indent=1, default=str))
        else:
            console.print(_("wrote {path}", path=", ".join(data["files"])), highlight=False)

    return typer.main.get_command(app)


def register(app: typer.Typer) -> None:
    app.add_typer(report_app, name="report")
