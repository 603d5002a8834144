"""The compact models a process has built, by the conflict they were built for.

Asked again ("who wins from here" after every step at the table, a second ``odds`` question in one process), a
model answers from the rounds it has already worked out. A few conflicts' models are kept; the whole cache is
dropped when it is full, so a long-running server never holds more than that.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Model = TypeVar("Model")

KEPT = 8
"""How many conflicts' models a cache holds before it starts afresh."""


class ModelCache(Generic[Model]):
    """Models by the identity of the conflict they were built for (a ruleset's model class says what that is)."""

    def __init__(self) -> None:
        self._models: dict[Hashable, Model] = {}

    def get(self, identity: Hashable, build: Callable[[], Model]) -> Model:
        """The model built for ``identity``, built now by ``build`` if this cache has none."""
        model = self._models.get(identity)
        if model is None:
            if len(self._models) >= KEPT:
                self._models.clear()
            model = self._models[identity] = build()
        return model
