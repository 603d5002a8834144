"""The words of PWGE: event texts, action descriptions, reasons for refusals and the status table.

Every message is plain English in the code and printed in the table's language (``konflikt.rulesets.pwge.i18n``):
the text's Swedish terms in Swedish, translated in Danish and Polish, glossed in the bilingual register, with every
number that decides a step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from konflikt.core.actions import Action
from konflikt.rulesets.pwge.choices import paid_with_die, without_payment
from konflikt.rulesets.pwge.exchange import DIFFICULTY, Contest, DamageRoll, Deed, Exchange
from konflikt.rulesets.pwge.fighters import Fighter
from konflikt.rulesets.pwge.i18n import N_, _, ngettext
from konflikt.rulesets.pwge.models import armoury
from konflikt.rulesets.pwge.rules import LAST_MELEE, distance_label, melee_reach, token_loss, wound_name

if TYPE_CHECKING:
    from konflikt.rulesets.pwge.state import PwgeState


def _weapon_name(key: str) -> str:
    arms = armoury()
    return arms.melee[key].name if key in arms.melee else arms.ranged[key].name


KIND_WORDS = {
    "combat": N_("PWGE: combat"),
    "chase": N_("PWGE: chase"),
    "diplomatic": N_("PWGE: diplomatic conflict"),
    "social": N_("PWGE: social conflict"),
}


IDENTITY = {
    "direct": N_("+4 identity fits directly"),
    "indirect": N_("+2 identity fits indirectly"),
    "none": N_("+0 identity"),
}


def _dist(state: PwgeState, code: int) -> str:
    if state.kind in ("combat", "chase"):
        return distance_label(code)
    return _("{code} of 0–10", code=code)


def tokens_word(count: int) -> str:
    """``1 token``, ``3 tokens``."""
    return ngettext("{n} token", "{n} tokens", count)


def dice_words(count: int) -> str:
    """``1 experience die``, ``2 experience dice``."""
    return ngettext("{n} experience die", "{n} experience dice", count)


def body_points(count: int) -> str:
    """``1 body point``, ``3 body points``."""
    return ngettext("{n} body point", "{n} body points", count)


def kind_line(state: PwgeState) -> None:
    state.emit("setup", _(KIND_WORDS[state.kind]))


def attribute_parts(f: Fighter) -> str:
    """The order roll's modifier in words: the attribute alone."""
    return f"{f.attribute_name} {f.attribute}"


def roll_parts(f: Fighter) -> str:
    """The stand-in roll's modifier in words: the attribute in use and the best fitting skill."""
    return attribute_parts(f) + (f" + {f.skill_name} {f.skill}" if f.skill_name else "")


def attack_parts(state: PwgeState, i: int, weapon: str, code: int) -> str:
    """An attack's modifier in words: the attribute, the skill of the weapon used, and the weapon's bonus when it is
    used at its own length."""
    f = state.people[i]
    skill_name, skill = f.melee_skill if weapon == "melee" else f.ranged_skill
    words = attribute_parts(f) + (f" + {skill_name} {skill}" if skill_name else "")
    if weapon == "melee" and f.melee_bonus and melee_reach(code, f.melee_length) == "optimal":
        words += " + " + _("{weapon} {bonus} (at its length)", weapon=f.melee_name, bonus=f.melee_bonus)
    return words


def band_parts(band: int) -> str:
    """The difficulty of an uncountered attack, in words."""
    if band == 0:
        return ""
    if band == 2:
        return _("difficulty {band} (range 1 to short)", band=band)
    return _("difficulty {band} (beyond short, up to max)", band=band)


def press_word(state: PwgeState) -> str:
    """Diplomacy's moves are utspel, a social conflict's framstötar."""
    return _("negotiating move") if state.kind == "diplomatic" else _("verbal thrust")


def body_word(state: PwgeState) -> str:
    if state.kind == "diplomatic":
        return _("diplomatic body points")
    if state.kind == "social":
        return _("social body points")
    return _("body points")


def damage_word(d: DamageRoll) -> str:
    return _("damage roll") if not d.social else _("social damage roll")


def gained(state: PwgeState, side: int) -> None:
    fields = {"side": state.side_names[side], "points": state.points[side], "goal": state.setup.goal_successes}
    if state.kind == "diplomatic":
        text = _("{side} gains ground: {points} of {goal} successful negotiating moves toward the goal", **fields)
    else:
        text = _("{side} gains ground: {points} of {goal} successful verbal thrusts toward the goal", **fields)
    state.emit("gain", text, points=state.points[side])


