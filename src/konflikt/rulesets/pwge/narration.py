"""The words of PWGE: event texts, action descriptions, reasons for refusals and the status table.

Swedish terms from the text with English beside them, and every number that decides a step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from konflikt.core.actions import Action
from konflikt.rulesets.pwge.choices import paid_with_die, without_payment
from konflikt.rulesets.pwge.exchange import DIFFICULTY, Contest, DamageRoll, Deed, Exchange
from konflikt.rulesets.pwge.fighters import Fighter
from konflikt.rulesets.pwge.models import armoury
from konflikt.rulesets.pwge.rules import LAST_MELEE, WOUND_GLOSS, WOUND_LEVELS, distance_label, melee_reach, token_loss

if TYPE_CHECKING:
    from konflikt.rulesets.pwge.state import PwgeState


def _weapon_name(key: str) -> str:
    arms = armoury()
    return arms.melee[key].name if key in arms.melee else arms.ranged[key].name


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


def counted(count: int, one: str, many: str) -> str:
    """A count with its word in the singular or the plural: ``1 token``, ``3 tokens``, ``1 erfarenhetstärning``."""
    return f"{count} {one if count == 1 else many}"


def tokens_word(count: int) -> str:
    """``1 token``, ``3 tokens``."""
    return counted(count, "token", "tokens")


def dice_words(count: int) -> str:
    """``1 erfarenhetstärning (experience die)``, ``2 erfarenhetstärningar (experience dice)``."""
    return counted(count, "erfarenhetstärning (experience die)", "erfarenhetstärningar (experience dice)")


def kind_line(state: PwgeState) -> None:
    state.emit("setup", f"PWGE: {KIND_WORDS[state.kind]}")


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
        words += f" + {f.melee_name} {f.melee_bonus} (at its length)"
    return words


def band_parts(band: int) -> str:
    """The difficulty of an uncountered attack, in words."""
    if band == 0:
        return ""
    reach = "avstånd 1…Kort" if band == 2 else "beyond Kort, up to Max"
    return f"svårighetsgrad (difficulty) {band} ({reach})"


def press_word(state: PwgeState) -> str:
    """Diplomacy's moves are utspel, a social conflict's framstötar."""
    return "utspel (negotiating move)" if state.kind == "diplomatic" else "framstöt (verbal thrust)"


def body_word(state: PwgeState) -> str:
    if state.kind == "diplomatic":
        return "diplomatiska kroppspoäng (diplomatic body points)"
    if state.kind == "social":
        return "sociala kroppspoäng (social body points)"
    return "kroppspoäng (body points)"


def damage_word(d: DamageRoll) -> str:
    return "skadeslag" if not d.social else "skadeslag (social)"


def gained(state: PwgeState, side: int) -> None:
    moves = "utspel" if state.kind == "diplomatic" else "framstötar"
    state.emit(
        "gain",
        f"{state.side_names[side]} gains ground: {state.points[side]} of {state.setup.goal_successes} "
        f"successful {moves} (moves) toward the goal",
        points=state.points[side],
    )


def other_done(state: PwgeState, deed: Deed) -> None:
    f = state.people[deed.actor]
    if deed.kind == "switch":
        text = f"{f.name} now holds {f.melee_name if deed.weapon in armoury().melee else f.ranged_name}"
    else:
        text = f"{f.name}'s handling (action) happens: the GM narrates what it does"
    state.emit("other", text, seat=f.pid)


def opening(state: PwgeState) -> None:
    for i, f in enumerate(state.people):
        side = state.side_names[f.side]
        others = sum(1 for g in state.people if g.side == f.side) - 1
        state.emit(
            "pool",
            f"{f.name} ({side}): handlingspöl (action pool) {tokens_word(f.pool)} = 2×{f.attribute_name} "
            f"{f.attribute} {IDENTITY[f.identity_fit]} +2×{counted(f.skill_count, 'fitting skill', 'fitting skills')}"
            f" −{counted(others, 'other', 'others')} on the side"
            + (f"; {dice_words(state.xp[i])}" if state.xp[i] else ""),
            seat=f.pid,
            tokens=f.pool,
        )
        if f.damage_taken and state.kind in ("combat", "chase"):
            state.emit(
                "carried",
                f"{f.name} comes to this conflict with {state.body[i]} of {f.body} kroppspoäng (body points): "
                f"{f.damage_taken} lost in an earlier one"
                + ("; Medvetslös (unconscious), out of the conflict" if state.out[i] else ""),
                seat=f.pid,
            )
    for (i, j), code in sorted(state.dist.items()):
        if state.distance_in_play():
            state.emit(
                "distance", f"avstånd (distance) {state.people[i].name}–{state.people[j].name}: {_dist(state, code)}"
            )


def attack_label(state: PwgeState, deed: Deed) -> str:
    """An attack's roll named with its weapon: ``anfall (attack) with Strålpistol``."""
    f = state.people[deed.actor]
    return f"anfall (attack) with {f.melee_name if deed.weapon == 'melee' else f.ranged_name}"


