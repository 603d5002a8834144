""" "Is there a dominant choice?" (:class:`konflikt.core.reports.Choices`): each kind of decision under optimal play.

For each scenario the report solves the game with both sides optimal (:class:`konflikt.analysis.optimal_solve.Solver`
over the ruleset's round game) and walks the equilibrium's play: every decision met, weighted by the chance of
meeting it, counts for the option chosen. Beside each option's share stands what choosing otherwise costs where the
equilibrium picks it: the best choice of another option, in percentage points of the deciding side's win − loss
(the solver's objective; with no draw that is twice the win chance). An option chosen nearly always, whose
alternatives cost much, is dominant; an option never chosen is dominated.

Where conceding is an option (:attr:`~konflikt.core.reports.Choices.concede`), the report says at which decisions it
is as good as the best choice (costs nothing: the side cannot win either way) and what it costs elsewhere. The
objective counts wins only: what conceding saves (consequences) is not in it, and the report says so.

A scenario out of the solver's reach is named with the reason, not estimated (the search policy, ``mcts``, answers
one decision at a time: ``advise`` at the table).
"""

from __future__ import annotations

import csv
import io
import math
import time
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import numpy as np

from konflikt.analysis import optimal_model as om
from konflikt.analysis.optimal import score
from konflikt.core.conflict import new_state
from konflikt.core.i18n import number, percent
from konflikt.core.messages import _
from konflikt.core.reports import Choices, Report
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE, SIMULTANEOUS, TERMINAL
from konflikt.errors import KonfliktError
from konflikt.sim.header import write_text

CONCEDE_TIE = 1e-9
"""Conceding is "right" where it costs no more than this (the solver's values are within 10⁻¹² of exact)."""
TOP_STATES = 5
MAX_DECISIONS = 20_000
"""Steps of one conflict of heuristic play walked by the rollout tally before it gives up on that conflict."""


def _option(content: Choices, choice: Hashable) -> str | None:
    found = content.group(choice)
    return None if found is None else found[1]


def _solver(name: str) -> Any:
    from konflikt.analysis.optimal_solve import Solver

    scenario = load_scenario(name)
    state = new_state(scenario, {})
    state.quiet = True
    return scenario, Solver(scenario, state)


def scenario_choices(name: str, content: Choices) -> dict[str, Any]:
    """One scenario's tally (see the module)."""
    try:
        scenario, solver = _solver(name)
    except KonfliktError as exc:
        return {"scenario": name, "method": "none", "note": str(exc)}
    if solver.game is None or solver.explored is None or solver.root is None:
        return {
            "scenario": name,
            "method": "none",
            "note": _("optimal play is out of reach here (no round game for this conflict): not reported"),
        }
    game, ex = solver.game, solver.explored
    everyone = list(range(len(solver.sides)))
    sol = solver.game_solution(everyone)
    met = om.reach(sol, *solver.root)
    picked: dict[tuple[str, str], float] = {}
    cost: dict[tuple[str, str], float] = {}
    decisions: dict[str, float] = {}
    concede: dict[str, Any] = {"right": 0.0, "open": 0.0, "cost": 0.0, "states": []}
    for (u, rounds), p in met.items():
        if u in ex.ended or p < 1e-12:
            continue
        k = ex.node[0][(u, ())]
        made: tuple[Hashable, ...] = ()
        for level, seat in enumerate(game.turns):
            options = om.q_values(sol, u, rounds, made)
            if not options:
                break
            k = int(sol.picks[rounds][level][k])
            chosen = ex.choice[level + 1][k]
            side = solver.side_of.get(seat)
            mine = content.group(chosen)
            if side is not None and mine is not None and len(options) > 1:
                scores = {c: float(score(tuple(v), side)) for c, v in options}
                kind, option = mine
                others = [s for c, s in scores.items() if _option(content, c) not in (None, option)]
                if others:
                    decisions[kind] = decisions.get(kind, 0.0) + p
                    picked[mine] = picked.get(mine, 0.0) + p
                    cost[mine] = cost.get(mine, 0.0) + p * (scores[chosen] - max(others))
                if content.concede is not None:
                    gave = [
                        s for c, s in scores.items() if (g := content.group(c)) is not None and g[1] == content.concede
                    ]
                    if gave:
                        loss = max(scores.values()) - max(gave)
                        concede["open"] += p
                        if loss <= CONCEDE_TIE:
                            concede["right"] += p
                        if loss <= CONCEDE_TIE and p >= 1e-6:
                            words = getattr(game, "describe_state", None)
                            where = str(words(ex.states[u])) if words is not None else repr(ex.states[u])
                            concede["states"].append({"seat": seat, "where": where, "reach": p})
                        elif loss > CONCEDE_TIE:
                            concede["cost"] += p * loss
            if chosen is None:
                break
            made = (*made, chosen)
    rows = []
    for (kind, option), p in sorted(picked.items(), key=lambda item: (item[0][0], -item[1])):
        rows.append(
            {
                "kind": kind,
                "option": option,
                "share": p / decisions[kind],
                "alternative_cost_pp": 100 * cost[(kind, option)] / p,
            }
        )
    out: dict[str, Any] = {
        "scenario": name,
        "title": scenario.title,
        "method": "optimal",
        "scope": solver.scope,
        "rows": rows,
        "decisions": decisions,
    }
    if content.concede is not None:
        concede["states"] = sorted(concede["states"], key=lambda s: -s["reach"])[:TOP_STATES]
        opened = concede["open"]
        out["concede"] = {
            "open": opened,
            "right_share": concede["right"] / opened if opened else 0.0,
            "cost_elsewhere_pp": 100 * concede["cost"] / (opened - concede["right"])
            if opened > concede["right"]
            else 0.0,
            "states": concede["states"],
            "note": _("wins only: what conceding saves (consequences, the scene on one's own terms) is not counted"),
        }
    return out


