"""``konflikt bench``: our speed beside icepool's and beside our own reference runner, in one run."""

from __future__ import annotations

import json
import os
import platform
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from konflikt.cli.i18n import _
from konflikt.cli.render import plain_console
from konflikt.errors import KonfliktError


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def register(app: typer.Typer) -> None:
    @app.command()
    def bench(
        ctx: typer.Context,
        quick: Annotated[bool, typer.Option(help="Shorter timings (noisier).")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        serve: Annotated[
            bool, typer.Option("--serve", help="Load-test 'konflikt serve' on 127.0.0.1 with simulated pages.")
        ] = False,
        tables: Annotated[int, typer.Option(help="--serve: tables played at once.")] = 50,
        seats: Annotated[int, typer.Option(help="--serve: pages a table (the GM's and the players').")] = 4,
        seconds: Annotated[float, typer.Option(help="--serve: seconds of play for each scenario.")] = 20.0,
        scenario: Annotated[
            list[str] | None,
            typer.Option(help="--serve: a bundled scenario (repeat for several); one of each ruleset by default."),
        ] = None,
        long_log: Annotated[
            bool,
            typer.Option("--long-log", help="--serve: also p95 a tap at a table's start and after 1,000 steps."),
        ] = False,
        startup: Annotated[bool, typer.Option("--startup", help="Only the start-up times.")] = False,
        memory: Annotated[
            bool,
            typer.Option("--memory", help="Only peak memory at 10⁶, 10⁸ and 10⁹ conflicts (minutes; stops itself)."),
        ] = False,
    ) -> None:
        """Time exact dice questions against icepool and conflicts per second against the reference runner."""
        from konflikt.cli.startup_bench import measure_startup, startup_table

        if startup + memory + serve > 1:
            raise KonfliktError(_("one of --startup, --memory and --serve at a time"))
        given = [name for name in ("tables", "seats", "seconds", "scenario", "long_log")
                 if getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"]  # fmt: skip
        if given and not serve:  # not ignored while another bench runs for minutes
            raise KonfliktError(_("--{option} goes with --serve", option=given[0].replace("_", "-")))

        if startup:
            started = measure_startup(3 if quick else 5)
            if as_json:
                typer.echo(json.dumps({"startup": started}, indent=1))
            else:
                plain_console().print(startup_table(started))
            return
        if serve:
            serve_bench(tables, seats, seconds, scenario or [], as_json, long_log)
            return
        if memory:
            memory_bench(as_json)
            return
        console = plain_console(stderr=as_json)
        with console.status("measuring…"):
            from konflikt.sim.bench import run_bench

            data = run_bench(quick)
            data["startup"] = measure_startup(3 if quick else 5)
        with console.status("measuring workers, Dask and memory…"):
            from konflikt.sim.bench_scale import scale_bench

            data.update(scale_bench(quick))
        data["machine"] = f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}"
        if as_json:
            typer.echo(json.dumps(data, indent=1))
            return
        out = plain_console()
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
        cols = ("scenario", "reference", "vectorised", "× reference", "÷ numpy raw", "target", "first call",
                "dice/conflict", "numpy limit")  # fmt: skip
        for col in cols:
            t.add_column(col, justify="right" if col != "scenario" else "left")
        for r in data["conflicts"]:
            ratio = "-" if r["speedup"] is None else f"{r['speedup']:,.0f}×"
            t.add_row(
                r["scenario"],
                _rate(r["reference_per_s"]),
                _rate(r["vectorised_per_s"]),
                ratio,
                _share(r.get("ratio")) + ("" if r.get("meets_target") is not False else " (below)"),
                "-" if r.get("target_ratio") is None else f"≥ {_share(r['target_ratio'])}",
                "-"
                if r.get("first_call_s") is None
                else f"{r['first_call_s']:.1f} s, {r['first_call_cached_s']:.1f} s"
                + ("" if r.get("warmup_s") is None else f"; warm-up {r['warmup_s']:.1f} s"),
                f"{r['dice_per_conflict']:.1f}",
                _rate(r["physical_limit_per_s"]),
            )
        out.print(t)
        out.print(
            "÷ numpy raw: conflicts per second over numpy's raw random integers per second in this run; "
            "first call: a fresh process's first 1,000 conflicts, with an empty compiled-code cache and then cached; "
            "warm-up: this process's first 101,000 (tables filled), timed apart from the rate",
            highlight=False,
        )
        if data["exact_odds"]:
            t = Table(title="exact whole-conflict odds (CPU seconds, one core)", title_justify="left")
            columns = (
                "scenario",
                "target",
                "model, floats",
                "model, exact",
                "saved, steps in: s (≤ 1 s)",
                "State API",
                "states",
            )
            for col in (*columns, "vs sim"):
                t.add_column(col, justify="right" if col != "scenario" else "left")
            for r in data["exact_odds"]:
                target = "-" if r["target_s"] is None else f"≤ {r['target_s']:g} s"
                cells = [_seconds(r.get(k)) for k in ("float", "exact", "saved_at", "state_api")]
                states = r["exact"].get("states") or r.get("state_api", {}).get("states")
                check = r.get("vs_sim")
                versus = "-" if check is None else f"{check['worst_se']:.1f} SE of {check['n']:,}"
                t.add_row(r["scenario"], target, *cells, "-" if states is None else f"{states:,}", versus)
            out.print(t)
            out.print(
                "vs sim: the worst winner or ending share of that many simulated conflicts, in standard errors of the "
                "exact probability (issue 21: within 4)",
                highlight=False,
            )
            for r in data["exact_odds"]:
                if r.get("table_values") is not None:
                    out.print(table_values_line(r["scenario"], r["table_values"]), highlight=False, markup=False)
        out.print(table_odds_table(data.get("table_odds", [])))
        out.print(startup_table(data["startup"]))
        print_scale(data)
        out.print(
            f"numpy raw random integers: {data['numpy_random_integers_per_s']:,.0f}/s; "
            f"peak memory {data['peak_memory_mb']:.0f} MB; {data['machine']}",
            highlight=False,
        )


def memory_bench(as_json: bool) -> None:
    """``bench --memory``: peak RSS of ``sim --workers 2`` at 10⁶, 10⁸ and 10⁹ conflicts, a fresh process each."""
    from konflikt.sim.bench_scale import MEMORY_SIZES, memory_rows

    with plain_console(stderr=True).status("peak memory at 10⁶, 10⁸ and 10⁹ conflicts (minutes)…"):
        rows = memory_rows(MEMORY_SIZES["memory"])
    machine = f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}"
    data = {"memory": rows, "load_average": list(os.getloadavg()), "cores": os.cpu_count(), "machine": machine}
    if as_json:
        typer.echo(json.dumps(data, indent=1))
    else:
        plain_console().print(memory_table(rows))


