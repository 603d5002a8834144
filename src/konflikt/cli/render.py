"""Rich rendering shared by the commands: probability tables with bars, status tables, the narrated log."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from konflikt.cli.i18n import _, pgettext, whole
from konflikt.core.events import Event
from konflikt.core.names import named
from konflikt.core.odds import Probability, percent_text
from konflikt.core.outcome import Aftermath
from konflikt.core.ruleset import get_ruleset
from konflikt.core.state import State
from konflikt.dice.distribution import decimal_text, fraction_text
from konflikt.safe_text import shown

BAR_WIDTH = 20

EVENT_STYLES = {
    "roll": "cyan",
    "secret_made": "dim",
    "setup": "bold",
    "outcome": "bold green",
    "taken_out": "bold red",
    "concede": "yellow",
}


def plain_console(**kwargs: Any) -> Console:
    """A Rich console that reads no markup: what konflikt prints comes from scenarios, characters, rules and users,
    and a track like ``[x1][1][2-3]`` or a name like ``Jan [the Bold]`` must print as written. Styles are given as
    ``style=`` or as :class:`rich.text.Text`, never as markup in the string."""
    return PipeConsole(markup=False, **kwargs)


class PipeConsole(Console):
    """A console whose reader may stop early (``konflikt run … | head -1``): that is a success, exit code 0."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        quiet_stdout()
        raise SystemExit(0)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        """Every text printed passes here: its control characters are shown as escapes (``\\x1b``), so a title or
        name from a shared file never drives the terminal (:func:`konflikt.safe_text.shown`); Rich's own control
        segments (a live display's cursor moves) pass as they are."""
        return super()._render_buffer(s if s.control else Segment(shown(s.text), s.style) for s in buffer)


def quiet_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush does not fail on the closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def bar(p: Probability, peak: Probability) -> str:
    if peak == 0:
        return ""
    cells = float(p / peak) * BAR_WIDTH
    full = int(cells)
    return "█" * full + ("▌" if cells - full >= 0.5 else "")


LONG_FRACTION = 24
SHORT_FRACTION = 11
"""Fractions this short get their own column beside the decimals; longer ones only with ``--exact``."""


def probability_text(p: Probability) -> str:
    """A probability as a decimal of 6 significant digits, a Fraction or a float alike (a float by its exact
    binary value, rounded as a Fraction's decimal is)."""
    return decimal_text(p if isinstance(p, Fraction) else Fraction(p))


def shown_fraction(p: Fraction) -> str:
    """The reduced fraction, or, when it is too long to read, its decimal (the exact value is in ``--json``)."""
    text = fraction_text(p)
    return text if len(text) <= LONG_FRACTION else decimal_text(p)


def probability_table(
    title: str,
    label: str,
    rows: Sequence[tuple[str, Probability]],
    exact: bool = False,
    cumulative: bool = False,
    played: int | None = None,
) -> Table:
    """One row per outcome: its probability as a decimal with enough digits to tell rows apart, the exact fraction
    when every one is short enough to read (always with ``exact``), and at-least / at-most columns when the
    outcomes are ordered numbers (``cumulative``). Rows computed in floats have no fraction to show. An estimate
    (``played`` conflicts, each row a share of them) shows how many ended so instead: a count over the conflicts
    played is not an exact value, and a column headed "exact" would say it is."""
    if played is not None:
        fractions = [f"{int(p * played):,}" for _, p in rows]
    else:
        fractions = [fraction_text(p) if isinstance(p, Fraction) else "" for _, p in rows]
    floats = any(not isinstance(p, Fraction) for _, p in rows)
    show_exact = not floats and (exact or played is not None or all(len(t) <= SHORT_FRACTION for t in fractions))
    table = Table(title=Text(title), title_justify="left")
    table.add_column(Text(label), justify="right", overflow="fold", min_width=min(len(label), 12))
    table.add_column(_("probability"), justify="right", no_wrap=True, min_width=11)
    if show_exact:
        heading = _("exact") if played is None else _("of {count} played", count=whole(played))
        table.add_column(heading, justify="right", no_wrap=not exact, overflow="fold")
    if cumulative:
        table.add_column(_("at least"), justify="right", no_wrap=True)
        table.add_column(_("at most"), justify="right", no_wrap=True)
    else:
        table.add_column("%", justify="right", no_wrap=True)
    table.add_column("", justify="left", style="green", no_wrap=True, overflow="crop", max_width=BAR_WIDTH)
    peak: Probability = max((p for _, p in rows), default=Fraction(0))
    total: Probability = sum((p for _, p in rows), Fraction(0))
    below: Probability = Fraction(0)
    for (key, p), text in zip(rows, fractions, strict=True):
        cells: list[Text | str] = [Text(key), probability_text(p)]
        if show_exact:
            cells.append(text)
        if cumulative:
            cells += [percent(total - below), percent(below + p)]
        else:
            cells.append(percent(p))
        below += p
        table.add_row(*cells, bar(p, peak))
    return table


