"""numba's on-disk cache, keyed on every source a compiled function can depend on, not only its own file.

numba keeps a compiled function's machine code beside its module and reuses it while *that file* is unchanged. A
kernel loop inlines rule functions from other modules and freezes other modules' constants (tables built by the
rules) into its code, so an edit to ``kernel_rules.py`` left ``kernel_loop.play`` running the old rule from the
cache. Here the stamp numba compares is widened: the function's own file, the hash of every module of the same
package that its module imports (transitively: what the rules import may change what they compute), and the
package's version (an install of a new version never meets an old cache).

Why not a cache folder per hash: numba's index already holds a stamp and recompiles (overwriting the entry) when it
differs, so widening the stamp is all it takes, and no folders pile up as a developer edits.
"""

from __future__ import annotations

import ast
import hashlib
import sys
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    InTreeCacheLocator,
    UserProvidedCacheLocator,
    UserWideCacheLocator,
)


def stamped(dispatcher: Any) -> Any:
    """Give a ``numba.njit(cache=True)`` dispatcher the widened cache; returns it (a decorator's last step)."""
    dispatcher._cache = _SourcesCache(dispatcher.py_func)  # type: ignore[no-untyped-call]
    return dispatcher


def dependency_stamp(module_name: str) -> str:
    """A digest of the package's version and every module of ``module_name``'s top-level package that it imports,
    directly or through others (itself included)."""
    top = module_name.split(".")[0]
    package = sys.modules.get(top)
    where = getattr(package, "__file__", None)
    if where is None:
        return ""
    return _stamp(module_name, str(Path(where).parent), _version(top))


def imported_modules(module_name: str, root: Path) -> list[Path]:
    """The files of the modules of ``root``'s package that ``module_name`` imports, transitively, itself first."""
    top = root.name
    seen: dict[str, Path] = {}
    queue = [module_name]
    while queue:
        name = queue.pop()
        if name in seen:
            continue
        path = _module_file(name, root)
        if path is None:
            continue
        seen[name] = path
        queue.extend(_imports_of(path, name, top))
    return list(seen.values())


@cache
def _stamp(module_name: str, root: str, package_version: str) -> str:
    digest = hashlib.sha256(package_version.encode())
    for path in sorted(imported_modules(module_name, Path(root))):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _version(top: str) -> str:
    try:
        return version(top)
    except PackageNotFoundError:
        return ""


def _module_file(name: str, root: Path) -> Path | None:
    """``konflikt.rulesets.pwge.kernel_rules`` → ``…/rulesets/pwge/kernel_rules.py`` (or the package's
    ``__init__.py``); ``None`` for a name that is no module (a function imported from a package)."""
    parts = name.split(".")[1:]
    base = root.joinpath(*parts)
    for candidate in (base.with_suffix(".py") if parts else None, base / "__init__.py"):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


def _imports_of(path: Path, name: str, top: str) -> list[str]:
    """Every module name of the package ``top`` that the file imports (``from x import y`` gives ``x`` and
    ``x.y``: ``y`` may be a module), relative imports resolved, imports inside functions included."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return []
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            found.append(base)
            found.extend(f"{base}.{alias.name}" for alias in node.names)
    return [m for m in found if m == top or m.startswith(top + ".")]


class _SourcesStamp:
    """numba's stamp of the function's file, with :func:`dependency_stamp` of its module beside it (a mixin before
    each of numba's file-backed locators)."""

    _module = ""

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        made = super().from_function(py_func, py_file)  # type: ignore[misc]  # numba's own checks and paths
        if made is not None:
            made._module = py_func.__module__
        return made

    def get_source_stamp(self) -> Any:
        own = super().get_source_stamp()  # type: ignore[misc]
        return (own, dependency_stamp(self._module))


class _UserProvided(_SourcesStamp, UserProvidedCacheLocator):
    """``NUMBA_CACHE_DIR``."""


class _InTree(_SourcesStamp, InTreeCacheLocator):
    """Beside the module, in ``__pycache__``."""


class _UserWide(_SourcesStamp, UserWideCacheLocator):
    """The user's cache folder, where the installed package is read-only."""


class _SourcesImpl(CompileResultCacheImpl):
    _locator_classes = [_UserProvided, _InTree, _UserWide]  # noqa: RUF012 (numba's own class attribute)


class _SourcesCache(FunctionCache):
    _impl_class = _SourcesImpl
