"""Fimbulfrost's opponents, measured: the heroes' chance against a ladder from the robber band up to the dragon.

The text gives two opponents with numbers — the robber band (Omdømme 2, Kamp 3, Status 6) and the dragon (12, 12,
12) — and says its numbers are not balanced yet ("tallene er ikke balancerede endnu"). This report plays the text's
heroes, Budolf and Rudolf, with the ``heuristic`` on every seat and the default rules, against:

* every bundled opponent (``content/characters`` with ``role = "opponent"``: the robbers, the wolves, the witch, the
  revenant, the dragon — the monsters with their own consequence lists), and
* a ladder of plain opponents with Omdømme = Kamp = Status = L for L = 2..12 (the ordinary lists), each built as a
  scenario document, so the curve runs from below the robbers to exactly the dragon's numbers.

For each it gives the heroes' chance to win, how the conflict ends, the expected number of consequences per hero
and for the opponent, and each hero's chance to die. Exact odds (``conflict_odds``, Fractions) where the conflict
has at most ``max_states`` distinct states; otherwise ``n`` conflicts on the vectorised kernel (``konflikt sim``'s
engine, seed ``seed`` for every opponent: common random numbers, so neighbouring rungs differ by the opponent, not
by the dice). ``level`` on the plots is the mean of an opponent's Omdømme, Kamp and Status.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from konflikt.analysis.exact import StateSpaceTooLarge, conflict_odds
from konflikt.core.batch import wilson
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, read_toml, scenario_from_document
from konflikt.rulesets.fimbulfrost.kernel import FimbulfrostKernel, make_kernel
from konflikt.sim.engine import simulate
from konflikt.sim.runner import seat_policies

HEROES = ("budolf", "rudolf")
"""The text's example heroes (bundled characters)."""
LEVELS = tuple(range(2, 13))
"""The ladder: Omdømme = Kamp = Status = L."""
EXACT_STATES = 5_000
"""Exact odds up to this many distinct states (a second or two); beyond it the kernel plays ``n`` conflicts."""
HERO_SIDE, OPP_SIDE, OPP_ID = "helte", "modstander", "modstanderen"
CHARACTERS = Path(__file__).parents[1] / "rulesets" / "fimbulfrost" / "content" / "characters"
DEAD = "død (dead)"


@dataclass(frozen=True)
class Rung:
    """One opponent of the report: its name, numbers and where it comes from."""

    name: str
    omdomme: int
    kamp: int
    status: int
    bundled: bool
    character: dict[str, Any]

    @property
    def level(self) -> float:
        return (self.omdomme + self.kamp + self.status) / 3


def ladder(levels: Sequence[int] = LEVELS, bundled: bool = True) -> list[Rung]:
    """The bundled opponents (weakest level first) and the plain ladder L = Omdømme = Kamp = Status."""
    rungs = []
    if bundled:
        for path in sorted(CHARACTERS.glob("*.toml")):
            data = read_toml(path)
            if data.get("role") == "opponent":
                rungs.append(
                    Rung(
                        data["name"],
                        data["omdomme"],
                        data["kamp"],
                        data["status"],
                        True,
                        {"character": f"builtin:{path.stem}"},
                    )
                )
    rungs.sort(key=lambda r: (r.level, r.name))
    for level in levels:
        fields = {"role": "opponent", "omdomme": level, "kamp": level, "status": level}
        rungs.append(Rung(f"Modstander {level}", level, level, level, False, {"name": f"Modstander {level}", **fields}))
    return rungs


def rung_document(rung: Rung) -> dict[str, Any]:
    """The scenario: the text's heroes against ``rung``, heuristic seats, default rules."""
    heroes = [{"id": h, "character": f"builtin:{h}", "policy": "heuristic"} for h in HEROES]
    return {
        "ruleset": "fimbulfrost",
        "title": f"{' og '.join(h.capitalize() for h in HEROES)} mod {rung.name}",
        "sides": [
            {"id": HERO_SIDE, "name": "Heltene (the heroes)", "participants": heroes},
            {
                "id": OPP_SIDE,
                "name": rung.name,
                "participants": [{"id": OPP_ID, "policy": "heuristic", **rung.character}],
            },
        ],
    }


