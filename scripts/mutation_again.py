"""Rerun a mutation run's survivors against new tests, as mutmut runs a mutant (``scripts/mutation.sh --again``).

    python scripts/mutation_again.py WORK_DIR TEST_FILE...

It works in ``WORK_DIR/mutants`` (mutmut's mutated copy). For each mutant marked ``survived`` (or ``no tests``)
in ``WORK_DIR/results.txt`` it forks, switches the mutant on (``MUTANT_UNDER_TEST``, mutmut's own switch) and runs
the test files with pytest; a failing test marks the mutant ``killed`` in ``results.txt``. ``MUTATION_ONLY`` (a
regular expression) narrows the rerun to the survivors whose names it matches. One import of the
package for all the mutants, one fresh process (fresh caches) per mutant.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import resource
import sys
from pathlib import Path

AGAIN_CPU_SECONDS = int(os.environ.get("MUTATION_AGAIN_CPU", "300"))
"""A rerun's CPU limit per mutant (``MUTATION_AGAIN_CPU``, seconds): one that loops stays a survivor."""


def start_one(name: str, tests: list[str]) -> int:
    """Fork a child that runs pytest over ``tests`` with mutant ``name`` switched on; returns its pid."""
    pid = os.fork()
    if pid == 0:  # the child: quiet, the mutant on, pytest, out
        os.environ["MUTANT_UNDER_TEST"] = name
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        import pytest

        # a mutant that loops is ended by SIGXCPU and stays a survivor
        resource.setrlimit(resource.RLIMIT_CPU, (AGAIN_CPU_SECONDS, AGAIN_CPU_SECONDS + 1))
        marks = "not slow and not mutation_slow"  # as scripts/mutation.sh's first run
        args = ["-x", "-q", "-p", "no:randomly", "-p", "no:xdist", "-p", "no:cacheprovider", "-m", marks, *tests]
        os._exit(int(pytest.main(args)))
    return pid


def main(work: Path, tests: list[str], children: int) -> None:
    results = work / "results.txt"
    text = results.read_text(encoding="utf-8")
    survivors = re.findall(r"^ *(\S+): (?:survived|no tests)$", text, flags=re.MULTILINE)
    only = os.environ.get("MUTATION_ONLY", "")  # a pattern: rerun only the survivors it finds (a narrower rerun)
    survivors = [name for name in survivors if re.search(only, name)]
    os.chdir(work / "mutants")
    sys.path.insert(0, str(Path("src").resolve()))
    import pytest  # noqa: F401

    import konflikt  # noqa: F401  (imported once, before the forks)

    # The test modules and what they import, once, before the forks: a child then only runs tests (on a loaded
    # machine the imports were most of each child's time). The mutants switch on at call time, so importing the
    # mutated modules here changes nothing.
    sys.path.insert(0, str(Path.cwd()))
    for test in tests:
        with contextlib.suppress(Exception):
            importlib.import_module(test.removesuffix(".py").replace("/", "."))

    running: dict[int, str] = {}
    while survivors or running:
        while survivors and len(running) < children:
            name = survivors.pop(0)
            running[start_one(name, tests)] = name
        pid, status = os.wait()
        name = running.pop(pid)
        if os.waitstatus_to_exitcode(status) == 1:
            pattern = rf"^( *){re.escape(name)}: (?:survived|no tests)$"
            text = re.sub(pattern, rf"\g<1>{name}: killed", text, flags=re.MULTILINE)
            results.write_text(text, encoding="utf-8")  # as it goes: an interrupted rerun keeps its kills
            print(f"killed: {name}", flush=True)
        else:
            print(f"survives: {name}", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), sys.argv[2:], int(os.environ.get("MUTMUT_CHILDREN", "2")))
