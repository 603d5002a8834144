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
from konflikt.rulesets.pwge.narration import counted, tokens_word
from konflikt.rulesets.pwge.rules import LAST_MELEE, WOUND_GLOSS, WOUND_LEVELS, ranged_of

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
                    "every foe is out (medvetslös, unconscious)"
                    if state.kind == "combat"
                    else ("every opponent has lost all diplomatic/social body points (kroppspoäng)")
                )
                return s, what
        return None
    for s in sides:
        if state.points[s] >= state.setup.goal_successes:
            moves = "utspel" if state.kind == "diplomatic" else "framstötar"
            return s, f"{counted(state.points[s], 'successful move', 'successful moves')} ({moves}) carried the point"
    return None


def _chase_goal(state: PwgeState) -> tuple[int, str] | None:
    assert state.setup.fleeing is not None
    fleeing = state.side_ids.index(state.setup.fleeing)
    chasers = [s for s in range(len(state.side_ids)) if s != fleeing]
    runners = _standing(state, fleeing)
    hunters = [i for s in chasers for i in _standing(state, s)]
    if not runners:
        return chasers[0], "every fleer is out"
    if not hunters:
        return fleeing, "every pursuer is out"
    for r in runners:
        for h in hunters:
            if state.pair(r, h) <= LAST_MELEE:
                return state.people[h].side, f"{state.people[h].name} has caught up with {state.people[r].name}"
    escape = state.setup.escape_distance
    if all(ranged_of(state.pair(r, h)) >= escape for r in runners for h in hunters):
        return fleeing, f"the fleers are {escape} or more away from every pursuer: they got away"
    return None


def check(state: PwgeState) -> bool:
    """Decide whether the conflict has ended; if so record how and return True."""
    if state.ending is not None:
        return True
    goal = goal_side(state)
    if goal is not None:
        side, why = goal
        state.record_ending(
            "goal_reached", (state.side_ids[side],), f"{state.side_names[side]} reaches its goal: {why}"
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
            _exhausted(state, [s for s in sides if s != last[0]], last[0], "in this exchange, ")
        elif all(not _standing(state, s) for s in sides):
            state.record_ending(
                "deadlock", (), "every side fell together (samtidigt, simultaneously): dödläge (deadlock)"
            )
        else:
            state.record_ending(
                "deadlock",
                (),
                "every side's handlingspöl (action pool) ran out together (samtidigt): dödläge (deadlock)",
            )
        return True
    if len(wet) == 1 or state.options.first_dry_side_ends:
        _exhausted(state, dry, wet, "")
        return True
    return False


def _exhausted(state: PwgeState, losers: list[int], winners: list[int] | int, when: str) -> None:
    """'Ena sidans handlingspöl tar slut före den andra sidans': the side that ran out first has lost (with
    ``first_dry_side_ends`` and three or more sides, every side still able to act has won)."""
    ahead = [winners] if isinstance(winners, int) else winners
    names = ", ".join(state.side_names[s] for s in losers)
    others = " and ".join(state.side_names[s] for s in ahead)
    goals = "goal is" if len(ahead) == 1 else "goals are"
    state.record_ending(
        "pools_exhausted",
        tuple(state.side_ids[s] for s in ahead),
        f"{when}{names} ran out of tokens first: lost the conflict, but {others}'s {goals} not fully reached; the "
        "losers may withdraw and regroup ('to live and fight another day')",
    )


def fate(state: PwgeState, i: int) -> str:
    """How participant ``i`` stands at the end, in words (the front ends print the name beside it)."""
    level = WOUND_LEVELS[state.wounds[i]]
    words = f"{tokens_word(state.tokens[i])} left"
    if state.kind in ("combat", "chase"):
        words += f", {counted(state.body[i], 'body point', 'body points')}, worst hit {level} ({WOUND_GLOSS[level]})"
    elif state.tracks_body():
        kind = "diplomatiska" if state.kind == "diplomatic" else "sociala"
        gloss = counted(state.body[i], f"{state.kind} body point", f"{state.kind} body points")
        words += f", {state.body[i]} {kind} kroppspoäng ({gloss})"
    if state.out[i]:
        words += ", out of the conflict"
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
