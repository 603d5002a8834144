"""Exact odds: the attack question against plain enumeration of the d10 digits and against icepool."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import product

import icepool
import pytest

from konflikt.errors import KonfliktError
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
    """Against digits enumerated here (``bf_quality``), not the rules module. Deliberate mutation that fails it:
    ``rules.quality`` calling a roll exceptional up to ``target // 4`` instead of ``target // 5``."""
    odds = attack_odds(attack, defense)
    wins, exceptional_wins, effects = bf_attack(attack, defense)
    assert odds.wins == wins
    assert odds.wins_exceptional == exceptional_wins
    if wins:
        assert odds.effect_when_wins == effects
        assert sum(odds.effect_when_wins.values()) == 1


def reading_quality(reading: int, target: int) -> tuple[int, int]:
    """A d100 reading (1–100) against a target, worked out from its digits (independent of the rules module)."""
    return bf_quality((reading % 100) // 10, reading % 10, target)


def test_attack_odds_match_icepool() -> None:
    d100 = icepool.d(100)

    def wins(a: int, d: int) -> bool:
        attack = reading_quality(a, 60)
        return attack[0] >= 1 and attack > reading_quality(d, 45)

    assert attack_odds(60, 45).wins == icepool.map(wins, d100, d100).probability(True)

    def beats_both(a: int, d1: int, d2: int) -> bool:
        attack = reading_quality(a, 55)
        return attack[0] >= 1 and attack > reading_quality(d1, 90) and attack > reading_quality(d2, 90)

    two = icepool.map(beats_both, d100, d100, d100)
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
    assert answer.probabilities["attack wins"] == bf_attack(60, 50)[0]
    data = answer.to_json()
    assert set(data["probabilities"]) >= {"attack wins", "attack is exceptional"}
    with pytest.raises(KonfliktError, match="--attack"):
        RULESET.odds["attack"].ask({"defense": "50"})


def bf_wound(damage: int, thresholds: tuple[int, int, int, int]) -> int:
    """The wound level by counting the thresholds reached: −1 none, 0 Skråma … 4 Dödlig."""
    return sum(damage >= limit for limit in thresholds)


def bf_wound_through_gard(total: int, gard: int, thresholds: tuple[int, int, int, int]) -> int:
    """Marked on Gard; once Gard runs out the rest (0 when exactly emptied: a Skråma) is compared."""
    return -1 if total < gard else bf_wound(total - gard, thresholds)


@pytest.mark.parametrize("gard", [10, 12, 20])
def test_damage_odds_with_and_without_gard_match_enumeration(gard: int) -> None:
    snurre = (6, 12, 28, 38)
    odds = damage_odds("Svärd", 8, gard, 12, 16)
    with_gard: dict[int, int] = defaultdict(int)
    open_wounds: dict[int, int] = defaultdict(int)
    for dice in product(range(1, 7), repeat=3):
        with_gard[bf_wound_through_gard(8 + sum(dice), gard, snurre)] += 1
        open_wounds[bf_wound(8 + sum(dice), snurre)] += 1
    assert odds.wounds_with_gard == {w: Fraction(n, 216) for w, n in sorted(with_gard.items())}
    assert odds.wounds_open == {w: Fraction(n, 216) for w, n in sorted(open_wounds.items())}
    assert odds.guarded[18] == Fraction(27, 216)  # 8 + a 10 on 3T6: the Snurre hit
    assert min(odds.open) == 11 and max(odds.open) == 26


def test_damage_that_exactly_empties_gard_is_a_skrama_in_the_odds() -> None:
    odds = damage_odds("Svärd", 8, 12, 12, 16)
    assert odds.wounds_with_gard[R.SKRAMA] >= Fraction(3, 216)  # 8 + 4 (three ways of 3T6) empties 12 exactly
    assert (
        damage_odds("Svärd", 8, 12, 12, 16, empty_gard_scratch=False).wounds_with_gard.get(R.SKRAMA, 0)
        < (odds.wounds_with_gard[R.SKRAMA])
    )


def test_the_damage_question_answers_with_fractions() -> None:
    answer = RULESET.odds["damage"].ask({"weapon": "Spjut", "effect": "5", "gard": "0"})
    assert answer.probabilities["a wound through Gard"] == 1
    with pytest.raises(KonfliktError, match="--effect"):
        RULESET.odds["damage"].ask({"effect": "30"})
