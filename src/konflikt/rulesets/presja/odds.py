"""Exact odds questions of `presja` (``konflikt odds presja exchange --attack 3 --defense 5``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from konflikt.core.i18n import number
from konflikt.core.odds import OddsAnswer, OddsParam, OddsQuestion
from konflikt.dice import Fudge
from konflikt.dice.distribution import fraction_text, mean
from konflikt.dice.expression import DiceExpression
from konflikt.dice.opposed import Judge, OpposedRule, as_numbers
from konflikt.errors import KonfliktError
from konflikt.rulesets.presja.i18n import _, pgettext
from konflikt.rulesets.presja.rules import TACTICS, pressure, tactic_mods
from konflikt.rulesets.presja.texts import signed


def difference() -> dict[int, Fraction]:
    """The attacker's 4dF minus the defender's 4dF: distributed as 8dF (−4dF has the same law as 4dF)."""
    return Fudge(8).distribution()


#: Levels an odds question takes: the ladder runs -4 to 10 for characters (``models.Character.skill``); tactics and
#: invocations move an attack a few levels beyond. (konflikt's own bound for ``odds presja exchange``: the answer
#: has a row per point of pressure, which grows with the margin.)
LEVELS = (-10, 30)
#: Weapon and armour factors, as in the content's weapon and armour models (0 to 10).
FACTORS = (0, 10)
MARGIN = "margin (Atak − Obrona)"
"""The margin's distribution as JSON names it."""


def pressure_distribution(
    attack: int, defense: int, weapon: int = 0, armor: int = 0, tactic: str = "none"
) -> dict[int, Fraction]:
    """Presja dealt by one attack: attacker skill ``attack`` + 4dF against defender skill ``defense`` + 4dF.

    The attacker's tactic changes its Attack (offensive +1, defensive −1); the defender declares none.
    """
    if tactic not in TACTICS:
        raise KonfliktError(
            _("--tactic takes one of {choices}, not {tactic}", choices=", ".join(TACTICS), tactic=repr(tactic))
        )
    if weapon < 0 or armor < 0:
        raise KonfliktError(
            _("--weapon and --armor must be 0 or more, not {weapon} and {armor}", weapon=weapon, armor=armor)
        )
    a_tac, _d = tactic_mods(tactic)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for x, p in difference().items():
        out[pressure(attack + a_tac + x, defense, weapon, armor)] += p
    return dict(sorted(out.items()))


def exchange(attack: int, defense: int, weapon: int = 0, armor: int = 0, tactic: str = "none") -> OddsAnswer:
    """The question at the command line: its numbers are bounded here (the policies ask of any difference)."""
    for name, value in (("attack", attack), ("defense", defense)):
        if not LEVELS[0] <= value <= LEVELS[1]:
            raise KonfliktError(
                _(
                    "--{name} takes levels from {low} to {high}, not {value}",
                    name=name,
                    low=LEVELS[0],
                    high=LEVELS[1],
                    value=value,
                )
            )
    for name, value in (("weapon", weapon), ("armor", armor)):
        if not FACTORS[0] <= value <= FACTORS[1]:
            raise KonfliktError(
                _("--{name} must be 0 or more and at most {high}, not {value}", name=name, high=FACTORS[1], value=value)
            )
    dist = pressure_distribution(attack, defense, weapon, armor, tactic)
    a_tac, _d = tactic_mods(tactic)
    margin: dict[int, Fraction] = {attack + a_tac - defense + x: p for x, p in difference().items()}
    reached = sum((p for m, p in margin.items() if m >= 0), Fraction(0))
    hits = sum((p for v, p in dist.items() if v > 0), Fraction(0))
    # the keys stay as JSON has always had them; ``words`` says them in the language in use
    probabilities = {
        "attack ≥ defence (margin ≥ 0)": reached,
        "attack hits (pressure > 0)": hits,
    }
    words = {
        "attack ≥ defence (margin ≥ 0)": _("attack ≥ defence (margin ≥ 0)"),
        "attack hits (pressure > 0)": _("attack hits (pressure > 0)"),
        MARGIN: _("margin (attack − defence)"),
    }
    for k in range(2, max(dist) + 1):
        probabilities[f"pressure ≥ {k}"] = sum((p for v, p in dist.items() if v >= k), Fraction(0))
        words[f"pressure ≥ {k}"] = _("pressure ≥ {k}", k=k)
    expected = mean(dist)
    return OddsAnswer(
        title=_(
            "pressure of one attack: skill {attack} + 4dF vs defence {defence} + 4dF, weapon +{weapon}, armour "
            "+{armor}, tactic {tactic}",
            attack=signed(attack),
            defence=signed(defense),
            weapon=weapon,
            armor=armor,
            tactic=tactic,
        ),
        label=pgettext("odds", "pressure"),
        outcomes=[(str(v), p) for v, p in dist.items()],
        distributions={MARGIN: [(signed(m), p) for m, p in sorted(margin.items())]},
        probabilities=probabilities,
        notes=[
            _("expected pressure {fraction} ≈ {value}", fraction=fraction_text(expected), value=number(expected, 3)),
            _("the weapon and armour factors count only when attack ≥ defence (margin 0 or more)"),
        ],
        words=words,
    )


QUESTIONS = {
    "exchange": OddsQuestion(
        name="exchange",
        doc="exact distribution of the presja (pressure) one attack deals in an exchange",
        params=(
            OddsParam("attack", int, None, "the attacker's skill level", required=True),
            OddsParam("defense", int, None, "the defender's skill level", required=True),
            OddsParam("weapon", int, 0, "the weapon's Czynnik Obrażeń (damage factor)"),
            OddsParam("armor", int, 0, "the armour's Czynnik Wyparowań (absorption factor)"),
            OddsParam("tactic", str, "none", "the attacker's tactic", choices=TACTICS),
        ),
        compute=exchange,
    )
}


# ---- opposed rolls in the dice language: ``4dF+3 vs 4dF+2 by pressure`` -------------------------------------------


@dataclass(frozen=True)
class PresjaPressure:
    """presja's Atak against Obrona: the pressure one attack deals (margin 0 or more; weapon and armour aside)."""

    name: str = "pressure"
    doc: str = "presja: Atak (A) vs Obrona (B), e.g. 4dF+3 vs 4dF+2: the presja (pressure) dealt, A − B when A ≥ B"

    def bind(self, a: DiceExpression, b: DiceExpression) -> Judge:
        as_numbers(a, b, "pressure", "Atak and Obrona")
        notes = (
            _(
                "weapon (damage factor) and armour (absorption factor) factors 0: konflikt odds presja exchange "
                "--weapon N --armor N adds them"
            ),
        )
        return Judge(
            lambda x, y: pressure(x, y),
            (0,),
            _("pressure dealt"),
            numeric=True,
            notes=notes,
            explain=lambda x, y: _("attack {attack} vs defence {defence}", attack=x, defence=y),
        )


def opposed_rules(overrides: Mapping[str, str]) -> tuple[OpposedRule, ...]:
    """presja's opposed roll for the dice language: ``by pressure`` (Atak against Obrona)."""
    return (PresjaPressure(),)
