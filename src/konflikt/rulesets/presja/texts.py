"""What the table reads: the narrated events, the status display, views, action descriptions and outcomes.

Every text uses the source's Polish terms with English beside them, and shows every number behind a rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from konflikt.core.actions import Action
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.state import GOAL_REACHED, narration
from konflikt.rulesets.presja.models import level_text
from konflikt.rulesets.presja.naming import name_problem, without_name
from konflikt.rulesets.presja.options import ADVANTAGE_KINDS
from konflikt.rulesets.presja.rules import TACTIC_NAMES
from konflikt.rulesets.presja.static import ROLL
from konflikt.rulesets.presja.track import SLOT_NAMES, SLOTS, Absorb, box_label, track_text

if TYPE_CHECKING:
    from konflikt.rulesets.presja.state import AttackNumbers, Declaration, PresjaState


def aspect_name(state: PresjaState, key: str) -> str:
    """The aspect behind a key, in words."""
    kind, _, rest = key.partition(":")
    if kind == "own":
        return "?"
    if kind == "scene":
        return f"aspekt sytuacyjny (situation aspect) '{state.situation[int(rest) - 1]}'"
    if key == "weapon":
        return "aspekt broni (weapon aspect)"
    if key == "fate_point":
        return "Punkt Losu bez aspektu (a fate point without an aspect)"
    j = state.index[kind]
    s = SLOTS.index(rest)
    return f"{state.fighters[j].name}'s konsekwencja (consequence) '{state.cons_names[j][s]}'"


def name_for(state: PresjaState, who: int, key: str) -> str:
    if key.startswith("own:"):
        return f"aspekt (aspect) '{state.fighters[who].aspects[int(key[4:]) - 1]}'"
    if key == "weapon":
        return f"aspekt broni (weapon aspect) '{state.fighters[who].weapon_aspect}'"
    return aspect_name(state, key)


ADV_LABELS = {kind: label for kind, _, label in ADVANTAGE_KINDS}


def punkty_losu(n: int) -> str:
    """``1 Punkt Losu``, ``2 Punkty Losu``, ``5 Punktów Losu``: the Polish noun agrees with its number."""
    if n == 1:
        word = "Punkt"
    elif n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        word = "Punkty"
    else:
        word = "Punktów"
    return f"{n} {word} Losu (fate point{'' if n == 1 else 's'})"


def total_text(value: int, ladder_name: str) -> str:
    """``-1 (słaby, Poor)``: a total and its word on the ladder (the number alone off the ladder)."""
    words = level_text(value, ladder_name)
    name, _, rest = words.partition(" (")
    if not rest:
        return words
    return f"{value:+d} ({name}, {rest.partition(', ')[2]}"


@narration
def emit_setup(conflict: PresjaState) -> None:
    aspects = "; ".join(conflict.situation) or "none"
    conflict.emit("setup", f"Aspekty sytuacyjne (situation aspects): {aspects}")
    for k in range(len(conflict.zone_ids)):
        near = ", ".join(conflict.zone_ids[z] for z in sorted(conflict.adjacent[k])) or "none"
        here = ", ".join(fi.name for i, fi in enumerate(conflict.fighters) if conflict.zone[i] == k) or "nobody"
        conflict.emit("setup", f"Strefa (zone) {conflict.zone_names[k]}: {here}; sąsiednie (adjacent): {near}")
    for i, fi in enumerate(conflict.fighters):
        surprised = " — zaskoczony (surprised) in the first exchange" if i in conflict.surprised else ""
        conflict.emit(
            "setup",
            f"{fi.name} ({conflict.side_names[fi.side]}): {fi.skill_name} "
            f"{level_text(_skill(conflict, i) if i in conflict.surprised else conflict.level(i), conflict.ladder_name)}"
            ", "
            f"Zmysły (Senses) {fi.zmysly:+d}, {fi.weapon_name} Czynnik Obrażeń (damage factor) +{fi.damage}, "
            f"{fi.armour_name} Czynnik Wyparowań (absorption factor) +{fi.absorption}, "
            f"Punkty Losu (fate points) {conflict.fate_points[i]}, "
            f"tor (track) {track_text(fi.track, 0, fi.body)}{surprised}",
        )


def _skill(conflict: PresjaState, i: int) -> int:
    skill = conflict.fighters[i].skill
    return conflict.rule_values["unskilled_level"] if skill is None else skill


@narration
def emit_order(conflict: PresjaState) -> None:
    def value(i: int) -> str:
        bonus = conflict.order_bonus[i]
        aspect = f" {bonus:+d} aspekt (aspect) = {conflict.order_value(i):+d}" if bonus else ""
        return f"{conflict.fighters[i].name} (Zmysły {conflict.fighters[i].zmysly:+d}{aspect})"

    names = ", ".join(value(i) for i in conflict.order)
    conflict.emit("order", f"Kolejność (order of action) by Zmysły (Senses): {names}")


@narration
def emit_edge(conflict: PresjaState, i: int, key: str) -> None:
    conflict.emit(
        "edge",
        f"{conflict.fighters[i].name} wywołuje (invokes) {name_for(conflict, i, key)} for the order of action: "
        f"+{conflict.order_bonus[i]} to Zmysły (pays a Punkt Losu, {conflict.fate_points[i]} left)",
        who=conflict.fighters[i].id,
    )


@narration
def emit_order_pick(conflict: PresjaState, i: int) -> None:
    what = "sets the order" if conflict.rule_values["gm_sets_order"] else "decides the tie of Zmysły"
    conflict.emit("order", f"MG (GM) {what}: {conflict.fighters[i].name} acts next")


@narration
def emit_compel(conflict: PresjaState, owner: int, slot: int) -> None:
    fi = conflict.fighters[owner]
    conflict.emit(
        "compel",
        f"MG (GM) wymusza (compels) {fi.name}'s konsekwencja {SLOT_NAMES[SLOTS[slot]]} "
        f"'{conflict.cons_names[owner][slot]}': a complication for a Punkt Losu (fate point), or pay one to refuse",
        who=fi.id,
    )


@narration
def emit_compel_answer(conflict: PresjaState, owner: int, slot: int, accepted: bool) -> None:
    fi = conflict.fighters[owner]
    if accepted:
        text = (
            f"{fi.name} przyjmuje (accepts) the complication of '{conflict.cons_names[owner][slot]}' and gains a "
            f"Punkt Losu (fate point) → {conflict.fate_points[owner]}; the GM describes what goes wrong"
        )
    else:
        text = f"{fi.name} odmawia (refuses): pays a Punkt Losu (fate point) → {conflict.fate_points[owner]}"
    conflict.emit("compel", text, who=fi.id, accepted=accepted)


@narration
def emit_exchange(conflict: PresjaState) -> None:
    conflict.emit("exchange", f"— Sekwencja walki (exchange) {conflict.exchange} —", exchange=conflict.exchange)


def declaration_words(conflict: PresjaState, d: Declaration) -> str:
    """A declaration in the text's words with the English beside them (the narration and the table's cell)."""
    tactic = "" if d.tactic == "none" else f", {TACTIC_NAMES[d.tactic]}"
    if d.kind == "attack":
        return f"atak na (attack on) {conflict.fighters[d.target].name}{tactic}"
    if d.kind == "move":
        return f"przejście do strefy (move to zone) {conflict.zone_names[d.zone]}{tactic}"
    if d.kind == "defend":
        return f"tylko obrona (defends only){tactic}"
    return "poddaje się (concedes)"


@narration
def emit_declaration(conflict: PresjaState, i: int) -> None:
    d = conflict.decl[i]
    assert d is not None
    when = " before the opponents roll" if d.kind == "concede" else ""
    text = f"{conflict.fighters[i].name} deklaruje (declares): {declaration_words(conflict, d)}{when}"
    conflict.emit("declare", text, who=conflict.fighters[i].id, declared=d.kind)


@narration
def emit_concede(conflict: PresjaState, i: int, gain: int) -> None:
    conflict.emit(
        "concede",
        f"{conflict.fighters[i].name} is pokonany (conceded): leaves the scene on their own terms; the opponents "
        f"gain a fitting concession. +{punkty_losu(gain)}: 1 + {gain - 1} for consequences taken in "
        "this conflict "
        f"→ {conflict.fate_points[i]}",
        who=conflict.fighters[i].id,
        gain=gain,
    )


def _rolled_so_far(conflict: PresjaState) -> str:
    names = [conflict.fighters[j].name for j in conflict.order if conflict.dice[j] is not None]
    return f"after {', '.join(names)}'s roll" if names else "before any roll"


@narration
def emit_window_concede(conflict: PresjaState, i: int) -> None:
    roller = conflict.fighters[conflict.order[conflict.ptr]].name
    conflict.emit(
        "declare",
        f"{conflict.fighters[i].name} poddaje się (concedes) before {roller}'s roll (przed rzutem przeciwnika), "
        f"{_rolled_so_far(conflict)}",
        who=conflict.fighters[i].id,
        declared="concede",
    )


@narration
def emit_fight_on(conflict: PresjaState, i: int) -> None:
    roller = conflict.fighters[conflict.order[conflict.ptr]].name
    conflict.emit(
        "fight_on",
        f"{conflict.fighters[i].name} walczy dalej (fights on): no concession before {roller}'s roll",
        who=conflict.fighters[i].id,
    )


def fell_text(conflict: PresjaState, dice: int) -> str:
    """The 4dF as they fell, as the text writes them (``+ + 0 - = +1``) when the step knows the faces (typed at the
    table or rolled face by face); the total alone (``+1``) when it does not (exact analysis, a typed total)."""
    faces = conflict.rolled_faces()
    if faces is None or len(faces) != ROLL.count:
        return f"{dice:+d}"
    return f"{ROLL.faces_text(faces)} = {dice:+d}"


@narration
def emit_roll(conflict: PresjaState, i: int, dice: int) -> None:
    fi = conflict.fighters[i]
    lv = conflict.level(i)
    total = lv + dice
    surprised = " (zaskoczony, surprised)" if conflict.exchange == 1 and i in conflict.surprised else ""
    conflict.emit(
        "roll",
        f"{fi.name} rzuca 4dF (rolls): {fell_text(conflict, dice)} → {fi.skill_name} {lv:+d}{surprised}, "
        f"4dF {dice:+d} = "
        f"{level_text(total, conflict.ladder_name)}: Atak i Obrona (attack and defence) {total}",
        who=fi.id,
        dice=dice,
        faces=list(conflict.rolled_faces() or ()),
        level=lv,
        total=total,
    )


@narration
def emit_reroll(conflict: PresjaState, i: int, old: int, new: int) -> None:
    conflict.emit(
        "reroll",
        f"{conflict.fighters[i].name} przerzuca (rerolls) 4dF: {old:+d} → {fell_text(conflict, new)}; "
        f"Atak i Obrona now {conflict.result(i)}",
        who=conflict.fighters[i].id,
        old=old,
        dice=new,
        faces=list(conflict.rolled_faces() or ()),
    )


@narration
def emit_invoke(conflict: PresjaState, who: int, key: str, effect: str, price: str) -> None:
    pay = {
        "fp": f"pays a Punkt Losu (fate point, {conflict.fate_points[who]} left)",
        "free": "free",
        "tick": "ticks a box",
    }[price]
    what = {
        "bonus": f"+{conflict.rule_values['invoke_bonus']}",
        "reroll": "przerzut (reroll of all four dice)",
        "plus1": "+1",
        "tick": "+1 to the margin of success (Margines Sukcesu)",
    }[effect]
    conflict.emit(
        "invoke",
        f"{conflict.fighters[who].name} wywołuje (invokes) {name_for(conflict, who, key)}: {what} ({pay})",
        who=conflict.fighters[who].id,
        aspect=key,
        effect=effect,
    )


@narration
def emit_ignore(conflict: PresjaState, owner: int, who: int, ignore: bool) -> None:
    if ignore:
        text = (
            f"{conflict.fighters[owner].name} pays a Punkt Losu (fate point, {conflict.fate_points[owner]} left) "
            "and ignores "
            f"{conflict.fighters[who].name}'s invocation"
        )
    else:
        text = f"{conflict.fighters[owner].name} lets {conflict.fighters[who].name}'s invocation stand"
    conflict.emit("ignore", text, who=conflict.fighters[owner].id, ignored=ignore)


@narration
def emit_advantage(conflict: PresjaState, kind: str, a: int, b: int, holder: int) -> None:
    who = "nobody" if holder < 0 else conflict.fighters[holder].name
    bonus = "" if holder < 0 else " (+1 Atak)"
    between = f"{conflict.fighters[a].name} / {conflict.fighters[b].name}"
    conflict.emit("advantage", f"MG (GM): {ADV_LABELS[kind]}, {between}, this exchange → {who}{bonus}", advantage=kind)


@narration
def emit_attack(conflict: PresjaState, i: int, t: int, numbers: AttackNumbers) -> None:
    """Every number of the attack, each with its source: skill, 4dF, each invocation, tactic, advantages."""
    fa, ft = conflict.fighters[i], conflict.fighters[t]
    parts = roll_parts(conflict, i)
    if numbers.attack_tactic:
        parts.append(f"taktyka (tactic) {numbers.attack_tactic:+d}")
    parts.extend(f"{advantage_words(conflict, i, t, k)} +1" for k in numbers.advantages)
    defence_parts = roll_parts(conflict, t)
    if numbers.defence_tactic:
        defence_parts.append(f"taktyka (tactic) {numbers.defence_tactic:+d}")
    if numbers.crowd:
        defence_parts.append(f"the other attackers -{numbers.crowd}")
    ladder = conflict.ladder_name
    head = (
        f"{fa.name}: Atak (attack): {', '.join(parts)} = {total_text(numbers.attack, ladder)} vs {ft.name}'s "
        f"Obrona (defence): {', '.join(defence_parts)} = {total_text(numbers.defence, ladder)}"
    )
    margin = numbers.attack - numbers.defence
    if margin < 0:
        text = f"{head} — margin {margin}: odparty (repelled), no presja"
    else:
        sharp = (
            f", +{numbers.margin_bonus} Margines Sukcesu (margin, aspekt broni '{fa.weapon_aspect}')"
            if numbers.margin_bonus
            else ""
        )
        text = (
            f"{head} — margin {margin}{sharp}, +{fa.damage} Czynnik Obrażeń (damage factor, {fa.weapon_name}), "
            f"−{ft.absorption} Czynnik Wyparowań (absorption, {ft.armour_name}) → presja (pressure) {numbers.presja}"
        )
    conflict.emit(
        "attack",
        text,
        who=fa.id,
        target=ft.id,
        attack=numbers.attack,
        defence=numbers.defence,
        margin=margin,
        pressure=numbers.presja,
    )


def advantage_words(conflict: PresjaState, i: int, t: int, kind: str) -> str:
    """An advantage of ``i``'s attack on ``t`` in words: its label, and for flanking or surrounding by an attacker
    who is not at the target's side (a shooter from the next zone) what it is — the bonus of the side ("bonus +1 dla
    strony, która oskrzydliła przeciwnika") that others earn where the target stands, not the shooter's own."""
    label = ADV_LABELS[kind]
    if kind not in ("flanking", "surrounded") or conflict.zone[i] == conflict.zone[t]:
        return label
    side = conflict.fighters[i].side
    at_its_side = [
        fj.name
        for j, fj in enumerate(conflict.fighters)
        if fj.side == side and conflict._attacks(j) == t and conflict.zone[j] == conflict.zone[t]
    ]
    what = "flanking" if kind == "flanking" else "surrounding"
    target = conflict.fighters[t].name
    if not at_its_side:
        return f"{label} (the MG's (GM's) call: {conflict.fighters[i].name} shoots from the next zone)"
    return (
        f"{label.partition(' (')[0]} (the side's {what} of {target}, {conflict.side_names[side]}: "
        f"{' and '.join(at_its_side)} at {target}'s side; {conflict.fighters[i].name} shoots from "
        f"{conflict.zone_names[conflict.zone[i]]})"
    )


