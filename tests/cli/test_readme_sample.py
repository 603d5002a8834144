"""The README: its first screen says what konflikt is for each of GM, player and designer with the commands that
start each; Quick start ends with what to try next; and its "short session" is what konflikt prints now (made by
``scripts/readme_sample.py`` from real runs, checked here against fresh ones)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_sample_is_a_fresh_run() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "readme_sample.py"), "--check"],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_the_first_screen_names_each_reader_and_the_commands_that_start_them() -> None:
    first = "\n".join(README.splitlines()[:24])
    for reader, command in (
        ("Game master", "konflikt play"),
        ("Player", "konflikt serve"),
        ("Designer", "konflikt odds"),
    ):
        line = next((line for line in first.split("\n- ") if reader in line), "")
        assert command in line, (reader, command)
    assert "konflikt sim" in first


def test_quick_start_ends_with_what_to_try_next() -> None:
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    after = quick.rsplit("```", 1)[1]
    for command in ("konflikt examples", "konflikt play", "konflikt serve", "konflikt odds", "--install-completion"):
        assert command in after
    assert len(after.strip().splitlines()) < 20
    sample = README.split("## A short session", 1)[1].split("\n## ", 1)[0]
    assert len(sample.splitlines()) < 60


def test_readme_links_resolve() -> None:
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target
