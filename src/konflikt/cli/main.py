"""The ``konflikt`` command: every error is one line on stderr and exit code 2, never a traceback."""

from __future__ import annotations

import os
import sqlite3
import sys

import typer
import typer.main
from typer import _click

from konflikt.cli.quick import SUMMARY, answer
from konflikt.errors import KonfliktError

app = typer.Typer(
    name="konflikt",
    help=SUMMARY,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def _top(
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", is_eager=True),
    lang: str | None = typer.Option(
        None,
        "--lang",
        help="The language konflikt speaks: sv, da, pl, en, or both (English with each system's terms and a gloss). "
        "Default: $KONFLIKT_LANG, else the locale, else both.",
        metavar="LANG",
    ),
) -> None:
    if lang is not None:
        from konflikt.core.i18n import CHOICES, set_language

        if lang.strip().lower() not in CHOICES:
            choices = ", ".join(CHOICES)
            raise KonfliktError(
                _(
                    "--lang {typed} is not a language konflikt speaks: choose one of {choices}",
                    typed=repr(lang),
                    choices=choices,
                )
            )
        set_language(lang)
    if version:
        from konflikt import __version__

        typer.echo(f"konflikt {__version__}")
        raise typer.Exit()


_command: _click.Command | None = None


def _register() -> _click.Command:
    """Add every command to the app and build its Click command, once: ``main`` is called many times in one
    process by tests and fuzzing, and building the command tree costs about 0.2 s a call."""
    global _command
    if _command is not None:
        return _command
    from konflikt.cli import (
        bench_command,
        compare_command,
        dice_commands,
        info_commands,
        play_command,
        report_command,
        run_command,
        scenario_command,
        sensitivity_command,
        serve_command,
        sim_command,
        solve_command,
        sweep_command,
    )

    commands = (
        run_command,
        play_command,
        sim_command,
        solve_command,
        sweep_command,
        report_command,
        dice_commands,
        compare_command,
        sensitivity_command,
        scenario_command,
        bench_command,
    )
    for module in (*commands, serve_command, info_commands):
        module.register(app)
    from konflikt.cli import cache_command, campaign_command, chars_command
    from konflikt.cli.completion import use_own_scripts

    use_own_scripts()
    chars_command.register(app)
    campaign_command.register(app)
    cache_command.register(app)
    _command = typer.main.get_command(app)
    return _command


#: An error line is cut here: a 4,000-digit number quoted back is not helpful.
MAX_LINE = 1000


def _(message: str, /, **fields: object) -> str:
    """The ``cli`` catalog's ``_``, imported when a message is printed: the catalog loads the engine's core (numpy,
    pydantic), which ``--help``, ``--version`` and the shells' completion never need."""
    from konflikt.cli.i18n import _ as translated

    return translated(message, **fields)


def fail(message: str, code: int = 2) -> None:
    """One line on stderr, whatever the message holds (SQLite and pydantic messages can span lines, and a field
    named on the command line can hold ESC, C1 or DEL: shown as escapes, as everything konflikt prints)."""
    from konflikt.safe_text import shown

    line = shown(" ".join(message.split()), newlines=False)
    if len(line) > MAX_LINE:
        line = line[: MAX_LINE - 1] + "…"
    sys.stderr.write(_("konflikt: error: {message}", message=line) + "\n")
    raise SystemExit(code)


def main(argv: list[str] | None = None) -> None:
    if os.environ.get("_KONFLIKT_COMPLETE"):
        # asked by a shell's completion script: before the quick --help path, which would answer the empty
        # command line the script sends with the help text
        from konflikt.cli.completion import answer as complete

        raise SystemExit(complete(_register))
    if answer(sys.argv[1:] if argv is None else list(argv)):
        return
    from konflikt.cli.common import Stopped
    from konflikt.core.i18n import language_setting, restore_language

    command = _register()
    language_before = language_setting()
    try:
        code = command.main(args=argv, standalone_mode=False, prog_name="konflikt")
    except KonfliktError as exc:
        fail(str(exc))
    except Stopped as exc:
        sys.stderr.write(f"konflikt: {exc}\n")
        raise SystemExit(130) from None
    except typer.Exit as exc:
        raise SystemExit(exc.exit_code) from None
    except (typer.Abort, KeyboardInterrupt, EOFError):
        sys.stderr.write(_("konflikt: stopped") + "\n")
        raise SystemExit(130) from None
    except typer.TyperException as exc:
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        if isinstance(exc, _click.exceptions.NoSuchOption) and exc.possibilities:
            from konflikt.cli.common import nearest

            near = nearest(exc.option_name, exc.possibilities)
            message = (
                exc.message
                + " "
                + (
                    _("(did you mean {option}?)", option=near)
                    if near
                    else _("(options: {options})", options=", ".join(exc.possibilities))
                )
            )
        if type(exc).__name__ == "NoArgsIsHelpError":
            sys.stdout.write(message + "\n")
            raise SystemExit(0) from None
        ctx = getattr(exc, "ctx", None)
        where = " " + _("(see '{command} --help')", command=ctx.command_path) if ctx is not None else ""
        fail(" ".join(message.split()) + where)
    except BrokenPipeError:
        from konflikt.cli.render import quiet_stdout

        quiet_stdout()
        raise SystemExit(0) from None
    except sqlite3.DatabaseError as exc:
        fail(_("the save database cannot be used: {why}", why=exc))
    except Exception as exc:
        if os.environ.get("KONFLIKT_DEBUG"):
            raise
        fail(
            _(
                "internal error: {kind}: {why} (set KONFLIKT_DEBUG=1 for the traceback)",
                kind=type(exc).__name__,
                why=exc,
            ),
            code=1,
        )
    else:
        # typer returns (not raises) the code of a typer.Exit, and 130 for a Ctrl-C inside a command
        if code == 130:
            sys.stderr.write(_("konflikt: stopped") + "\n")
        if isinstance(code, int) and code:
            raise SystemExit(code)
    finally:
        # ``main`` runs many times in one process (tests, fuzzing): one command's --lang must not reach the next
        restore_language(language_before)


if __name__ == "__main__":
    main()
