"""PWGE's balancing report, as data: is there a dominant choice in the duel on Kerberos?

The text is the Gamist's Edition: its players optimise. Optimal play of the whole duel is out of the report's reach
(the exact model answers the heuristic's odds in tens of seconds; optimising every counter, top and order bid
multiplies that), so ``konflikt report pwge-choices`` (run by :mod:`konflikt.reports.choices`) takes one step of
policy improvement over the heuristic: each option at each decision met in heuristic play scored by seeded
playouts, with standard errors. Estimates, not optimal play, and the report says so.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from konflikt.core.actions import Action
from konflikt.core.reports import Choices, Report, decision_named
from konflikt.rulesets.pwge.i18n import pgettext


def decisions() -> tuple[tuple[frozenset[str], str], ...]:
    """The decisions the report counts, each named in the language in use."""
    return (
        (frozenset({"attack", "distance", "other", "pass"}), pgettext("report", "action on the open floor")),
        (frozenset({"respond", "no_response"}), pgettext("report", "response")),
        (frozenset({"counter", "no_counter"}), pgettext("report", "counter")),
        (frozenset({"order", "no_order"}), pgettext("report", "order, secret")),
        (frozenset({"top", "accept"}), pgettext("report", "top one's throw")),
        (frozenset({"counter_top", "accept"}), pgettext("report", "counter-top")),
        (frozenset({"counter_counter_top", "reroll"}), pgettext("report", "counter-counter-top")),
    )


def options() -> dict[str, str]:
    """Each option of a decision in words."""
    return {
        "attack": pgettext("report", "attack"),
        "distance": pgettext("report", "change distance"),
        "other": pgettext("report", "something else"),
        "pass": pgettext("report", "pass"),
        "respond": pgettext("report", "respond"),
        "no_response": pgettext("report", "no response"),
        "counter": pgettext("report", "counter"),
        "no_counter": pgettext("report", "no counter"),
        "order": pgettext("report", "set order"),
        "no_order": pgettext("report", "no order"),
        "top": pgettext("report", "top"),
        "accept": pgettext("report", "accept"),
        "counter_top": pgettext("report", "counter-top"),
        "counter_counter_top": pgettext("report", "counter-counter-top"),
        "reroll": pgettext("report", "throw the damage again"),
    }


def details() -> dict[str, str]:
    """A deed, weapon or way in words."""
    return {
        "melee": pgettext("report", "melee"),
        "ranged": pgettext("report", "ranged"),
        "closer": pgettext("report", "closer"),
        "farther": pgettext("report", "farther"),
    }


def decision(kinds: Sequence[str]) -> str | None:
    """The kind of a decision, from the kinds of its legal actions (``None``: not one the report counts)."""
    return decision_named(kinds, decisions(), least=2)


def option(action: Hashable) -> tuple[str, str] | None:
    """An action as (its decision, its option): the deed, its weapon or way, and whether an erfarenhetstärning
    (experience die) pays instead of a token."""
    if not isinstance(action, Action):
        return None
    kinds = [d for words, d in decisions() if action.kind in words]
    named = options()
    if not kinds or action.kind not in named:
        return None
    words = named[action.kind]
    said = details()
    for arg in ("deed", "weapon", "way"):
        value = action.get(arg)
        if value is not None and not (arg == "deed" and value == "attack" and action.get("weapon") is not None):
            words += ", " + said.get(str(value), named.get(str(value), str(value)))
    if action.get("roll") == "yes":
        words += ", " + pgettext("report", "rolled for")
    if action.get("pay") == "die":
        words += ", " + pgettext("report", "paid with an experience die")
    return kinds[0] if len(kinds) == 1 else pgettext("report", "top or counter-top"), words


CHOICES = Report(
    name="choices",
    title="is there a dominant choice? the duel on Kerberos, one step of improvement over the heuristic",
    summary=(
        "Optimal play of a PWGE duel is out of the report's reach, so one step of policy improvement: at each "
        "decision met in -n duels of heuristic play, every option (action, response, counter, order, top) is scored "
        "by seeded playouts of the heuristic; how often the improved choice takes each option, beside the heuristic, "
        "and what the best other option costs, with standard errors. Estimates, not optimal play."
    ),
    content=Choices(
        scenarios=("pwge/duel",),
        group=option,
        scenario_words="Kapten Nova against Zorak on Kerberos: one step of improvement over the heuristic (estimated)",
        method="rollout",
        decision=decision,
        playouts=6,
    ),
    n=4,
)

REPORTS = {CHOICES.name: CHOICES}
"""The balancing reports of PWGE (``Ruleset.reports``)."""
