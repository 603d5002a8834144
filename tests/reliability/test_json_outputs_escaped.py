"""Every ``--json`` answer that carries a scenario's text writes DEL, C1 and the bidirectional overrides as ``\\uXXXX``
escapes: still valid JSON that reads back to the same text, and nothing a terminal would act on (``\\x9b`` is CSI in
8-bit mode). The saves, exports and characters were done first (issue 48); these carry titles and names too."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.languages import with_title

RAW = re.compile(r"[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
TITLE = "Tvekamp \x9b2J \u202eevil"


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    source = Path(__file__).parents[2] / "src/konflikt/examples/fimbulfrost/robbers.toml"
    text = source.read_text(encoding="utf-8")
    path = tmp_path / "odd.toml"
    path.write_text(with_title(text, json.dumps(TITLE)), "utf-8")
    return path


@pytest.mark.parametrize(
    "args",
    [
        ("run", "{s}", "--seed", "1", "--json"),
        ("sim", "{s}", "-n", "200", "--seed", "1", "--json"),
        ("scenario", "show", "{s}", "--json"),
        ("odds", "{s}", "--json"),
    ],
)
def test_json_answers_escape_what_a_terminal_reads(
    cli: Callable[..., Result], scenario: Path, args: tuple[str, ...]
) -> None:
    result = cli(*(str(scenario) if a == "{s}" else a for a in args))
    assert result.code == 0, result.err
    assert not RAW.search(result.out), "a raw control character reached the terminal"
    read = json.dumps(json.loads(result.out), ensure_ascii=False)
    if "Tvekamp" in read:  # an answer that carries the title carries it whole
        assert TITLE in read, "the title reads back as written"