def memory_table(rows: list[dict[str, Any]]) -> Table:
    """Peak memory against ``-n``: a row stopped by the time limit says how many of the conflicts asked it played."""
    t = Table(title="peak memory against -n (a fresh process each)", title_justify="left")
    for col in ("scenario", "n", "workers", "seconds", "parent", "busiest worker"):
        t.add_column(col, justify="right" if col != "scenario" else "left")
    for r in rows:
        worker = "-" if r["worker_mb"] is None else f"{r['worker_mb']:.0f} MB"
        n = f"{r['n']:,}" + (f" of {r['asked']:,} (stopped)" if r["interrupted"] else "")
        t.add_row(r["scenario"], n, str(r["workers"]), f"{r['s']:.1f}", f"{r['parent_mb']:.0f} MB", worker)
    return t


def print_scale(data: dict[str, Any]) -> None:
    """The "every core" tables: workers and Dask against one process, peak memory against ``-n``, coverage."""
    out = plain_console()
    t = Table(title="sim --workers: one process against several (same seed, same numbers)", title_justify="left")
    cols = ("scenario", "n", "1 worker", "workers", "scaling", "on idle cores", "CPU overhead", "tail", "start-up",
            "load")  # fmt: skip
    for col in cols:
        t.add_column(col, justify="right" if col != "scenario" else "left")
    for r in data["scaling"]:
        start = r.get("startup") or {}
        t.add_row(
            r["scenario"],
            f"{r['n']:,}",
            f"{r['one_worker_s']:.2f} s",
            f"{r['workers_s']:.2f} s ({r['workers']})",
            f"{r['scaling']:.2f}× (target {r['target']:g}×)",
            "-" if r["cpu_scaling"] is None else f"{r['cpu_scaling']:.2f}×",
            "-" if r["cpu_overhead"] is None else f"{r['cpu_overhead']:+.0%}",
            f"{r['timeline']['tail_s'] * 1000:.0f} ms" if r.get("timeline") else "-",
            f"{start['kernel_s']:.2f} s + {start['pool_s']:.2f} s" if start else "-",
            f"{r['load_average'][0][0]:.1f} on {r['cores']} cores",
        )
    out.print(t)
    out.print(
        "tail: how long one worker idled while the other ended its last task; start-up (not in the times): the "
        "kernel built and compiled + the pool started, once a program",
        highlight=False,
    )
    for r in data["scaling"]:
        if r.get("pairs"):
            ratios = ", ".join(f"{ratio:.2f}×" for ratio in r["pairs"])
            out.print(f"{r['scenario']}: interleaved pairs {ratios}; the row is the median pair", highlight=False)
    print_dask(out, data["dask"])
    out.print(memory_table(data["memory"]))
    t = Table(title="bundled scenarios: the engine sim uses", title_justify="left")
    for col in ("scenario", "engine", "why the kernel refuses it"):
        t.add_column(col)
    for r in data["coverage"]:
        t.add_row(r["scenario"], r["engine"], r["why"] or "")
    out.print(t)


