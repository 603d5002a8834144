"""``konflikt chars``: a campaign's character library — list, show, add, export, edit, delete.

Characters live in the save database beside the conflicts, one library per campaign (``--campaign NAME``, default
``default``). Reading commands open the database read-only and create nothing.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from konflikt.cli.common import write_output
from konflikt.cli.i18n import _
from konflikt.cli.render import plain_console
from konflikt.core.campaign import Carried
from konflikt.core.ruleset import get_ruleset, ruleset_ids
from konflikt.core.scenario import bundled_character, check_depth, read_toml
from konflikt.errors import KonfliktError, StoreError
from konflikt.safe_text import json_text, shown
from konflikt.store import library
from konflikt.store.db import NoDatabase, Store

DbOption = Annotated[Path | None, typer.Option("--db", help="The save database (default: your data folder).")]
CampaignOption = Annotated[str, typer.Option("--campaign", "-c", help="The campaign whose characters these are.")]
NameArgument = Annotated[str, typer.Argument(metavar="NAME", help="The character's name in the library (budolf).")]

chars_app = typer.Typer(
    name="chars",
    help="The character library: characters kept between conflicts, per campaign.",
    invoke_without_command=True,
    no_args_is_help=False,
)


def read_only(db: Path | None) -> Store | None:
    """The database opened read-only, or ``None`` where there is none yet (nothing is created)."""
    try:
        return Store.open(db, readonly=True)
    except NoDatabase:
        return None


def existing(db: Path | None, missing: str) -> Store:
    """The database opened to change what it holds; where there is none yet, ``missing`` (nothing to change, and no
    empty database made for it)."""
    try:
        return Store.open(db, create=False)
    except NoDatabase:
        raise StoreError(missing) from None


def no_character(name: str, campaign: str) -> str:
    return _(
        "no character {name} in campaign {campaign}: no save database yet", name=repr(name), campaign=repr(campaign)
    )


def character(db: Path | None, campaign: str, name: str) -> tuple[library.Character, list[library.HistoryRow]]:
    store = read_only(db)
    if store is None:
        raise StoreError(no_character(name, campaign))
    try:
        found = library.get(store.conn, campaign, name)
        return found, library.history(store.conn, found)
    finally:
        store.close()


# ---- TOML out ------------------------------------------------------------------------------------------------------


def _toml_string(text: str) -> str:
    """A TOML basic string: what JSON escapes (C0), and DEL, C1 and the bidirectional overrides as ``\\uXXXX``, so
    the file (and a terminal it is printed on) holds no raw control character."""
    return json_text(text)


def _toml_key(key: str) -> str:
    bare = key and all(c.isascii() and (c.isalnum() or c in "-_") for c in key)
    return key if bare else _toml_string(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        items = [f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in value.items() if v is not None]
        return "{ " + ", ".join(items) + " }" if items else "{}"
    raise KonfliktError(f"cannot write {type(value).__name__} as TOML")


def to_toml(document: Mapping[str, Any], header: str = "") -> str:
    """A character document as a character file (values inline; ``None`` fields left out: their defaults)."""
    lines = [f"# {shown(line)}" for line in header.splitlines()]
    lines += [f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in document.items() if v is not None]
    return "\n".join(lines) + "\n"


# ---- edit --set ----------------------------------------------------------------------------------------------------
def _parse_value(text: str) -> Any:
    """A TOML value (``3``, ``true``, ``["a"]``, ``"text"``), else the text as a string; empty: the default."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return text


