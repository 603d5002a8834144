"""``sim/`` simulates any ruleset through the registry and imports none of them.

The designer reports, which do speak of one ruleset each, sit above it in ``konflikt.reports``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.test_layers import SRC, imports_of, module_name

SIM = SRC / "konflikt" / "sim"


def ruleset_imports(path: Path) -> list[str]:
    found = imports_of(module_name(path), path.read_text(encoding="utf-8"), path.name == "__init__.py")
    return [name for name in found if name == "konflikt.rulesets" or name.startswith("konflikt.rulesets.")]


@pytest.mark.parametrize(
    "path",
    sorted(SIM.rglob("*.py")),
    ids=module_name,
)
def test_no_sim_module_imports_a_ruleset(path: Path) -> None:
    assert ruleset_imports(path) == []


def test_the_check_sees_a_lazy_ruleset_import(tmp_path: Path) -> None:
    module = tmp_path / "x.py"
    module.write_text("def f():\n    from konflikt.rulesets.levald import odds\n")
    found = imports_of("konflikt.sim.x", module.read_text())
    assert [n for n in found if n.startswith("konflikt.rulesets")] == ["konflikt.rulesets.levald"]
