"""What the table shows beside presja's choices: the pressure at stake, the text's own ways to take it, what an
invocation costs, the consequences a player names, the numbers of the set-up, the chances a roll decides.

Read-only helpers over :class:`PresjaState` behind the optional ``State`` hooks of the front ends
(``decision_stake``, ``leading_actions``, ``action_cost``, ``consequences_taken``, ``setup_facts``, ``roll_stakes``,
``ending_words``, ``id_words``); no rule lives here.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, cast

from konflikt.core.actions import Action
from konflikt.rulesets.presja import invoke
from konflikt.rulesets.presja.models import consequence_names, level_text
from konflikt.rulesets.presja.naming import without_name
from konflikt.rulesets.presja.static import ROLL
from konflikt.rulesets.presja.track import SLOT_NAMES, SLOTS, Absorb, track_text

if TYPE_CHECKING:
    from konflikt.rulesets.presja.state import PresjaState

ENDINGS = {
    "taken_out": "wyeliminowany (taken out)",
    "conceded": "poddanie się (conceded)",
    "taken_out_and_conceded": "wyeliminowani lub poddani (taken out or conceded)",
    "all_out": "nikt nie stoi (nobody left standing)",
    "deadlock": "impas (deadlock)",
    "goal_reached": "cel osiągnięty (goal reached)",
}
COSTS = {"fp": "1 Punkt Losu (fate point)", "free": "free (darmowe)", "tick": "1 pole aspektu broni (weapon box)"}


def decision_stake(conflict: PresjaState, seat: str) -> str:
    """At an absorb: the pressure to take, from whose attack, and what the track and consequences hold."""
    if conflict.phase != "absorb" or conflict.current_player() != seat:
        return ""
    a, t, p = conflict.hits[conflict.ptr]
    ft = conflict.fighters[t]
    free = [SLOT_NAMES[SLOTS[s]] + f" {conflict.values[s]}" for s in range(3) if not conflict.cons[t][s]]
    return (
        f"{ft.name} przyjmuje presję (takes pressure) {p} from {conflict.fighters[a].name}'s attack: "
        f"tor (track) {track_text(ft.track, conflict.marked[t], ft.body)}; free konsekwencje (consequences): "
        f"{', '.join(free) or 'none'}"
    )


def _ways(conflict: PresjaState) -> tuple[tuple[Absorb, Action], ...]:
    _, t, p = conflict.hits[conflict.ptr]
    return tuple((way, conflict.absorb_action(way)) for way in conflict.absorb_choices(t, p))


def leading_actions(conflict: PresjaState, seat: str) -> Sequence[Action]:
    """The text's own ways to take a hit: one box that takes it all (the lowest first), then a lower box and one
    consequence, then one consequence alone (the mildest first)."""
    if conflict.phase != "absorb" or conflict.current_player() != seat:
        return ()
    ways = _ways(conflict)
    one_box = sorted((w for w in ways if len(w[0].boxes) == 1 and not w[0].cons), key=lambda w: w[0].boxes[0][0])
    box_and_cons = sorted(
        (w for w in ways if len(w[0].boxes) == 1 and len(w[0].cons) == 1),
        key=lambda w: (w[0].cons[0], -w[0].boxes[0][1], w[0].boxes[0][0]),
    )
    cons_alone = sorted((w for w in ways if not w[0].boxes and len(w[0].cons) == 1), key=lambda w: w[0].cons[0])
    return tuple(action for _, action in (*one_box, *box_and_cons, *cons_alone))


def action_cost(conflict: PresjaState, seat: str, action: Action) -> str:
    """An invocation's price now: free, a Punkt Losu, or a box of the weapon aspect."""
    if action.kind not in ("invoke", "fate_point") or seat not in conflict.index:
        return ""  # an invocation for the order of action says its price ("a Punkt Losu") itself
    key = "fate_point" if action.kind == "fate_point" else str(action.get("aspect"))
    return COSTS[invoke.cost(conflict, conflict.index[seat], key)]


def consequences_taken(conflict: PresjaState, seat: str, action: Action) -> tuple[str, ...]:
    """The list's names of the consequences an absorb takes (one the player has not named already)."""
    if action.kind != "absorb" or action.get("name") is not None or conflict.phase != "absorb":
        return ()
    slots = [SLOTS.index(c) for c in str(action.get("cons") or "").split("+") if c]
    names = consequence_names()
    return tuple(names[SLOTS[s]][(conflict.exchange - 1) % len(names[SLOTS[s]])] for s in slots)