def roll_parts(conflict: PresjaState, i: int) -> list[str]:
    """``Walka na noże +2`` ``4dF +1`` ``aspekt 'X' +2``: the roll that is both Attack and Defence, term by term,
    each label before its signed value."""
    fi = conflict.fighters[i]
    parts = [f"{fi.skill_name} {conflict.level(i):+d}", f"4dF {conflict.dice[i] or 0:+d}"]
    step = conflict.rule_values["invoke_bonus"]
    for key in conflict.bonus_keys[i]:
        parts.append(f"{name_for(conflict, i, key)} +{1 if key == 'fate_point' else step}")
    return parts


@narration
def emit_absorb(conflict: PresjaState, t: int, p: int, option: Absorb) -> None:
    fi = conflict.fighters[t]
    parts = [f'pole (box) "{b}" takes {a}' for b, a in _boxes(conflict, t, option)]
    rest = option.cons_absorbed
    for s in option.cons:
        taken = min(conflict.values[s], rest)
        rest -= taken
        parts.append(
            f"konsekwencja {SLOT_NAMES[SLOTS[s]]} '{conflict.cons_names[t][s]}' takes {taken} of {conflict.values[s]}"
        )
    conflict.emit(
        "absorb",
        f"{fi.name} takes presja {p} (pressure): {'; '.join(parts)} → tor (track) "
        f"{track_text(fi.track, conflict.marked[t], fi.body)}",
        who=fi.id,
        pressure=p,
        boxes=option.box_total(),
        consequences=option.cons_absorbed,
    )


