"""``konflikt sim SCENARIO -n N``: Monte Carlo over many conflicts, with intervals a designer can trust."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from konflikt.cli.common import (
    PolicyOption,
    RuleOption,
    ScenarioArgument,
    SetOption,
    check_named,
    choose_seed,
    overrides_for,
    seat_overrides,
)
from konflikt.cli.i18n import _, ngettext, whole
from konflikt.cli.info_commands import listed_instead
from konflikt.cli.render import plain_console
from konflikt.core.batch import wilson
from konflikt.core.i18n import number, percent
from konflikt.core.scenario import load_scenario
from konflikt.errors import KonfliktError
from konflikt.safe_text import json_text

FATE_ROWS = 12


def interval_table(title: str, rows: list[dict[str, Any]], expected: bool = False) -> Table:
    t = Table(title=Text(title), title_justify="left")
    t.add_column(_("outcome"), overflow="fold")
    t.add_column(_("count"), justify="right")
    t.add_column(_("share"), justify="right")
    t.add_column(_("95% interval (Wilson)"), justify="right")
    if expected:
        t.add_column(_("expected count"), justify="right")
    for r in rows:
        cells: list[Text | str] = [Text(r["outcome"]), whole(r["count"]), percent(r["p"] * 100, 2)]
        cells.append(f"{percent(r['ci95'][0] * 100, 2)} – {percent(r['ci95'][1] * 100, 2)}")
        if expected:
            cells.append(number(r["expected"], 3))
        t.add_row(*cells)
    return t


def print_summary(console: Console, data: dict[str, Any], fates: bool = False) -> None:
    head = _(
        "{count} conflicts in {seconds} s ({note}), seed {seed}",
        count=whole(data["n"]),
        seconds=number(data["seconds"], 2),
        note=data["note"],
        seed=data["seed"],
    )
    if data["interrupted"]:
        head += " — " + _("stopped early; these are the conflicts done so far")
    console.print(head, highlight=False, markup=False, soft_wrap=True)  # one line, the reason for the engine in it
    console.print(interval_table(_("who wins"), data["winners"]))
    console.print(interval_table(_("how it ended"), data["endings"]))
    names = data["names"]
    for pid, rows in data["consequences"].items():
        title = _("{name}: chance of each consequence, and how many are taken on average", name=names.get(pid, pid))
        console.print(interval_table(title, rows, expected=True))
    if fates:
        for pid, rows in data["participants"].items():
            shown = rows[:FATE_ROWS]
            if len(rows) > FATE_ROWS:
                rest = rows[FATE_ROWS:]
                count = sum(r["count"] for r in rest)
                low, high = wilson(count, data["n"])
                other = ngettext("({n} other combination)", "({n} other combinations)", len(rest))
                shown = [*shown, {"outcome": other, "count": count, "p": count / data["n"], "ci95": [low, high]}]
            console.print(interval_table(_("{name}: whole fate (combinations)", name=names.get(pid, pid)), shown))
    if data["length"]:
        length = data["length"]
        unit = length["unit"]
        console.print(
            _(
                "length in {unit}: mean {mean}, median {median}, 10–90% {low}–{high}, longest {longest}",
                unit=unit,
                mean=number(length["mean"], 2),
                median=number(length["p50"]),
                low=number(length["p10"]),
                high=number(length["p90"]),
                longest=number(length["max"]),
            ),
            highlight=False,
            markup=False,
        )
    if data["resources"]:
        t = Table(title=_("resources at the end (mean ± standard error)"), title_justify="left")
        t.add_column(_("what"))
        t.add_column(_("mean"), justify="right")
        for name, v in data["resources"].items():
            t.add_row(Text(name), f"{number(v['mean'], 3)} ± {number(v['se'], 3)}")
        console.print(t)


def register(app: typer.Typer) -> None:
    @app.command()
    def sim(
        scenario_name: ScenarioArgument,
        n: Annotated[int, typer.Option("-n", min=1, help="How many conflicts.")] = 10_000,
        seed: Annotated[int | None, typer.Option(help="Seed (same seed and n → same numbers, any --workers).")] = None,
        workers: Annotated[int, typer.Option(min=1, help="Processes to use.")] = 1,
        engine: Annotated[str, typer.Option(help="auto, reference or vectorised.")] = "auto",
        scheduler: Annotated[
            str | None,
            typer.Option(
                metavar="ADDRESS",
                help="Run the conflicts as tasks on the Dask cluster of this scheduler (tcp://HOST:8786) instead of "
                "local processes: the same numbers as a local run for the same seed and -n.",
            ),
        ] = None,
        option: RuleOption = None,
        settings: SetOption = None,
        policy: PolicyOption = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        csv_path: Annotated[
            Path | None, typer.Option("--csv", help="Also write every row (with the run header) to this CSV file.")
        ] = None,
        fates: Annotated[bool, typer.Option("--fates", help="Also show whole fates (combinations).")] = False,
    ) -> None:
        """Play a scenario many times and report outcomes with 95% intervals, consequences, length and resources."""
        from konflikt.sim.engine import capped_workers, check_count, simulate
        from konflikt.sim.header import run_header, writable_file, write_text
        from konflikt.sim.summary import summarise, summary_csv

        check_count(n)  # before the scenario is read or a kernel built
        workers, note = capped_workers(workers)
        if note is not None:
            plain_console(stderr=True).print(note, highlight=False)
        if csv_path is not None and csv_path.is_dir():
            raise KonfliktError(_("--csv {path}: that is a folder; name a file", path=csv_path))
        if csv_path is not None:
            writable_file(csv_path)  # before the minutes of play, not after them
        if listed_instead(scenario_name, "sim", as_json):
            return
        check_named(scenario_name)
        scenario = load_scenario(scenario_name, settings=settings or ())
        overrides = overrides_for(scenario, option)
        policies = seat_overrides(scenario, policy)
        the_seed = choose_seed(seed, scenario)
        console = plain_console(stderr=as_json)
        with Progress(
            TextColumn(_("simulating")),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=as_json,
        ) as bar:
            task = bar.add_task("sim", total=n, rate="")
            done = 0

            def advance(count: int) -> None:
                nonlocal done
                done += count
                elapsed = bar.tasks[0].elapsed or 1e-9
                bar.update(task, advance=count, rate=f"{done / elapsed:,.0f}/s")

            result = simulate(scenario, n, the_seed, overrides, policies, engine, workers, advance, scheduler)
        header = run_header(scenario, overrides, policies, the_seed, result.tally.n, result.engine)
        data = summarise(scenario, result, header)
        if csv_path is not None:
            write_text(csv_path, summary_csv(data))
        if as_json:
            typer.echo(json_text(data, indent=1))
        else:
            print_summary(plain_console(), data, fates)
            if csv_path is not None:
                console.print(Text(_("wrote {path}", path=csv_path)))


__all__ = ["register"]