def deed_words(state: PwgeState, deed: Deed) -> str:
    f = state.people[deed.actor]
    if deed.kind == "attack":
        weapon = f.melee_name if deed.weapon == "melee" else f.ranged_name
        return f"anfall (attack) with {weapon}"
    if deed.kind == "press":
        return press_word(state)
    if deed.kind == "switch":
        return f"byter vapen (switches weapons) to {_weapon_name(deed.weapon)}"
    if deed.kind == "other":
        return "en annan handling (another action)" + (", rolled for" if deed.rolled else "")
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
        if state.kind == "social":
            what = "viftar undan framstöten (brushes the thrust off)"
        else:
            what = "negerar utspelet (negates the move)"
    elif deed.kind in ("switch", "other"):
        what = "försöker hindra den (tries to stop it)"
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
            return f"{state.people[c.a].name}'s {c.label}: {_dice('2T', c.a_mod, c.a_parts)}"
        if c.b == DIFFICULTY:
            return f"the difficulty (svårighetsgrad) {_dice('2T', c.b_mod, c.b_parts)}"
        role = "turordningsslag (order roll)" if c.purpose == "order" else "mothandling (counter)"
        return f"{state.people[c.b].name}'s {role}: {_dice('2T', c.b_mod, c.b_parts)}"
    d = state.dmg
    if d is not None:
        return f"{state.people[d.attacker].name}'s {damage_word(d)} (damage roll): {_dice('1T', d.modifier, d.parts)}"
    return "roll"


def _dice(dice: str, modifier: int, parts: str) -> str:
    """``2T+7 = Smidighet 4 + Svärdskonst 2 + svärd 1``: the roll with its modifier broken down."""
    notation = dice if modifier == 0 else f"{dice}{modifier:+d}"
    return f"{notation} = {parts}" if parts else notation


def contest_roll(state: PwgeState, c: Contest, who: str, total: int) -> None:
    if who == "a":
        text = f"{state.people[c.a].name} rolls the {c.label}: {_dice('2T', c.a_mod, c.a_parts)} → {total}"
    elif c.b == DIFFICULTY:
        text = f"difficulty (svårighetsgrad) {_dice('2T', c.b_mod, c.b_parts)} → {total}"
    else:
        role = "turordningsslag (order roll)" if c.purpose == "order" else "mothandling (counter)"
        text = f"{state.people[c.b].name} rolls the {role}: {_dice('2T', c.b_mod, c.b_parts)} → {total}"
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
        f"{state.people[d.attacker].name}'s {damage_word(d)} (damage roll) {_dice('1T', d.modifier, d.parts)} → "
        f"{d.roll}{armour}",
        total=d.roll,
    )


def damage(state: PwgeState, d: DamageRoll, points: int, level: int, before: int) -> None:
    t = state.people[d.defender]
    name = WOUND_LEVELS[level]
    lost = f"loses {tokens_word(token_loss(level))} ({before} → {state.tokens[d.defender]})"
    if points == 0:
        text = f"{t.name} takes no damage ({damage_word(d)} {d.roll} − armour {d.armour})"
    elif d.social:
        text = f"{t.name} loses {points} {body_word(state)} → {lost}; {state.body[d.defender]} left"
    else:
        text = (
            f"{t.name} takes {points} damage: {name} ({WOUND_GLOSS[name]}) → {lost}; "
            f"{body_word(state)} {state.body[d.defender]}"
        )
    state.emit("damage", text, seat=t.pid, points=points, level=level, tokens=state.tokens[d.defender])


