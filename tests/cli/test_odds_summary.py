"""``konflikt odds SCENARIO`` opens with a summary of at most 15 lines: who wins, the ending, the length, and each
participant's chance of leaving the fight and of dying as one number each; ``--full`` prints every fate.

The summary's numbers are checked against sums over the full distribution (``--json --exact``), each fate picked
by the test's own reading of the ruleset's status words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from konflikt.cli.odds_summary import MAX_LINES, fates_summed
from tests.conftest import Result

STATUSES = {
    # ruleset's scenario: (the fate's first words when dead, when out of the fight alive)
    "fimbulfrost/dragon": (("død (dead)",), ("ude (out)", "overvundet (defeated)")),
    "presja/knife_fight": ((), ("taken out", "conceded")),
}


def _full(cli: Callable[..., Result], scenario: str) -> dict[str, Any]:
    result = cli("odds", scenario, "--json", "--exact")
    assert result.code == 0, result.err
    data: dict[str, Any] = json.loads(result.out)
    return data


def _sums(fates: dict[str, str], dead_words: tuple[str, ...], out_words: tuple[str, ...]) -> tuple[Fraction, Fraction]:
    dead = sum((Fraction(p) for f, p in fates.items() if f.startswith(dead_words) and dead_words), Fraction(0))
    out = dead + sum((Fraction(p) for f, p in fates.items() if f.startswith(out_words)), Fraction(0))
    return dead, out


def _pct(p: Fraction) -> str:
    return f"{100 * float(p):.2f}%"


@pytest.mark.parametrize("scenario", sorted(STATUSES))
def test_the_summary_is_short_and_its_numbers_are_sums_of_the_full_distribution(
    cli: Callable[..., Result], scenario: str
) -> None:
    summary = cli("odds", scenario)
    assert summary.code == 0, summary.err
    lines = summary.out.rstrip("\n").splitlines()
    assert len(lines) <= MAX_LINES
    full = _full(cli, scenario)
    dead_words, out_words = STATUSES[scenario]
    names = [k.removesuffix(": fate") for k in full["distributions"] if k.endswith(": fate")]
    assert names
    for name in names:
        fates = full["distributions"][f"{name}: fate"]
        dead, out = _sums(fates, dead_words, out_words)
        standing = sum((Fraction(p) for p in fates.values()), Fraction(0)) - out
        table = lines[next(i for i, line in enumerate(lines) if line.startswith("participant")) :]
        row = next(line for line in table if line.startswith(name + " "))
        assert row.split()[-3:] == [_pct(out), _pct(dead), _pct(standing)], row
        assert fates_summed([(f, Fraction(p)) for f, p in fates.items()]) == (dead, out)  # Fraction for Fraction
    winners = max(full["outcomes"].items(), key=lambda kv: Fraction(kv[1]))
    assert f"who wins: {winners[0]} {_pct(Fraction(winners[1]))}" in summary.out
    assert "--full" in lines[-1]


def test_the_dragon_s_deaths_are_one_number_each(cli: Callable[..., Result]) -> None:
    """Budolf's death was spread over rows of fates and a consequence; now it is one number, its sum."""
    full = _full(cli, "fimbulfrost/dragon")
    budolf = full["distributions"]["Budolf: fate"]
    deaths = [Fraction(p) for f, p in budolf.items() if f.startswith("død (dead)")]
    assert len(deaths) >= 1 and len(budolf) > 5
    summary = cli("odds", "fimbulfrost/dragon").out
    row = next(line for line in summary.splitlines()[1:] if line.startswith("Budolf "))
    assert row.split()[2] == _pct(sum(deaths, Fraction(0)))


def test_full_prints_every_fate_and_json_is_unchanged(cli: Callable[..., Result]) -> None:
    full = cli("odds", "fimbulfrost/dragon", "--full")
    assert full.code == 0 and "Budolf: fate" in full.out and "Budolf: consequences (each, by name)" in full.out
    assert len(full.out.splitlines()) > 100
    plain, with_full = (
        json.loads(cli("odds", "fimbulfrost/dragon", "--json", *more).out) for more in ((), ("--full",))
    )
    assert plain == with_full and "Budolf: fate" in plain["distributions"]


def test_an_estimate_says_so_in_its_summary(cli: Callable[..., Result]) -> None:
    result = cli("odds", "pwge/duel", "--max-states", "300")
    assert result.code == 0, result.err
    assert "(≈ estimated)" in result.out.splitlines()[0] and "conflicts played" in result.out
    assert len(result.out.splitlines()) <= MAX_LINES


def test_names_reach_the_terminal_as_written(cli: Callable[..., Result]) -> None:
    result = cli("odds", "fimbulfrost/robbers", "--set", 'budolf.name="[bold]Bu[/bold]"')
    assert result.code == 0, result.err
    assert "[bold]Bu[/bold] " in result.out  # as written, not read as markup
