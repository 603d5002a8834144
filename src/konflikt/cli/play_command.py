"""``konflikt play``, ``saves``, ``export`` and ``import``: conflicts at the table, saved step by step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from konflikt.cli.common import choose_seed, overrides_for, seat_overrides
from konflikt.cli.run_command import header
from konflikt.cli.table import TableSession
from konflikt.core.conflict import Conflict
from konflikt.core.errors import KonfliktError, StoreError
from konflikt.core.scenario import load_scenario
from konflikt.core.state import GM
from konflikt.sim.runner import seat_policies
from konflikt.store.db import Store

DbOption = Annotated[Path | None, typer.Option("--db", help="The save database (default: your data folder).")]


def register(app: typer.Typer) -> None:
    @app.command()
    def play(
        scenario_name: Annotated[
            str | None, typer.Argument(metavar="[SCENARIO]", help="A scenario file, or RULESET/NAME.")
        ] = None,
        resume: Annotated[int | None, typer.Option(help="Continue saved conflict ID.")] = None,
        dice: Annotated[str, typer.Option(help="auto: konflikt rolls; table: type the dice rolled at the table.")] = "",
        seed: Annotated[int | None, typer.Option(help="Seed for konflikt's own rolls and policies.")] = None,
        option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Rule option name=value.")] = None,
        policy: Annotated[
            list[str] | None, typer.Option("--policy", "-p", help="Seat policy seat=name (e.g. belzee=human).")
        ] = None,
        db: DbOption = None,
    ) -> None:
        """Run a conflict at the table: human seats are asked, dice rolled or typed in; saved after every step."""
        if dice not in ("", "auto", "table"):
            raise KonfliktError(f"--dice takes auto or table, not {dice!r}")
        console = Console()
        store = Store.open(db)
        try:
            if resume is not None:
                if scenario_name is not None:
                    raise KonfliktError("give either a SCENARIO or --resume ID, not both")
                loaded = store.load(resume)
                conflict, sources, conflict_id = loaded.conflict, loaded.sources, loaded.id
                names = dict(loaded.seats)
                names.update(seat_overrides(conflict.scenario, policy))
                mode = dice or loaded.dice
                console.print(f"resuming conflict {conflict_id}: {len(sources)} steps so far", style="bold")
            else:
                if scenario_name is None:
                    raise KonfliktError("name a SCENARIO to play, or --resume ID (see 'konflikt saves')")
                scenario = load_scenario(scenario_name)
                overrides = overrides_for(scenario, option)
                names = {p.id: p.policy for p in scenario.participants()}
                names[GM] = scenario.gm
                names.update(seat_overrides(scenario, policy))
                conflict = Conflict(scenario, overrides, choose_seed(seed, scenario))
                conflict.replay()
                mode = dice or "auto"
                conflict_id = store.create(conflict, mode, names)
                sources = []
                console.print(f"conflict {conflict_id}, saved after every step in {store.path}", style="bold")
            header(console, conflict.scenario, conflict.seed or 0)
            seats = seat_policies(conflict.scenario, names)
            TableSession(console, store, conflict_id, conflict, sources, seats, mode).run()
        finally:
            store.close()

    @app.command()
    def saves(
        db: DbOption = None, as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False
    ) -> None:
        """The saved conflicts."""
        store = Store.open(db)
        try:
            rows = store.list()
        finally:
            store.close()
        if as_json:
            typer.echo(json.dumps([r.__dict__ for r in rows], ensure_ascii=False, indent=1))
            return
        table = Table("id", "ruleset", "title", "steps", "updated", "state")
        for r in rows:
            table.add_row(str(r.id), r.ruleset, r.title, str(r.steps), r.updated, r.outcome or "in progress")
        Console().print(table)

    @app.command()
    def export(
        conflict_id: Annotated[int, typer.Argument(metavar="ID")],
        out: Annotated[Path | None, typer.Option(help="Write to this file (default: print).")] = None,
        db: DbOption = None,
    ) -> None:
        """A saved conflict as JSON, to move it to another machine."""
        store = Store.open(db)
        try:
            text = json.dumps(store.export(conflict_id), ensure_ascii=False, indent=1)
        finally:
            store.close()
        if out is None:
            typer.echo(text)
        else:
            out.write_text(text + "\n", encoding="utf-8")

    @app.command(name="import")
    def import_(file: Annotated[Path, typer.Argument(metavar="FILE")], db: DbOption = None) -> None:
        """Add a conflict exported with 'konflikt export' (or saved by 'konflikt run --save') to the saves."""
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise StoreError(f"{file}: no such file") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise StoreError(f"{file}: not a JSON file ({exc})") from None
        conflict = Conflict.from_json(data, str(file))
        conflict.replay()
        play_info = data.get("play", {}) if isinstance(data.get("play"), dict) else {}
        store = Store.open(db)
        try:
            new_id = store.create(
                conflict, str(play_info.get("dice", "auto")), dict(play_info.get("seats", {})), play_info.get("sources")
            )
        finally:
            store.close()
        typer.echo(f"imported as conflict {new_id}")