def _boxes(conflict: PresjaState, t: int, option: Absorb) -> list[tuple[str, int]]:
    return [(box_label(conflict.fighters[t].track[i]), a) for i, a in option.boxes]


@narration
def emit_taken_out(conflict: PresjaState, t: int, by: int, willing: bool) -> None:
    why = "chooses not to take the pressure" if willing else "cannot absorb the pressure"
    conflict.emit(
        "taken_out",
        f"{conflict.fighters[t].name} {why}: wyeliminowany (taken out). {conflict.fighters[by].name} decides what "
        "happens to them "
        "(Przeciwnik decyduje, co się z tobą stanie)",
        who=conflict.fighters[t].id,
        by=conflict.fighters[by].id,
    )


@narration
def emit_move(conflict: PresjaState, i: int) -> None:
    conflict.emit(
        "move",
        f"{conflict.fighters[i].name} przechodzi do strefy (moves to zone) {conflict.zone_names[conflict.zone[i]]}",
    )


@narration
def emit_end(conflict: PresjaState) -> None:
    conflict.emit("end", outcome(conflict).summary, ending=conflict.ending)


def outcome(conflict: PresjaState) -> ConflictOutcome:
    standing = sorted({conflict.fighters[i].side for i in range(len(conflict.fighters)) if conflict.fate[i] == 0})
    fates = {fi.id: _fate(conflict, i) for i, fi in enumerate(conflict.fighters)}
    data: dict[str, Any] = {"exchanges": conflict.exchange}
    for i, fi in enumerate(conflict.fighters):
        data[f"{fi.id}.fate_points"] = conflict.fate_points[i]
        data[f"{fi.id}.boxes_marked"] = bin(conflict.marked[i]).count("1")
        data[f"{fi.id}.consequences"] = sum(1 for c in conflict.cons[i] if c)
    if conflict.ending == GOAL_REACHED:
        won = conflict.goal_winner
        summary = (
            f"{conflict.side_names[won]} reaches its goal ({conflict.goal}) after {conflict.exchange} exchange(s): "
            "the MG's (GM's) word"
        )
        return ConflictOutcome(GOAL_REACHED, (conflict.side_ids[won],), summary, fates, data)
    if conflict.ending == "deadlock":
        return ConflictOutcome(
            "deadlock", (), f"Impas (deadlock): no side prevailed in {conflict.exchange} exchanges", fates, data
        )
    if not standing:
        return ConflictOutcome("all_out", (), "Nobody is left standing: every side is out", fates, data)
    win = standing[0]
    losers = [i for i in range(len(conflict.fighters)) if conflict.fighters[i].side != win]
    kinds = {conflict.fate[i] for i in losers}
    ending = "taken_out" if kinds == {1} else "conceded" if kinds == {2} else "taken_out_and_conceded"
    words = {"taken_out": "taking them out", "conceded": "they conceded", "taken_out_and_conceded": "out or conceded"}
    summary = f"{conflict.side_names[win]} wins ({words[ending]}) after {conflict.exchange} exchange(s)"
    return ConflictOutcome(ending, (conflict.side_ids[win],), summary, fates, data)


