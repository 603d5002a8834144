"""Le våld's weapons, rated: a round robin of duels over the weapon table beside the text's hand-made "Bra".

The text rates each weapon with a number "Bra" (good) that it keeps from the players. This report plays every
ordered pair of different weapons ``n`` times at equal skill (two fighters identical but for their weapons, see
:func:`konflikt.rulesets.levald.scenarios.duel_document`), at each skill level asked for, with the vectorised
kernel (the reference runner when the kernel refuses), and fits a Bradley–Terry rating per weapon:
P(weapon i beats weapon j) = p_i / (p_i + p_j). It then ranks the ratings against "Bra" (Spearman).

Conventions (what the returned numbers mean):
- ``rating`` θ_i = ln p_i, normalised so that the ratings of one skill level **sum to 0** (p's geometric mean 1);
  θ_i − θ_j is the log-odds of i beating j.
- A duel without a winner (deadlock, both leave) counts as half a win for each weapon; each unordered pair also
  gets one virtual draw (half a win each way), which keeps a weapon that never loses finite and moves the
  ratings by well under their intervals at any useful n.
- ``low``/``high``: a 95% interval θ ± 1.96·se from the Fisher information of the fit (its pseudo-inverse, the
  covariance under the sum-to-0 constraint).
- ``spearman``: the rank correlation of the ratings with "Bra", ties given their average rank.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from konflikt.core.scenario import scenario_from_document
from konflikt.rulesets.levald.models import bundled_weapons
from konflikt.rulesets.levald.scenarios import duel_document
from konflikt.sim.engine import simulate

Z95 = 1.959963984540054
VIRTUAL_DRAWS = 1.0
"""Virtual drawn games added to every unordered pair (half a win each way)."""


# ---- the statistics ------------------------------------------------------------------------------------------------
def bradley_terry(wins: np.ndarray, max_iter: int = 10_000, tol: float = 1e-12) -> tuple[np.ndarray, int]:
    """Bradley–Terry strengths by Hunter's MM algorithm: ``wins[i, j]`` = (possibly fractional) wins of i over j.

    Returns (θ = ln p with Σθ = 0, iterations). Each step p_i ← W_i / Σ_j n_ij / (p_i + p_j) raises the
    likelihood; it needs every weapon to have won and lost something (the virtual draws see to that).
    """
    games = wins + wins.T
    total = wins.sum(axis=1)
    if np.any(total <= 0) or np.any(games.sum(axis=1) - total <= 0):
        raise ValueError("every side needs at least one win and one loss for a Bradley–Terry fit")
    p = np.ones(len(wins))
    iteration = 0
    while iteration < max_iter:
        iteration += 1
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = total / denom
        new /= math.exp(float(np.mean(np.log(new))))
        step = float(np.max(np.abs(np.log(new) - np.log(p))))
        p = new
        if step < tol:
            break
    theta = np.log(p)
    return theta - theta.mean(), iteration


def fisher_se(theta: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Standard errors of θ (under Σθ = 0): the pseudo-inverse of the Fisher information of the fit."""
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
    w = games * p * (1 - p)
    info = np.diag(w.sum(axis=1)) - w
    cov = np.linalg.pinv(info)
    se: np.ndarray = np.sqrt(np.clip(np.diag(cov), 0, None))
    return se


