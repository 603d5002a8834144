"""The small records of one exchange: a deed (action or response), the exchange, an opposed roll, a damage roll.

They are plain dataclasses of ints, strings and tuples so that the state stays cheap to copy and its key() is a
tuple of them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

DIFFICULTY = -1
"""The ``b`` side of a contest that is a difficulty roll (2T, 2T+2, 2T+4), not a person."""


@dataclass(frozen=True, slots=True)
class Deed:
    """A handling (action) or svarshandling (response) declared at the table.

    Attributes:
        role: ``action`` or ``response``.
        actor, target: participant indices.
        kind: ``attack``, ``distance`` (change distance), ``press`` (a diplomatic/social move), ``switch``
            (switch weapons) or ``other`` (any other handling, told at the table).
        weapon: ``melee`` or ``ranged`` for an attack; the weapon switched to for ``switch``.
        way: ``closer`` or ``farther`` for a distance change.
        countered: the target paid for a mothandling (counter) against it.
        free: a frislag (free attack on a surprised foe): no token, no response.
        rolled: an ``other`` handling the GM wants rolled for even when nobody counters it.
        at: the distance code the deed is made at, when it is not the usual one (a response that meets someone
            closing in strikes where the closing lands); -1: the usual one.
    """

    role: str
    actor: int
    target: int
    kind: str
    weapon: str = ""
    way: str = ""
    countered: bool = False
    free: bool = False
    rolled: bool = False
    at: int = -1


@dataclass(slots=True)
class Exchange:
    """One action with its counter, its response and the response's counter, then their resolution."""

    action: Deed
    snapshot: int
    """The pair's distance code when the action was declared (simultaneous deeds both see it)."""
    response: Deed | None = None
    order: str = "simultaneous"
    """``simultaneous``, ``action`` (the action first) or ``response`` (the response first)."""
    queue: tuple[Deed, ...] = ()
    pos: int = 0

    def key(self) -> tuple[Any, ...]:
        return _fields(self)


@dataclass(slots=True)
class Contest:
    """An opposed roll (or a roll against a difficulty) with its topping.

    ``a`` rolls 2T + ``a_mod``; ``b`` (a person, or :data:`DIFFICULTY`) rolls 2T + ``b_mod``. ``tie`` is ``b`` when
    a tie holds for ``b`` (the counter, the holder, the difficulty) and ``none`` when a tie decides nothing (order).
    The one behind may top (reroll) for a token, again and again.
    """

    purpose: str
    a: int
    b: int
    a_mod: int
    b_mod: int
    tie: str = "b"
    a_roll: int | None = None
    b_roll: int | None = None
    a_tops: int = 0
    b_tops: int = 0
    declined: tuple[int, ...] = ()
    label: str = ""
    a_parts: str = ""
    """What ``a_mod`` is made of, in words (``Smidighet 4 + Svärdskonst 2 + svärd 1``)."""
    b_parts: str = ""
    """What ``b_mod`` is made of, in words."""

    def winner(self) -> str:
        """``a``, ``b`` or ``tie`` (only when ``tie`` is ``none``)."""
        assert self.a_roll is not None and self.b_roll is not None
        if self.a_roll > self.b_roll:
            return "a"
        if self.b_roll > self.a_roll or self.tie == "b":
            return "b"
        return "tie"

    def behind(self) -> tuple[int, ...]:
        """The people who are behind and so may top, in the order they are asked."""
        result = self.winner()
        if result == "a":
            return (self.b,) if self.b != DIFFICULTY else ()
        if result == "b":
            return (self.a,)
        return (self.a, self.b)

    def key(self) -> tuple[Any, ...]:
        return _fields(self)


@dataclass(slots=True)
class DamageRoll:
    """A skadeslag (damage roll) with its topping protocol.

    Stages: ``attacker`` (may top), ``defender`` (may mot-toppa, counter-top), ``cct`` (the attacker answers a
    counter-top: mot-mot-toppa to keep the roll, or reroll).
    """

    attacker: int
    defender: int
    modifier: int
    armour: int
    social: bool = False
    parts: str = ""
    """What ``modifier`` is made of, in words (``svärd 2`` or ``ammunition 1``)."""
    roll: int | None = None
    stage: str = "attacker"
    tops: int = 0
    """The attacker's tops of this roll (``max_tops_per_roll`` bounds them)."""
    counter_tops: int = 0
    """The defender's counter-tops of this roll (``max_tops_per_roll`` bounds them too)."""

    def key(self) -> tuple[Any, ...]:
        return _fields(self)


def _fields(record: Any) -> tuple[Any, ...]:
    """The record's fields as a flat tuple: a cheap key (``astuple`` deep-copies, and keys are built constantly)."""
    return tuple(getattr(record, f.name) for f in fields(record))
