"""Memoised actions: the hot path builds the same few actions over and over, and ``Action.of`` sorts each time."""

from __future__ import annotations

from typing import Any

from konflikt.core.actions import Action

_MEMO: dict[tuple[Any, ...], Action] = {}


def act(kind: str, **args: Any) -> Action:
    """``Action.of(kind, **args)``, built once per distinct value (arguments must be hashable scalars)."""
    key = (kind, *args.items())
    found = _MEMO.get(key)
    if found is None:
        found = _MEMO[key] = Action.of(kind, **args)
    return found
