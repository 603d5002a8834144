"""The ``konflikt`` command: every error is one line on stderr and exit code 2, never a traceback."""

from __future__ import annotations

import os
import sqlite3
import sys

import typer

from konflikt.cli.common import Stopped
from konflikt.core.errors import KonfliktError

app = typer.Typer(
    name="konflikt",
    help="Four tabletop conflict systems, executable: run, play, exact odds and balancing.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    from konflikt.cli import (
        bench_command,
        dice_commands,
        info_commands,
        play_command,
        report_command,
        run_command,
        sim_command,
        sweep_command,
    )

    commands = (run_command, play_command, sim_command, sweep_command, report_command, dice_commands, bench_command)
    for module in (*commands, info_commands):
        module.register(app)


def fail(message: str, code: int = 2) -> None:
    sys.stderr.write(f"konflikt: error: {message}\n")
    raise SystemExit(code)


def main(argv: list[str] | None = None) -> None:
    _register()
    try:
        app(args=argv, standalone_mode=False, prog_name="konflikt")
    except KonfliktError as exc:
        fail(str(exc))
    except typer.Exit as exc:
        raise SystemExit(exc.exit_code) from None
    except (typer.Abort, KeyboardInterrupt, EOFError) as exc:
        said = str(exc) if isinstance(exc, Stopped) else ""
        sys.stderr.write(f"konflikt: {said or 'stopped'}\n")
        raise SystemExit(130) from None
    except typer.TyperException as exc:
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        if type(exc).__name__ == "NoArgsIsHelpError":
            sys.stdout.write(message + "\n")
            raise SystemExit(0) from None
        ctx = getattr(exc, "ctx", None)
        where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        fail(" ".join(message.split()) + where)
    except BrokenPipeError:
        raise SystemExit(0) from None
    except sqlite3.DatabaseError as exc:
        fail(f"the save database cannot be used: {exc}")
    except Exception as exc:
        if os.environ.get("KONFLIKT_DEBUG"):
            raise
        fail(f"internal error: {type(exc).__name__}: {exc} (set KONFLIKT_DEBUG=1 for the traceback)", code=1)


if __name__ == "__main__":
    main()
