"""``konflikt sensitivity SCENARIO``: which rule option or participant's number moves the win chance most.

The work is :mod:`konflikt.reports.sensitivity`; this module reads the command line, says how many variants there
are and how each is answered (stderr), shows progress, and prints the ranking (a table, ``--json``, ``--plot``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from konflikt.cli.common import PolicyOption, RuleOption, ScenarioArgument, SetOption
from konflikt.cli.i18n import _, whole
from konflikt.core.i18n import number, percent
from konflikt.errors import KonfliktError
from konflikt.safe_text import json_text

if TYPE_CHECKING:
    from konflikt.core.odds import Probability
    from konflikt.core.scenario import Scenario
    from konflikt.reports.sensitivity import Progress, Ranking, Row

SHOWN_UNCHANGED = 12
"""Variants that change nothing exactly are named on one line, up to this many (all of them in --json)."""


def option_settings(option: list[str] | None) -> list[str]:
    """``-o NAME=VALUE`` as ``--set options.NAME=VALUE``: one path for the baseline's what-ifs, so a variant of
    the same option replaces it rather than being overridden by it."""
    out = []
    for text in option or []:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise KonfliktError(_("--option {typed} is not of the form name=value", typed=repr(text)))
        out.append(f"options.{name.strip()}={value}")
    return out


@contextmanager
def progress_bar(total: int) -> Iterator[Progress]:
    """A bar on stderr with the variant being answered, only where stderr is a terminal (never in pipes)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from konflikt.cli.render import plain_console

    console = plain_console(stderr=True)
    if not console.is_terminal or not sys.stderr.isatty():
        yield lambda done, total, what: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("variants", total=total)

        def tell(done: int, total: int, what: str) -> None:
            bar.update(task, completed=done, description=f"variants (Ctrl-C stops): {what}"[:70])

        yield tell


def _pct(p: Probability) -> str:
    return percent(100 * float(p), 2)


def _change(row_change: Probability, exact: bool) -> str:
    from konflikt.dice.distribution import fraction_text

    if exact and isinstance(row_change, Fraction):
        return ("+" if row_change > 0 else "") + fraction_text(row_change)
    shown = f"{100 * float(row_change):+.3f}"
    return ("±0.000" if shown in ("+0.000", "-0.000") else shown) + " pp"


def _value(value: object) -> str:
    from konflikt.reports.sensitivity import value_text

    return value_text(value)


def print_ranking(ranking: Ranking, exact: bool) -> None:
    """The table: a row per variant, its lever's rank first; the variants that change nothing exactly on a line."""
    from rich.table import Table
    from rich.text import Text

    from konflikt.cli.render import plain_console

    console = plain_console()
    base = ranking.baseline
    shown_base = _change_free(base.p, exact)
    if base.method == "exact":
        how = _("exact")
    else:
        how = _("≈ estimated from {count} conflicts ({engine})", count=whole(len(base.wins or ())), engine=base.engine)
    title = Text(
        _(
            "{title}: P({side} wins) = {chance} ({how})",
            title=ranking.title,
            side=ranking.side_name,
            chance=shown_base,
            how=how,
        )
    )
    table = Table(title=title, title_justify="left")
    estimated = any(r.method != "exact" for r in ranking.rows)
    table.add_column("#", justify="right", no_wrap=True, min_width=2)
    table.add_column("--set", no_wrap=True)  # a command to type again: kept whole
    table.add_column(_("was"), overflow="ellipsis", no_wrap=True, max_width=8)
    table.add_column(_("P(win)"), justify="right", no_wrap=True)
    table.add_column(_("change"), justify="right", no_wrap=True)
    if estimated:
        table.add_column(_("95% interval"), justify="right", no_wrap=True)
    unchanged: list[Row] = []
    rank = 0
    for _lever, rows in ranking.levers():
        moved = [r for r in rows if _moved(r, ranking)]
        unchanged += [r for r in rows if r not in moved]
        if not moved:
            continue
        rank += 1
        for i, row in enumerate(moved):
            cells = [
                Text(str(rank) if i == 0 else ""),
                Text(row.variant.setting),
                Text(_value(row.variant.before)),
                Text(_change_free(row.p, exact) + ("" if row.method == "exact" else " ≈")),
                Text(_change(row.change, exact)),
            ]
            if estimated:
                low_high = row.interval
                cells.append(Text(f"[{100 * low_high[0]:+.2f}, {100 * low_high[1]:+.2f}]" if low_high else ""))
            table.add_row(*cells, end_section=i == len(moved) - 1)
    console.print(table)
    if unchanged:
        names = ", ".join(r.variant.setting for r in unchanged[:SHOWN_UNCHANGED])
        more = ""
        if len(unchanged) > SHOWN_UNCHANGED:
            more = " " + _("and {count} more (--json)", count=len(unchanged) - SHOWN_UNCHANGED)
        if ranking.bound() is not None:
            nothing = _(
                "no change (within the floats' bound) ({count}): {names}{more}",
                count=len(unchanged),
                names=names,
                more=more,
            )
        else:
            nothing = _("no change ({count}): {names}{more}", count=len(unchanged), names=names, more=more)
        console.print(Text(nothing), style="dim")
    for variant, why in ranking.refused:
        console.print(Text(_("refused: --set {setting}: {why}", setting=variant.setting, why=why)), style="dim")
    for lever, why in ranking.skipped:
        console.print(Text(_("not varied: {lever}: {why}", lever=lever, why=why)), style="dim")
    notes = []
    bound = ranking.bound()
    if bound is not None:
        within = f"{bound:.1e}"
        notes.append(
            _("exact rows computed in floats, each chance within {bound} (a change within twice that)", bound=within)
        )
    if estimated:
        reasons = sorted({r.why for r in ranking.rows if r.method != "exact" and r.why})
        note = _(
            "≈ rows: the variant and the baseline played from the same seed (common random numbers); the change is "
            "the mean of the per-conflict differences, [its 95% interval]"
        )
        if reasons:
            note += "; " + _("out of exact reach: {reasons}", reasons="; ".join(reasons))
        notes.append(note)
    notes.append(
        _(
            "{count} variants in {seconds} s",
            count=len(ranking.rows) + len(ranking.refused),
            seconds=number(ranking.seconds, 1),
        )
    )
    for note in notes:
        console.print(Text(note), style="dim")


