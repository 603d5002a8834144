"""``konflikt scenario show SCENARIO [--set PATH=VALUE…]``: the scenario document as konflikt reads it, as TOML.

Every character inlined (as a saved conflict stores it), the ``--set`` what-ifs applied: the file to keep, or to
check that a ``--set`` did what was meant. Its output is itself a scenario file (``konflikt odds show.toml``).
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from konflikt.cli.common import ScenarioArgument, SetOption, scenario_named, write_output
from konflikt.cli.i18n import _
from konflikt.safe_text import json_text

HELP = "A scenario as konflikt reads it: 'scenario show SCENARIO --set PATH=VALUE' prints the resulting TOML file."


def register(app: typer.Typer) -> None:
    group = typer.Typer(help=HELP, no_args_is_help=True)

    @group.command()
    def show(
        scenario_name: ScenarioArgument,
        settings: SetOption = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the document as JSON instead.")] = False,
        out: Annotated[Path | None, typer.Option(help="Write the file here instead of printing it.")] = None,
    ) -> None:
        """Print the scenario with each --set applied and every character inlined, as a TOML file.

        The file is a scenario itself: the same odds as the scenario with the same --set."""
        from konflikt.core.overrides import dump_toml

        scenario = scenario_named(scenario_name, settings)
        document = dict(scenario.document)
        text = (
            json_text(document, indent=1) + "\n" if as_json else header(scenario_name, settings) + dump_toml(document)
        )
        if out is not None:
            write_output(out, text)
            typer.echo(_("wrote {path}", path=out), err=True)
        else:
            typer.echo(text, nl=False)

    app.add_typer(group, name="scenario")


def header(name: str, settings: list[str] | None) -> str:
    """A comment saying where the file came from (TOML comments: the document is unchanged)."""
    sets = "".join(f" --set {shlex.quote(s)}" for s in settings or []).replace("\n", "\\n").replace("\r", "\\r")
    return f"# konflikt scenario show {name}{sets}\n# every character inlined; a scenario file of its own\n"
