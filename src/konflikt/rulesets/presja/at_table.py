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
from konflikt.core.i18n import localized
from konflikt.rulesets.presja import invoke
from konflikt.rulesets.presja.i18n import N_, _, ngettext, pgettext
from konflikt.rulesets.presja.models import consequence_names, consequence_text, level_text
from konflikt.rulesets.presja.naming import without_name
from konflikt.rulesets.presja.static import ROLL
from konflikt.rulesets.presja.texts import consequence_words
from konflikt.rulesets.presja.track import SLOTS, Absorb, slot_name, track_text

if TYPE_CHECKING:
    from konflikt.rulesets.presja.state import PresjaState

ENDINGS = {
    "taken_out": N_("taken out"),
    "conceded": N_("conceded"),
    "taken_out_and_conceded": N_("taken out or conceded"),
    "all_out": N_("nobody left standing"),
    "deadlock": N_("deadlock"),
    "goal_reached": N_("goal reached"),
}
"""Each ending in words (a message of the catalog, translated where it is shown)."""


def cost_words(cost: str) -> str:
    """What an invocation costs now, in words."""
    if cost == "fp":
        return _("1 fate point")
    if cost == "free":
        return pgettext("cost", "free")
    return _("1 weapon aspect box")


def decision_stake(conflict: PresjaState, seat: str) -> str:
    """At an absorb: the pressure to take, from whose attack, and what the track and consequences hold."""
    if conflict.phase != "absorb" or conflict.current_player() != seat:
        return ""
    a, t, p = conflict.hits[conflict.ptr]
    ft = conflict.fighters[t]
    free = [f"{slot_name(SLOTS[s])} {conflict.values[s]}" for s in range(3) if not conflict.cons[t][s]]
    return _(
        "{name} takes pressure {pressure} from {attacker}'s attack: track {track}; free consequences: {free}",
        name=ft.name,
        pressure=p,
        attacker=conflict.fighters[a].name,
        track=track_text(ft.track, conflict.marked[t], ft.body),
        free=", ".join(free) or _("none"),
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
    return cost_words(invoke.cost(conflict, conflict.index[seat], key))


def consequences_taken(conflict: PresjaState, seat: str, action: Action) -> tuple[str, ...]:
    """The list's names of the consequences an absorb takes (one the player has not named already)."""
    if action.kind != "absorb" or action.get("name") is not None or conflict.phase != "absorb":
        return ()
    return tuple(consequence_text(name) for name in _listed(conflict, action))


def _listed(conflict: PresjaState, action: Action) -> tuple[str, ...]:
    """The list's names (as saved) of the consequences an absorb takes."""
    slots = [SLOTS.index(c) for c in str(action.get("cons") or "").split("+") if c]
    names = consequence_names()
    return tuple(names[SLOTS[s]][(conflict.exchange - 1) % len(names[SLOTS[s]])] for s in slots)


def with_consequence_names(conflict: PresjaState, action: Action, names: Sequence[str]) -> Action:
    """An absorb with the names the player gave (an empty one, or the list's name as shown, keeps the list's
    name as it is saved)."""
    if action.kind != "absorb" or action.get("name") is not None or conflict.phase != "absorb":
        return action
    listed = _listed(conflict, action)
    names = [
        name if " ".join(name.split()) != consequence_text(keep) else ""
        for name, keep in zip(names, listed, strict=False)
    ]
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
            localized(fi.skill_name): level_text(skill, conflict.ladder_name),
            _("Senses"): f"{fi.zmysly:+d}",
            _("damage factor ({weapon})", weapon=localized(fi.weapon_name)): f"+{fi.damage}",
            _("absorption factor ({armour})", armour=localized(fi.armour_name)): f"+{fi.absorption}",
            _("Body"): str(fi.cialo),
            pgettext("status", "track"): track_text(fi.track, 0, fi.body),
            _("consequences"): ", ".join(
                _("{slot} takes {value}", slot=slot_name(SLOTS[s]), value=conflict.values[s]) for s in range(3)
            ),
            _("fate points"): str(fi.character.fate_points),
        }
        if fi.weapon_aspect:
            row[_("weapon aspect '{aspect}'", aspect=localized(fi.weapon_aspect))] = ngettext(
                "{n} box", "{n} boxes", fi.weapon_boxes
            )
        if fi.aspects:
            row[_("aspects")] = "; ".join(f"'{localized(a)}'" for a in fi.aspects)
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
        later = conflict.dice[other] is None
        fields = {"target": conflict.fighters[t].name, "attacker": conflict.fighters[a].name}
        fields["other"] = conflict.fighters[other].name
        if a == i and later:
            rows.append((_("a hit on {target}, {other} still to roll", **fields), hit))
        elif a == i:
            rows.append((_("a hit on {target}", target=fields["target"]), hit))
        elif later:
            rows.append((_("no pressure from {attacker}, {other} still to roll", **fields), 1 - hit))
        else:
            rows.append((_("no pressure from {attacker}", attacker=fields["attacker"]), 1 - hit))
    return rows


def id_words(conflict: PresjaState) -> dict[str, str]:
    """``belzee:mild`` (a consequence as the choices name it) → the consequence in words."""
    words: dict[str, str] = {}
    for j, fj in enumerate(conflict.fighters):
        for slot in SLOTS:
            words[f"{fj.id}:{slot}"] = consequence_words(conflict, j, slot)
    return words


__all__ = [
    "ENDINGS",
    "action_cost",
    "consequences_taken",
    "cost_words",
    "decision_stake",
    "id_words",
    "leading_actions",
    "roll_stakes",
    "setup_facts",
    "with_consequence_names",
]
