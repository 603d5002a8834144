"""A round-robin report (:class:`konflikt.core.reports.RoundRobin`): entrants rated by duels, beside the text's rating.

Every ordered pair of different entrants meets ``n`` times at each level, with the vectorised kernel (the reference
runner where the kernel refuses), and a Bradley–Terry fit rates them: P(i beats j) = p_i / (p_i + p_j), θ = ln p
(see :mod:`konflikt.reports.ratings`). A reader reads a chance, not a log-odds: each entrant is shown as its chance
to beat the ruleset's baseline entrant, with a 95% interval. Each entrant also meets itself (the mirror match): at
equal skill and equal weapons the duel must favour neither seat, so its share lies at ½ within its error.

- A duel without a winner (deadlock, both leave) counts as half a win for each entrant; each unordered pair also
  gets one virtual draw (half a win each way), which keeps an entrant that never loses finite and moves the
  ratings by well under their intervals at any useful n.
- ``spearman``: the rank correlation of the ratings with the text's own rating, ties given their average rank.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from konflikt.core.i18n import BILINGUAL, current, number, percent
from konflikt.core.messages import _
from konflikt.core.reports import Report, RoundRobin
from konflikt.core.ruleset import Ruleset
from konflikt.core.scenario import scenario_from_document
from konflikt.core.thousands import grouped
from konflikt.reports.figures import report_header, save_figure, write_csv
from konflikt.reports.ratings import Z95, beats, bradley_terry, fisher_cov, spearman
from konflikt.sim.engine import simulate

VIRTUAL_DRAWS = 1.0
"""Virtual drawn games added to every unordered pair (half a win each way)."""


def play_pair(content: RoundRobin, a: str, b: str, level: int, n: int, seed: int) -> dict[str, Any]:
    """``n`` duels of ``a`` (the first side) against ``b`` (the second) at ``level``: wins, draws and the engine."""
    document = content.match(a, b, level)
    # the source names the level too: the engine caches kernels by source
    scenario = scenario_from_document(document, f"duel:{a}-{b}@{level}")
    result = simulate(scenario, n, seed)
    first, second = content.sides
    wins_a = result.tally.winners.get((first,), 0)
    wins_b = result.tally.winners.get((second,), 0)
    return {
        "level": level,
        "a": a,
        "b": b,
        "n": n,
        "wins_a": wins_a,
        "wins_b": wins_b,
        "draws": n - wins_a - wins_b,
        "engine": result.engine,
        "seconds": result.seconds,
    }


def mirror(pair: dict[str, Any]) -> dict[str, Any]:
    """A mirror match's first seat: its share of points (a draw is half) and that share's standard error."""
    n = pair["n"]
    share = (pair["wins_a"] + pair["draws"] / 2) / n
    # per duel the first seat scores 1, ½ or 0: the variance of that score over n
    square = (pair["wins_a"] + pair["draws"] / 4) / n
    se = math.sqrt(max(0.0, square - share * share) / n)
    return {"n": n, "wins_a": pair["wins_a"], "wins_b": pair["wins_b"], "draws": pair["draws"]} | {
        "share_a": share,
        "se": se,
    }


def head_to_head(pairs: list[dict[str, Any]], baseline: str) -> dict[str, dict[str, Any]]:
    """Each entrant's own duels against the baseline (both seat orders): the share of points it took (a draw is
    half) and that share's standard error — the observed figure beside the fit's."""
    score: dict[str, list[float]] = {}
    for pair in pairs:
        for me, foe, won in ((pair["a"], pair["b"], pair["wins_a"]), (pair["b"], pair["a"], pair["wins_b"])):
            if foe == baseline and me != baseline:
                entry = score.setdefault(me, [0.0, 0.0, 0.0])
                entry[0] += pair["n"]
                entry[1] += won + pair["draws"] / 2
                entry[2] += won + pair["draws"] / 4
    out = {}
    for name, (n, points, square) in score.items():
        share = points / n
        out[name] = {
            "duels_vs_baseline": int(n),
            "share_vs_baseline": share,
            "share_se": math.sqrt(max(0.0, square / n - share * share) / n),
        }
    return out


def rate(names: list[str], pairs: list[dict[str, Any]], baseline: str) -> dict[str, Any]:
    """The Bradley–Terry fit of one level's duels (pairs of different entrants)."""
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
    cov = fisher_cov(theta, wins + wins.T + 2 * virtual)
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    ratings = {}
    direct = head_to_head(pairs, baseline)
    for name, i in index.items():
        w, lost, d = record[i]
        p, p_low, p_high = beats(theta, cov, i, index[baseline])
        ratings[name] = {
            "rating": float(theta[i]),
            "se": float(se[i]),
            "low": float(theta[i] - Z95 * se[i]),
            "high": float(theta[i] + Z95 * se[i]),
            "strength": float(math.exp(theta[i])),
            "p_beats_baseline": p,
            "p_low": p_low,
            "p_high": p_high,
            **direct.get(name, {"duels_vs_baseline": 0, "share_vs_baseline": 0.5, "share_se": 0.0}),
            "wins": int(w),
            "losses": int(lost),
            "draws": int(d),
            "games": int(w + lost + d),
            "win_share": float((w + d / 2) / max(w + lost + d, 1)),
        }
    return {"ratings": ratings, "iterations": iterations}