def _fate(conflict: PresjaState, i: int) -> str:
    cons = [f"{SLOTS[s]} '{conflict.cons_names[i][s]}'" for s in range(3) if conflict.cons[i][s]]
    tail = f"; konsekwencje (consequences): {', '.join(cons)}" if cons else ""
    return ("standing", "taken out", "conceded")[conflict.fate[i]] + tail


PHASE_WORDS = {
    "edge": "Kolejność (order of action): wywołanie (invoking) an aspect for +2 to Zmysły",
    "order": "Kolejność (order of action): the GM breaks a tie",
    "advantage": "Przewaga (advantage): the GM says who holds it",
    "compel": "the MG (GM) may compel a konsekwencja (consequence)",
    "compel_answer": "answering the MG's (GM's) compel",
    "declare": "deklaracje (declarations)",
    "roll": "rzut (roll): 4dF for Atak and Obrona (attack and defence)",
    "reroll": "przerzut (reroll)",
    "invoke": "wywołanie (invoking) aspects after the roll",
    "ignore": "ignoring an invoked aspect (a Punkt Losu)",
    "concede_window": "poddanie się (conceding) before a foe's roll, or fighting on",
    "absorb": "presja (pressure) taken on the tor (track) or in konsekwencje (consequences)",
    "done": "the conflict is over",
}
"""The table's phase cell in the text's words (Kolejność, Przewaga, deklaracje, rzut, wywołanie) with the English
beside them, or English where the text names no step: the GM reads where the exchange stands, not a code name."""


