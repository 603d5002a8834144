"""A ladder report (:class:`konflikt.core.reports.Ladder`): one side, the heroes, against a ladder of opponents.

For each opponent it gives the heroes' chance to win, how the conflict ends, the expected number of consequences
per hero and for the opponent, and each hero's chance to die. Exact odds (``conflict_odds``, Fractions) where the
conflict has at most ``max_states`` distinct states; otherwise ``n`` conflicts on the vectorised kernel
(``konflikt sim``'s engine, seed ``seed`` for every opponent: common random numbers, so neighbouring rungs differ by
the opponent, not by the dice). The ruleset supplies the rungs, their scenarios and how many consequences each fate
holds; ``level`` on the plot is the rung's level as the ruleset defines it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from konflikt.analysis.exact import StateSpaceTooLarge, conflict_odds
from konflikt.core.batch import wilson
from konflikt.core.conflict import new_state
from konflikt.core.i18n import number, percent
from konflikt.core.messages import N_, _
from konflikt.core.reports import Ladder, Report
from konflikt.core.ruleset import Ruleset
from konflikt.core.scenario import Scenario, scenario_from_document
from konflikt.core.thousands import grouped
from konflikt.reports.figures import report_header, save_figure, write_csv
from konflikt.sim.engine import simulate
from konflikt.sim.runner import seat_policies

EXACT_STATES = 5_000
"""Exact odds up to this many distinct states (a second or two); beyond it the kernel plays ``n`` conflicts."""
Z95 = 1.959963984540054


def _expectation(dist: Mapping[Hashable, float], values: Mapping[Hashable, int]) -> tuple[float, float]:
    """(mean, variance) of a count over a distribution of fate labels."""
    mean = sum(p * values[label] for label, p in dist.items())
    square = sum(p * values[label] ** 2 for label, p in dist.items())
    return mean, max(0.0, square - mean * mean)


def measure(scenario: Scenario, content: Ladder, n: int, seed: int, max_states: int) -> dict[str, Any]:
    """One opponent's row: exact when small enough, else ``n`` kernel conflicts (with standard errors)."""
    people = (*content.heroes, content.opponent)
    try:
        odds = conflict_odds(
            new_state(scenario), {s: p for s, p in seat_policies(scenario).items() if p is not None}, max_states
        )
    except StateSpaceTooLarge:
        odds = None
    if odds is not None:
        method, size, se_scale = "exact", odds.states, 0.0
        winners = {k: float(v) for k, v in odds.winners().items()}
        endings = {str(k): float(v) for k, v in odds.endings().items()}
        fates = {pid: {k: float(v) for k, v in odds.fates(pid).items()} for pid in people}
    else:
        result = simulate(scenario, n, seed, engine="vectorised")
        tally = result.tally
        method = "kernel" if result.engine == "vectorised" else result.engine
        size, se_scale = tally.n, 1.0 / tally.n
        winners = {k: c / tally.n for k, c in tally.winners.items()}
        endings = {k: c / tally.n for k, c in tally.endings.items()}
        fates = {pid: {k: c / tally.n for k, c in tally.fates[pid].items()} for pid in people}
    counts = content.consequences(scenario)
    p_win = winners.get((content.hero_side,), 0.0)
    low, high = (p_win, p_win) if method == "exact" else wilson(round(p_win * size), size)
    row: dict[str, Any] = {"method": method, "size": size, "p_win": p_win, "p_win_low": low, "p_win_high": high}
    for ending in content.endings:
        row[f"p_{ending}"] = endings.get(ending, 0.0)
    total = 0.0
    for pid in people:
        mean, var = _expectation(fates[pid], counts[pid])
        name = "opponent" if pid == content.opponent else pid
        row[f"consequences_{name}"], row[f"consequences_{name}_se"] = mean, math.sqrt(var * se_scale)
        if pid != content.opponent:
            total += mean
            row[f"p_death_{pid}"] = sum(p for label, p in fates[pid].items() if str(label).startswith(content.dead))
    row["consequences_heroes"] = total
    return row


