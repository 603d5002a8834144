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

DECISIONS = (
    (frozenset({"attack", "distance", "other", "pass"}), "handling (action on the open floor)"),
    (frozenset({"respond", "no_response"}), "svarshandling (response)"),
    (frozenset({"counter", "no_counter"}), "mothandling (counter)"),
    (frozenset({"order", "no_order"}), "turordning (order, secret)"),
    (frozenset({"top", "accept"}), "toppa (top one's throw)"),
    (frozenset({"counter_top", "accept"}), "mot-toppa (counter-top)"),
    (frozenset({"counter_counter_top", "reroll"}), "mot-mot-toppa (counter-counter-top)"),
)
OPTIONS = {
    "attack": "anfall (attack)",
    "distance": "ändra avstånd (change distance)",
    "other": "something else",
    "pass": "passa (pass)",
    "respond": "svarshandling (respond)",
    "no_response": "no response",
    "counter": "mothandling (counter)",
    "no_counter": "no counter",
    "order": "sätta turordning (set order)",
    "no_order": "no order",
    "top": "toppa (top)",
    "accept": "accept",
    "counter_top": "mot-toppa (counter-top)",
    "counter_counter_top": "mot-mot-toppa (counter-counter-top)",
    "reroll": "slå om (throw the damage again)",
}
DETAILS = {
    "melee": "närstrid (melee)",
    "ranged": "avstånd (ranged)",
    "closer": "closer",
    "farther": "farther",
}


def decision(kinds: Sequence[str]) -> str | None:
    """The kind of a decision, from the kinds of its legal actions (``None``: not one the report counts)."""
    return decision_named(kinds, DECISIONS, least=2)


def option(action: Hashable) -> tuple[str, str] | None:
    """An action as (its decision, its option): the deed, its weapon or way, and whether an erfarenhetstärning
    (experience die) pays instead of a token."""
    if not isinstance(action, Action):
        return None
    kinds = [d for words, d in DECISIONS if action.kind in words]
    if not kinds or action.kind not in OPTIONS:
        return None
    words = OPTIONS[action.kind]
    for arg in ("deed", "weapon", "way"):
        value = action.get(arg)
        if value is not None and not (arg == "deed" and value == "attack" and action.get("weapon") is not None):
            words += f", {DETAILS.get(str(value), OPTIONS.get(str(value), str(value)))}"
    if action.get("roll") == "yes":
        words += ", rolled for"
    if action.get("pay") == "die":
        words += ", paid with an erfarenhetstärning (experience die)"
    return kinds[0] if len(kinds) == 1 else "toppa / mot-toppa (top)", words


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
