"""Rich rendering shared by the commands: probability tables with bars, status tables, the narrated log."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from konflikt.core.events import Event
from konflikt.core.outcome import Aftermath
from konflikt.core.ruleset import get_ruleset
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
        table.add_row(Text(key), text, f"{float(p) * 100:.2f}", bar(p, peak))
    return table


def status_table(state: State, title: str | None = None) -> Table:
    """Every track and pool: one column per participant (and the table's shared facts), one row per field."""
    status = state.status()
    fields: list[str] = []
    for cols in status.values():
        for c in cols:
            if c not in fields:
                fields.append(c)
    table = Table(title=Text(title) if title else None, title_justify="left", show_lines=False)
    table.add_column("", style="bold")
    for row in status:
        table.add_column(Text(row), overflow="fold")
    for f in fields:
        table.add_row(Text(f), *(Text(str(status[row].get(f, ""))) for row in status))
    return table


def outcome_panel(state: State) -> Panel:
    """How the conflict ended, each participant's fate, and what carries into the next conflict (the aftermath)."""
    outcome = state.outcome()
    body = Text(outcome.summary, style="bold")
    for pid, fate in outcome.participants.items():
        body.append(f"\n{pid}: {fate}")
    aftermath = aftermath_of(state)
    if aftermath is not None and aftermath.lines:
        body.append("\nafter the conflict (what carries into the next one):", style="dim")
        for line in aftermath.lines:
            body.append(f"\n  {line}")
    return Panel(body, title=Text(f"outcome: {outcome.ending}"), expand=False)


def aftermath_of(state: State) -> Aftermath | None:
    """The ruleset's between-conflict rules applied to a finished conflict, where the ruleset has them."""
    ruleset = get_ruleset(state.ruleset)
    return ruleset.aftermath(state) if ruleset.aftermath is not None else None


def print_events(console: Console, events: Sequence[Event]) -> None:
    for event in events:
        style = EVENT_STYLES.get(event.kind)
        console.print(event.text, style=style, highlight=False, markup=False)
