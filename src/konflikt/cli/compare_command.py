"""``konflikt compare A B [C…]``: several what-ifs of a conflict side by side, each outcome's chance and the change.

Each variant is a scenario followed by its own what-ifs, the words as ``odds`` takes them::

    konflikt compare levald/duel levald/duel --set setup.wield.hedda=Svärd
    konflikt compare 'levald/duel' 'levald/duel --set setup.wield.hedda=Svärd'      # the same, each one quoted
    konflikt compare presja/knife_fight 'presja/knife_fight -o tactics=false'

``--set PATH=VALUE`` (``-s``), ``-o NAME=VALUE`` (``--option``) and ``-p SEAT=POLICY`` (``--policy``) belong to the
scenario named before them. The first variant is the baseline (A); each other column's change is against it. Each
variant's odds come from the same machinery as ``konflikt odds SCENARIO`` (exact: in floats within a stated bound,
or Fractions with ``--exact``); a variant out of exact reach is estimated by simulation (the same seed for each:
common random numbers), and each change then has a 95% interval (Newcombe's, from the Wilson intervals).
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from konflikt.cli.i18n import N_, _, whole
from konflikt.core.i18n import percent
from konflikt.errors import KonfliktError
from konflikt.safe_text import json_text

if TYPE_CHECKING:
    from konflikt.core.odds import OddsAnswer, Probability

MAX_VARIANTS = 6
SET_FLAGS = ("--set", "-s")
OPTION_FLAGS = ("--option", "-o")
POLICY_FLAGS = ("--policy", "-p")
VARIANT_FLAGS = (*SET_FLAGS, *OPTION_FLAGS, *POLICY_FLAGS)
OWN_FLAGS = ("--json", "--exact")
OWN_VALUES = ("--plot", "--max-states", "--timeout", "--seed", "-n")
LETTERS = "ABCDEFGH"
SECTIONS = (("winner", "who wins"), ("ending", "how it ended"))
SECTION_WORDS = {"winner": N_("winner"), "ending": N_("ending")}
"""Each section's heading in the table, in the language in use (the ids stay the JSON's keys)."""


@dataclass
class Variant:
    """One column: a scenario and its own what-ifs, as typed."""

    name: str
    settings: list[str] = field(default_factory=list)
    option: list[str] = field(default_factory=list)
    policy: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return shlex.join(self.words)


@dataclass
class Own:
    """``compare``'s own options, wherever they were written."""

    as_json: bool = False
    exact: bool = False
    plot: Path | None = None
    max_states: int | None = None
    timeout: float | None = None
    seed: int = 0
    n: int | None = None


def _split(token: str) -> list[str]:
    """A quoted variant (``'levald/duel --set a=1'``) as its words; a word alone (a file may have spaces) as is."""
    if not any(c.isspace() for c in token) or Path(token).exists():
        return [token]
    try:
        return shlex.split(token)
    except ValueError as exc:
        raise KonfliktError(f"compare: cannot read {token!r} ({exc})") from None


def _number(flag: str, text: str, kind: type[int] | type[float]) -> Any:
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise KonfliktError(f"compare {flag} takes {what}, not {text!r}") from None


def parse_variants(tokens: list[str], own: Own) -> list[Variant]:
    """The variants in the words after ``compare``: a scenario begins one; ``--set``, ``-o`` and ``-p`` (with their
    values) belong to the scenario before them; ``--json``, ``--plot F`` … are compare's own, anywhere.

    Raises:
        KonfliktError: a flag before any scenario or without its value; fewer than two or too many variants.
    """
    queue: list[tuple[str, bool]] = [(t, True) for t in tokens]  # (word, may be a quoted variant to split)
    variants: list[Variant] = []
    while queue:
        word, whole = queue.pop(0)
        if whole and len(pieces := _split(word)) > 1:
            queue[:0] = [(piece, False) for piece in pieces]
            continue
        flag, eq, attached = word.partition("=") if word.startswith("--") else (word, "", "")
        if flag in OWN_FLAGS and not eq:
            setattr(own, "as_json" if flag == "--json" else "exact", True)
            continue
        if flag in (*OWN_VALUES, *VARIANT_FLAGS):
            if eq:
                value = attached
            elif queue:
                value = queue.pop(0)[0]  # a value as written: spaces and all
            else:
                raise KonfliktError(f"compare: {flag} needs a value")
            if flag in OWN_VALUES:
                _own_value(own, flag, value)
                continue
            if not variants:
                raise KonfliktError(
                    f"compare: {flag} {value} before any scenario: name the scenario first "
                    f"(konflikt compare levald/duel 'levald/duel {flag} {value}')"
                )
            variant = variants[-1]
            target = (
                variant.settings if flag in SET_FLAGS else variant.option if flag in OPTION_FLAGS else variant.policy
            )
            target.append(value)
            variant.words += [flag, value]
            continue
        if word.startswith("-") and len(word) > 1:
            known = ", ".join([*OWN_FLAGS, *OWN_VALUES, *VARIANT_FLAGS])
            from konflikt.cli.common import did_you_mean

            raise KonfliktError(f"compare: unknown option {word!r}{did_you_mean(word, known.split(', '))} ({known})")
        variants.append(Variant(word, words=[word]))
    if len(variants) < 2:
        raise KonfliktError(
            "compare needs two or more scenarios, each with its own --set/-o (konflikt compare levald/duel "
            "'levald/duel --set setup.wield.hedda=Svärd')"
        )
    if len(variants) > MAX_VARIANTS:
        raise KonfliktError(
            _("compare at most {most} variants at a time, not {count}", most=MAX_VARIANTS, count=len(variants))
        )
    return variants


