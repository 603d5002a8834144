"""What the table reads: the narrated events, the status display, views, action descriptions and outcomes.

Every text is a message of the ``presja`` catalog (``konflikt.rulesets.presja.i18n``), printed in the table's
language: the source's Polish terms stay the text's words in Polish, are translated from the text's meaning into
Swedish, Danish and English, and keep their English gloss in the bilingual register (``both``). Every number behind
a rule is shown.
"""

from __future__ import annotations

from functools import reduce
from typing import TYPE_CHECKING, Any

from konflikt.core.actions import Action
from konflikt.core.i18n import BILINGUAL, current, localized
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.state import GOAL_REACHED, narration
from konflikt.rulesets.presja.i18n import N_, _, ngettext, pgettext
from konflikt.rulesets.presja.models import consequence_text, level_text, level_word
from konflikt.rulesets.presja.naming import name_problem, without_name
from konflikt.rulesets.presja.options import ADVANTAGE_KINDS
from konflikt.rulesets.presja.rules import TACTIC_NAMES
from konflikt.rulesets.presja.static import ROLL
from konflikt.rulesets.presja.track import SLOTS, Absorb, box_label, slot_name, slot_short, track_text

if TYPE_CHECKING:
    from konflikt.rulesets.presja.state import AttackNumbers, Declaration, PresjaState


def consequence_words(conflict: PresjaState, who: int, slot: str) -> str:
    """``Belzee's konsekwencja łagodna (mild) 'Rozcięta brew'``: a participant's consequence, with its name when it
    has one."""
    name = conflict.cons_names[who][SLOTS.index(slot)]
    owner = conflict.fighters[who].name
    if not name:
        return _("{name}'s {slot} consequence", name=owner, slot=slot_name(slot))
    return _(
        "{name}'s {slot} consequence '{consequence}'",
        name=owner,
        slot=slot_name(slot),
        consequence=consequence_text(name),
    )


def aspect_name(state: PresjaState, key: str) -> str:
    """The aspect behind a key, in words."""
    kind, _sep, rest = key.partition(":")
    if kind == "own":
        return "?"
    if kind == "scene":
        return _("situation aspect '{aspect}'", aspect=localized(state.situation[int(rest) - 1]))
    if key == "weapon":
        return _("weapon aspect")
    if key == "fate_point":
        return _("a fate point without an aspect")
    j = state.index[kind]
    s = SLOTS.index(rest)
    return _(
        "{name}'s consequence '{consequence}'",
        name=state.fighters[j].name,
        consequence=consequence_text(state.cons_names[j][s]),
    )


def name_for(state: PresjaState, who: int, key: str) -> str:
    if key.startswith("own:"):
        return _("aspect '{aspect}'", aspect=localized(state.fighters[who].aspects[int(key[4:]) - 1]))
    if key == "weapon":
        return _("weapon aspect '{aspect}'", aspect=localized(state.fighters[who].weapon_aspect or ""))
    return aspect_name(state, key)


def advantage_label(kind: str) -> str:
    """An advantage's name (``Przewaga mobilności (mobility)``)."""
    return _(ADV_LABELS[kind])


ADV_LABELS = {kind: label for kind, _option, label in ADVANTAGE_KINDS}


def tactic_name(tactic: str) -> str:
    """A tactic's name with what it does (``taktyka obronna (defensive tactic: +1 Obrona, −1 Atak)``)."""
    return _(TACTIC_NAMES[tactic])


def signed(value: int) -> str:
    """``+2``, ``-1``, ``+0``: a modifier with its sign."""
    return f"{value:+d}"


def punkty_losu(n: int) -> str:
    """``1 Punkt Losu``, ``2 Punkty Losu``, ``5 Punktów Losu``: the noun agrees with its number (in Polish, also in
    the bilingual register, with its English beside it)."""
    if current() != BILINGUAL:
        return ngettext("{n} fate point", "{n} fate points", n)
    if n == 1:
        word = "Punkt"
    elif n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        word = "Punkty"
    else:
        word = "Punktów"
    return f"{n} {word} Losu (fate point{'' if n == 1 else 's'})"


def and_list(names: list[str]) -> str:
    """``Hersz and Bruno``: names joined in the language in use."""
    return reduce(lambda first, second: _("{first} and {second}", first=first, second=second), names)


