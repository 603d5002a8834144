"""The words of PWGE: event texts, action descriptions, reasons for refusals and the status table.

Swedish terms from the text with English beside them, and every number that decides a step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from konflikt.core.actions import Action
from konflikt.rulesets.pwge.exchange import DIFFICULTY, Contest, DamageRoll, Deed, Exchange
from konflikt.rulesets.pwge.rules import LAST_MELEE, WOUND_GLOSS, WOUND_LEVELS, distance_label, token_loss

if TYPE_CHECKING:
    from konflikt.rulesets.pwge.state import PwgeState

KIND_WORDS = {
    "combat": "strid (combat)",
    "chase": "jakt (chase)",
    "diplomatic": "diplomatisk konflikt (diplomatic conflict)",
    "social": "social konflikt (social conflict)",
}


IDENTITY = {"direct": "+4 identity fits directly", "indirect": "+2 identity fits indirectly", "none": "+0 identity"}


def _dist(state: PwgeState, code: int) -> str:
    if state.kind in ("combat", "chase"):
        return distance_label(code)
    return f"{code} of 0–10"


def opening(state: PwgeState) -> None:
    state.emit("setup", f"PWGE: {KIND_WORDS[state.kind]}")
    for i, f in enumerate(state.people):
        side = state.side_names[f.side]
        others = sum(1 for g in state.people if g.side == f.side) - 1
        state.emit(
            "pool",
            f"{f.name} ({side}): handlingspöl (action pool) {f.pool} tokens = 2×{f.attribute_name} {f.attribute}"
            f" {IDENTITY[f.identity_fit]} +2×{f.skill_count} fitting skills −{others} others on the side"
            + (f"; {state.xp[i]} erfarenhetstärningar (experience dice)" if state.xp[i] else ""),
            seat=f.pid,
            tokens=f.pool,
        )
    for (i, j), code in sorted(state.dist.items()):
        state.emit(
            "distance", f"avstånd (distance) {state.people[i].name}–{state.people[j].name}: {_dist(state, code)}"
        )


def deed_words(state: PwgeState, deed: Deed) -> str:
    if deed.kind == "attack":
        f = state.people[deed.actor]
        weapon = f.melee_name if deed.weapon == "melee" else f.ranged_name
        return f"anfall (attack) with {weapon}"
    if deed.kind == "press":
        return "utspel (a negotiating/social move)" if state.kind == "diplomatic" else "framstöt (a verbal thrust)"
    way = "minska (closer)" if deed.way == "closer" else "öka (farther)"
    return f"ändra avstånd (change distance): {way}"


def declared(state: PwgeState, deed: Deed) -> None:
    a, t = state.people[deed.actor].name, state.people[deed.target].name
    if deed.free:
        text = f"{a}: frislag (free attack) on surprised {t} — {deed_words(state, deed)}, costs no token, no response"
    elif deed.role == "response":
        text = f"{a}: svarshandling (response) aimed at {t} — {deed_words(state, deed)}"
    else:
        text = f"{a}: handling (action) against {t} — {deed_words(state, deed)}"
    state.emit("declare", text, actor=state.people[deed.actor].pid, target=state.people[deed.target].pid)


def countered(state: PwgeState, deed: Deed) -> None:
    if deed.kind == "distance":
        what = "håller avståndet (holds the distance)"
    elif deed.kind == "press":
        what = "viftar undan framstöten (brushes the move off)"
    elif deed.weapon == "ranged" and state.pair(deed.actor, deed.target) > LAST_MELEE:
        what = "duckar (dodges)"
    else:
        what = "parerar eller kliver undan (parries or steps aside)"
    state.emit("counter", f"{state.people[deed.target].name}: mothandling (counter) — {what}")


def order(state: PwgeState, ex: Exchange) -> None:
    if ex.order == "simultaneous":
        text = "action and response happen at the same time (samtidigt): both resolve"
    else:
        first = ex.action if ex.order == "action" else ex.response
        assert first is not None
        text = f"turordning (order): {state.people[first.actor].name}'s {first.role} happens first"
    state.emit("order", text, order=ex.order)


def roll_purpose(state: PwgeState) -> str:
    c = state.contest
    if state.phase == "contest" and c is not None:
        if c.a_roll is None:
            return f"{state.people[c.a].name}'s {c.label}: 2T{c.a_mod:+d}"
        if c.b == DIFFICULTY:
            return f"the difficulty (svårighetsgrad) 2T{c.b_mod:+d}"
        role = "turordningsslag (order roll)" if c.purpose == "order" else "mothandling (counter)"
        return f"{state.people[c.b].name}'s {role}: 2T{c.b_mod:+d}"
    d = state.dmg
    if d is not None:
        return f"{state.people[d.attacker].name}'s skadeslag (damage roll): 1T{d.modifier:+d}"
    return "roll"


def contest_roll(state: PwgeState, c: Contest, who: str, total: int) -> None:
    if who == "a":
        text = f"{state.people[c.a].name} rolls the {c.label}: 2T{c.a_mod:+d} = {total}"
    elif c.b == DIFFICULTY:
        text = f"difficulty (svårighetsgrad) 2T{c.b_mod:+d} = {total}"
    else:
        role = "turordningsslag (order roll)" if c.purpose == "order" else "mothandling (counter)"
        text = f"{state.people[c.b].name} rolls the {role}: 2T{c.b_mod:+d} = {total}"
    if c.a_roll is not None and c.b_roll is not None:
        result = c.winner()
        lead = {"a": state.people[c.a].name, "b": _b_name(state, c), "tie": "nobody"}[result]
        text += f" — {c.a_roll} against {c.b_roll}: {lead} ahead" + (" (a tie holds)" if c.a_roll == c.b_roll else "")
    state.emit("roll", text, total=total)


def _b_name(state: PwgeState, c: Contest) -> str:
    return "the difficulty" if c.b == DIFFICULTY else state.people[c.b].name


def contest_result(state: PwgeState, c: Contest, result: str) -> None:
    a = state.people[c.a].name
    if c.purpose == "order":
        text = {"a": f"{a} wins the turordningsslag", "b": f"{_b_name(state, c)} wins the turordningsslag"}.get(
            result, "the turordningsslag is a tie: action and response stay simultaneous"
        )
    elif result == "a":
        text = f"{a}'s {c.label} succeeds ({c.a_roll} against {c.b_roll})"
    else:
        text = f"{a}'s {c.label} fails ({c.a_roll} against {c.b_roll}; a tie holds for the defence)"
    state.emit("result", text, result=result)


def moved(state: PwgeState, deed: Deed, before: int, after: int) -> None:
    a, t = state.people[deed.actor].name, state.people[deed.target].name
    state.emit(
        "moved",
        f"avstånd (distance) {a}–{t}: {_dist(state, before)} → {_dist(state, after)}",
        before=before,
        after=after,
    )


def damage_roll(state: PwgeState, d: DamageRoll) -> None:
    assert d.roll is not None
    armour = f" − {d.armour} armour = {max(0, d.roll - d.armour)} damage" if d.armour else " damage"
    state.emit(
        "damage_roll",
        f"{state.people[d.attacker].name}'s skadeslag (damage roll) 1T{d.modifier:+d} = {d.roll}{armour}",
        total=d.roll,
    )


def damage(state: PwgeState, d: DamageRoll, points: int, level: int, before: int) -> None:
    t = state.people[d.defender]
    kind = "diplomatiska/sociala kroppspoäng (social body points)" if d.social else "kroppspoäng (body points)"
    name = WOUND_LEVELS[level]
    if points == 0:
        text = f"{t.name} takes no damage (skadeslag {d.roll} − armour {d.armour})"
    else:
        text = (
            f"{t.name} takes {points} damage: {name} ({WOUND_GLOSS[name]}) → loses {token_loss(level)} tokens "
            f"({before} → {state.tokens[d.defender]}); {kind} {state.body[d.defender]}"
        )
    state.emit("damage", text, seat=t.pid, points=points, level=level, tokens=state.tokens[d.defender])


def taken_out(state: PwgeState, j: int, social: bool) -> None:
    f = state.people[j]
    what = "has lost all social/diplomatic body points" if social else "is Medvetslös (unconscious)"
    state.emit("out", f"{f.name} {what}: out of the conflict", seat=f.pid)


def describe_action(state: PwgeState, seat: str, action: Action) -> str:
    target = action.get("target")
    name = state.people[state.index[target]].name if target in state.index else ""
    k = action.kind
    weapon = action.get("weapon")
    if k in ("attack", "free_attack", "respond") and (action.get("deed") in (None, "attack")) and weapon:
        i = state.index[seat]
        f = state.people[i]
        tool = f.melee_name if weapon == "melee" else f.ranged_name
        who = name or (state.people[state.ex.action.actor].name if state.ex else "")
        prefix = {"attack": "handling", "free_attack": "frislag (free attack)", "respond": "svarshandling (response)"}
        return f"{prefix[k]}: anfall (attack) {who} with {tool} (1 token{'' if k != 'free_attack' else ', free'})"
    texts = {
        "pass": "pass — let the floor go (if everybody passes in a row: deadlock)",
        "counter": "mothandling (counter): 1 token, an opposed slag (throw) to negate it",
        "no_counter": "no counter",
        "no_response": "no svarshandling (response)",
        "order": "sätta turordning (set order): 1 token to make your deed happen first",
        "no_order": "no turordning (order)",
        "top": "toppa (top): 1 token, slå om (throw again) — the new result replaces the old",
        "accept": "accept the result as it stands",
        "counter_top": "mot-toppa (counter-top): 1 token; the attacker must slå om (throw again) or pay to keep it",
        "counter_counter_top": "mot-mot-toppa (counter-counter-top): 1 token, the skadeslag stands",
        "reroll": "slå om skadeslaget (throw the damage again, no token)",
        "no_free_attack": "no frislag (free attack)",
    }
    if k in texts:
        return texts[k]
    if k == "start":
        return f"start the fight at {distance_label(int(action['distance']))}"
    if k == "press" or action.get("deed") == "press":
        return f"utspel/framstöt (move) against {name or 'the actor'} (1 token)"
    way = action.get("way")
    if way:
        return f"ändra avstånd (change distance) {way} to {name or 'the actor'} (1 token)"
    return str(action)


def why_illegal(state: PwgeState, seat: str, action: Action) -> str:
    if state.phase == "done":
        return "the conflict is over"
    if seat not in state.index:
        return f"{seat!r} is not a participant"
    i = state.index[seat]
    if state.phase != "order" and state.current_player() != seat:
        return f"it is {state.current_player()}'s turn to decide, not {seat}'s"
    legal = state.legal_actions(seat)
    target = action.get("target")
    if action.kind in ("attack", "free_attack") and target in state.index:
        j = state.index[target]
        if state.out[j]:
            return f"{state.people[j].name} is out of the conflict"
        code = state.pair(i, j)
        weapon = action.get("weapon")
        if weapon == "ranged" and state.people[i].ranged is None:
            return f"{state.people[i].name} has no ranged weapon"
        if state.attack_mods(i, j, str(weapon), code) is None:
            return (
                f"{state.people[i].name} cannot reach {state.people[j].name} with that weapon at {distance_label(code)}"
            )
    kinds = sorted({a.kind for a in legal})
    if action.kind not in kinds:
        return f"{action.kind!r} is not possible now (possible: {', '.join(kinds) or 'nothing'})"
    return "not one of the legal choices now (" + "; ".join(str(a) for a in legal[:8]) + ")"


def status(state: PwgeState) -> dict[str, dict[str, str]]:
    table = {"kind": state.kind, "phase": state.phase}
    if state.phase == "open":
        table["floor"] = state.people[state.floor].name
        table["passes"] = str(state.passes)
    if state.kind in ("diplomatic", "social") and not state.options.social_damage:
        table["moves won"] = ", ".join(f"{n} {p}" for n, p in zip(state.side_names, state.points, strict=True))
    rows: dict[str, dict[str, str]] = {"table": table}
    for i, f in enumerate(state.people):
        row = {"side": state.side_names[f.side], "marker": f"{state.tokens[i]}/{f.pool}"}
        if state.options.experience_dice:
            row["erfarenhetstärningar"] = str(state.xp[i])
        if state.tracks_body():
            row["kroppspoäng"] = str(state.body[i])
            row["sår"] = WOUND_LEVELS[state.wounds[i]]
        row["state"] = "out" if state.out[i] else "in"
        rows[f.pid] = row
    for (i, j), code in sorted(state.dist.items()):
        rows[f"avstånd {state.people[i].pid}–{state.people[j].pid}"] = {"distance": _dist(state, code)}
    return rows
