"""The `heuristic` policy of `presja`, for every seat including the GM's.

Deterministic given the state (it never draws from the generator), so exact analysis may memoise on ``key()``:
- before a foe's roll (the window the text leaves to concede, "przed rzutem przeciwnika"): fight on — the concession
  is weighed at the declaration, and the kernel and the exact model play an exchange by the difference of the two
  rolls, which a concession on one's own roll would split;
- declarations: concede when being taken out this exchange is likely and no attack of its own could take the foe
  out this exchange (who could still win fights on, as optimal play does); otherwise attack the foe it expects to
  hurt most and pick the tactic with the best expected pressure dealt minus (weighted) pressure taken — weighted
  lightly for the underdog (risk pays) and heavily for the favourite (safety pays), as optimal play does; with no
  foe in reach, move towards the nearest one;
- invocations: only when +2 (or +1) changes the pressure dealt or taken this exchange, the free ones first;
- absorbing: the choice with the least lasting harm (boxes before mild, mild before moderate before severe);
- the GM: ties of Zmysły to the higher skill; each advantage to the attacker the text's criteria favour.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from konflikt.core.actions import Action
from konflikt.core.state import State
from konflikt.errors import KonfliktError
from konflikt.rulesets.presja import invoke
from konflikt.rulesets.presja.acts import act
from konflikt.rulesets.presja.odds import pressure_distribution
from konflikt.rulesets.presja.rules import TACTICS, tactic_mods
from konflikt.rulesets.presja.static import tactic_arg
from konflikt.rulesets.presja.track import Absorb, absorbable

if TYPE_CHECKING:
    from konflikt.rulesets.presja.state import PresjaState


CONSEQUENCE_HARM = (10.0, 30.0, 60.0)
"""Lasting harm of a mild, moderate and severe consequence, in points of box capacity."""
CONCEDE_AT = 1 / 3
_DECLARE_MEMO: dict[tuple[object, ...], Action] = {}
_INVOKE_MEMO: dict[tuple[object, ...], Action] = {}
"""Concede when the chance of being taken out this exchange is at least this."""


@cache
def expected(diff: int, damage: int, absorption: int) -> float:
    """Expected presja of one attack whose skill exceeds the defence's by ``diff``."""
    return float(sum(v * p for v, p in pressure_distribution(diff, 0, damage, absorption).items()))


@cache
def survive(diff: int, damage: int, absorption: int, can: frozenset[int]) -> float:
    """Chance that one attack's pressure is 0 or absorbable."""
    dist = pressure_distribution(diff, 0, damage, absorption)
    return float(sum((p for v, p in dist.items() if v == 0 or v in can), Fraction(0)))


UNDERDOG_WEIGHT = 0.25
FAVOURITE_WEIGHT = 2.0
"""How much the pressure taken counts against the pressure dealt when the heuristic chooses its taktyka (tactic),
for the side that expects to deal less than it takes (the underdog) and the other (the favourite). Learnt from
optimal play (``konflikt solve presja/knife_fight``): the underdog gains by risk, the offensive tactic (a long fight
is lost anyway), the favourite by safety, the defensive one. With both at 1 (before) the knife fight's heuristic
left 11.6 pp (Belzee) and 7.0 pp (Massimo) to a best response; at 0.25 and 2 it leaves 1.8 and 2.3
(docs/rulesets/presja.md)."""


def _risk_weight(dealt: float, taken: float) -> float:
    """The weight of the pressure taken (see :data:`UNDERDOG_WEIGHT`), from the expected pressure dealt and taken
    with no tactic."""
    return UNDERDOG_WEIGHT if dealt < taken else FAVOURITE_WEIGHT


