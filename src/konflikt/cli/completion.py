"""Shell completion for bash, zsh and fish: commands, options, scenario names (bundled ``RULESET/NAME`` and files)
and seat ids (``--policy belzee=human``).

``konflikt --install-completion`` (or ``--show-completion``) installs Typer's script for the shell; the script
calls ``konflikt`` with ``_KONFLIKT_COMPLETE=complete_bash`` (``complete_zsh``, ``complete_fish``) and reads the
candidates back. Click's own order, ``_KONFLIKT_COMPLETE=bash_complete`` with ``COMP_WORDS`` and ``COMP_CWORD`` (for
fish, ``COMP_CWORD`` is the word being completed, as Click's fish script sends it), is answered too, in Click's
answer format (``plain,run`` for bash; type, value and help on three lines for zsh; ``plain,run<TAB>help`` for
fish). :func:`main.main` hands the request here before its quick ``--help`` path, which would otherwise answer an
empty command line with the help text.

Bash splits words at ``=`` (``COMP_WORDBREAKS``): ``--policy belzee=h`` arrives as ``belzee``, ``=``, ``h``. The
pieces are joined again before Click reads them, and each candidate is cut back to the part bash replaces.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer import _click
from typer._click.shell_completion import CompletionItem, ShellComplete, split_arg_string

VAR = "_KONFLIKT_COMPLETE"
SHELLS = ("bash", "zsh", "fish")

# ---------------------------------------------------------------------------------------------------------------
# What is completed: called by Typer's ``autocompletion`` with the context parsed so far and the word being typed.


def _bundled() -> dict[str, str]:
    """Each bundled scenario's ``RULESET/NAME`` with its title (the TOML read, nothing imported)."""
    from konflikt.core.scenario import bundled_examples

    found: dict[str, str] = {}
    for path in sorted(bundled_examples().glob("*/*.toml")):
        if path.parent.name == "sweeps":
            continue
        try:
            title = str(tomllib.loads(path.read_text(encoding="utf-8")).get("title", ""))
        except (OSError, ValueError):
            title = ""
        found[f"{path.parent.name}/{path.stem}"] = title
    return found


def _paths(incomplete: str, suffix: str = ".toml") -> list[str]:
    """Files ending in ``suffix`` and folders (with a ``/``) whose path starts with what is typed."""
    folder, _, start = incomplete.rpartition("/")
    base = Path(folder or ".")
    try:
        entries = sorted(base.iterdir()) if base.is_dir() else []
    except OSError:
        return []
    found = []
    for entry in entries:
        if not entry.name.startswith(start) or (entry.name.startswith(".") and not start.startswith(".")):
            continue
        shown = f"{folder}/{entry.name}" if folder else entry.name
        if entry.is_dir():
            found.append(shown + "/")
        elif entry.name.endswith(suffix):
            found.append(shown)
    return found


def complete_scenario(incomplete: str) -> list[tuple[str, str]]:
    """Bundled scenarios (with their titles) and scenario files."""
    named = [(name, title) for name, title in _bundled().items() if name.startswith(incomplete)]
    return named + [(path, "") for path in _paths(incomplete) if path not in dict(named)]


def complete_scenario_or_ruleset(incomplete: str) -> list[tuple[str, str]]:
    """``odds``' first word: a scenario, or a ruleset id (its questions follow)."""
    rulesets = sorted({name.split("/")[0] for name in _bundled()})
    return [(r, "") for r in rulesets if r.startswith(incomplete)] + complete_scenario(incomplete)


def complete_ruleset(incomplete: str) -> list[str]:
    return sorted({name.split("/")[0] for name in _bundled() if name.startswith(incomplete)})


def _scenario_of(ctx: _click.Context) -> str | None:
    """The scenario named on the command line so far. Click leaves every word unparsed when the line ends in an
    option still waiting for its value (``--policy``), so the words are then read here: the first one that is
    neither an option nor an option's value."""
    for key in ("scenario_name", "target"):
        if isinstance(value := ctx.params.get(key), str):
            return value
    takes_value = {
        name: not getattr(p, "is_flag", False) and not getattr(p, "count", False)
        for p in ctx.command.params
        if p.param_type_name == "option"
        for name in (*p.opts, *p.secondary_opts)
    }
    words = iter(ctx.args)
    for word in words:
        if word.startswith("-"):
            if takes_value.get(word) and "=" not in word:
                next(words, None)
            continue
        return word
    return None


