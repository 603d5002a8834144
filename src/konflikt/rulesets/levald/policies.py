"""The ``heuristic`` policy: what a sensible Le våld fighter does, in a few readable rules.

It moves toward its own optimal distance (and breaks a bad initiative by changing the distance), attacks unless it
cannot hit, counters when that pays better than defending, gains ground to distances that keep its advantage, and
leaves when it is losing badly.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from konflikt.core.actions import Action
from konflikt.core.state import State
from konflikt.errors import KonfliktError
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.i18n import _

if TYPE_CHECKING:
    from konflikt.rulesets.levald.state import LevaldState

LOSING_BADLY = -30
"""Leave when one's Omtöckning penalty is at least this bad and this much worse than the enemy's."""


@cache
def attack_beats_defence(attack: int, defence: int, exceptional: str = "fifth") -> float:
    """P(an attack at ``attack`` % beats one defence roll at ``defence`` %), for decisions (floats suffice)."""
    wins = 0
    for a in range(1, 101):
        qa = R.quality(a, attack, exceptional)
        if qa[0] == R.FAILURE:
            continue
        wins += sum(1 for d in range(1, 101) if R.attack_wins(qa, (R.quality(d, defence, exceptional),)))
    return wins / 10_000


COUNTER_MARGIN = 1.25
"""Counter only when the expected damage dealt beats the extra risked by this factor."""


def expected_hit(state: LevaldState, src: int, dst: int) -> float:
    """Rough damage of a hit: a typical effect of 9 plus the mean of the dice the target's Gard calls for."""
    dice = state.fighters[src].guarded if state.gard[dst] > 0 else state.fighters[src].open
    return 9 + dice.count * (dice.sides + 1) / 2


def success(target: int) -> float:
    return min(max(target, 0), 100) / 100


class HeuristicPolicy:
    """Readable rules of thumb for every decision of a Le våld fight."""

    name = "heuristic"

    def choose(self, state: State, seat: str, rng: np.random.Generator) -> Action:
        from konflikt.rulesets.levald.state import LevaldState

        if not isinstance(state, LevaldState):
            raise KonfliktError(_("the levald heuristic cannot play {state}", state=type(state).__name__))
        legal = list(state.legal_actions(seat))
        if not legal:
            raise KonfliktError(_("{seat} has no legal action to choose from", seat=seat))
        if state.phase == "gm":
            return Action.of("fight")  # the GM's conditions stay as the scenario set them
        me = state.index[seat]
        if state.phase == "move":
            return self._move(state, me, legal)
        if state.phase == "attacker":
            target = state._attack_target(me)
            low = target <= 0 or (target <= 10 and state.gard[me] < state.fighters[me].gard_max)
            return Action.of("regain" if low else "attack")
        if state.phase == "defender":
            return self._defend(state, me, legal)
        if state.phase == "ground":
            return self._ground(state, me, legal)
        return legal[0]

    def _move(self, state: LevaldState, me: int, legal: list[Action]) -> Action:
        """One marker for every pair of the sub-fight, chosen for the pair of :meth:`LevaldState.movement_pair`."""
        pair = state.movement_pair(me)
        a, b = state.pairs[pair]
        enemy = b if me == a else a
        mine, theirs = R.daze_penalty(state.daze[me]), R.daze_penalty(state.daze[enemy])
        if Action.of("leave") in legal and mine <= LOSING_BADLY and mine - theirs <= LOSING_BADLY:
            return Action.of("leave")
        d = state.pair_distance(pair)
        length = state.fighters[me].length
        if state.holder[pair] == me:
            return Action.of("hold")  # keep the initiative: it changes only if the distance does
        if d > length:
            return Action.of("advance")
        if d < length:
            return Action.of("retreat") if Action.of("retreat") in legal else Action.of("hold")
        stuck = state.holder[pair] < 0 and not state.redecide[pair]  # nobody holds it until the distance changes
        if state.holder[pair] == enemy or stuck:
            # at my best distance but without the initiative: change the distance to force a new decision
            closer = d - 1
            wish = "advance" if closer >= 0 and closer != state.fighters[enemy].length else "retreat"
            return Action.of(wish) if Action.of(wish) in legal else Action.of("hold")
        return Action.of("hold")

    def _defend(self, state: LevaldState, me: int, legal: list[Action]) -> Action:
        """Counter when the expected damage dealt beats the extra damage risked by giving up the defence roll."""
        if Action.of("counter") not in legal:
            return Action.of("defend")
        enemy = state.att
        their_attack = state._attack_target(enemy)
        hit_if_defending = attack_beats_defence(their_attack, state._defence_target(me), state.options.exceptional)
        exposure = success(their_attack) - hit_if_defending
        gain = success(state._attack_target(me)) * expected_hit(state, me, enemy)
        cost = exposure * expected_hit(state, enemy, me)
        soaks = state.gard[me] * 2 >= state.fighters[me].gard_max
        return Action.of("counter" if soaks and gain > COUNTER_MARGIN * cost else "defend")

    def _ground(self, state: LevaldState, me: int, legal: list[Action]) -> Action:
        mine, theirs = state.fighters[me].length, state.fighters[state.dfn].length
        last = len(state.scale) - 1

        def score(action: Action) -> float:
            d = state.scale_index[R.move(state.dist[state.active], int(action["step"]), last)]
            return 2.0 * (d == mine) - 1.5 * (d == theirs) + 0.5 * (d <= mine) - 0.5 * (d <= theirs)

        keep = Action.of("ground", step=0)
        best = max(legal, key=score)
        return keep if keep in legal and score(keep) >= score(best) else best
