"""Conformance tables: every rule sentence of a source text, where konflikt implements it and which test checks it.

Each ruleset ships ``content/conformance.toml``: one ``[[rule]]`` per rule unit of its source text, in the text's
order. A row quotes the text (in its own language, with an English gloss), names where the rule lives
(``module:qualname``), names the tests that would fail if it were wrong (``tests/…/test_x.py::test_name``) and has
one status:

- ``implemented``: the rule as written.
- ``option``: the text offers a choice; the default is the text's first reading, the others are named options.
- ``reading``: the text is ambiguous; both readings are options and the note says why the default was chosen.
- ``gap``: the text is silent; the note names konflikt's own choice (never quoted as the text's).
- ``not-applicable``: the sentence concerns play outside a conflict (hiding a weapon, buying gear).
- ``stand-in``: a rule of a base game the text builds on but does not give (PWGE's Parallel Worlds), konflikt's own.

A quote may leave words out with ``…``: each piece must then appear in the text, in order. Quotes are compared with
runs of whitespace collapsed, since the texts are forum posts with hard line breaks.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from konflikt.errors import ScenarioError

Status = Literal["implemented", "option", "reading", "gap", "not-applicable", "stand-in"]
STATUSES: tuple[str, ...] = ("implemented", "option", "reading", "gap", "not-applicable", "stand-in")
ELLIPSIS = "…"


class ConformanceRow(BaseModel):
    """One rule unit of the source text and how konflikt plays it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="short stable name of the rule unit")
    section: str = Field(default="", description="the text's heading the rule stands under")
    quote: str = Field(default="", description="the text's own words (may be empty only for a gap row)")
    gloss: str = Field(min_length=1, description="the rule in English")
    status: Status
    where: tuple[str, ...] = Field(default=(), description="module:qualname of the code that plays the rule")
    tests: tuple[str, ...] = Field(default=(), description="tests/…/test_x.py::test_name that would catch it wrong")
    options: tuple[str, ...] = Field(default=(), description="the rule options behind an option or reading row")
    note: str = Field(default="", description="why a reading's default was chosen; konflikt's own rule for a gap")

    @model_validator(mode="after")
    def _complete(self) -> ConformanceRow:
        if self.status != "gap" and not self.quote.strip():
            raise ValueError(f"a {self.status} row quotes the text")
        if self.status in ("option", "reading") and not self.options:
            raise ValueError(f"a {self.status} row names its rule options")
        if self.status in ("reading", "gap", "stand-in") and not self.note.strip():
            raise ValueError(f"a {self.status} row says in its note what konflikt chose and why")
        if self.status != "not-applicable" and not self.tests:
            raise ValueError("a row names the tests that would fail if the rule were wrong")
        if self.status != "not-applicable" and not self.where:
            raise ValueError("a row names where the rule is implemented")
        return self


class ConformanceTable(BaseModel):
    """A ruleset's whole table, in the order of its source text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ruleset: str
    source: str = Field(description="the source text's file name in shared/seeds")
    rule: tuple[ConformanceRow, ...]

    @model_validator(mode="after")
    def _unique(self) -> ConformanceTable:
        seen: set[str] = set()
        for row in self.rule:
            if row.id in seen:
                raise ValueError(f"rule id {row.id!r} appears twice")
            seen.add(row.id)
        return self

    def counts(self) -> dict[str, int]:
        """Rows per status, every status listed."""
        return {status: sum(1 for row in self.rule if row.status == status) for status in STATUSES}


def conformance_path(content_dir: Path) -> Path:
    return content_dir / "conformance.toml"


def load_conformance(path: Path) -> ConformanceTable:
    """Read and validate a conformance table; a bad file names the file, the row and the field."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(f"{path.name}: {exc}") from None
    try:
        return ConformanceTable.model_validate(document)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ScenarioError(f"{path.name}: {where}: {first['msg']}") from None


def normalise(text: str) -> str:
    """Runs of whitespace collapsed to one space: how quotes are compared with the text."""
    return re.sub(r"\s+", " ", text).strip()


def quote_pieces(quote: str) -> list[str]:
    """The contiguous pieces of a quote that leaves words out with ``…``."""
    return [piece for piece in (normalise(p) for p in quote.split(ELLIPSIS)) if piece]


def quote_in_text(quote: str, text: str) -> bool:
    """Every piece of the quote appears in the text, in order (whitespace collapsed on both sides)."""
    haystack = normalise(text)
    position = 0
    for piece in quote_pieces(quote):
        found = haystack.find(piece, position)
        if found < 0:
            return False
        position = found + len(piece)
    return True


def markdown_table(table: ConformanceTable) -> str:
    """The table as Markdown, for the ruleset's guide (between the conformance markers)."""

    def cell(text: str) -> str:
        return normalise(text).replace("|", "\\|")

    def code(items: Sequence[str]) -> str:
        return "<br>".join(f"`{item}`" for item in items)

    counts = ", ".join(f"{n} {status}" for status, n in table.counts().items() if n)
    lines = [
        f"{len(table.rule)} rule units of `{table.source}`, in the text's order: {counts}.",
        "",
        "| # | rule | the text | English | status | where | tests |",
        "|---|---|---|---|---|---|---|",
    ]
    for number, row in enumerate(table.rule, 1):
        status = row.status + (f" ({', '.join(f'`{o}`' for o in row.options)})" if row.options else "")
        gloss = cell(row.gloss) + (f" *{cell(row.note)}*" if row.note else "")
        quote = f"“{cell(row.quote)}”" if row.quote else "—"
        lines.append(f"| {number} | {row.id} | {quote} | {gloss} | {status} | {code(row.where)} | {code(row.tests)} |")
    return "\n".join(lines) + "\n"


BEGIN = "<!-- conformance:begin (generated by scripts/render_conformance.py; do not edit by hand) -->"
END = "<!-- conformance:end -->"


def with_table(guide: str, table: ConformanceTable) -> str:
    """The guide's text with its conformance section replaced (or appended under a heading)."""
    block = f"{BEGIN}\n{markdown_table(table)}{END}"
    if BEGIN in guide and END in guide:
        head, rest = guide.split(BEGIN, 1)
        return head + block + rest.split(END, 1)[1]
    return guide.rstrip("\n") + "\n\n## Conformance: the text sentence by sentence\n\n" + block + "\n"
