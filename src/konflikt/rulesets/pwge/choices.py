"""The fixed choices of PWGE's decision nodes (the rest carry a target, a weapon or a way)."""

from __future__ import annotations

from konflikt.core.actions import Action

PASS = Action.of("pass")
COUNTER = Action.of("counter")
NO_COUNTER = Action.of("no_counter")
NO_RESPONSE = Action.of("no_response")
ORDER = Action.of("order")
NO_ORDER = Action.of("no_order")
TOP = Action.of("top")
ACCEPT = Action.of("accept")
COUNTER_TOP = Action.of("counter_top")
COUNTER_COUNTER_TOP = Action.of("counter_counter_top")
REROLL = Action.of("reroll")
NO_FREE_ATTACK = Action.of("no_free_attack")

SPENDING = frozenset(
    {"attack", "distance", "press", "other", "switch", "counter", "respond", "order", "top", "counter_top"}
    | {"counter_counter_top"}
)
"""The kinds of choice that cost a token; with the experience-dice rule each is offered paid with a die as well
(``pay="die"``)."""


def paid_with_die(action: Action) -> bool:
    """Whether the spender pays this choice with an erfarenhetstärning (experience die) instead of a token."""
    return bool(action.get("pay") == "die")


def without_payment(action: Action) -> Action:
    """The choice itself, whatever it is paid with."""
    return Action(action.kind, tuple((k, v) for k, v in action.args if k != "pay"))
