"""Asking a seat for its decision at the terminal: numbered choices in the system's words, or the words themselves.

A player types a number, the action's own text (``attack target=massimo``), or words of the choice as it is shown,
in the system's language or the English beside it (``atak``, ``attack Massimo``, ``avancera``, ``advance``,
``angreb``). A word that fits no choice gets the closest words that do; a word that fits several gets their numbers.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from konflikt.cli.i18n import _, ngettext
from konflikt.cli.render import print_item, readable
from konflikt.core.actions import Action
from konflikt.core.i18n import LANGUAGES, MissingTranslation, current, speaking
from konflikt.core.state import GM, State
from konflikt.errors import InvalidActionError


def seat_label(state: State, seat: str, names: Mapping[str, str] | None = None) -> str:
    """The seat's name (from ``names``, or the state's own ``names``), or the GM in the systems' words."""
    if seat == GM:
        return _("the GM")
    known = names if names is not None else getattr(state, "names", None)
    name = known.get(seat) if isinstance(known, Mapping) else None
    return name or seat


SHOWN = 9
"""At most this many choices are listed at first; ``more`` lists the rest."""


@dataclass(frozen=True)
class Menu:
    """A decision's choices as listed: each keeps its number (its place among the legal actions), the first
    :data:`SHOWN` to list are the text's own (:meth:`State.leading_actions`), the recommended one and the choices of
    a kind of their own (conceding, passing), then the rest in order; ``default`` is what Enter takes."""

    legal: tuple[Action, ...]
    shown: tuple[int, ...]
    """Indices into ``legal`` listed at first, in the order listed."""
    default: int | None = None
    """The index into ``legal`` of the recommended choice (Enter takes it), if any."""

    @property
    def hidden(self) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.legal)) if i not in self.shown)


def build_menu(state: State, seat: str, legal: Sequence[Action], recommended: Action | None = None) -> Menu:
    """The menu of ``legal``: all of them when they are few; else the text's own choices, the recommended one and
    those of a kind of their own first, filled up to :data:`SHOWN` in order."""
    legal = tuple(legal)
    default = legal.index(recommended) if recommended is not None and recommended in legal else None
    if len(legal) <= SHOWN:
        return Menu(legal, tuple(range(len(legal))), default)
    index = {action: i for i, action in enumerate(legal)}
    kinds: dict[str, int] = {}
    for action in legal:
        kinds[action.kind] = kinds.get(action.kind, 0) + 1
    alone = [i for i, action in enumerate(legal) if kinds[action.kind] == 1 and i != default]
    must = ([default] if default is not None else []) + alone
    must = must[:SHOWN]
    leading = [index[a] for a in state.leading_actions(seat) if a in index and index[a] not in must]
    leading = leading[: SHOWN - len(must)]
    fill = [i for i in range(len(legal)) if i not in must and i not in leading][: SHOWN - len(must) - len(leading)]
    own = [i for i in (index[a] for a in state.leading_actions(seat) if a in index) if i in leading or i == default]
    rest = sorted({*must, *fill} - set(own))
    return Menu(legal, (*own, *rest), default)


def choice_text(state: State, seat: str, action: Action, names: Mapping[str, str] | None = None) -> str:
    """A choice in the system's words, ids as names, with what it costs."""
    text = readable(state.describe_action(seat, action), names or {}, state.id_words())
    cost = state.action_cost(seat, action)
    return _("{choice} — cost: {cost}", choice=text, cost=cost) if cost else text


def list_choices(
    console: Console,
    state: State,
    seat: str,
    legal: Sequence[Action],
    names: Mapping[str, str] | None = None,
    menu: Menu | None = None,
) -> None:
    """The seat's choices, numbered: every one, or with a ``menu`` the first it lists (``more`` for the rest), the
    recommended one marked; what the decision is about first, when the ruleset says (:meth:`State.decision_stake`)."""
    console.print(
        "\n" + _("{seat} decides:", seat=seat_label(state, seat, names)), style="bold", highlight=False, markup=False
    )
    stake = state.decision_stake(seat)
    if stake:
        print_item(console, readable(stake, names or {}, state.id_words()), indent="  ", style="bold")
    menu = menu or Menu(tuple(legal), tuple(range(len(legal))))
    print_numbered(console, state, seat, menu, menu.shown, names)
    hidden = len(menu.hidden)
    if hidden:
        console.print(
            "  "
            + ngettext(
                "({n} more choice: type 'more' to list it, or its words)",
                "({n} more choices: type 'more' to list them, or their words)",
                hidden,
            ),
            style="dim",
            highlight=False,
            markup=False,
        )


