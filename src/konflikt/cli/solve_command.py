"""``konflikt solve SCENARIO``: each side's win probability under optimal play beside the heuristic's, the gap, and
the decisions where the heuristic gives most away (``konflikt.analysis.optimal_solve``)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from konflikt.cli.common import (
    ForceOption,
    RuleOption,
    ScenarioArgument,
    SetOption,
    overrides_for,
    scenario_named,
    working,
)
from konflikt.cli.i18n import _, whole
from konflikt.cli.info_commands import listed_instead
from konflikt.cli.render import plain_console
from konflikt.core.i18n import current, number, percent
from konflikt.errors import KonfliktError

BUDGET_SECONDS = 5.0
"""How long the State-API search may run, unasked, before ``solve`` says the scenario is out of reach: a conflict
that is solved at all is solved within it (the knife fight to 3 exchanges: 2 s), while a skirmish of four or PWGE's
shootout meet a few hundred states in it with no end in sight (they ran 61 s, then refused)."""
FORCED_SECONDS = 600.0
"""How long ``--force`` searches (``--seconds`` sets it)."""


def _pp(x: float) -> str:
    """Percentage points with their sign, the language's way (``+1.5 pp``, ``+1,5 p.e.``)."""
    value = 100 * x
    signed = f"{value:+.1f}" if current() in ("en", "both") else ("+" if value >= 0 else "−") + number(abs(value), 1)
    return _("{value} pp", value=signed)


def register(app: typer.Typer) -> None:
    @app.command()
    def solve(
        scenario_name: ScenarioArgument,
        json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
        exact: Annotated[
            bool, typer.Option("--exact", help="Fractions where the State API answers (the round game is in floats).")
        ] = False,
        option: RuleOption = None,
        settings: SetOption = None,
        seconds: Annotated[
            float | None,
            typer.Option(
                "--seconds",
                min=1,
                max=86_400,
                help=f"Search time before giving up (State API; default {BUDGET_SECONDS:g} s, with --force "
                f"{FORCED_SECONDS:g} s).",
            ),
        ] = None,
        force: ForceOption = False,
        at_opening: Annotated[
            bool,
            typer.Option(
                "--at-opening",
                help="Rank the first decision's choices, from the solved game on disk or "
                "solved in the background (the heuristic's ranking until it is ready).",
            ),
        ] = False,
        wait: Annotated[
            float, typer.Option(min=0, max=86_400, help="With --at-opening: wait this long for the solved game.")
        ] = 5.0,
    ) -> None:
        """Optimal play: each side's win chance with both optimal, its best response to the other's heuristic,
        the heuristic's own, the gap, and the decisions where the heuristic gives most away."""
        from konflikt.analysis.optimal import TooLargeToSolve
        from konflikt.analysis.optimal_solve import solver_for
        from konflikt.core.conflict import new_state

        if listed_instead(scenario_name, "solve", json_out):
            return
        scenario = scenario_named(scenario_name, settings)
        overrides = overrides_for(scenario, option)
        if at_opening:
            from konflikt.cli.solve_opening import at_opening as rank_opening

            return rank_opening(scenario, overrides, wait, seconds, json_out)
        state = new_state(scenario, overrides)
        state.quiet = True
        budget = seconds if seconds is not None else (FORCED_SECONDS if force else BUDGET_SECONDS)
        try:
            limit = f"{budget:g}"
            with working(
                _("solving {scenario} (at most {seconds} s of search)", scenario=scenario_name, seconds=limit)
            ):
                report = solver_for(scenario, state, max_seconds=budget).report(exact)
        except TooLargeToSolve as exc:
            if seconds is None and not force:
                forced = f"{FORCED_SECONDS:g}"
                raise KonfliktError(
                    _(
                        "cannot solve {scenario} within the budget of {seconds} s: the search met {states} states with "
                        "no end in sight; --force searches for up to {forced} s (--seconds S for another limit), or "
                        "'konflikt sim' and the mcts policy estimate it",
                        scenario=scenario_name,
                        seconds=limit,
                        states=whole(exc.seen),
                        forced=forced,
                    )
                ) from None
            raise KonfliktError(
                _(
                    "cannot solve {scenario}: {why}; use 'konflikt sim' or the mcts policy",
                    scenario=scenario_name,
                    why=exc,
                )
            ) from None
        except KonfliktError as exc:
            raise KonfliktError(_("cannot solve {scenario}: {why}", scenario=scenario_name, why=exc)) from None
        console = plain_console()
        if json_out:
            console.print_json(json.dumps(report.to_json(), ensure_ascii=False))
            return
        console.print(
            _("{title}: optimal play ({method})", title=report.title, method=report.method),
            style="bold",
            highlight=False,
        )
        console.print(report.scope, highlight=False)
        console.print(_("objective: {objective}", objective=report.objective), highlight=False)
        console.print(report.zero_sum_words(), highlight=False)
        table = Table(title=_("win probability"))
        table.add_column(_("side"), justify="left")
        for col in (_("heuristic (both)"), _("best response vs heuristic"), _("gap"), _("both optimal")):
            table.add_column(col, justify="right")
        for row in report.rows:
            table.add_row(
                row.name,
                percent(100 * row.heuristic, 2),
                percent(100 * row.best_response, 2),
                _pp(row.gap),
                percent(100 * row.optimal, 2),
            )
        console.print(table)
        for row in report.rows:
            for what, value in row.exact.items():
                console.print(f"  {row.name} {what}: {value}", highlight=False)
        nobody = report.nobody
        if max(nobody.values(), default=0) > 0:
            console.print(
                _(
                    "nobody wins: {heuristic} (heuristic), {optimal} (both optimal)",
                    heuristic=percent(100 * nobody["heuristic"], 3),
                    optimal=percent(100 * nobody["optimal"], 3),
                ),
                highlight=False,
            )
        if report.error_bound == 0 and exact:
            bound = _("exact (Fractions)")
        else:
            error = f"{report.error_bound:.1e}"
            bound = _("error ≤ {bound}", bound=error)
        console.print(
            _(
                "{states} states, {seconds} s CPU; {bound}",
                states=whole(report.states),
                seconds=number(report.seconds, 1),
                bound=bound,
            ),
            highlight=False,
        )
        if report.losses:
            console.print(_("where the heuristic gives most away (against the other side's heuristic):"), style="bold")
            for x in report.losses:
                console.print(
                    "  "
                    + _(
                        "{seat} at {where}: the heuristic chooses {heuristic}; better {optimal} ({loss} of win − loss "
                        "there; met with p={reach})",
                        seat=x.seat,
                        where=x.where,
                        heuristic=x.heuristic,
                        optimal=x.optimal,
                        loss=_pp(x.loss),
                        reach=number(x.reach, 2),
                    ),
                    highlight=False,
                    markup=False,
                )
