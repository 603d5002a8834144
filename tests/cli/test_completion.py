"""Shell completion for bash, zsh and fish, run as a shell runs it: ``konflikt`` in a fresh process with
``_KONFLIKT_COMPLETE`` and the words typed so far in the environment.

Click's protocol (``bash_complete``, ``zsh_complete``, ``fish_complete`` with ``COMP_WORDS`` and ``COMP_CWORD``) and
the one the scripts ``konflikt --install-completion`` writes (``complete_bash`` …) are both answered; then each
shell's script is sourced in the real shell (zsh and fish where installed) and its function called. Before, the
quick ``--help`` path answered the empty command line a completion request carries with the help text.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

#: (the words before the one being completed, that word, a candidate it must offer)
CASES = [
    (["konflikt"], "ru", "run"),
    (["konflikt", "run", "presja/knife_fight"], "--se", "--seed"),
    (["konflikt", "play"], "presja/kn", "presja/knife_fight"),
    (["konflikt", "run", "presja/knife_fight", "--policy"], "Bel", "Belzee="),
    (["konflikt", "sim", "fimbulfrost/robbers", "-p"], "budolf=hu", "budolf=human"),
]


def konflikt(env: dict[str, str], cwd: Path | None = None) -> str:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("COMP_", "_KONFLIKT", "_TYPER"))}
    done = subprocess.run(
        [sys.executable, "-m", "konflikt"], env=base | env, capture_output=True, text=True, timeout=120, cwd=cwd
    )
    assert done.returncode == 0, done.stderr
    assert "Usage:" not in done.stdout and "Traceback" not in done.stderr
    return done.stdout


def click_protocol(shell: str, words: list[str], incomplete: str, cwd: Path | None = None) -> list[str]:
    """The values offered, read back as Click's scripts read them."""
    cword = incomplete if shell == "fish" else str(len(words))  # fish sends the word itself
    env = {"_KONFLIKT_COMPLETE": f"{shell}_complete", "COMP_WORDS": " ".join([*words, incomplete]), "COMP_CWORD": cword}
    out = konflikt(env, cwd).splitlines()
    if shell == "zsh":
        assert all(kind == "plain" for kind in out[0::3]), out
        return out[1::3]
    values = [line.split("\t")[0] for line in out]
    assert all(v.startswith("plain,") for v in values), out
    return [v.removeprefix("plain,") for v in values]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
@pytest.mark.parametrize(("words", "incomplete", "expected"), CASES)
def test_click_protocol(shell: str, words: list[str], incomplete: str, expected: str) -> None:
    offered = click_protocol(shell, words, incomplete)
    assert expected in offered
    assert all(value.lower().startswith(incomplete.lower()) for value in offered), offered