def _own_value(own: Own, flag: str, value: str) -> None:
    if flag == "--plot":
        own.plot = Path(value)
    elif flag == "--max-states":
        own.max_states = _number(flag, value, int)
        if own.max_states < 1:
            raise KonfliktError(f"compare --max-states takes a whole number above 0, not {value}")
    elif flag == "--timeout":
        own.timeout = _number(flag, value, float)
    elif flag == "--seed":
        own.seed = _number(flag, value, int)
        if not 0 <= own.seed < 2**63:
            raise KonfliktError(_("seed {seed} must be a whole number from 0 to 2**63 - 1", seed=own.seed))
    else:
        own.n = _number(flag, value, int)
        from konflikt.sim.engine import check_count

        check_count(own.n)


# --- the numbers ------------------------------------------------------------------------------------------------


@dataclass
class Column:
    """One variant's answer: each section's rows, how they were had, and (an estimate) the conflicts played."""

    variant: Variant
    label: str
    source: str
    answer: OddsAnswer
    extra: dict[str, Any]

    @property
    def played(self) -> int | None:
        return self.answer.played

    def rows(self, section: str) -> dict[str, Probability]:
        rows = self.answer.outcomes if section == "winner" else self.answer.distributions.get(section, [])
        return dict(rows)


def _interval(p: Probability, played: int | None) -> tuple[float, float]:
    """The 95% Wilson interval of an estimated share; an exact (computed) probability is its own interval."""
    from konflikt.core.batch import wilson

    if played is None:
        return float(p), float(p)
    return wilson(round(float(p) * played), played)


def difference_interval(
    base: Probability, base_n: int | None, other: Probability, other_n: int | None
) -> tuple[float, float] | None:
    """Newcombe's 95% interval for ``other − base`` from the two Wilson intervals (an exact side contributes none);
    ``None`` where both are exact."""
    if base_n is None and other_n is None:
        return None
    p1, p2 = float(other), float(base)
    l1, u1 = _interval(other, other_n)
    l2, u2 = _interval(base, base_n)
    low = p1 - p2 - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = p1 - p2 + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return max(-1.0, low), min(1.0, high)


def compared_rows(columns: list[Column], section: str) -> list[tuple[str, list[Probability]]]:
    """Every outcome any variant has in ``section``, each variant's probability (0 where it cannot happen), in the
    baseline's order, the others' new outcomes after."""
    tables = [c.rows(section) for c in columns]
    keys: list[str] = []
    for table in tables:
        keys += [k for k in table if k not in keys]
    zero: Probability = Fraction(0)
    return [(k, [t.get(k, zero) for t in tables]) for k in keys]


def compute(variants: list[Variant], own: Own, max_states: int) -> list[Column]:
    """Each variant's odds, as ``konflikt odds SCENARIO`` computes them (estimated out of exact reach)."""
    from konflikt.cli.common import scenario_named
    from konflikt.cli.dice_commands import scenario_answer

    columns = []
    for letter, variant in zip(LETTERS, variants, strict=False):
        try:
            scenario = scenario_named(variant.name, variant.settings)
            answer, extra = scenario_answer(
                scenario, variant.option, variant.policy, max_states, own.exact, n=own.n, seed=own.seed
            )
        except KonfliktError as exc:
            raise KonfliktError(f"compare {letter} ({variant.text}): {exc}") from None
        columns.append(Column(variant, letter, scenario.source, answer, extra))
    return columns


# --- showing them ---------------------------------------------------------------------------------------------


