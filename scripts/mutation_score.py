"""The score of one mutation run, as the line of the table in ``docs/history/mutation.md``.

    python scripts/mutation_score.py RESULTS_TXT TARGET MINUTES

``RESULTS_TXT`` is ``mutmut results --all true`` of the run. Mutants listed in ``scripts/mutation_equivalent.tsv``
(name, tab, why it cannot change behaviour) are counted apart: the raw score counts them as survivors, the other
score leaves them out. Prints the score line and the surviving mutants, writes ``survivors.txt`` beside the results
and appends the line to ``.mutation/scores.tsv``.
"""

from __future__ import annotations

import collections
import math
import sys
import time
from pathlib import Path

EQUIVALENT = Path(__file__).with_name("mutation_equivalent.tsv")


def equivalent_names() -> dict[str, str]:
    """Mutants shown not to change behaviour, with the reason (comment lines start with #)."""
    if not EQUIVALENT.exists():
        return {}
    rows = (line.split("\t", 1) for line in EQUIVALENT.read_text(encoding="utf-8").splitlines())
    return {row[0].strip(): row[1].strip() for row in rows if row[0].strip() and not row[0].startswith("#")}


def main(results: Path, target: str, minutes: float) -> str:
    status = {}
    for line in results.read_text(encoding="utf-8").splitlines():
        name, sep, verdict = line.strip().rpartition(": ")
        if sep and name:
            status[name] = verdict.strip()
    counts = collections.Counter(status.values())
    # "no tests": no test of the target even calls the mutated function, a survivor by another name
    alive = {n for n, s in status.items() if s in ("survived", "no tests")}
    equivalent = {n for n in alive if n in equivalent_names()}
    survivors = sorted(alive - equivalent)
    killed = counts["killed"] + counts["timeout"]
    ran = killed + len(alive) + counts["suspicious"] + counts["segfault"]
    raw = killed / ran if ran else 0.0
    real = killed / (ran - len(equivalent)) if ran > len(equivalent) else 0.0
    others = {k: v for k, v in counts.items() if k not in ("killed", "survived", "timeout", "no tests", "not checked")}
    sample = ""
    if counts["not checked"] and ran:  # a sample (or a stopped run): the score's standard error as an estimate
        correction = math.sqrt((len(status) - ran) / max(len(status) - 1, 1))  # finite population
        se = math.sqrt(raw * (1 - raw) / ran) * correction
        sample = f"; {ran} of {len(status)} run ({counts['not checked']} not), raw ± {se:.1%} (1 SE)"
    line = (
        f"{target}: {len(status)} mutants, {counts['killed']} killed, {len(alive)} survived "
        + (f"({counts['no tests']} of them reached by no test) " if counts["no tests"] else "")
        + f"({len(equivalent)} equivalent), {counts['timeout']} timeout"
        + (f", other {dict(others)}" if others else "")
        + sample
        + f"; score {raw:.1%} raw, {real:.1%} without the equivalent; {time.strftime('%Y-%m-%d')}, {minutes:.0f} min"
    )
    (results.parent / "survivors.txt").write_text("".join(f"{n}\n" for n in survivors), encoding="utf-8")
    with open(".mutation/scores.tsv", "a", encoding="utf-8") as out:
        out.write(f"{time.strftime('%Y-%m-%d %H:%M')}\t{line}\n")
    return line + "".join(f"\n  survived: {n}" for n in survivors)


if __name__ == "__main__":
    print(main(Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])))
