"""``konflikt serve``: the browser table (GM console and one page per seat) over the same saves as ``play``."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated

import typer

from konflikt.cli.i18n import _
from konflikt.errors import KonfliktError


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on; 0.0.0.0 for a game on your LAN.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
        db: Annotated[Path | None, typer.Option("--db", help="The save database (default: your data folder).")] = None,
        bot_seconds: Annotated[
            float,
            typer.Option(
                "--bot-seconds",
                help="A searching policy's budget a decision (mcts, rollout, optimal); past it the heuristic decides.",
            ),
        ] = 10.0,
        public_url: Annotated[
            str | None,
            typer.Option(help="The https address players open through a TLS reverse proxy (docs/table.md)."),
        ] = None,
    ) -> None:
        """Serve the table in a browser: the GM's console, a join link per seat, live over WebSocket."""
        from konflikt.web.serve import run

        if not 0.1 <= bot_seconds <= 3600:
            seconds = f"{bot_seconds:g}"
            raise KonfliktError(_("--bot-seconds {seconds}: give seconds from 0.1 to 3600", seconds=seconds))
        if not 0 < port < 65536:
            raise KonfliktError(_("--port {port}: a port is a number from 1 to 65535", port=port))
        try:
            ipaddress.ip_address(host)
        except ValueError:
            if host != "localhost":
                raise KonfliktError(
                    _("--host {host}: give an IP address such as 127.0.0.1 or 0.0.0.0", host=repr(host))
                ) from None
        run(host, port, db, bot_seconds, public_url)