def other_done(state: PwgeState, deed: Deed) -> None:
    f = state.people[deed.actor]
    if deed.kind == "switch":
        weapon = f.melee_name if deed.weapon in armoury().melee else f.ranged_name
        text = _("{name} now holds {weapon}", name=f.name, weapon=weapon)
    else:
        text = _("{name}'s action happens: the GM narrates what it does", name=f.name)
    state.emit("other", text, seat=f.pid)


def opening(state: PwgeState) -> None:
    for i, f in enumerate(state.people):
        side = state.side_names[f.side]
        others = sum(1 for g in state.people if g.side == f.side) - 1
        text = _(
            "{name} ({side}): action pool {tokens} = 2×{attribute} {value} {identity} +2×{skills} −{others} on "
            "the side",
            name=f.name,
            side=side,
            tokens=tokens_word(f.pool),
            attribute=f.attribute_name,
            value=f.attribute,
            identity=_(IDENTITY[f.identity_fit]),
            skills=ngettext("{n} fitting skill", "{n} fitting skills", f.skill_count),
            others=ngettext("{n} other", "{n} others", others),
        )
        if state.xp[i]:
            text += "; " + dice_words(state.xp[i])
        state.emit("pool", text, seat=f.pid, tokens=f.pool)
        if f.damage_taken and state.kind in ("combat", "chase"):
            fields = {"name": f.name, "body": state.body[i], "full": f.body, "lost": f.damage_taken}
            if state.out[i]:
                text = _(
                    "{name} comes to this conflict with {body} of {full} body points: {lost} lost in an earlier one; "
                    "unconscious, out of the conflict",
                    **fields,
                )
            else:
                text = _(
                    "{name} comes to this conflict with {body} of {full} body points: {lost} lost in an earlier one",
                    **fields,
                )
            state.emit("carried", text, seat=f.pid)
    for (i, j), code in sorted(state.dist.items()):
        if state.distance_in_play():
            state.emit(
                "distance",
                _(
                    "distance {a}–{b}: {distance}",
                    a=state.people[i].name,
                    b=state.people[j].name,
                    distance=_dist(state, code),
                ),
            )


def attack_label(state: PwgeState, deed: Deed) -> str:
    """An attack's roll named with its weapon: ``anfall (attack) with Strålpistol``."""
    f = state.people[deed.actor]
    return _("attack with {weapon}", weapon=f.melee_name if deed.weapon == "melee" else f.ranged_name)


def deed_words(state: PwgeState, deed: Deed) -> str:
    if deed.kind == "attack":
        return attack_label(state, deed)
    if deed.kind == "press":
        return press_word(state)
    if deed.kind == "switch":
        return _("switches weapons to {weapon}", weapon=_weapon_name(deed.weapon))
    if deed.kind == "other":
        return _("another action, rolled for") if deed.rolled else _("another action")
    return _("change distance: closer") if deed.way == "closer" else _("change distance: farther")


def declared(state: PwgeState, deed: Deed) -> None:
    fields = {
        "actor": state.people[deed.actor].name,
        "target": state.people[deed.target].name,
        "deed": deed_words(state, deed),
    }
    if deed.free:
        text = _("{actor}: free attack on surprised {target} — {deed}, costs no token, no response", **fields)
    elif deed.role == "response":
        text = _("{actor}: response aimed at {target} — {deed}", **fields)
    else:
        text = _("{actor}: action against {target} — {deed}", **fields)
    state.emit("declare", text, actor=state.people[deed.actor].pid, target=state.people[deed.target].pid)


def countered(state: PwgeState, deed: Deed) -> None:
    name = state.people[deed.target].name
    if deed.kind == "distance":
        text = _("{name}: counter — holds the distance", name=name)
    elif deed.kind == "press":
        if state.kind == "social":
            text = _("{name}: counter — brushes the thrust off", name=name)
        else:
            text = _("{name}: counter — negates the move", name=name)
    elif deed.kind in ("switch", "other"):
        text = _("{name}: counter — tries to stop it", name=name)
    elif deed.weapon == "ranged" and state.pair(deed.actor, deed.target) > LAST_MELEE:
        text = _("{name}: counter — dodges", name=name)
    else:
        text = _("{name}: counter — parries or steps aside", name=name)
    state.emit("counter", text)


def order(state: PwgeState, ex: Exchange) -> None:
    if ex.order == "simultaneous":
        text = _("action and response happen at the same time: both resolve")
    else:
        first = ex.action if ex.order == "action" else ex.response
        assert first is not None
        name = state.people[first.actor].name
        if first.role == "action":
            text = _("order: {name}'s action happens first", name=name)
        else:
            text = _("order: {name}'s response happens first", name=name)
    state.emit("order", text, order=ex.order)


