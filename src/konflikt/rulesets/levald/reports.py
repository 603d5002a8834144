"""Le våld's balancing report, as data: a round robin of the weapon table beside the text's hand-made "Bra".

The text rates each weapon with a number "Bra" (good). The report (``konflikt report levald-weapons``, run by
:mod:`konflikt.reports.round_robin`) plays every ordered pair of weapons, and each weapon against itself, at equal
skill: two fighters identical but for their weapons (:func:`konflikt.rulesets.levald.scenarios.duel_document`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from konflikt.core.actions import Action
from konflikt.core.reports import Choices, Entrant, Report, RoundRobin, decision_named
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
DECISIONS = (
    (MOVEMENT, "Rörelse (movement, secret)"),
    (frozenset({"attack", "regain"}), "Anfalla eller inte (attack or not)"),
    (frozenset({"ground"}), "Vinna terräng (gain ground)"),
    (frozenset({"defend", "counter"}), "Försvar (defence)"),
)
OPTIONS = {
    "advance": "Avancera (advance)",
    "hold": "Bibehålla (hold)",
    "retreat": "Retirera (retreat)",
    "leave": "Lämna (leave the fight)",
    "attack": "Utföra ett anfall (attack)",
    "regain": "Låta bli att anfalla (do not attack: both regain 1 Gard)",
    "defend": "Försvara sig (defend)",
    "counter": "Kontra (counter-attack)",
}


def decision(kinds: Sequence[str]) -> str | None:
    """The kind of a decision, from the kinds of its legal actions (``None``: not one the report counts)."""
    return decision_named(kinds, DECISIONS)


def option(action: Hashable) -> tuple[str, str] | None:
    """An action as (its decision, its option), in the text's words with English."""
    if not isinstance(action, Action):
        return None
    kind = decision([action.kind])
    if kind is None:
        return None
    if action.kind == "ground":
        follows = action.get("step", 0) == 0
        return kind, "följer efter (follows)" if follows else "följer inte efter (does not follow, +1 step)"
    return kind, OPTIONS.get(action.kind, action.kind)


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
