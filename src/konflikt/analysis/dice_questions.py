"""Small exact questions on dice that the systems ask all the time, computed by dedicated code.

Each has an icepool twin (``*_icepool``): the tests check the two give identical Fractions, and ``konflikt bench``
times them side by side.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

from konflikt.dice import Dice, effect
from konflikt.dice.expression import DiceExpression, Group, parse_expression
from konflikt.dice.opposed import Judge, OpposedRule
from konflikt.errors import DiceError


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
# The dice layer reads ``A vs B``; what decides between two rolls belongs to a system. Each rule here binds the two
# sides to the ruleset's own rule functions (``rulesets/<id>/rules.py`` and the like), with the ruleset's options
# resolved through the registry (its defaults, then ``-o name=value``), so an opposed roll in the dice language is
# judged exactly as the conflict judges it.


def _d100_target(side: DiceExpression, name: str, rule: str) -> int:
    """The target of a side written ``d100<=T`` (or ``d%<=T``): Le våld's roll, under or equal to the target."""
    group = side.terms[0][1] if len(side.terms) == 1 and side.terms[0][0] == 1 else None
    plain = (
        isinstance(group, Group)
        and group.count == 1
        and group.faces == tuple(range(1, 101))
        and group.keep is None
        and not group.explode
        and group.reroll is None
    )
    if not plain or side.compare is None or side.compare[0] != "<=":
        raise DiceError(
            f"'by {rule}' judges two d100 rolls against their targets: write {name} as d100<=T (e.g. d100<=60), "
            f"not {side.written}"
        )
    return side.compare[1]


def _d100_text(roll: int) -> str:
    return "00" if roll == 100 else f"{roll:02d}"


@dataclass(frozen=True)
class LevaldRule:
    """Le våld's opposed d100 rolls, judged by quality (level, then effect): ``quality`` is the opposed roll of
    Stridsvana (nobody wins when both fail or the qualities are equal), ``attack`` an anfallsslag against a
    försvarsslag (the attack must succeed and be of higher quality; a tie holds for the defence)."""

    name: str
    overrides: Mapping[str, str] = field(default_factory=dict)

    @property
    def doc(self) -> str:
        if self.name == "quality":
            return (
                "levald: d100<=A vs d100<=B, the higher quality wins (level, then effect); both failing or equal: "
                "nobody wins (Stridsvana)"
            )
        return (
            "levald: anfallsslag d100<=A vs försvarsslag d100<=B: the attack wins when it succeeds with higher quality"
        )

    def bind(self, a: DiceExpression, b: DiceExpression) -> Judge:
        from konflikt.core.ruleset import get_ruleset
        from konflikt.rulesets.levald import rules as R

        options = get_ruleset("levald").options.resolve(self.overrides)
        exceptional, by_effect = str(options.exceptional), bool(options.effect_breaks_ties)
        ta, tb = _d100_target(a, "A", self.name), _d100_target(b, "B", self.name)

        def qualities(x: int, y: int) -> tuple[tuple[int, int], tuple[int, int]]:
            return R.quality(x, ta, exceptional, by_effect), R.quality(y, tb, exceptional, by_effect)

        def explain(x: int, y: int) -> str:
            qa, qb = qualities(x, y)
            return " vs ".join(
                f"{side} {_d100_text(roll)} ({R.LEVEL_TEXT[q[0]]}, effekt {effect(roll)})"
                for side, roll, q in (("A", x, qa), ("B", y, qb))
            )

        notes = (
            f"quality = success level (misslyckat < lyckat < exceptionellt), then effekt (tens + units die) "
            f"{'breaking' if by_effect else 'not breaking'} ties; exceptional: {exceptional} (rule options of "
            f"levald, -o name=value)",
        )
        if self.name == "quality":

            def contest(x: int, y: int) -> str:
                winner = R.contest_winner(*qualities(x, y))
                return "nobody wins" if winner is None else ("A wins", "B wins")[winner]

            return Judge(contest, ("A wins", "nobody wins", "B wins"), "winner", notes=notes, explain=explain)

        def attack(x: int, y: int) -> str:
            qa, qb = qualities(x, y)
            return "attack wins" if R.attack_wins(qa, (qb,)) else "defence holds"

        return Judge(
            attack,
            ("attack wins", "defence holds"),
            "anfallsslag (attack) against försvarsslag (defence)",
            notes=notes,
            explain=explain,
        )


@dataclass(frozen=True)
class PresjaPressure:
    """presja's Atak against Obrona: the pressure one attack deals (margin 0 or more; weapon and armour aside)."""

    name: str = "pressure"
    doc: str = "presja: Atak (A) vs Obrona (B), e.g. 4dF+3 vs 4dF+2: the presja (pressure) dealt, A − B when A ≥ B"

    def bind(self, a: DiceExpression, b: DiceExpression) -> Judge:
        from konflikt.rulesets.presja import rules as R

        for side_name, side in (("A", a), ("B", b)):
            if side.compare is not None:
                raise DiceError(f"'by pressure' compares Atak and Obrona as numbers: {side_name} = {side.written}")
        notes = (
            "weapon (Czynnik Obrażeń) and armour (Czynnik Wyparowań) factors 0: konflikt odds presja exchange "
            "--weapon N --armor N adds them",
        )
        return Judge(
            lambda x, y: R.pressure(x, y),
            (0,),
            "presja (pressure) dealt",
            numeric=True,
            notes=notes,
            explain=lambda x, y: f"Atak {x} vs Obrona {y}",
        )


@dataclass(frozen=True)
class PwgeContest:
    """PWGE's opposed roll (2T + modifier each): the higher wins, and a tie holds for B (the counter, the holder,
    the difficulty). Topping (a reroll bought with a token) is a decision, not dice, and is left out."""

    name: str = "contest"
    doc: str = "pwge: an opposed roll, e.g. 2T+3 vs 2T+1: the higher wins, a tie holds for B (topping left out)"

    def bind(self, a: DiceExpression, b: DiceExpression) -> Judge:
        from konflikt.rulesets.pwge.exchange import Contest

        for side_name, side in (("A", a), ("B", b)):
            if side.compare is not None:
                raise DiceError(f"'by contest' compares the two rolls as numbers: {side_name} = {side.written}")

        def winner(x: int, y: int) -> str:
            result = Contest("deed", 0, 1, 0, 0, tie="b", a_roll=x, b_roll=y).winner()
            return "A wins" if result == "a" else "B holds"

        notes = ("a tie holds for B; topping (rerolling for a token) is a choice at the table, not counted here",)
        return Judge(winner, ("A wins", "B holds"), "winner", notes=notes)


def opposed_rules(overrides: Mapping[str, str] | None = None) -> dict[str, OpposedRule]:
    """The rules ``A vs B by RULE`` may name; ``overrides`` are rule options (``exceptional=doubles``) for the
    rule's ruleset."""
    chosen = dict(overrides or {})
    rules: list[OpposedRule] = [
        LevaldRule("quality", chosen),
        LevaldRule("attack", chosen),
        PresjaPressure(),
        PwgeContest(),
    ]
    return {rule.name: rule for rule in rules}


def read_dice(text: str, overrides: Mapping[str, str] | None = None) -> Dice:
    """The dice language with the systems' opposed rules (``d100<=60 vs d100<=55 by quality``)."""
    return parse_expression(text, opposed_rules(overrides))