def _pct(p: Probability) -> str:
    return percent(100 * float(p), 2)


def _pp(d: float) -> str:
    shown = f"{100 * d:+.2f}"
    return ("±0.00" if shown in ("+0.00", "-0.00") else shown) + " pp"


def _fraction(p: Probability) -> str:
    from konflikt.dice.distribution import fraction_text

    return fraction_text(p) if isinstance(p, Fraction) else f"{float(p):.6g}"


def print_compared(columns: list[Column], exact: bool) -> None:
    from rich.table import Table
    from rich.text import Text

    from konflikt.cli.render import plain_console

    console = plain_console()
    base = columns[0]
    for column in columns:
        how = _how(column)
        console.print(Text(f"{column.label}: {column.variant.text}  ({how})"), highlight=False)
    table = Table(title=Text(_("compared: {names}", names=" vs ".join(c.label for c in columns))), title_justify="left")
    table.add_column("", overflow="fold")
    table.add_column(_("outcome"), overflow="fold")
    for column in columns:
        table.add_column(Text(column.label), justify="right")
    for column in columns[1:]:
        table.add_column(Text(f"{column.label} − {base.label}"), justify="right", overflow="fold")
    for section, _label in SECTIONS:
        rows = compared_rows(columns, section)
        shown = _(SECTION_WORDS[section])
        for n, (key, ps) in enumerate(rows):
            cells = [_fraction(p) if exact else _pct(p) for p in ps]
            for column, p in zip(columns[1:], ps[1:], strict=True):
                cells.append(_difference_text(ps[0], base.played, p, column.played, exact))
            table.add_row(Text(shown if n == 0 else ""), Text(key), *cells, end_section=n == len(rows) - 1)
    console.print(table)
    bounds = [c.answer for c in columns if c.answer.error_bound is not None and c.played is None]
    if bounds:
        bound = f"{max(a.error_bound or 0.0 for a in bounds):.1e}"
        if any(a.absolute for a in bounds):
            floats = _(
                "computed in floats: every probability within an absolute error of {bound} of the exact value",
                bound=bound,
            )
        else:
            floats = _(
                "computed in floats: every probability within a relative error of {bound} of the exact value; "
                "--exact: fractions",
                bound=bound,
            )
        console.print(
            floats,
            style="dim",
            highlight=False,
        )
    if any(c.played is not None for c in columns):
        console.print(
            _(
                "≈ estimated columns: shares of the conflicts played (the same seed for each); [a change's 95% "
                "interval]: Newcombe's, from each side's Wilson interval (conservative: the columns share their dice)"
            ),
            style="dim",
            highlight=False,
        )


def _how(column: Column) -> str:
    if column.played is not None:
        return _("≈ estimated from {count} conflicts, out of exact reach (--json says why)", count=whole(column.played))
    if column.answer.error_bound is None:
        return _("exact, fractions")
    return _("exact")


def _difference_text(
    base: Probability, base_n: int | None, other: Probability, other_n: int | None, exact: bool
) -> str:
    if exact and isinstance(base, Fraction) and isinstance(other, Fraction):
        difference = other - base
        return ("+" if difference > 0 else "") + _fraction(difference)
    text = _pp(float(other) - float(base))
    interval = difference_interval(base, base_n, other, other_n)
    if interval is not None:
        text += f" [{100 * interval[0]:+.2f}, {100 * interval[1]:+.2f}]"
    return text


def to_json(columns: list[Column]) -> dict[str, Any]:
    from konflikt.core.odds import json_number

    base = columns[0]
    data: dict[str, Any] = {
        "variants": [
            {
                "label": c.label,
                "words": c.variant.words,
                "scenario": c.source,
                "set": c.variant.settings,
                "options": c.variant.option,
                "policy": c.variant.policy,
                **c.extra,
            }
            for c in columns
        ]
    }
    for section, _label in SECTIONS:
        rows: dict[str, Any] = {}
        for key, ps in compared_rows(columns, section):
            row: dict[str, Any] = {"p": [json_number(p) for p in ps]}
            differences: list[Any] = []
            intervals: list[Any] = []
            for column, p in zip(columns[1:], ps[1:], strict=True):
                if isinstance(p, Fraction) and isinstance(ps[0], Fraction) and base.extra.get("exact"):
                    differences.append(json_number(p - ps[0]))
                else:
                    differences.append(float(p) - float(ps[0]))
                intervals.append(difference_interval(ps[0], base.played, p, column.played))
            row["difference"] = differences
            if any(i is not None for i in intervals):
                row["difference_ci95"] = [list(i) if i is not None else None for i in intervals]
            rows[key] = row
        data[section] = rows
    return data


