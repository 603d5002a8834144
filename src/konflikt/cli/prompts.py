"""Asking a seat for its decision at the terminal: numbered choices in the system's words, or the action text."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console

from konflikt.core.actions import Action
from konflikt.core.state import GM, State
from konflikt.errors import InvalidActionError


def seat_label(state: State, seat: str) -> str:
    if seat == GM:
        return "the GM (prowadzący / spelledare / spilleder)"
    names = getattr(state, "names", None)
    name = names.get(seat) if isinstance(names, dict) else None
    return f"{name} ({seat})" if name and name != seat else seat


def list_choices(console: Console, state: State, seat: str, legal: Sequence[Action]) -> None:
    console.print(f"\n{seat_label(state, seat)} decides:", style="bold", highlight=False)
    for i, action in enumerate(legal, 1):
        console.print(f"  {i:>2}. {state.describe_action(seat, action)}", highlight=False, markup=False)


def read_choice(text: str, state: State, seat: str, legal: Sequence[Action]) -> Action:
    """A number from the list, or the action's own text (``attack target=massimo``).

    Raises:
        InvalidActionError: neither; the message says what would be accepted.
    """
    raw = text.strip()
    if raw.isascii() and raw.isdigit():  # not '²' or '①' (isdigit, but int() refuses them)
        if len(raw) > 9:
            raise InvalidActionError(f"{raw[:12]}… is not on the list: type a number from 1 to {len(legal)}")
        index = int(raw)
        if 1 <= index <= len(legal):
            return legal[index - 1]
        raise InvalidActionError(f"{raw} is not on the list: type a number from 1 to {len(legal)}")
    try:
        action = Action.parse(raw)
    except InvalidActionError:
        raise InvalidActionError(
            f"{raw!r} is neither a number from 1 to {len(legal)} nor an action (type 'help' for the commands)"
        ) from None
    if action not in legal:
        raise InvalidActionError(f"{raw!r} is not possible now: {state.why_illegal(seat, action)}")
    return action
