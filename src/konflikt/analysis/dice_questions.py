"""Small exact questions on dice that the systems ask all the time, computed by dedicated code.

Each has an icepool twin (``*_icepool``): the tests check the two give identical Fractions, and ``konflikt bench``
times them side by side.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from math import comb
from typing import Any

from konflikt.dice import Dice
from konflikt.dice.expression import parse_expression
from konflikt.dice.opposed import OpposedRule


def _fudge_counts(dice: int) -> list[int]:
    """Ways to roll each total −dice…+dice on NdF: the coefficients of (1 + x + x²)^dice."""
    counts = [1]
    for _ in range(dice):
        grown = [0] * (len(counts) + 2)
        for i, c in enumerate(counts):
            grown[i] += c
            grown[i + 1] += c
            grown[i + 2] += c
        counts = grown
    return counts


def opposed_fudge(attack: int, defence: int, dice: int = 4) -> dict[int, Fraction]:
    """The margin (attack + NdF) − (defence + NdF): presja's Atak against Obrona (integer ways, then Fractions)."""
    counts = _fudge_counts(dice)
    ways = [0] * (2 * len(counts) - 1)
    for i, a in enumerate(counts):
        for j, b in enumerate(counts):
            ways[i - j + len(counts) - 1] += a * b
    total = 9**dice
    low = attack - defence - 2 * dice
    return {low + k: Fraction(w, total) for k, w in enumerate(ways) if w}


def pool_vs_status(dice: int, status: int) -> Fraction:
    """The chance that ``dice`` d6 score at least ``status`` successes (4–6): fimbulfrost's roll to defeat."""
    return Fraction(sum(comb(dice, k) for k in range(max(status, 0), dice + 1)), 2**dice)


def pool_duel(dice_a: int, dice_b: int, status_a: int, status_b: int) -> dict[str, Fraction]:
    """Two success pools trade blows until one side's Status is 0 or less: who wins (``both`` fall together).

    A round where neither scores leaves the state as it was: an absorbing chain. Each state's value is the other
    rounds' outcomes divided by (1 − p(nothing happens)); every round that does something lowers a + b, so values
    are kept as integers over the common denominator ``D^(a+b)`` (D = ways that something happens) and only the
    answer becomes a Fraction.
    """
    ways = [(x, y, comb(dice_a, x) * comb(dice_b, y)) for x in range(dice_a + 1) for y in range(dice_b + 1)]
    moves = [(x, y, w) for x, y, w in ways if x or y]
    d = sum(w for _, _, w in moves)
    if d == 0:
        raise ValueError("neither pool can ever score: the duel never ends")
    powers = [d**k for k in range(status_a + status_b + 1)]
    values: dict[tuple[int, int], tuple[int, int, int]] = {}

    def value(a: int, b: int) -> tuple[int, int, int]:
        """(a wins, b wins, both fall) as integers over d^(max(a,0) + max(b,0))."""
        if a <= 0 and b <= 0:
            return (0, 0, 1)
        if b <= 0:
            return (powers[a], 0, 0)
        if a <= 0:
            return (0, powers[b], 0)
        key = (a, b)
        if key in values:
            return values[key]
        win = lose = both = 0
        level = a + b - 1
        for x, y, w in moves:
            na, nb = a - y, b - x
            va, vb, vc = value(na, nb)
            scale = w * powers[level - max(na, 0) - max(nb, 0)]
            win += scale * va
            lose += scale * vb
            both += scale * vc
        values[key] = (win, lose, both)
        return values[key]

    win, lose, both = value(status_a, status_b)
    total = powers[status_a + status_b]
    return {"a": Fraction(win, total), "b": Fraction(lose, total), "both": Fraction(both, total)}


def _fractions(die: Any) -> dict[Any, Fraction]:
    return {k: Fraction(q, die.denominator()) for k, q in die.items() if q}


