"""Resolving an exchange: deeds in order, opposed rolls with their topping, and the damage roll's protocol.

Functions over a :class:`PwgeState` (the state machine calls them); each runs the automatic steps until the next
decision or roll, so the state's decision nodes stay few and explicit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from konflikt.core.actions import Action
from konflikt.rulesets.pwge import endings, narration
from konflikt.rulesets.pwge.choices import ACCEPT, COUNTER_COUNTER_TOP, COUNTER_TOP, TOP
from konflikt.rulesets.pwge.exchange import DIFFICULTY, Contest, DamageRoll, Deed
from konflikt.rulesets.pwge.rules import damage_points, distance_label, lose_tokens, wound_level

if TYPE_CHECKING:
    from konflikt.rulesets.pwge.state import PwgeState


# ---- resolution -----------------------------------------------------------------------------------------------------
def advance(state: PwgeState) -> None:
    """Run the automatic steps until a decision or a roll is needed."""
    while True:
        phase = state.phase
        if phase == "resolve":
            resolve_next(state)
        elif phase == "contest":
            c = state.contest
            assert c is not None
            if c.a_roll is None or c.b_roll is None or state.contest_asker() is not None:
                return
            contest_done(state, c)
        elif phase == "damage":
            if not damage_auto(state):
                return
        else:
            return


def resolve_next(state: PwgeState) -> None:
    ex = state.ex
    assert ex is not None
    if ex.pos >= len(ex.queue):
        end_exchange(state)
        return
    deed = ex.queue[ex.pos]
    i, j = deed.actor, deed.target
    if ex.order != "simultaneous" and ex.pos > 0 and (state.out[i] or state.out[j]):
        who = state.people[i if state.out[i] else j].name
        state.emit(
            "cancelled", f"{state.people[i].name}'s {narration.deed_words(state, deed)} does not happen: {who} is out"
        )
        ex.pos += 1
        return
    code = ex.snapshot if ex.order == "simultaneous" else state.pair(i, j)
    if deed.kind == "distance":
        target_code = state.step_to(i, j, deed.way)
        if target_code is None:
            state.emit(
                "fails", f"{state.people[i].name} cannot move {deed.way} than {distance_label(state.pair(i, j))}"
            )
            ex.pos += 1
        elif not deed.countered:
            move(state, deed)
            ex.pos += 1
        else:
            start_contest(state, deed, state.people[i].roll, state.people[j].roll, "avståndsslag (distance roll)")
        return
    if deed.kind == "press":
        b_mod = state.people[j].roll if deed.countered else 0
        start_contest(
            state,
            deed,
            state.press_mod(i, j),
            b_mod,
            "utspel (move)" if state.kind == "diplomatic" else "framstöt (thrust)",
        )
        return
    mods = state.attack_mods(i, j, deed.weapon, code)
    if mods is None:
        state.emit("fails", f"{state.people[i].name} cannot reach {state.people[j].name} at {distance_label(code)}")
        ex.pos += 1
        return
    attack, band, _ = mods
    defence = band
    if deed.countered:
        keep = band > 0 and state.options.dodge_keeps_range_difficulty
        defence = state.people[j].roll + (band if keep else 0)
    start_contest(state, deed, attack, defence, "anfall (attack)")


def start_contest(state: PwgeState, deed: Deed, a_mod: int, b_mod: int, label: str) -> None:
    b = deed.target if deed.countered else DIFFICULTY
    state.contest = Contest("deed", deed.actor, b, a_mod, b_mod, label=label)
    state.phase = "contest"


def contest_done(state: PwgeState, c: Contest) -> None:
    state.contest = None
    ex = state.ex
    assert ex is not None
    result = c.winner()
    narration.contest_result(state, c, result)
    if c.purpose == "order":
        ex.order = {"a": "action", "b": "response"}.get(result, "simultaneous")
        state.queue_deeds()
        return
    deed = ex.queue[ex.pos]
    state.phase = "resolve"
    if result != "a":
        ex.pos += 1
        return
    if deed.kind == "distance":
        move(state, deed)
        ex.pos += 1
    elif deed.kind == "press" and not state.options.social_damage:
        side = state.people[deed.actor].side
        state.points[side] += 1
        state.emit(
            "gain",
            f"{state.side_names[side]} gains ground: {state.points[side]} of {state.setup.goal_successes} "
            "successful moves toward the goal",
            points=state.points[side],
        )
        ex.pos += 1
    else:
        f = state.people[deed.actor]
        if deed.kind == "press":
            modifier, armour, social = f.ammunition, 0, True
        else:
            mods = state.attack_mods(deed.actor, deed.target, deed.weapon, state.pair(deed.actor, deed.target))
            modifier = mods[2] if mods else (f.ranged[2] if deed.weapon == "ranged" and f.ranged else f.melee_damage)
            armour, social = state.people[deed.target].armour, False
        state.dmg = DamageRoll(deed.actor, deed.target, modifier, armour, social)
        state.phase = "damage"


def move(state: PwgeState, deed: Deed) -> None:
    i, j = deed.actor, deed.target
    before = state.pair(i, j)
    after = state.step_to(i, j, deed.way)
    if after is None:
        return
    state.set_pair(i, j, after)
    narration.moved(state, deed, before, after)


def apply_contest_choice(state: PwgeState, i: int, action: Action) -> None:
    c = state.contest
    assert c is not None
    own = c.label if i == c.a else ("turordningsslag (order roll)" if c.purpose == "order" else "mothandling (counter)")
    if action == ACCEPT:
        c.declined = (*c.declined, i)
        state.emit("accept", f"{state.people[i].name} lets the result stand (does not top the {own})")
        return
    state.spend(i, f"toppa (a top) of the {own}")
    c.declined = ()
    if i == c.a:
        c.a_tops += 1
        c.a_roll = None
    else:
        c.b_tops += 1
        c.b_roll = None


# ---- damage: topping, counter-topping, counter-counter-topping ------------------------------------------------------
def damage_auto(state: PwgeState) -> bool:
    """Skip damage nodes nobody can take; return False when a decision or a roll is needed."""
    d = state.dmg
    assert d is not None
    if d.roll is None:
        return False
    if d.stage == "attacker":
        if state.can_spend(d.attacker) and state.top_allowed(d.tops):
            return False
        d.stage = "defender"
        return True
    if d.stage == "defender":
        if state.can_spend(d.defender) and state.top_allowed(d.counter_tops):
            return False
        apply_damage(state, d)
        return True
    if state.can_spend(d.attacker):
        return False
    state.emit(
        "reroll", f"{state.people[d.attacker].name} has no token to mot-mot-toppa: the skadeslag is rolled again"
    )
    d.roll = None
    d.stage = "attacker"
    return False


def apply_damage_choice(state: PwgeState, i: int, action: Action) -> None:
    d = state.dmg
    assert d is not None
    name = state.people[i].name
    if action == TOP:
        state.spend(i, "toppa skadeslag (a top of the damage roll)")
        d.tops += 1
        d.roll = None
    elif action == ACCEPT and d.stage == "attacker":
        state.emit("accept", f"{name} keeps the skadeslag (damage roll) {d.roll}")
        d.stage = "defender"
    elif action == ACCEPT:
        state.emit("accept", f"{name} does not mot-toppa (counter-top) the skadeslag {d.roll}")
        apply_damage(state, d)
    elif action == COUNTER_TOP:
        state.spend(i, "mot-toppa skadeslag (a counter-top of the damage roll)")
        d.counter_tops += 1
        d.stage = "cct"
    elif action == COUNTER_COUNTER_TOP:
        state.spend(i, "mot-mot-toppa (a counter-counter-top: the skadeslag stands)")
        state.emit("keep", f"{name} keeps the skadeslag {d.roll}: the counter-top is answered")
        d.stage = "defender"
    else:
        state.emit("reroll", f"{name} does not answer the counter-top: the skadeslag is rolled again")
        d.roll = None
        d.stage = "attacker"


def apply_damage(state: PwgeState, d: DamageRoll) -> None:
    assert d.roll is not None
    state.dmg = None
    state.phase = "resolve"
    assert state.ex is not None
    state.ex.pos += 1
    j = d.defender
    points = damage_points(d.roll, d.armour)
    o = state.options
    level = wound_level(points, o.skrama_from, o.sarad_from, o.allvarligt_from)
    before = state.tokens[j]
    state.tokens[j] = lose_tokens(before, level)
    state.body[j] -= points
    state.wounds[j] = max(state.wounds[j], level)
    narration.damage(state, d, points, level, before)
    if state.body[j] <= 0 and not state.out[j]:
        state.out[j] = True
        narration.taken_out(state, j, d.social)


def end_exchange(state: PwgeState) -> None:
    ex = state.ex
    assert ex is not None
    state.ex = None
    if endings.check(state):
        state.phase = "done"
        return
    if ex.action.free:
        state.next_surpriser()
        return
    state.passes = 0
    state.open_floor(ex.action.actor + 1)
