"""Exact odds against plain enumeration and against icepool."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

import icepool
import pytest

from konflikt.errors import KonfliktError
from konflikt.rulesets.pwge.odds import QUESTIONS, margin_distribution, p_attack_wins, p_topping_contest

FACES = range(1, 7)


def bf_attack_wins(
    attack: int,
    defense: int,
) -> Fraction:
    wins = sum(1 for a, b, c, d in product(FACES, repeat=4) if a + b + attack > c + d + defense)
    return Fraction(wins, 6**4)


def icepool_attack_wins(attack: int, defense: int) -> Fraction:
    die = (2 @ icepool.d6 + attack) > (2 @ icepool.d6 + defense)
    return Fraction(die.quantity(True), die.denominator())


@pytest.mark.parametrize(("attack", "defense"), [(0, 0), (5, 3), (3, 5), (7, 7), (4, 0), (4, 2), (4, 4), (0, 12)])
def test_opposed_matches_brute_force_and_icepool(attack: int, defense: int) -> None:
    p = p_attack_wins(attack, defense)
    assert p == bf_attack_wins(attack, defense) == icepool_attack_wins(attack, defense)


def test_equal_modifiers_attack_wins_less_than_half_because_a_tie_holds() -> None:
    assert p_attack_wins(3, 3) == Fraction(575, 1296)


def test_margin_distribution_matches_brute_force() -> None:
    counts: dict[int, int] = {}
    for a, b, c, d in product(FACES, repeat=4):
        m = a + b + 5 - (c + d + 2)
        counts[m] = counts.get(m, 0) + 1
    assert margin_distribution(5, 2) == {m: Fraction(n, 1296) for m, n in counts.items()}


@pytest.mark.parametrize(("attack", "difficulty", "k"), [(4, "2T+2", 2), (4, "2T+4", 4), (2, "2T", 0)])
def test_ranged_question_matches_icepool(attack: int, difficulty: str, k: int) -> None:
    answer = QUESTIONS["ranged"].ask({"attack": str(attack), "difficulty": difficulty})
    assert answer.probabilities["hit"] == icepool_attack_wins(attack, k) == bf_attack_wins(attack, k)


def test_opposed_question_answer() -> None:
    answer = QUESTIONS["opposed"].ask({"attack": "5", "defense": "4"})
    assert answer.probabilities["attack wins"] == bf_attack_wins(5, 4)
    assert sum(p for _, p in answer.outcomes) == 1


def test_unknown_difficulty_is_refused() -> None:
    with pytest.raises(KonfliktError, match="takes one of"):
        QUESTIONS["ranged"].ask({"attack": "3", "difficulty": "2T+3"})


@cache
def bf_topping(attack: int, defense: int, ra: int, rd: int, ta: int, td: int) -> Fraction:
    """Plain recursion over the two dice of every reroll: whoever is behind rerolls while it has tokens."""
    if ra + attack > rd + defense:
        if td == 0:
            return Fraction(1)
        return (
            sum((bf_topping(attack, defense, ra, c + d, ta, td - 1) for c, d in product(FACES, FACES)), Fraction(0))
            / 36
        )
    if ta == 0:
        return Fraction(0)
    return sum((bf_topping(attack, defense, a + b, rd, ta - 1, td) for a, b in product(FACES, FACES)), Fraction(0)) / 36


@pytest.mark.parametrize(("attack", "defense", "ta", "td"), [(3, 3, 1, 0), (3, 3, 0, 1), (4, 3, 2, 2), (2, 5, 3, 1)])
def test_topping_contest_matches_brute_force(attack: int, defense: int, ta: int, td: int) -> None:
    expected = (
        sum((bf_topping(attack, defense, a + b, c + d, ta, td) for a, b, c, d in product(FACES, repeat=4)), Fraction(0))
        / 1296
    )
    assert p_topping_contest(attack, defense, ta, td) == expected


def test_topping_without_tokens_is_the_plain_roll_and_tokens_help() -> None:
    assert p_topping_contest(3, 3, 0, 0) == p_attack_wins(3, 3)
    assert p_topping_contest(3, 3, 2, 0) > p_topping_contest(3, 3, 1, 0) > p_attack_wins(3, 3)
    assert p_topping_contest(3, 3, 0, 2) < p_attack_wins(3, 3)


def test_exact_odds_of_a_fragile_duel_count_simultaneous_knock_outs_as_deadlocks() -> None:
    """Two heuristic swordsmen of 3 body points, exactly, by the compact model (the kernel's array flow) and by the
    State API: equal Fraction for Fraction, and the exchanges whose action and response fell both at once
    ("inträffar samtidigt") are deadlocks, as likely with either one named first (before: a win for one of them)."""
    from konflikt.analysis.exact import conflict_odds
    from konflikt.core.conflict import new_state
    from konflikt.core.scenario import scenario_from_document
    from konflikt.sim.runner import seat_policies

    def fighter(pid: str) -> dict[str, object]:
        return {"id": pid, "name": pid.capitalize(), "policy": "heuristic", "attributes": {"Styrka": 2},
                "attribute": "Styrka", "melee_weapon": "svard", "body_points": 3, "experience_dice": 1}  # fmt: skip

    doc = {
        "ruleset": "pwge",
        "title": "fragile duel",
        "options": {"experience_dice": True},
        "sides": [{"id": "red", "participants": [fighter("ann")]}, {"id": "blue", "participants": [fighter("bo")]}],
        "setup": {},
    }
    scenario = scenario_from_document(doc, "fragile_duel.toml")
    seats = {s: p for s, p in seat_policies(scenario).items() if p is not None}
    by_model = conflict_odds(new_state(scenario), seats)
    by_state = conflict_odds(new_state(scenario), seats, use_model=False)
    assert by_model.method == "model" and by_state.method == "state"
    assert by_model.distribution == by_state.distribution
    both_out = Fraction(0)
    wins = {"red": Fraction(0), "blue": Fraction(0)}
    for (ending, winners, fates), p in by_model.distribution.items():
        if all("out of the conflict" in fate for _, fate in fates):
            assert (ending, winners) == ("deadlock", ())
            both_out += p
        if winners:
            wins[winners[0]] += p
    assert both_out > Fraction(1, 50)
    assert wins["red"] == wins["blue"]