def round_robin_report(
    ruleset: Ruleset,
    report: Report,
    n: int,
    seed: int,
    levels: list[int],
    out_dir: Path | None,
    console: Console | None = None,
) -> dict[str, Any]:
    """Rate every entrant by a round robin of duels, beside the text's own rating; print, and write files.

    Args:
        ruleset, report: the ruleset and its report (``report.content`` is a :class:`RoundRobin`).
        n: duels per ordered pair (both seat orders are played, so 2n per pair) and per mirror match.
        seed: the seed; each (level, pair) draws from ``SeedSequence(seed, spawn_key=(level index, pair index))``.
        levels: the levels (both fighters at the same level).
        out_dir: where to write ``<id>_<name>.csv`` (one row per level and entrant), ``<id>_<name>_pairs.csv``
            (one row per pairing, mirrors included) and the plot ``<id>_<name>.png``/``.svg``; ``None``: no files.
        console: where the Rich table goes (default: a new Console on stdout).

    Returns:
        ``{"report", "title", "n", "seed", "levels", "level_name", "level_unit", "baseline", "reference_name",
        "entrant_word", "entrants": [{"name", "english", "reference"}], "by_level", "pairs", "engines", "run",
        "files"}``. ``by_level[level]`` is ``{"ratings", "iterations", "spearman", "mirrors"}``: per entrant
        ``ratings`` holds ``rating, se, low, high, strength`` (θ sums to 0 within a level, 95% Fisher intervals),
        ``p_beats_baseline, p_low, p_high`` (the fit's chance to beat the baseline), ``duels_vs_baseline,
        share_vs_baseline, share_se`` (its own duels against it), ``wins, losses, draws, games, win_share``;
        ``mirrors`` per entrant ``n, wins_a, wins_b, draws, share_a, se``.
    """
    content = report.content
    assert isinstance(content, RoundRobin)
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    if not levels:
        raise ValueError(f"give at least one {content.level_name} level")
    entrants = list(content.entrants())
    names = [e.name for e in entrants]
    if content.baseline not in names:
        raise ValueError(f"the baseline {content.baseline!r} is not an entrant")
    reference = {e.name: e.reference for e in entrants}
    pairs: list[dict[str, Any]] = []
    by_level: dict[int, dict[str, Any]] = {}
    ordered = [(a, b) for a in names for b in names]  # the diagonal: mirror matches
    for l_index, level in enumerate(levels):
        played = []
        for p_index, (a, b) in enumerate(ordered):
            seq = np.random.SeedSequence(seed, spawn_key=(l_index, p_index))
            played.append(play_pair(content, a, b, level, n, int(seq.generate_state(1)[0])))
        fit = rate(names, [p for p in played if p["a"] != p["b"]], content.baseline)
        rated = [w for w in names if reference[w] is not None]
        fit["spearman"] = spearman(
            [fit["ratings"][w]["rating"] for w in rated], [float(reference[w] or 0) for w in rated]
        )
        fit["mirrors"] = {p["a"]: mirror(p) for p in played if p["a"] == p["b"]}
        by_level[level] = fit
        pairs.extend(played)
    example = content.match(names[0], names[-1], levels[0])
    data: dict[str, Any] = {
        "report": f"{ruleset.id}-{report.name}",
        "title": report.title,
        "n": n,
        "seed": seed,
        "levels": list(levels),
        "level_name": content.level_name,
        "level_unit": content.level_unit,
        "baseline": content.baseline,
        "reference_name": content.reference_name,
        "entrant_word": content.entrant_word,
        "entrants": [{"name": e.name, "english": e.english, "reference": e.reference} for e in entrants],
        "by_level": by_level,
        "pairs": pairs,
        "engines": sorted({p["engine"] for p in pairs}),
        "files": [],
    }
    data["run"] = report_header(ruleset, data, example, content.scenario_words)
    print_report(data, console or Console(markup=False))
    if out_dir is not None:
        data["files"] = [str(p) for p in write_files(data, out_dir)]
    return data