def ladder_report(
    ruleset: Ruleset,
    report: Report,
    n: int,
    seed: int,
    out_dir: Path | None,
    *,
    max_states: int = EXACT_STATES,
    levels: Sequence[int] | None = None,
    bundled: bool = True,
) -> dict[str, Any]:
    """The heroes' chance to win and the expected consequences against each opponent of the ladder.

    Args:
        ruleset, report: the ruleset and its report (``report.content`` is a :class:`Ladder`).
        n: conflicts per opponent where exact odds are too large (on the vectorised kernel).
        seed: the seed of every opponent's simulation (common random numbers across the ladder).
        out_dir: where to write ``<id>_<name>.csv`` (one row per opponent) and the plot ``<id>_<name>.png``/``.svg``
            (win chance and expected consequences against level); ``None``: no files.
        max_states: exact odds for an opponent whose conflict has at most this many states.
        levels: the plain ladder's levels (default: the ruleset's).
        bundled: also the bundled opponents.

    Returns:
        ``{"report", "title", "heroes", "names", "endings", "level_words", "n", "seed", "levels", "numbers",
        "engines", "rows", "run", "files"}``: each row has the
        opponent's ``name``, its numbers, ``level``, ``bundled``, ``method`` (exact or the engine) and ``size``
        (states or conflicts), ``p_win`` with a 95% Wilson interval ``p_win_low/high`` (equal to it when exact),
        ``p_<ending>`` for each ending the ruleset names, ``consequences_<hero>``, ``consequences_opponent``
        (expected numbers of consequences, each with ``_se``, 0 when exact), ``consequences_heroes`` (their sum)
        and ``p_death_<hero>``.
    """
    content = report.content
    assert isinstance(content, Ladder)
    chosen = list(content.levels if levels is None else levels)
    rows = []
    names: dict[str, str] = {}
    example: Mapping[str, Any] | None = None
    engines = set()
    numbers: list[str] = []
    for index, rung in enumerate(content.rungs(chosen, bundled)):
        # a source of its own per opponent: sim's worker cache knows a scenario by its source name
        scenario = scenario_from_document(dict(rung.document), f"{ruleset.id}_{report.name}/{index:02d}.toml")
        example = example or rung.document
        numbers = numbers or list(rung.numbers)
        names |= {p.id: p.name for p in scenario.participants() if p.id != content.opponent}
        row: dict[str, Any] = {"name": rung.name, **rung.numbers, "level": rung.level, "bundled": rung.bundled}
        rows.append(row | measure(scenario, content, n, seed, max_states))
        engines.add(rows[-1]["method"])
    if example is None:
        raise ValueError("the ladder has no opponent: give at least one level, or the bundled opponents")
    data: dict[str, Any] = {
        "report": f"{ruleset.id}-{report.name}",
        "title": report.title,
        "heroes": list(content.heroes),
        "names": names,
        "endings": dict(content.endings),
        "level_words": content.level_words,
        "n": n,
        "seed": seed,
        "levels": chosen,
        "numbers": numbers,
        "engines": sorted(engines),
        "rows": rows,
        "files": [],
    }
    data["run"] = report_header(ruleset, data, example, content.scenario_words)
    if out_dir is not None:
        data["files"] = [str(p) for p in write_files(data, out_dir)]
    return data


def write_files(data: dict[str, Any], out_dir: Path) -> list[Path]:
    """``<report>.csv`` and the plot ``<report>.png``/``.svg`` in ``out_dir``."""
    stem = data["report"].replace("-", "_")
    path = write_csv(out_dir / f"{stem}.csv", data["rows"], data["run"])
    per = _("conflicts per opponent on the kernel where exact odds are too large (exact elsewhere)")
    return [path, *save_figure(figure(data), out_dir / stem, data["run"], per)]


METHODS = {"exact": N_("exact"), "kernel": N_("kernel"), "reference": N_("reference")}
"""How a rung's numbers were had (the CSV keeps the id), in the words of the common catalog."""


def _who(data: Mapping[str, Any], pid: str) -> str:
    return _("the opponent") if pid == "opponent" else str(data["names"].get(pid, pid))


