"""Plots for sweeps and reports (matplotlib, no screen needed): curves along one axis, heatmaps over two."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

plt.rcParams["svg.fonttype"] = "none"  # text stays text in SVG: searchable, and editable in a rules document


def distribution_plot(title: str, label: str, rows: Sequence[tuple[str, Any]], cumulative: bool, out: Path) -> Path:
    """Bars of an exact distribution; with ``cumulative``, the at-least and at-most curves on the same axis."""
    fig, ax = plt.subplots(figsize=(max(5.0, 0.28 * len(rows) + 2), 4))
    keys = [k for k, _ in rows]
    ps = [float(p) for _, p in rows]
    ax.bar(keys, ps, color="#4c78a8", label="exactly")
    if cumulative:
        at_least = [sum(ps[i:]) for i in range(len(ps))]
        at_most = [sum(ps[: i + 1]) for i in range(len(ps))]
        ax.plot(keys, at_least, marker=".", color="#e45756", label="at least")
        ax.plot(keys, at_most, marker=".", color="#54a24b", label="at most")
        ax.legend()
    ax.set_xlabel(label)
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1.02 if cumulative else max(ps, default=1) * 1.15)
    ax.set_title(title)
    ax.grid(alpha=0.3, axis="y")
    if len(keys) > 20:
        step = (len(keys) + 19) // 20
        ax.set_xticks(range(0, len(keys), step), keys[::step])
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def write_table(rows: Sequence[dict[str, Any]], out_dir: Path, stem: str) -> list[Path]:
    """CSV and JSON of the rows."""
    out_dir.mkdir(parents=True, exist_ok=True)
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    csv_path = out_dir / f"{stem}.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    json_path = out_dir / f"{stem}.json"
    json_path.write_text(json.dumps(list(rows), ensure_ascii=False, indent=1), encoding="utf-8")
    return [csv_path, json_path]


def curve(rows: Sequence[dict[str, Any]], axis: str, series: Sequence[str], out: Path, title: str) -> list[Path]:
    """Win rates (with their 95% intervals when ``<name>_lo``/``_hi`` exist) along one axis, as PNG and SVG."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    xs = [str(r[axis]) for r in rows]
    for name in series:
        ys = [r[name] for r in rows]
        ax.plot(xs, ys, marker="o", label=name)
        if f"{name}_lo" in rows[0]:
            ax.fill_between(xs, [r[f"{name}_lo"] for r in rows], [r[f"{name}_hi"] for r in rows], alpha=0.2)
    ax.set_xlabel(axis)
    ax.set_ylabel("share")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    return _save(fig, out)


def heatmap(rows: Sequence[dict[str, Any]], x: str, y: str, value: str, out: Path, title: str) -> list[Path]:
    xs = list(dict.fromkeys(r[x] for r in rows))
    ys = list(dict.fromkeys(r[y] for r in rows))
    grid = [[float("nan")] * len(xs) for _ in ys]
    for r in rows:
        grid[ys.index(r[y])][xs.index(r[x])] = r[value]
    fig, ax = plt.subplots(figsize=(1.2 * len(xs) + 3, 0.8 * len(ys) + 2.5))
    image = ax.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn", aspect="auto")
    ax.set_xticks(range(len(xs)), [str(v) for v in xs], rotation=30, ha="right")
    ax.set_yticks(range(len(ys)), [str(v) for v in ys])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=8)
    fig.colorbar(image, ax=ax, label=value)
    ax.set_title(title)
    return _save(fig, out)


def _save(fig: Any, out: Path) -> list[Path]:
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    paths = [out.with_suffix(".png"), out.with_suffix(".svg")]
    for path in paths:
        fig.savefig(path, dpi=120)
    plt.close(fig)
    return paths
