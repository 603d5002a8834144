"""A PWGE State saved in the middle of a handling, loaded into one row of the kernel's array flow at its phase.

The compact model (:mod:`.model`) starts at the open floor; a State saved early in a handling (the target deciding
on a mothandling or svarshandling, the secret order bids, a contest with its topping war under way, a skadeslag
between its top, mot-toppa and mot-mot-toppa) would otherwise be walked by the State API to the next open floor —
for the duel's first handling some 135,000 States. Here every field of the State that the rest of the handling reads
is written into a :class:`~.kernel_flow.Conflicts` row (the exchange, the contest, the damage roll, the pools, the
dry sides), so the kernel's own handlers play the rest of it, each roll split into its outcomes as from the open
floor (:mod:`.model_rows`).

Where a State holds something the rows have no field for, :func:`why_not_loaded` says what, and the analysis walks
the State API as before (never a guess): a handling the kernel has no deed code for (a weapon switch, "any other
handling"), the choices before the first die (the attribute in use, a surpriser's starting distance).
"""

from __future__ import annotations

from konflikt.rulesets.pwge.exchange import DIFFICULTY, Deed
from konflikt.rulesets.pwge.i18n import _
from konflikt.rulesets.pwge.kernel_flow import ATTACKER, CCT, DEFENDER, Phase
from konflikt.rulesets.pwge.kernel_rules import ACTION_FIRST, RESPONSE_FIRST, SIM
from konflikt.rulesets.pwge.kernel_tables import DEED_ARGS, NONE
from konflikt.rulesets.pwge.model_rows import Branches
from konflikt.rulesets.pwge.state import PwgeState

EXCHANGE_PHASES = {
    "counter": Phase.COUNTER,
    "response": Phase.RESPONSE,
    "counter_response": Phase.CRESP,
    "order": Phase.ORDER,
}
"""The State's phases of a declared handling before its resolution, and the kernel's."""
LOADED_PHASES = frozenset({*EXCHANGE_PHASES, "contest", "damage", "free_attack"})
"""The phases a State is loaded at (the open floor is the model's own start, :meth:`PwgeModel.encode`)."""
ORDERS = {"simultaneous": SIM, "action": ACTION_FIRST, "response": RESPONSE_FIRST}
STAGES = {"attacker": ATTACKER, "defender": DEFENDER, "cct": CCT}


def deed_code(deed: Deed | None) -> int:
    """The kernel's code of a declared deed (:data:`~.kernel_tables.DEED_ARGS`); ``NONE``: no deed, or one the
    kernel has no code for (:func:`why_not_loaded` refuses those)."""
    if deed is None:
        return NONE
    args = (deed.kind, deed.weapon if deed.kind == "attack" else "", deed.way if deed.kind == "distance" else "")
    return DEED_ARGS.index(args) if args in DEED_ARGS else NONE


def why_not_loaded(state: PwgeState) -> str | None:
    """Why ``state`` cannot be loaded into the rows (``None``: it can)."""
    if state.phase not in LOADED_PHASES:
        return _("the pwge model does not enter a conflict at its {phase} phase", phase=state.phase)
    ex = state.ex
    if ex is None:
        if state.phase != "free_attack":
            return _("the pwge model found no exchange at the {phase} phase", phase=state.phase)
        return None
    for deed in (ex.action, ex.response):
        if deed is not None and deed_code(deed) == NONE:
            return _("the pwge model's rows have no deed code for the action {kind}", kind=repr(deed.kind))
        if deed is not None and deed.rolled:
            return _("the pwge model's rows have no rolled 'other' action")
    return None


def load(rows: Branches, i: int, state: PwgeState) -> None:
    """Write ``state`` (loadable: :func:`why_not_loaded`) into row ``i`` of ``rows``."""
    people = len(state.people)
    rows.tok[i], rows.xp[i], rows.body[i] = state.tokens, state.xp, state.body
    rows.wnd[i], rows.out[i] = state.wounds, state.out
    rows.pts[i] = state.points
    for (p, q), code in state.dist.items():
        rows.dist[i, p, q] = rows.dist[i, q, p] = code
    rows.dry_rank[i] = NONE
    for group, sides in enumerate(state.dry_order):
        for side in sides:
            rows.dry_rank[i, side] = group
    rows.dry_groups[i] = len(state.dry_order)
    rows.floor[i], rows.passes[i], rows.actions[i] = state.floor, state.passes, state.actions
    rows.sp[i] = state.surpriser_turn
    rows.ending[i] = rows.winner[i] = NONE
    assert len(rows.tok[i]) == people
    rows.together[i] = state.deeds_together()
    _exchange(rows, i, state)
    if state.phase == "free_attack":
        rows.phase[i] = Phase.FREE
    elif state.phase == "contest":
        _contest(rows, i, state)
    elif state.phase == "damage":
        _damage(rows, i, state)
    else:
        rows.phase[i] = EXCHANGE_PHASES[state.phase]


def _exchange(rows: Branches, i: int, state: PwgeState) -> None:
    """The declared handling, its counter, the response and its counter, the order and the queue's position."""
    ex = state.ex
    if ex is None:
        return
    action, response = ex.action, ex.response
    rows.actor[i], rows.target[i] = action.actor, action.target
    rows.akind[i] = deed_code(action)
    rows.acount[i], rows.free[i] = action.countered, action.free
    rows.rkind[i] = deed_code(response)
    rows.rcount[i] = response is not None and response.countered
    rows.r_at[i] = NONE if response is None or response.at < 0 else response.at
    rows.snap[i], rows.order[i], rows.pos[i] = ex.snapshot, ORDERS[ex.order], ex.pos


def _contest(rows: Branches, i: int, state: PwgeState) -> None:
    """An opposed roll, a roll against a difficulty or the turordningsslag: its rolls so far, tops and declines."""
    c = state.contest
    assert c is not None
    rows.c_order[i] = c.purpose == "order"
    rows.c_a[i], rows.c_b[i] = c.a, NONE if c.b == DIFFICULTY else c.b
    rows.c_mod[i] = (c.a_mod, c.b_mod)
    rows.c_roll[i] = (c.a_roll or 0, c.b_roll or 0)
    rows.c_rolled[i] = (c.a_roll is not None, c.b_roll is not None)
    rows.c_tops[i] = (c.a_tops, c.b_tops)
    rows.c_dec[i] = (c.a in c.declined, c.b != DIFFICULTY and c.b in c.declined)
    rows.c_ask[i] = 0
    rolled = c.a_roll is not None and c.b_roll is not None
    rows.phase[i] = Phase.CCHECK if rolled else Phase.CROLL  # who is behind and asked to top: the kernel's check


def _damage(rows: Branches, i: int, state: PwgeState) -> None:
    """The skadeslag: its modifier and armour, the roll standing (if any), the stage and the tops so far."""
    d = state.dmg
    assert d is not None
    rows.d_att[i], rows.d_def[i], rows.d_mod[i], rows.d_arm[i] = d.attacker, d.defender, d.modifier, d.armour
    rows.d_roll[i] = 0 if d.roll is None else d.roll
    rows.d_stage[i], rows.d_tops[i], rows.d_ctops[i] = STAGES[d.stage], d.tops, d.counter_tops
    rows.phase[i] = Phase.DROLL if d.roll is None else Phase.DAUTO  # the stages nobody can take: the kernel's skip


__all__ = ["LOADED_PHASES", "load", "why_not_loaded"]
