"""Asking a seat for its decision at the terminal: numbered choices in the system's words, or the words themselves.

A player types a number, the action's own text (``attack target=massimo``), or words of the choice as it is shown,
in the system's language or the English beside it (``atak``, ``attack Massimo``, ``avancera``, ``advance``,
``angreb``). A word that fits no choice gets the closest words that do; a word that fits several gets their numbers.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Mapping, Sequence

from rich.console import Console

from konflikt.core.actions import Action
from konflikt.core.state import GM, State
from konflikt.errors import InvalidActionError


def seat_label(state: State, seat: str, names: Mapping[str, str] | None = None) -> str:
    """The seat's name (from ``names``, or the state's own ``names``), or the GM in the systems' words."""
    if seat == GM:
        return "the GM (prowadzący / spelledare / spilleder)"
    known = names if names is not None else getattr(state, "names", None)
    name = known.get(seat) if isinstance(known, Mapping) else None
    return name or seat


def list_choices(
    console: Console, state: State, seat: str, legal: Sequence[Action], names: Mapping[str, str] | None = None
) -> None:
    console.print(f"\n{seat_label(state, seat, names)} decides:", style="bold", highlight=False)
    for i, action in enumerate(legal, 1):
        console.print(f"  {i:>2}. {state.describe_action(seat, action)}", highlight=False, markup=False)


def fold(text: str) -> str:
    """Lower case without accents, so ``Lämna``, ``lamna`` and ``LÄMNA`` read alike (``ø`` and ``ł`` too)."""
    text = text.lower().replace("ø", "o").replace("ł", "l").replace("æ", "ae").replace("ß", "ss")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def words_of(text: str) -> list[str]:
    """The words of a choice's text (letters and digits; brackets, colons and quotes are not words)."""
    cleaned = "".join(c if c.isalnum() or c in "-_" else " " for c in fold(text))
    return [w for w in cleaned.replace("_", " ").split() if w]


def choice_words(state: State, seat: str, action: Action) -> list[str]:
    """Everything a player may type to mean ``action``: the words it is shown with, and its own kind and values."""
    words = words_of(state.describe_action(seat, action))
    words += words_of(str(action).replace("=", " "))
    return words


def head_words(state: State, seat: str, action: Action) -> list[str]:
    """The words that name a choice: its text before the first colon (``atak na (attack) Massimo``), and its kind."""
    return words_of(state.describe_action(seat, action).split(":")[0]) + words_of(action.kind)


def read_choice(text: str, state: State, seat: str, legal: Sequence[Action]) -> Action:
    """A number from the list, the action's own text (``attack target=massimo``), or words of one choice.

    Raises:
        InvalidActionError: none of these; the message says what would be accepted, with the closest words.
    """
    raw = text.strip()
    count = len(legal)
    if raw.isascii() and raw.isdigit():  # not '²' or '①' (isdigit, but int() refuses them)
        if len(raw) > 9:
            raise InvalidActionError(f"{raw[:12]}… is not on the list: type a number from 1 to {count}")
        index = int(raw)
        if 1 <= index <= count:
            return legal[index - 1]
        raise InvalidActionError(f"{raw} is not on the list: type a number from 1 to {count}")
    for action in legal:
        if raw == str(action):
            return action
    typed = words_of(raw)
    if any(c.isalpha() for c in "".join(typed)):  # a number that is not on the list is never read as words
        fits = [i for i, action in enumerate(legal) if _fits(typed, choice_words(state, seat, action))]
        if len(fits) > 1:  # a word that names a choice beats one that only appears in another's explanation
            named = [i for i in fits if _fits(typed[:1], head_words(state, seat, legal[i]))]
            fits = named or fits
        if len(fits) == 1:
            return legal[fits[0]]
        if len(fits) > 1:
            numbers = ", ".join(str(i + 1) for i in fits[:12]) + (" …" if len(fits) > 12 else "")
            raise InvalidActionError(f"{raw!r} fits {len(fits)} choices ({numbers}): type the number, or more words")
    if "=" in raw:
        try:
            action = Action.parse(raw)
        except InvalidActionError:
            pass
        else:
            if action in legal or action in state.legal_actions(seat):  # the state's own test (a named absorb)
                return action
            raise InvalidActionError(f"not possible now: {state.why_illegal(seat, action)}")
    raise InvalidActionError(f"{raw[:60]!r} is not a choice now: {_suggest(typed, state, seat, legal)}")


def _fits(typed: list[str], words: list[str]) -> bool:
    """Every typed word begins a word of the choice (``atak`` fits ``atak na (attack) Massimo``; ``mas`` too)."""
    return all(any(w.startswith(t) for w in words) for t in typed)


def _suggest(typed: list[str], state: State, seat: str, legal: Sequence[Action]) -> str:
    """The closest words of the choices to what was typed, with their numbers."""
    count = len(legal)
    vocabulary: dict[str, list[int]] = {}
    for i, action in enumerate(legal, 1):
        for word in choice_words(state, seat, action):
            if len(word) > 2 and not word.isdigit() and i not in vocabulary.get(word, []):
                vocabulary.setdefault(word, []).append(i)
    close: list[str] = []
    for word in typed:
        close += [w for w in difflib.get_close_matches(word, list(vocabulary), n=3, cutoff=0.6) if w not in close]
    if not close:
        return f"type a number from 1 to {count}, or words of a choice as listed (type 'help' for the commands)"
    hints = "; ".join(f"'{w}' ({', '.join(map(str, vocabulary[w][:6]))})" for w in close[:3])
    return f"did you mean {hints}? type a number from 1 to {count}, or words of a choice"