def with_consequence_names(conflict: PresjaState, action: Action, names: Sequence[str]) -> Action:
    """An absorb with the names the player gave (an empty one keeps the list's name)."""
    listed = consequences_taken(conflict, "", action)
    given = [" ".join(typed.split()) or keep for typed, keep in zip(names, listed, strict=False)]
    if not given:
        return action
    base = without_name(action)
    return Action.of(base.kind, **dict(base.args), name=tuple(given))


def setup_facts(conflict: PresjaState) -> dict[str, dict[str, str]]:
    """Each participant's numbers: skill, Zmysły, weapon and armour factors, Ciało and the track, Punkty Losu."""
    facts: dict[str, dict[str, str]] = {}
    for fi in conflict.fighters:
        skill = conflict.rule_values["unskilled_level"] if fi.skill is None else fi.skill
        row = {
            fi.skill_name: level_text(skill, conflict.ladder_name),
            "Zmysły (Senses)": f"{fi.zmysly:+d}",
            f"Czynnik Obrażeń (damage factor, {fi.weapon_name})": f"+{fi.damage}",
            f"Czynnik Wyparowań (absorption factor, {fi.armour_name})": f"+{fi.absorption}",
            "Ciało (Body)": str(fi.cialo),
            "tor (track)": track_text(fi.track, 0, fi.body),
            "konsekwencje (consequences)": ", ".join(
                f"{SLOT_NAMES[SLOTS[s]]} takes {conflict.values[s]}" for s in range(3)
            ),
            "Punkty Losu (fate points)": str(fi.character.fate_points),
        }
        if fi.weapon_aspect:
            row[f"aspekt broni (weapon aspect) '{fi.weapon_aspect}'"] = f"{fi.weapon_boxes} pola (boxes)"
        if fi.aspects:
            row["aspekty (aspects)"] = "; ".join(f"'{a}'" for a in fi.aspects)
        facts[fi.id] = row
    return facts


def roll_stakes(conflict: PresjaState) -> list[tuple[str, Fraction]]:
    """The chances the roll decides, before any invocation: each attack of the roller hits (presja ≥ 1), and each
    attack on the roller is held off (presja 0); a foe who has not rolled yet rolls too."""
    if conflict.pending_roll() is None:
        return []
    i = conflict.roller()
    dist = ROLL.distribution()
    rows: list[tuple[str, Fraction]] = []
    pairs = [(i, t) for t in [conflict._attacks(i)] if t >= 0]
    pairs += [(j, i) for j in range(len(conflict.fighters)) if j != i and conflict._attacks(j) == i]
    for a, t in pairs:
        other = t if a == i else a
        theirs = [(None, Fraction(1))] if conflict.dice[other] is not None else list(dist.items())
        hit = Fraction(0)
        for mine, p in dist.items():
            for roll, q in theirs:
                trial = cast("PresjaState", conflict.fork())
                trial.dice[i] = int(mine)
                if roll is not None:
                    trial.dice[other] = int(roll)
                if trial.attack_numbers(a, t).presja > 0:
                    hit += p * q
        later = "" if conflict.dice[other] is not None else f", {conflict.fighters[other].name} still to roll"
        if a == i:
            rows.append((f"Atak trafia (a hit on) {conflict.fighters[t].name}{later}", hit))
        else:
            rows.append((f"Obrona wytrzymuje (no presja from) {conflict.fighters[a].name}{later}", 1 - hit))
    return rows


def id_words(conflict: PresjaState) -> dict[str, str]:
    """``belzee:mild`` (a consequence as the choices name it) → the consequence in words."""
    words: dict[str, str] = {}
    for j, fj in enumerate(conflict.fighters):
        for s, slot in enumerate(SLOTS):
            name = conflict.cons_names[j][s]
            what = f" '{name}'" if name else ""
            words[f"{fj.id}:{slot}"] = f"{fj.name}'s konsekwencja {SLOT_NAMES[slot]}{what}"
    return words


__all__ = [
    "ENDINGS",
    "action_cost",
    "consequences_taken",
    "decision_stake",
    "id_words",
    "leading_actions",
    "roll_stakes",
    "setup_facts",
    "with_consequence_names",
]
