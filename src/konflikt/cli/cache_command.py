"""``konflikt cache``: the solved games kept on disk (``advise``, ``solve``, ``--policy seat=optimal``), listed with
their sizes, and cleared — all of them, or only those another version wrote (never read again)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from konflikt.cli.i18n import _
from konflikt.cli.render import plain_console
from konflikt.core.i18n import number


def _size(count: int) -> str:
    """Bytes for people: ``812 B``, ``3.4 MB``."""
    size = float(count)
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{number(size, 1)} {unit}"
        size /= 1000
    return f"{number(size, 1)} GB"


def register(app: typer.Typer) -> None:
    @app.command()
    def cache(
        clear: Annotated[bool, typer.Option("--clear", help="Remove every solved game kept.")] = False,
        stale: Annotated[
            bool, typer.Option("--stale", help="With --clear: only those another version wrote (never read again).")
        ] = False,
        json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """The solved games kept on disk ($KONFLIKT_CACHE, else your cache folder): each with its scenario, size and
        version, the total; --clear removes them (--stale: only another version's)."""
        from konflikt.analysis import optimal_cache

        console = plain_console()
        folder = optimal_cache.cache_dir()
        if clear:
            files, freed = optimal_cache.clear(stale_only=stale)
            if json_out:
                console.print_json(json.dumps({"folder": str(folder), "removed": files, "bytes": freed}))
            else:
                if stale:
                    removed = _(
                        "removed {count} solved games of other versions ({size}) from {folder}",
                        count=files,
                        size=_size(freed),
                        folder=folder,
                    )
                else:
                    removed = _(
                        "removed {count} solved games ({size}) from {folder}",
                        count=files,
                        size=_size(freed),
                        folder=folder,
                    )
                console.print(removed, highlight=False)
            return
        found = list(optimal_cache.entries())
        total = sum(e.size for e in found)
        if json_out:
            rows = [
                {
                    "file": e.path.name,
                    "title": e.title,
                    "what": e.what,
                    "version": e.version,
                    "saved": e.saved,
                    "bytes": e.size,
                    "raw_bytes": e.raw_bytes,
                    "current": e.current,
                }
                for e in found
            ]
            console.print_json(json.dumps({"folder": str(folder), "bytes": total, "entries": rows}))
            return
        if not found:
            console.print(_("no solved games kept in {folder}", folder=folder), highlight=False)
            return
        table = Table(title=_("solved games in {folder}", folder=folder))
        for column in (_("scenario"), _("solved"), _("version"), _("saved")):
            table.add_column(column, justify="left")
        for column in (_("size"), _("unpacked")):
            table.add_column(column, justify="right")
        for e in found:
            version = e.version if e.current else _("{version} (not read by this version)", version=e.version)
            unpacked = _size(e.raw_bytes) if e.raw_bytes else "?"
            table.add_row(e.title or e.path.name, e.what or "?", version, e.saved, _size(e.size), unpacked)
        console.print(table)
        stale_count = sum(not e.current for e in found)
        hint = (
            "; " + _("{count} of another version: konflikt cache --clear --stale", count=stale_count)
            if stale_count
            else ""
        )
        console.print(
            _("{count} solved games, {size} in all{hint}", count=len(found), size=_size(total), hint=hint),
            highlight=False,
        )
