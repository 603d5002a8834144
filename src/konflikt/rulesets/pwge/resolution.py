"""Resolving an exchange: deeds in order, opposed rolls with their topping, and the damage roll's protocol.

Functions over a :class:`PwgeState` (the state machine calls them); each runs the automatic steps until the next
decision or roll, so the state's decision nodes stay few and explicit. The state's tallies change only through its
own methods (``spend``, ``set_pair``, ``suffer_damage``, …), each named after the rule it applies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from konflikt.core.actions import Action
from konflikt.rulesets.pwge import narration
from konflikt.rulesets.pwge.choices import ACCEPT, COUNTER_COUNTER_TOP, COUNTER_TOP, TOP
from konflikt.rulesets.pwge.exchange import DIFFICULTY, Contest, DamageRoll, Deed
from konflikt.rulesets.pwge.i18n import _
from konflikt.rulesets.pwge.rules import damage_points, distance_label, wound_level

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


def deed_distance(state: PwgeState, deed: Deed) -> int:
    """The distance a deed is made at: a response meeting someone closing in, where the closing lands; a
    simultaneous deed, the distance as declared; an ordered one, the distance as it now is."""
    ex = state.ex
    assert ex is not None
    if deed.at >= 0:
        return deed.at
    return ex.snapshot if ex.order == "simultaneous" else state.pair(deed.actor, deed.target)


def resolve_next(state: PwgeState) -> None:
    ex = state.ex
    assert ex is not None
    if ex.pos >= len(ex.queue):
        state.close_exchange()
        return
    deed = ex.queue[ex.pos]
    i, j = deed.actor, deed.target
    actor, target = state.people[i], state.people[j]
    if ex.order != "simultaneous" and ex.pos > 0 and (state.out[i] or state.out[j]):
        who = actor.name if state.out[i] else target.name
        text = _(
            "{actor}'s {deed} does not happen: {who} is out",
            actor=actor.name,
            deed=narration.deed_words(state, deed),
            who=who,
        )
        state.emit("cancelled", text)
        state.next_deed()
        return
    if deed.kind == "distance":
        landing = state.step_to(i, j, deed.way)
        if landing is None:
            here = distance_label(state.pair(i, j))
            if deed.way == "closer":
                text = _("{name} cannot move closer than {distance}", name=actor.name, distance=here)
            else:
                text = _("{name} cannot move farther than {distance}", name=actor.name, distance=here)
            state.emit("fails", text)
            state.next_deed()
        elif not deed.countered:
            move(state, deed)
            state.next_deed()
        else:
            start_contest(
                state,
                deed,
                (actor.roll, narration.roll_parts(actor)),
                (target.roll, narration.roll_parts(target)),
                _("distance roll"),
            )
        return
    if deed.kind in ("switch", "other"):
        if deed.countered or deed.rolled:
            defence = (target.roll, narration.roll_parts(target)) if deed.countered else (0, "")
            start_contest(state, deed, (actor.roll, narration.roll_parts(actor)), defence, _("action"))
        else:
            succeed(state, deed)
            state.next_deed()
        return
    if deed.kind == "press":
        penalty = state.press_penalty(i, j)
        parts = narration.roll_parts(actor) + (
            " − " + _("{penalty} diplomatic distance {distance}", penalty=penalty, distance=state.pair(i, j))
            if penalty
            else ""
        )
        defence = (target.roll, narration.roll_parts(target)) if deed.countered else (0, "")
        start_contest(state, deed, (state.press_mod(i, j), parts), defence, narration.press_word(state))
        return
    code = deed_distance(state, deed)
    mods = state.attack_mods(i, j, deed.weapon, code)
    if mods is None:
        text = _(
            "{actor} cannot reach {target} at {distance}",
            actor=actor.name,
            target=target.name,
            distance=distance_label(code),
        )
        state.emit("fails", text)
        state.next_deed()
        return
    attack, band, _damage = mods
    attack_parts = narration.attack_parts(state, i, deed.weapon, code)
    defence = (band, narration.band_parts(band))
    if deed.countered:
        keep = band > 0 and state.options.dodge_keeps_range_difficulty
        defence = (
            target.roll + (band if keep else 0),
            narration.roll_parts(target) + (" + " + _("{band} range band", band=band) if keep else ""),
        )
    start_contest(state, deed, (attack, attack_parts), defence, narration.attack_label(state, deed))


def start_contest(state: PwgeState, deed: Deed, attack: tuple[int, str], defence: tuple[int, str], label: str) -> None:
    """An opposed roll (a countered deed) or a roll against a difficulty (2T, 2T+2, 2T+4): modifier and parts."""
    b = deed.target if deed.countered else DIFFICULTY
    contest = Contest("deed", deed.actor, b, attack[0], defence[0], label=label, a_parts=attack[1], b_parts=defence[1])
    state.begin_contest(contest)


def contest_done(state: PwgeState, c: Contest) -> None:
    state.end_contest()
    ex = state.ex
    assert ex is not None
    result = c.winner()
    narration.contest_result(state, c, result)
    if c.purpose == "order":
        state.settle_order({"a": "action", "b": "response"}.get(result, "simultaneous"))
        return
    deed = ex.queue[ex.pos]
    if result != "a":
        state.next_deed()
        return
    if deed.kind == "distance":
        move(state, deed)
        state.next_deed()
    elif deed.kind in ("switch", "other"):
        succeed(state, deed)
        state.next_deed()
    elif deed.kind == "press" and not state.suggestion():
        side = state.people[deed.actor].side
        state.gain_ground(side)
        narration.gained(state, side)
        state.next_deed()
    else:
        f = state.people[deed.actor]
        if deed.kind == "press":
            state.begin_damage(
                DamageRoll(
                    deed.actor, deed.target, f.ammunition, 0, True, parts=_("ammunition {value}", value=f.ammunition)
                )
            )
            return
        mods = state.attack_mods(deed.actor, deed.target, deed.weapon, deed_distance(state, deed))
        modifier = mods[2] if mods else (f.ranged[2] if deed.weapon == "ranged" and f.ranged else f.melee_damage)
        weapon = f.melee_name if deed.weapon == "melee" else f.ranged_name
        state.begin_damage(
            DamageRoll(
                deed.actor, deed.target, modifier, state.people[deed.target].armour, False, f"{weapon} {modifier}"
            )
        )


def move(state: PwgeState, deed: Deed) -> None:
    i, j = deed.actor, deed.target
    before = state.pair(i, j)
    after = state.step_to(i, j, deed.way)
    if after is None:
        return
    state.set_pair(i, j, after)
    narration.moved(state, deed, before, after)


def succeed(state: PwgeState, deed: Deed) -> None:
    """Any other handling happens: a weapon switch changes the weapon in hand; anything else the GM narrates."""
    if deed.kind == "switch":
        state.wield(deed.actor, deed.weapon)
    narration.other_done(state, deed)


def apply_contest_choice(state: PwgeState, i: int, action: Action, die: bool) -> None:
    c = state.contest
    assert c is not None
    own = c.label if i == c.a else (_("order roll") if c.purpose == "order" else _("counter"))
    if action == ACCEPT:
        c.declined = (*c.declined, i)
        state.emit(
            "accept", _("{name} lets the result stand (does not top the {roll})", name=state.people[i].name, roll=own)
        )
        return
    state.spend(i, _("a top of the {roll}", roll=own), die)
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
        "reroll",
        _(
            "{name} has no token to counter-counter-top: the damage roll is rolled again",
            name=state.people[d.attacker].name,
        ),
    )
    d.roll = None
    d.stage = "attacker"
    return False


def apply_damage_choice(state: PwgeState, i: int, action: Action, die: bool) -> None:
    d = state.dmg
    assert d is not None
    name = state.people[i].name
    damage = narration.damage_word(d)
    if action == TOP:
        state.spend(i, _("a top of the {damage}", damage=damage), die)
        d.tops += 1
        d.roll = None
    elif action == ACCEPT and d.stage == "attacker":
        state.emit("accept", _("{name} keeps the {damage} {roll}", name=name, damage=damage, roll=d.roll))
        d.stage = "defender"
    elif action == ACCEPT:
        state.emit(
            "accept", _("{name} does not counter-top the {damage} {roll}", name=name, damage=damage, roll=d.roll)
        )
        apply_damage(state, d)
    elif action == COUNTER_TOP:
        state.spend(i, _("a counter-top of the {damage}", damage=damage), die)
        d.counter_tops += 1
        d.stage = "cct"
    elif action == COUNTER_COUNTER_TOP:
        state.spend(i, _("a counter-counter-top: the {damage} stands", damage=damage), die)
        text = _("{name} keeps the {damage} {roll}: the counter-top is answered", name=name, damage=damage, roll=d.roll)
        state.emit("keep", text)
        d.stage = "defender"
    else:
        text = _("{name} does not answer the counter-top: the {damage} is rolled again", name=name, damage=damage)
        state.emit("reroll", text)
        d.roll = None
        d.stage = "attacker"


def apply_damage(state: PwgeState, d: DamageRoll) -> None:
    assert d.roll is not None
    state.end_damage()
    j = d.defender
    points = damage_points(d.roll, d.armour)
    o = state.options
    level = wound_level(points, o.skrama_from, o.sarad_from, o.allvarligt_from)
    was_out = state.out[j]
    before = state.suffer_damage(j, points, level)
    narration.damage(state, d, points, level, before)
    if state.out[j] and not was_out:
        narration.taken_out(state, j, d.social)
