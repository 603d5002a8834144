"""``konflikt rules`` and ``konflikt examples``: what the tool knows."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from konflikt.core.ruleset import all_rulesets, get_ruleset
from konflikt.core.scenario import bundled_examples, read_toml


def register(app: typer.Typer) -> None:
    @app.command()
    def rules(
        ruleset: Annotated[str | None, typer.Argument(help="One ruleset id (default: all).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """The registered rulesets with their rule options, defaults and docs."""
        chosen = [get_ruleset(ruleset)] if ruleset else all_rulesets()
        if as_json:
            typer.echo(json.dumps([r.to_json() for r in chosen], ensure_ascii=False, indent=2))
            return
        console = Console()
        for r in chosen:
            console.rule(f"[bold]{r.id}[/bold] — {r.name}")
            console.print(r.summary, highlight=False)
            console.print(
                f"source: {r.source} ({r.language}); policies: {', '.join([*r.policy_names(), 'human'])}; "
                f"odds questions: {', '.join(r.odds) or '-'}",
                style="dim",
                highlight=False,
            )
            table = Table(show_lines=False)
            table.add_column("option", style="bold")
            table.add_column("type")
            table.add_column("default")
            table.add_column("what it does")
            for option in r.options:
                doc = option.doc + (f"\n[dim]source: “{option.source}”[/dim]" if option.source else "")
                choices = f" ({'|'.join(option.choices)})" if option.choices else ""
                table.add_row(option.name, option.type.__name__ + choices, repr(option.default), doc)
            console.print(table)

    @app.command()
    def examples(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
        """The bundled example scenarios (run one with: konflikt run RULESET/NAME)."""
        root = bundled_examples()
        found = []
        for path in sorted(root.glob("*/*.toml")):
            if path.parent.name == "sweeps":
                continue
            doc = read_toml(path)
            found.append({"name": f"{path.parent.name}/{path.stem}", "title": str(doc.get("title", ""))})
        if as_json:
            typer.echo(json.dumps(found, ensure_ascii=False, indent=2))
            return
        table = Table("scenario", "title")
        for item in found:
            table.add_row(item["name"], item["title"])
        Console().print(table)
