"""What an exact model, a round game, a policy or a state may offer beyond its contract, declared.

The solvers in ``konflikt.analysis`` ask ``isinstance(model, Propagates)`` where they once probed with ``getattr``
and ``hasattr``: each optional capability is named here once, with what it promises, so a ruleset's model says what
it can do by having the methods, and a reader finds every capability a solver may use in one file. The protocols are
structural (``runtime_checkable``): a model needs no base class, only the members.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

import numpy as np

from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.batch import Batch
from konflikt.core.state import State


@runtime_checkable
class Marks(Protocol):
    """A model that records marks along the chain (consequences taken, wound boxes ticked) which its end labels
    leave out: what a step from ``before`` to ``after`` marks."""

    def marks(self, before: Hashable, after: Hashable) -> list[Hashable]: ...


@runtime_checkable
class Holds(Protocol):
    """A model with marks already true at a State (what the conflict has marked before the model starts)."""

    def held(self, state: State) -> list[Hashable]: ...


@runtime_checkable
class HeldInKey(Protocol):
    """A model whose compact states carry the marks held (so a start may be shared whatever was held)."""

    held_in_key: bool


@runtime_checkable
class StepsInBatches(Protocol):
    """A model that steps many compact states at once (vectorised), faster than one by one."""

    def successors_batch(self, compacts: Sequence[Hashable]) -> list[tuple[int, list[tuple[Hashable, int]]]]: ...


@runtime_checkable
class Enters(Protocol):
    """A model that enters a round in the middle: the round starts a mid-round State leads to, each with its
    probability (``None`` where it cannot load the State)."""

    def enter(self, state: State) -> list[tuple[Hashable, Fraction]] | None: ...


@runtime_checkable
class StartsFrom(Protocol):
    """A vectorised kernel that starts a batch from a State of its conflict, not only from the opening.

    ``start_from`` reads ``state`` into the kernel's starting arrays (a table row, a start vector, the names held),
    exactly, or returns ``None`` where the kernel cannot represent that point (the middle of a round, another
    conflict): the caller then steps the State API on to the points it can, over every chance outcome and policy
    choice with its probability, as the exact odds bridge to a model's round starts, and plays from each. ``run_from``
    plays ``n`` conflicts from one such start, with the labels the reference runner writes (its lengths count the
    steps from the start on, as the reference runner counts them on a fork of the State)."""

    def start_from(self, state: State) -> Any | None: ...

    def run_from(self, start: Any, n: int, rng: np.random.Generator) -> Batch: ...


@runtime_checkable
class Labels(Protocol):
    """A model that labels an ended State itself (its labels differ from ``outcome_label``'s)."""

    def label(self, state: State) -> Hashable: ...


@runtime_checkable
class Propagates(Protocol):
    """A model that pushes its float odds forward itself (Le våld), round by round, at most ``max_live`` starts
    alive in a round."""

    def propagate(self, weighted: Sequence[tuple[Hashable, Fraction]], max_live: int) -> Any: ...


@runtime_checkable
class SolvesBlocks(Protocol):
    """A model that solves its float odds without the clock, block by block (Le våld's Omtöckning): each label's
    probability and the mean length, not the length's distribution."""

    def solve_blocks(self, weighted: Sequence[tuple[Hashable, Fraction]], max_states: int) -> Any: ...


@runtime_checkable
class PreparesWinners(Protocol):
    """A model that prepares each side's chance from every state its solve meets, once, for the table's questions
    (:class:`WinnersFrom` then answers them)."""

    def prepare_winners(self, state: State, max_states: int | None = None) -> None: ...


@runtime_checkable
class WinnersFrom(Protocol):
    """A model that answers who wins from weighted compact starts out of prepared values (``None`` where it has
    none for them), with its error bound."""

    def winners_from(
        self, weighted: Sequence[tuple[Hashable, Fraction]]
    ) -> tuple[dict[Hashable, float], float] | None: ...


@runtime_checkable
class ClocklessChain(Protocol):
    """A model whose chain is solved without its round counter: ``clock`` (a compact state as its clockless part
    and its round), ``step`` (one round on, without the counter), ``at_cap`` (the end when the cap stops it) and
    ``cap``."""

    cap: int

    def clock(self, compact: Hashable) -> tuple[Hashable, int]: ...

    def step(self, clockless: Hashable) -> tuple[int, Sequence[tuple[Hashable, int]]]: ...

    def at_cap(self, clockless: Hashable) -> Hashable: ...


@runtime_checkable
class NamesRounds(Protocol):
    """A round game whose rounds have a name of their own in the system's words (``None``: its steps are decisions,
    not numbered rounds)."""

    round_name: str | None


@runtime_checkable
class DescribesStates(Protocol):
    """A round game that says a compact state in words (for the decisions a report lists)."""

    def describe_state(self, compact: Hashable) -> str: ...


@runtime_checkable
class Spreads(Protocol):
    """A policy that says how it chooses, as (action, probability): exact analysis enumerates it."""

    def action_distribution(self, state: State, seat: str) -> list[tuple[Action, Any]]: ...


@runtime_checkable
class ChanceClasses(Protocol):
    """A State whose pending roll's outcomes fall into classes the rules cannot tell apart (Le våld's d100 by
    quality and effect): one outcome stands for each class, with the class's probability."""

    def chance_classes(self) -> list[tuple[ChanceOutcome, Fraction]]: ...