def complete_seat_policy(ctx: _click.Context, incomplete: str) -> list[tuple[str, str]]:
    """``--policy SEAT=POLICY``: the scenario's seat ids, then after ``=`` human and the ruleset's policies. A seat
    typed in another case keeps the case typed (seat ids are read in any case)."""
    name = _scenario_of(ctx)
    if name is None:
        return []
    try:
        from konflikt.core.scenario import load_scenario
        from konflikt.core.state import GM

        scenario = load_scenario(name)
    except Exception:  # a completion never prints an error into the command line being typed
        return []
    seats = [(p.id, p.name) for p in scenario.participants()] + [("gm", "the game master's decisions")]
    seat, sep, typed = incomplete.partition("=")
    if not sep:
        return [
            (incomplete + s[len(incomplete) :] + "=", title)
            for s, title in seats
            if s.lower().startswith(incomplete.lower())
        ]
    if seat.lower() not in {s.lower() for s, _ in seats} | {GM}:
        return []
    policies = ["human", *scenario.ruleset.policy_names()]
    return [(f"{seat}={p}", "") for p in policies if p.startswith(typed.lower())]


def complete_rule_option(ctx: _click.Context, incomplete: str) -> list[tuple[str, str]]:
    """``--option NAME=VALUE``: the scenario's ruleset's option names (with their docs)."""
    name = _scenario_of(ctx)
    if name is None or "=" in incomplete:
        return []
    try:
        from konflikt.core.scenario import load_scenario

        options = load_scenario(name).ruleset.options
    except Exception:
        return []
    return [(o.name + "=", o.doc.split(". ")[0]) for o in options if o.name.startswith(incomplete)]


# ---------------------------------------------------------------------------------------------------------------
# The protocols.


def _join_bash_words(words: list[str], current: int) -> tuple[list[str], str, int]:
    """Join the words bash split at ``=`` back together: the arguments before the word being completed, that word
    whole, and how many of its leading characters bash keeps (they are cut from each candidate)."""
    before, word = words[:current], words[current] if current < len(words) else ""
    keep = 0
    if word == "=" and before:
        word = before.pop() + "="
        keep = len(word) - 1
    elif len(before) >= 2 and before[-1] == "=":
        before.pop()
        head = before.pop() + "="
        keep, word = len(head), head + word
    joined: list[str] = []
    glue = False
    for item in before:
        if item == "=" and joined:
            joined[-1] += "="
            glue = True
        elif glue:
            joined[-1] += item
            glue = False
        else:
            joined.append(item)
    return joined, word, keep


def _bash_args() -> tuple[list[str], str, int]:
    words = split_arg_string(os.environ.get("COMP_WORDS", ""))
    current = int(os.environ.get("COMP_CWORD", str(len(words))))
    if not 0 < current <= len(words):
        current = max(1, len(words))
    return _join_bash_words(words[1:], current - 1)


class QuickCommands(ShellComplete):
    """The first word (a command's name) offered from :data:`quick.COMMANDS`, before any command is loaded: the
    first Tab answers at once. Anything further builds the command line (``register``)."""

    register: Callable[[], _click.Command]

    def get_completions(self, args: list[str], incomplete: str) -> list[CompletionItem]:
        if not args and not incomplete.startswith("-"):
            from konflikt.cli.quick import COMMANDS

            return [CompletionItem(name, help=text) for name, text in COMMANDS if name.startswith(incomplete)]
        self.cli = self.register()
        return super().get_completions(args, incomplete)


class ClickBash(QuickCommands):
    """``bash_complete``: Click's protocol and answer format (``plain,VALUE`` a line)."""

    name = "bash"
    source_template = ""

    def source_vars(self) -> dict[str, Any]:
        return {}

    def get_completion_args(self) -> tuple[list[str], str]:
        args, incomplete, self.keep = _bash_args()
        return args, incomplete

    def format_completion(self, item: CompletionItem) -> str:
        return f"{item.type},{str(item.value)[self.keep :]}"


