"""Rich rendering shared by the commands: probability tables with bars, status tables, the narrated log."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich.console import Console
from rich.table import Table

from konflikt.core.events import Event
from konflikt.core.state import State
from konflikt.dice.distribution import fraction_text

BAR_WIDTH = 20

EVENT_STYLES = {
    "roll": "cyan",
    "secret_made": "dim",
    "setup": "bold",
    "outcome": "bold green",
    "taken_out": "bold red",
    "concede": "yellow",
}


def bar(p: Fraction, peak: Fraction) -> str:
    if peak == 0:
        return ""
    cells = float(p / peak) * BAR_WIDTH
    full = int(cells)
    return "█" * full + ("▌" if cells - full >= 0.5 else "")


LONG_FRACTION = 24


def shown_fraction(p: Fraction) -> str:
    """The reduced fraction, or, when it is too long to read, its decimal (the exact value is in ``--json``)."""
    text = fraction_text(p)
    if len(text) <= LONG_FRACTION:
        return text
    return f"{float(p):.10f}… ({len(str(p.denominator))}-digit q)"


def probability_table(title: str, label: str, rows: Sequence[tuple[str, Fraction]]) -> Table:
    table = Table(title=title, title_justify="left")
    texts = [shown_fraction(p) for _, p in rows]
    widest = max((len(t) for t in texts), default=4)
    table.add_column(
        label, justify="right", overflow="fold", min_width=min(12, max((len(k) for k, _ in rows), default=4))
    )
    table.add_column("probability", justify="right", no_wrap=True, min_width=min(widest, 30))
    table.add_column("%", justify="right", no_wrap=True)
    table.add_column("", justify="left", style="green", no_wrap=True, overflow="crop")
    peak = max((p for _, p in rows), default=Fraction(0))
    for (key, p), text in zip(rows, texts, strict=True):
        table.add_row(key, text, f"{float(p) * 100:.2f}", bar(p, peak))
    return table


def status_table(state: State, title: str | None = None) -> Table:
    """Every track and pool: one column per participant (and the table's shared facts), one row per field."""
    status = state.status()
    fields: list[str] = []
    for cols in status.values():
        for c in cols:
            if c not in fields:
                fields.append(c)
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("", style="bold")
    for row in status:
        table.add_column(row, overflow="fold")
    for f in fields:
        table.add_row(f, *(status[row].get(f, "") for row in status))
    return table


def print_events(console: Console, events: Sequence[Event]) -> None:
    for event in events:
        style = EVENT_STYLES.get(event.kind)
        console.print(event.text, style=style, highlight=False, markup=False)