def check_plot(out: Path) -> None:
    if out.suffix.lower() not in (".png", ".svg"):
        raise KonfliktError(_("--plot {path}: name a .png or .svg file", path=out))


def plot_compared(columns: list[Column], out: Path) -> Path:
    """Each outcome's probability, a bar per variant, who wins and how it ended side by side (matplotlib, lazily)."""
    check_plot(out)
    import matplotlib.pyplot as plt

    from konflikt.sim import plots  # matplotlib without a screen, text kept as text in SVG

    sections = [(s, t, compared_rows(columns, s)) for s, t in SECTIONS]
    sections = [x for x in sections if x[2]]
    widths = [max(3.0, 0.9 * len(rows) * (0.4 + 0.25 * len(columns))) for _, _, rows in sections]
    fig, axes = plt.subplots(1, len(sections), figsize=(sum(widths) + 1, 4.4), squeeze=False)
    width = 0.8 / len(columns)
    for ax, (_section, title, rows) in zip(axes[0], sections, strict=True):
        for i, column in enumerate(columns):
            xs = [j + (i - (len(columns) - 1) / 2) * width for j in range(len(rows))]
            ax.bar(xs, [float(ps[i]) for _, ps in rows], width, label=f"{column.label}: {column.variant.text}")
        ax.set_xticks(range(len(rows)), [k for k, _ in rows], rotation=20, ha="right")
        ax.set_ylim(0, 1.05)
        ax.set_ylabel("probability")
        ax.set_title(title)
        ax.grid(alpha=0.3, axis="y")
    handles, labels = axes[0][0].get_legend_handles_labels()
    legend = 0.22 * len(columns) + 0.15  # inches below the axes, a line a variant
    fig.set_figheight(4.4 + legend)
    fig.legend(handles, labels, loc="lower left", fontsize="small", frameon=False)
    fig.suptitle("compared: " + " vs ".join(c.label for c in columns))
    fig.tight_layout(rect=(0, legend / (4.4 + legend), 1, 1))
    plots._write(fig, out, [(out, {"dpi": 120})])
    return out


def register(app: typer.Typer) -> None:
    @app.command(context_settings={"allow_interspersed_args": False, "ignore_unknown_options": True})
    def compare(
        ctx: typer.Context,
        variants: Annotated[
            list[str],
            typer.Argument(
                metavar="VARIANT…",
                help="Two or more: SCENARIO [--set PATH=VALUE] [-o NAME=VALUE] [-p SEAT=POLICY], or the same "
                "quoted as one word ('levald/duel --set hedda.kraft=14'). The first is the baseline.",
            ),
        ],
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON (numbers; 'p/q' with --exact).")] = False,
        exact: Annotated[bool, typer.Option("--exact", help="Fractions instead of floats (slower).")] = False,
        plot: Annotated[Path | None, typer.Option(help="Also draw the comparison to this PNG/SVG.")] = None,
        max_states: Annotated[int | None, typer.Option(min=1, help="Give up exact odds above this.")] = None,
        timeout: Annotated[float | None, typer.Option(help="Give up after this many seconds.")] = None,
        seed: Annotated[int, typer.Option(help="Seed of the estimates (exact columns need none).")] = 0,
        n: Annotated[int | None, typer.Option("-n", help="Conflicts played for an estimated column.")] = None,
    ) -> None:
        """Compare what-ifs side by side: each outcome's chance and the change against the first.

        Each variant is a scenario followed by its own --set, -o and -p (or quoted with them):
        konflikt compare levald/duel levald/duel --set setup.wield.hedda=Svärd

        Exact where 'konflikt odds' is; else estimated, with a 95% interval for each change."""
        from konflikt.analysis.exact import DEFAULT_MAX_STATES
        from konflikt.cli.common import time_limit, working

        if any(word in ("-h", "--help") for word in variants):  # after a scenario: read here, not by click
            typer.echo(ctx.get_help())
            return
        own = Own(as_json, exact, plot, max_states, timeout, seed, n)
        chosen = parse_variants(list(variants), own)
        if own.plot is not None:
            check_plot(own.plot)
        with time_limit(own.timeout, "compare"), working("computing each variant's odds"):
            columns = compute(chosen, own, own.max_states or DEFAULT_MAX_STATES)
        if own.as_json:
            typer.echo(json_text(to_json(columns), indent=1))
        else:
            print_compared(columns, own.exact)
        if own.plot is not None:
            typer.echo(_("wrote {path}", path=plot_compared(columns, own.plot)), err=True)