class ClickZsh(ClickBash):
    """``zsh_complete``: type, value and help (``_`` for none) on three lines."""

    name = "zsh"

    def get_completion_args(self) -> tuple[list[str], str]:
        words = split_arg_string(os.environ.get("COMP_WORDS", ""))
        current = int(os.environ.get("COMP_CWORD", str(len(words))))
        return words[1:current], words[current] if current < len(words) else ""

    def format_completion(self, item: CompletionItem) -> str:
        help_text = " ".join((item.help or "_").split())
        value = str(item.value).replace(":", r"\:") if help_text != "_" else str(item.value)
        return f"{item.type}\n{value}\n{help_text}"


class ClickFish(ClickBash):
    """``fish_complete``: ``COMP_WORDS`` is the command line up to the cursor, ``COMP_CWORD`` the word typed."""

    name = "fish"

    def get_completion_args(self) -> tuple[list[str], str]:
        words = split_arg_string(os.environ.get("COMP_WORDS", ""))
        incomplete = os.environ.get("COMP_CWORD", "")
        args = words[1:]
        if incomplete and args and args[-1] == incomplete:
            args.pop()
        return args, incomplete

    def format_completion(self, item: CompletionItem) -> str:
        help_text = " ".join((item.help or "").split())
        return f"{item.type},{item.value}\t{help_text}" if help_text else f"{item.type},{item.value}"


BASH_SCRIPT = """
%(complete_func)s() {
    local IFS=$'\\n'
    COMPREPLY=( $( env COMP_WORDS="${COMP_WORDS[*]}" \\
                   COMP_CWORD=$COMP_CWORD \\
                   %(autocomplete_var)s=complete_bash $1 ) )
    if [[ ${#COMPREPLY[@]} -eq 1 && ( ${COMPREPLY[0]} == *= || ${COMPREPLY[0]} == */ ) ]]; then
        compopt -o nospace 2>/dev/null
    fi
    return 0
}

complete -o default -F %(complete_func)s %(prog_name)s
"""
"""Typer's bash script, with no space after a lone ``belzee=`` or ``presja/`` (the rest of the word follows)."""


def use_own_scripts() -> None:
    """``--install-completion``, ``--show-completion`` and ``source`` write :data:`BASH_SCRIPT` for bash."""
    from typer import _completion_shared

    _completion_shared._completion_scripts["bash"] = BASH_SCRIPT


def _typer_classes() -> dict[str, type[QuickCommands]]:
    """Typer's classes (what ``--install-completion`` writes calls), bash's taught to join words split at ``=``."""
    from typer._completion_classes import BashComplete, FishComplete, ZshComplete

    class Bash(QuickCommands, BashComplete):
        def get_completion_args(self) -> tuple[list[str], str]:
            args, incomplete, self.keep = _bash_args()
            return args, incomplete

        def format_completion(self, item: CompletionItem) -> str:
            return str(item.value)[self.keep :]

    class Zsh(QuickCommands, ZshComplete):
        pass

    class Fish(QuickCommands, FishComplete):
        pass

    return {"bash": Bash, "zsh": Zsh, "fish": Fish}


def answer(register: Callable[[], _click.Command], write: Callable[[str], Any] = sys.stdout.write) -> int:
    """Answer the completion request in ``$_KONFLIKT_COMPLETE``; the exit code. ``register`` builds the command
    line, called only when the answer needs more than the commands' names."""
    from typer._completion_shared import get_completion_script

    instruction = os.environ.get(VAR, "")
    first, _, second = instruction.partition("_")
    classes: dict[str, type[QuickCommands]]
    if first in SHELLS:
        shell, action, classes = first, second, {"bash": ClickBash, "zsh": ClickZsh, "fish": ClickFish}
    elif second in SHELLS:
        shell, action, classes = second, first, _typer_classes()
    else:
        sys.stderr.write(f"konflikt: error: {VAR}={instruction!r}: completion is for bash, zsh or fish\n")
        return 2
    if action == "source":
        use_own_scripts()
        write(get_completion_script(prog_name="konflikt", complete_var=VAR, shell=shell) + "\n")
        return 0
    if action != "complete":
        sys.stderr.write(f"konflikt: error: {VAR}={instruction!r}: the instruction is complete or source\n")
        return 2
    completer = classes[shell](None, {}, "konflikt", VAR)  # type: ignore[arg-type]  # the command line: later
    completer.register = register
    try:
        text = completer.complete()
    except Exception:
        if os.environ.get("KONFLIKT_DEBUG"):
            raise
        return 1  # nothing offered: the shell falls back to file names
    if text:
        write(text + "\n")
    return 0
