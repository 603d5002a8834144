"""Le våld's balancing report, as data: a round robin of the weapon table beside the text's hand-made "Bra".

The text rates each weapon with a number "Bra" (good). The report (``konflikt report levald-weapons``, run by
:mod:`konflikt.reports.round_robin`) plays every ordered pair of weapons, and each weapon against itself, at equal
skill: two fighters identical but for their weapons (:func:`konflikt.rulesets.levald.scenarios.duel_document`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from konflikt.core.actions import Action
from konflikt.core.reports import Choices, Entrant, Report, RoundRobin, decision_named
from konflikt.rulesets.levald import words as W
from konflikt.rulesets.levald.i18n import pgettext
from konflikt.rulesets.levald.models import bundled_weapons
from konflikt.rulesets.levald.scenarios import duel_document


def weapons() -> list[Entrant]:
    """The text's weapon table with its "Bra"."""
    return [Entrant(w.name, w.english, w.bra) for w in bundled_weapons()]


def duel(a: str, b: str, skill: int) -> dict[str, object]:
    """Two equal fighters, ``a``'s weapon against ``b``'s, every skill at ``skill`` %."""
    return duel_document(a, b, skill)


WEAPONS = Report(
    name="weapons",
    title='Le våld: the weapons rated by duels at equal skill, beside the text\'s "Bra"',
    summary=(
        "A round robin of duels over the weapon table at equal skill (Kraft 12, Själ 12, Stridsvana 50, Gard 12, "
        'heuristic seats): a Bradley–Terry rating per weapon beside the text\'s "Bra", shown as the chance to beat '
        "Svärd (sword); mirror matches check that the duel favours no seat."
    ),
    content=RoundRobin(
        entrants=weapons,
        match=duel,
        baseline="Svärd",
        entrant_word="Vapen (weapon)",
        scenario_words="duel of two fighters identical but for their weapons (Kraft 12, Själ 12, Stridsvana 50, "
        "Gard 12, start at Fri)",
        reference_name='"Bra"',
        level_name="skill",
        level_unit="%",
        levels=(40, 60, 80),
        level_range=(1, 200),
    ),
    n=2000,
)

MOVEMENT = frozenset({"advance", "hold", "retreat", "leave"})
KINDS = (MOVEMENT, frozenset({"attack", "regain"}), frozenset({"ground"}), frozenset({"defend", "counter"}))
"""The decisions the choices report counts, by their action kinds (named by :func:`decisions`)."""


def decisions() -> tuple[tuple[frozenset[str], str], ...]:
    """The decisions with their names in the language in use."""
    names = (
        pgettext("decision", "Movement (secret)"),
        pgettext("decision", "Attack or not"),
        pgettext("decision", "Gain ground"),
        pgettext("decision", "Defence"),
    )
    return tuple(zip(KINDS, names, strict=True))


OPTIONS = {
    "advance": lambda: W.MOVES["advance"],
    "hold": lambda: W.MOVES["hold"],
    "retreat": lambda: W.MOVES["retreat"],
    "leave": lambda: W.MOVES["leave"],
    "attack": lambda: pgettext("report option", "Attack"),
    "regain": lambda: pgettext("report option", "Do not attack: both regain 1 Gard"),
    "defend": lambda: pgettext("report option", "Defend"),
    "counter": lambda: pgettext("report option", "Counter-attack"),
}
"""Each option in words, by action kind."""


def decision(kinds: Sequence[str]) -> str | None:
    """The kind of a decision, from the kinds of its legal actions (``None``: not one the report counts)."""
    return decision_named(kinds, decisions())


def option(action: Hashable) -> tuple[str, str] | None:
    """An action as (its decision, its option), in the words of the language in use."""
    if not isinstance(action, Action):
        return None
    kind = decision([action.kind])
    if kind is None:
        return None
    if action.kind == "ground":
        if action.get("step", 0) == 0:
            return kind, pgettext("report option", "follows")
        return kind, pgettext("report option", "does not follow (+1 step)")
    return kind, OPTIONS[action.kind]() if action.kind in OPTIONS else action.kind


CHOICES = Report(
    name="choices",
    title="is there a dominant choice? the duel at the bridge, one step of improvement over the heuristic",
    summary=(
        "Where optimal play of a Le våld duel is out of reach, one step of policy improvement: at each decision met "
        "in -n duels of heuristic play, every option (movement, attack or not, gaining ground, defence) is scored by "
        "seeded playouts of the heuristic; how often the improved choice takes each option, beside the heuristic, "
        "and what the best other option costs, with standard errors. Estimates, not optimal play."
    ),
    content=Choices(
        scenarios=("levald/duel",),
        group=option,
        scenario_words="Snurre against Hedda at the bridge: one step of improvement over the heuristic (estimated)",
        method="rollout",
        decision=decision,
        playouts=16,
    ),
    n=10,
)

REPORTS = {WEAPONS.name: WEAPONS, CHOICES.name: CHOICES}
"""The balancing reports of Le våld (``Ruleset.reports``)."""
