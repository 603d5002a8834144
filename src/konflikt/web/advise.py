"""The ``advise`` panel of the browser table: each choice of a deciding seat with its win chance, best first.

The GM sees it for every seat being asked (a button per seat, worked out in a thread, as the odds panel is) and
decides whether the players may see it too; a player then sees it for his own decision only. The answer comes from
:func:`konflikt.analysis.advice.advise`, which starts from what the seat may see, so another seat's secret choice
never reaches it. Whether players may see advice is the table's setting in memory, not saved (a reloaded table
starts with advice for the GM only).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from konflikt.analysis.advice import MCTS_ITERATIONS, Advice, advise, asked
from konflikt.analysis.background_solve import prepared
from konflikt.core.state import GM
from konflikt.errors import KonfliktError
from konflikt.web.i18n import Said, Text, _

if TYPE_CHECKING:
    from konflikt.web.table import WebTable

KINDS = ("advise", "advise_players", "advise_gm_only")
"""The messages this panel handles: ask advice for a seat; let players see it; the GM's only again."""
ITERATIONS = MCTS_ITERATIONS


class Refused(Said, KonfliktError):
    """A request the panel does not take (shown to the sender in one line, in the sender's language)."""

    def __init__(self, text: Text) -> None:
        KonfliktError.__init__(self, "")
        self.text = text


@dataclass
class AdviceBox:
    """One table's advice: whether players may see it, and each seat's answer at the version it was asked at."""

    players: bool = False
    answers: dict[str, tuple[tuple[str, int, bool], Advice | None]] = field(default_factory=dict)
    seq: int = 0
    """Grows with every change: part of the page cache's key."""


def may_see(table: WebTable, viewer: str, seat: str) -> bool:
    """The GM sees advice for every seat; a player for his own, once the GM allows it."""
    return viewer == GM or (table.advice.players and viewer == seat)


async def handle(table: WebTable, viewer: str, message: Mapping[str, Any], changed: Callable[[], None]) -> None:
    """One advice message from ``viewer`` (see :data:`KINDS`); ``changed`` wakes the table's pages."""
    box = table.advice
    kind = message.get("type")
    if kind in ("advise_players", "advise_gm_only"):
        if viewer != GM:
            raise Refused(lambda: _("only the GM may say who sees advice"))
        async with table.lock:
            box.players = kind == "advise_players"
            box.seq += 1
        changed()
        return
    seat = message.get("seat") or viewer
    if not isinstance(seat, str) or not may_see(table, viewer, seat):
        if viewer != GM and not box.players:
            raise Refused(lambda: _("advice is for the GM"))
        raise Refused(lambda: _("advice only for your own seat"))
    async with table.lock:
        state = table.state
        if seat not in asked(state):
            raise Refused(lambda: _("{name} has no decision now", name=table.label(seat)))
        version = table.version()
        found = box.answers.get(seat)
        if found is not None and found[0] == version:
            return  # asked already at this step: shown, or on its way
        copy = state.fork()
        box.answers[seat] = (version, None)
        box.seq += 1
    changed()
    scenario = table.conflict.scenario
    optimal = prepared(scenario, table.conflict.overrides)  # a worker process, once per game; MCTS meanwhile
    try:
        answer = await asyncio.to_thread(advise, scenario, copy, seat, ITERATIONS, optimal=optimal)
    except Exception as exc:  # the panel says what went wrong; the table goes on
        answer = Advice(seat, "none", note=" ".join(_("the calculation failed: {error}", error=exc).split())[:300])
    async with table.lock:
        found = box.answers.get(seat)
        if found is not None and found[0] == version:
            box.answers[seat] = (version, answer)
            box.seq += 1
    changed()


def panel_part(table: WebTable, viewer: str) -> dict[str, Any] | None:
    """What the panel shows ``viewer`` (call it holding the table's lock): ``None`` where it shows nothing."""
    box = table.advice
    if table.state.is_terminal() or (viewer != GM and not box.players):
        return None
    version = table.version()
    seats = []
    for seat in asked(table.state):
        if not may_see(table, viewer, seat):
            continue
        found = box.answers.get(seat)
        answer: dict[str, Any] | None = None
        if found is not None and found[0] == version:
            answer = {"working": True} if found[1] is None else found[1].to_json()
        seats.append({"seat": seat, "label": table.label(seat), "answer": answer})
    if viewer != GM and not seats:
        return None
    return {"gm": viewer == GM, "players": box.players, "seats": seats}


__all__ = ["KINDS", "AdviceBox", "handle", "panel_part"]