def _expectation(dist: Mapping[Hashable, float], values: Mapping[Hashable, int]) -> tuple[float, float]:
    """(mean, variance) of a count over a distribution of fate labels."""
    mean = sum(p * values[label] for label, p in dist.items())
    square = sum(p * values[label] ** 2 for label, p in dist.items())
    return mean, max(0.0, square - mean * mean)


def measure(scenario: Scenario, kernel: FimbulfrostKernel, n: int, seed: int, max_states: int) -> dict[str, Any]:
    """One opponent's row: exact when small enough, else ``n`` kernel conflicts (with standard errors)."""
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
        fates = {pid: {k: float(v) for k, v in odds.fates(pid).items()} for pid in (*HEROES, OPP_ID)}
    else:
        tally = simulate(scenario, n, seed, engine="vectorised").tally
        method, size, se_scale = "kernel", tally.n, 1.0 / tally.n
        winners = {k: c / tally.n for k, c in tally.winners.items()}
        endings = {k: c / tally.n for k, c in tally.endings.items()}
        fates = {pid: {k: c / tally.n for k, c in tally.fates[pid].items()} for pid in (*HEROES, OPP_ID)}
    counts = kernel.consequence_counts()
    p_win = winners.get((HERO_SIDE,), 0.0)
    low, high = (p_win, p_win) if method == "exact" else wilson(round(p_win * size), size)
    row: dict[str, Any] = {"method": method, "size": size, "p_win": p_win, "p_win_low": low, "p_win_high": high}
    row["p_heroes_out"], row["p_heroes_lost"] = endings.get("heroes_out", 0.0), endings.get("heroes_lost", 0.0)
    total = 0.0
    for pid in (*HEROES, OPP_ID):
        mean, var = _expectation(fates[pid], counts[pid])
        name = "opponent" if pid == OPP_ID else pid
        row[f"consequences_{name}"], row[f"consequences_{name}_se"] = mean, math.sqrt(var * se_scale)
        if pid != OPP_ID:
            total += mean
            row[f"p_death_{pid}"] = sum(p for label, p in fates[pid].items() if str(label).startswith(DEAD))
    row["consequences_heroes"] = total
    return row


def opponent_report(
    n: int,
    seed: int,
    out_dir: Path | None,
    *,
    max_states: int = EXACT_STATES,
    levels: Sequence[int] = LEVELS,
    bundled: bool = True,
) -> dict[str, Any]:
    """The heroes' chance to win and the expected consequences against opponents from the robber band to the dragon.

    Args:
        n: conflicts per opponent where exact odds are too large (on the vectorised kernel).
        seed: the seed of every opponent's simulation (common random numbers across the ladder).
        out_dir: where to write ``fimbulfrost_opponents.csv`` (one row per opponent) and
            ``fimbulfrost_opponents.png`` (win chance and expected consequences against level); ``None``: no files.
        max_states: exact odds for an opponent whose conflict has at most this many states.
        levels: the plain ladder's levels (Omdømme = Kamp = Status = L).
        bundled: also the bundled opponents (robbers, wolves, witch, revenant, dragon).

    Returns:
        ``{"heroes", "n", "seed", "rows", "files"}``: each row has the opponent's ``name, omdomme, kamp, status,
        level, bundled``, ``method`` (exact or kernel) and ``size`` (states or conflicts), ``p_win`` with a 95%
        Wilson interval ``p_win_low/high`` (equal to it when exact), ``p_heroes_out`` (every hero out in round 1 or
        2), ``p_heroes_lost`` (round 3 lost), ``consequences_<hero>``, ``consequences_opponent`` (expected numbers
        of consequences, each with ``_se``, 0 when exact), ``consequences_heroes`` (their sum) and
        ``p_death_<hero>``.
    """
    rows = []
    for index, rung in enumerate(ladder(levels, bundled)):
        # a source of its own per opponent: sim's worker cache knows a scenario by its source name
        scenario = scenario_from_document(rung_document(rung), f"fimbulfrost_opponents/{index:02d}.toml")
        kernel = make_kernel(scenario, scenario.ruleset.options.resolve(scenario.options), seat_policies(scenario))
        if isinstance(kernel, str):
            raise RuntimeError(f"the fimbulfrost kernel refused {rung.name}: {kernel}")
        row = {"name": rung.name, "omdomme": rung.omdomme, "kamp": rung.kamp, "status": rung.status}
        row |= {"level": rung.level, "bundled": rung.bundled}
        rows.append(row | measure(scenario, kernel, n, seed, max_states))
    report: dict[str, Any] = {"heroes": list(HEROES), "n": n, "seed": seed, "rows": rows, "files": []}
    if out_dir is not None:
        report["files"] = [str(p) for p in write_files(report, out_dir)]
    return report