def _b_role(c: Contest) -> str:
    return _("order roll") if c.purpose == "order" else _("counter")


def roll_purpose(state: PwgeState) -> str:
    c = state.contest
    if state.phase == "contest" and c is not None:
        if c.a_roll is None:
            return _(
                "{name}'s {label}: {dice}", name=state.people[c.a].name, label=c.label, dice=_dice(c.a_mod, c.a_parts)
            )
        if c.b == DIFFICULTY:
            return _("the difficulty {dice}", dice=_dice(c.b_mod, c.b_parts))
        return _(
            "{name}'s {label}: {dice}", name=state.people[c.b].name, label=_b_role(c), dice=_dice(c.b_mod, c.b_parts)
        )
    d = state.dmg
    if d is not None:
        return _(
            "{name}'s {damage}: {dice}",
            name=state.people[d.attacker].name,
            damage=damage_word(d),
            dice=_dice(d.modifier, d.parts, "1T"),
        )
    return _("roll")


def _dice(modifier: int, parts: str, dice: str = "2T") -> str:
    """``2T+7 = Smidighet 4 + Svärdskonst 2 + svärd 1``: the roll with its modifier broken down."""
    notation = dice if modifier == 0 else f"{dice}{modifier:+d}"
    return f"{notation} = {parts}" if parts else notation


def contest_roll(state: PwgeState, c: Contest, who: str, total: int) -> None:
    if who == "a":
        text = _(
            "{name} rolls the {label}: {dice} → {total}",
            name=state.people[c.a].name,
            label=c.label,
            dice=_dice(c.a_mod, c.a_parts),
            total=total,
        )
    elif c.b == DIFFICULTY:
        text = _("difficulty {dice} → {total}", dice=_dice(c.b_mod, c.b_parts), total=total)
    else:
        text = _(
            "{name} rolls the {label}: {dice} → {total}",
            name=state.people[c.b].name,
            label=_b_role(c),
            dice=_dice(c.b_mod, c.b_parts),
            total=total,
        )
    if c.a_roll is not None and c.b_roll is not None:
        result = c.winner()
        fields = {"a": c.a_roll, "b": c.b_roll}
        if result == "tie":
            text += _(" — {a} against {b}: nobody ahead (a tie holds)", **fields)
        else:
            lead = state.people[c.a].name if result == "a" else _b_name(state, c)
            if c.a_roll == c.b_roll:
                text += _(" — {a} against {b}: {lead} ahead (a tie holds)", lead=lead, **fields)
            else:
                text += _(" — {a} against {b}: {lead} ahead", lead=lead, **fields)
    state.emit("roll", text, total=total)


def _b_name(state: PwgeState, c: Contest) -> str:
    return _("the difficulty") if c.b == DIFFICULTY else state.people[c.b].name


def contest_result(state: PwgeState, c: Contest, result: str) -> None:
    a = state.people[c.a].name
    if c.purpose == "order":
        if result == "a":
            text = _("{name} wins the order roll", name=a)
        elif result == "b":
            text = _("{name} wins the order roll", name=_b_name(state, c))
        else:
            text = _("the order roll is a tie: action and response stay simultaneous")
    elif result == "a":
        text = _("{name}'s {label} succeeds ({a} against {b})", name=a, label=c.label, a=c.a_roll, b=c.b_roll)
    else:
        text = _(
            "{name}'s {label} fails ({a} against {b}; a tie holds for the defence)",
            name=a,
            label=c.label,
            a=c.a_roll,
            b=c.b_roll,
        )
    state.emit("result", text, result=result)


def moved(state: PwgeState, deed: Deed, before: int, after: int) -> None:
    text = _(
        "distance {a}–{b}: {before} → {after}",
        a=state.people[deed.actor].name,
        b=state.people[deed.target].name,
        before=_dist(state, before),
        after=_dist(state, after),
    )
    state.emit("moved", text, before=before, after=after)


def damage_roll(state: PwgeState, d: DamageRoll) -> None:
    assert d.roll is not None
    fields = {
        "name": state.people[d.attacker].name,
        "damage": damage_word(d),
        "dice": _dice(d.modifier, d.parts, "1T"),
        "total": d.roll,
    }
    if d.armour:
        text = _(
            "{name}'s {damage} {dice} → {total} − {armour} armour = {points} damage",
            armour=d.armour,
            points=max(0, d.roll - d.armour),
            **fields,
        )
    else:
        text = _("{name}'s {damage} {dice} → {total} damage", **fields)
    state.emit("damage_roll", text, total=d.roll)


