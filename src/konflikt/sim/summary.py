"""What ``konflikt sim`` reports, as plain data: every outcome with its interval, consequence marginals, length in
the system's own unit, and the run header. The command line renders it; ``--json`` and ``--csv`` write it.

Every group of rows is a partition of the conflicts (who wins, including nobody; how it ended; each participant's
fate), so each sums to 1, and a side that never won still has its row.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Hashable, Mapping
from typing import Any

from konflikt.core.batch import Tally, wilson
from konflikt.core.scenario import Scenario
from konflikt.sim.engine import SimResult
from konflikt.sim.header import csv_line


def winner_label(scenario: Scenario, winners: Hashable) -> str:
    names = {s.id: s.name for s in scenario.sides}
    if isinstance(winners, tuple):
        return " + ".join(str(names.get(w, w)) for w in winners) if winners else "nobody"
    return str(winners)


def _row(label: str, count: int, n: int) -> dict[str, Any]:
    low, high = wilson(count, n)
    return {"outcome": label, "count": count, "p": count / n if n else 0.0, "ci95": [low, high]}


def _rows(counter: Mapping[Any, int], n: int, label: Any = str) -> list[dict[str, Any]]:
    return [_row(label(k), c, n) for k, c in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))]


def winner_rows(scenario: Scenario, tally: Tally) -> list[dict[str, Any]]:
    """Every side (even one that never won), nobody, and any joint win that happened."""
    counts: Counter[Hashable] = Counter({(side.id,): 0 for side in scenario.sides})
    counts[()] = 0
    counts.update(tally.winners)
    return _rows(counts, tally.n, lambda w: winner_label(scenario, w))


def consequence_rows(scenario: Scenario, tally: Tally) -> dict[str, list[dict[str, Any]]]:
    """Per participant: each consequence's chance (with interval) and its expected count per conflict."""
    out: dict[str, list[dict[str, Any]]] = {}
    split = scenario.ruleset.fate_parts
    for participant in scenario.participants():
        fates = tally.fates.get(participant.id, Counter())
        present: Counter[str] = Counter()
        taken: Counter[str] = Counter()
        for fate, count in fates.items():
            parts = split(fate, str(participant.name))
            for word in {w for w, _ in parts}:
                present[word] += count
            for word, k in parts:
                taken[word] += k * count
        rows = []
        for word, count in sorted(present.items(), key=lambda kv: (-kv[1], kv[0])):
            row = _row(word, count, tally.n)
            row["expected"] = taken[word] / tally.n
            rows.append(row)
        out[participant.id] = rows
    return out


def length_summary(scenario: Scenario, tally: Tally) -> dict[str, Any]:
    """Length in the ruleset's unit when every conflict reported it, else in engine steps (and it says which)."""
    if tally.has_rounds():
        return {"unit": scenario.ruleset.length_unit, **tally.length_stats(rounds=True)}
    return {"unit": "steps", **tally.length_stats()}


def summarise(scenario: Scenario, result: SimResult, header: Mapping[str, Any]) -> dict[str, Any]:
    tally = result.tally
    return {
        "run": dict(header),
        "scenario": scenario.source,
        "seed": header["seed"],
        "n": tally.n,
        "engine": result.engine,
        "note": result.note,
        "seconds": result.seconds,
        "interrupted": result.interrupted,
        "winners": winner_rows(scenario, tally),
        "endings": _rows(tally.endings, tally.n),
        "consequences": consequence_rows(scenario, tally),
        "participants": {pid: _rows(c, tally.n) for pid, c in tally.fates.items()},
        "names": {p.id: str(p.name) for p in scenario.participants()},
        "length": length_summary(scenario, tally),
        "resources": {k: {"mean": m, "se": se} for k, (m, se) in tally.resource_means().items()},
    }


CSV_COLUMNS = ("group", "who", "outcome", "count", "p", "ci95_low", "ci95_high", "expected")


def summary_csv(data: Mapping[str, Any]) -> str:
    """The summary as one CSV table (the run header on the first line): groups winners, endings, consequence,
    fate, length, resource."""
    buffer = io.StringIO()
    buffer.write(csv_line(data["run"]))
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)

    def put(group: str, who: str, rows: list[dict[str, Any]]) -> None:
        for r in rows:
            writer.writerow(
                [group, who, r["outcome"], r["count"], r["p"], r["ci95"][0], r["ci95"][1], r.get("expected", "")]
            )

    put("winner", "", data["winners"])
    put("ending", "", data["endings"])
    for pid, rows in data["consequences"].items():
        put("consequence", pid, rows)
    for pid, rows in data["participants"].items():
        put("fate", pid, rows)
    length = data["length"]
    for stat in ("mean", "p10", "p50", "p90", "max"):
        if stat in length:
            writer.writerow(["length", length["unit"], stat, "", "", "", "", length[stat]])
    for name, v in data["resources"].items():
        writer.writerow(["resource", "", name, "", "", "", "", v["mean"]])
    return buffer.getvalue()
