"""Le våld's rules as the command line shows them: the narrated log of ``konflikt run``."""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.conftest import Result


def _rounds(out: str) -> list[str]:
    """The narrated log, its wrapped lines joined, cut at each round's heading."""
    text = " ".join(out.split())
    return re.split(r"Runda \(round\) \d+:", text)[1:]


def test_run_one_against_two_settles_every_initiative_before_any_roll_and_gains_ground_last(
    cli: Callable[..., Result],
) -> None:
    """ "Rundorna delas in i följande moment: … Bestäm initiativ … Slå anfalls- och försvarsslag … Markera skada …
    Vinna terräng": in every round of Bruno against both robbers, no attack roll comes before the last initiative
    decided, and no roll comes after a gain of ground."""
    checked = 0
    for seed in ("1", "2", "3"):
        result = cli("run", "levald/one_against_two", "--seed", seed)
        assert result.code == 0, result.err
        for text in _rounds(result.out):
            decided = [m.end() for m in re.finditer(r"is anfallare \(attacker\)", text)]
            attacks = [m.start() for m in re.finditer(r"anfallsslag \(attack\) \d", text)]
            grounds = [m.start() for m in re.finditer(r"Vinna terräng \(gain ground\):", text)]
            rolls = [m.start() for m in re.finditer(r"(anfallsslag|försvarsslag|motanfall) \([a-z -]+\) \d", text)]
            if decided and attacks:
                assert max(decided) < min(attacks), text
                checked += 1
            if grounds and rolls:
                assert max(rolls) < min(grounds), text
    assert checked >= 3