def _english(data: dict[str, Any], name: str) -> str:
    """An entrant's name, with its English gloss where the language in use is English or ``both``."""
    gloss = next((e["english"] for e in data["entrants"] if e["name"] == name), "")
    return f"{name} ({gloss})" if gloss and current() in ("en", BILINGUAL) else name


def _share(share: float, se: float) -> str:
    """A share ± its 95% interval: ``52.0% ± 3.1%``."""
    return f"{percent(100 * share, 1)} ± {percent(100 * (Z95 * se), 1)}"


# ---- output --------------------------------------------------------------------------------------------------------
def print_report(data: dict[str, Any], console: Console) -> None:
    """One row per entrant, strongest head to head first: the text's rating, then per level the headline — its own
    duels against the baseline (the share of points, both seat orders) — and, labelled as such, the Bradley–Terry
    fit's chance to beat the baseline over every pairing, and the mirror match."""
    levels, unit = data["levels"], data["level_unit"]
    table = Table(
        title=_(
            "{title} — n = {n} duels per ordered pair, seed {seed}", title=data["title"], n=data["n"], seed=data["seed"]
        )
    )
    table.add_column(data["entrant_word"], overflow="fold")
    if data["reference_name"]:
        table.add_column(data["reference_name"], justify="right", overflow="fold")
    baseline = _english(data, data["baseline"])
    for level in levels:
        at = f"{level}{unit}"
        table.add_column(
            _("head to head vs {baseline} at {level}", baseline=data["baseline"], level=at),
            justify="right",
            overflow="fold",
        )
        table.add_column(
            _(
                "Bradley–Terry fit: P(beats {baseline}) at {level} [{interval}]",
                baseline=data["baseline"],
                level=at,
                interval=percent(95, 0),
            ),
            justify="right",
            overflow="fold",
        )
        table.add_column(_("mirror at {level}", level=at), justify="right", overflow="fold")
    first = data["by_level"][levels[0]]["ratings"]

    def headline(name: str) -> tuple[float, float]:
        r = first[name]
        return (-r["share_vs_baseline"] if r["duels_vs_baseline"] else -0.5, -r["rating"])

    for entrant in sorted(data["entrants"], key=lambda e: headline(e["name"])):
        row = [_english(data, entrant["name"])]
        if data["reference_name"]:
            row.append(str(entrant["reference"]))
        for level in levels:
            r = data["by_level"][level]["ratings"][entrant["name"]]
            m = data["by_level"][level]["mirrors"][entrant["name"]]
            direct = _share(r["share_vs_baseline"], r["share_se"]) if r["duels_vs_baseline"] else _("(the baseline)")
            fit = [percent(100 * r[k], 1) for k in ("p_beats_baseline", "p_low", "p_high")]
            row += [direct, f"{fit[0]} [{fit[1]}, {fit[2]}]", _share(m["share_a"], m["se"])]
        table.add_row(*row)
    console.print(table)
    if data["reference_name"]:
        rhos = ", ".join(f"{s}{unit}: {_signed(data['by_level'][s]['spearman'])}" for s in levels)
        console.print(
            _(
                "Spearman rank correlation of the fit's rating with {reference}: {rhos}",
                reference=data["reference_name"],
                rhos=rhos,
            )
        )
    console.print(
        _(
            "head to head: the share of points each took in its own duels against {baseline} (both seat orders, a "
            "draw is half; ± its {interval} interval); Bradley–Terry fit: the chance to beat {baseline} that one "
            "strength per entrant fitted over every pairing gives (a model, θ in the CSV and JSON); mirror: the first "
            "seat's share when an entrant meets itself (even: {even}) · engine: {engines}",
            baseline=baseline,
            interval=percent(95, 0),
            even=percent(50, 0),
            engines=", ".join(data["engines"]),
        )
    )


def _signed(value: float) -> str:
    """``+0.83``: a correlation with its sign, the language's decimal sign."""
    return ("+" if value >= 0 else "") + number(value, 2)


def write_files(data: dict[str, Any], out_dir: Path) -> list[Path]:
    """``<report>.csv``, ``<report>_pairs.csv`` and the plot ``<report>.png``/``.svg`` in ``out_dir``."""
    stem = data["report"].replace("-", "_")
    rows = []
    for level in data["levels"]:
        fit = data["by_level"][level]
        for entrant in data["entrants"]:
            r, m = fit["ratings"][entrant["name"]], fit["mirrors"][entrant["name"]]
            row = {"level": level, "entrant": entrant["name"], "english": entrant["english"]}
            row |= {"reference": entrant["reference"]} | r | {"spearman": fit["spearman"]}
            row |= {"mirror_share_a": m["share_a"], "mirror_se": m["se"]}
            rows.append(row)
    ratings = write_csv(out_dir / f"{stem}.csv", rows, data["run"])
    pairs = write_csv(out_dir / f"{stem}_pairs.csv", data["pairs"], data["run"])
    per = _("duels per ordered pair and per mirror match")
    return [ratings, pairs, *save_figure(figure(data), out_dir / stem, data["run"], per)]


