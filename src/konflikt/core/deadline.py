"""A time limit that long work checks for itself: the exact solvers' and the runner's loops ask ``check_time()``.

A question asked at a prompt ("who wins from here?") must be answered in about a second, so the exact solver is
stopped when its share of the time is spent. A timer signal that raises inside the work can land anywhere — in a
garbage-collector callback or a ``__del__``, where Python prints it as "unraisable" and carries on — so the limit
is checked instead, cooperatively, at the top of each loop that can run long. The limit lives in a context
variable: a web worker thread's question has its own, and code that runs without one pays one lookup per check.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from konflikt.errors import KonfliktError

_UNTIL: ContextVar[float | None] = ContextVar("konflikt_until", default=None)


class OutOfTime(KonfliktError):
    """The time given to the work inside :func:`deadline` is spent."""


@contextmanager
def deadline(until: float) -> Iterator[None]:
    """Stop the work inside at ``until`` (a ``time.monotonic()`` reading) at its next :func:`check_time`."""
    token = _UNTIL.set(until)
    try:
        yield
    finally:
        _UNTIL.reset(token)


def check_time() -> None:
    """Raise :class:`OutOfTime` when the innermost :func:`deadline` has passed; nothing without one.

    Raises:
        OutOfTime: the time is up.
    """
    until = _UNTIL.get()
    if until is not None and time.monotonic() > until:
        raise OutOfTime("the time given to this question was up")