def taken_out(state: PwgeState, j: int, social: bool) -> None:
    f = state.people[j]
    what = f"has lost all {body_word(state)}" if social else "is Medvetslös (unconscious)"
    state.emit("out", f"{f.name} {what}: out of the conflict", seat=f.pid)


def describe_action(state: PwgeState, seat: str, action: Action) -> str:
    words = _describe(state, seat, without_payment(action))
    if paid_with_die(action):
        return words.replace("1 token", "1 erfarenhetstärning (experience die) instead of a token")
    return words


def _describe(state: PwgeState, seat: str, action: Action) -> str:
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
        return f"{prefix[k]}: anfall (attack) {who} with {tool} ({'free' if k == 'free_attack' else '1 token'})"
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
    if k == "attribute":
        i = state.index[seat]
        value = state.characters[i]["attributes"][action["name"]]
        return f"egenskap (attribute) {action['name']} {value}: the one that best fits your approach"
    if k == "start":
        return f"start the fight at {distance_label(int(action['distance']))}"
    if k == "switch":
        return f"handling: byt vapen (switch weapons) to {_weapon_name(str(weapon))}, facing {name} (1 token)"
    if k == "other":
        roll = "rolled for: 2T + attribute + skill against 2T" if action.get("roll") else "no roll unless countered"
        return f"handling: something else — say what (open a door, grab the chart), facing {name}; {roll} (1 token)"
    if k == "press" or action.get("deed") == "press":
        return f"{press_word(state)} against {name or 'the actor'} (1 token)"
    way = action.get("way")
    if way:
        towards = "closer to" if way == "closer" else "farther from"
        return f"ändra avstånd (change distance): {towards} {name or 'the actor'} (1 token)"
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


PHASE_WORDS = {
    "attribute": "egenskap (attribute): each chooses the one that fits the approach",
    "surprise_distance": "surprise: the surprising side moves first",
    "free_attack": "frislag (free attack) of the surprising side",
    "open": "handling (action): the one with the floor chooses",
    "counter": "mothandling (counter) against the handling (action)",
    "response": "svarshandling (response)",
    "counter_response": "mothandling (counter) against the svarshandling (response)",
    "order": "turordning (order): the secret bids",
    "resolve": "the handling (action) and svarshandling (response) resolved",
    "contest": "slag (roll): 2T against 2T, toppa (top up) with marker (tokens)",
    "damage": "skadeslag (damage roll)",
    "done": "the conflict is over",
}
"""The table's phase cell in the text's words (handling, svarshandling, mothandling, turordning, frislag, skadeslag)
with the English beside them: the GM reads where the exchange stands, not the engine's name for it."""


def status(state: PwgeState) -> dict[str, dict[str, str]]:
    table = {"kind": state.kind, "phase": PHASE_WORDS.get(state.phase, state.phase)}
    if state.phase == "open":
        table["floor"] = state.people[state.floor].name
        table["passes"] = str(state.passes)
    if state.kind in ("diplomatic", "social") and not state.suggestion():
        table["moves won"] = ", ".join(f"{n} {p}" for n, p in zip(state.side_names, state.points, strict=True))
    rows: dict[str, dict[str, str]] = {"table": table}
    for i, f in enumerate(state.people):
        row = {"side": state.side_names[f.side], "marker (tokens)": f"{state.tokens[i]}/{f.pool}"}
        if state.options.experience_dice:
            row["erfarenhetstärningar (experience dice)"] = str(state.xp[i])
        if state.kind in ("combat", "chase"):
            row["kroppspoäng (body points)"] = str(state.body[i])
            level = WOUND_LEVELS[state.wounds[i]]
            row["sår (wounds)"] = f"{level} ({WOUND_GLOSS[level]})"
        elif state.tracks_body():
            row[body_word(state)] = str(state.body[i])
        row["state"] = "out" if state.out[i] else "in"
        rows[f.pid] = row
    for (i, j), code in sorted(state.dist.items()) if state.distance_in_play() else ():
        rows[f"avstånd (distance) {state.people[i].pid}–{state.people[j].pid}"] = {"distance": _dist(state, code)}
    return rows