def total_text(value: int, ladder_name: str) -> str:
    """``-1 (słaby, Poor)``: a total and its word on the ladder (the number alone off the ladder)."""
    word = level_word(value, ladder_name)
    if word is None:
        return f"{value:+d}"
    if current() == BILINGUAL:
        name, _sep, rest = level_text(value, ladder_name).partition(" (")
        return f"{value:+d} ({name}, {rest.partition(', ')[2]}"
    return f"{value:+d} ({word})"


@narration
def emit_setup(conflict: PresjaState) -> None:
    aspects = "; ".join(localized(a) for a in conflict.situation) or _("none")
    conflict.emit("setup", _("Situation aspects: {aspects}", aspects=aspects))
    for k in range(len(conflict.zone_ids)):
        # the bilingual register names the neighbours by their ids, as it always did; a language by their names
        neighbours = conflict.zone_ids if current() == BILINGUAL else [localized(z) for z in conflict.zone_names]
        near = ", ".join(neighbours[z] for z in sorted(conflict.adjacent[k])) or _("none")
        here = ", ".join(fi.name for i, fi in enumerate(conflict.fighters) if conflict.zone[i] == k) or _("nobody")
        conflict.emit(
            "setup",
            _("Zone {zone}: {here}; adjacent: {near}", zone=localized(conflict.zone_names[k]), here=here, near=near),
        )
    for i, fi in enumerate(conflict.fighters):
        level = _skill(conflict, i) if i in conflict.surprised else conflict.level(i)
        line = _(
            "{name} ({side}): {skill} {level}, Senses {senses}, {weapon} damage factor +{damage}, {armour} "
            "absorption factor +{absorption}, fate points {fate_points}, track {track}",
            name=fi.name,
            side=localized(conflict.side_names[fi.side]),
            skill=localized(fi.skill_name),
            level=level_text(level, conflict.ladder_name),
            senses=signed(fi.zmysly),
            weapon=localized(fi.weapon_name),
            damage=fi.damage,
            armour=localized(fi.armour_name),
            absorption=fi.absorption,
            fate_points=conflict.fate_points[i],
            track=track_text(fi.track, 0, fi.body),
        )
        if i in conflict.surprised:
            line = _("{line} — surprised in the first exchange", line=line)
        conflict.emit("setup", line)


def _skill(conflict: PresjaState, i: int) -> int:
    skill = conflict.fighters[i].skill
    return conflict.rule_values["unskilled_level"] if skill is None else skill


@narration
def emit_order(conflict: PresjaState) -> None:
    def value(i: int) -> str:
        bonus = conflict.order_bonus[i]
        fi = conflict.fighters[i]
        if not bonus:
            return _("{name} (Senses {senses})", name=fi.name, senses=signed(fi.zmysly))
        return _(
            "{name} (Senses {senses} {bonus} aspect = {total})",
            name=fi.name,
            senses=signed(fi.zmysly),
            bonus=signed(bonus),
            total=signed(conflict.order_value(i)),
        )

    names = ", ".join(value(i) for i in conflict.order)
    conflict.emit("order", _("Order of action by Senses: {names}", names=names))


@narration
def emit_edge(conflict: PresjaState, i: int, key: str) -> None:
    conflict.emit(
        "edge",
        _(
            "{name} invokes {aspect} for the order of action: +{bonus} to Senses (pays a fate point, {left} left)",
            name=conflict.fighters[i].name,
            aspect=name_for(conflict, i, key),
            bonus=conflict.order_bonus[i],
            left=conflict.fate_points[i],
        ),
        who=conflict.fighters[i].id,
    )


@narration
def emit_order_pick(conflict: PresjaState, i: int) -> None:
    name = conflict.fighters[i].name
    if conflict.rule_values["gm_sets_order"]:
        text = _("The GM sets the order: {name} acts next", name=name)
    else:
        text = _("The GM decides the tie of Senses: {name} acts next", name=name)
    conflict.emit("order", text)


@narration
def emit_compel(conflict: PresjaState, owner: int, slot: int) -> None:
    fi = conflict.fighters[owner]
    conflict.emit(
        "compel",
        _(
            "The GM compels {consequence}: a complication for a fate point, or pay one to refuse",
            consequence=consequence_words(conflict, owner, SLOTS[slot]),
        ),
        who=fi.id,
    )


