"""Plots for sweeps and reports (matplotlib, no screen needed): curves along one axis, heatmaps over two."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from konflikt.core.messages import _
from konflikt.errors import KonfliktError
from konflikt.sim.header import caption, csv_line, make_folder_for, write_text

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
    fig.tight_layout()
    _write(fig, out, [(out, {"dpi": 120})])
    return out


def write_table(
    rows: Sequence[dict[str, Any]], out_dir: Path, stem: str, header: Mapping[str, Any] | None = None
) -> list[Path]:
    """CSV and JSON of the rows, each with the run header (the CSV's first line; the JSON's ``"run"``)."""
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    buffer = io.StringIO()
    if header is not None:
        buffer.write(csv_line(header))
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    csv_path = write_text(out_dir / f"{stem}.csv", buffer.getvalue())
    document: Any = list(rows) if header is None else {"run": dict(header), "rows": list(rows)}
    json_path = write_text(out_dir / f"{stem}.json", json.dumps(document, ensure_ascii=False, indent=1))
    return [csv_path, json_path]


def curve(
    rows: Sequence[dict[str, Any]],
    axis: str,
    series: Mapping[str, str],
    out: Path,
    title: str,
    header: Mapping[str, Any] | None = None,
) -> list[Path]:
    """Probabilities along one axis, one line per column of ``series`` (column → label), with 95% bands where
    ``<column>_lo``/``_hi`` exist, on a 0–1 probability axis."""
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    xs = [str(r[axis]) for r in rows]
    for column, label in series.items():
        ys = [r[column] for r in rows]
        ax.plot(xs, ys, marker="o", label=label)
        if f"{column}_lo" in rows[0]:
            ax.fill_between(xs, [r[f"{column}_lo"] for r in rows], [r[f"{column}_hi"] for r in rows], alpha=0.2)
    ax.set_xlabel(axis)
    ax.set_ylabel("probability (95% interval shaded)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    return save_figure(fig, out, header)


def heatmaps(
    rows: Sequence[dict[str, Any]],
    x: str,
    y: str,
    panels: Mapping[str, str],
    out: Path,
    title: str,
    header: Mapping[str, Any] | None = None,
) -> list[Path]:
    """One heatmap per outcome (column → label) side by side on one 0–1 scale, so a draw is never painted as a
    loss; each cell shows its probability and the half-width of its 95% interval."""
    xs = list(dict.fromkeys(r[x] for r in rows))
    ys = list(dict.fromkeys(r[y] for r in rows))
    count = len(panels)
    fig, axes = plt.subplots(
        1,
        count,
        figsize=(count * (1.0 * len(xs) + 2.2) + 1.5, 0.7 * len(ys) + 3),
        squeeze=False,
        sharey=True,
        layout="constrained",
    )
    image = None
    for ax, (column, label) in zip(axes[0], panels.items(), strict=True):
        grid = [[float("nan")] * len(xs) for _ in ys]
        half = [[0.0] * len(xs) for _ in ys]
        for r in rows:
            i, j = ys.index(r[y]), xs.index(r[x])
            grid[i][j] = r[column]
            if f"{column}_lo" in r:
                half[i][j] = (r[f"{column}_hi"] - r[f"{column}_lo"]) / 2
        image = ax.imshow(grid, vmin=0, vmax=1, cmap="viridis", aspect="auto")
        ax.set_xticks(range(len(xs)), [str(v) for v in xs], rotation=30, ha="right")
        ax.set_yticks(range(len(ys)), [str(v) for v in ys])
        ax.set_xlabel(x)
        ax.set_title(label, fontsize=10)
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                colour = "black" if v > 0.6 else "white"
                ax.text(j, i, f"{v:.0%}\n±{half[i][j]:.0%}", ha="center", va="center", fontsize=7, color=colour)
    axes[0][0].set_ylabel(y)
    if image is not None:
        fig.colorbar(image, ax=list(axes[0]), label="probability", fraction=0.02, pad=0.01)
    fig.suptitle(title)
    return save_figure(fig, out, header, tight=False)


def save_figure(
    fig: Any, out: Path, header: Mapping[str, Any] | None = None, tight: bool = True, text: str | None = None
) -> list[Path]:
    """PNG and SVG, with the run's caption under the plot (``text``, or the sim caption of ``header``) and the
    whole header in the files' metadata."""
    words = text if text is not None else caption(header) if header is not None else None
    if words is not None and tight:
        fig.text(0.01, 0.005, words, fontsize=7, ha="left", va="bottom", color="#444444")
        fig.tight_layout(rect=(0, 0.07, 1, 1))
    elif words is not None:  # a constrained layout makes room for a figure-wide x label
        fig.supxlabel(words, fontsize=7, color="#444444", x=0.01, ha="left")
    elif tight:
        fig.tight_layout()
    paths = [out.with_suffix(".png"), out.with_suffix(".svg")]
    described = json.dumps(dict(header), ensure_ascii=False, sort_keys=True) if header is not None else ""
    metadata = {"Description": described} if described else None
    _write(fig, out, [(paths[0], {"dpi": 130, "metadata": metadata}), (paths[1], {"metadata": metadata})])
    return paths


def _write(fig: Any, out: Path, files: Sequence[tuple[Path, Mapping[str, Any]]]) -> None:
    """The figure saved to each file (its folder made first), then closed however that went; a file that cannot be
    written is one line naming ``out``."""
    try:
        make_folder_for(out)
        for path, options in files:
            fig.savefig(path, **options)
    except OSError as exc:
        raise KonfliktError(_("cannot write {path}: {why}", path=out, why=exc.strerror or exc)) from None
    finally:
        plt.close(fig)
