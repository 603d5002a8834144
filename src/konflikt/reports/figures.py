"""What every report's files carry: the run header (what was simulated, so the numbers can be had again), its
caption under the plot, and CSV files whose first line is that header (as ``konflikt sim --csv`` writes them)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from konflikt.core.i18n import percent
from konflikt.core.messages import _
from konflikt.core.ruleset import Ruleset
from konflikt.core.scenario import scenario_from_document
from konflikt.core.state import GM
from konflikt.core.thousands import grouped
from konflikt.sim.header import csv_line, version, write_text
from konflikt.sim.plots import save_figure as _save_figure


def report_header(
    ruleset: Ruleset, data: Mapping[str, Any], example: Mapping[str, Any], scenario_words: str
) -> dict[str, Any]:
    """The facts that decide a report's numbers: the report, its scenarios in words, options, policies, seed, n.

    ``example`` is one of the report's scenario documents: the options and the seats' policies are read from it
    (every scenario of a report is built the same way, only the entrants or the opponent differ)."""
    scenario = scenario_from_document(dict(example), f"{data['report']}.toml")
    options = ruleset.options.resolve(scenario.options)
    changed = {o.name: options[o.name] for o in ruleset.options if options[o.name] != o.default}
    policies = {p.id: p.policy for p in scenario.participants()}
    policies[GM] = scenario.gm
    return {
        "konflikt": version(),
        "command": f"report {data['report']}",
        "ruleset": ruleset.id,
        "scenario": scenario_words,
        "options": {k: v if isinstance(v, str | int | float | bool) else str(v) for k, v in changed.items()},
        "policies": dict(sorted(policies.items())),
        "seed": data["seed"],
        "n": data["n"],
        "levels": list(data.get("levels", [])),
        "engine": ", ".join(data.get("engines", [])) or "exact/vectorised",
    }


def report_caption(header: Mapping[str, Any], per: str) -> str:
    """Two lines under a report's plot: the scenario, options and policies; n, seed, engine and the intervals."""
    options = ", ".join(f"{k}={v}" for k, v in header["options"].items()) or _("default rules")
    names = set(header["policies"].values())
    policies = (
        _("{policy} on every seat", policy=names.pop())
        if len(names) == 1
        else ", ".join(f"{k}={v}" for k, v in header["policies"].items())
    )
    return (
        _(
            "{scenario} · options: {options} · policies: {policies}",
            scenario=header["scenario"],
            options=options,
            policies=policies,
        )
        + "\n"
        + _(
            "n = {n} {per} · seed {seed} · engine {engine} · konflikt {version} · `konflikt {command}` · bars: "
            "{interval} intervals",
            n=grouped(header["n"]),
            per=per,
            seed=header["seed"],
            engine=header["engine"],
            version=header["konflikt"],
            command=header["command"],
            interval=percent(95, 0),
        )
    )


def save_figure(fig: Any, stem: Path, header: Mapping[str, Any], per: str) -> list[Path]:
    """The plot as ``stem.png`` and ``stem.svg`` with the caption under it and the header in the metadata."""
    return _save_figure(fig, stem, header, text=report_caption(header, per))


def write_csv(path: Path, rows: Sequence[Mapping[str, Any]], header: Mapping[str, Any]) -> Path:
    """One row per line, the run header on the first (``pandas.read_csv(..., comment="#")`` skips it)."""
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    buffer = io.StringIO()
    buffer.write(csv_line(header))
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return write_text(path, buffer.getvalue())


__all__ = ["report_caption", "report_header", "save_figure", "write_csv"]
