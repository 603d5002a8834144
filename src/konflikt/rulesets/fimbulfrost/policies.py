"""The ``heuristic`` policy of Fimbulfrost, for heroes and opponent alike.

Deterministic given the state (it never draws from the generator), cheap, and made of small pure functions, so that
exact analysis can memoise over it and a vectorised kernel can mirror it:

* presenting: be presented by a friend (the next hero round the table), yourself only when nobody is left;
* round-1 split: finish the opponent when this and the later heroes' successes allow, otherwise give morale where it
  saves a friend from the opponent's answer (Status + morale above the opponent's Omdømme dice), the rest on the
  opponent;
* the opponent's split: take out as many heroes as it can, weakest first; the rest on the weakest still standing;
* round 2: describe all three areas; weapon dice only to reach the dice needed;
* round 3: gather free dice first (even wilder, maneuvers, answers), then pool dice, only as many as needed for a
  :data:`CONFIDENCE` chance of defeating the opponent; borrowed time last;
* consequences: the least harmful entry first (by severity; death only when forced, by the rules); buy back only
  when it costs at most two entries and cannot force death; buy every point for a defeated opponent, least harmful
  first.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from konflikt.core.actions import Action
from konflikt.core.state import State
from konflikt.errors import KonfliktError
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.i18n import _
from konflikt.rulesets.fimbulfrost.models import Entry
from konflikt.rulesets.fimbulfrost.rules import Round3Option, buy_back_count, dice_needed, maneuver_bit
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState

CONFIDENCE = Fraction(19, 20)
"""Round 3 gathers dice until the team defeats the opponent with at least this chance."""


def split_round1(successes: int, later: int, opp_status: int, friends_eff: list[int], answer_dice: int) -> list[int]:
    """Shares for (opponent, friend 1, friend 2, ...): finish the opponent, else morale that saves a friend.

    Args:
        later: successes of the heroes who split after this one.
        friends_eff: each friend's Status + morale.
        answer_dice: the opponent's Omdømme dice (its most successes in the answer).
    """
    shares = [0] * (1 + len(friends_eff))
    if successes + later >= opp_status:
        shares[0] = successes
        return shares
    left = successes
    for f in sorted(range(len(friends_eff)), key=lambda f: (friends_eff[f], f)):
        need = answer_dice - friends_eff[f] + 1
        if 0 < need <= left:
            shares[1 + f] = need
            left -= need
    shares[0] = left
    return shares


def least_harmful(entries: Sequence[Entry]) -> int:
    """The index of the entry the heuristic buys: the lowest severity, then the list's order. The severity rates the
    whole harm of an entry (fleeing in panic is more than the gear left behind), so an entry whose mechanical effect
    is already true is not taken first for that alone."""
    return min(range(len(entries)), key=lambda k: (entries[k].severity, k))


def split_hits(hits: int, eff: list[int]) -> list[int]:
    """The opponent's shares per standing hero (Status + morale in ``eff``): take out the most, weakest first."""
    shares = [0] * len(eff)
    left = hits
    order = sorted(range(len(eff)), key=lambda t: (eff[t], t))
    for t in order:
        if eff[t] <= left:
            shares[t] = eff[t]
            left -= eff[t]
    if left:
        rest = [t for t in order if shares[t] == 0]
        shares[rest[0] if rest else order[0]] += left
    return shares


class HeuristicPolicy:
    """Sensible, deterministic play for every seat of a Fimbulfrost conflict."""

    name = "heuristic"

    def choose(self, state: State, seat: str, rng: np.random.Generator) -> Action:
        if not isinstance(state, FimbulfrostState):
            raise KonfliktError(_("the fimbulfrost heuristic plays only fimbulfrost conflicts"))
        return self._choose(state)

    def _choose(self, s: FimbulfrostState) -> Action:
        if s.asks:
            return self._ask(s)
        i, phase = s.cursor, s.phase
        if phase == P.PRESENT:
            options = s._presenters(i)
            others = [(j - i) % s.n for j in options if j != i]
            j = (i + min(others)) % s.n if others else i
            return Action.of("present", by=s.hero_ids[j])
        if phase == P.R1_SPLIT:
            roll = s.rolls[i]
            assert roll is not None
            later = sum(r.successes for r in s.rolls[i + 1 :] if r is not None)
            friends = s.friends(i)
            eff = [s.hstatus[f] + s.morale[f] for f in friends]
            shares = split_round1(roll.successes, later, s.opp_status, eff, s.opp.omdomme)
            morale = {f"morale_{s.hero_ids[f]}": m for f, m in zip(friends, shares[1:], strict=True) if m}
            return Action.of("split", opponent=shares[0], **morale)
        if phase == P.HIT:
            targets = s.standing()
            shares = split_hits(s.hits, [s.hstatus[t] + s.morale[t] for t in targets])
            return Action.of("hit", **{s.hero_ids[t]: d for t, d in zip(targets, shares, strict=True) if d})
        if phase == P.R2_DESCRIBE:
            return Action.of("describe", stil=True, stunt=True, snak=True)
        if phase == P.R2_WEAPON:
            team = sum(s.dice[j] if j <= i else 3 for j in s.standing())
            need = dice_needed(s.opp_status, CONFIDENCE) - team
            return Action.of("weapon", dice=max(0, min(s.pools[i][2], need)))
        if phase == P.R3_TURN:
            return self._round3(s, i)
        raise KonfliktError(_("the heuristic has no rule for phase {phase}", phase=repr(_(P.NAMES[phase]))))

    def _round3(self, s: FimbulfrostState, i: int) -> Action:
        team = sum(s.dice[j] for j in s.standing())
        deficit = dice_needed(s.opp_status, CONFIDENCE) - team
        legal = set(s._round3_actions(i))
        if deficit <= 0:
            return Action.of("done")
        used = s.used[i]
        if not used & Round3Option.WILDER:
            for step in range(1, s.n):
                act = Action.of("wilder", by=s.hero_ids[(i + step) % s.n])
                if act in legal:
                    return act
        for j, m in enumerate(s.chars[i].manovrer):
            if not used & maneuver_bit(j):
                return Action.of("maneuver", id=m.id)
        if not used & Round3Option.QUESTION and Action.of("answer") in legal:
            return Action.of("answer")
        for kind, bit, k in (
            ("weapon", Round3Option.WEAPON, 2),
            ("gear", Round3Option.GEAR, 1),
            ("armour", Round3Option.ARMOUR, 0),
        ):
            take = min(s.pools[i][k], deficit)
            act = Action.of(kind, dice=take)
            if not used & bit and take > 0 and act in legal:
                return act
        if Action.of("borrowed_time") in legal:
            return Action.of("borrowed_time")
        return Action.of("done")

    def _ask(self, s: FimbulfrostState) -> Action:
        kind, i, count, round_no = s.asks[0]
        if kind == "back":
            cost = buy_back_count(count, s.points)
            safe = s.hero_entries(i, round_no, allow_death=False)
            return Action.of("buy_back" if cost <= 2 and len(safe) >= cost else "stay_out")
        entries = s.ask_entries()
        return Action.of("consequence", entry=entries[least_harmful(entries)].id)