def _change_free(p: Probability, exact: bool) -> str:
    from konflikt.dice.distribution import fraction_text

    return fraction_text(p) if exact and isinstance(p, Fraction) else _pct(p)


def plot_ranking(ranking: Ranking, out: Path) -> Path:
    """A tornado plot: a bar per variant from no change to its change, the largest lever on top (matplotlib)."""
    if out.suffix.lower() not in (".png", ".svg"):
        raise KonfliktError(_("--plot {path}: name a .png or .svg file", path=out))
    import matplotlib.pyplot as plt

    from konflikt.sim import plots  # matplotlib without a screen, text kept as text in SVG

    levers = [(lever, rows) for lever, rows in ranking.levers() if any(_moved(r, ranking) for r in rows)]
    height = max(2.5, 0.42 * len(levers) + 1.4)
    fig, ax = plt.subplots(figsize=(8.5, height))
    for y, (_lever, rows) in enumerate(reversed(levers)):
        for row in rows:
            change = 100 * float(row.change)
            up = _is_up(row)
            colour = "tab:orange" if up else "tab:blue"
            ax.barh(y, change, left=0, height=0.6, color=colour, alpha=0.75)
            if row.interval is not None:
                low, high = (100 * x for x in row.interval)
                ax.errorbar(change, y, xerr=[[change - low], [high - change]], color="black", capsize=2, lw=0.8)
            ax.annotate(
                _value(row.variant.after),
                (change, y),
                xytext=(3 if change >= 0 else -3, 0),
                textcoords="offset points",
                ha="left" if change >= 0 else "right",
                va="center",
                fontsize="x-small",
            )
    ax.set_yticks(range(len(levers)), [lever for lever, _ in reversed(levers)], fontsize="small")
    ax.axvline(0, color="black", lw=0.8)
    from matplotlib.patches import Patch

    ax.legend(
        handles=[
            Patch(color="tab:orange", alpha=0.75, label="one step up, or yes"),
            Patch(color="tab:blue", alpha=0.75, label="one step down, no, or another choice"),
        ],
        fontsize="x-small",
        loc="lower right",
    )
    still = len(ranking.levers()) - len(levers)
    if still:
        fig.text(0.01, 0.01, f"{still} more varied without any change (not drawn)", fontsize="x-small")
    ax.set_xlabel(f"change in P({ranking.side_name} wins), percentage points")
    base = _pct(ranking.baseline.p)
    ax.set_title(f"{ranking.title}\nP({ranking.side_name} wins) = {base}; each bar one --set", fontsize="small")
    ax.grid(alpha=0.3, axis="x")
    xmin, xmax = ax.get_xlim()
    pad = 0.15 * max(xmax - xmin, 1e-6)
    ax.set_xlim(xmin - pad, xmax + pad)
    fig.tight_layout()
    plots._write(fig, out, [(out, {"dpi": 120})])
    return out