def damage(state: PwgeState, d: DamageRoll, points: int, level: int, before: int) -> None:
    t = state.people[d.defender]
    lost = _(
        "loses {tokens} ({before} → {after})",
        tokens=tokens_word(token_loss(level)),
        before=before,
        after=state.tokens[d.defender],
    )
    if points == 0:
        text = _(
            "{name} takes no damage ({damage} {roll} − armour {armour})",
            name=t.name,
            damage=damage_word(d),
            roll=d.roll,
            armour=d.armour,
        )
    elif d.social:
        text = _(
            "{name} loses {points} {body} → {lost}; {left} left",
            name=t.name,
            points=points,
            body=body_word(state),
            lost=lost,
            left=state.body[d.defender],
        )
    else:
        text = _(
            "{name} takes {points} damage: {wound} → {lost}; {body} {left}",
            name=t.name,
            points=points,
            wound=wound_name(level),
            lost=lost,
            body=body_word(state),
            left=state.body[d.defender],
        )
    state.emit("damage", text, seat=t.pid, points=points, level=level, tokens=state.tokens[d.defender])


def taken_out(state: PwgeState, j: int, social: bool) -> None:
    f = state.people[j]
    if social:
        text = _("{name} has lost all {body}: out of the conflict", name=f.name, body=body_word(state))
    else:
        text = _("{name} is unconscious: out of the conflict", name=f.name)
    state.emit("out", text, seat=f.pid)


def describe_action(state: PwgeState, seat: str, action: Action) -> str:
    cost = _("1 experience die instead of a token") if paid_with_die(action) else _("1 token")
    return _describe(state, seat, without_payment(action), cost)


def _describe(state: PwgeState, seat: str, action: Action, cost: str) -> str:
    target = action.get("target")
    name = state.people[state.index[target]].name if target in state.index else ""
    k = action.kind
    weapon = action.get("weapon")
    if k in ("attack", "free_attack", "respond") and (action.get("deed") in (None, "attack")) and weapon:
        i = state.index[seat]
        f = state.people[i]
        fields = {
            "target": name or (state.people[state.ex.action.actor].name if state.ex else ""),
            "weapon": f.melee_name if weapon == "melee" else f.ranged_name,
            "cost": cost,
        }
        if k == "free_attack":
            return _("free attack: attack {target} with {weapon} (free)", **fields)
        if k == "respond":
            return _("response: attack {target} with {weapon} ({cost})", **fields)
        return _("action: attack {target} with {weapon} ({cost})", **fields)
    if k == "pass":
        return _("pass — let the floor go (if everybody passes in a row: deadlock)")
    if k == "counter":
        return _("counter: {cost}, an opposed throw to negate it", cost=cost)
    if k == "no_counter":
        return _("no counter")
    if k == "no_response":
        return _("no response")
    if k == "order":
        return _("set order: {cost} to make your deed happen first", cost=cost)
    if k == "no_order":
        return _("no order")
    if k == "top":
        return _("top: {cost}, throw again — the new result replaces the old", cost=cost)
    if k == "accept":
        return _("accept the result as it stands")
    if k == "counter_top":
        return _("counter-top: {cost}; the attacker must throw again or pay to keep it", cost=cost)
    if k == "counter_counter_top":
        return _("counter-counter-top: {cost}, the damage roll stands", cost=cost)
    if k == "reroll":
        return _("throw the damage again (no token)")
    if k == "no_free_attack":
        return _("no free attack")
    if k == "attribute":
        i = state.index[seat]
        value = state.characters[i]["attributes"][action["name"]]
        return _("attribute {name} {value}: the one that best fits your approach", name=action["name"], value=value)
    if k == "start":
        return _("start the fight at {distance}", distance=distance_label(int(action["distance"])))
    if k == "switch":
        return _(
            "action: switch weapons to {weapon}, facing {target} ({cost})",
            weapon=_weapon_name(str(weapon)),
            target=name,
            cost=cost,
        )
    if k == "other":
        if action.get("roll"):
            return _(
                "action: something else — say what (open a door, grab the chart), facing {target}; rolled for: "
                "2T + attribute + skill against 2T ({cost})",
                target=name,
                cost=cost,
            )
        return _(
            "action: something else — say what (open a door, grab the chart), facing {target}; no roll unless "
            "countered ({cost})",
            target=name,
            cost=cost,
        )
    if k == "press" or action.get("deed") == "press":
        if name:
            return _("{move} against {target} ({cost})", move=press_word(state), target=name, cost=cost)
        return _("{move} against the actor ({cost})", move=press_word(state), cost=cost)
    way = action.get("way")
    if way:
        if name:
            if way == "closer":
                return _("change distance: closer to {target} ({cost})", target=name, cost=cost)
            return _("change distance: farther from {target} ({cost})", target=name, cost=cost)
        if way == "closer":
            return _("change distance: closer to the actor ({cost})", cost=cost)
        return _("change distance: farther from the actor ({cost})", cost=cost)
    return str(action)


