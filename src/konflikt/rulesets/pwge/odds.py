"""Exact odds of PWGE's stand-in rolls: an opposed roll, a ranged attack, and a topping contest.

``konflikt odds pwge opposed --attack 5 --defense 4``; ``konflikt odds pwge ranged --attack 5 --difficulty 2T+4``;
``konflikt odds pwge topping --attack 5 --defense 5 --attack-tokens 3 --defense-tokens 2``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from konflikt.core.odds import OddsAnswer, OddsParam, OddsQuestion
from konflikt.dice import SumDice
from konflikt.dice.distribution import convolve
from konflikt.dice.expression import DiceExpression
from konflikt.dice.opposed import Judge, OpposedRule, as_numbers
from konflikt.errors import KonfliktError
from konflikt.rulesets.pwge.exchange import Contest
from konflikt.rulesets.pwge.i18n import _

TWO_T: dict[int, Fraction] = SumDice(2, 6, 0, "T").distribution()


def margin_distribution(attack: int, defense: int) -> dict[int, Fraction]:
    """(2T + attack) − (2T + defense): the exact distribution of the margin."""
    negated = {-k: p for k, p in TWO_T.items()}
    return {m + attack - defense: p for m, p in convolve(TWO_T, negated).items()}


def p_attack_wins(attack: int, defense: int) -> Fraction:
    """P(2T + attack > 2T + defense): a tie holds for the defence (the counter, the holder, the difficulty)."""
    return sum((p for m, p in margin_distribution(attack, defense).items() if m > 0), Fraction(0))


def difficulty_modifier(text: str) -> int:
    """Read ``2T``, ``2T+2`` or ``2T+4`` (the text's difficulties; 2T stands in for an unopposed melee attack)."""
    normal = text.replace(" ", "").upper()
    table = {"2T": 0, "2T+0": 0, "2T+2": 2, "2T+4": 4}
    if normal not in table:
        raise KonfliktError(_("--difficulty takes 2T, 2T+2 or 2T+4, not {value}", value=repr(text)))
    return table[normal]


@cache
def p_win_topping(attack: int, defense: int, a_roll: int, d_roll: int, a_tokens: int, d_tokens: int) -> Fraction:
    """P(the attacker ends ahead) when whoever is behind tops (rerolls 2T for a token) while it has tokens."""
    if a_roll + attack > d_roll + defense:
        if d_tokens == 0:
            return Fraction(1)
        return sum(
            (p * p_win_topping(attack, defense, a_roll, r, a_tokens, d_tokens - 1) for r, p in TWO_T.items()),
            Fraction(0),
        )
    if a_tokens == 0:
        return Fraction(0)
    return sum(
        (p * p_win_topping(attack, defense, r, d_roll, a_tokens - 1, d_tokens) for r, p in TWO_T.items()),
        Fraction(0),
    )


def p_topping_contest(attack: int, defense: int, a_tokens: int, d_tokens: int) -> Fraction:
    """P(the attacker wins an opposed roll when both sides top while behind, with the given tokens)."""
    return sum(
        (
            pa * pd * p_win_topping(attack, defense, ra, rd, a_tokens, d_tokens)
            for ra, pa in TWO_T.items()
            for rd, pd in TWO_T.items()
        ),
        Fraction(0),
    )


def _opposed(attack: int, defense: int) -> OddsAnswer:
    margin = margin_distribution(attack, defense)
    win = p_attack_wins(attack, defense)
    return OddsAnswer(
        title=_("{a} against {d} (a tie holds for the defence)", a=f"2T{attack:+d}", d=f"2T{defense:+d}"),
        label="margin",
        outcomes=[(str(m), p) for m, p in sorted(margin.items())],
        probabilities={"attack wins": win, "defence holds": 1 - win, "tie": margin.get(0, Fraction(0))},
        notes=[_("the roll is a stand-in for Parallel Worlds' own: 2T + attribute + skill (+ weapon bonus)")],
    )


def _ranged(attack: int, difficulty: str) -> OddsAnswer:
    k = difficulty_modifier(difficulty)
    win = p_attack_wins(attack, k)
    return OddsAnswer(
        title=_("ranged attack {a} against difficulty {d}", a=f"2T{attack:+d}", d=f"2T{k:+d}")
        if k
        else _("{a} against {d}", a=f"2T{attack:+d}", d="2T"),
        label="result",
        outcomes=[("hit", win), ("miss", 1 - win)],
        probabilities={"hit": win},
        notes=[_("2T+2 up to short, 2T+4 beyond short up to max; the attack must beat the difficulty")],
    )


def _topping(attack: int, defense: int, attack_tokens: int, defense_tokens: int) -> OddsAnswer:
    if not (0 <= attack_tokens <= 12 and 0 <= defense_tokens <= 12):
        raise KonfliktError(_("--attack-tokens and --defense-tokens take 0 to 12"))
    win = p_topping_contest(attack, defense, attack_tokens, defense_tokens)
    return OddsAnswer(
        title=_(
            "topping contest: {a} ({a_tokens} tokens) against {d} ({d_tokens} tokens), whoever is behind tops",
            a=f"2T{attack:+d}",
            a_tokens=attack_tokens,
            d=f"2T{defense:+d}",
            d_tokens=defense_tokens,
        ),
        label="result",
        outcomes=[("attack wins", win), ("defence holds", 1 - win)],
        probabilities={"attack wins": win, "without topping": p_attack_wins(attack, defense)},
    )


QUESTIONS: dict[str, OddsQuestion] = {
    "opposed": OddsQuestion(
        "opposed",
        "2T + A against 2T + D, a tie holds: P(attack wins) and the margin",
        (
            OddsParam("attack", int, 0, "the attacker's modifier A", required=True),
            OddsParam("defense", int, 0, "the defender's modifier D", required=True),
        ),
        _opposed,
    ),
    "ranged": OddsQuestion(
        "ranged",
        "a ranged attack 2T + A against a difficulty 2T+2 or 2T+4: the exact hit chance",
        (
            OddsParam("attack", int, 0, "the attacker's modifier A", required=True),
            OddsParam("difficulty", str, "2T+2", "2T+2 (up to Kort) or 2T+4 (up to Max)", ("2T", "2T+2", "2T+4")),
        ),
        _ranged,
    ),
    "topping": OddsQuestion(
        "topping",
        "an opposed roll where whoever is behind tops while it has tokens: P(attack wins)",
        (
            OddsParam("attack", int, 0, "the attacker's modifier", required=True),
            OddsParam("defense", int, 0, "the defender's modifier", required=True),
            OddsParam("attack_tokens", int, 2, "tokens the attacker will spend on tops"),
            OddsParam("defense_tokens", int, 2, "tokens the defender will spend on tops"),
        ),
        _topping,
    ),
}


# ---- opposed rolls in the dice language: ``2T+3 vs 2T+1 by contest`` ----------------------------------------------


@dataclass(frozen=True)
class PwgeContest:
    """PWGE's opposed roll (2T + modifier each): the higher wins, and a tie holds for B (the counter, the holder,
    the difficulty). Topping (a reroll bought with a token) is a decision, not dice, and is left out."""

    name: str = "contest"
    doc: str = "pwge: an opposed roll, e.g. 2T+3 vs 2T+1: the higher wins, a tie holds for B (topping left out)"

    def bind(self, a: DiceExpression, b: DiceExpression) -> Judge:
        as_numbers(a, b, "contest", "the two rolls")

        def winner(x: int, y: int) -> str:
            result = Contest("deed", 0, 1, 0, 0, tie="b", a_roll=x, b_roll=y).winner()
            return "A wins" if result == "a" else "B holds"

        notes = ("a tie holds for B; topping (rerolling for a token) is a choice at the table, not counted here",)
        return Judge(winner, ("A wins", "B holds"), "winner", notes=notes)


def opposed_rules(overrides: Mapping[str, str]) -> tuple[OpposedRule, ...]:
    """PWGE's opposed roll for the dice language: ``by contest`` (2T + modifier each, a tie holds for B)."""
    return (PwgeContest(),)
