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