def status(conflict: PresjaState) -> dict[str, dict[str, str]]:
    rows: dict[str, dict[str, str]] = {
        "table": {
            "exchange": str(conflict.exchange),
            "phase": PHASE_WORDS.get(conflict.phase, conflict.phase),
            "aspekty sytuacyjne (situation aspects)": "; ".join(conflict.situation) or "-",
        }
    }
    for i, fi in enumerate(conflict.fighters):
        row = {
            "side": conflict.side_ids[fi.side],
            "strefa (zone)": conflict.zone_ids[conflict.zone[i]],
            "status": ("fighting", "taken out", "conceded")[conflict.fate[i]],
            "Punkty Losu (fate points)": str(conflict.fate_points[i]),
            "tor (track)": track_text(fi.track, conflict.marked[i], fi.body),
            "konsekwencje (consequences)": ", ".join(
                f"{SLOTS[s]}:{conflict.cons_names[i][s]}{'' if conflict.cons[i][s] == 2 or s == 2 else ' (free)'}"
                for s in range(3)
                if conflict.cons[i][s]
            )
            or "-",
        }
        if conflict.dice[i] is not None:
            row["wynik (result)"] = f"{conflict.result(i)} (4dF {conflict.dice[i]:+d})"
        d = conflict.decl[i]
        if d is not None:
            row["deklaracja (declaration)"] = declaration_words(conflict, d)
        if fi.weapon_boxes:
            row["aspekt broni (weapon aspect)"] = "[x]" * conflict.ticks[i] + "[ ]" * (
                fi.weapon_boxes - conflict.ticks[i]
            )
        rows[fi.id] = row
    return rows


