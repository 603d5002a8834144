"""A compiled loop is compiled again when a rule it inlines from another module changes (never run stale).

numba keys each cached function on its own file only: an edited ``kernel_rules.py`` left ``kernel_loop.play``
running the old rule. The control case below shows that plain ``numba.njit(cache=True)`` does exactly that in the
same set-up, so the test of :func:`konflikt.dice.compiled.compiled` could fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import konflikt
from konflikt.dice.compile_cache import dependency_stamp, imported_modules

LOOP = """
{decorator_import}
from stalepkg.rules import bonus

@{decorator}
def play(x):
    return bonus(x) * 10
"""
RULES = """
{decorator_import}

@{decorator}
def bonus(x):
    return x + {step}
"""
DECORATORS = {
    "konflikt": ("from konflikt.dice.compiled import compiled", "compiled"),
    "plain numba": ("import numba", "numba.njit(cache=True)"),
}


def _play(root: Path) -> int:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *sys.path])}
    env.pop("NUMBA_CACHE_DIR", None)  # the cache beside the modules, in the temporary copy
    done = subprocess.run(
        [sys.executable, "-c", "import stalepkg.loop as loop; print(loop.play(1))"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return int(done.stdout.strip())


def _write(root: Path, decorator: str, step: int) -> None:
    decorator_import, name = DECORATORS[decorator]
    package = root / "stalepkg"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "loop.py").write_text(LOOP.format(decorator_import=decorator_import, decorator=name))
    (package / "rules.py").write_text(RULES.format(decorator_import=decorator_import, decorator=name, step=step))


@pytest.mark.parametrize("decorator", list(DECORATORS))
def test_an_edited_inlined_rule_reaches_the_cached_loop(tmp_path: Path, decorator: str) -> None:
    _write(tmp_path, decorator, step=1)
    assert _play(tmp_path) == 20
    assert list((tmp_path / "stalepkg" / "__pycache__").glob("loop.play-*.nbi")), "the loop was cached"
    _write(tmp_path, decorator, step=2)  # only rules.py changes; loop.py is byte for byte the same
    if decorator == "plain numba":
        assert _play(tmp_path) == 20, "the control: numba's own cache runs the old rule"
    else:
        assert _play(tmp_path) == 30


def test_each_kernel_loop_is_keyed_on_the_rules_it_inlines() -> None:
    root = Path(konflikt.__file__).parent
    expected = {
        "konflikt.rulesets.pwge.kernel_loop": ["rulesets/pwge/kernel_rules.py", "dice/compiled.py"],
        "konflikt.rulesets.levald.duel_loop": ["rulesets/levald/duel_rounds.py", "dice/compiled.py"],
        "konflikt.rulesets.fimbulfrost.kernel_loop": ["dice/compiled.py"],
        "konflikt.rulesets.presja.kernel_loop": ["dice/compiled.py"],
    }
    for module, needed in expected.items():
        files = {str(p.relative_to(root)) for p in imported_modules(module, root)}
        assert module.replace(".", "/").removeprefix("konflikt/") + ".py" in files
        missing = [n for n in needed if n not in files]
        assert not missing, f"{module}: {missing}"
        assert dependency_stamp(module) != dependency_stamp("konflikt.dice.compiled")
