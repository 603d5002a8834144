"""Rerun a mutation run's survivors against new tests, as mutmut runs a mutant (``scripts/mutation.sh --again``).

    python scripts/mutation_again.py WORK_DIR TEST_FILE...

It works in ``WORK_DIR/mutants`` (mutmut's mutated copy). For each mutant marked ``survived`` (or ``no tests``)
in ``WORK_DIR/results.txt`` it forks, switches the mutant on (``MUTANT_UNDER_TEST``, mutmut's own switch) and runs
the test files with pytest; a failing test marks the mutant ``killed`` in ``results.txt``. One import of the
package for all the mutants, one fresh process (fresh caches) per mutant.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path


def run_one(name: str, tests: list[str]) -> int:
    """Exit code of pytest over ``tests`` with mutant ``name`` switched on, in a forked child."""
    pid = os.fork()
    if pid == 0:  # the child: quiet, the mutant on, pytest, out
        os.environ["MUTANT_UNDER_TEST"] = name
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        import pytest

        args = ["-x", "-q", "-p", "no:randomly", "-p", "no:xdist", "-p", "no:cacheprovider", *tests]
        os._exit(int(pytest.main(args)))
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def main(work: Path, tests: list[str]) -> None:
    results = work / "results.txt"
    text = results.read_text(encoding="utf-8")
    survivors = re.findall(r"^ *(\S+): (?:survived|no tests)$", text, flags=re.MULTILINE)
    os.chdir(work / "mutants")
    sys.path.insert(0, str(Path("src").resolve()))
    import pytest  # noqa: F401

    import konflikt  # noqa: F401  (imported once, before the forks)

    for name in survivors:
        if run_one(name, tests) == 1:
            pattern = rf"^( *){re.escape(name)}: (?:survived|no tests)$"
            text = re.sub(pattern, rf"\g<1>{name}: killed", text, flags=re.MULTILINE)
            print(f"killed: {name}")
        else:
            print(f"survives: {name}")
    results.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), sys.argv[2:])
