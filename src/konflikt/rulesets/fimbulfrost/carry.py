"""Carrying a conflict's results into the next one: updated character documents.

After a conflict the heroes keep what it cost them: the consequences bought (konsekvenser), pool dice spent in
round 3 (gone under the default ``pools_spent``), pools lost to a consequence, and borrowed time taken (lånt tid).
Status is the conflict's own track and starts fresh.
"""

from __future__ import annotations

from typing import Any

from konflikt.core.errors import KonfliktError
from konflikt.core.state import State
from konflikt.rulesets.fimbulfrost.state import POOLS, FimbulfrostState


def carry_over(state: State) -> dict[str, dict[str, Any]]:
    """Participant id → character document (as in a character file) updated by the finished conflict.

    Raises:
        KonfliktError: the state is not a finished fimbulfrost conflict.
    """
    if not isinstance(state, FimbulfrostState):
        raise KonfliktError("carry_over takes a fimbulfrost conflict")
    if not state.is_terminal():
        raise KonfliktError("carry_over takes a finished conflict: this one is not over")
    docs: dict[str, dict[str, Any]] = {}
    for i, hid in enumerate(state.hero_ids):
        doc = state.chars[i].model_dump(exclude_defaults=True)
        doc["name"] = state.chars[i].name
        doc["konsekvenser"] = [*state.chars[i].konsekvenser, *state.taken[i]]
        lost = {e.loses for e in (state.catalogue.entry(x) for x in state.taken[i]) if e.loses}
        for k, name in enumerate(POOLS):
            value = state.pools[i][k] if state.options.pools_spent else getattr(state.chars[i], name)
            doc[name] = 0 if name in lost else value
        doc["laant_tid"] = state.chars[i].laant_tid + state.borrowed[i]
        docs[hid] = {k: v for k, v in doc.items() if v != [] or k == "konsekvenser"}
    opp = state.opp.model_dump(exclude_defaults=True)
    opp["name"] = state.opp.name
    opp["role"] = "opponent"
    opp["konsekvenser"] = [*state.opp.konsekvenser, *state.opp_taken]
    docs[state.opp_id] = opp
    return docs


def dead_heroes(state: FimbulfrostState) -> list[str]:
    """The heroes who died (død) in the conflict: they carry into no next one."""
    return [hid for i, hid in enumerate(state.hero_ids) if state.fate[i] == 2]