class HeuristicPolicy:
    """A sensible, deterministic player and GM for `presja`."""

    name = "heuristic"

    def choose(self, state: State, seat: str, rng: np.random.Generator) -> Action:
        conflict: PresjaState = state  # type: ignore[assignment]
        ph = conflict.phase
        if ph == "declare":
            return self._declare(conflict, conflict.order[conflict.ptr])
        if ph == "invoke":
            return self._invoke(conflict, conflict.inv_queue[conflict.ptr])
        if ph == "absorb":
            return self._absorb(conflict)
        if ph == "ignore":
            return self._ignore(conflict)
        if ph == "concede_window":
            return act("fight_on")  # weighed at the declaration (see the module)
        if ph == "edge":
            return act("pass")  # fate points are kept for the fight
        if ph == "compel":
            return act("pass")  # the GM heuristic never compels: a complication has no number in the text
        if ph == "compel_answer":
            return act("accept")  # a complication costs nothing the rules count; a fate point does
        if ph == "order":
            group = conflict.tie_groups[0]
            best = max(
                group,
                key=lambda i: (
                    conflict.fighters[i].zmysly,
                    conflict.fighters[i].initiative_edge is not None,
                    conflict.level(i),
                    conflict.fighters[i].player,
                    -i,
                ),
            )
            return act("order", first=conflict.fighters[best].id)
        if ph == "advantage":
            kind, a, b = conflict.adv_queue[0]
            holder = gm_holder(conflict, kind, (a, b))
            return act(
                "advantage",
                which=kind,
                pair=(conflict.fighters[a].id, conflict.fighters[b].id),
                holder=None if holder < 0 else conflict.fighters[holder].id,
            )
        raise KonfliktError(f"{seat} has nothing to decide in phase {ph!r}")

    # ---- declarations ----------------------------------------------------------------------------------------
    def _declare(self, conflict: PresjaState, i: int) -> Action:
        """Memoised on what the choice depends on: levels, tracks, declarations, zones (never the history)."""
        key = (
            conflict.static_key,
            i,
            *conflict.levels,
            *conflict.marked,
            *conflict.fate,
            *conflict.zone,
            *conflict.decl,
            *(c for cs in conflict.cons for c in cs),
        )
        found = _DECLARE_MEMO.get(key)
        if found is None:
            if len(_DECLARE_MEMO) > 200_000:
                _DECLARE_MEMO.clear()
            found = _DECLARE_MEMO[key] = self._declare_now(conflict, i)
        return found

    def _declare_now(self, conflict: PresjaState, i: int) -> Action:
        legal = conflict.legal_actions(conflict.fighters[i].id)
        fi = conflict.fighters[i]
        threats = [
            j
            for j in conflict.opponents(i)
            if not conflict._conceding(j)
            and ((conflict.decl[j] is None and conflict.reachable(j, i)) or conflict._attacks(j) == i)
        ]
        can = _can_absorb(conflict, i)
        tactics = TACTICS if conflict.rule_values["tactics"] else ("none",)
        targets = [
            j for j in conflict.opponents(i) if act("attack", target=conflict.fighters[j].id, tactic=None) in legal
        ]
        if act("concede") in legal and threats:
            # the alternative to conceding is fighting on as defensively as the rules allow
            guard = max(tactic_mods(t)[1] for t in tactics)
            alive = 1.0
            for j in threats:
                diff = conflict.level(j) + tactic_mods(conflict.tactic(j))[0] - conflict.level(i) - guard
                alive *= survive(diff, conflict.fighters[j].damage, fi.absorption, can)
            if 1.0 - alive >= CONCEDE_AT and not _can_take_out(conflict, i, targets, tactics):
                return act("concede")
        hurt = (
            1.0
            + bin(conflict.marked[i]).count("1") / max(len(fi.track), 1)
            + sum(1 for c in conflict.cons[i] if c) * 0.5
        )

        def taken(tactic: str) -> float:
            _, d_tac = tactic_mods(tactic)
            return sum(
                expected(
                    conflict.level(j) + tactic_mods(conflict.tactic(j))[0] - conflict.level(i) - d_tac,
                    conflict.fighters[j].damage,
                    fi.absorption,
                )
                for j in threats
            )

        if targets:
            target = max(
                targets,
                key=lambda j: (
                    expected(conflict.level(i) - conflict.level(j), fi.damage, conflict.fighters[j].absorption),
                    -len(_can_absorb(conflict, j)),
                    -j,
                ),
            )
            tf = conflict.fighters[target]

            def dealt(tactic: str) -> float:
                a_tac, _ = tactic_mods(tactic)
                d = conflict.level(i) + a_tac - conflict.level(target) - tactic_mods(conflict.tactic(target))[1]
                return expected(d, fi.damage, tf.absorption)

            weight = hurt * _risk_weight(dealt("none"), taken("none"))

            def score(tactic: str) -> float:
                return dealt(tactic) - weight * taken(tactic)

            best = max(tactics, key=lambda t: (score(t), t == "none"))
            return act("attack", target=tf.id, tactic=tactic_arg(best))
        defensive = max(tactics, key=lambda t: (-taken(t), t == "none"))
        step = _step_towards_foe(conflict, i)
        if step >= 0:
            return act("move", to=conflict.zone_ids[step], tactic=tactic_arg(defensive))
        return act("defend", tactic=tactic_arg(defensive))

    # ---- invocations -----------------------------------------------------------------------------------------
    def _invoke(self, conflict: PresjaState, who: int) -> Action:
        """Memoised on the exchange's numbers and resources (never the history)."""
        key = (
            conflict.static_key,
            who,
            tuple(conflict.levels),
            tuple(conflict.dice),
            tuple(conflict.bonus),
            tuple(conflict.margin_bonus),
            tuple(conflict.decl),
            tuple(conflict.fate_points),
            tuple(tuple(c) for c in conflict.cons),
            tuple(sorted(conflict.invoked.items())),
            tuple(conflict.fate),
            tuple(conflict.ticks),
            tuple(conflict.zone),
        )
        found = _INVOKE_MEMO.get(key)
        if found is None:
            if len(_INVOKE_MEMO) > 200_000:
                _INVOKE_MEMO.clear()
            found = _INVOKE_MEMO[key] = self._invoke_now(conflict, who)
        return found

    def _invoke_now(self, conflict: PresjaState, who: int) -> Action:
        actions = invoke.options(conflict, who)
        base = _balance(conflict, who)
        best: Action | None = None
        best_rank: tuple[int, int] = (9, 9)
        for action in actions:
            if action.kind == "fate_point":
                gain = _balance(conflict, who, bonus=1) - base
                rank = (2, 1)
            elif action["effect"] == "tick":
                gain = _balance(conflict, who, att=1) - base
                rank = (1, 0)
            elif action["effect"] == "bonus":
                gain = _balance(conflict, who, bonus=conflict.rule_values["invoke_bonus"]) - base
                rank = (0 if invoke.cost(conflict, who, str(action["aspect"])) == "free" else 2, 0)
            else:
                continue
            if gain > 1e-9 and rank < best_rank:
                best, best_rank = action, rank
        return best if best is not None else act("pass")

    def _ignore(self, conflict: PresjaState) -> Action:
        assert conflict.pending is not None
        who, owner, _, effect = conflict.pending
        if effect != "bonus":
            return act("accept")
        before = _balance(conflict, owner)
        conflict.bonus[who] += conflict.rule_values["invoke_bonus"]
        after = _balance(conflict, owner)
        conflict.bonus[who] -= conflict.rule_values["invoke_bonus"]
        return act("ignore") if after < before else act("accept")

    # ---- absorbing -------------------------------------------------------------------------------------------
    def _absorb(self, conflict: PresjaState) -> Action:
        _, defender, presja = conflict.hits[conflict.ptr]
        options = conflict.absorb_choices(defender, presja)
        if not options:
            return act("taken_out")
        return conflict.absorb_action(_least_harm(conflict.fighters[conflict.hits[conflict.ptr][1]].track, options))


