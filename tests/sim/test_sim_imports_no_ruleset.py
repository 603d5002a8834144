"""``sim/`` simulates any ruleset through the registry and imports none of them (reports live with their rulesets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.test_layers import SRC, imports_of, module_name

SIM = SRC / "konflikt" / "sim"
NOT_YET_MOVED = ("konflikt.sim.reports",)
"""The two designer reports still import their rulesets; they move into their rulesets (the lead's step after the
ruleset branches merge), and then this exemption goes."""


def ruleset_imports(path: Path) -> list[str]:
    found = imports_of(module_name(path), path.read_text(encoding="utf-8"), path.name == "__init__.py")
    return [name for name in found if name == "konflikt.rulesets" or name.startswith("konflikt.rulesets.")]


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(SIM.rglob("*.py")) if not module_name(p).startswith(NOT_YET_MOVED)],
    ids=module_name,
)
def test_no_sim_module_imports_a_ruleset(path: Path) -> None:
    assert ruleset_imports(path) == []


def test_the_check_sees_a_lazy_ruleset_import(tmp_path: Path) -> None:
    module = tmp_path / "x.py"
    module.write_text("def f():\n    from konflikt.rulesets.levald import odds\n")
    found = imports_of("konflikt.sim.x", module.read_text())
    assert [n for n in found if n.startswith("konflikt.rulesets")] == ["konflikt.rulesets.levald"]
