"""The import layers of ``docs/architecture.md``: no module imports from a layer above its own.

Parsed from the source (every ``import``, including function-local ones and those under ``TYPE_CHECKING``), so a
lazy import cannot hide a dependency that points up.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

LAYERS: tuple[tuple[str, int], ...] = (
    ("konflikt.errors", 0),
    ("konflikt.dice", 1),
    ("konflikt.core", 2),
    ("konflikt.rulesets", 3),
    ("konflikt.sim", 4),
    ("konflikt.analysis", 4),
    ("konflikt.store", 4),
    ("konflikt.reports", 5),
    ("konflikt.sim.bench", 5),
    ("konflikt.analysis.from_here", 5),
    ("konflikt.cli", 6),
    ("konflikt.web", 6),
    ("konflikt.__main__", 6),
    ("konflikt", 0),
)
"""Module prefix → layer (the longest prefix wins). Layer 4's packages are peers and import none of each other;
designer reports (5) sit above simulation and analysis; the command line (6) above everything. The package root
holds only ``__version__`` and imports nothing, so anything may read it."""

PEERS = ("konflikt.sim", "konflikt.analysis", "konflikt.store")


def layer_of(module: str) -> tuple[str, int]:
    matches = [(prefix, n) for prefix, n in LAYERS if module == prefix or module.startswith(prefix + ".")]
    return max(matches, key=lambda match: len(match[0]))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(module: str, source: str, is_package: bool = False) -> list[str]:
    package = module if is_package else module.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.append(".".join([*base, node.module] if node.module else base))
            elif node.module:
                found.append(node.module)
    return [name for name in found if name == "konflikt" or name.startswith("konflikt.")]


def violations(module: str, source: str, is_package: bool = False) -> list[str]:
    own_prefix, own = layer_of(module)
    wrong = []
    for target in imports_of(module, source, is_package):
        prefix, layer = layer_of(target)
        if layer > own:
            wrong.append(f"{module} (layer {own}) imports {target} (layer {layer})")
        elif layer == own == 4 and prefix != own_prefix and own_prefix in PEERS and prefix in PEERS:
            wrong.append(f"{module} imports its peer {target}")
        elif own == layer == 3 and module.split(".")[:3] != target.split(".")[:3]:
            wrong.append(f"{module} imports another ruleset's {target}")
    return wrong


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: module_name(p))
def test_no_module_imports_from_a_layer_above(path: Path) -> None:
    assert violations(module_name(path), path.read_text(encoding="utf-8"), path.name == "__init__.py") == []


def test_the_check_sees_upward_sideways_and_cross_ruleset_imports() -> None:
    """Deliberate mutations: each of these imports would break the layers and is caught, even when lazy."""
    lazy_up = "def later():\n    from konflikt.sim.runner import Runner\n    return Runner\n"
    assert violations("konflikt.core.state", lazy_up) == [
        "konflikt.core.state (layer 2) imports konflikt.sim.runner (layer 4)"
    ]
    assert violations("konflikt.sim.reference", "from konflikt.analysis.exact import Explorer\n") == [
        "konflikt.sim.reference imports its peer konflikt.analysis.exact"
    ]
    assert violations("konflikt.rulesets.pwge.state", "from ..levald import rules\n") == [
        "konflikt.rulesets.pwge.state imports another ruleset's konflikt.rulesets.levald"
    ]
    assert violations("konflikt.rulesets.pwge.state", "from . import rules\nfrom konflikt.core import state\n") == []


def string_imports(source: str) -> list[str]:
    """Modules of konflikt imported by name at run time (``importlib.import_module("konflikt.…")``,
    ``__import__("konflikt.…")``): a dependency the import scan above cannot see, so none is allowed; the registry
    finds rulesets and search policies through entry points instead."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            target = node.args[0].value
            if name in ("import_module", "__import__") and isinstance(target, str) and target.startswith("konflikt"):
                found.append(target)
    return found


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: module_name(p))
def test_no_module_imports_konflikt_by_a_string(path: Path) -> None:
    assert string_imports(path.read_text(encoding="utf-8")) == []


def test_the_check_sees_a_string_import() -> None:
    lazy = 'import importlib\ndef later():\n    return importlib.import_module("konflikt.analysis.mcts")\n'
    assert string_imports(lazy) == ["konflikt.analysis.mcts"]
    assert string_imports('__import__("konflikt.sim")\n') == ["konflikt.sim"]
    assert string_imports('importlib.import_module("numpy")\n') == []


def test_the_package_root_imports_nothing() -> None:
    root = SRC / "konflikt" / "__init__.py"
    assert imports_of("konflikt", root.read_text(encoding="utf-8"), is_package=True) == []


def test_errors_are_imported_one_way() -> None:
    """The error classes are defined in ``konflikt.errors`` and imported from there only (no re-exporting module)."""
    assert not (SRC / "konflikt" / "core" / "errors.py").exists()
    for path in sorted(SRC.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert "core.errors" not in source, f"{path} imports the errors another way"


def test_analysis_asks_models_what_they_offer_by_protocol_not_by_probing() -> None:
    """Issue 44: a model's optional capabilities are declared (``core/capabilities.py``) and asked with
    ``isinstance``; no ``getattr``/``hasattr`` on a model, a game, a policy or an exception in ``analysis/``."""
    probes = []
    for path in sorted((SRC / "konflikt" / "analysis").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
            ):
                probes.append(f"{path.name}:{node.lineno}")
    assert probes == []