def view(conflict: PresjaState) -> dict[str, Any]:
    """Nothing is secret in this system: declarations are made aloud in order."""
    return {
        "exchange": conflict.exchange,
        "phase": conflict.phase,
        "situation_aspects": list(conflict.situation),
        "zones": {
            z: sorted(conflict.zone_ids[k] for k in conflict.adjacent[n]) for n, (z) in enumerate(conflict.zone_ids)
        },
        "participants": {
            fi.id: {
                "name": fi.name,
                "side": conflict.side_ids[fi.side],
                "zone": conflict.zone_ids[conflict.zone[i]],
                "status": ("fighting", "taken out", "conceded")[conflict.fate[i]],
                "fate_points": conflict.fate_points[i],
                "track": track_text(fi.track, conflict.marked[i], fi.body),
                "consequences": {SLOTS[s]: conflict.cons_names[i][s] for s in range(3) if conflict.cons[i][s]},
                "result": conflict.result(i) if conflict.dice[i] is not None else None,
                "aspects": list(fi.aspects),
            }
            for i, fi in enumerate(conflict.fighters)
        },
    }


def describe(conflict: PresjaState, seat: str, action: Action) -> str:
    k = action.kind
    tactic = str(action.get("tactic") or "none")
    tac = "" if tactic == "none" else f" — {TACTIC_NAMES[tactic]}"
    if k == "attack":
        j = conflict.index[action["target"]]
        return f"atak na (attack) {conflict.fighters[j].name}: your 4dF roll is Atak against their Obrona{tac}"
    if k == "defend":
        return f"tylko obrona (defend only): no attack this exchange, your roll is your Obrona{tac}"
    if k == "move":
        return f"przejście do strefy (move to zone) {action['to']}: takes your action; you still defend{tac}"
    if k == "concede":
        i = conflict.index[seat]
        gain = 1 + conflict.cons_new[i]
        when = ""
        if conflict.phase == "concede_window":
            when = f" now, before {conflict.fighters[conflict.order[conflict.ptr]].name}'s roll"
        return f"poddaj się (concede){when}: leave the scene on your terms, gain {punkty_losu(gain)}"
    if k == "fight_on":
        roller = conflict.fighters[conflict.order[conflict.ptr]].name
        return f"walcz dalej (fight on): {roller} rolls next, and then it is too late to concede this exchange"
    if k == "invoke":
        i = conflict.index[seat]
        eff = {"bonus": f"+{conflict.rule_values['invoke_bonus']}", "reroll": "reroll 4dF", "tick": "+1 margin"}[
            action["effect"]
        ]
        return f"wywołaj (invoke) {name_for(conflict, i, str(action['aspect']))}: {eff}"
    if k == "fate_point":
        return "wydaj Punkt Losu (spend a fate point) without an aspect: +1"
    if k == "compel":
        what = _consequence_words(conflict, str(action["consequence"]))
        return f"wymuś (compel) {what}: offer its owner a Punkt Losu for a complication"
    if k == "pass" and conflict.phase == "compel":
        return "nie wymuszaj (no compel) this exchange"
    if k == "accept" and conflict.phase == "compel_answer":
        return "przyjmij (accept) the complication: gain a Punkt Losu (fate point)"
    if k == "refuse":
        return "odmów (refuse) the complication: pay a Punkt Losu (fate point)"
    if k == "pass" and conflict.phase == "edge":
        return "nie wywołuj (no invocation): act in the order Zmysły gives"
    if k == "pass":
        return "nie wywołuj (no more invocations) this exchange"
    if k == "ignore":
        return "zapłać Punkt Losu (pay a fate point) and ignore the invocation of your consequence"
    if k == "accept":
        return "let the invocation of your consequence stand"
    if k == "absorb":
        parts = [_box_words(p) for p in str(action["boxes"]).split("+") if p]
        parts += [f"konsekwencja {SLOT_NAMES[c]}" for c in str(action["cons"]).split("+") if c]
        return "przyjmij presję (take the pressure): " + ", ".join(parts)
    if k == "taken_out":
        return "nie przyjmuj (refuse the pressure): be wyeliminowany (taken out); the opponent narrates"
    if k == "edge":
        i = conflict.index[seat]
        return (
            f"wywołaj (invoke) {name_for(conflict, i, str(action['aspect']))} for the order of action: "
            f"+{conflict.rule_values['invoke_bonus']} to Zmysły (a Punkt Losu)"
        )
    if k == "order":
        return f"{action['first']} acts next (MG decides the order of action)"
    if k == "advantage":
        label = ADV_LABELS.get(str(action["which"]), action["which"])
        between = " / ".join(action.get("pair") or ())
        return f"{label}, {between}, this exchange → {action['holder'] or 'nobody'}"
    return str(action)


