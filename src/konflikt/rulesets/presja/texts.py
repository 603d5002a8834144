"""What the table reads: the narrated events, the status display, views, action descriptions and outcomes.

Every text uses the source's Polish terms with English beside them, and shows every number behind a rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from konflikt.core.actions import Action
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.state import narration
from konflikt.rulesets.presja.invoke import name_for
from konflikt.rulesets.presja.models import level_text
from konflikt.rulesets.presja.options import ADVANTAGE_KINDS
from konflikt.rulesets.presja.rules import TACTIC_NAMES
from konflikt.rulesets.presja.track import SLOT_NAMES, SLOTS, Absorb, track_text

if TYPE_CHECKING:
    from konflikt.rulesets.presja.state import PresjaState

ADV_LABELS = {kind: label for kind, _, label in ADVANTAGE_KINDS}
STATUS_WORDS = ("w walce (fighting)", "wyeliminowany (taken out)", "pokonany — poddał się (conceded)")


@narration
def emit_setup(st: PresjaState) -> None:
    aspects = "; ".join(st.situation) or "none"
    st.emit("setup", f"Aspekty sytuacyjne (situation aspects): {aspects}")
    for k in range(len(st.zone_ids)):
        near = ", ".join(st.zone_ids[z] for z in sorted(st.adjacent[k])) or "none"
        here = ", ".join(fi.name for i, fi in enumerate(st.f) if st.zone[i] == k) or "nobody"
        st.emit("setup", f"Strefa (zone) {st.zone_names[k]}: {here}; sąsiednie (adjacent): {near}")
    for i, fi in enumerate(st.f):
        surprised = " — zaskoczony (surprised) in the first exchange" if i in st.surprised else ""
        st.emit(
            "setup",
            f"{fi.name} ({st.side_names[fi.side]}): {fi.skill_name} "
            f"{level_text(st.level(i) if i not in st.surprised else _skill(st, i), st.ladder_name)}, "
            f"Zmysły (Senses) {fi.zmysly:+d}, {fi.weapon_name} Czynnik Obrażeń (damage factor) +{fi.damage}, "
            f"{fi.armour_name} Czynnik Wyparowań (absorption factor) +{fi.absorption}, "
            f"Punkty Losu (fate points) {st.fp[i]}, tor (track) {track_text(fi.track, 0)}{surprised}",
        )


def _skill(st: PresjaState, i: int) -> int:
    skill = st.f[i].skill
    return st.o["unskilled_level"] if skill is None else skill


@narration
def emit_order(st: PresjaState) -> None:
    names = ", ".join(f"{st.f[i].name} (Zmysły {st.f[i].zmysly:+d})" for i in st.order)
    st.emit("order", f"Kolejność (order of action) by Zmysły (Senses): {names}")


@narration
def emit_order_pick(st: PresjaState, i: int) -> None:
    what = "sets the order" if st.o["gm_sets_order"] else "decides the tie of Zmysły"
    st.emit("order", f"MG (GM) {what}: {st.f[i].name} acts next")


@narration
def emit_exchange(st: PresjaState) -> None:
    st.emit("exchange", f"— Sekwencja walki (exchange) {st.exchange} —", exchange=st.exchange)


@narration
def emit_declaration(st: PresjaState, i: int) -> None:
    d = st.decl[i]
    assert d is not None
    name = st.f[i].name
    tactic = "" if d[2] == "none" else f", {TACTIC_NAMES[d[2]]}"
    if d[0] == "attack":
        text = f"{name} deklaruje (declares): atak na (attack on) {st.f[d[1]].name}{tactic}"
    elif d[0] == "move":
        text = f"{name} deklaruje (declares): przejście do strefy (move to zone) {st.zone_names[d[3]]}{tactic}"
    elif d[0] == "defend":
        text = f"{name} deklaruje (declares): tylko obrona (defends only){tactic}"
    else:
        text = f"{name} deklaruje (declares): poddaje się (concedes) before the opponents roll"
    st.emit("declare", text, who=st.f[i].id, declared=d[0])


@narration
def emit_concede(st: PresjaState, i: int, gain: int) -> None:
    st.emit(
        "concede",
        f"{st.f[i].name} is pokonany (conceded): leaves the scene on their own terms; the opponents gain a fitting "
        f"concession. +{gain} Punkty Losu (fate points: 1 + {gain - 1} for consequences taken in this conflict) "
        f"→ {st.fp[i]}",
        who=st.f[i].id,
        gain=gain,
    )


@narration
def emit_roll(st: PresjaState, i: int, dice: int) -> None:
    fi = st.f[i]
    lv = st.level(i)
    total = lv + dice
    surprised = " (zaskoczony, surprised)" if st.exchange == 1 and i in st.surprised else ""
    st.emit(
        "roll",
        f"{fi.name} rzuca 4dF (rolls): {dice:+d} → {fi.skill_name} {lv:+d}{surprised} {dice:+d} = "
        f"{level_text(total, st.ladder_name)}: Atak i Obrona (attack and defence) {total}",
        who=fi.id,
        dice=dice,
        level=lv,
        total=total,
    )


@narration
def emit_reroll(st: PresjaState, i: int, old: int, new: int) -> None:
    st.emit(
        "reroll",
        f"{st.f[i].name} przerzuca (rerolls) 4dF: {old:+d} → {new:+d}; Atak i Obrona now {st.result(i)}",
        who=st.f[i].id,
        old=old,
        dice=new,
    )


@narration
def emit_invoke(st: PresjaState, who: int, key: str, effect: str, price: str) -> None:
    pay = {"fp": f"pays a Punkt Losu (fate point, {st.fp[who]} left)", "free": "free", "tick": "ticks a box"}[price]
    what = {
        "bonus": f"+{st.o['invoke_bonus']}",
        "reroll": "przerzut (reroll of all four dice)",
        "plus1": "+1",
        "tick": "+1 to the margin of success (Margines Sukcesu)",
    }[effect]
    st.emit(
        "invoke",
        f"{st.f[who].name} wywołuje (invokes) {name_for(st, who, key)}: {what} ({pay})",
        who=st.f[who].id,
        aspect=key,
        effect=effect,
    )


@narration
def emit_ignore(st: PresjaState, owner: int, who: int, ignore: bool) -> None:
    if ignore:
        text = (
            f"{st.f[owner].name} pays a Punkt Losu (fate point, {st.fp[owner]} left) and ignores "
            f"{st.f[who].name}'s invocation"
        )
    else:
        text = f"{st.f[owner].name} lets {st.f[who].name}'s invocation stand"
    st.emit("ignore", text, who=st.f[owner].id, ignored=ignore)


@narration
def emit_advantage(st: PresjaState, kind: str, holder: int) -> None:
    who = "nobody" if holder < 0 else st.f[holder].name
    bonus = "" if holder < 0 else " (+1 Atak)"
    st.emit("advantage", f"MG (GM): {ADV_LABELS[kind]} this exchange → {who}{bonus}", advantage=kind)


@narration
def emit_attack(
    st: PresjaState,
    i: int,
    t: int,
    attack: int,
    defence: int,
    a_tac: int,
    d_tac: int,
    advs: list[str],
    crowd: int,
    p: int,
) -> None:
    fa, ft = st.f[i], st.f[t]
    parts = [f"{st.result(i)}"]
    if a_tac:
        parts.append(f"{a_tac:+d} taktyka (tactic)")
    if st.att_bonus[i]:
        parts.append(f"+{st.att_bonus[i]} aspekt broni (weapon aspect)")
    parts.extend(f"+1 {ADV_LABELS[k]}" for k in advs)
    dparts = [f"{st.result(t)}"]
    if d_tac:
        dparts.append(f"{d_tac:+d} taktyka (tactic)")
    if crowd:
        dparts.append(f"−{crowd} for the other attackers")
    head = (
        f"{fa.name}: Atak (attack) {' '.join(parts)} = {attack} vs {ft.name}'s Obrona (defence) "
        f"{' '.join(dparts)} = {defence}"
    )
    margin = attack - defence
    if margin < 0:
        text = f"{head} — margin {margin}: odparty (repelled), no presja"
    else:
        text = (
            f"{head} — margin {margin}, +{fa.damage} Czynnik Obrażeń (damage factor, {fa.weapon_name}), "
            f"−{ft.absorption} Czynnik Wyparowań (absorption, {ft.armour_name}) → presja (pressure) {p}"
        )
    st.emit("attack", text, who=fa.id, target=ft.id, attack=attack, defence=defence, margin=margin, pressure=p)


@narration
def emit_absorb(st: PresjaState, t: int, p: int, option: Absorb) -> None:
    fi = st.f[t]
    parts = [f'pole (box) "{b}" takes {a}' for b, a in _boxes(st, t, option)]
    for s in option.cons:
        parts.append(f"konsekwencja {SLOT_NAMES[SLOTS[s]]} '{st.cons_names[t][s]}' takes up to {st.values[s]}")
    st.emit(
        "absorb",
        f"{fi.name} takes presja {p} (pressure): {'; '.join(parts)} → tor (track) {track_text(fi.track, st.marked[t])}",
        who=fi.id,
        pressure=p,
        boxes=option.box_total(),
        consequences=option.cons_absorbed,
    )


def _boxes(st: PresjaState, t: int, option: Absorb) -> list[tuple[str, int]]:
    from konflikt.rulesets.presja.track import box_label

    return [(box_label(st.f[t].track[i]), a) for i, a in option.boxes]


@narration
def emit_taken_out(st: PresjaState, t: int, by: int, willing: bool) -> None:
    why = "chooses not to take the pressure" if willing else "cannot absorb the pressure"
    st.emit(
        "taken_out",
        f"{st.f[t].name} {why}: wyeliminowany (taken out). {st.f[by].name} decides what happens to them "
        "(Przeciwnik decyduje, co się z tobą stanie)",
        who=st.f[t].id,
        by=st.f[by].id,
    )


@narration
def emit_move(st: PresjaState, i: int) -> None:
    st.emit("move", f"{st.f[i].name} przechodzi do strefy (moves to zone) {st.zone_names[st.zone[i]]}")


@narration
def emit_end(st: PresjaState) -> None:
    st.emit("end", outcome(st).summary, ending=st.ending)


def outcome(st: PresjaState) -> ConflictOutcome:
    standing = sorted({st.f[i].side for i in range(len(st.f)) if st.fate[i] == 0})
    fates = {fi.id: _fate(st, i) for i, fi in enumerate(st.f)}
    data: dict[str, Any] = {"exchanges": st.exchange}
    for i, fi in enumerate(st.f):
        data[f"{fi.id}.fate_points"] = st.fp[i]
        data[f"{fi.id}.boxes_marked"] = bin(st.marked[i]).count("1")
        data[f"{fi.id}.consequences"] = sum(1 for c in st.cons[i] if c)
    if st.ending == "deadlock":
        return ConflictOutcome(
            "deadlock", (), f"Impas (deadlock): no side prevailed in {st.exchange} exchanges", fates, data
        )
    if not standing:
        return ConflictOutcome("all_out", (), "Nobody is left standing: every side is out", fates, data)
    win = standing[0]
    losers = [i for i in range(len(st.f)) if st.f[i].side != win]
    kinds = {st.fate[i] for i in losers}
    ending = "taken_out" if kinds == {1} else "conceded" if kinds == {2} else "taken_out_and_conceded"
    words = {"taken_out": "taking them out", "conceded": "they conceded", "taken_out_and_conceded": "out or conceded"}
    summary = f"{st.side_names[win]} wins ({words[ending]}) after {st.exchange} exchange(s)"
    return ConflictOutcome(ending, (st.side_ids[win],), summary, fates, data)


def _fate(st: PresjaState, i: int) -> str:
    cons = [f"{SLOTS[s]} '{st.cons_names[i][s]}'" for s in range(3) if st.cons[i][s]]
    tail = f"; konsekwencje (consequences): {', '.join(cons)}" if cons else ""
    return ("standing", "taken out", "conceded")[st.fate[i]] + tail


def status(st: PresjaState) -> dict[str, dict[str, str]]:
    rows: dict[str, dict[str, str]] = {
        "table": {
            "exchange": str(st.exchange),
            "phase": st.phase,
            "aspekty sytuacyjne": "; ".join(st.situation) or "-",
        }
    }
    for i, fi in enumerate(st.f):
        row = {
            "side": st.side_ids[fi.side],
            "strefa": st.zone_ids[st.zone[i]],
            "status": ("fighting", "taken out", "conceded")[st.fate[i]],
            "punkty losu": str(st.fp[i]),
            "tor": track_text(fi.track, st.marked[i]),
            "konsekwencje": ", ".join(
                f"{SLOTS[s]}:{st.cons_names[i][s]}{'' if st.cons[i][s] == 2 or s == 2 else ' (free)'}"
                for s in range(3)
                if st.cons[i][s]
            )
            or "-",
        }
        if st.dice[i] is not None:
            row["wynik"] = f"{st.result(i)} (4dF {st.dice[i]:+d})"
        d = st.decl[i]
        if d is not None:
            row["deklaracja"] = (
                d[0] + (f" {st.f[d[1]].id}" if d[0] == "attack" else "") + (f" {d[2]}" if d[2] != "none" else "")
            )
        if fi.weapon_boxes:
            row["aspekt broni"] = "[x]" * st.ticks[i] + "[ ]" * (fi.weapon_boxes - st.ticks[i])
        rows[fi.id] = row
    return rows


def view(st: PresjaState) -> dict[str, Any]:
    """Nothing is secret in this system: declarations are made aloud in order."""
    return {
        "exchange": st.exchange,
        "phase": st.phase,
        "situation_aspects": list(st.situation),
        "zones": {z: sorted(st.zone_ids[k] for k in st.adjacent[n]) for n, (z) in enumerate(st.zone_ids)},
        "participants": {
            fi.id: {
                "name": fi.name,
                "side": st.side_ids[fi.side],
                "zone": st.zone_ids[st.zone[i]],
                "status": ("fighting", "taken out", "conceded")[st.fate[i]],
                "fate_points": st.fp[i],
                "track": track_text(fi.track, st.marked[i]),
                "consequences": {SLOTS[s]: st.cons_names[i][s] for s in range(3) if st.cons[i][s]},
                "result": st.result(i) if st.dice[i] is not None else None,
                "aspects": list(fi.aspects),
            }
            for i, fi in enumerate(st.f)
        },
    }


def describe(st: PresjaState, seat: str, action: Action) -> str:
    k = action.kind
    tactic = str(action.get("tactic") or "none")
    tac = "" if tactic == "none" else f" — {TACTIC_NAMES[tactic]}"
    if k == "attack":
        j = st.index[action["target"]]
        return f"atak na (attack) {st.f[j].name}: your 4dF roll is Atak against their Obrona{tac}"
    if k == "defend":
        return f"tylko obrona (defend only): no attack this exchange, your roll is your Obrona{tac}"
    if k == "move":
        return f"przejście do strefy (move to zone) {action['to']}: takes your action; you still defend{tac}"
    if k == "concede":
        i = st.index[seat]
        return (
            f"poddaj się (concede): leave the scene on your terms, gain {1 + st.cons_new[i]} Punkty Losu (fate points)"
        )
    if k == "invoke":
        i = st.index[seat]
        eff = {"bonus": f"+{st.o['invoke_bonus']}", "reroll": "reroll 4dF", "tick": "+1 margin"}[action["effect"]]
        return f"wywołaj (invoke) {name_for(st, i, str(action['aspect']))}: {eff}"
    if k == "fate_point":
        return "wydaj Punkt Losu (spend a fate point) without an aspect: +1"
    if k == "pass":
        return "nie wywołuj (no more invocations) this exchange"
    if k == "ignore":
        return "zapłać Punkt Losu (pay a fate point) and ignore the invocation of your consequence"
    if k == "accept":
        return "let the invocation of your consequence stand"
    if k == "absorb":
        parts = [f'box "{p}"' for p in str(action["boxes"]).split("+") if p]
        parts += [f"konsekwencja {SLOT_NAMES[c]}" for c in str(action["cons"]).split("+") if c]
        return "przyjmij presję (take the pressure): " + ", ".join(parts)
    if k == "taken_out":
        return "nie przyjmuj (refuse the pressure): be wyeliminowany (taken out); the opponent narrates"
    if k == "order":
        return f"{action['first']} acts next (MG decides the order of action)"
    if k == "advantage":
        return f"{ADV_LABELS.get(str(action['which']), action['which'])} this exchange → {action['holder'] or 'nobody'}"
    return str(action)


def why_illegal(st: PresjaState, seat: str, action: Action) -> str | None:
    """Specific reasons for the commonest mistakes; ``None`` falls back to the generic list."""
    if st.phase == "absorb" and action.kind == "absorb" and st.f[st.hits[st.ptr][1]].id == seat:
        p = st.hits[st.ptr][2]
        return (
            f"that does not take presja {p} by the rules: each free box once, an amount within its range, "
            "consequences for the rest with none taken for nothing (legal: "
            + "; ".join(str(a) for a in st.legal_actions(seat))
            + ")"
        )
    if seat not in st.index or st.phase != "declare" or st.f[st.order[st.ptr]].id != seat:
        return None
    i = st.index[seat]
    tactic = action.get("tactic") or "none"
    if tactic != "none" and not st.o["tactics"]:
        return "the tactic rule (option 'tactics') is off: only tactic=none"
    if action.kind == "attack":
        target = action.get("target")
        if target not in st.index:
            return f"no participant {target!r}"
        j = st.index[target]
        if st.f[j].side == st.f[i].side:
            return f"{st.f[j].name} is on your side"
        if st.fate[j] != 0:
            return f"{st.f[j].name} is no longer in the fight"
        if not st.reachable(i, j):
            return (
                f"{st.f[j].name} is in zone {st.zone_ids[st.zone[j]]}: only the same zone, or an adjacent one "
                "with a ranged weapon"
            )
    if action.kind == "concede":
        return "conceding is not allowed here (option 'allow_concede' or the character's may_concede)"
    if action.kind == "move" and action.get("to") in st.zone_ids:
        return "you may move only to an adjacent zone"
    return None
