"""``konflikt campaign``: the campaigns in the save database, and time passing between their conflicts."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from konflikt.cli.chars_command import CampaignOption, DbOption, existing, read_only
from konflikt.cli.i18n import _, whole
from konflikt.cli.render import plain_console
from konflikt.core.campaign import Rest, Unit
from konflikt.core.conflict import Conflict
from konflikt.core.options import parse_assignments
from konflikt.errors import KonfliktError
from konflikt.safe_text import json_text
from konflikt.store import library
from konflikt.store.db import Store

campaign_app = typer.Typer(name="campaign", help="Campaigns: time between conflicts (rest), and the list of them.")

Amount = int | None
MAX_REST = 100_000


@campaign_app.command("rest")
def campaign_rest(
    days: Annotated[Amount, typer.Option(help="Days of rest (a death mark counts days).")] = None,
    hours: Annotated[Amount, typer.Option(help="Hours of rest.")] = None,
    minutes: Annotated[Amount, typer.Option(help="Minutes of rest (presja's recovery counts minutes).")] = None,
    rounds: Annotated[Amount, typer.Option(help="Rounds of rest (Le våld's Omtöckning counts rounds).")] = None,
    campaign: CampaignOption = library.DEFAULT_CAMPAIGN,
    db: DbOption = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", help="Rule option name=value of the rest (Le våld: rest_floor_per_wound=false)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what changed as JSON.")] = False,
) -> None:
    """Let time pass for every character of the campaign: each ruleset's recovery and delayed effects, and what
    changed, in one transaction."""
    overrides = parse_assignments(option or [])
    asked: tuple[tuple[Unit, int | None], ...] = (
        ("days", days), ("hours", hours), ("minutes", minutes), ("rounds", rounds)
    )  # fmt: skip
    given = [(unit, amount) for unit, amount in asked if amount is not None]
    if len(given) != 1:
        raise KonfliktError(_("give one of --days, --hours, --minutes or --rounds"))
    unit, amount = given[0]
    if not 0 < amount <= MAX_REST:
        raise KonfliktError(
            _(
                "--{unit} takes a whole number from 1 to {most}, not {typed}",
                unit=unit,
                most=whole(MAX_REST),
                typed=amount,
            )
        )
    time = Rest(amount, unit)
    store = existing(
        db, _("no campaign {campaign} (add a character with 'konflikt chars add' first)", campaign=repr(campaign))
    )
    try:
        with store.transaction() as tx:
            changes = library.rest(tx, campaign, time, overrides)
    finally:
        store.close()
    if as_json:
        typer.echo(json_text({"rest": str(time), "changes": {n: list(lines) for n, lines in changes}}))
        return
    console = plain_console()
    console.print(Text(_("campaign {campaign}: {time} of rest", campaign=campaign, time=time), style="bold"))
    for name, lines in changes:
        for line in lines or (_("nothing changes"),):
            console.print(Text(f"  {name}: {line}"))


@campaign_app.command("list")
def campaign_list(db: DbOption = None) -> None:
    """The campaigns, with their characters and days of rest so far (the database is only read)."""
    store = read_only(db)
    rows = []
    if store is not None:
        try:
            rows = library.campaigns(store.conn)
        finally:
            store.close()
    table = Table(_("campaign"), _("characters"), _("days of rest"))
    for name, days, count in rows:
        table.add_row(Text(name), str(count), str(days))
    plain_console().print(table)


def register(app: typer.Typer) -> None:
    app.add_typer(campaign_app)


def keep_in_campaign(
    db: Path | None, conflict: Conflict, cast: library.Cast, seats: dict[str, str]
) -> tuple[int, list[tuple[str, tuple[str, ...]]]]:
    """Save a conflict played whole (``run``) in the campaign's database, its characters written back in the same
    transaction as its steps; the conflict's id and what changed."""
    state = conflict.replay()
    ending = library.ending_of(state, conflict.scenario.title)
    if ending is None:
        raise KonfliktError(_("a conflict kept in a campaign is a finished one"))
    store = Store.open(db)
    try:
        conflict_id = store.create(conflict, "auto", seats, ["run"] * len(conflict.steps), cast=cast, ending=ending)
        return conflict_id, library.conflict_changes(store.conn, conflict_id)
    finally:
        store.close()


def print_changes(
    console: Console, campaign: str, conflict_id: int, changes: list[tuple[str, tuple[str, ...]]]
) -> None:
    console.print(
        Text(
            _("campaign {campaign}: conflict {id} written back to the library", campaign=campaign, id=conflict_id),
            style="bold",
        )
    )
    for name, lines in changes:
        for line in lines or (_("as the conflict left it"),):
            console.print(Text(f"  {name}: {line}"))
