"""The `exchange` odds question: exact pressure of one attack, against brute force and icepool."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import icepool
import pytest

from konflikt.core.ruleset import get_ruleset
from konflikt.errors import KonfliktError
from konflikt.rulesets.presja.odds import pressure_distribution

CASES = [
    (2, 3, 1, 0, "none"),
    (3, 2, 1, 0, "none"),
    (4, 4, 2, 1, "offensive"),
    (1, 3, 3, 2, "defensive"),
    (0, 0, 0, 0, "none"),
]


def _brute(attack: int, defense: int, weapon: int, armor: int, tactic: str) -> dict[int, Fraction]:
    shift = {"none": 0, "offensive": 1, "defensive": -1}[tactic]
    counts: Counter[int] = Counter()
    for faces in product((-1, 0, 1), repeat=8):
        a = attack + shift + sum(faces[:4])
        d = defense + sum(faces[4:])
        counts[a + weapon - d - armor if a >= d and a + weapon - d - armor > 0 else 0] += 1
    return {k: Fraction(v, 3**8) for k, v in sorted(counts.items())}


def _icepool(attack: int, defense: int, weapon: int, armor: int, tactic: str) -> dict[int, Fraction]:
    shift = {"none": 0, "offensive": 1, "defensive": -1}[tactic]
    d_f = icepool.Die([-1, 0, 1])
    margin = (attack + shift + 4 @ d_f) - (defense + 4 @ d_f)
    die = margin.map(lambda m: max(0, m + weapon - armor) if m >= 0 else 0)
    return {int(k): Fraction(p) for k, p in zip(die.outcomes(), die.probabilities(), strict=True)}


@pytest.mark.parametrize("case", CASES)
def test_pressure_distribution_matches_brute_force_and_icepool(case: tuple[int, int, int, int, str]) -> None:
    exact = pressure_distribution(*case)
    assert exact == _brute(*case)
    assert exact == _icepool(*case)
    assert sum(exact.values()) == 1


def test_the_texts_matchup_massimo_on_belzee() -> None:
    answer = get_ruleset("presja").odds["exchange"].ask({"attack": "3", "defense": "2", "weapon": "1"})
    rows = dict(answer.outcomes)
    assert rows["3"] == _brute(3, 2, 1, 0, "none")[3]
    assert answer.probabilities["attack hits (pressure > 0)"] == 1 - rows["0"]
    assert answer.probabilities["attack ≥ defence (margin ≥ 0)"] == sum(p for m, p in _margins(1).items() if m >= 0)
    json = answer.to_json()
    assert json["label"] == "pressure" and set(json["outcomes"]) == {str(k) for k in _brute(3, 2, 1, 0, "none")}


def _margins(base: int) -> dict[int, Fraction]:
    counts: Counter[int] = Counter(base + sum(f[:4]) - sum(f[4:]) for f in product((-1, 0, 1), repeat=8))
    return {k: Fraction(v, 3**8) for k, v in counts.items()}


def test_armour_only_counts_when_attack_reaches_defence() -> None:
    # margin below 0 deals nothing; with margin ≥ 0, a heavy armour can still cancel it
    dist = pressure_distribution(0, 0, 0, 9)
    assert dist == {0: Fraction(1)}


def test_bad_parameters_are_errors() -> None:
    question = get_ruleset("presja").odds["exchange"]
    with pytest.raises(KonfliktError, match="--attack"):
        question.ask({"defense": "2"})
    with pytest.raises(KonfliktError, match="--tactic"):
        question.ask({"attack": "1", "defense": "2", "tactic": "berserk"})
    with pytest.raises(KonfliktError, match="0 or more"):
        pressure_distribution(1, 1, -1, 0)