def opposed_fudge_icepool(attack: int, defence: int, dice: int = 4) -> dict[int, Fraction]:
    import icepool

    fudge = icepool.Die([-1, 0, 1])
    return _fractions((dice @ fudge + attack) - (dice @ fudge + defence))


def pool_vs_status_icepool(dice: int, status: int) -> Fraction:
    import icepool

    successes = dice @ icepool.d6.map(lambda x: 1 if x >= 4 else 0)
    return _fractions(successes >= status).get(True, Fraction(0))


def pool_duel_icepool(dice_a: int, dice_b: int, status_a: int, status_b: int) -> dict[str, Fraction]:
    import icepool

    hit = icepool.d6.map(lambda x: 1 if x >= 4 else 0)
    pool_a, pool_b = dice_a @ hit, dice_b @ hit

    def step(state: tuple[int, int]) -> Any:
        a, b = state
        if a <= 0 or b <= 0:
            return state
        return icepool.map(lambda x, y: (a - y, b - x), pool_a, pool_b)

    ends = icepool.map(step, (status_a, status_b), repeat="inf")
    named = ends.map(lambda s: "both" if s[0] <= 0 and s[1] <= 0 else ("a" if s[1] <= 0 else "b"))
    result = {"a": Fraction(0), "b": Fraction(0), "both": Fraction(0)}
    result.update(_fractions(named))
    return result


QUESTIONS: dict[str, tuple[Callable[..., Any], Callable[..., Any], tuple[int, ...]]] = {
    "4dF opposed roll (presja: Atak +3 against Obrona +2)": (opposed_fudge, opposed_fudge_icepool, (3, 2)),
    "6d6 success pool against Status 4 (fimbulfrost)": (pool_vs_status, pool_vs_status_icepool, (6, 4)),
    "absorbing duel of two 3d6 pools from Status 6": (pool_duel, pool_duel_icepool, (3, 3, 6, 6)),
}


def dice_sum(count: int, sides: int, extra: int) -> dict[int, Fraction]:
    """``{count}d{sides}+1d{extra}`` by the dice language's engine (one big-integer product per group)."""
    from konflikt.dice import parse_dice

    return dict(parse_dice(f"{count}d{sides}+1d{extra}").distribution())


def dice_sum_icepool(count: int, sides: int, extra: int) -> dict[int, Fraction]:
    import icepool

    return _fractions(count @ icepool.Die(range(1, sides + 1)) + icepool.Die(range(1, extra + 1)))


QUESTIONS["a sum in the dice language: 20d10+1d6"] = (dice_sum, dice_sum_icepool, (20, 10, 6))


# ---- opposed rules: ``A vs B by RULE`` in the dice language ----------------------------------------------------------
# The dice layer reads ``A vs B``; what decides between two rolls belongs to a system: each ruleset registers its own
# opposed rules (``Ruleset.opposed``, in its ``odds.py``), bound to its rule functions, with its options resolved
# through the registry (its defaults, then ``-o name=value``), so an opposed roll in the dice language is judged
# exactly as the conflict judges it.


def opposed_rules(overrides: Mapping[str, str] | None = None) -> dict[str, OpposedRule]:
    """The rules ``A vs B by RULE`` may name, from every registered ruleset; ``overrides`` are rule options
    (``exceptional=doubles``) for the rule's ruleset."""
    from konflikt.core.ruleset import get_ruleset, ruleset_ids

    chosen = dict(overrides or {})
    rules: dict[str, OpposedRule] = {}
    for ruleset_id in ruleset_ids():
        make = get_ruleset(ruleset_id).opposed
        for rule in make(chosen) if make is not None else ():
            rules[rule.name] = rule
    return rules


def read_dice(text: str, overrides: Mapping[str, str] | None = None) -> Dice:
    """The dice language with the systems' opposed rules (``d100<=60 vs d100<=55 by quality``)."""
    return parse_expression(text, opposed_rules(overrides))