def figure(data: dict[str, Any]) -> Any:
    """Left: each entrant's chance to beat the baseline with its 95% interval, per level — the fit's (dots) and
    its own duels against the baseline (crosses); right: the fit's chance against the text's own rating. Names on
    the axis, n and the run in the caption."""
    import matplotlib.pyplot as plt

    entrants = sorted(data["entrants"], key=lambda e: (e["reference"] or 0, e["name"]))
    levels, unit = data["levels"], data["level_unit"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12.5, 5.2))
    width = 0.8 / len(levels)
    for k, level in enumerate(levels):
        ratings = data["by_level"][level]["ratings"]
        xs = [i + (k - (len(levels) - 1) / 2) * width for i in range(len(entrants))]
        ys = [ratings[e["name"]]["p_beats_baseline"] for e in entrants]
        err = [
            [y - ratings[e["name"]]["p_low"] for e, y in zip(entrants, ys, strict=True)],
            [ratings[e["name"]]["p_high"] - y for e, y in zip(entrants, ys, strict=True)],
        ]
        label = f"{data['level_name']} {level}{unit}"
        left.errorbar(xs, ys, yerr=err, fmt="o", capsize=3, label=_("{label}: fit", label=label), color=f"C{k}")
        seen = [e for e in entrants if e["name"] != data["baseline"]]
        left.errorbar(
            [x + width / 3 for x, e in zip(xs, entrants, strict=True) if e["name"] != data["baseline"]],
            [ratings[e["name"]]["share_vs_baseline"] for e in seen],
            yerr=[Z95 * ratings[e["name"]]["share_se"] for e in seen],
            fmt="x",
            capsize=2,
            color=f"C{k}",
            alpha=0.7,
            label=_("{label}: own duels against it", label=label),
        )
        if data["reference_name"]:
            rho = data["by_level"][level]["spearman"]
            rated = [e for e in entrants if e["reference"] is not None]
            right.errorbar(
                [e["reference"] for e in rated],
                [ratings[e["name"]]["p_beats_baseline"] for e in rated],
                yerr=[
                    [ratings[e["name"]]["p_beats_baseline"] - ratings[e["name"]]["p_low"] for e in rated],
                    [ratings[e["name"]]["p_high"] - ratings[e["name"]]["p_beats_baseline"] for e in rated],
                ],
                fmt="o",
                capsize=3,
                color=f"C{k}",
                label=_("{label} (Spearman {rho})", label=label, rho=_signed(rho)),
            )
    baseline = _english(data, data["baseline"])
    ylabel = _("P(beats {baseline}), {interval} interval", baseline=baseline, interval=percent(95, 0))
    from matplotlib.ticker import MaxNLocator

    right.xaxis.set_major_locator(MaxNLocator(integer=True))
    ticks = [_english(data, e["name"]).replace(" (", "\n(") for e in entrants]
    if data["reference_name"]:
        ticks = [f"{t}\n{data['reference_name']} {e['reference']}" for t, e in zip(ticks, entrants, strict=True)]
    left.set_xticks(range(len(entrants)), ticks, fontsize=8)
    left.axhline(0.5, color="grey", lw=0.8)
    left.set_ylim(0, 1)
    left.set_xlabel(data["entrant_word"])
    left.set_ylabel(ylabel)
    left.set_title(_("Chance to beat {baseline} (Bradley–Terry fit)", baseline=baseline))
    left.grid(alpha=0.3)
    left.legend(fontsize=8)
    if data["reference_name"]:
        for e in entrants:
            if e["reference"] is not None:
                p = data["by_level"][levels[0]]["ratings"][e["name"]]["p_beats_baseline"]
                right.annotate(e["name"], (e["reference"], p), fontsize=8, xytext=(4, 4), textcoords="offset points")
        right.axhline(0.5, color="grey", lw=0.8)
        right.set_ylim(0, 1)
        right.set_xlabel(_("the text's {reference}", reference=data["reference_name"]))
        right.set_ylabel(ylabel)
        right.set_title(_("Against the text's {reference}", reference=data["reference_name"]))
        right.grid(alpha=0.3)
        right.legend(fontsize=8)
    else:
        right.set_visible(False)
    fig.suptitle(_("{title} — n = {n} duels per ordered pair", title=data["title"], n=grouped(data["n"])))
    return fig


__all__ = ["figure", "mirror", "play_pair", "rate", "round_robin_report"]
