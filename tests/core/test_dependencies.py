"""Every package the source imports is a dependency of the package itself, not of an extra.

A plain install (the README's first command, a wheel) once stopped at `konflikt odds levald/duel` because scipy was
only in the dev extras: numba compiles ``np.linalg`` through scipy, and the dev environment hid it. This test reads
every import of every module (function-local ones too: a lazy import is still needed when its command runs) and
checks that the distribution providing it is named in ``[project] dependencies``.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "src" / "konflikt"


def _name(requirement: str) -> str:
    """The normalised distribution name of a requirement string (``dask[distributed]>=2024.1`` → ``dask``)."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match is not None, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def _declared() -> set[str]:
    """The plain dependencies' names, with the extras they ask for (``dask[distributed]`` brings distributed)."""
    names: set[str] = set()
    for requirement in _project()["dependencies"]:  # type: ignore[attr-defined]
        names.add(_name(requirement))
        extras = re.search(r"\[([^\]]*)\]", requirement)
        if extras:
            names.update(_name(extra.strip()) for extra in extras.group(1).split(","))
    return names


def _project() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        project: dict[str, object] = tomllib.load(file)["project"]
    return project


def _imported_top_level_modules() -> dict[str, str]:
    """Top-level module name → one file importing it, over every module of the package."""
    found: dict[str, str] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                found.setdefault(name.split(".")[0], str(path.relative_to(ROOT)))
    return found


def _third_party(modules: dict[str, str]) -> dict[str, str]:
    return {
        name: where
        for name, where in modules.items()
        if name not in sys.stdlib_module_names and name not in ("konflikt", "__future__")
    }


def test_every_imported_package_is_a_plain_dependency() -> None:
    declared = _declared()
    providers = packages_distributions()
    missing = []
    for module, where in sorted(_third_party(_imported_top_level_modules()).items()):
        distributions = {_name(d) for d in providers.get(module, [module])}
        if not distributions & declared:
            missing.append(f"{module} (imported in {where}; from {', '.join(sorted(distributions))})")
    assert not missing, "imported but not in [project] dependencies: " + "; ".join(missing)


def test_scipy_is_a_plain_dependency_not_an_extra() -> None:
    """The crash itself: numba's linear algebra (Le våld's block solve) and the sparse solvers need scipy."""
    assert "scipy" in {_name(r) for r in _project()["dependencies"]}  # type: ignore[attr-defined]
    assert "scipy" in _third_party(_imported_top_level_modules())


def test_the_check_sees_lazy_imports() -> None:
    """The scan must reach imports inside functions (scipy is imported only where it is used)."""
    modules = _imported_top_level_modules()
    assert modules.get("scipy", "").startswith("src/konflikt/analysis/")
    assert "matplotlib" in modules
