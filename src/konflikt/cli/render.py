"""Rich rendering shared by the commands: probability tables with bars, status tables, the narrated log."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich.console import Console
from rich.table import Table

from konflikt.core.events import Event
from konflikt.core.state import State
from konflikt.dice.distribution import fraction_text

BAR_WIDTH = 32

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


def probability_table(title: str, label: str, rows: Sequence[tuple[str, Fraction]]) -> Table:
    table = Table(title=title, title_justify="left")
    widest = max((len(fraction_text(p)) for _, p in rows), default=4)
    table.add_column(label, justify="right", overflow="fold")
    table.add_column("probability", justify="right", no_wrap=True, min_width=min(widest, 40))
    table.add_column("%", justify="right", no_wrap=True)
    table.add_column("", justify="left", style="green", no_wrap=True, overflow="crop")
    peak = max((p for _, p in rows), default=Fraction(0))
    for key, p in rows:
        table.add_row(key, fraction_text(p), f"{float(p) * 100:.2f}", bar(p, peak))
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