def rollout_choices(name: str, content: Choices, n: int, seed: int) -> dict[str, Any]:
    """One scenario's tally by one step of policy improvement (see :mod:`konflikt.analysis.rollout`): ``n``
    conflicts of heuristic play; at each decision of a seat with a side and more than one option, every option is
    scored by ``content.playouts`` seeded playouts, the improved choice counted beside the heuristic's, and what the
    best option of another kind costs where the improved choice is taken (with its paired standard error)."""
    from konflikt.analysis.rollout import OVERRIDE_Z, improved_choice, paired, score_choices
    from konflikt.analysis.search_policy import heuristic_of

    scenario = load_scenario(name)
    picked: dict[tuple[str, str], list[float]] = {}  # improved picks, heuristic picks, cost sum, cost variance sum
    decisions: dict[str, int] = {}
    gain: dict[str, list[float]] = {}  # improved − heuristic: sum, variance sum
    began = time.process_time()
    for k in range(n):
        rng = np.random.default_rng([seed, k])
        state = new_state(scenario, {})
        state.quiet = True
        policy = heuristic_of(state)
        for _step in range(MAX_DECISIONS):
            node = state.current_player()
            if node == TERMINAL:
                break
            if node == CHANCE:
                roll = state.pending_roll()
                assert roll is not None
                state.apply_action(roll.sample(rng), checked=False)
                continue
            seats = state.waiting_for() if node == SIMULTANEOUS else (node,)
            usual = {seat: policy.choose(state, seat, rng) for seat in seats}
            for seat in seats:
                legal = list(state.legal_actions(seat))
                kind = content.decision([a.kind for a in legal]) if content.decision is not None else None
                if kind is None or len(legal) < 2 or state.side_of(seat) is None:
                    continue
                scored = score_choices(state, seat, content.playouts, int(rng.integers(2**63)))
                chosen = improved_choice(scored, usual[seat])
                mine = next(s for s in scored if s.action == usual[seat])
                option = _option(content, chosen.action)
                others = [s for s in scored if _option(content, s.action) not in (None, option)]
                if option is None or not others:
                    continue
                cost, se = paired(chosen, max(others, key=lambda s: s.mean))
                decisions[kind] = decisions.get(kind, 0) + 1
                row = picked.setdefault((kind, option), [0.0, 0.0, 0.0, 0.0])
                row[0] += 1
                row[2] += cost
                row[3] += se * se
                usual_option = _option(content, usual[seat])
                if usual_option is not None:
                    picked.setdefault((kind, usual_option), [0.0, 0.0, 0.0, 0.0])[1] += 1
                up, up_se = paired(chosen, mine)
                g = gain.setdefault(kind, [0.0, 0.0])
                g[0] += up
                g[1] += up_se * up_se
            if node == SIMULTANEOUS:
                state.apply_actions(usual, checked=False)
            else:
                state.apply_action(usual[node], checked=False)
    rows = []
    order = sorted(picked.items(), key=lambda item: (item[0][0], -item[1][0]))
    for (kind, option), (chose, usual_n, cost, var) in order:
        m = decisions[kind]
        share = chose / m
        rows.append(
            {
                "kind": kind,
                "option": option,
                "share": share,
                "share_se": math.sqrt(share * (1 - share) / m),
                "heuristic_share": usual_n / m,
                "alternative_cost_pp": 100 * cost / chose if chose else None,
                "alternative_cost_se_pp": 100 * math.sqrt(var) / chose if chose else None,
            }
        )
    return {
        "scenario": name,
        "title": scenario.title,
        "method": "rollout",
        "scope": _(
            "not optimal play: one step of policy improvement over the heuristic — at each decision met in {n} "
            "conflicts of heuristic play, every option scored by {playouts} seeded playouts of the heuristic (the "
            "same dice for every option), the heuristic's choice kept unless another wins more by {z} paired "
            "standard errors",
            n=n,
            playouts=content.playouts,
            z=f"{OVERRIDE_Z:g}",
        ),
        "rows": rows,
        "decisions": decisions,
        "gain_pp": {
            kind: {"mean": 100 * g[0] / decisions[kind], "se": 100 * math.sqrt(g[1]) / decisions[kind]}
            for kind, g in gain.items()
        },
        "conflicts": n,
        "playouts": content.playouts,
        "seconds": time.process_time() - began,
    }