def _consequence_words(conflict: PresjaState, key: str) -> str:
    """``belzee:mild`` → ``Belzee's konsekwencja lekka (mild) 'Rozcięta brew'``."""
    who, _, slot = key.partition(":")
    i = conflict.index.get(who)
    if i is None or slot not in SLOTS:
        return key
    name = conflict.cons_names[i][SLOTS.index(slot)]
    return f"{conflict.fighters[i].name}'s konsekwencja {SLOT_NAMES[slot]}" + (f" '{name}'" if name else "")


def _box_words(box: str) -> str:
    """``2-3:3`` → ``pole (box) 2-3 takes 3``."""
    label, _, amount = box.rpartition(":")
    return f"pole (box) {label} takes {amount}" if label else f"pole (box) {box}"


def why_illegal(conflict: PresjaState, seat: str, action: Action) -> str | None:
    """Specific reasons for the commonest mistakes; ``None`` falls back to the generic list."""
    if action.kind == "concede" and seat in conflict.index and conflict.current_player() == seat:
        late = _too_late_to_concede(conflict, conflict.index[seat])
        if late is not None:
            return late
    if (
        conflict.phase == "absorb"
        and action.kind == "absorb"
        and conflict.fighters[conflict.hits[conflict.ptr][1]].id == seat
    ):
        p = conflict.hits[conflict.ptr][2]
        wrong_name = name_problem(action)
        if wrong_name is not None:
            return wrong_name
        return (
            f"that does not take presja {p} by the rules: each free box once, an amount within its range, "
            "consequences for the rest with none taken for nothing (legal: "
            + "; ".join(str(without_name(a)) for a in conflict.legal_actions(seat))
            + ")"
        )
    if (
        seat not in conflict.index
        or conflict.phase != "declare"
        or conflict.fighters[conflict.order[conflict.ptr]].id != seat
    ):
        return None
    i = conflict.index[seat]
    tactic = action.get("tactic") or "none"
    if tactic != "none" and not conflict.rule_values["tactics"]:
        return "the tactic rule (option 'tactics') is off: only tactic=none"
    if action.kind == "attack":
        target = action.get("target")
        if target not in conflict.index:
            return f"no participant {target!r}"
        j = conflict.index[target]
        if conflict.fighters[j].side == conflict.fighters[i].side:
            return f"{conflict.fighters[j].name} is on your side"
        if conflict.fate[j] != 0:
            return f"{conflict.fighters[j].name} is no longer in the fight"
        if not conflict.reachable(i, j):
            return (
                f"{conflict.fighters[j].name} is in zone {conflict.zone_ids[conflict.zone[j]]}: only the same zone, "
                "or an adjacent one "
                "with a ranged weapon"
            )
    if action.kind == "concede":
        return "conceding is not allowed here (option 'allow_concede' or the character's may_concede)"
    if action.kind == "move" and action.get("to") in conflict.zone_ids:
        return "you may move only to an adjacent zone"
    return None


def _too_late_to_concede(conflict: PresjaState, i: int) -> str | None:
    """Why ``i`` may not concede now when a foe has rolled this exchange ("Musisz to jednak zadeklarować przed
    rzutem przeciwnika"), or ``None``."""
    if conflict.phase in ("declare", "concede_window") or not conflict.may_concede(i) or not conflict.foe_has_rolled(i):
        return None
    side = conflict.fighters[i].side
    rolled = [fj.name for j, fj in enumerate(conflict.fighters) if fj.side != side and conflict.dice[j] is not None]
    return (
        f"too late to concede this exchange: {', '.join(rolled)} {'has' if len(rolled) == 1 else 'have'} rolled, "
        "and one concedes before the opponent's "
        "roll ('Musisz to jednak zadeklarować przed rzutem przeciwnika'); concede at the next exchange's declaration"
    )