def apply_set(document: Mapping[str, Any], assignment: str) -> dict[str, Any]:
    """``path=value`` into a copy of the document: ``omdomme=3``, ``wounds.lätt=0``, ``consequences.moderate=``
    (an empty value removes the field: its default)."""
    if any(c in assignment for c in "\n\r\x00"):
        raise KonfliktError(
            _(
                "--set {setting}: one path=value on one line; give each with its own --set (a second line was dropped "
                "before)",
                setting=repr(shown(assignment, newlines=False)[:80]),
            )
        )
    path, sep, raw = assignment.partition("=")
    keys = [key.strip() for key in path.split(".")]
    if not sep or not all(keys):
        raise KonfliktError(
            _("--set {setting}: give path=value, e.g. omdomme=3 or wounds.lätt=0", setting=repr(assignment))
        )
    doc: dict[str, Any] = json.loads(json.dumps(dict(document)))
    node = doc
    for key in keys[:-1]:
        child = node.get(key)
        if child is None:
            child = node[key] = {}
        if not isinstance(child, dict):
            raise KonfliktError(_("--set {setting}: {key} is not a table", setting=repr(assignment), key=key))
        node = child
    if raw.strip() == "":
        node.pop(keys[-1], None)
    else:
        node[keys[-1]] = _parse_value(raw.strip())
    check_depth(doc, f"--set {assignment!r}")
    return doc


