"""How a PWGE conflict ends: the text's three ways, checked after every exchange.

1. One side reaches its goal (``goal_reached``).
2. One side's pools run out first with nothing decided: that side has lost, but the other side's goal is not
   fully reached; the loser may withdraw and regroup (``pools_exhausted``).
3. Both sides' pools run out, or nobody wants to start a new action: a dödläge (``deadlock``). Pools emptied in
   one step (the secret order bids), or by an action and its response that happen samtidigt (simultaneously, their
   damage too: a double knock-out), ran out together: neither ran out first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from konflikt.core.outcome import ConflictOutcome
from konflikt.rulesets.pwge.i18n import _, ngettext
from konflikt.rulesets.pwge.narration import body_points, tokens_word
from konflikt.rulesets.pwge.rules import LAST_MELEE, ranged_of, wound_name

if TYPE_CHECKING:
    from konflikt.rulesets.pwge.state import PwgeState

ENDINGS = ("goal_reached", "pools_exhausted", "deadlock")


def side_can_act(state: PwgeState, side: int) -> bool:
    """Whether a side's handlingspöl has not run out: a standing member can still spend."""
    return any(state.can_spend(i) for i in _standing(state, side))


def _standing(state: PwgeState, side: int) -> list[int]:
    return [i for i, f in enumerate(state.people) if f.side == side and not state.out[i]]


def goal_side(state: PwgeState) -> tuple[int, str] | None:
    """The side that has reached its goal now, with the reason in words, or None."""
    sides = range(len(state.side_ids))
    if state.kind == "chase":
        return _chase_goal(state)
    if state.kind == "combat" or state.suggestion():
        for s in sides:
            if _standing(state, s) and all(not _standing(state, o) for o in sides if o != s):
                what = (
                    _("every foe is out, unconscious")
                    if state.kind == "combat"
                    else _("every opponent has lost all diplomatic/social body points")
                )
                return s, what
        return None
    for s in sides:
        if state.points[s] >= state.setup.goal_successes:
            n = state.points[s]
            if state.kind == "diplomatic":
                return s, ngettext(
                    "{n} successful negotiating move carried the point",
                    "{n} successful negotiating moves carried the point",
                    n,
                )
            return s, ngettext(
                "{n} successful verbal thrust carried the point", "{n} successful verbal thrusts carried the point", n
            )
    return None


def _chase_goal(state: PwgeState) -> tuple[int, str] | None:
    assert state.setup.fleeing is not None
    fleeing = state.side_ids.index(state.setup.fleeing)
    chasers = [s for s in range(len(state.side_ids)) if s != fleeing]
    runners = _standing(state, fleeing)
    hunters = [i for s in chasers for i in _standing(state, s)]
    if not runners:
        return chasers[0], _("every fleer is out")
    if not hunters:
        return fleeing, _("every pursuer is out")
    for r in runners:
        for h in hunters:
            if state.pair(r, h) <= LAST_MELEE:
                caught = _(
                    "{hunter} has caught up with {runner}", hunter=state.people[h].name, runner=state.people[r].name
                )
                return state.people[h].side, caught
    escape = state.setup.escape_distance
    if all(ranged_of(state.pair(r, h)) >= escape for r in runners for h in hunters):
        return fleeing, _("the fleers are {escape} or more away from every pursuer: they got away", escape=escape)
    return None


def check(state: PwgeState) -> bool:
    """Decide whether the conflict has ended; if so record how and return True."""
    if state.ending is not None:
        return True
    goal = goal_side(state)
    if goal is not None:
        side, why = goal
        state.record_ending(
            "goal_reached",
            (state.side_ids[side],),
            _("{side} reaches its goal: {why}", side=state.side_names[side], why=why),
        )
        return True
    state.note_dry_sides()
    sides = range(len(state.side_ids))
    dry = [s for s in sides if not side_can_act(state, s)]
    if not dry:
        return False
    wet = [s for s in sides if s not in dry]
    if not wet:
        last = state.dry_order[-1]
        if len(state.dry_order) > 1 and len(last) == 1:
            _exhausted(state, [s for s in sides if s != last[0]], last[0], in_exchange=True)
        elif all(not _standing(state, s) for s in sides):
            state.record_ending("deadlock", (), _("every side fell together, simultaneously: deadlock"))
        else:
            state.record_ending(
                "deadlock",
                (),
                _("every side's action pool ran out together, simultaneously: deadlock"),
            )
        return True
    if len(wet) == 1 or state.options.first_dry_side_ends:
        _exhausted(state, dry, wet)
        return True
    return False


def _exhausted(state: PwgeState, losers: list[int], winners: list[int] | int, in_exchange: bool = False) -> None:
    """'Ena sidans handlingspöl tar slut före den andra sidans': the side that ran out first has lost (with
    ``first_dry_side_ends`` and three or more sides, every side still able to act has won)."""
    ahead = [winners] if isinstance(winners, int) else winners
    names = ", ".join(state.side_names[s] for s in losers)
    others = _(" and ").join(state.side_names[s] for s in ahead)
    summary = ngettext(
        "{names} ran out of tokens first: lost the conflict, but {others}'s goal is not fully reached; the losers "
        "may withdraw and regroup (to live and fight another day)",
        "{names} ran out of tokens first: lost the conflict, but {others}'s goals are not fully reached; the losers "
        "may withdraw and regroup (to live and fight another day)",
        len(ahead),
        names=names,
        others=others,
    )
    if in_exchange:
        summary = _("in this exchange, {summary}", summary=summary)
    state.record_ending("pools_exhausted", tuple(state.side_ids[s] for s in ahead), summary)


def fate(state: PwgeState, i: int) -> str:
    """How participant ``i`` stands at the end, in words (the front ends print the name beside it)."""
    words = _("{tokens} left", tokens=tokens_word(state.tokens[i]))
    if state.kind in ("combat", "chase"):
        words += ", " + _(
            "{body}, worst hit {wound}", body=body_points(state.body[i]), wound=wound_name(state.wounds[i])
        )
    elif state.kind == "diplomatic" and state.tracks_body():
        words += ", " + ngettext("{n} diplomatic body point", "{n} diplomatic body points", state.body[i])
    elif state.tracks_body():
        words += ", " + ngettext("{n} social body point", "{n} social body points", state.body[i])
    if state.out[i]:
        words += ", " + _("out of the conflict")
    return words


def outcome(state: PwgeState) -> ConflictOutcome:
    assert state.ending is not None
    ending, winners, summary = state.ending
    return ConflictOutcome(
        ending=ending,
        winners=winners,
        summary=summary,
        participants={f.pid: fate(state, i) for i, f in enumerate(state.people)},
        data={
            "tokens": {f.pid: state.tokens[i] for i, f in enumerate(state.people)},
            "body": {f.pid: state.body[i] for i, f in enumerate(state.people)},
            "out": {f.pid: state.out[i] for i, f in enumerate(state.people)},
            "points": dict(zip(state.side_ids, state.points, strict=True)),
            "steps": len(state.steps()),
            "actions": state.actions,
        },
    )
