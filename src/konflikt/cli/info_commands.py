"""``konflikt rules`` and ``konflikt examples``: what the tool knows."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from konflikt.cli.common import bundled_names, ruleset_alone
from konflikt.cli.completion import complete_ruleset
from konflikt.cli.i18n import _, policy_label
from konflikt.cli.render import plain_console
from konflikt.core.conformance import ConformanceTable
from konflikt.core.ruleset import all_rulesets, get_ruleset
from konflikt.core.scenario import load_scenario
from konflikt.errors import KonfliktError
from konflikt.safe_text import json_text


def register(app: typer.Typer) -> None:
    @app.command()
    def rules(
        ruleset: Annotated[
            str | None, typer.Argument(help="One ruleset id (default: all).", autocompletion=complete_ruleset)
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        conformance: Annotated[
            bool, typer.Option("--conformance", help="The source text sentence by sentence: status, code, tests.")
        ] = False,
    ) -> None:
        """The registered rulesets with their rule options, defaults and docs."""
        chosen = [get_ruleset(ruleset)] if ruleset else all_rulesets()
        if conformance:
            show_conformance([r.conformance() for r in chosen], as_json)
            return
        if as_json:
            typer.echo(json_text([r.to_json() for r in chosen], indent=2))
            return
        console = plain_console()
        for r in chosen:
            console.rule(Text.assemble((r.id, "bold"), f" — {r.display_name}"))
            console.print(Text(r.summary), highlight=False)
            console.print(
                _(
                    "source: {source} ({language}); policies: {policies}; odds questions: {questions}",
                    source=r.source,
                    language=r.language,
                    policies=", ".join(policy_label(name) for name in [*r.policy_names(), "human"]),
                    questions=", ".join(r.odds) or "-",
                ),
                style="dim",
                highlight=False,
            )
            table = Table(show_lines=False)
            # every column folds a word too long for it: a name cut to "consequence_valu…" would be wrong to type
            table.add_column(_("option"), style="bold", overflow="fold")
            table.add_column(_("type"), overflow="fold")
            table.add_column(_("default"), overflow="fold")
            table.add_column(_("range"), overflow="fold")
            table.add_column(_("what it does"), overflow="fold")
            for option in r.options:
                doc = Text(option.doc)
                if option.source:
                    doc.append("\n" + _("source: “{quote}”", quote=option.source), style="dim")
                choices = f" ({'|'.join(option.choices)})" if option.choices else ""
                table.add_row(
                    Text(option.name, style="bold"),
                    Text(option.type.__name__ + choices),
                    Text(repr(option.default)),
                    Text(option.range_text()),
                    doc,
                )
            console.print(table)

    @app.command()
    def examples(
        ruleset: Annotated[
            str | None, typer.Argument(help="One ruleset id (default: all).", autocompletion=complete_ruleset)
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """The bundled example scenarios (run one with: konflikt run RULESET/NAME)."""
        if ruleset is not None:
            get_ruleset(ruleset)
        if as_json:
            typer.echo(json_text(example_list(ruleset), indent=2))
            return
        show_examples(plain_console(), ruleset)


def example_list(ruleset: str | None = None) -> list[dict[str, Any]]:
    """Each bundled scenario: its name, title, and seats (id, name, side, the policy that plays it by default)."""
    found: list[dict[str, Any]] = []
    for name in bundled_names(ruleset):
        scenario = load_scenario(name)
        seats = [
            {"id": p.id, "name": p.name, "side": side.id, "policy": p.policy}
            for side in scenario.sides
            for p in side.participants
        ]
        found.append({"name": name, "title": scenario.title, "seats": seats, "gm": scenario.gm})
    return found


def show_examples(console: Console, ruleset: str | None = None) -> None:
    """The bundled scenarios as a table: name, title, and each seat with who plays it unless told otherwise."""
    table = Table(_("scenario"), _("title"), _("seats: id — name (default policy)"))
    for column in table.columns:
        column.overflow = "fold"
    for item in example_list(ruleset):
        seats = Text()
        for i, seat in enumerate(item["seats"]):
            seats.append("\n" if i else "")
            seats.append(seat["id"], style="bold")
            seats.append(f" — {seat['name']} ({policy_label(seat['policy'])})")
        table.add_row(Text(item["name"]), Text(item["title"]), seats)
    console.print(table)
    console.print(
        Text(_("seats are named in any case: konflikt play RULESET/NAME --policy SEAT=human (or a policy)")),
        style="dim",
        highlight=False,
    )


def listed_instead(name: str, command: str, as_json: bool = False) -> bool:
    """``konflikt run presja``: a ruleset id alone lists the ruleset's scenarios (``True``) instead of failing; in a
    JSON run it is one line naming them (exit code 2)."""
    ruleset = ruleset_alone(name)
    if ruleset is None:
        return False
    names = bundled_names(ruleset)
    if as_json:
        raise KonfliktError(
            _("{ruleset} is a ruleset: name one of its scenarios ({names})", ruleset=ruleset, names=", ".join(names))
        )
    console = plain_console()
    console.print(
        Text(
            _(
                "{ruleset} is a ruleset; its scenarios (konflikt {command} {example}):",
                ruleset=ruleset,
                command=command,
                example=names[0],
            )
        ),
        style="bold",
        highlight=False,
    )
    show_examples(console, ruleset)
    return True


def show_conformance(tables: list[ConformanceTable], as_json: bool) -> None:
    """``rules --conformance``: every rule unit of the text with its status, code and tests."""
    if as_json:
        typer.echo(json_text([t.model_dump(mode="json") for t in tables], indent=2))
        return
    console = plain_console()
    for conformance in tables:
        counts = ", ".join(f"{n} {status}" for status, n in conformance.counts().items() if n)
        console.rule(Text(f"{conformance.ruleset} — {conformance.source}: {len(conformance.rule)} rule units"))
        console.print(Text(counts, style="dim"))
        table = Table(show_lines=True)
        for column in ("#", "rule", "the text / English", "status", "where / tests"):
            table.add_column(column, overflow="fold")
        for number, row in enumerate(conformance.rule, 1):
            words = Text(f"“{row.quote}”\n" if row.quote else "", style="italic")
            words.append(row.gloss)
            if row.note:
                words.append(f"\n{row.note}", style="dim")
            status = row.status + ("\n" + ", ".join(row.options) if row.options else "")
            code = Text("\n".join(row.where))
            code.append("\n" + "\n".join(row.tests), style="dim")
            table.add_row(str(number), Text(row.id), words, Text(status), code)
        console.print(table)
