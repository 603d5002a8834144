"""Le våld's balancing report, as data: a round robin of the weapon table beside the text's hand-made "Bra".

The text rates each weapon with a number "Bra" (good). The report (``konflikt report levald-weapons``, run by
:mod:`konflikt.reports.round_robin`) plays every ordered pair of weapons, and each weapon against itself, at equal
skill: two fighters identical but for their weapons (:func:`konflikt.rulesets.levald.scenarios.duel_document`).
"""

from __future__ import annotations

from konflikt.core.reports import Entrant, Report, RoundRobin
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

REPORTS = {WEAPONS.name: WEAPONS}
"""The balancing reports of Le våld (``Ruleset.reports``)."""