def why_illegal(state: PwgeState, seat: str, action: Action) -> str:
    if state.phase == "done":
        return _("the conflict is over")
    if seat not in state.index:
        return _("{seat} is not a participant", seat=repr(seat))
    i = state.index[seat]
    if state.phase != "order" and state.current_player() != seat:
        return _("it is {player}'s turn to decide, not {seat}'s", player=state.current_player(), seat=seat)
    legal = state.legal_actions(seat)
    target = action.get("target")
    if action.kind in ("attack", "free_attack") and target in state.index:
        j = state.index[target]
        if state.out[j]:
            return _("{name} is out of the conflict", name=state.people[j].name)
        if state.people[j].side == state.people[i].side:
            return _("{name} is on your side", name=state.people[j].name)
        code = state.pair(i, j)
        weapon = action.get("weapon")
        if weapon == "ranged" and state.people[i].ranged is None:
            return _("{name} has no ranged weapon", name=state.people[i].name)
        if state.attack_mods(i, j, str(weapon), code) is None:
            return _(
                "{name} cannot reach {target} with that weapon at {distance}",
                name=state.people[i].name,
                target=state.people[j].name,
                distance=distance_label(code),
            )
    kinds = sorted({a.kind for a in legal})
    if action.kind not in kinds:
        if not kinds:
            return _("{kind} is not possible now (possible: nothing)", kind=repr(action.kind))
        return _("{kind} is not possible now (possible: {kinds})", kind=repr(action.kind), kinds=", ".join(kinds))
    return _("not one of the legal choices now ({choices})", choices="; ".join(str(a) for a in legal[:8]))


PHASE_WORDS = {
    "attribute": N_("attribute: each chooses the one that fits the approach"),
    "surprise_distance": N_("surprise: the surprising side moves first"),
    "free_attack": N_("free attack of the surprising side"),
    "open": N_("action: the one with the floor chooses"),
    "counter": N_("counter against the action"),
    "response": N_("response"),
    "counter_response": N_("counter against the response"),
    "order": N_("order: the secret bids"),
    "resolve": N_("the action and response resolved"),
    "contest": N_("roll: 2T against 2T, top up with tokens"),
    "damage": N_("the damage roll"),
    "done": N_("the conflict is over"),
}
"""The table's phase cell in the text's words (handling, svarshandling, mothandling, turordning, frislag, skadeslag):
the GM reads where the exchange stands, not the engine's name for it."""

KIND_CELLS = {
    "combat": N_("combat"),
    "chase": N_("chase"),
    "diplomatic": N_("diplomatic"),
    "social": N_("social"),
}


def status(state: PwgeState) -> dict[str, dict[str, str]]:
    phase = _(PHASE_WORDS[state.phase]) if state.phase in PHASE_WORDS else state.phase
    table = {_("kind"): _(KIND_CELLS[state.kind]), _("phase"): phase}
    if state.phase == "open":
        table[_("floor")] = state.people[state.floor].name
        table[_("passes")] = str(state.passes)
    if state.kind in ("diplomatic", "social") and not state.suggestion():
        table[_("moves won")] = ", ".join(f"{n} {p}" for n, p in zip(state.side_names, state.points, strict=True))
    rows: dict[str, dict[str, str]] = {"table": table}
    for i, f in enumerate(state.people):
        row = {_("side"): state.side_names[f.side], _("tokens"): f"{state.tokens[i]}/{f.pool}"}
        if state.options.experience_dice:
            row[_("experience dice")] = str(state.xp[i])
        if state.kind in ("combat", "chase"):
            row[_("body points")] = str(state.body[i])
            row[_("wounds")] = wound_name(state.wounds[i])
        elif state.tracks_body():
            row[body_word(state)] = str(state.body[i])
        row[_("state")] = _("out") if state.out[i] else _("in")
        rows[f.pid] = row
    for (i, j), code in sorted(state.dist.items()) if state.distance_in_play() else ():
        label = _("distance {a}–{b}", a=state.people[i].pid, b=state.people[j].pid)
        rows[label] = {_("distance"): _dist(state, code)}
    return rows
