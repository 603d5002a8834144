"""``konflikt odds SCENARIO`` at a glance: who wins, how it ends, how long it lasts, and each participant's chance
of leaving the fight (dying or being taken out) as one number, in at most :data:`MAX_LINES` lines.

The full answer (``--full``, and ``--json`` always) lists every fate, and a fate is a participant's whole end in the
system's words: its status with every consequence taken (``død (dead): Død (death); Svære brandsår (severe
burns)``). A death is then spread over many rows, one per set of consequences it came with. The summary adds the
rows up by their status, read from the words each ruleset ends a fight with (the head of the fate, before its
first ``:``, ``;`` or ``,``, and its English gloss):

- *dies*: the gloss says ``dead`` (Fimbulfrost's ``død``, Le våld's ``död``);
- *out of the fight*: dead, or ``out``, ``taken out``, ``knocked out``, ``defeated``, ``conceded``, ``left the
  fight``, or (PWGE) ``out of the conflict`` anywhere in the fate; a fate with none of these is standing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction

from rich.table import Table
from rich.text import Text

from konflikt.cli.i18n import _, whole
from konflikt.core.i18n import number, percent
from konflikt.core.odds import OddsAnswer, Probability

MAX_LINES = 15
"""The summary's height at most (80 columns wide), every fate listed by ``--full``."""
SHOWN_ROWS = 4
"""Winners and endings shown on their line, largest first; the rest summed as "other"."""

_DEAD_WORDS = r"dead|död|død|martwy|martwa|nie żyje"
_OUT_WORDS = (
    r"out|defeated|conceded|left the fight|"
    r"ute|utslagen|utslagna|besegrad|besegrade|gav upp|gett upp|lämnat striden|"
    r"ude|slået ud|overvundet|overvundne|besejret|gav op|givet op|opgivet|overgivet sig|forladt kampen|ude af kampen|"
    r"poza walką|pokonany|pokonana|poddał się|poddała się|poddanie się|wyeliminowany|wyeliminowana|bez przytomności|"
    r"po opuszczeniu walki|opuścił walkę|opuściła walkę"
)
_DEAD = re.compile(rf"\b({_DEAD_WORDS})\b", re.IGNORECASE)
_OUT = re.compile(rf"\b({_DEAD_WORDS}|{_OUT_WORDS})\b", re.IGNORECASE)
_OUT_ANYWHERE = re.compile(
    r"\b(out of the conflict|ur konflikten|ute ur konflikten|ude af konflikten|uden for konflikten|poza konfliktem)\b",
    re.IGNORECASE,
)
"""A fate's status in the words the rulesets end a fight with, in English (the gloss of the bilingual register),
Swedish, Danish and Polish."""
FATE = ": fate"


def head(fate: str) -> str:
    """A fate's status: its words before the first ``:``, ``;`` or ``,`` outside parentheses."""
    depth = 0
    for i, c in enumerate(fate):
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and c in ":;,":
            return fate[:i]
    return fate


def dies(fate: str) -> bool:
    return _DEAD.search(head(fate)) is not None


def out_of_the_fight(fate: str) -> bool:
    """Dead or taken out (conceded, knocked out, left the fight): not standing at the end."""
    return _OUT.search(head(fate)) is not None or _OUT_ANYWHERE.search(fate) is not None


def fates_summed(rows: Sequence[tuple[str, Probability]]) -> tuple[Probability, Probability]:
    """(the chance of dying, the chance of being out of the fight) over a participant's fate rows."""
    dead: Probability = Fraction(0)
    out: Probability = Fraction(0)
    for fate, p in rows:
        if dies(fate):
            dead += p
        if out_of_the_fight(fate):
            out += p
    return dead, out


def _pct(p: Probability) -> str:
    """A percentage of two decimals; a chance too small for them but not nothing is ``<0.01%``."""
    if 0 < float(p) < 0.00005:
        return "<" + percent(0.01, 2)
    return percent(100 * float(p), 2)