def list_more(console: Console, state: State, seat: str, menu: Menu, names: Mapping[str, str] | None = None) -> None:
    """The choices a menu did not list at first."""
    if not menu.hidden:
        console.print(_("every choice is listed above"), highlight=False, markup=False)
        return
    print_numbered(console, state, seat, menu, menu.hidden, names)


def print_numbered(
    console: Console,
    state: State,
    seat: str,
    menu: Menu,
    indices: Sequence[int],
    names: Mapping[str, str] | None = None,
) -> None:
    width = len(str(len(menu.legal)))
    for i in indices:
        mark = "  [Enter]" if i == menu.default else ""  # the key's name, in every language
        line = Text(f"  {i + 1:>{max(2, width)}}. {choice_text(state, seat, menu.legal[i], names)}")
        if mark:
            line.append(mark, style="bold")
        print_item(console, line, hang=max(2, width) + 4)


def fold(text: str) -> str:
    """Lower case without accents, so ``Lämna``, ``lamna`` and ``LÄMNA`` read alike (``ø`` and ``ł`` too)."""
    text = text.lower().replace("ø", "o").replace("ł", "l").replace("æ", "ae").replace("ß", "ss")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def words_of(text: str) -> list[str]:
    """The words of a choice's text (letters and digits; brackets, colons and quotes are not words)."""
    cleaned = "".join(c if c.isalnum() or c in "-_" else " " for c in fold(text))
    return [w for w in cleaned.replace("_", " ").split() if w]


def described(state: State, seat: str, action: Action) -> list[str]:
    """The choice's text in the language in use first, then in each other language (and the bilingual register):
    a player may type the words of any of them (``atak``, ``attack``, ``anfall``, ``angreb``)."""
    own = getattr(state, "action_words", None)  # a ruleset that lists them itself (Le våld)
    texts = list(own(seat, action)) if callable(own) else [state.describe_action(seat, action)]
    for language in (*LANGUAGES, "both"):
        if language == current():
            continue
        try:
            with speaking(language):
                text = state.describe_action(seat, action)
        except MissingTranslation:  # a catalog being written: its words are not typed yet
            continue
        if text not in texts:
            texts.append(text)
    return texts


def choice_words(state: State, seat: str, action: Action) -> list[str]:
    """Everything a player may type to mean ``action``: the words it is shown with in any language, and its own kind
    and values."""
    words = [w for text in described(state, seat, action) for w in words_of(text)]
    words += words_of(str(action).replace("=", " "))
    return words


def head_words(state: State, seat: str, action: Action) -> list[str]:
    """The words that name a choice: its text before the first colon (``atak na (attack) Massimo``) in any language,
    and its kind."""
    words = [w for text in described(state, seat, action) for w in words_of(text.split(":")[0])]
    return words + words_of(action.kind)


def read_choice(text: str, state: State, seat: str, legal: Sequence[Action]) -> Action:
    """A number from the list, the action's own text (``attack target=massimo``), or words of one choice.

    Raises:
        InvalidActionError: none of these; the message says what would be accepted, with the closest words.
    """
    raw = text.strip()
    count = len(legal)
    if raw.isascii() and raw.isdigit():  # not '²' or '①' (isdigit, but int() refuses them)
        if len(raw) > 9:
            raise InvalidActionError(
                _("{typed}… is not on the list: type a number from 1 to {count}", typed=raw[:12], count=count)
            )
        index = int(raw)
        if 1 <= index <= count:
            return legal[index - 1]
        raise InvalidActionError(
            _("{typed} is not on the list: type a number from 1 to {count}", typed=raw, count=count)
        )
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
            raise InvalidActionError(
                _(
                    "{typed} fits {count} choices ({numbers}): type the number, or more words",
                    typed=repr(raw),
                    count=len(fits),
                    numbers=numbers,
                )
            )
    if "=" in raw:
        try:
            action = Action.parse(raw)
        except InvalidActionError:
            pass
        else:
            if action in legal or action in state.legal_actions(seat):  # the state's own test (a named absorb)
                return action
            raise InvalidActionError(_("not possible now: {why}", why=state.why_illegal(seat, action)))
    raise InvalidActionError(
        _("{typed} is not a choice now: {hint}", typed=repr(raw[:60]), hint=_suggest(typed, state, seat, legal))
    )


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
        return _(
            "type a number from 1 to {count}, or words of a choice as listed (type 'help' for the commands)",
            count=count,
        )
    hints = "; ".join(f"'{w}' ({', '.join(map(str, vocabulary[w][:6]))})" for w in close[:3])
    return _("did you mean {hints}? type a number from 1 to {count}, or words of a choice", hints=hints, count=count)
