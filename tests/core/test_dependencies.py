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
from collections.abc import Callable
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from tests.conftest import Result

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "src" / "konflikt"


def _name(requirement: str) -> str:
    """The normalised distribution name of a requirement string (``dask[distributed]>=2024.1`` → ``dask``)."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match is not None, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


OPTIONAL = ("cluster",)
"""Extras a command may need, each named by that command in one line when missing (Dask: ``sim --scheduler``,
``sweep --engine dask``); their packages are imported only inside the functions that use them."""


def _declared(group: str | None = None) -> set[str]:
    """The plain dependencies' names (or an extra's), with the extras they ask for (``dask[distributed]`` brings
    distributed)."""
    names: set[str] = set()
    listed = _project()["dependencies"] if group is None else _project()["optional-dependencies"][group]  # type: ignore[index]
    for requirement in listed:  # type: ignore[attr-defined]
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
    optional = set().union(*(_declared(group) for group in OPTIONAL))
    providers = packages_distributions()
    missing = []
    for module, where in sorted(_third_party(_imported_top_level_modules()).items()):
        distributions = {_name(d) for d in providers.get(module, [module])}
        if not distributions & (declared | optional):
            missing.append(f"{module} (imported in {where}; from {', '.join(sorted(distributions))})")
    assert not missing, "imported but not in [project] dependencies: " + "; ".join(missing)


def test_an_extras_packages_are_imported_only_where_they_are_used() -> None:
    """Dask (the ``cluster`` extra) is imported inside the functions that run a cluster, never at a module's top:
    a plain install imports every module of a command it runs."""
    providers = packages_distributions()
    optional = set().union(*(_declared(group) for group in OPTIONAL))
    top_level = []
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top in ("konflikt", "__future__"):
                    continue
                if {_name(d) for d in providers.get(top, [top])} & optional:
                    top_level.append(f"{path.relative_to(ROOT)}: {name}")
    assert not top_level, top_level
    assert {"dask", "distributed"} <= optional and not {"dask", "distributed"} & _declared()


def test_without_dask_a_cluster_command_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Result]
) -> None:
    for module in ("distributed", "dask"):
        monkeypatch.setitem(sys.modules, module, None)  # import raises ImportError, as in a plain install
    result = cli("sim", "fimbulfrost/robbers", "-n", "10", "--scheduler", "tcp://127.0.0.1:8786")
    assert result.code == 2 and result.err.count("\n") == 1
    assert "pip install 'konflikt[cluster]'" in result.err
    from konflikt.sim.bench_scale import dask_scaling

    monkeypatch.setattr("importlib.util.find_spec", lambda name, *args: None)
    assert "konflikt[cluster]" in dask_scaling(quick=True)["skipped"]


def test_scipy_is_a_plain_dependency_not_an_extra() -> None:
    """The crash itself: numba's linear algebra (Le våld's block solve) and the sparse solvers need scipy."""
    assert "scipy" in {_name(r) for r in _project()["dependencies"]}  # type: ignore[attr-defined]
    assert "scipy" in _third_party(_imported_top_level_modules())


def test_the_check_sees_lazy_imports() -> None:
    """The scan must reach imports inside functions (scipy is imported only where it is used)."""
    modules = _imported_top_level_modules()
    assert modules.get("scipy", "").startswith("src/konflikt/analysis/")
    assert "matplotlib" in modules