@cache
def _least_harm(track: tuple[tuple[int, int], ...], options: tuple[Absorb, ...]) -> Absorb:
    """The way to take a hit with the least lasting harm (memoised: the same few hits recur)."""

    def harm(opt: Absorb) -> tuple[float, int]:
        boxes = sum(track[i][1] for i, _ in opt.boxes)
        waste = sum(track[i][1] - a for i, a in opt.boxes)
        return boxes + sum(CONSEQUENCE_HARM[s] for s in opt.cons), waste

    return min(options, key=harm)


def _can_take_out(conflict: PresjaState, i: int, targets: list[int], tactics: tuple[str, ...]) -> bool:
    """Whether one attack of ``i`` this exchange, with its most aggressive tactic, could take a foe out: some
    pressure the foe could not absorb (no box nor free consequence covers it). A fighter who could still win this
    exchange does not concede (learnt from optimal play, docs/rulesets/presja.md)."""
    attack = max(tactic_mods(t)[0] for t in tactics)
    fi = conflict.fighters[i]
    for j in targets:
        diff = conflict.level(i) + attack - conflict.level(j) - tactic_mods(conflict.tactic(j))[1]
        if survive(diff, fi.damage, conflict.fighters[j].absorption, _can_absorb(conflict, j)) < 1.0:
            return True
    return False