def _line(rows: Sequence[tuple[str, Probability]], words: Mapping[str, str] | None = None) -> str:
    """``A 98.71% · B 1.29%``: the largest first, those past :data:`SHOWN_ROWS` summed; impossible ones left out
    (a side that cannot win is kept: that is a finding)."""
    ordered = sorted(rows, key=lambda kv: -float(kv[1]))
    shown = ordered[:SHOWN_ROWS]
    rest = sum((p for _, p in ordered[SHOWN_ROWS:]), Fraction(0))
    said = {"nobody": _("nobody"), **(words or {})}  # the answer's own words for its keys, where it gives them
    words_shown = [f"{said.get(key, key)} {_pct(p)}" for key, p in shown if p or key != "nobody"]
    if rest:
        words_shown.append(_("other {chance}", chance=_pct(rest)))
    return " · ".join(words_shown)


def length_line(answer: OddsAnswer) -> str | None:
    """``2.13 rounds on average; 1: 20.0%, 2: 46.4%, 3: 33.6%`` (the distribution where it has few values)."""
    mean = next(((k, p) for k, p in answer.probabilities.items() if k.startswith("expected length")), None)
    dist = next(((k, rows) for k, rows in answer.distributions.items() if k.startswith("length")), None)
    if mean is None and dist is None:
        return None
    unit = (mean or dist or ("", None))[0].rpartition("(")[2].rstrip(")")
    parts = []
    if mean is not None:
        parts.append(_("{length} {unit} on average", length=number(float(mean[1]), 2), unit=unit))
    elif dist is not None:
        total = sum(float(p) * int(k) for k, p in dist[1] if k.lstrip("-").isdigit())
        parts.append(_("{length} {unit} on average", length=number(total, 2), unit=unit))
    if dist is not None and len(dist[1]) <= 6:
        parts.append(", ".join(f"{k}: {percent(100 * float(p), 1)}" for k, p in dist[1]))
    return "; ".join(parts)


def summary_table(answer: OddsAnswer) -> Table | None:
    """A row per participant: out of the fight (dies or is taken out), and of that, dies."""
    fates = [(key.removesuffix(FATE), rows) for key, rows in answer.distributions.items() if key.endswith(FATE)]
    if not fates:
        return None
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column(_("participant"), overflow="fold")
    table.add_column(_("out of the fight"), justify="right")
    table.add_column(_("dies"), justify="right")
    table.add_column(_("standing"), justify="right")
    for name, rows in fates:
        dead, out = fates_summed(rows)
        total = sum((p for _, p in rows), Fraction(0))
        table.add_row(Text(name), _pct(out), _pct(dead), _pct(total - out))
    return table


def print_summary(answer: OddsAnswer, console: object, exact: bool = False) -> None:
    """The answer at a glance (see the module's docstring); the title as the full answer has it."""
    from rich.console import Console

    assert isinstance(console, Console)
    how = _("≈ estimated") if answer.played is not None else _("exact")
    title = answer.title
    for marker in (": who wins", ": " + _("who wins")):  # the title without its question, in English or translated
        title = title.split(marker)[0]
    console.print(Text(f"{title} ({how})", style="bold"), highlight=False)
    console.print(Text(_("who wins: {chances}", chances=_line(answer.outcomes, answer.words))), highlight=False)
    endings = answer.distributions.get("ending")
    if endings:
        console.print(Text(_("ending: {chances}", chances=_line(endings, answer.words))), highlight=False)
    length = length_line(answer)
    if length:
        console.print(Text(_("length: {length}", length=length)), highlight=False)
    table = summary_table(answer)
    if table is not None:
        console.print(table)
    hint = _("every fate, consequence and length: --full (or --json)")
    if exact:
        hint = _("exact fractions, every fate, consequence and length: --full --exact (or --json)")
    if answer.played is not None:
        hint = _("each a share of {count} conflicts played; {hint}", count=whole(answer.played), hint=hint)
    console.print(Text(hint), style="dim", highlight=False)