percent = percent_text
"""The chance as the odds tables write it (:func:`konflikt.core.odds.percent_text`)."""


def current_status(state: State) -> dict[str, dict[str, str]]:
    """Every track and pool as the table stands now: :meth:`State.status`, with the cells the pending roll or
    decision is deciding afresh (:meth:`State.status_pending`) in place of what the step before left."""
    status = {row: dict(cols) for row, cols in state.status().items()}
    for row, cells in state.status_pending().items():
        status.setdefault(row, {}).update(cells)
    return status


def readable(text: str, names: Mapping[str, str], words: Mapping[str, str] | None = None) -> str:
    """``text`` as people read it: participant and side ids as names (:func:`named`), and the ids a ruleset's texts
    hold (:meth:`State.id_words`: a list entry, ``belzee:mild``) as their words, wherever such an id stands alone."""
    text = named(text, names)
    if not words:
        return text
    keys = sorted(words, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w:-])(" + "|".join(re.escape(k) for k in keys) + r")(?![\w-]|:\w)")
    return pattern.sub(lambda m: words[m.group(1)], text)


def row_name(row: str, names: Mapping[str, str]) -> str:
    """A status row's heading: the participant's name, or the table's shared facts in words."""
    if row in names:
        return names[row]
    return pgettext("status column", "table") if row == "table" else row


def status_table(
    state: State,
    title: str | None = None,
    *,
    since: Mapping[str, Mapping[str, str]] | None = None,
    names: Mapping[str, str] | None = None,
) -> Table | None:
    """Every track and pool: one column per participant (and the table's shared facts), one row per field.

    Args:
        since: the status before a step: only the fields that changed are shown (``None`` when none did).
        names: participant and side ids → names, for the column heads and for cells that hold an id.
    """
    status = current_status(state)
    names = names or {}
    words = state.id_words()
    fields: list[str] = []
    for cols in status.values():
        for c in cols:
            if c not in fields:
                fields.append(c)
    if since is not None:
        fields = [f for f in fields if any(status[r].get(f) != since.get(r, {}).get(f) for r in status)]
        if not fields:
            return None
    table = Table(title=Text(title) if title else None, title_justify="left", show_lines=False)
    table.add_column("", style="bold", overflow="fold")  # a narrow terminal folds a row's name, never cuts it
    for row in status:
        table.add_column(Text(row_name(row, names)), overflow="fold")
    for f in fields:
        cells = (str(status[row].get(f, "")) for row in status)
        table.add_row(Text(f), *(Text(readable(cell, names, words)) for cell in cells))
    return table


CHANGED = "  ↳ "
"""The mark of a line of what a step changed on the table (the default view's compact form of the status table)."""
SHORT_CELL = 16
"""A changed cell this short is shown as ``before → after``; a longer one (a track, a list) as its new value."""