def choices_report(report: Report, out_dir: Path | None, n: int = 1, seed: int = 1) -> dict[str, Any]:
    content = report.content
    assert isinstance(content, Choices)
    if content.method == "rollout":
        scenarios = [rollout_choices(name, content, n, seed) for name in content.scenarios]
    else:
        scenarios = [scenario_choices(name, content) for name in content.scenarios]
    files: list[str] = []
    if out_dir is not None:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")  # the csv module's own line ends, as before
        writer.writerow(["scenario", "kind", "option", "share", "alternative_cost_pp"])
        for s in scenarios:
            for row in s.get("rows", []):
                writer.writerow([s["scenario"], row["kind"], row["option"], row["share"], row["alternative_cost_pp"]])
        files.append(str(write_text(out_dir / "choices.csv", buffer.getvalue())))
    return {
        "report": report.name,
        "title": report.title,
        "words": content.scenario_words,
        "scenarios": scenarios,
        "files": files,
    }


def print_choices(data: dict[str, Any], console: Any) -> None:
    from rich.table import Table

    for s in data["scenarios"]:
        if s["method"] == "rollout":
            _print_rollout(s, console)
            continue
        if s["method"] != "optimal":
            console.print(f"{s['scenario']}: {s['note']}", highlight=False, markup=False)
            continue
        table = Table(title=_("{title}: is there a dominant choice? (both sides optimal)", title=s["title"]))
        table.add_column(_("decision"), justify="left", overflow="fold")
        table.add_column(_("option"), justify="left", overflow="fold")
        table.add_column(_("chosen"), justify="right", overflow="fold")
        table.add_column(_("best alternative costs"), justify="right", overflow="fold")
        for row in s["rows"]:
            table.add_row(
                row["kind"], row["option"], percent(100 * row["share"], 1), _pp(row["alternative_cost_pp"], 2)
            )
        console.print(table)
        console.print(s["scope"], highlight=False, markup=False)
        console.print(
            _(
                "cost: percentage points of the deciding side's win − loss (the solver's objective) lost by the best "
                "other option where this one is chosen"
            ),
            highlight=False,
            markup=False,
        )
        c = s.get("concede")
        if c:
            console.print(
                _(
                    "conceding is right (costs nothing) at {share} of the decisions where it is open; elsewhere it "
                    "costs {cost} on average ({note})",
                    share=percent(100 * c["right_share"], 1),
                    cost=_pp(c["cost_elsewhere_pp"], 1),
                    note=c["note"],
                ),
                highlight=False,
                markup=False,
            )
            for st in c["states"]:
                console.print(
                    "  "
                    + _(
                        "{seat} at {where} (met with p={reach})",
                        seat=st["seat"],
                        where=st["where"],
                        reach=number(st["reach"], 3),
                    ),
                    highlight=False,
                    markup=False,
                )


def _print_rollout(s: dict[str, Any], console: Any) -> None:
    from rich.table import Table

    table = Table(
        title=_("{title}: is there a dominant choice? (one step of improvement, estimated)", title=s["title"])
    )
    table.add_column(_("decision"), justify="left", overflow="fold")
    table.add_column(_("option"), justify="left", overflow="fold")
    table.add_column(_("improved picks"), justify="right", overflow="fold")
    table.add_column(_("heuristic picks"), justify="right", overflow="fold")
    table.add_column(_("best alternative costs"), justify="right", overflow="fold")
    for row in s["rows"]:
        cost = row["alternative_cost_pp"]
        table.add_row(
            row["kind"],
            row["option"],
            f"{percent(100 * row['share'], 1)} ± {percent(100 * row['share_se'], 1)}",
            percent(100 * row["heuristic_share"], 1),
            "—" if cost is None else f"{number(cost, 1)} ± {_pp(row['alternative_cost_se_pp'], 1)}",
        )
    console.print(table)
    console.print(s["scope"], highlight=False, markup=False)
    console.print(
        _(
            "cost: percentage points of the deciding side's win chance lost by the best option of another kind where "
            "this one is picked (± one standard error, from the paired playouts); picks: share of the decisions met "
            "({decisions})",
            decisions=", ".join(f"{k}: {v}" for k, v in s["decisions"].items()),
        ),
        highlight=False,
        markup=False,
    )
    for kind, g in s["gain_pp"].items():
        console.print(
            _(
                "{kind}: the improved choice wins {gain} ± {se} more than the heuristic's, on average",
                kind=kind,
                gain=("+" if g["mean"] >= 0 else "") + number(g["mean"], 1),
                se=_pp(g["se"], 1),
            ),
            highlight=False,
            markup=False,
        )
    console.print(_("{seconds} s of CPU", seconds=round(s["seconds"])), highlight=False, markup=False)


def _pp(value: float, decimals: int) -> str:
    """Percentage points: ``2.50 pp``."""
    return _("{value} pp", value=number(value, decimals))


__all__ = ["choices_report", "print_choices", "rollout_choices", "scenario_choices"]