def write_files(report: dict[str, Any], out_dir: Path) -> list[Path]:
    """``fimbulfrost_opponents.csv`` and ``fimbulfrost_opponents.png`` in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "fimbulfrost_opponents.csv"
    rows = report["rows"]
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return [path, plot(report, out_dir / "fimbulfrost_opponents.png")]


def plot(report: dict[str, Any], path: Path) -> Path:
    """Two panels against level: the heroes' chance to win, and the expected consequences (each hero, opponent)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report["rows"]
    plain = [r for r in rows if not r["bundled"]]
    named = [r for r in rows if r["bundled"]]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    x = [r["level"] for r in plain]
    left.plot(x, [r["p_win"] for r in plain], "o-", label="Omdømme = Kamp = Status = level")
    left.fill_between(x, [r["p_win_low"] for r in plain], [r["p_win_high"] for r in plain], alpha=0.3)
    for r in named:
        left.plot(r["level"], r["p_win"], "s", color="C3")
        left.annotate(r["name"], (r["level"], r["p_win"]), textcoords="offset points", xytext=(5, 5), fontsize=8)
    left.set(xlabel="opponent level (mean of Omdømme, Kamp, Status)", ylabel="P(heroes win)", ylim=(-0.02, 1.02))
    left.set_title("Heltenes chance (the heroes' chance to win)")
    left.legend(loc="lower left")
    for k, who in enumerate([*report["heroes"], "opponent"]):
        key = f"consequences_{who}"
        right.plot(x, [r[key] for r in plain], "o-", color=f"C{k}", label=f"{who} (ladder)")
        right.plot([r["level"] for r in named], [r[key] for r in named], "s", color=f"C{k}", label=f"{who} (bundled)")
    right.set(xlabel="opponent level (mean of Omdømme, Kamp, Status)", ylabel="expected consequences")
    right.set_title("Forventede konsekvenser (expected consequences)")
    right.legend(fontsize=8)
    heroes = " og ".join(h.capitalize() for h in report["heroes"])
    fig.suptitle(f"Fimbulfrost: {heroes} against opponents from the robber band to the dragon")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def print_report(report: dict[str, Any], console: Any) -> None:
    """A table for the terminal (``console`` is a ``rich.console.Console``)."""
    from rich.table import Table

    table = Table(title="Fimbulfrost: the heroes against each opponent (default rules, heuristic seats)")
    for column in ("opponent", "O/K/S", "method", "P(win)", "out r1-2", "lost r3", *report["heroes"], "opponent"):
        table.add_column(column, justify="left" if column in ("opponent", "method") else "right")
    for r in report["rows"]:
        win = (
            f"{r['p_win']:.3f}"
            if r["method"] == "exact"
            else f"{r['p_win']:.3f} [{r['p_win_low']:.3f}, {r['p_win_high']:.3f}]"
        )
        table.add_row(
            r["name"],
            f"{r['omdomme']}/{r['kamp']}/{r['status']}",
            r["method"],
            win,
            f"{r['p_heroes_out']:.3f}",
            f"{r['p_heroes_lost']:.3f}",
            *(f"{r[f'consequences_{h}']:.2f} ({r[f'p_death_{h}']:.1%} †)" for h in report["heroes"]),
            f"{r['consequences_opponent']:.2f}",
        )
    console.print(table)


__all__ = ["Rung", "ladder", "opponent_report", "print_report", "rung_document"]