def test_scenario_files_are_offered_beside_the_bundled_names(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text("", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    (tmp_path / "more").mkdir()
    assert click_protocol("bash", ["konflikt", "run"], "m", cwd=tmp_path) == ["mine.toml", "more/"]


def test_bash_splits_words_at_equals() -> None:
    """Bash hands ``belzee=h`` over as ``belzee``, ``=``, ``h`` and replaces only the last piece."""
    words = ["konflikt", "run", "presja/knife_fight", "--policy", "belzee", "="]
    after = konflikt({"_KONFLIKT_COMPLETE": "bash_complete", "COMP_WORDS": " ".join([*words, "h"]), "COMP_CWORD": "6"})
    assert after.split() == ["plain,human", "plain,heuristic"]
    at = konflikt({"_KONFLIKT_COMPLETE": "bash_complete", "COMP_WORDS": " ".join(words), "COMP_CWORD": "5"})
    assert "plain,=human" in at.split()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_installed_scripts_protocol(shell: str) -> None:
    """What Typer's scripts send: COMP_WORDS and COMP_CWORD for bash, the line so far for zsh and fish."""
    line = "konflikt run presja/knife_fight --policy massimo=o"
    env = {"_KONFLIKT_COMPLETE": f"complete_{shell}"}
    if shell == "bash":
        env |= {"COMP_WORDS": line.replace("=", " = "), "COMP_CWORD": "6"}
    else:
        env |= {"_TYPER_COMPLETE_ARGS": line, "_TYPER_COMPLETE_FISH_ACTION": "get-args"}
    out = konflikt(env)
    assert {"bash": "optimal", "zsh": '"massimo=optimal"', "fish": "massimo=optimal"}[shell] in out, out


def script(shell: str) -> str:
    return konflikt({"_KONFLIKT_COMPLETE": f"source_{shell}"})


def on_path() -> dict[str, str]:
    """``konflikt`` on PATH, as after an install (the scripts call it by name)."""
    folder = Path(sys.executable).parent
    if not (folder / "konflikt").exists():
        pytest.skip("no konflikt console script beside this Python")
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}


def test_bash_runs_the_script(tmp_path: Path) -> None:
    (tmp_path / "konflikt.bash").write_text(script("bash"), encoding="utf-8")
    calls = """
    source konflikt.bash
    ask() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _konflikt_completion konflikt
            echo "${COMPREPLY[*]}"; }
    ask konflikt pl
    ask konflikt run presja/knife_fight --policy ma
    ask konflikt run presja/knife_fight --policy massimo = r
    """
    done = subprocess.run(["bash", "--norc", "-c", calls], cwd=tmp_path, env=on_path(), capture_output=True, text=True)
    assert done.stdout.splitlines() == ["play", "massimo=", "random rollout"], done.stderr


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_runs_the_script(tmp_path: Path) -> None:
    """The script's function called as zsh's completion system calls it (``words``, ``CURRENT``), with
    ``_arguments`` standing in to print what it was given."""
    (tmp_path / "konflikt.zsh").write_text(script("zsh"), encoding="utf-8")
    calls = """
    compdef() { : }
    _arguments() { print -r -- "$@" }
    source ./konflikt.zsh
    words=(konflikt ru); CURRENT=2; _konflikt_completion
    words=(konflikt run presja/knife_fight --policy mass); CURRENT=5; _konflikt_completion
    """
    done = subprocess.run(["zsh", "-f", "-c", calls], cwd=tmp_path, env=on_path(), capture_output=True, text=True)
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and '"run"' in lines[0] and '"massimo="' in lines[1], (lines, done.stderr)


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_runs_the_script(tmp_path: Path) -> None:
    (tmp_path / "konflikt.fish").write_text(script("fish"), encoding="utf-8")
    calls = """
    source konflikt.fish
    complete --do-complete "konflikt ru"
    complete --do-complete "konflikt run presja/knife_fight --policy massimo=r"
    """
    done = subprocess.run(["fish", "-c", calls], cwd=tmp_path, env=on_path(), capture_output=True, text=True)
    values = [line.split("\t")[0] for line in done.stdout.splitlines()]
    assert "run" in values and "massimo=random" in values and "massimo=rollout" in values, (values, done.stderr)


def test_a_bad_instruction_is_one_line() -> None:
    base = {k: v for k, v in os.environ.items() if not k.startswith("_KONFLIKT")}
    done = subprocess.run(
        [sys.executable, "-m", "konflikt"], env=base | {"_KONFLIKT_COMPLETE": "tcsh_complete"},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "bash, zsh or fish" in done.stderr


def test_the_first_word_is_answered_before_any_command_loads() -> None:
    """The commands' names come from the quick list: no numpy, no command module, for the first Tab."""
    probe = (
        "import sys\nfrom konflikt.cli.main import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m == 'numpy' or m.endswith('_command')), file=sys.stderr)"
    )
    env = {"_KONFLIKT_COMPLETE": "bash_complete", "COMP_WORDS": "konflikt ", "COMP_CWORD": "1"}
    base = {k: v for k, v in os.environ.items() if not k.startswith(("COMP_", "_KONFLIKT"))}
    done = subprocess.run([sys.executable, "-c", probe], env=base | env, capture_output=True, text=True, timeout=120)
    from konflikt.cli.quick import COMMANDS

    assert done.stdout.split() == [f"plain,{name}" for name, _ in COMMANDS]
    assert done.stderr.strip() == "[]"