def _moved(row: Row, ranking: Ranking) -> bool:
    """Anything to show: a change beyond what floats could make of none (twice the bound), or an estimate (its
    interval is worth seeing even around 0)."""
    if row.method != "exact":
        return True
    bound = ranking.bound()
    return abs(float(row.change)) > (2 * bound if bound is not None else 0.0)


def _is_up(row: Row) -> bool:
    """A step up (or a yes) is drawn in one colour, a step down (a no, another choice) in the other."""
    before, after = row.variant.before, row.variant.after
    if isinstance(after, bool):
        return after
    if isinstance(after, int | float) and isinstance(before, int | float):
        return after > before
    return False


def describe(name: str, total: int, options: int, exact_seconds: float) -> str:
    """The line said before the work: how many variants, of what, and how each is answered."""
    from konflikt.safe_text import shown

    seconds = f"{exact_seconds:g}"
    return shown(
        _(
            "sensitivity of {name}: {total} variants ({options} of rule options, {numbers} of participants' numbers), "
            "each solved exactly where it can be within {seconds} s, else simulated from the same seed",
            name=name,
            total=total,
            options=options,
            numbers=total - options,
            seconds=seconds,
        ),
        newlines=False,
    )


def register(app: typer.Typer) -> None:
    @app.command()
    def sensitivity(
        scenario_name: ScenarioArgument,
        settings: SetOption = None,
        option: RuleOption = None,
        policy: PolicyOption = None,
        side: Annotated[
            str | None, typer.Option(help="The side whose win chance is ranked (id or name; default: the first).")
        ] = None,
        only: Annotated[
            list[str] | None,
            typer.Option(help="Vary only the paths holding this word (options.morale, budolf, status). Repeatable."),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON ('p/q' with --exact).")] = False,
        exact: Annotated[bool, typer.Option("--exact", help="Fractions instead of floats (slower).")] = False,
        plot: Annotated[Path | None, typer.Option(help="Also draw a tornado plot to this PNG/SVG.")] = None,
        max_states: Annotated[int | None, typer.Option(min=1, help="Give up exact odds above this.")] = None,
        exact_seconds: Annotated[
            float,
            typer.Option(min=0.1, help="Simulate a variant whose exact solve takes longer than this (seconds)."),
        ] = 10.0,
        timeout: Annotated[float | None, typer.Option(help="Give up after this many seconds in all.")] = None,
        seed: Annotated[int, typer.Option(help="Seed of the simulated variants (exact ones need none).")] = 0,
        n: Annotated[
            int | None,
            typer.Option(
                "-n", min=1, help="Conflicts per simulated variant (default 200,000 on a kernel, 2,000 else)."
            ),
        ] = None,
    ) -> None:
        """Which rule moves the balance: each rule option and each number of the participants varied one step
        (each --set a command of its own), ranked by how much the win chance moves.

        Exact where 'konflikt odds' is; else the variant and the baseline are played from the same seed (common
        random numbers) and each change has a 95% interval."""
        from konflikt.analysis.exact import DEFAULT_MAX_STATES
        from konflikt.cli.common import scenario_named, seat_overrides, time_limit
        from konflikt.cli.dice_commands import check_seed
        from konflikt.reports.sensitivity import Sensitivity, Settings, all_variants

        check_seed(seed)
        if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
            raise KonfliktError(_("--plot {path}: name a .png or .svg file", path=plot))
        base = [*option_settings(option), *(settings or [])]

        def load(more: Sequence[str]) -> Scenario:
            return scenario_named(scenario_name, [*base, *more])

        with time_limit(timeout, "sensitivity"):
            scenario = load([])
            chosen = seat_overrides(scenario, policy)
            run = Sensitivity(
                load,
                Settings(chosen, side, max_states or DEFAULT_MAX_STATES, exact, exact_seconds, n, seed),
            )
            variants, skipped = all_variants(scenario, only or ())
            options = sum(v.kind == "option" for v in variants)
            typer.echo(describe(scenario_name, len(variants), options, exact_seconds), err=True)
            with progress_bar(len(variants)) as tell:
                ranking = run.run(variants, tell)
            ranking.skipped = skipped
        if as_json:
            data = {"scenario": scenario.source, "set": base, "policy": policy or [], **ranking.to_json()}
            typer.echo(json_text(data, indent=1))
        else:
            print_ranking(ranking, exact)
        if plot is not None:
            typer.echo(_("wrote {path}", path=plot_ranking(ranking, plot)), err=True)