def status_changes(
    state: State, before: Mapping[str, Mapping[str, str]], names: Mapping[str, str] | None = None
) -> list[str]:
    """What a step changed on the table, one line per participant (and one for the table's shared facts): each
    changed field with its new value, ``before → after`` where both are short. Nothing is left out."""
    status = current_status(state)
    names = names or {}
    words = state.id_words()
    lines = []
    for row, cols in status.items():
        changes = []
        for field, now in cols.items():
            was = before.get(row, {}).get(field)
            if now == was:
                continue
            now_text = readable(str(now), names, words)
            if was and len(was) <= SHORT_CELL and len(now) <= SHORT_CELL:
                changes.append(f"{field} {readable(was, names, words)} → {now_text}")
            else:
                changes.append(f"{field} {now_text}")
        if changes:
            who = "" if row == "table" else f"{names.get(row, row)}: "
            lines.append(f"{who}{'; '.join(changes)}")
    return lines


def setup_lines(state: State, names: Mapping[str, str] | None = None) -> list[str]:
    """The set-up facts (:meth:`State.setup_facts`), one line per participant: every number the rules read."""
    names = names or {}
    return [
        f"{names.get(pid, pid)} — " + "; ".join(f"{label}: {value}" for label, value in facts.items())
        for pid, facts in state.setup_facts().items()
        if facts
    ]


def setup_panel(state: State, names: Mapping[str, str] | None = None) -> Panel | None:
    """The opening panel: each participant's set-up facts, the numbers a game master checks the rules against."""
    lines = setup_lines(state, names)
    if not lines:
        return None
    body = Text()
    for n, line in enumerate(lines):
        if n:
            body.append("\n")
        who, _dash, rest = line.partition(" — ")
        body.append(who, style="bold")
        body.append(f" — {rest}")
    return Panel(body, title=Text(_("set-up (the numbers the rules read)")), title_align="left", expand=False)


def outcome_panel(state: State, names: Mapping[str, str] | None = None) -> Panel:
    """How the conflict ended (in words), each participant's fate, and what carries into the next conflict."""
    outcome = state.outcome()
    names = names or {}
    words = state.id_words()
    body = Text(readable(outcome.summary, names, words), style="bold")
    for pid, fate in outcome.participants.items():
        who = names.get(pid, pid)
        fate_text = readable(fate, names, words)
        # a fate that begins with the name already ("Kapten Nova: 0 tokens left") is not named twice
        body.append(f"\n{fate_text}" if fate_text.startswith(f"{who}:") else f"\n{who}: {fate_text}")
    aftermath = aftermath_of(state)
    if aftermath is not None and aftermath.lines:
        body.append("\n" + _("after the conflict (what carries into the next one):"), style="dim")
        for line in aftermath.lines:
            body.append(f"\n  {readable(line, names, words)}")
    title = _("outcome: {ending}", ending=state.ending_words(outcome.ending))
    return Panel(body, title=Text(title), expand=False)


def aftermath_of(state: State) -> Aftermath | None:
    """The ruleset's between-conflict rules applied to a finished conflict, where the ruleset has them."""
    ruleset = get_ruleset(state.ruleset)
    return ruleset.aftermath(state) if ruleset.aftermath is not None else None


def print_events(console: Console, events: Sequence[Event], compact: bool = False) -> None:
    """The narrated events, each in full. ``compact`` (the default view of ``play``): each event one item, its
    continuation lines indented under it; nothing is ever cut to the width."""
    for event in events:
        style = EVENT_STYLES.get(event.kind)
        if compact:
            print_item(console, event.text, style=style or "")
        else:
            console.print(event.text, style=style, highlight=False, markup=False)


def print_item(console: Console, text: str | Text, indent: str = "", style: str = "", hang: int = 2) -> None:
    """One item wrapped to the width, its continuation lines indented ``hang`` more than its first: the words are
    folded, never cut."""
    body = text if isinstance(text, Text) else Text(text, style=style)
    width = max(20, console.width - len(indent) - hang)
    for n, line in enumerate(body.wrap(console, width, overflow="fold")):
        line.rstrip()
        lead = indent if n == 0 else " " * (len(indent) + hang)
        console.print(Text(lead) + line, highlight=False, no_wrap=True, crop=False)
