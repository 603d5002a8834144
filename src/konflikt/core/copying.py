"""Fast copies of states: ``State.fork`` copies plain containers and shares what never changes.

``copy.deepcopy`` of a state dominated exact analysis and the reference simulator; a state is mostly lists, dicts
and tuples of numbers, which this copies several times faster, sharing immutable values, rule options, the
``shared`` attributes and pydantic content models.
"""

from __future__ import annotations

import copy
import dataclasses
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from konflikt.core.actions import Action

if TYPE_CHECKING:
    from konflikt.core.state import State

_ATOMS = frozenset({int, str, bool, float, complex, bytes, type(None), Fraction, Action, frozenset})
"""Types copied by sharing: immutable (a frozenset of hashable rule data, an Action of scalars)."""


def _copy(value: Any, memo: dict[int, Any]) -> Any:
    """``copy.deepcopy`` for the plain data states hold (lists, dicts, tuples of numbers), several times faster.

    Aliasing is kept (``memo`` as in deepcopy); pydantic models are content and shared (see ``State._memo``);
    anything unusual falls back to ``copy.deepcopy`` with the same memo.
    """
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        done = memo.get(id(value))
        if done is not None:
            return done
        if _ATOMS.issuperset(map(type, value)):
            out = memo[id(value)] = value[:]
            return out
        out = []
        memo[id(value)] = out
        out.extend(x if type(x) in _ATOMS else _copy(x, memo) for x in value)
        return out
    if kind is tuple:
        if _ATOMS.issuperset(map(type, value)):
            return value
        if id(value) in memo:
            return memo[id(value)]
        items = [x if type(x) in _ATOMS else _copy(x, memo) for x in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else tuple(items)
    if kind is dict:
        done = memo.get(id(value))
        if done is not None:
            return done
        if _ATOMS.issuperset(map(type, value.values())):
            table = memo[id(value)] = value.copy()
            return table
        table = {}
        memo[id(value)] = table
        for k, x in value.items():
            table[k] = x if type(x) in _ATOMS else _copy(x, memo)
        return table
    if id(value) in memo:
        return memo[id(value)]
    if isinstance(value, BaseModel) or _immutable(value):
        return value
    names = _slotted(kind)
    if names is not None:  # a record of the exchange (PWGE's contest, damage roll): field by field
        twin = memo[id(value)] = object.__new__(kind)
        for name in names:
            x = getattr(value, name)
            setattr(twin, name, x if type(x) in _ATOMS else _copy(x, memo))
        return twin
    return copy.deepcopy(value, memo)


_SLOTTED: dict[type, tuple[str, ...] | None] = {}
"""Per type: the field names of a mutable dataclass with slots and no copying of its own, or None."""


def _slotted(kind: type) -> tuple[str, ...] | None:
    """The fields of a mutable ``@dataclass(slots=True)`` whose slots are exactly its fields (nothing else to copy)
    and which copies itself in no special way: copied field by field (``copy.deepcopy`` of one cost a state's fork
    twice over). ``None`` for any other type."""
    if kind in _SLOTTED:
        return _SLOTTED[kind]
    names: tuple[str, ...] | None = None
    if dataclasses.is_dataclass(kind) and _plain_copy(kind) and kind.__new__ is object.__new__:
        fields = tuple(f.name for f in dataclasses.fields(kind))
        slots = vars(kind).get("__slots__")
        if (
            slots is not None
            and tuple(slots) == fields
            and all(not vars(c).get("__slots__") for c in kind.__mro__[1:-1])
        ):
            names = fields
    _SLOTTED[kind] = names
    return names


_FROZEN: dict[type, tuple[str, ...] | None] = {}
"""Per type: the field names of a frozen dataclass, or None for any other type."""


def _immutable(value: Any) -> bool:
    """An atom, or a tuple or frozen dataclass (a fighter's fixed facts) made of immutable values: safe to share."""
    kind = type(value)
    if kind in _ATOMS:
        return True
    if kind is tuple:
        return all(_immutable(x) for x in value)
    if kind not in _FROZEN:
        params = getattr(kind, "__dataclass_params__", None)
        frozen = params is not None and params.frozen and dataclasses.is_dataclass(kind)
        _FROZEN[kind] = tuple(f.name for f in dataclasses.fields(kind)) if frozen else None
    names = _FROZEN[kind]
    return names is not None and all(_immutable(getattr(value, name)) for name in names)


_PLAIN: dict[type, bool] = {}
_KEEP: dict[type, frozenset[str]] = {}
"""Per state class: the attributes a copy shares (options, ``shared``) or replaces (the history)."""


def _plain_copy(kind: type) -> bool:
    """No copying of its own: none of the hooks ``copy`` would call is overridden."""
    return not any(
        getattr(kind, name, None) is not getattr(object, name, None)
        for name in ("__deepcopy__", "__copy__", "__reduce_ex__", "__reduce__", "__getstate__", "__setstate__")
    )


def _plain_class(kind: type) -> bool:
    """A state class whose copy is its ``__dict__`` copied: no custom copying, no slots."""
    known = _PLAIN.get(kind)
    if known is not None:
        return known
    custom = not _plain_copy(kind)
    known = _PLAIN[kind] = not custom and not any(vars(c).get("__slots__") for c in kind.__mro__[:-1])
    return known


def fork(state: State) -> State:
    """A copy of ``state`` without history; rule options and ``shared`` attributes are shared."""
    kind = type(state)
    if not _plain_class(kind):
        return state.deep_fork()
    source = vars(state)
    memo: dict[int, Any] = {id(state.options): state.options}
    for name in kind.shared:
        value = getattr(state, name)
        memo[id(value)] = value
    keep = _KEEP.get(kind)
    if keep is None:
        keep = _KEEP[kind] = frozenset(("options", "_steps", "_events", *kind.shared))
    atoms = _ATOMS
    twin = kind.__new__(kind)
    target = vars(twin)
    for name, value in source.items():
        if type(value) in atoms or name in keep:
            target[name] = value
        elif type(value) is list and id(value) not in memo and atoms.issuperset(map(type, value)):
            target[name] = memo[id(value)] = value[:]
        else:
            target[name] = _copy(value, memo)
    target["_steps"], target["_events"] = [], []
    return twin