def _can_absorb(conflict: PresjaState, i: int) -> frozenset[int]:
    free = (conflict.cons[i][0] == 0, conflict.cons[i][1] == 0, conflict.cons[i][2] == 0)
    rule_values = conflict.rule_values
    return absorbable(
        conflict.fighters[i].track,
        conflict.marked[i],
        free,
        conflict.values,
        rule_values["box_absorbs_less"],
        rule_values["consequence_absorbs_less"],
    )


def _balance(conflict: PresjaState, who: int, bonus: int = 0, att: int = 0) -> float:
    """Pressure ``who`` deals minus (doubled) pressure it takes this exchange, with a trial bonus."""
    conflict.bonus[who] += bonus
    conflict.margin_bonus[who] += att
    dealt = taken = 0
    try:
        for i in conflict.order:
            t = conflict._attacks(i)
            if t < 0 or (i != who and t != who):
                continue
            p = conflict.attack_numbers(i, t).presja
            if i == who:
                dealt += p
            else:
                taken += p
    finally:
        conflict.bonus[who] -= bonus
        conflict.margin_bonus[who] -= att
    return dealt - 2.0 * taken


def _weapon_edge(conflict: PresjaState, i: int, t: int) -> int:
    """How clearly ``i``'s melee weapon beats ``t``'s this exchange (0: not clearly)."""
    fi, ft = conflict.fighters[i], conflict.fighters[t]
    if fi.ranged or ft.ranged:
        return 0
    longer = fi.reach - ft.reach
    closing_in = conflict.tactic(i if longer < 0 else t) == "offensive"
    if longer <= -2 and closing_in:
        return -longer  # i, with the shorter weapon, is inside the reach: the situation turns
    if longer >= 2 and not closing_in:
        return longer
    return 0


def _step_towards_foe(conflict: PresjaState, i: int) -> int:
    """The adjacent zone on a shortest path to the nearest zone with a foe (−1: none reachable)."""
    goals = {conflict.zone[j] for j in conflict.opponents(i)}
    start = conflict.zone[i]
    if not goals or start in goals:
        return -1
    first: dict[int, int] = {z: z for z in sorted(conflict.adjacent[start])}
    frontier = sorted(first)
    seen = {start, *frontier}
    while frontier:
        nxt: list[int] = []
        for z in frontier:
            if z in goals:
                return first[z]
            for y in sorted(conflict.adjacent[z]):
                if y not in seen:
                    seen.add(y)
                    first[y] = first[z]
                    nxt.append(y)
        frontier = nxt
    return -1


def gm_holder(conflict: PresjaState, kind: str, pair: tuple[int, int]) -> int:
    """The GM's heuristic for who of ``pair`` holds an advantage this exchange (−1: neither), by the text's criteria.

    Mobility: after some time of fighting (the third exchange), to the foe of a clearly more burdened fighter —
    armour's Czynnik Wyparowań less Ciało ("Na uwadze należy mieć również atrybut Ciało"), 2 or more apart.
    Weapon: the clearly longer melee weapon (reach 2 or more apart) — unless the shorter one closes in (attacks
    with the offensive tactic): "Jeśli bohater ze sztyletem wszedłby w zwarcie z postacią z mieczem, sytuacja by
    się odwróciła". What counts as "clearly" and "closing in" is konflikt's own.
    """
    best, best_score = -1, 0
    a, b = pair
    for i, t in ((a, b), (b, a)):
        if conflict._attacks(i) != t:
            continue
        fi, ft = conflict.fighters[i], conflict.fighters[t]
        if kind == "mobility":  # a clearly more burdened foe, after some time of fighting
            burden = (ft.absorption - ft.cialo) - (fi.absorption - fi.cialo)
            score = burden if conflict.exchange >= 3 and burden >= 2 else 0
        elif kind == "weapon":  # a clearly longer weapon at reach; the shorter one inside the reach
            score = _weapon_edge(conflict, i, t)
        elif kind in ("tactics", "reaction"):
            score = int(kind in fi.edges and kind not in ft.edges)
        elif kind == "personality":
            score = fi.warlike - ft.warlike
        else:
            score = int(conflict.positional(i, t)[("numbers", "flanking", "surrounded").index(kind)])
        if score > best_score:
            best, best_score = i, score
    return best