@narration
def emit_compel_answer(conflict: PresjaState, owner: int, slot: int, accepted: bool) -> None:
    fi = conflict.fighters[owner]
    if accepted:
        text = _(
            "{name} accepts the complication of '{consequence}' and gains a fate point → {fate_points}; the GM "
            "describes what goes wrong",
            name=fi.name,
            consequence=consequence_text(conflict.cons_names[owner][slot]),
            fate_points=conflict.fate_points[owner],
        )
    else:
        text = _(
            "{name} refuses: pays a fate point → {fate_points}", name=fi.name, fate_points=conflict.fate_points[owner]
        )
    conflict.emit("compel", text, who=fi.id, accepted=accepted)


@narration
def emit_exchange(conflict: PresjaState) -> None:
    conflict.emit("exchange", _("— Exchange {number} —", number=conflict.exchange), exchange=conflict.exchange)


def declaration_words(conflict: PresjaState, d: Declaration) -> str:
    """A declaration in the language in use (the narration and the table's cell)."""
    if d.kind == "attack":
        words = _("attack on {target}", target=conflict.fighters[d.target].name)
    elif d.kind == "move":
        words = _("move to zone {zone}", zone=localized(conflict.zone_names[d.zone]))
    elif d.kind == "defend":
        words = _("defends only")
    else:
        return _("concedes")
    return words if d.tactic == "none" else f"{words}, {tactic_name(d.tactic)}"


@narration
def emit_declaration(conflict: PresjaState, i: int) -> None:
    d = conflict.decl[i]
    assert d is not None
    name, words = conflict.fighters[i].name, declaration_words(conflict, d)
    if d.kind == "concede":
        text = _("{name} declares: {declaration} before the opponents roll", name=name, declaration=words)
    else:
        text = _("{name} declares: {declaration}", name=name, declaration=words)
    conflict.emit("declare", text, who=conflict.fighters[i].id, declared=d.kind)


@narration
def emit_concede(conflict: PresjaState, i: int, gain: int) -> None:
    conflict.emit(
        "concede",
        _(
            "{name} has conceded: leaves the scene on their own terms; the opponents gain a fitting concession. "
            "+{points}: 1 + {more} for consequences taken in this conflict → {fate_points}",
            name=conflict.fighters[i].name,
            points=punkty_losu(gain),
            more=gain - 1,
            fate_points=conflict.fate_points[i],
        ),
        who=conflict.fighters[i].id,
        gain=gain,
    )


def _rolled_so_far(conflict: PresjaState) -> str:
    names = [conflict.fighters[j].name for j in conflict.order if conflict.dice[j] is not None]
    return _("after {names}'s roll", names=", ".join(names)) if names else _("before any roll")


@narration
def emit_window_concede(conflict: PresjaState, i: int) -> None:
    roller = conflict.fighters[conflict.order[conflict.ptr]].name
    conflict.emit(
        "declare",
        _(
            "{name} concedes before {roller}'s roll, {so_far}",
            name=conflict.fighters[i].name,
            roller=roller,
            so_far=_rolled_so_far(conflict),
        ),
        who=conflict.fighters[i].id,
        declared="concede",
    )