def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n, ties sharing the average of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the average ranks (NaN if a side is constant)."""
    if len(x) != len(y):
        raise ValueError(f"spearman needs equal lengths, not {len(x)} and {len(y)}")
    rx, ry = average_ranks(x), average_ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return float("nan")
    return sxy / math.sqrt(sxx * syy)


# ---- the round robin -----------------------------------------------------------------------------------------------
def play_pair(a: str, b: str, skill: int, n: int, seed: int) -> dict[str, Any]:
    """``n`` duels of weapon ``a`` (side_a) against ``b`` (side_b) at ``skill`` %: wins, draws and the engine."""
    document = duel_document(a, b, skill)
    # the source names the skill too: the engine caches kernels by source
    scenario = scenario_from_document(document, f"duel:{a}-{b}@{skill}")
    result = simulate(scenario, n, seed)
    wins_a = result.tally.winners.get(("side_a",), 0)
    wins_b = result.tally.winners.get(("side_b",), 0)
    return {
        "skill": skill,
        "a": a,
        "b": b,
        "n": n,
        "wins_a": wins_a,
        "wins_b": wins_b,
        "draws": n - wins_a - wins_b,
        "engine": result.engine,
        "seconds": result.seconds,
    }


def rate(names: list[str], pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """The Bradley–Terry fit of one skill level's duels."""
    index = {name: i for i, name in enumerate(names)}
    k = len(names)
    wins = np.zeros((k, k))
    record = np.zeros((k, 3))  # wins, losses, draws
    for pair in pairs:
        i, j = index[pair["a"]], index[pair["b"]]
        wins[i, j] += pair["wins_a"] + pair["draws"] / 2
        wins[j, i] += pair["wins_b"] + pair["draws"] / 2
        record[i] += (pair["wins_a"], pair["wins_b"], pair["draws"])
        record[j] += (pair["wins_b"], pair["wins_a"], pair["draws"])
    virtual = VIRTUAL_DRAWS / 2 * (1 - np.eye(k))
    theta, iterations = bradley_terry(wins + virtual)
    se = fisher_se(theta, wins + wins.T + 2 * virtual)
    ratings = {}
    for name, i in index.items():
        w, lost, d = record[i]
        ratings[name] = {
            "rating": float(theta[i]),
            "se": float(se[i]),
            "low": float(theta[i] - Z95 * se[i]),
            "high": float(theta[i] + Z95 * se[i]),
            "strength": float(math.exp(theta[i])),
            "wins": int(w),
            "losses": int(lost),
            "draws": int(d),
            "games": int(w + lost + d),
            "win_share": float((w + d / 2) / max(w + lost + d, 1)),
        }
    return {"ratings": ratings, "iterations": iterations}


def weapon_report(
    n: int, seed: int, skills: list[int], out_dir: Path | None, console: Console | None = None
) -> dict[str, Any]:
    """Rate every weapon of the table by a round robin of duels, beside the text's "Bra"; print, and write files.

    Args:
        n: duels per ordered pair of different weapons (both seat orders are played, so 2n per pair).
        seed: the seed; each (skill, pair) draws from ``SeedSequence(seed, spawn_key=(skill index, pair index))``.
        skills: the skill levels in % (both fighters at the same level, Stridsvana 50, Kraft 12, Själ 12, Gard 12).
        out_dir: where to write ``levald_weapons.csv`` (one row per skill and weapon),
            ``levald_weapon_pairs.csv`` (one row per duel pairing) and ``levald_weapons.png``; ``None``: no files.
        console: where the Rich table goes (default: a new Console on stdout).

    Returns:
        ``{"n", "seed", "skills", "weapons": [{"name", "english", "bra"}], "by_skill": {skill: {"ratings":
        {weapon: {"rating", "se", "low", "high", "strength", "wins", "losses", "draws", "games", "win_share"}},
        "iterations", "spearman"}}, "pairs": [{"skill", "a", "b", "n", "wins_a", "wins_b", "draws", "engine",
        "seconds"}], "engines": sorted engine names used, "files": [paths written]}`` — ratings as documented in
        the module: θ = ln strength, summing to 0 within a skill level, with 95% Fisher intervals.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    if not skills:
        raise ValueError("give at least one skill level")
    weapons = list(bundled_weapons())
    names = [w.name for w in weapons]
    bra = {w.name: w.bra for w in weapons}
    pairs: list[dict[str, Any]] = []
    by_skill: dict[int, dict[str, Any]] = {}
    ordered = [(a, b) for a in names for b in names if a != b]
    for s_index, skill in enumerate(skills):
        level = []
        for p_index, (a, b) in enumerate(ordered):
            seq = np.random.SeedSequence(seed, spawn_key=(s_index, p_index))
            level.append(play_pair(a, b, skill, n, int(seq.generate_state(1)[0])))
        fit = rate(names, level)
        rated = [w for w in names if bra[w] is not None]
        fit["spearman"] = spearman([fit["ratings"][w]["rating"] for w in rated], [float(bra[w] or 0) for w in rated])
        by_skill[skill] = fit
        pairs.extend(level)
    report: dict[str, Any] = {
        "n": n,
        "seed": seed,
        "skills": list(skills),
        "weapons": [{"name": w.name, "english": w.english, "bra": w.bra} for w in weapons],
        "by_skill": by_skill,
        "pairs": pairs,
        "engines": sorted({p["engine"] for p in pairs}),
        "files": [],
    }
    print_report(report, console or Console(markup=False))
    if out_dir is not None:
        report["files"] = [str(p) for p in write_files(report, out_dir)]
    return report


# ---- output --------------------------------------------------------------------------------------------------------
def print_report(report: dict[str, Any], console: Console) -> None:
    """One row per weapon: "Bra", then per skill level the rating with its interval and the share of points won."""
    skills = report["skills"]
    table = Table(
        title=f'Le våld weapons: Bradley–Terry rating (θ, Σθ = 0) beside the text\'s "Bra" — n = {report["n"]} '
        f"duels per ordered pair, seed {report['seed']}",
    )
    table.add_column("Vapen (weapon)")
    table.add_column('"Bra"', justify="right")
    for skill in skills:
        table.add_column(f"θ at {skill}% [95%]", justify="right")
        table.add_column(f"won at {skill}%", justify="right")
    first = report["by_skill"][skills[0]]["ratings"]
    for weapon in sorted(report["weapons"], key=lambda w: -first[w["name"]]["rating"]):
        row = [f"{weapon['name']} ({weapon['english']})", str(weapon["bra"])]
        for skill in skills:
            r = report["by_skill"][skill]["ratings"][weapon["name"]]
            row += [f"{r['rating']:+.2f} [{r['low']:+.2f}, {r['high']:+.2f}]", f"{r['win_share']:.1%}"]
        table.add_row(*row)
    console.print(table)
    rhos = ", ".join(f"{s}%: {report['by_skill'][s]['spearman']:+.2f}" for s in skills)
    console.print(f'Spearman rank correlation of θ with "Bra": {rhos} (engine: {", ".join(report["engines"])})')


def write_files(report: dict[str, Any], out_dir: Path) -> list[Path]:
    """levald_weapons.csv, levald_weapon_pairs.csv and levald_weapons.png in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    ratings_path = out_dir / "levald_weapons.csv"
    columns = ["skill", "weapon", "english", "bra", "rating", "se", "low", "high", "strength"]
    columns += ["wins", "losses", "draws", "games", "win_share", "spearman"]
    with ratings_path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns)
        writer.writeheader()
        for skill in report["skills"]:
            fit = report["by_skill"][skill]
            for weapon in report["weapons"]:
                r = fit["ratings"][weapon["name"]]
                writer.writerow(
                    {"skill": skill, "weapon": weapon["name"], "english": weapon["english"], "bra": weapon["bra"]}
                    | {k: r[k] for k in columns[4:-1]}
                    | {"spearman": fit["spearman"]}
                )
    pairs_path = out_dir / "levald_weapon_pairs.csv"
    with pairs_path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(report["pairs"][0]))
        writer.writeheader()
        writer.writerows(report["pairs"])
    return [ratings_path, pairs_path, plot(report, out_dir / "levald_weapons.png")]


