"""A seeded random sample of one module's mutmut mutants (``MUTATION_SAMPLE=N scripts/mutation.sh TARGET:MODULE``).

    python scripts/mutation_sample.py SOURCE_FILE N SEED

Prints N mutant names (mutmut's own names, as ``mutmut run NAME...`` takes them), drawn without replacement with
``random.Random(SEED)`` from all the mutants mutmut makes of ``SOURCE_FILE`` (a path under ``src/``). With N at
least the number of mutants it prints them all. A score over the sample estimates the module's score when the whole
run does not fit the time at hand: its standard error is sqrt(p(1-p)/n) (times the finite-population correction).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from mutmut.mutation.file_mutation import mutate_file_contents
from mutmut.utils.format_utils import get_mutant_name


def all_mutants(source: Path) -> list[str]:
    """Every mutant's name, in mutmut's order."""
    mutated = mutate_file_contents(str(source), source.read_text(encoding="utf-8"))
    return [get_mutant_name(source, name) for name in mutated.mutant_names]


def main(source: Path, n: int, seed: int) -> list[str]:
    names = all_mutants(source)
    return names if n >= len(names) else sorted(random.Random(seed).sample(names, n))


if __name__ == "__main__":
    for name in main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])):
        print(name)
