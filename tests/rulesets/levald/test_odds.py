"""Exact odds: the attack question against plain enumeration of the d10 digits and against icepool."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import product

import icepool
import pytest

from konflikt.core.errors import KonfliktError
from konflikt.rulesets.levald import RULESET
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.odds import attack_odds, damage_odds


def bf_reading(tens: int, units: int) -> tuple[int, int]:
    """A d100 read from two d10 digits, and its effect: 00 is 100 with effect 0."""
    if tens == units == 0:
        return 100, 0
    return tens * 10 + units, tens + units


def bf_quality(tens: int, units: int, target: int) -> tuple[int, int]:
    reading, eff = bf_reading(tens, units)
    if reading > target:
        return (0, 0)
    return (2 if reading <= target // 5 else 1, eff)


def bf_attack(attack: int, defense: int) -> tuple[Fraction, Fraction, dict[int, Fraction]]:
    wins = exceptional_wins = 0
    effects: dict[int, int] = defaultdict(int)
    for at, au, dt, du in product(range(10), repeat=4):
        qa, qd = bf_quality(at, au, attack), bf_quality(dt, du, defense)
        if qa[0] >= 1 and qa > qd:
            wins += 1
            exceptional_wins += qa[0] == 2
            effects[qa[1]] += 1
    return (
        Fraction(wins, 10_000),
        Fraction(exceptional_wins, 10_000),
        {e: Fraction(n, wins) for e, n in sorted(effects.items())},
    )


@pytest.mark.parametrize(("attack", "defense"), [(60, 50), (40, 30), (100, 100), (5, 95), (0, 40), (120, -10)])
def test_attack_odds_match_brute_force(attack: int, defense: int) -> None:
    odds = attack_odds(attack, defense)
    wins, exceptional_wins, effects = bf_attack(attack, defense)
    assert odds.wins == wins
    assert odds.wins_exceptional == exceptional_wins
    if wins:
        assert odds.effect_when_wins == effects
        assert sum(odds.effect_when_wins.values()) == 1


def test_attack_odds_match_icepool() -> None:
    d100 = icepool.d(100)

    def wins(a: int, d: int) -> bool:
        return R.attack_wins(R.quality(a, 60), (R.quality(d, 45),))

    assert attack_odds(60, 45).wins == icepool.map(wins, d100, d100).probability(True)
    two = icepool.map(
        lambda a, d1, d2: R.attack_wins(R.quality(a, 55), (R.quality(d1, 90), R.quality(d2, 90))), d100, d100, d100
    )
    assert attack_odds(55, 90, defences=2).wins == two.probability(True)


def test_undefended_attack_wins_when_it_succeeds() -> None:
    odds = attack_odds(60, 0, defences=0)
    assert odds.wins == odds.succeeds == Fraction(60, 100)
    assert odds.exceptional == Fraction(12, 100)


def test_doubles_rule() -> None:
    odds = attack_odds(60, 0, exceptional="doubles", defences=0)
    assert odds.exceptional == Fraction(5, 100)  # 11, 22, 33, 44, 55


def test_the_odds_question_answers_with_fractions() -> None:
    answer = RULESET.odds["attack"].ask({"attack": "60", "defense": "50"})
    assert answer.probabilities["attack wins"] == attack_odds(60, 50).wins
    data = answer.to_json()
    assert set(data["probabilities"]) >= {"attack wins", "attack is exceptional"}
    with pytest.raises(KonfliktError, match="--attack"):
        RULESET.odds["attack"].ask({"defense": "50"})


def test_damage_odds_with_and_without_gard_match_enumeration() -> None:
    odds = damage_odds("Svärd", 8, 10, 12, 16)
    counts: dict[int, int] = defaultdict(int)
    for dice in product(range(1, 7), repeat=3):
        _g, wound, _c = R.apply_hit(10, 8, sum(dice), True, (6, 12, 28, 38), False)
        counts[wound] += 1
    assert odds.wounds_with_gard == {w: Fraction(n, 216) for w, n in sorted(counts.items())}
    assert odds.guarded[18] == Fraction(27, 216)  # 8 + a 10 on 3T6: the Snurre hit
    assert min(odds.open) == 11 and max(odds.open) == 26
    answer = RULESET.odds["damage"].ask({"weapon": "Spjut", "effect": "5", "gard": "0"})
    assert answer.probabilities["a wound through Gard"] == 1
    with pytest.raises(KonfliktError, match="--effect"):
        RULESET.odds["damage"].ask({"effect": "30"})
