"""``konflikt sim SCENARIO -n N``: Monte Carlo over many conflicts, with intervals a designer can trust."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from konflikt.cli.common import choose_seed, overrides_for, seat_overrides
from konflikt.core.batch import wilson
from konflikt.core.scenario import Scenario, load_scenario
from konflikt.sim.engine import SimResult, simulate


def _label(scenario: Scenario, winners: Any) -> str:
    names = {s.id: s.name for s in scenario.sides}
    if isinstance(winners, tuple):
        return " + ".join(str(names.get(w, w)) for w in winners) if winners else "nobody"
    return str(winners)


def summary_json(scenario: Scenario, result: SimResult, seed: int) -> dict[str, Any]:
    tally = result.tally

    def rows(counter: Any, label: Any = str) -> list[dict[str, Any]]:
        out = []
        for key, count in sorted(counter.items(), key=lambda kv: -kv[1]):
            low, high = wilson(count, tally.n)
            out.append({"outcome": label(key), "count": count, "p": count / tally.n, "ci95": [low, high]})
        return out

    return {
        "scenario": scenario.source,
        "seed": seed,
        "n": tally.n,
        "engine": result.engine,
        "note": result.note,
        "seconds": result.seconds,
        "interrupted": result.interrupted,
        "winners": rows(tally.winners, lambda w: _label(scenario, w)),
        "endings": rows(tally.endings),
        "participants": {pid: rows(c) for pid, c in tally.fates.items()},
        "length": tally.length_stats(),
        "resources": {k: {"mean": m, "se": se} for k, (m, se) in tally.resource_means().items()},
    }


FATE_ROWS = 8


def print_summary(console: Console, data: dict[str, Any]) -> None:
    head = f"{data['n']:,} conflicts in {data['seconds']:.2f} s ({data['note']})"
    if data["interrupted"]:
        head += " — stopped early; these are the conflicts done so far"
    console.print(head, highlight=False)

    def table(title: str, rows: list[dict[str, Any]]) -> Table:
        t = Table(title=title, title_justify="left")
        t.add_column("outcome")
        t.add_column("count", justify="right")
        t.add_column("share", justify="right")
        t.add_column("95% interval (Wilson)", justify="right")
        for r in rows:
            t.add_row(
                r["outcome"],
                f"{r['count']:,}",
                f"{r['p'] * 100:.2f}%",
                f"{r['ci95'][0] * 100:.2f}% – {r['ci95'][1] * 100:.2f}%",
            )
        return t

    console.print(table("who wins", data["winners"]))
    console.print(table("how it ended", data["endings"]))
    for pid, rows in data["participants"].items():
        shown = rows[:FATE_ROWS]
        if len(rows) > FATE_ROWS:
            rest = rows[FATE_ROWS:]
            count = sum(r["count"] for r in rest)
            low, high = wilson(count, data["n"])
            shown = [*shown, {"outcome": f"({len(rest)} other fates)", "count": count, "p": count / data["n"],
                              "ci95": [low, high]}]  # fmt: skip
        console.print(table(f"{pid}: fate", shown))
    if data["length"]:
        length = data["length"]
        console.print(
            f"length (rounds where the ruleset reports them, else steps): mean {length['mean']:.2f}, "
            f"median {length['p50']:.0f}, 10–90% {length['p10']:.0f}–{length['p90']:.0f}, longest {length['max']:.0f}",
            highlight=False,
        )
    if data["resources"]:
        t = Table(title="resources at the end (mean ± standard error)", title_justify="left")
        t.add_column("what")
        t.add_column("mean", justify="right")
        for name, v in data["resources"].items():
            t.add_row(name, f"{v['mean']:.3f} ± {v['se']:.3f}")
        console.print(t)


def register(app: typer.Typer) -> None:
    @app.command()
    def sim(
        scenario_name: Annotated[str, typer.Argument(metavar="SCENARIO", help="A scenario file, or RULESET/NAME.")],
        n: Annotated[int, typer.Option("-n", min=1, help="How many conflicts.")] = 10_000,
        seed: Annotated[int | None, typer.Option(help="Seed (same seed and n → same numbers, any --workers).")] = None,
        workers: Annotated[int, typer.Option(min=1, help="Processes to use.")] = 1,
        engine: Annotated[str, typer.Option(help="auto, reference or vectorised.")] = "auto",
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Rule option name=value.")] = None,
        policy: Annotated[list[str] | None, typer.Option("--policy", "-p", help="Seat policy seat=name.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Play a scenario many times and report outcomes with 95% intervals, length and resources."""
        scenario = load_scenario(scenario_name)
        overrides = overrides_for(scenario, option)
        policies = seat_overrides(scenario, policy)
        the_seed = choose_seed(seed, scenario)
        console = Console(stderr=as_json)
        with Progress(
            TextColumn("simulating"),
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

            result = simulate(scenario, n, the_seed, overrides, policies, engine, workers, advance)
        data = summary_json(scenario, result, the_seed)
        if as_json:
            typer.echo(json.dumps(data, ensure_ascii=False, indent=1))
        else:
            print_summary(Console(), data)


__all__ = ["register"]
