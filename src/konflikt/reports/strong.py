"""A round robin's entrants under stronger play: each one's standing against the baseline beside the heuristic's.

Every figure of a round robin (:mod:`.round_robin`) assumes the rulesets' heuristics: "is the spear too strong?" is
answered about the heuristic, not about the game. With ``--strong POLICY`` (``rollout:8``, ``mcts:50``) the report
plays each entrant against the baseline once more with *every* seat on that policy, both seat orders, ``strong_n``
duels each, and prints its share of points (a draw is half) beside the heuristic's own duels against the baseline.

Stronger play is dear: a searching policy plays each duel on the reference runner and thinks at every decision
(``rollout:8`` in a Le våld duel: about a second a duel on one core), so only the duels against the baseline are
played, not the whole round robin, and the shares carry their standard errors. What the policy is — and that it is
not optimal play unless it is ``optimal`` — is in the table's title.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from konflikt.core.i18n import BILINGUAL, current, percent
from konflikt.core.messages import _
from konflikt.core.reports import RoundRobin
from konflikt.core.scenario import scenario_from_document
from konflikt.reports.ratings import Z95
from konflikt.sim.engine import simulate


def strong_standing(
    content: RoundRobin, strong: str, n: int, seed: int, levels: list[int], heuristic: dict[int, Any]
) -> dict[str, Any]:
    """Each entrant but the baseline against the baseline, every seat on ``strong``, ``n`` duels in each seat
    order at each level; beside it the heuristic's share from ``heuristic`` (the round robin's ``by_level``)."""
    names = [e.name for e in content.entrants()]
    first, second = content.sides
    by_level: dict[int, dict[str, Any]] = {}
    for l_index, level in enumerate(levels):
        rows: dict[str, Any] = {}
        for e_index, name in enumerate(names):
            if name == content.baseline:
                continue
            points = square = 0.0
            played = 0
            engines: set[str] = set()
            for order, (a, b) in enumerate(((name, content.baseline), (content.baseline, name))):
                document = content.match(a, b, level)
                scenario = scenario_from_document(document, f"strong:{a}-{b}@{level}")
                seats = {p.id: strong for p in scenario.participants()}
                seq = np.random.SeedSequence(seed, spawn_key=(1_000 + l_index, e_index, order))
                result = simulate(scenario, n, int(seq.generate_state(1)[0]), policies=seats)
                engines.add(result.engine)
                mine, theirs = (first, second) if order == 0 else (second, first)
                won = result.tally.winners.get((mine,), 0)
                lost = result.tally.winners.get((theirs,), 0)
                draws = n - won - lost
                points += won + draws / 2
                square += won + draws / 4
                played += n
            share = points / played
            se = math.sqrt(max(0.0, square / played - share * share) / played)
            usual = heuristic[level]["ratings"][name]
            rows[name] = {
                "duels": played,
                "share": share,
                "se": se,
                "heuristic_share": usual["share_vs_baseline"],
                "heuristic_se": usual["share_se"],
                "engines": sorted(engines),
            }
        by_level[level] = rows
    return {"policy": strong, "n": n, "by_level": by_level}


def print_strong(data: dict[str, Any], strong: dict[str, Any], console: Any) -> None:
    """One row per entrant: its share against the baseline under the heuristic and under the stronger policy."""
    from rich.table import Table

    unit = data["level_unit"]
    baseline = data["baseline"]
    policy = strong["policy"]
    title = (
        _(
            "against {baseline}: the heuristic beside {policy} on every seat (n = {n} duels in each seat order)",
            baseline=baseline,
            policy=policy,
            n=strong["n"],
        )
        if policy == "optimal"
        else _(
            "against {baseline}: the heuristic beside {policy} on every seat (n = {n} duels in each seat order) — "
            "not optimal play",
            baseline=baseline,
            policy=policy,
            n=strong["n"],
        )
    )
    table = Table(title=title)
    table.add_column(data["entrant_word"], overflow="fold")
    if data["reference_name"]:
        table.add_column(data["reference_name"], justify="right", overflow="fold")
    for level in data["levels"]:
        table.add_column(_("heuristic at {level}", level=f"{level}{unit}"), justify="right", overflow="fold")
        table.add_column(
            _("{policy} at {level}", policy=policy, level=f"{level}{unit}"), justify="right", overflow="fold"
        )
    reference = {e["name"]: e["reference"] for e in data["entrants"]}
    english = {e["name"]: e["english"] for e in data["entrants"]}
    first = strong["by_level"][data["levels"][0]]
    for name in sorted(first, key=lambda w: -first[w]["share"]):
        row = [f"{name} ({english[name]})" if english[name] and current() in ("en", BILINGUAL) else name]
        if data["reference_name"]:
            row.append(str(reference[name]))
        for level in data["levels"]:
            r = strong["by_level"][level][name]
            row += [
                f"{percent(100 * r['heuristic_share'], 1)} ± {percent(100 * (Z95 * r['heuristic_se']), 1)}",
                f"{percent(100 * r['share'], 1)} ± {percent(100 * (Z95 * r['se']), 1)}",
            ]
        table.add_row(*row)
    console.print(table)
    console.print(
        _(
            "the share of points each takes in its own duels against {baseline} (a draw is half), ± a {interval} "
            "interval; {policy}: see `konflikt report --help` and docs/search.md for what the policy is",
            baseline=baseline,
            interval=percent(95, 0),
            policy=policy,
        ),
        highlight=False,
        markup=False,
    )


__all__ = ["print_strong", "strong_standing"]
