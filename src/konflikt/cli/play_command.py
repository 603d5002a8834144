"""``konflikt play``, ``saves``, ``export`` and ``import``: conflicts at the table, saved step by step."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from konflikt.cli.campaign_command import print_changes
from konflikt.cli.common import (
    PolicyOption,
    RuleOption,
    SetOption,
    Stopped,
    check_library_settings,
    choose_seed,
    overrides_for,
    policy_name,
    scenario_named,
    seat_overrides,
    write_output,
)
from konflikt.cli.completion import complete_scenario
from konflikt.cli.i18n import _, ngettext, policy_label, policy_named, styled
from konflikt.cli.info_commands import listed_instead
from konflikt.cli.line_input import ask_line
from konflikt.cli.render import plain_console
from konflikt.cli.run_command import header
from konflikt.cli.table import TableSession
from konflikt.core.conflict import MAX_JSON_BYTES, Conflict, PlayInfo, parse_json
from konflikt.core.scenario import Scenario, characters_from, read_regular_file
from konflikt.core.state import GM
from konflikt.errors import KonfliktError, StoreError
from konflikt.safe_text import json_text
from konflikt.sim.runner import seat_policies
from konflikt.store import library
from konflikt.store.db import NoDatabase, Store, check_storable, default_path
from konflikt.store.source import LibrarySource

DbOption = Annotated[Path | None, typer.Option("--db", help="The save database (default: your data folder).")]


def at_a_terminal() -> bool:
    """Whether a person can answer: stdin is a terminal (not a pipe, a file or CI's empty input)."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, OSError, ValueError):
        return False


HUMAN_WORDS = (
    "human", "h", "me", "person", "player",
    "människa", "manniska", "jag", "spelare", "m",
    "menneske", "mig", "spiller",
    "człowiek", "czlowiek", "c", "ja", "gracz", "osoba",
)  # fmt: skip
"""The words that give a seat to a person, in English, Swedish, Danish and Polish."""


def ask_who_plays(console: Console, scenario: Scenario) -> dict[str, str]:
    """Each participant's seat asked at the terminal, side by side: Enter keeps the scenario's policy; ``human`` (or
    ``h``) is a person at the table; else a policy of the ruleset, in any case (``mcts:500`` with its argument).
    A word that is neither is refused with the nearest one and asked again."""
    policies = ", ".join(policy_label(name) for name in scenario.ruleset.policy_names())
    intro = Text(scenario.title, style="bold")
    intro.append(
        " — "
        + _(
            "who plays each seat? Enter keeps [the scenario's choice]; or type human (h), or a policy: {policies}",
            policies=policies,
        )
    )
    console.print(intro, highlight=False)
    chosen: dict[str, str] = {}
    for side in scenario.sides:
        for part in side.participants:
            prompt = Text("  ")
            prompt.append_text(
                styled(
                    _("{name} ({id}, side {side}) [{policy}] › "),
                    name=(part.name, "bold"),
                    id=part.id,
                    side=side.name,
                    policy=policy_label(part.policy),
                )
            )
            while True:
                text = ask_line(console, prompt).strip()
                if not text:
                    chosen[part.id] = part.policy
                    break
                try:
                    word = "human" if text.lower() in HUMAN_WORDS else policy_named(text)
                    chosen[part.id] = policy_name(scenario, word, part.name)
                    break
                except KonfliktError as exc:
                    console.print(str(exc), style="red", highlight=False, markup=False)
    return chosen


def register(app: typer.Typer) -> None:
    @app.command()
    def play(
        scenario_name: Annotated[
            str | None,
            typer.Argument(
                metavar="[SCENARIO]", help="A scenario file, or RULESET/NAME.", autocompletion=complete_scenario
            ),
        ] = None,
        resume: Annotated[int | None, typer.Option(help="Continue saved conflict ID.")] = None,
        dice: Annotated[str, typer.Option(help="auto: konflikt rolls; table: type the dice rolled at the table.")] = "",
        seed: Annotated[int | None, typer.Option(help="Seed for konflikt's own rolls and policies.")] = None,
        option: RuleOption = None,
        settings: SetOption = None,
        policy: PolicyOption = None,
        db: DbOption = None,
        campaign: Annotated[
            str | None, typer.Option(help="Take characters from this campaign's library; write them back.")
        ] = None,
        odds: Annotated[
            bool, typer.Option("--odds", help="After each exchange or round, who wins from here in one line.")
        ] = False,
        verbose: Annotated[
            bool, typer.Option("--verbose", "-v", help="Every event in full and the whole table after each step.")
        ] = False,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the prompts and the outcome.")] = False,
        undo: Annotated[
            int,
            typer.Option(
                "--undo",
                min=0,
                max=1_000_000,
                metavar="N",
                help="With --resume: first take back the last N human inputs, also after the conflict's end (a "
                "campaign's characters are given back as they were before it).",
            ),
        ] = 0,
    ) -> None:
        """Run a conflict at the table: human seats are asked, dice rolled or typed in; saved after every step.

        Without --policy, at a terminal, it first asks who plays each seat (a person, or a policy; Enter keeps the
        scenario's). After each step only what changed is shown (`state` at a prompt shows everything); `odds` at
        any prompt says who wins from here."""
        if dice not in ("", "auto", "table"):
            raise KonfliktError(_("--dice takes auto or table, not {typed}", typed=repr(dice)))
        console = plain_console()
        if resume is not None and scenario_name is not None:
            raise KonfliktError(_("give either a SCENARIO or --resume ID, not both"))
        if resume is not None and settings:
            raise KonfliktError(
                _(
                    "--set {setting}: --set goes with a SCENARIO; a resumed conflict keeps its own",
                    setting=settings[0],
                )
            )
        if resume is not None and campaign is not None:
            raise KonfliktError(_("--campaign goes with a SCENARIO: a resumed conflict keeps the campaign it began in"))
        if resume is None and scenario_name is None:
            raise KonfliktError(_("name a SCENARIO to play, or --resume ID (see 'konflikt saves')"))
        if undo and resume is None:
            raise KonfliktError(_("--undo goes with --resume ID: a new conflict has nothing to take back"))
        fresh: Conflict | None = None
        source = LibrarySource(db, campaign)
        if scenario_name is not None:
            if listed_instead(scenario_name, "play"):
                return
            # everything about a new conflict is checked before the save database is opened or created
            with characters_from(source):
                scenario = scenario_named(scenario_name, settings)
            check_library_settings(scenario, source.taken, settings)
            overrides = overrides_for(scenario, option)
            names = {p.id: p.policy for p in scenario.participants()}
            names[GM] = scenario.gm
            if policy:
                names.update(seat_overrides(scenario, policy))
            elif at_a_terminal():
                names.update(ask_who_plays(console, scenario))
            elif not quiet:
                console.print(
                    _(
                        "no terminal to ask who plays each seat: as the scenario says ({seats}); --policy SEAT=human "
                        "gives a seat to a person",
                        seats=", ".join(f"{p.id} {policy_label(p.policy)}" for p in scenario.participants()),
                    ),
                    style="dim",
                    highlight=False,
                    markup=False,
                )
            seat_policies(scenario, names)
            fresh = Conflict(scenario, overrides, choose_seed(seed, scenario))
            fresh.replay()
        try:
            store = Store.open(db, create=fresh is not None)  # nothing to resume: no database made for it
        except NoDatabase:
            saves = db or default_path()
            raise KonfliktError(
                _("no saved conflict {id} in {path} (see 'konflikt saves')", id=resume, path=saves)
            ) from None
        try:
            if fresh is None:
                assert resume is not None
                loaded = store.load(resume)
                conflict, sources, conflict_id = loaded.conflict, loaded.sources, loaded.id
                names = dict(loaded.seats)
                names.update(seat_overrides(conflict.scenario, policy))
                # the whole save is checked (replayed, its seats' policies found) before the first write: the claim
                try:
                    conflict.replay()
                    seat_policies(conflict.scenario, names)
                except KonfliktError as exc:
                    raise StoreError(
                        _(
                            "saved conflict {id} in {path} cannot be resumed: {why}",
                            id=resume,
                            path=store.path,
                            why=exc,
                        )
                    ) from None
                store.claim(resume)
                mode = dice or loaded.dice
                console.print(
                    ngettext(
                        "resuming conflict {id}: {n} step so far",
                        "resuming conflict {id}: {n} steps so far",
                        len(sources),
                        id=conflict_id,
                    ),
                    style="bold",
                )
            else:
                conflict = fresh
                mode = dice or "auto"
                conflict_id = store.create(conflict, mode, names, cast=source.cast(conflict.scenario))
                store.claim(conflict_id)
                sources = []
                console.print(
                    _("conflict {id}, saved after every step in {path}", id=conflict_id, path=store.path),
                    style="bold",
                )
            seats = seat_policies(conflict.scenario, names)
            if not quiet:
                header(console, conflict.scenario, conflict.seed or 0, names)
            session = TableSession(
                console, store, conflict_id, conflict, sources, seats, mode,
                odds=odds, verbose=verbose, quiet=quiet, played_by=names,
            )  # fmt: skip
            try:
                if undo:
                    session.undo(undo)
                session.run()
                if changes := library.conflict_changes(store.conn, conflict_id):
                    print_changes(console, library.campaign_of(store.conn, conflict_id) or "", conflict_id, changes)
            except KeyboardInterrupt:
                hint = f"konflikt play --resume {conflict_id} --db {store.path}"
                raise Stopped(_("stopped; every step so far is saved. Resume with: {command}", command=hint)) from None
        finally:
            store.close()

    @app.command()
    def saves(
        db: DbOption = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        delete: Annotated[int | None, typer.Option("--delete", metavar="ID", help="Delete saved conflict ID.")] = None,
    ) -> None:
        """The saved conflicts (the database is only read: nothing is created); --delete ID removes one."""
        if delete is not None:
            store = Store.open(db)
            try:
                store.delete(delete)
            finally:
                store.close()
            typer.echo(_("deleted conflict {id}", id=delete))
            return
        try:
            store = Store.open(db, readonly=True)
        except NoDatabase as exc:
            if as_json:
                typer.echo("[]")
            else:
                plain_console(stderr=True).print(_("no saved conflicts: {why}", why=exc), highlight=False, markup=False)
            return
        try:
            rows = store.list()
        finally:
            store.close()
        if as_json:
            typer.echo(json_text([r.__dict__ for r in rows], indent=1))
            return
        table = Table(_("id"), _("ruleset"), _("title"), _("steps"), _("updated"), _("state"))
        for r in rows:
            cells = (str(r.id), r.ruleset, r.title, str(r.steps), r.updated, r.outcome or _("in progress"))
            table.add_row(*(Text(cell) for cell in cells))
        plain_console().print(table)

    @app.command()
    def export(
        conflict_id: Annotated[int, typer.Argument(metavar="ID")],
        out: Annotated[Path | None, typer.Option(help="Write to this file (default: print).")] = None,
        db: DbOption = None,
    ) -> None:
        """A saved conflict as JSON, to move it to another machine (the database is only read)."""
        store = Store.open(db, readonly=True)
        try:
            text = json_text(store.export(conflict_id), indent=1)
        finally:
            store.close()
        if out is None:
            typer.echo(text)
        else:
            write_output(out, text + "\n")

    @app.command(name="import")
    def import_(file: Annotated[Path, typer.Argument(metavar="FILE")], db: DbOption = None) -> None:
        """Add a conflict exported with 'konflikt export' (or saved by 'konflikt run --save') to the saves."""
        data = parse_json(read_regular_file(file, MAX_JSON_BYTES, "a conflict file"), str(file))
        conflict = Conflict.from_json(data, str(file))
        play_info = PlayInfo.from_record(data, str(file))
        names = {p.id: p.policy for p in conflict.scenario.participants()} | {GM: conflict.scenario.gm}
        if unknown := sorted(set(play_info.seats) - set(names)):
            raise StoreError(_("{file}: play.seats: no seat {seat} in this conflict", file=file, seat=repr(unknown[0])))
        seat_policies(conflict.scenario, play_info.seats)
        ending = library.ending_of(conflict.replay(), conflict.scenario.title)  # a finished one is listed as such
        check_storable(conflict, dict(play_info.seats))  # before the database is made: a refused import makes none
        store = Store.open(db)
        try:
            new_id = store.create(
                conflict, play_info.dice, dict(play_info.seats), list(play_info.sources), ending=ending
            )
        finally:
            store.close()
        typer.echo(_("imported as conflict {id}", id=new_id))