def print_dask(out: Console, d: dict[str, Any]) -> None:
    """The Dask row: a sweep on one worker against a LocalCluster's two (or why it was not measured)."""
    if "skipped" in d:
        out.print(f"sweep --engine dask: not measured ({d['skipped']})", highlight=False, markup=False)
        return
    start = d.get("startup") or {}
    started = (
        f"; start-up (not in the times) {start['cluster_s']:.1f} s cluster, {max(start['first_cell_s']):.1f} s a "
        "worker's first cell"
        if start
        else ""
    )
    out.print(
        f"sweep --engine dask, LocalCluster of {d['workers']}: {d['sweep']} ({d['cells']} cells × {d['n_per_cell']:,}) "
        f"{d['one_worker_s']:.1f} s on 1 worker, {d['workers_s']:.1f} s on {d['workers']}: efficiency "
        f"{d['efficiency']:.1%} (target {d['target']:.0%}"
        + (f"; median of the pairs {', '.join(f'{e:.1%}' for e in d['pairs'])}" if d.get("pairs") else "")
        + "), on idle cores "
        + ("-" if d["cpu_efficiency"] is None else f"{d['cpu_efficiency']:.0%}")
        + started
        + f"; load {d['load_average'][1][0][0]:.1f}",
        highlight=False,
    )


def _share(value: float | None) -> str:
    """A ratio well below one as ``1/N`` (the issue states its targets so)."""
    return "-" if not value else f"1/{1 / value:,.0f}"


def table_odds_table(rows: list[dict[str, Any]]) -> Table:
    """``odds`` at the table's prompts: each bundled scenario at the opening and steps 3, 10 and 40, the seconds
    and whether exact or how many conflicts the estimate played (target: ≤ 1.5 s, exact or n ≥ 10,000)."""
    from konflikt.sim.bench import TABLE_STEPS

    t = Table(
        title="odds at the table: who wins from here (wall seconds; exact, or ≈ n conflicts; ✗ below target)",
        title_justify="left",
    )
    t.add_column("scenario")
    for steps in TABLE_STEPS:
        t.add_column("opening" if steps == 0 else f"step {steps}", justify="right")
    for row in rows:
        cells = {c["steps"]: c for c in row["at"]}
        shown = []
        for steps in TABLE_STEPS:
            c = cells.get(steps)
            if c is None:
                shown.append("(over)")
                continue
            how = "exact" if c["exact"] else f"≈ n={c['n']:,}"
            shown.append(f"{c['s']:.2f} s, {how}" + ("" if c["meets"] else " ✗"))
        t.add_row(row["scenario"], *shown)
    return t


def table_values_line(scenario: str, cell: dict[str, Any]) -> str:
    """The table's question by prepared values: the preparation's seconds, then each saved state's answer."""
    answers = ", ".join(
        f"{c['steps']}: {c['s']:.2f} s" + ("" if c["method"] == "exact" else f" ({c['method']})") for c in cell["at"]
    )
    return (
        f"{scenario} at the table (who wins from here, by values prepared in {cell['prepare_s']:.1f} s, "
        f"≤ {cell['target_s']:g} s each): {answers or '-'}"
    )