def figure(data: dict[str, Any]) -> Any:
    """Two panels against level: the heroes' chance to win, and the expected consequences (each hero, opponent),
    each with its 95% interval (none where the odds are exact); bundled opponents by name."""
    import matplotlib.pyplot as plt

    rows = data["rows"]
    plain = [r for r in rows if not r["bundled"]]
    named = [r for r in rows if r["bundled"]]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.4))
    heroes = _(" and ").join(_who(data, h) for h in data["heroes"])

    def bars(group: list[dict[str, Any]], key: str, low: str, high: str) -> list[list[float]]:
        return [[r[key] - r[low] for r in group], [r[high] - r[key] for r in group]]

    if plain:
        left.errorbar(
            [r["level"] for r in plain],
            [r["p_win"] for r in plain],
            yerr=bars(plain, "p_win", "p_win_low", "p_win_high"),
            fmt="o-",
            capsize=3,
            label=_("plain opponents (ladder)"),
        )
    if named:
        left.errorbar(
            [r["level"] for r in named],
            [r["p_win"] for r in named],
            yerr=bars(named, "p_win", "p_win_low", "p_win_high"),
            fmt="s",
            color="C3",
            capsize=3,
            label=_("bundled opponents"),
        )
        for r in named:
            left.annotate(r["name"], (r["level"], r["p_win"]), textcoords="offset points", xytext=(5, 5), fontsize=8)
    left.set(
        xlabel=data["level_words"],
        ylabel=_("P({heroes} win), {interval} interval", heroes=heroes, interval=percent(95, 0)),
        ylim=(0, 1),
    )
    left.set_title(_("The heroes' chance to win"))
    left.grid(alpha=0.3)
    left.legend(loc="lower left", fontsize=8)
    for k, who in enumerate([*data["heroes"], "opponent"]):
        key = f"consequences_{who}"
        for group, fmt, kind in ((plain, "o-", _("ladder")), (named, "s", _("bundled"))):
            if group:
                right.errorbar(
                    [r["level"] for r in group],
                    [r[key] for r in group],
                    yerr=[Z95 * r[f"{key}_se"] for r in group],
                    fmt=fmt,
                    color=f"C{k}",
                    capsize=3,
                    label=f"{_who(data, who)} ({kind})",
                )
    right.set(
        xlabel=data["level_words"], ylabel=_("expected consequences, {interval} interval", interval=percent(95, 0))
    )
    right.set_title(_("Expected consequences"))
    right.grid(alpha=0.3)
    right.legend(fontsize=8)
    fig.suptitle(f"{data['title']} — {heroes}")
    return fig


def print_report(data: dict[str, Any], console: Any) -> None:
    """A table for the terminal (``console`` is a ``rich.console.Console``)."""
    from rich.table import Table

    table = Table(
        title=_(
            "{title} (n = {n} where not exact, seed {seed})",
            title=data["title"],
            n=grouped(data["n"]),
            seed=data["seed"],
        )
    )
    numbers = data["numbers"]
    heroes = [_who(data, h) for h in data["heroes"]]
    endings = list(data["endings"].values())
    opponent, method = _("opponent"), _("method")
    win_column = _("P(win) [{interval}]", interval=percent(95, 0))
    for column in (opponent, "/".join(numbers), method, win_column, *endings, *heroes, opponent):
        left = column in (opponent, method)
        table.add_column(column, justify="left" if left else "right", overflow="fold")  # piped: every word kept
    for r in data["rows"]:
        win = (
            number(r["p_win"], 3)
            if r["method"] == "exact"
            else f"{number(r['p_win'], 3)} [{number(r['p_win_low'], 3)}, {number(r['p_win_high'], 3)}]"
        )
        table.add_row(
            r["name"],
            "/".join(str(r[k]) for k in numbers),
            _(METHODS[r["method"]]) if r["method"] in METHODS else r["method"],
            win,
            *(number(r[f"p_{e}"], 3) for e in data["endings"]),
            *(f"{number(r[f'consequences_{h}'], 2)} ({percent(100 * r[f'p_death_{h}'], 1)} †)" for h in data["heroes"]),
            number(r["consequences_opponent"], 2),
        )
    console.print(table)
    console.print(_("heroes' columns: expected consequences (chance to die †); the opponent's: expected consequences"))


__all__ = ["figure", "ladder_report", "measure", "print_report"]
