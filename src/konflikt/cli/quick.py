"""``konflikt``, ``konflikt --help``, ``-h`` and ``--version`` answered before anything heavy is imported.

Building the whole command line imports every command's module, and through them numpy, pydantic and the rulesets:
seconds on a busy machine, for a question whose answer is a list of names. The list is kept here, once; a test
checks it against the commands the app registers (``tests/cli/test_startup.py``), so a new command fails that
test until it is listed.
"""

from __future__ import annotations

import sys

from konflikt import __version__

SUMMARY = "Four tabletop conflict systems, executable: run, play, exact odds and balancing."

COMMANDS: tuple[tuple[str, str], ...] = (
    ("run", "Play a whole conflict and print the narrated log and the outcome."),
    ("play", "Run a conflict at the table: human seats are asked, dice rolled or typed in; saved after every step."),
    ("saves", "The saved conflicts (the database is only read: nothing is created); --delete ID removes one."),
    ("export", "A saved conflict as JSON, to move it to another machine (the database is only read)."),
    ("import", "Add a conflict exported with 'konflikt export' (or saved by 'konflikt run --save') to the saves."),
    ("sim", "Play a scenario many times and report outcomes with 95% intervals, consequences, length and..."),
    ("solve", "Optimal play: each side's win chance with both optimal, its best response to the other's..."),
    ("sweep", "Simulate every cell of a grid over skills, weapons, characters and rule options."),
    ("roll", "Roll dice (seeded when asked)."),
    ("odds", "Exact odds: of dice (4dF), of a ruleset's question (presja exchange --attack 3 --defense 5), or..."),
    ("compare", "Compare what-ifs side by side: each outcome's chance and the change against the first."),
    ("sensitivity", "Which rule moves the balance: each rule option and each number of the participants varied one..."),
    ("scenario", "A scenario as konflikt reads it: 'scenario show SCENARIO --set PATH=VALUE' prints the resulting..."),
    ("bench", "Time exact dice questions against icepool and conflicts per second against the reference runner."),
    ("serve", "Serve the table in a browser: the GM's console, a join link per seat, live over WebSocket."),
    ("rules", "The registered rulesets with their rule options, defaults and docs."),
    ("examples", "The bundled example scenarios (run one with: konflikt run RULESET/NAME)."),
    ("cache", "The solved games kept on disk ($KONFLIKT_CACHE, else your cache folder): each with its scenario,..."),
    ("report", "Balancing reports the source texts ask for (tables, CSV and plots): `konflikt report` lists them."),
    ("chars", "The character library: characters kept between conflicts, per campaign."),
    ("campaign", "Campaigns: time between conflicts (rest), and the list of them."),
)
"""Every command with the first line of its help, in the order ``konflikt --help`` lists them."""

OPTIONS = (
    ("--version", "Print the version and exit."),
    ("--lang LANG", "The language konflikt speaks: sv, da, pl, en, or both (default: $KONFLIKT_LANG, the locale)."),
    ("--install-completion", "Install completion for the current shell."),
    ("--show-completion", "Show completion for the current shell, to copy it or customize the installation."),
    ("-h, --help", "Show this message and exit."),
)


def help_text() -> str:
    width = max(len(name) for name, _ in (*COMMANDS, *OPTIONS)) + 2
    lines = ["Usage: konflikt [OPTIONS] COMMAND [ARGS]...", "", f"  {SUMMARY}", "", "Options:"]
    lines += [f"  {name:<{width}}{text}" for name, text in OPTIONS]
    lines += ["", "Commands:"]
    lines += [f"  {name:<{width}}{text}" for name, text in COMMANDS]
    lines += ["", "  konflikt COMMAND --help says more about each command."]
    return "\n".join(lines) + "\n"


def answer(argv: list[str]) -> bool:
    """Answer ``argv`` here when it asks only for the help or the version; ``False``: the full app must run."""
    if argv in ([], ["--help"], ["-h"]):
        sys.stdout.write(help_text())
        return True
    if argv == ["--version"]:
        sys.stdout.write(f"konflikt {__version__}\n")
        return True
    return False