@narration
def emit_fight_on(conflict: PresjaState, i: int) -> None:
    roller = conflict.fighters[conflict.order[conflict.ptr]].name
    conflict.emit(
        "fight_on",
        _("{name} fights on: no concession before {roller}'s roll", name=conflict.fighters[i].name, roller=roller),
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
    fields = {
        "name": fi.name,
        "fell": fell_text(conflict, dice),
        "skill": localized(fi.skill_name),
        "level": f"{lv:+d}",
        "dice": f"{dice:+d}",
        "result": level_text(total, conflict.ladder_name),
        "total": total,
    }
    if conflict.exchange == 1 and i in conflict.surprised:
        text = _(
            "{name} rolls 4dF: {fell} → {skill} {level} (surprised), 4dF {dice} = {result}: attack and defence {total}",
            **fields,
        )
    else:
        text = _(
            "{name} rolls 4dF: {fell} → {skill} {level}, 4dF {dice} = {result}: attack and defence {total}", **fields
        )
    conflict.emit(
        "roll",
        text,
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
        _(
            "{name} rerolls 4dF: {old} → {fell}; attack and defence now {total}",
            name=conflict.fighters[i].name,
            old=signed(old),
            fell=fell_text(conflict, new),
            total=conflict.result(i),
        ),
        who=conflict.fighters[i].id,
        old=old,
        dice=new,
        faces=list(conflict.rolled_faces() or ()),
    )


@narration
def emit_invoke(conflict: PresjaState, who: int, key: str, effect: str, price: str) -> None:
    if price == "fp":
        pay = _("pays a fate point, {left} left", left=conflict.fate_points[who])
    elif price == "free":
        pay = pgettext("invocation", "free")
    else:
        pay = _("ticks a box")
    what = {
        "bonus": f"+{conflict.rule_values['invoke_bonus']}",
        "reroll": _("reroll of all four dice"),
        "plus1": "+1",
        "tick": _("+1 to the margin of success"),
    }[effect]
    conflict.emit(
        "invoke",
        _(
            "{name} invokes {aspect}: {effect} ({price})",
            name=conflict.fighters[who].name,
            aspect=name_for(conflict, who, key),
            effect=what,
            price=pay,
        ),
        who=conflict.fighters[who].id,
        aspect=key,
        effect=effect,
    )


@narration
def emit_ignore(conflict: PresjaState, owner: int, who: int, ignore: bool) -> None:
    fields = {"owner": conflict.fighters[owner].name, "invoker": conflict.fighters[who].name}
    if ignore:
        text = _(
            "{owner} pays a fate point, {left} left, and ignores {invoker}'s invocation",
            left=conflict.fate_points[owner],
            **fields,
        )
    else:
        text = _("{owner} lets {invoker}'s invocation stand", **fields)
    conflict.emit("ignore", text, who=conflict.fighters[owner].id, ignored=ignore)


@narration
def emit_advantage(conflict: PresjaState, kind: str, a: int, b: int, holder: int) -> None:
    fields = {
        "advantage": advantage_label(kind),
        "pair": f"{conflict.fighters[a].name} / {conflict.fighters[b].name}",
    }
    if holder < 0:
        text = _("The GM: {advantage}, {pair}, this exchange → nobody", **fields)
    else:
        text = _(
            "The GM: {advantage}, {pair}, this exchange → {name} (+1 attack)",
            name=conflict.fighters[holder].name,
            **fields,
        )
    conflict.emit("advantage", text, advantage=kind)


@narration
def emit_attack(conflict: PresjaState, i: int, t: int, numbers: AttackNumbers) -> None:
    """Every number of the attack, each with its source: skill, 4dF, each invocation, tactic, advantages."""
    fa, ft = conflict.fighters[i], conflict.fighters[t]
    parts = roll_parts(conflict, i)
    if numbers.attack_tactic:
        parts.append(_("tactic {value}", value=signed(numbers.attack_tactic)))
    parts.extend(f"{advantage_words(conflict, i, t, k)} +1" for k in numbers.advantages)
    defence_parts = roll_parts(conflict, t)
    if numbers.defence_tactic:
        defence_parts.append(_("tactic {value}", value=signed(numbers.defence_tactic)))
    if numbers.crowd:
        defence_parts.append(_("the other attackers -{crowd}", crowd=numbers.crowd))
    ladder = conflict.ladder_name
    head = _(
        "{attacker}: attack: {parts} = {attack} vs {target}'s defence: {defence_parts} = {defence}",
        attacker=fa.name,
        parts=", ".join(parts),
        attack=total_text(numbers.attack, ladder),
        target=ft.name,
        defence_parts=", ".join(defence_parts),
        defence=total_text(numbers.defence, ladder),
    )
    margin = numbers.attack - numbers.defence
    if margin < 0:
        text = _("{head} — margin {margin}: repelled, no pressure", head=head, margin=margin)
    else:
        sharp = (
            _(
                ", +{bonus} margin of success (weapon aspect '{aspect}')",
                bonus=numbers.margin_bonus,
                aspect=localized(fa.weapon_aspect or ""),
            )
            if numbers.margin_bonus
            else ""
        )
        text = _(
            "{head} — margin {margin}{sharp}, +{damage} damage factor ({weapon}), −{absorption} absorption factor "
            "({armour}) → pressure {pressure}",
            head=head,
            margin=margin,
            sharp=sharp,
            damage=fa.damage,
            weapon=localized(fa.weapon_name),
            absorption=ft.absorption,
            armour=localized(ft.armour_name),
            pressure=numbers.presja,
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
    label = advantage_label(kind)
    if kind not in ("flanking", "surrounded") or conflict.zone[i] == conflict.zone[t]:
        return label
    side = conflict.fighters[i].side
    at_its_side = [
        fj.name
        for j, fj in enumerate(conflict.fighters)
        if fj.side == side and conflict._attacks(j) == t and conflict.zone[j] == conflict.zone[t]
    ]
    fields = {
        "label": label.partition(" (")[0] if current() == BILINGUAL else label,
        "target": conflict.fighters[t].name,
        "side": localized(conflict.side_names[side]),
        "names": and_list(at_its_side),
        "shooter": conflict.fighters[i].name,
        "zone": localized(conflict.zone_names[conflict.zone[i]]),
    }
    if kind == "flanking":
        return _(
            "{label} (the side's flanking of {target}, {side}: {names} at {target}'s side; {shooter} shoots from "
            "{zone})",
            **fields,
        )
    return _(
        "{label} (the side's surrounding of {target}, {side}: {names} at {target}'s side; {shooter} shoots from "
        "{zone})",
        **fields,
    )


def roll_parts(conflict: PresjaState, i: int) -> list[str]:
    """``Walka na noże +2`` ``4dF +1`` ``aspekt 'X' +2``: the roll that is both Attack and Defence, term by term,
    each label before its signed value."""
    fi = conflict.fighters[i]
    parts = [f"{localized(fi.skill_name)} {conflict.level(i):+d}", f"4dF {conflict.dice[i] or 0:+d}"]
    step = conflict.rule_values["invoke_bonus"]
    for key in conflict.bonus_keys[i]:
        parts.append(f"{name_for(conflict, i, key)} +{1 if key == 'fate_point' else step}")
    return parts


@narration
def emit_absorb(conflict: PresjaState, t: int, p: int, option: Absorb) -> None:
    fi = conflict.fighters[t]
    parts = [_('box "{box}" takes {amount}', box=b, amount=a) for b, a in _boxes(conflict, t, option)]
    rest = option.cons_absorbed
    for s in option.cons:
        taken = min(conflict.values[s], rest)
        rest -= taken
        parts.append(
            _(
                "{slot} consequence '{consequence}' takes {taken} of {value}",
                slot=slot_name(SLOTS[s]),
                consequence=consequence_text(conflict.cons_names[t][s]),
                taken=taken,
                value=conflict.values[s],
            )
        )
    conflict.emit(
        "absorb",
        _(
            "{name} takes pressure {pressure}: {parts} → track {track}",
            name=fi.name,
            pressure=p,
            parts="; ".join(parts),
            track=track_text(fi.track, conflict.marked[t], fi.body),
        ),
        who=fi.id,
        pressure=p,
        boxes=option.box_total(),
        consequences=option.cons_absorbed,
    )


def _boxes(conflict: PresjaState, t: int, option: Absorb) -> list[tuple[str, int]]:
    return [(box_label(conflict.fighters[t].track[i]), a) for i, a in option.boxes]


@narration
def emit_taken_out(conflict: PresjaState, t: int, by: int, willing: bool) -> None:
    fields = {"name": conflict.fighters[t].name, "by": conflict.fighters[by].name}
    if willing:
        text = _("{name} chooses not to take the pressure: taken out. {by} decides what happens to them", **fields)
    else:
        text = _("{name} cannot absorb the pressure: taken out. {by} decides what happens to them", **fields)
    conflict.emit("taken_out", text, who=conflict.fighters[t].id, by=conflict.fighters[by].id)


@narration
def emit_move(conflict: PresjaState, i: int) -> None:
    conflict.emit(
        "move",
        _(
            "{name} moves to zone {zone}",
            name=conflict.fighters[i].name,
            zone=localized(conflict.zone_names[conflict.zone[i]]),
        ),
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
    n = conflict.exchange
    if conflict.ending == GOAL_REACHED:
        won = conflict.goal_winner
        summary = ngettext(
            "{side} reaches its goal ({goal}) after {n} exchange: the GM's word",
            "{side} reaches its goal ({goal}) after {n} exchanges: the GM's word",
            n,
            side=localized(conflict.side_names[won]),
            goal=conflict.goal,
        )
        return ConflictOutcome(GOAL_REACHED, (conflict.side_ids[won],), summary, fates, data)
    if conflict.ending == "deadlock":
        summary = ngettext(
            "Deadlock: no side prevailed in {n} exchange", "Deadlock: no side prevailed in {n} exchanges", n
        )
        return ConflictOutcome("deadlock", (), summary, fates, data)
    if not standing:
        return ConflictOutcome("all_out", (), _("Nobody is left standing: every side is out"), fates, data)
    win = standing[0]
    losers = [i for i in range(len(conflict.fighters)) if conflict.fighters[i].side != win]
    kinds = {conflict.fate[i] for i in losers}
    ending = "taken_out" if kinds == {1} else "conceded" if kinds == {2} else "taken_out_and_conceded"
    side = localized(conflict.side_names[win])
    if ending == "taken_out":
        summary = ngettext(
            "{side} wins (taking them out) after {n} exchange",
            "{side} wins (taking them out) after {n} exchanges",
            n,
            side=side,
        )
    elif ending == "conceded":
        summary = ngettext(
            "{side} wins (they conceded) after {n} exchange",
            "{side} wins (they conceded) after {n} exchanges",
            n,
            side=side,
        )
    else:
        summary = ngettext(
            "{side} wins (out or conceded) after {n} exchange",
            "{side} wins (out or conceded) after {n} exchanges",
            n,
            side=side,
        )
    return ConflictOutcome(ending, (conflict.side_ids[win],), summary, fates, data)


def _fate(conflict: PresjaState, i: int) -> str:
    """A participant's fate as the outcome, the tallies and the odds name it. The bilingual register keeps the form
    saved conflicts and goldens hold (the consequences by their saved names); a language says it in its words, as
    the other systems' fates are said (the tallies of one run are all in one language)."""
    taken = [s for s in range(3) if conflict.cons[i][s]]
    if current() == BILINGUAL:
        cons = [f"{SLOTS[s]} '{conflict.cons_names[i][s]}'" for s in taken]
        tail = f"; konsekwencje (consequences): {', '.join(cons)}" if cons else ""
        return ("standing", "taken out", "conceded")[conflict.fate[i]] + tail
    fate = (pgettext("fate", "standing"), pgettext("status", "taken out"), pgettext("status", "conceded"))[
        conflict.fate[i]
    ]
    if not taken:
        return fate
    consequences = ", ".join(f"{slot_name(SLOTS[s])} '{consequence_text(conflict.cons_names[i][s])}'" for s in taken)
    return _("{fate}; consequences: {consequences}", fate=fate, consequences=consequences)


PHASE_WORDS = {
    "edge": N_("Order of action: invoking an aspect for +2 to Senses"),
    "order": N_("Order of action: the GM breaks a tie"),
    "advantage": N_("Advantage: the GM says who holds it"),
    "compel": N_("the GM may compel a consequence"),
    "compel_answer": N_("answering the GM's compel"),
    "declare": N_("declarations"),
    "roll": N_("roll: 4dF for attack and defence"),
    "reroll": N_("reroll"),
    "invoke": N_("invoking aspects after the roll"),
    "ignore": N_("ignoring an invoked aspect (a fate point)"),
    "concede_window": N_("conceding before a foe's roll, or fighting on"),
    "absorb": N_("pressure taken on the track or in consequences"),
    "done": N_("the conflict is over"),
}
"""The table's phase cell in the text's words (Kolejność, Przewaga, deklaracje, rzut, wywołanie), translated where
it is shown: the GM reads where the exchange stands, not a code name."""


def fate_word(fate: int) -> str:
    """The status cell of a participant still fighting, taken out, or conceded."""
    return (pgettext("status", "fighting"), pgettext("status", "taken out"), pgettext("status", "conceded"))[fate]


def status(conflict: PresjaState) -> dict[str, dict[str, str]]:
    phase = PHASE_WORDS.get(conflict.phase)
    rows: dict[str, dict[str, str]] = {
        "table": {
            pgettext("status", "exchange"): str(conflict.exchange),
            pgettext("status", "phase"): conflict.phase if phase is None else _(phase),
            _("situation aspects"): "; ".join(localized(a) for a in conflict.situation) or "-",
        }
    }
    for i, fi in enumerate(conflict.fighters):
        row = {
            pgettext("status", "side"): conflict.side_ids[fi.side],
            pgettext("status", "zone"): conflict.zone_ids[conflict.zone[i]],
            pgettext("status", "status"): fate_word(conflict.fate[i]),
            _("fate points"): str(conflict.fate_points[i]),
            pgettext("status", "track"): track_text(fi.track, conflict.marked[i], fi.body),
            _("consequences"): ", ".join(_held(conflict, i, s) for s in range(3) if conflict.cons[i][s]) or "-",
        }
        if conflict.dice[i] is not None:
            row[pgettext("status", "result")] = f"{conflict.result(i)} (4dF {conflict.dice[i]:+d})"
        d = conflict.decl[i]
        if d is not None:
            row[pgettext("status", "declaration")] = declaration_words(conflict, d)
        if fi.weapon_boxes:
            row[_("weapon aspect")] = "[x]" * conflict.ticks[i] + "[ ]" * (fi.weapon_boxes - conflict.ticks[i])
        rows[fi.id] = row
    return rows


def _held(conflict: PresjaState, i: int, s: int) -> str:
    """``mild:Rozcięta brew (free)``: a consequence held, and whether its first invocation is still free."""
    fields = {"slot": slot_short(SLOTS[s]), "consequence": consequence_text(conflict.cons_names[i][s])}
    if conflict.cons[i][s] == 2 or s == 2:
        return _("{slot}:{consequence}", **fields)
    return _("{slot}:{consequence} (free)", **fields)


def view(conflict: PresjaState) -> dict[str, Any]:
    """Nothing is secret in this system: declarations are made aloud in order."""
    return {
        "exchange": conflict.exchange,
        "phase": conflict.phase,
        "situation_aspects": [localized(a) for a in conflict.situation],
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
                "aspects": [localized(a) for a in fi.aspects],
            }
            for i, fi in enumerate(conflict.fighters)
        },
    }


def describe(conflict: PresjaState, seat: str, action: Action) -> str:
    k = action.kind
    tactic = str(action.get("tactic") or "none")
    tac = "" if tactic == "none" else f" — {tactic_name(tactic)}"
    if k == "attack":
        j = conflict.index[action["target"]]
        return (
            _("attack {name}: your 4dF roll is your attack against their defence", name=conflict.fighters[j].name) + tac
        )
    if k == "defend":
        return _("defend only: no attack this exchange, your roll is your defence") + tac
    if k == "move":
        return _("move to zone {zone}: takes your action; you still defend", zone=action["to"]) + tac
    if k == "concede":
        i = conflict.index[seat]
        gain = 1 + conflict.cons_new[i]
        if conflict.phase == "concede_window":
            return _(
                "concede now, before {roller}'s roll: leave the scene on your terms, gain {points}",
                roller=conflict.fighters[conflict.order[conflict.ptr]].name,
                points=punkty_losu(gain),
            )
        return _("concede: leave the scene on your terms, gain {points}", points=punkty_losu(gain))
    if k == "fight_on":
        roller = conflict.fighters[conflict.order[conflict.ptr]].name
        return _("fight on: {roller} rolls next, and then it is too late to concede this exchange", roller=roller)
    if k == "invoke":
        i = conflict.index[seat]
        eff = {"bonus": f"+{conflict.rule_values['invoke_bonus']}", "reroll": _("reroll 4dF"), "tick": _("+1 margin")}[
            action["effect"]
        ]
        return _("invoke {aspect}: {effect}", aspect=name_for(conflict, i, str(action["aspect"])), effect=eff)
    if k == "fate_point":
        return _("spend a fate point without an aspect: +1")
    if k == "compel":
        what = _consequence_words(conflict, str(action["consequence"]))
        return _("compel {consequence}: offer its owner a fate point for a complication", consequence=what)
    if k == "pass" and conflict.phase == "compel":
        return _("no compel this exchange")
    if k == "accept" and conflict.phase == "compel_answer":
        return _("accept the complication: gain a fate point")
    if k == "refuse":
        return _("refuse the complication: pay a fate point")
    if k == "pass" and conflict.phase == "edge":
        return _("no invocation: act in the order Senses give")
    if k == "pass":
        return _("no more invocations this exchange")
    if k == "ignore":
        return _("pay a fate point and ignore the invocation of your consequence")
    if k == "accept":
        return _("let the invocation of your consequence stand")
    if k == "absorb":
        parts = [_box_words(p) for p in str(action["boxes"]).split("+") if p]
        parts += [_("{slot} consequence", slot=slot_name(c)) for c in str(action["cons"]).split("+") if c]
        return _("take the pressure: {parts}", parts=", ".join(parts))
    if k == "taken_out":
        return _("refuse the pressure: be taken out; the opponent narrates")
    if k == "edge":
        i = conflict.index[seat]
        return _(
            "invoke {aspect} for the order of action: +{bonus} to Senses (a fate point)",
            aspect=name_for(conflict, i, str(action["aspect"])),
            bonus=conflict.rule_values["invoke_bonus"],
        )
    if k == "order":
        return _("{first} acts next (the GM decides the order of action)", first=action["first"])
    if k == "advantage":
        kind = str(action["which"])
        fields = {
            "advantage": advantage_label(kind) if kind in ADV_LABELS else kind,
            "pair": " / ".join(action.get("pair") or ()),
        }
        if not action["holder"]:
            return _("{advantage}, {pair}, this exchange → nobody", **fields)
        return _("{advantage}, {pair}, this exchange → {holder}", holder=action["holder"], **fields)
    return str(action)


def _consequence_words(conflict: PresjaState, key: str) -> str:
    """``belzee:mild`` → ``Belzee's konsekwencja łagodna (mild) 'Rozcięta brew'``."""
    who, _sep, slot = key.partition(":")
    i = conflict.index.get(who)
    if i is None or slot not in SLOTS:
        return key
    return consequence_words(conflict, i, slot)


def _box_words(box: str) -> str:
    """``2-3:3`` → ``pole (box) 2-3 takes 3``."""
    label, _sep, amount = box.rpartition(":")
    return _("box {box} takes {amount}", box=label, amount=amount) if label else _("box {box}", box=box)


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
        return _(
            "that does not take pressure {pressure} by the rules: each free box once, an amount within its range, "
            "consequences for the rest with none taken for nothing (legal: {legal})",
            pressure=p,
            legal="; ".join(str(without_name(a)) for a in conflict.legal_actions(seat)),
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
        return _("the tactic rule (option 'tactics') is off: only tactic=none")
    if action.kind == "attack":
        target = action.get("target")
        if target not in conflict.index:
            return _("no participant {target}", target=repr(target))
        j = conflict.index[target]
        name = conflict.fighters[j].name
        if conflict.fighters[j].side == conflict.fighters[i].side:
            return _("{name} is on your side", name=name)
        if conflict.fate[j] != 0:
            return _("{name} is no longer in the fight", name=name)
        if not conflict.reachable(i, j):
            return _(
                "{name} is in zone {zone}: only the same zone, or an adjacent one with a ranged weapon",
                name=name,
                zone=conflict.zone_ids[conflict.zone[j]],
            )
    if action.kind == "concede":
        return _("conceding is not allowed here (option 'allow_concede' or the character's may_concede)")
    if action.kind == "move" and action.get("to") in conflict.zone_ids:
        return _("you may move only to an adjacent zone")
    return None


def _too_late_to_concede(conflict: PresjaState, i: int) -> str | None:
    """Why ``i`` may not concede now when a foe has rolled this exchange ("Musisz to jednak zadeklarować przed
    rzutem przeciwnika"), or ``None``."""
    if conflict.phase in ("declare", "concede_window") or not conflict.may_concede(i) or not conflict.foe_has_rolled(i):
        return None
    side = conflict.fighters[i].side
    rolled = [fj.name for j, fj in enumerate(conflict.fighters) if fj.side != side and conflict.dice[j] is not None]
    return ngettext(
        "too late to concede this exchange: {names} has rolled, and one concedes before the opponent's roll; concede "
        "at the next exchange's declaration",
        "too late to concede this exchange: {names} have rolled, and one concedes before the opponent's roll; "
        "concede at the next exchange's declaration",
        len(rolled),
        names=", ".join(rolled),
    )
