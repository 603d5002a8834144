"""The names a player gives the consequences taken (``absorb … name=Rozcięta_dłoń``).

"Gracz, który bierze konsekwencję, powinien opisać co się stało z jego postacią i na czym ta konsekwencja polega":
any name the player gives is taken, one per consequence taken; the list's name stands for the rest.
"""

from __future__ import annotations

from konflikt.core.actions import Action
from konflikt.rulesets.presja.i18n import _, ngettext


def without_name(action: Action) -> Action:
    """An ``absorb`` as the legal choices list it: without the consequence names the player typed."""
    if action.get("name") is None:
        return action
    return Action(action.kind, tuple((k, v) for k, v in action.args if k != "name"))


def _typed(value: object) -> str:
    """One name as the player typed it (``Action.parse`` reads ``yes``/``no`` as booleans and digits as numbers)."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def consequence_names_typed(action: Action) -> tuple[str, ...]:
    """The names typed for the consequences of an ``absorb`` (``name=Rozcięta_dłoń``: ``_`` for spaces)."""
    raw = action.get("name")
    if raw is None:
        return ()
    names = raw if isinstance(raw, tuple) else (raw,)
    return tuple(_typed(n).replace("_", " ").strip() for n in names if _typed(n).strip("_ "))


def name_problem(action: Action) -> str | None:
    """Why the names of a named ``absorb`` do not fit the consequences it takes, or ``None`` when they do.

    "Gracz, który bierze konsekwencję, powinien opisać co się stało z jego postacią": any name the player gives is
    taken, one per consequence taken (fewer leave the list's name for the rest)."""
    if action.kind != "absorb" or action.get("name") is None:
        return None
    taken = [c for c in str(action.get("cons") or "").split("+") if c]
    names = consequence_names_typed(action)
    if not taken:
        return _("name= names the consequences taken, and this choice takes none (only boxes)")
    if not names:
        return _("name= gives no name (words joined by _, several names by commas)")
    if len(names) > len(taken):
        return ngettext(
            "name= gives one name per consequence taken: {names} names for {n} consequence (words joined by _, "
            "several names by commas)",
            "name= gives one name per consequence taken: {names} names for {n} consequences (words joined by _, "
            "several names by commas)",
            len(taken),
            names=len(names),
        )
    return None


class AbsorbChoices(tuple[Action, ...]):
    """The legal ways to take a hit, as listed (without names), that also hold each of them with the player's own
    names for its consequences (``absorb … name=Rozcięta_dłoń``): the front ends' ``action in legal`` accepts it."""

    __slots__ = ()

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        if action.kind != "absorb" or action.get("name") is None:
            return tuple.__contains__(self, action)
        return name_problem(action) is None and tuple.__contains__(self, without_name(action))


__all__ = ["AbsorbChoices", "consequence_names_typed", "name_problem", "without_name"]
