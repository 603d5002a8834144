"""Exact odds for Le våld: an attack roll against a defence roll, and the damage a hit does.

``konflikt odds levald attack --attack 60 --defense 50`` enumerates the 100 × 100 pairs of d100 readings (or the
attack against two defence rolls) with Fractions: no sampling, no floats.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from konflikt.core.i18n import BILINGUAL, current, number
from konflikt.core.odds import OddsAnswer, OddsParam, OddsQuestion
from konflikt.dice import effect
from konflikt.dice.distribution import convolve, mean
from konflikt.dice.expression import DiceExpression, Group
from konflikt.dice.opposed import Judge, OpposedRule
from konflikt.errors import DiceError, KonfliktError
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald import words as W
from konflikt.rulesets.levald.i18n import _
from konflikt.rulesets.levald.models import bundled_weapons, damage_dice, find_weapon

HUNDREDTH = Fraction(1, 100)
EXCEPTIONAL_CHOICES = ("fifth", "doubles", "off")


@dataclass(frozen=True)
class AttackOdds:
    """The exact odds of one attack roll against ``defences`` defence rolls (0: an undefended attack)."""

    wins: Fraction
    succeeds: Fraction
    exceptional: Fraction
    wins_exceptional: Fraction
    effect_when_wins: dict[int, Fraction]
    """P(effect = e | the attack wins)."""
    effect_and_wins: dict[tuple[int, bool], Fraction]
    """P(effect = e and exceptional = x and the attack wins): what damage needs."""


def beats_one(attack_quality: tuple[int, int], defence: int, exceptional: str, by_effect: bool) -> Fraction:
    """P(an attack of the given quality beats one defence roll at ``defence`` %)."""
    wins = sum(
        1 for d in range(1, 101) if R.attack_wins(attack_quality, (R.quality(d, defence, exceptional, by_effect),))
    )
    return Fraction(wins, 100)


def attack_odds(
    attack: int, defense: int, exceptional: str = "fifth", defences: int = 1, by_effect: bool = True
) -> AttackOdds:
    """Exact: for each attack reading, the chance it beats every one of the independent defence rolls."""
    if defences not in (0, 1, 2):
        raise KonfliktError(_("--defences takes 0, 1 or 2, not {defences}", defences=defences))
    wins = succeeds = exc = wins_exc = Fraction(0)
    joint: dict[tuple[int, bool], Fraction] = defaultdict(Fraction)
    cache: dict[tuple[int, int], Fraction] = {}
    for a in range(1, 101):
        attack_quality = R.quality(a, attack, exceptional, by_effect)
        if attack_quality[0] == R.FAILURE:
            continue
        succeeds += HUNDREDTH
        is_exc = attack_quality[0] == R.EXCEPTIONAL
        if is_exc:
            exc += HUNDREDTH
        if attack_quality not in cache:
            cache[attack_quality] = beats_one(attack_quality, defense, exceptional, by_effect)
        p = HUNDREDTH * cache[attack_quality] ** defences
        if not p:
            continue
        wins += p
        if is_exc:
            wins_exc += p
        joint[(effect(a), is_exc)] += p
    given: dict[int, Fraction] = defaultdict(Fraction)
    for (e, _x), p in joint.items():
        given[e] += p / wins
    return AttackOdds(wins, succeeds, exc, wins_exc, dict(sorted(given.items())), dict(sorted(joint.items())))


def _attack(attack: int, defense: int, exceptional: str, defences: int) -> OddsAnswer:
    odds = attack_odds(attack, defense, exceptional, defences)
    fields = {"attack": W.whole_percent(attack), "defense": W.whole_percent(defense)}
    if defences == 0:
        title = _("Attack roll at {attack} against no defence", **fields)
    elif defences == 1:
        title = _("Attack roll at {attack} against one defence roll at {defense}", **fields)
    else:
        title = _("Attack roll at {attack} against two defence rolls at {defense}", **fields)
    return OddsAnswer(
        title=title,
        label=_("effect when the attack wins"),
        outcomes=[(str(e), p) for e, p in odds.effect_when_wins.items()],
        probabilities={
            "attack wins": odds.wins,
            "attack succeeds (gain ground)": odds.succeeds,
            "attack is exceptional": odds.exceptional,
            "attack wins exceptionally (ignores Gard)": odds.wins_exceptional,
        },
        words={
            "attack wins": _("attack wins"),
            "attack succeeds (gain ground)": _("attack succeeds (gain ground)"),
            "attack is exceptional": _("attack is exceptional"),
            "attack wins exceptionally (ignores Gard)": _("attack wins exceptionally (ignores Gard)"),
        },
        notes=[
            _("effect = tens die + units die of the d100 (00 = 100, effect 0)"),
            _(
                "exceptional success: {rule}; ties of level broken by effect, equal: the defence holds",
                rule=exceptional,
            ),
        ],
    )


@dataclass(frozen=True)
class DamageOdds:
    """Damage of one hit with a fixed effect: totals on a guarded and on an open target, and the wound levels."""

    guarded: dict[int, Fraction]
    open: dict[int, Fraction]
    wounds_with_gard: dict[int, Fraction]
    """Wound level (NO_WOUND = −1, Skråma … Dödlig) against a target with ``gard`` Gard (non-exceptional hit)."""
    wounds_open: dict[int, Fraction]


def damage_odds(
    weapon: str, hit_effect: int, gard: int, kraft: int, sjal: int, empty_gard_scratch: bool = True
) -> DamageOdds:
    """Exact damage of a hit of the given effect with a weapon from the table, against ``gard`` Gard (damage that
    exactly empties Gard is a Skråma, as the rule option ``empty_gard_scratch`` defaults)."""
    w = find_weapon(weapon, bundled_weapons())
    limits = R.thresholds(kraft, sjal)
    guarded_dice = damage_dice(w.damage_guarded).distribution()
    open_dice = damage_dice(w.damage_open).distribution()
    with_gard: dict[int, Fraction] = defaultdict(Fraction)
    open_wounds: dict[int, Fraction] = defaultdict(Fraction)
    if gard > 0:
        for dice, p in guarded_dice.items():
            _g, wound, _c = R.apply_hit(gard, hit_effect, dice, True, limits, empty_gard_scratch)
            with_gard[wound] += p
    else:
        for dice, p in open_dice.items():
            with_gard[R.wound_level(hit_effect + dice, limits)] += p
    for dice, p in open_dice.items():
        open_wounds[R.wound_level(hit_effect + dice, limits)] += p
    return DamageOdds(
        convolve({hit_effect: Fraction(1)}, guarded_dice),
        convolve({hit_effect: Fraction(1)}, open_dice),
        dict(sorted(with_gard.items())),
        dict(sorted(open_wounds.items())),
    )


def _wound_key(level: int) -> str:
    """A wound level as the JSON names it (an identifier: the text's word and its English)."""
    if level == R.NO_WOUND:
        return "no wound (Gard held)"
    return f"{R.WOUNDS[level]} ({R.WOUND_ENGLISH[R.WOUNDS[level]]})"


def _wound_words(level: int) -> str:
    """A wound level in the language in use."""
    return _("no wound (Gard held)") if level == R.NO_WOUND else W.wound(R.WOUNDS[level], glossed=True)


def _damage(weapon: str, effect: int, gard: int, kraft: int, sjal: int) -> OddsAnswer:
    if not 0 <= effect <= 18:
        raise KonfliktError(_("--effect must be 0 to 18 (tens + units of a d100), not {effect}", effect=effect))
    odds = damage_odds(weapon, effect, gard, kraft, sjal)
    limits = R.thresholds(kraft, sjal)
    return OddsAnswer(
        title=_(
            "Damage of {weapon} with effect {effect} against Gard {gard}, thresholds {thresholds}",
            weapon=weapon if current() == BILINGUAL else find_weapon(weapon, bundled_weapons()).label(),
            effect=effect,
            gard=gard,
            thresholds="/".join(map(str, limits)),
        ),
        label=_("wound level with Gard"),
        outcomes=[(_wound_key(k), p) for k, p in odds.wounds_with_gard.items()],
        distributions={
            "damage vs guarded target (Skada skyddad)": [(str(k), p) for k, p in odds.guarded.items()],
            "damage vs open target (Skada öppen)": [(str(k), p) for k, p in odds.open.items()],
            "wound level vs open target / exceptional hit": [(_wound_key(k), p) for k, p in odds.wounds_open.items()],
        },
        probabilities={"a wound through Gard": 1 - odds.wounds_with_gard.get(R.NO_WOUND, Fraction(0))},
        words={
            "damage vs guarded target (Skada skyddad)": _("damage vs guarded target"),
            "damage vs open target (Skada öppen)": _("damage vs open target"),
            "wound level vs open target / exceptional hit": _("wound level vs open target / exceptional hit"),
            "a wound through Gard": _("a wound through Gard"),
            **{_wound_key(level): _wound_words(level) for level in (R.NO_WOUND, *range(len(R.WOUNDS)))},
        },
        notes=[
            _(
                "expected damage: {guarded} with Gard (guarded dice), {open} open",
                guarded=number(mean(odds.guarded), 2),
                open=number(mean(odds.open), 2),
            ),
        ],
    )


QUESTIONS = {
    "attack": OddsQuestion(
        "attack",
        "P(the attack wins), P(exceptional), and the effect when it wins",
        (
            OddsParam("attack", int, None, "attack target value in % (skill + Anfallsmod + Omtöckning)", required=True),
            OddsParam(
                "defense", int, None, "defence target value in % (skill + Försvarsmod + Omtöckning)", required=True
            ),
            OddsParam("exceptional", str, "fifth", "exceptional success rule", choices=EXCEPTIONAL_CHOICES),
            OddsParam("defences", int, 1, "defence rolls against the attack (0 undefended, 2 with a shield)"),
        ),
        _attack,
    ),
    "damage": OddsQuestion(
        "damage",
        "damage and wound level of one hit of a given effect, with and without Gard",
        (
            OddsParam("weapon", str, "Svärd", "a weapon of the table"),
            OddsParam("effect", int, 8, "the winning attack roll's effect (tens + units)"),
            OddsParam("gard", int, 10, "the target's Gard left (0: open)"),
            OddsParam("kraft", int, 12, "the target's Kraft"),
            OddsParam("sjal", int, 16, "the target's Själ"),
        ),
        _damage,
    ),
}


# ---- opposed rolls in the dice language: ``d100<=60 vs d100<=55 by quality`` --------------------------------------


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
            _(
                "'by {rule}' judges two d100 rolls against their targets: write {name} as d100<=T (e.g. d100<=60), "
                "not {written}",
                rule=rule,
                name=name,
                written=side.written,
            )
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
        from konflikt.rulesets.levald.options import OPTIONS

        options = OPTIONS.resolve(self.overrides)
        exceptional, by_effect = str(options.exceptional), bool(options.effect_breaks_ties)
        ta, tb = _d100_target(a, "A", self.name), _d100_target(b, "B", self.name)

        def qualities(x: int, y: int) -> tuple[tuple[int, int], tuple[int, int]]:
            return R.quality(x, ta, exceptional, by_effect), R.quality(y, tb, exceptional, by_effect)

        def explain(x: int, y: int) -> str:
            qa, qb = qualities(x, y)
            return " vs ".join(
                _(
                    "{side} {roll} ({level}, effect {effect})",
                    side=side,
                    roll=_d100_text(roll),
                    level=W.level(q[0]),
                    effect=effect(roll),
                )
                for side, roll, q in (("A", x, qa), ("B", y, qb))
            )

        fields = {
            "failure": W.level(R.FAILURE),
            "success": W.level(R.SUCCESS),
            "exceptional": W.level(R.EXCEPTIONAL),
            "rule": exceptional,
        }
        if by_effect:
            note = _(
                "quality = success level ({failure} < {success} < {exceptional}), then the effect (tens + units die) "
                "breaking ties; exceptional: {rule} (rule options of levald, -o name=value)",
                **fields,
            )
        else:
            note = _(
                "quality = success level ({failure} < {success} < {exceptional}), ties not broken by the effect; "
                "exceptional: {rule} (rule options of levald, -o name=value)",
                **fields,
            )
        notes = (note,)
        if self.name == "quality":
            a_wins, b_wins, nobody = _("A wins"), _("B wins"), _("nobody wins")

            def contest(x: int, y: int) -> str:
                winner = R.contest_winner(*qualities(x, y))
                return nobody if winner is None else (a_wins, b_wins)[winner]

            return Judge(contest, (a_wins, nobody, b_wins), _("winner"), notes=notes, explain=explain)

        wins, holds = _("attack wins"), _("defence holds")

        def attack(x: int, y: int) -> str:
            qa, qb = qualities(x, y)
            return wins if R.attack_wins(qa, (qb,)) else holds

        return Judge(attack, (wins, holds), _("attack roll against defence roll"), notes=notes, explain=explain)


def opposed_rules(overrides: Mapping[str, str]) -> tuple[OpposedRule, ...]:
    """Le våld's opposed rolls for the dice language: ``by quality`` (Stridsvana) and ``by attack``."""
    return LevaldRule("quality", overrides), LevaldRule("attack", overrides)
