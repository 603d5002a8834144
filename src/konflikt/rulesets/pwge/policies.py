"""The ``heuristic`` policy: a player who budgets tokens.

It keeps a reserve for defence, counters what threatens it, tops a roll when behind and it can afford it, buys
order when striking first may decide, and moves to where its weapon works best (away from pursuers in a chase).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from konflikt.core.actions import Action
from konflikt.core.state import State
from konflikt.rulesets.pwge.choices import paid_with_die
from konflikt.rulesets.pwge.exchange import Deed
from konflikt.rulesets.pwge.odds import p_attack_wins
from konflikt.rulesets.pwge.rules import LAST_MELEE

RESERVE = 2
"""Tokens kept back for counters and tops when deciding whether to start something new."""
MAX_TOPS = 2
"""The most tops the heuristic puts into one roll: a topping war drains both pools."""
DIE_WHEN_TOKENS = 4
"""With the experience-dice rule, the heuristic pays with an erfarenhetstärning (experience die) once its pool is
down to this many tokens or fewer. Why: a die kept is worth something after the conflict ("kan förstås även användas
precis som vanligt"), while a token is worth more the fewer remain, since an empty pool loses the conflict."""


class HeuristicPolicy:
    """A sensible, deterministic token budgeter (``rng`` only breaks nothing: choices are deterministic)."""

    name = "heuristic"

    def choose(self, state: State, seat: str, rng: np.random.Generator) -> Action:
        from konflikt.rulesets.pwge.state import PwgeState

        assert isinstance(state, PwgeState)
        legal = list(state.legal_actions(seat))
        i = state.index[seat]
        # the heuristic weighs each choice once, whatever pays for it; how it pays is :func:`pays_with_die`'s
        unpaid = [a for a in legal if not paid_with_die(a)]
        choice = _decide(state, i, unpaid)
        choice = choice if choice in unpaid else unpaid[-1]
        by_die = Action.of(choice.kind, **dict(choice.args), pay="die")
        return by_die if pays_with_die(state, i) and by_die in legal else choice


def pays_with_die(state: object, i: int) -> bool:
    """Whether the heuristic pays its next spend with an experience die (see :data:`DIE_WHEN_TOKENS`)."""
    from konflikt.rulesets.pwge.state import PwgeState

    assert isinstance(state, PwgeState)
    return state.may_pay_with_die(i) and state.tokens[i] <= DIE_WHEN_TOKENS


def _purse(state: object, i: int) -> int:
    from konflikt.rulesets.pwge.state import PwgeState

    assert isinstance(state, PwgeState)
    return state.tokens[i] + state.xp[i]


def attack_value(state: object, i: int, j: int, weapon: str, code: int) -> Fraction:
    """Expected damage points of i attacking j at ``code`` with ``weapon`` if j counters (0 when out of reach)."""
    from konflikt.rulesets.pwge.state import PwgeState

    assert isinstance(state, PwgeState)
    mods = state.attack_mods(i, j, weapon, code)
    if mods is None:
        return Fraction(0)
    attack, band, damage = mods
    defence = state.people[j].roll + (band if state.options.dodge_keeps_range_difficulty else 0)
    if not state.can_spend(j):
        defence = band
    expected = max(Fraction(0), Fraction(7, 2) + damage - state.people[j].armour)
    return p_attack_wins(attack, defence) * expected


def best_attack(state: object, i: int, j: int, code: int) -> Fraction:
    return max(attack_value(state, i, j, w, code) for w in ("melee", "ranged"))


def _decide(state: object, i: int, legal: list[Action]) -> Action:
    from konflikt.rulesets.pwge.state import PwgeState

    assert isinstance(state, PwgeState)
    phase = state.phase
    purse = _purse(state, i)
    fleeing = state.kind == "chase" and state.side_ids[state.people[i].side] == state.setup.fleeing
    if phase == "attribute":  # it cannot judge an approach: its highest attribute (the log says only that)
        attributes = state.characters[i]["attributes"]
        return max(legal, key=lambda a: (attributes[a["name"]], a))
    if phase == "open":
        return _open(state, i, legal, purse, fleeing)
    if phase == "surprise_distance":
        return max(legal, key=lambda a: (max(best_attack(state, i, j, int(a["distance"])) for j in state.foes(i)), a))
    if phase == "free_attack":
        scored = [(_score_attack(state, i, a), a) for a in legal if a.kind == "free_attack"]
        return max(scored)[1] if scored else legal[-1]
    if phase in ("counter", "counter_response"):
        assert state.ex is not None
        deed = state.ex.action if phase == "counter" else state.ex.response
        assert deed is not None
        return Action.of("counter") if _threatens(state, i, deed, fleeing) else Action.of("no_counter")
    if phase == "response":
        if purse <= RESERVE + 1:
            return Action.of("no_response")
        responses = [a for a in legal if a.kind == "respond"]
        if fleeing:
            return next((a for a in responses if a.get("way") == "farther"), Action.of("no_response"))
        attacks = [a for a in responses if a["deed"] in ("attack", "press")]
        if not attacks:
            return Action.of("no_response")
        assert state.ex is not None
        actor, reach = state.ex.action.actor, state.response_reach()
        return max(attacks, key=lambda a: (_value_of(state, i, actor, a, reach), a))
    if phase == "order":
        return Action.of("order") if _order_matters(state, i, purse) else Action.of("no_order")
    if phase == "contest":
        return Action.of("top") if _worth_topping(state, i, purse) else Action.of("accept")
    if phase == "damage":
        return _damage(state, i, purse)
    return legal[-1]


def _value_of(state: object, i: int, j: int, action: Action, code: int | None = None) -> Fraction:
    """The chance of a move winning, or the expected damage of an attack at ``code`` (default: the pair's now)."""
    from konflikt.rulesets.pwge.state import PwgeState

    assert isinstance(state, PwgeState)
    if action.get("deed", action.kind) == "press":
        return p_attack_wins(state.press_mod(i, j), state.people[j].roll)
    return attack_value(state, i, j, str(action["weapon"]), state.pair(i, j) if code is None else code)


def _score_attack(state: object, i: int, action: Action) -> tuple[Fraction, Action]:
    from konflikt.rulesets.pwge.state import PwgeState

    assert isinstance(state, PwgeState)
    j = state.index[action["target"]]
    return _value_of(state, i, j, action), action


def _open(state: object, i: int, legal: list[Action], purse: int, fleeing: bool) -> Action:
    from konflikt.rulesets.pwge.state import PwgeState

    assert isinstance(state, PwgeState)
    if purse <= RESERVE:
        return Action.of("pass")
    best: tuple[Fraction, Action] = (Fraction(0), Action.of("pass"))
    for action in legal:
        if action.kind in ("pass", "other", "switch"):
            continue  # any other handling is the players' invention: the heuristic keeps to deeds it can weigh
        j = state.index[action["target"]]
        if action.kind in ("attack", "press"):
            value = _value_of(state, i, j, action)
        else:
            new = state.step_to(i, j, str(action["way"]))
            assert new is not None
            if state.kind == "chase":
                wants = "farther" if fleeing else "closer"
                value = Fraction(3) if action["way"] == wants else Fraction(-1)
            elif state.kind in ("combat",):
                now = best_attack(state, i, j, state.pair(i, j))
                value = (best_attack(state, i, j, new) - now) * Fraction(4, 5)
                if now == 0 and value == 0 and action["way"] == "closer":
                    value = Fraction(1, 10)  # out of reach: close in towards where the weapon works
            else:
                value = Fraction(1, 4) if action["way"] == "closer" and state.pair(i, j) >= 4 else Fraction(-1)
        if value > best[0] or (value == best[0] and best[1].kind != "pass" and action < best[1]):
            best = (value, action)
    return best[1]


def _threatens(state: object, i: int, deed: Deed, fleeing: bool) -> bool:
    from konflikt.rulesets.pwge.state import PwgeState

    assert isinstance(state, PwgeState)
    if deed.kind in ("attack", "press"):
        return True
    if state.kind == "chase":
        return (deed.way == "closer") == fleeing
    if state.kind != "combat":
        return deed.way == "farther"
    j = deed.actor
    new = state.step_to(j, i, deed.way)
    if new is None:
        return False
    now = state.pair(i, j)
    mine = best_attack(state, i, j, new) - best_attack(state, i, j, now)
    theirs = best_attack(state, j, i, new) - best_attack(state, j, i, now)
    return theirs - mine > Fraction(1, 2) and _purse(state, i) > 1


def _order_matters(state: object, i: int, purse: int) -> bool:
    from konflikt.rulesets.pwge.state import PwgeState

    assert isinstance(state, PwgeState)
    ex = state.ex
    assert ex is not None and ex.response is not None
    if purse <= RESERVE or (ex.action.kind == "distance" and ex.response.kind == "distance"):
        return False
    foe = ex.action.target if ex.action.actor == i else ex.action.actor
    me = state.people[i]
    top_damage = 6 + max(me.melee_damage, me.ranged[2] if me.ranged else 0) - state.people[foe].armour
    return state.body[foe] <= top_damage or state.tokens[foe] <= 3


def _worth_topping(state: object, i: int, purse: int) -> bool:
    from konflikt.rulesets.pwge.state import PwgeState

    assert isinstance(state, PwgeState)
    c = state.contest
    assert c is not None and c.a_roll is not None and c.b_roll is not None
    if i == c.a:
        mine, other, need_more = c.a_roll - c.a_mod, c.b_roll - c.a_mod, 1
    else:
        mine, other, need_more = c.b_roll - c.b_mod, c.a_roll - c.b_mod, 0
    chance = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= other + need_more) / 36
    tops = c.a_tops if i == c.a else c.b_tops
    if chance < 0.25 or tops >= MAX_TOPS or mine > 12:
        return False
    defending = i != c.a and c.purpose == "deed"
    return purse > (RESERVE if defending else RESERVE + 1)


def _damage(state: object, i: int, purse: int) -> Action:
    from konflikt.rulesets.pwge.state import PwgeState

    assert isinstance(state, PwgeState)
    d = state.dmg
    assert d is not None and d.roll is not None
    face = d.roll - d.modifier
    if d.stage == "attacker":
        return Action.of("top") if face <= 2 and purse > RESERVE else Action.of("accept")
    if d.stage == "defender":
        points = max(0, d.roll - d.armour)
        serious = points >= state.options.sarad_from or points >= state.body[i]
        worth = serious and face >= 4 and purse > 1 and d.counter_tops < MAX_TOPS
        return Action.of("counter_top") if worth else Action.of("accept")
    return Action.of("counter_counter_top") if face >= 4 and purse > RESERVE else Action.of("reroll")


__all__ = ["LAST_MELEE", "HeuristicPolicy", "attack_value"]