def plot(report: dict[str, Any], path: Path) -> Path:
    """Left: each weapon's rating with its 95% interval per skill level; right: rating against "Bra"."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    weapons = sorted(report["weapons"], key=lambda w: (w["bra"] or 0, w["name"]))
    skills = report["skills"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    width = 0.8 / len(skills)
    for k, skill in enumerate(skills):
        ratings = report["by_skill"][skill]["ratings"]
        xs = [i + (k - (len(skills) - 1) / 2) * width for i in range(len(weapons))]
        ys = [ratings[w["name"]]["rating"] for w in weapons]
        err = [
            [y - ratings[w["name"]]["low"] for w, y in zip(weapons, ys, strict=True)],
            [ratings[w["name"]]["high"] - y for w, y in zip(weapons, ys, strict=True)],
        ]
        left.errorbar(xs, ys, yerr=err, fmt="o", capsize=3, label=f"skill {skill}%")
        rho = report["by_skill"][skill]["spearman"]
        right.scatter([w["bra"] for w in weapons], ys, label=f"skill {skill}% (Spearman {rho:+.2f})")
    left.set_xticks(range(len(weapons)), [f"{w['name']}\nBra {w['bra']}" for w in weapons])
    left.axhline(0, color="grey", lw=0.8)
    left.set_ylabel("Bradley–Terry rating θ (log-odds, Σθ = 0)")
    left.set_title("Weapon ratings with 95% intervals (sorted by Bra)")
    left.grid(alpha=0.3)
    left.legend()
    for w in weapons:
        right.annotate(w["name"], (w["bra"], report["by_skill"][skills[0]]["ratings"][w["name"]]["rating"]), fontsize=8)
    right.set_xlabel('the text\'s "Bra"')
    right.set_ylabel("θ")
    right.set_title('Rating against "Bra"')
    right.grid(alpha=0.3)
    right.legend(fontsize=8)
    fig.suptitle(f"Le våld weapons — {report['n']} duels per ordered pair, seed {report['seed']}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