def _seconds(cell: dict[str, Any] | list[dict[str, Any]] | None) -> str:
    """A cell of the exact-odds table: seconds, with the solver that answered; or why there is no answer."""
    if cell is None:
        return "-"
    if isinstance(cell, list):  # from saved states: steps in → seconds
        return ", ".join(f"{c['steps']}: {_seconds(c)}" for c in cell) or "-"
    if cell["s"] is None and "within" in cell.get("why", ""):
        return "over the limit"
    if cell["s"] is None:
        return "too many states"
    return f"{cell['s']:.2f} s" + ("" if cell.get("method") == "model" else " (State API)")


def serve_bench(
    tables: int, seats: int, seconds: float, scenarios: list[str], as_json: bool, long_log: bool = False
) -> None:
    """``bench --serve``: step latency of the browser table under simulated players, one row a scenario."""
    from konflikt.core.scenario import bundled_examples
    from konflikt.web.bench import LONG_STEPS, SCENARIOS, check_sizes, run_long_log_bench, run_serve_bench

    check_sizes(tables, seats, seconds)
    names = scenarios or list(SCENARIOS)
    for name in names:
        if not (bundled_examples() / f"{name}.toml").is_file() or name.startswith("sweeps/"):
            raise KonfliktError(f"--scenario {name[:60]!r}: not a bundled scenario (e.g. {SCENARIOS[0]})")
    runs = []
    status = plain_console(stderr=True)
    for name in names:
        with status.status(f"{name}: {tables} tables × {seats} pages on 127.0.0.1 for {seconds:g} s…"):
            runs.append(run_serve_bench(tables, seconds, scenario=name, seats=seats).to_json())
    data: dict[str, Any] = {
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores",
        "runs": runs,
    }
    if long_log:  # the web's own module measures; this prints it
        with status.status(f"one table at its start, then one {LONG_STEPS:,} steps long, {seconds:g} s each…"):
            data["long_log"] = run_long_log_bench(seconds)
    if as_json:
        typer.echo(json.dumps(data, indent=1))
        return
    t = Table(title="konflikt serve: step latency, choice sent → last page of the table updated", title_justify="left")
    t.add_column("")
    for run in runs:  # one column a scenario, headed by its ruleset (the scenarios are named below)
        t.add_column(run["scenario"].split("/")[0], justify="right")
    rows: list[tuple[str, Any]] = [
        ("tables × pages", lambda r: f"{r['tables']} × {r['pages'] // r['tables']}"),
        ("choices sent", lambda r: f"{r['steps']:,}"),
        *(
            (f"{q} latency", lambda r, k=f"{q}_ms": "-" if r[k] is None else f"{r[k]:,.1f} ms")
            for q in ("p50", "p95", "p99")
        ),
        (
            "server CPU a step",
            lambda r: "-" if r["server_cpu_ms_per_step"] is None else f"{r['server_cpu_ms_per_step']:.2f} ms",
        ),
        (
            "server memory (peak)",
            lambda r: "-" if r["server_peak_rss_mb"] is None else f"{r['server_peak_rss_mb']:.0f} MB",
        ),
        ("conflicts finished", lambda r: str(r["finished"])),
        ("load before → after", lambda r: f"{r['load_average_before'][0]:.1f} → {r['load_average'][0]:.1f}"),
    ]
    for label, cell in rows:
        t.add_row(label, *(cell(run) for run in runs))
    out = plain_console()
    out.print(t)
    refused = sum(run["refused"] for run in runs)
    out.print(
        f"{', '.join(run['scenario'] for run in runs)}; {seconds:g} s each on {data['machine']}; load average "
        "(1 minute) before and after each run: the machine's, not konflikt's"
        + (f"; {refused} messages refused" if refused else ""),
        highlight=False,
    )
    if long_log:
        long = data["long_log"]
        out.print(
            f"one {long['scenario']} table, p95 a tap: {long['start_p95_ms']} ms at its start, "
            f"{long['after_p95_ms']} ms after {long['grown_to_step']:,} steps (× {long['ratio']})",
            highlight=False,
        )
