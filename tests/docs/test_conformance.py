"""Every ruleset's conformance table holds: quotes are the text's words, code and tests exist, the guide is current.

The source texts are vendored in ``tests/sources/`` (the copies in ``shared/seeds`` are the truth; a test checks the
vendored copies equal them whenever ``shared/`` sits beside the repository).
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from konflikt.core.conformance import (
    ConformanceRow,
    ConformanceTable,
    load_conformance,
    markdown_table,
    quote_in_text,
    with_table,
)
from konflikt.core.ruleset import get_ruleset, ruleset_ids
from konflikt.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "tests" / "sources"
SHARED_SEEDS = ROOT.parent / "shared" / "seeds"

MINIMUM_ROWS = {"presja": 57, "levald": 58, "fimbulfrost": 41, "pwge": 48}
"""The rule units a strict reader counted in each text: a table may split them finer, never coarser."""


def source_text(ruleset_id: str) -> str:
    return (SOURCES / get_ruleset(ruleset_id).source).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(p.name for p in SOURCES.glob("*.txt")))
def test_vendored_sources_equal_the_shared_texts(name: str) -> None:
    shared = SHARED_SEEDS / name
    if not shared.exists():
        pytest.skip("shared/seeds is not beside this checkout")
    assert (SOURCES / name).read_bytes() == shared.read_bytes()


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_table_covers_the_text(ruleset_id: str) -> None:
    table = get_ruleset(ruleset_id).conformance()
    assert table.ruleset == ruleset_id
    assert table.source == get_ruleset(ruleset_id).source
    assert len(table.rule) >= MINIMUM_ROWS[ruleset_id]


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_every_quote_is_the_texts_words(ruleset_id: str) -> None:
    text = source_text(ruleset_id)
    wrong = [
        row.id for row in get_ruleset(ruleset_id).conformance().rule if row.quote and not quote_in_text(row.quote, text)
    ]
    assert not wrong, f"quotes not found in {get_ruleset(ruleset_id).source}: {wrong}"


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_every_option_source_printed_by_rules_is_the_texts_words(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    text = source_text(ruleset_id)
    wrong = [o.name for o in ruleset.options if o.source and not quote_in_text(o.source, text)]
    assert not wrong, f"options whose source is not the text's words: {wrong}"


def resolve(where: str) -> object:
    module_name, _, qualname = where.partition(":")
    target: object = importlib.import_module(module_name)
    for part in qualname.split(".") if qualname else ():
        target = getattr(target, part)
    return target


def test_exists(reference: str) -> bool:
    path, _, name = reference.partition("::")
    file = ROOT / path
    if not file.is_file():
        return False
    if not name:
        return True
    source = file.read_text(encoding="utf-8")
    *classes, function = re.sub(r"\[.*\]$", "", name).split("::")
    return all(re.search(rf"^class {c}\b", source, re.M) for c in classes) and bool(
        re.search(rf"^\s*(async )?def {function}\(", source, re.M)
    )


test_exists.__test__ = False  # type: ignore[attr-defined]


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_every_row_names_code_and_tests_that_exist(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    option_names = {o.name for o in ruleset.options}
    for row in ruleset.conformance().rule:
        for where in row.where:
            try:
                resolve(where)
            except (ImportError, AttributeError) as exc:
                pytest.fail(f"{row.id}: where {where!r} does not resolve: {exc}")
        missing = [t for t in row.tests if not test_exists(t)]
        assert not missing, f"{row.id}: tests not found: {missing}"
        unknown = [o for o in row.options if o not in option_names]
        assert not unknown, f"{row.id}: unknown options {unknown}"


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_guide_shows_the_current_table(ruleset_id: str) -> None:
    guide = (ROOT / "docs" / "rulesets" / f"{ruleset_id}.md").read_text(encoding="utf-8")
    table = get_ruleset(ruleset_id).conformance()
    assert markdown_table(table) in guide, f"run: python scripts/render_conformance.py {ruleset_id}"
    assert with_table(guide, table) == guide


def test_a_quote_may_leave_words_out_but_keeps_their_order() -> None:
    text = "Gard tar slut när skadan\n  markeras, och det minsta man kan få är skråmor."
    assert quote_in_text("Gard tar slut när skadan markeras", text)
    assert quote_in_text("Gard tar slut … det minsta man kan få", text)
    assert not quote_in_text("det minsta man kan få … Gard tar slut", text)
    assert not quote_in_text("Gard tar slut när skadan försvinner", text)


def test_a_row_must_say_how_it_is_checked() -> None:
    with pytest.raises(ValueError, match="tests"):
        ConformanceRow(id="x", quote="q", gloss="g", status="implemented", where=("m:f",))
    with pytest.raises(ValueError, match="options"):
        ConformanceRow(id="x", quote="q", gloss="g", status="option", where=("m:f",), tests=("t",))
    with pytest.raises(ValueError, match="note"):
        ConformanceRow(id="x", gloss="g", status="gap", where=("m:f",), tests=("t",))
    with pytest.raises(ValueError, match="quotes the text"):
        ConformanceRow(id="x", gloss="g", status="implemented", where=("m:f",), tests=("t",))
    gap = ConformanceRow(id="x", gloss="g", status="gap", note="konflikt's own", where=("m:f",), tests=("t",))
    assert ConformanceTable(ruleset="r", source="s", rule=(gap,)).counts()["gap"] == 1


def test_a_bad_table_file_names_the_file_and_the_field(tmp_path: Path) -> None:
    path = tmp_path / "conformance.toml"
    path.write_text('ruleset = "r"\nsource = "s"\n[[rule]]\nid = "a"\ngloss = "g"\nstatus = "maybe"\n', "utf-8")
    with pytest.raises(ScenarioError, match=r"conformance\.toml: rule\.0\.status"):
        load_conformance(path)


CLI_NAMES = ("cli", "pexpect", "spawn", "TableSession", "at_table", "run_in_process", "run_process", "subprocess")
"""Names whose use makes a test go through the command line: the in-process ``konflikt`` (the ``cli`` fixture), a
real terminal (pexpect), the table session ``play`` runs, or a ``konflikt`` process."""


def through_the_command_line(reference: str) -> bool:
    """Whether the named test reaches its rule the way a user does: marked ``through_cli`` (played again at
    ``konflikt play`` by tests/through_cli.py, which fails a marked test that drives no state), or driving
    ``konflikt`` itself (a name of :data:`CLI_NAMES` in its body or its arguments)."""
    path, _, name = reference.partition("::")
    function = re.sub(r"\[.*\]$", "", name).split("::")[-1]
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    marked = any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
        and "through_cli" in ast.unparse(node.value)
        for node in tree.body
    )
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == function:
            if marked or any("through_cli" in ast.unparse(d) for d in node.decorator_list):
                return True
            used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            used |= {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
            used |= {a.arg for a in node.args.args}
            return bool(used & set(CLI_NAMES))
    return False


through_the_command_line.__test__ = False  # type: ignore[attr-defined]


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_every_implemented_row_is_checked_through_the_command_line(ruleset_id: str) -> None:
    """An `implemented` row names a test that would fail if its rule were wrong at the command line, not only
    through the State API: a test marked ``through_cli`` or one that runs ``konflikt``."""
    rows = [row for row in get_ruleset(ruleset_id).conformance().rule if row.status == "implemented"]
    unchecked = [row.id for row in rows if not any(through_the_command_line(t) for t in row.tests)]
    assert not unchecked, f"{len(unchecked)} implemented rows with no test through the command line: {unchecked}"
