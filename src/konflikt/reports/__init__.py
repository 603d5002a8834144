"""Balancing reports the source texts ask for: many conflicts summed up as ratings, tables and plots.

A ruleset registers its reports as data (``Ruleset.reports``, see :mod:`konflikt.core.reports`); this package holds
the machinery that runs them, one module per kind of report — :mod:`.round_robin` (a rating by duels) and
:mod:`.ladder` (one side against a ladder of opponents) — and finds them through the registry, so it names no
ruleset. It sits above ``sim`` and ``analysis`` because a report uses both.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from konflikt.core.messages import _
from konflikt.core.reports import Choices, Ladder, Report, RoundRobin
from konflikt.core.ruleset import Ruleset, all_rulesets, get_ruleset, ruleset_ids
from konflikt.errors import KonfliktError


@dataclass(frozen=True)
class Found:
    """A report as the command line names it: ``<ruleset>-<name>``."""

    key: str
    ruleset: Ruleset
    report: Report


def all_reports() -> list[Found]:
    """Every registered report of every ruleset, by ruleset id and then by name."""
    return [Found(f"{r.id}-{name}", r, r.reports[name]) for r in all_rulesets() for name in sorted(r.reports)]


def find_report(key: str) -> Found:
    """The report called ``key`` (``levald-weapons``); a one-line error naming the known ones otherwise."""
    ruleset_id, _dash, name = key.partition("-")
    if ruleset_id in ruleset_ids():
        ruleset = get_ruleset(ruleset_id)
        if name in ruleset.reports:
            return Found(key, ruleset, ruleset.reports[name])
    known = ", ".join(f.key for f in all_reports()) or _("none")
    raise KonfliktError(_("unknown report {key} (known: {known})", key=repr(key), known=known))


def default_levels(report: Report) -> tuple[int, ...]:
    return tuple(report.content.levels)


MAX_CONFLICTS = 20_000_000
"""The most conflicts a report plays unless ``--force`` is given: the bundled reports' defaults play 0.2 million
(levald-weapons) and 3.2 million (fimbulfrost-opponents); ``-n 10**12`` started and would have run for years."""


def planned_conflicts(found: Found, n: int, levels: list[int]) -> int:
    """How many conflicts a report will play at most, counted before the first: a round robin plays ``n`` duels in
    each seat order of every pair of entrants and ``n`` mirror matches per entrant at each level; a ladder ``n``
    against each rung; a choices report ``n`` per scenario it solves."""
    content = found.report.content
    if isinstance(content, RoundRobin):
        entrants = len(content.entrants())
        return len(levels) * (entrants * (entrants - 1) + entrants) * n
    if isinstance(content, Ladder):
        return len(content.rungs(levels, True)) * n
    if isinstance(content, Choices):
        return len(content.scenarios) * n
    return n


def run_report(
    found: Found,
    n: int,
    seed: int,
    levels: list[int] | None,
    out_dir: Path | None,
    console: Any,
    strong: str | None = None,
    strong_n: int = 10,
) -> dict[str, Any]:
    """Run a report: the round robin prints its table as it goes (and, with ``strong``, each entrant's standing
    under that policy beside the heuristic's: :mod:`.strong`); the ladder's table is printed here."""
    content = found.report.content
    chosen = list(default_levels(found.report) if levels is None else levels)
    if strong is not None and not isinstance(content, RoundRobin):
        raise KonfliktError(_("--strong is for round-robin reports; {report} is not one", report=found.key))
    if isinstance(content, RoundRobin):
        from konflikt.reports.round_robin import round_robin_report

        if strong is not None:
            found.ruleset.policy(strong)  # a bad name: one line before any duel
        data = round_robin_report(found.ruleset, found.report, n, seed, chosen, out_dir, console)
        if strong is not None:
            from konflikt.reports.strong import print_strong, strong_standing

            data["strong"] = strong_standing(content, strong, strong_n, seed, chosen, data["by_level"])
            print_strong(data, data["strong"], console)
        return data
    if isinstance(content, Ladder):
        from konflikt.reports.ladder import ladder_report, print_report

        data = ladder_report(found.ruleset, found.report, n, seed, out_dir, levels=chosen)
        print_report(data, console)
        return data
    if isinstance(content, Choices):
        from konflikt.reports.choices import choices_report, print_choices

        data = choices_report(found.report, out_dir, n, seed)
        print_choices(data, console)
        return data
    raise KonfliktError(
        _("report {report} has content of no known kind: {kind}", report=found.key, kind=type(content).__name__)
    )


__all__ = ["Found", "all_reports", "default_levels", "find_report", "run_report"]