# ---- commands ------------------------------------------------------------------------------------------------------
@chars_app.callback()
def chars_list(
    ctx: typer.Context,
    campaign: CampaignOption = library.DEFAULT_CAMPAIGN,
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The campaign's characters (without a sub-command); the database is only read."""
    if ctx.invoked_subcommand is not None:
        return
    library.check_name(campaign, "a campaign name")
    store = read_only(db)
    rows: list[library.Character] = []
    if store is not None:
        try:
            rows = library.characters(store.conn, campaign)
        finally:
            store.close()
    if as_json:
        typer.echo(json_text([{"name": r.name, "ruleset": r.ruleset, "updated": r.updated} for r in rows]))
        return
    console = plain_console()
    if not rows:
        console.print(
            _("campaign {campaign} has no characters yet (konflikt chars add FILE.toml)", campaign=repr(campaign)),
            highlight=False,
        )
        return
    table = Table(
        _("name"),
        _("ruleset"),
        _("character"),
        _("fate"),
        _("updated"),
        title=_("campaign {campaign}", campaign=campaign),
    )
    for r in rows:
        rules = get_ruleset(r.ruleset).campaign
        fate = (rules.fallen(r.document) if rules is not None else None) or _("lives")
        cells = (r.name, r.ruleset, str(r.document.get("name", r.name)), fate, r.updated)
        table.add_row(*(Text(cell) for cell in cells))
    console.print(table)


@chars_app.command("show")
def chars_show(
    name: NameArgument,
    campaign: CampaignOption = library.DEFAULT_CAMPAIGN,
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the document, delayed effects and history.")] = False,
) -> None:
    """A character's sheet in the system's words, its delayed effects and its history."""
    found, rows = character(db, campaign, name)
    if as_json:
        payload = {
            "name": found.name,
            "campaign": campaign,
            "ruleset": found.ruleset,
            "document": found.document,
            "pending": list(found.pending),
            "history": [row.__dict__ | {"lines": list(row.lines)} for row in rows],
        }
        typer.echo(json_text(payload, indent=1))
        return
    ruleset = get_ruleset(found.ruleset)
    console = plain_console()
    shown_name = found.document.get("name", found.name)
    console.print(Text(f"{shown_name} ({found.name}) — {ruleset.display_name}", style="bold"))
    sheet = ruleset.campaign.sheet(found.document, found.pending) if ruleset.campaign is not None else []
    for line in sheet:
        console.print(Text(f"  {line}"))
    console.print(Text(_("history:"), style="bold"))
    for row in rows:
        mark = " " + _("(undone)") if row.undone else ""
        console.print(Text(f"  {row.at} {row.kind}: {row.what}{mark}"))
        for line in row.lines:
            console.print(Text(f"      {line}"))


@chars_app.command("add")
def chars_add(
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE.toml", help="A character file (the scenario files' format), or builtin:NAME."),
    ],
    ruleset: Annotated[
        str | None, typer.Option(help=f"The character's ruleset ({', '.join(ruleset_ids())}), if the file has none.")
    ] = None,
    name: Annotated[str | None, typer.Option(help="Its name in the library (default: the file's name).")] = None,
    campaign: CampaignOption = library.DEFAULT_CAMPAIGN,
    db: DbOption = None,
) -> None:
    """Add a character file to the campaign, checked by its ruleset's character model."""
    bundled = str(file).startswith("builtin:")
    if bundled and ruleset is None:
        raise KonfliktError(
            _(
                "{file}: a bundled character: say whose with --ruleset ({rulesets})",
                file=file,
                rulesets=", ".join(ruleset_ids()),
            )
        )
    if bundled:
        file = bundled_character(get_ruleset(str(ruleset)), str(file).removeprefix("builtin:"))
    document = read_toml(file)
    in_file = document.pop("ruleset", None)
    ruleset_id = ruleset or in_file
    if not isinstance(ruleset_id, str):
        raise KonfliktError(
            _(
                "{file}: say which ruleset the character is for: --ruleset ({rulesets})",
                file=file,
                rulesets=", ".join(ruleset_ids()),
            )
        )
    the_ruleset = get_ruleset(ruleset_id)
    key = library.check_name(name or file.stem.lower())
    library.validated(the_ruleset, document, str(file))
    store = Store.open(db)
    try:
        with store.transaction() as tx:
            library.add(tx, campaign, key, the_ruleset, document)
    finally:
        store.close()
    typer.echo(
        shown(_("added {name} ({ruleset}) to campaign {campaign}", name=key, ruleset=the_ruleset.id, campaign=campaign))
    )


@chars_app.command("export")
def chars_export(
    name: NameArgument,
    out: Annotated[Path | None, typer.Option(help="Write to this file (default: print).")] = None,
    campaign: CampaignOption = library.DEFAULT_CAMPAIGN,
    db: DbOption = None,
) -> None:
    """The character as a character file (TOML), to use in a scenario or another campaign."""
    found, _history = character(db, campaign, name)
    header = _(
        "{name}, from campaign {campaign} ({ruleset})",
        name=found.document.get("name", found.name),
        campaign=campaign,
        ruleset=found.ruleset,
    )
    text = to_toml({"ruleset": found.ruleset, **found.document}, header)
    if out is None:
        typer.echo(text, nl=False)
    else:
        write_output(out, text)


@chars_app.command("edit")
def chars_edit(
    name: NameArgument,
    assignments: Annotated[
        list[str], typer.Option("--set", help="path=value (omdomme=3, wounds.lätt=0; empty value: the default).")
    ],
    campaign: CampaignOption = library.DEFAULT_CAMPAIGN,
    db: DbOption = None,
) -> None:
    """Change fields of a character, checked by its ruleset's character model (all or nothing)."""
    store = existing(db, no_character(name, campaign))
    try:
        with store.transaction() as tx:
            found = library.get(tx, campaign, name)
            document: dict[str, Any] = dict(found.document)
            for assignment in assignments:
                document = apply_set(document, assignment)
            library.validated(get_ruleset(found.ruleset), document, f"{name} --set")
            what = "edited: " + ", ".join(assignments)
            library.update(tx, found, Carried(document, found.pending), library.EDITED, what)
    finally:
        store.close()
    typer.echo(shown(f"{name}: {', '.join(assignments)}"))  # the values as typed: \x85 and \x1b shown escaped


@chars_app.command("delete")
def chars_delete(name: NameArgument, campaign: CampaignOption = library.DEFAULT_CAMPAIGN, db: DbOption = None) -> None:
    """Remove a character and its history from the campaign."""
    store = existing(db, no_character(name, campaign))
    try:
        with store.transaction() as tx:
            library.delete(tx, campaign, name)
    finally:
        store.close()
    typer.echo(shown(_("deleted {name} from campaign {campaign}", name=name, campaign=campaign)))


def register(app: typer.Typer) -> None:
    app.add_typer(chars_app)
