"""Presja's balancing report, as data: is there a dominant declaration, and when is conceding right?

``konflikt report presja-choices`` (run by :mod:`konflikt.reports.choices`) solves the knife fight of the text with
both sides declaring optimally (the round game of :mod:`.game`: invocations, fate points and absorbing stay the
heuristic's) and counts each declaration — atak, obrona or ruch with a taktyka, or poddanie się — with what the best
other declaration costs. Conceding ("poddaj się", the text's own rule) is reported on its own: where it is as good as
fighting on, and what it costs elsewhere.
"""

from __future__ import annotations

from collections.abc import Hashable

from konflikt.core.reports import Choices, Report
from konflikt.rulesets.presja.game import KIND_WORDS, TACTIC_WORDS
from konflikt.rulesets.presja.kernel_exchange import Decl

CONCEDE = "poddanie się (concede)"


def choice_group(choice: Hashable) -> tuple[str, str] | None:
    """A declaration as (``deklaracja (declaration)``, its kind and taktyka)."""
    if not isinstance(choice, Decl):
        return None
    if choice.kind == "concede":
        return "deklaracja (declaration)", CONCEDE
    tactic = TACTIC_WORDS.get(choice.tactic, choice.tactic).split(" (")[0]
    return "deklaracja (declaration)", f"{KIND_WORDS.get(choice.kind, choice.kind)}, {tactic}"


REPORTS = {
    "choices": Report(
        name="choices",
        title="is there a dominant declaration, and when is conceding right? the knife fight under optimal play",
        summary=(
            "Solves the knife fight with both sides declaring optimally and counts each declaration (attack, defend "
            "or move with a tactic, or concede) with what the best other declaration costs; then where conceding is "
            "as good as fighting on."
        ),
        content=Choices(
            scenarios=("presja/knife_fight",),
            group=choice_group,
            concede=CONCEDE,
            scenario_words="Belzee against Massimo, both declaring optimally (the rest heuristic)",
        ),
        n=1,
    )
}
