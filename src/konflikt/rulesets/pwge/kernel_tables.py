"""The fixed numbers of one PWGE scenario for the numpy kernel, read from a real :class:`PwgeState`.

Why a probe: the ``heuristic`` policy decides from a few features only (a pair's distance, whether the other one
can still spend, the own purse against a threshold), through exact Fractions and the Action ordering. Rather than
restate that reasoning in numpy (and risk a tie broken the other way), the kernel asks the real policy (or, for the
open table's choice among several foes, its own value functions) once per combination of those features on a probe
state and stores the answers in small lookup tables. Attack modifiers, distance steps and fate words likewise come
from the state's own methods, so the kernel cannot drift from them.

Participants are numbered as the state numbers them (side by side); ``q`` is the other person of a pair.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from konflikt.core.actions import Action
from konflikt.core.options import Options
from konflikt.rulesets.pwge import policies
from konflikt.rulesets.pwge.exchange import Deed, Exchange
from konflikt.rulesets.pwge.policies import HeuristicPolicy
from konflikt.rulesets.pwge.rules import LAST_MELEE, TOKEN_LOSS
from konflikt.rulesets.pwge.state import PHYSICAL, PwgeState

NONE = -1
"""No deed (a pass, no response); no person (a difficulty roll)."""
MELEE, RANGED, CLOSER, FARTHER, PRESS = range(5)
"""Deed codes: anfall (attack) with the melee or the ranged weapon, avstånd (distance) closer or farther, and a
diplomatic/social utspel or framstöt (press)."""
DEED_ARGS: tuple[tuple[str, str, str], ...] = (
    ("attack", "melee", ""),
    ("attack", "ranged", ""),
    ("distance", "", "closer"),
    ("distance", "", "farther"),
    ("press", "", ""),
)
"""(kind, weapon, way) of each deed code, as :class:`Deed` spells them."""
MAX_PEOPLE = 32
"""The most participants the compiled loop plays (its state has room for this many; :mod:`.kernel_loop`)."""
NO_KEY = -(1 << 40)
"""The open-table key of a foe against whom no deed is possible."""

Int = np.ndarray


def deed_code(action: Action) -> int:
    """The deed code of an open-table action or a response (``NONE`` for pass / no response)."""
    kind = str(action.get("deed", "")) if action.kind == "respond" else action.kind
    if kind == "attack":
        return MELEE if action["weapon"] == "melee" else RANGED
    if kind == "distance":
        return CLOSER if action["way"] == "closer" else FARTHER
    if kind == "press":
        return PRESS
    return NONE


@dataclass
class Tables:
    """Everything the kernel looks up, per participant ``p``, other participant ``q`` and distance code.

    Attributes:
        people, sides, codes: how many participants, sides and distance codes (melee + ranged up to max_range, or
            the 0–10 scale).
        side, roll, attribute, armour: per participant.
        foe: ``[p, q]`` whether they are on different sides.
        atk_ok, atk_mod, atk_band: ``[p, weapon, code]`` :meth:`PwgeState.attack_mods`.
        press_mod: ``[p, code]`` :meth:`PwgeState.press_mod`.
        step: ``[p, q, way, code]`` the code one step closer (way 0) or farther (1), ``NONE`` past the end.
        damage_mod: ``[p, deed]`` the skadeslag's modifier of a hit by that deed.
        top_damage: ``[p, q]`` 6 + p's best damage modifier − q's armour (the heuristic's order rule).
        open_key, open_deed, open_worth: ``[p, q, code, q_can_spend]`` the heuristic's best deed against q when its
            purse is above reserve, as a key (value first, then the smaller Action), the deed, and whether its value
            beats passing (> 0).
        free_key, free_deed: ``[p, q, code, q_can_spend]`` p's best frislag (free attack) on q after a surprise: a
            key (value, then the larger Action, as the heuristic's ``max`` has it; ``NO_KEY`` out of reach) and
            the weapon's deed code.
        response: ``[p, q, code, q_can_spend]`` p's svarshandling against actor q when its purse allows one.
        counter, counter_response: ``[p, q, code, deed, q_can_spend, purse_above_1]`` whether p counters q's deed.
    """

    people: int
    sides: int
    codes: int
    side: Int
    roll: Int
    attribute: Int
    armour: Int
    foe: Int
    atk_ok: Int
    atk_mod: Int
    atk_band: Int
    press_mod: Int
    step: Int
    damage_mod: Int
    top_damage: Int
    open_key: Int
    open_deed: Int
    open_worth: Int
    free_key: Int
    free_deed: Int
    response: Int
    counter: Int
    counter_response: Int
    token_loss: Int
    thresholds: tuple[int, int, int]


def _reset(probe: PwgeState, p: int, q: int, code: int, own: int, other: int) -> None:
    n = len(probe.people)
    probe.tokens = [5] * n
    probe.tokens[p], probe.tokens[q] = own, other
    probe.xp = [0] * n
    probe.out = [False] * n
    probe.set_pair(p, q, code)
    probe.ex = None
    probe.contest = None
    probe.dmg = None


def _ask(probe: PwgeState, p: int) -> Action:
    return HeuristicPolicy().choose(probe, probe.people[p].pid, np.random.default_rng(0))


def open_value(state: PwgeState, i: int, j: int, action: Action) -> Fraction:
    """The heuristic's value of one open-table action (the body of its loop in ``policies._open``)."""
    if action.kind in ("attack", "press"):
        return policies._value_of(state, i, j, action)
    way = str(action["way"])
    new = state.step_to(i, j, way)
    assert new is not None
    if state.kind == "chase":
        fleeing = state.side_ids[state.people[i].side] == state.setup.fleeing
        return Fraction(3) if way == ("farther" if fleeing else "closer") else Fraction(-1)
    if state.kind == "combat":
        now = policies.best_attack(state, i, j, state.pair(i, j))
        value = (policies.best_attack(state, i, j, new) - now) * Fraction(4, 5)
        if now == 0 and value == 0 and way == "closer":
            value = Fraction(1, 10)
        return value
    return Fraction(1, 4) if way == "closer" and state.pair(i, j) >= 4 else Fraction(-1)


def _probes(probe: PwgeState, codes: int) -> Iterator[tuple[int, int, int, int]]:
    """Every (person, foe, distance code, the other's token band), with the probe state set up for it."""
    n = len(probe.people)
    for p in range(n):
        for q in range(n):
            if probe.people[p].side == probe.people[q].side:
                continue
            for code in range(codes):
                for other in (0, 1):
                    _reset(probe, p, q, code, 10, 5 * other)
                    yield p, q, code, other


def _open_tables(probe: PwgeState, codes: int) -> tuple[Int, Int, Int]:
    """Every legal open-table action's value and Action rank, folded into one comparable key per foe."""
    n = len(probe.people)
    found: dict[tuple[int, int, int, int], list[tuple[Fraction, Action, int]]] = {}
    for p, q, code, other in _probes(probe, codes):
        options = [
            (Action.of(d.kind, target=probe.people[q].pid, **dict(d.args)), deed_code(d))
            for d in probe.deeds_against(p, q)
        ]
        found[(p, q, code, other)] = [(open_value(probe, p, q, a), a, c) for a, c in options]
    values = sorted({v for entries in found.values() for v, _, _ in entries})
    actions = sorted({a for entries in found.values() for _, a, _ in entries})
    value_rank = {v: k for k, v in enumerate(values)}
    action_rank = {a: k for k, a in enumerate(actions)}
    key = np.full((n, n, codes, 2), NO_KEY, dtype=np.int64)
    deed = np.full((n, n, codes, 2), NONE, dtype=np.int64)
    worth = np.zeros((n, n, codes, 2), dtype=bool)
    for where, entries in found.items():
        for value, action, code in entries:
            k = value_rank[value] * (len(actions) + 1) - action_rank[action]
            if k > key[where]:
                key[where], deed[where], worth[where] = k, code, value > 0
    return key, deed, worth


@contextmanager
def _remembered_odds() -> Iterator[None]:
    """Let the policy remember ``p_attack_wins`` while the probes run, then restore it.

    It is a pure function of two integers with exact Fractions, which the probes ask thousands of times for a few
    dozen distinct pairs: remembering it changes no answer, and makes building a 2-against-2 table take a fraction
    of a second instead of seconds.
    """
    names = vars(policies)
    original = names["p_attack_wins"]
    names["p_attack_wins"] = cache(original)
    try:
        yield
    finally:
        names["p_attack_wins"] = original


def _free_tables(probe: PwgeState, codes: int) -> tuple[Int, Int]:
    """The frislag (free attack) choice: ``max`` over (value, Action) of the reachable weapons, per foe."""
    n = len(probe.people)
    found: dict[tuple[int, int, int, int], list[tuple[Fraction, Action, int]]] = {}
    for p, q, code, other in _probes(probe, codes):
        entries = []
        for w, weapon in enumerate(("melee", "ranged")):
            if probe.attack_mods(p, q, weapon, code) is not None:
                action = Action.of("free_attack", target=probe.people[q].pid, weapon=weapon)
                entries.append((policies._value_of(probe, p, q, action), action, w))
        found[(p, q, code, other)] = entries
    values = sorted({v for entries in found.values() for v, _, _ in entries})
    actions = sorted({a for entries in found.values() for _, a, _ in entries})
    value_rank = {v: k for k, v in enumerate(values)}
    action_rank = {a: k for k, a in enumerate(actions)}
    key = np.full((n, n, codes, 2), NO_KEY, dtype=np.int64)
    deed = np.full((n, n, codes, 2), NONE, dtype=np.int64)
    for where, entries in found.items():
        for value, action, code in entries:
            k = value_rank[value] * (len(actions) + 1) + action_rank[action]
            if k > key[where]:
                key[where], deed[where] = k, code
    return key, deed


def build_tables(opening: PwgeState, options: Options) -> Tables:
    """Read a scenario's numbers and the heuristic's answers from a probe: a copy of the state where every conflict
    starts (its attributes in use chosen)."""
    with _remembered_odds():
        return _build(opening, options)


def _build(opening: PwgeState, options: Options) -> Tables:
    probe = opening.clone()
    assert isinstance(probe, PwgeState)
    physical = probe.kind in PHYSICAL
    codes = LAST_MELEE + probe.setup.max_range + 1 if physical else 11
    people = probe.people
    n = len(people)
    atk_ok = np.zeros((n, 2, codes), dtype=bool)
    atk_mod = np.zeros((n, 2, codes), dtype=np.int64)
    atk_band = np.zeros((n, 2, codes), dtype=np.int64)
    press_mod = np.zeros((n, codes), dtype=np.int64)
    step = np.full((n, n, 2, codes), NONE, dtype=np.int64)
    response = np.full((n, n, codes, 2), NONE, dtype=np.int64)
    counter = np.zeros((n, n, codes, 5, 2, 2), dtype=bool)
    counter_response = np.zeros((n, n, codes, 5, 2, 2), dtype=bool)
    foe = np.array([[a.side != b.side for b in people] for a in people], dtype=bool)
    for p in range(n):
        for q in range(n):
            if not foe[p, q]:
                continue
            for code in range(codes):
                _reset(probe, p, q, code, 5, 5)
                for w, weapon in enumerate(("melee", "ranged")):
                    mods = probe.attack_mods(p, q, weapon, code)
                    if mods is not None:
                        atk_ok[p, w, code] = True
                        atk_mod[p, w, code], atk_band[p, w, code] = mods[0], mods[1]
                press_mod[p, code] = probe.press_mod(p, q)
                for w, word in enumerate(("closer", "farther")):
                    new = probe.step_to(p, q, word)
                    step[p, q, w, code] = NONE if new is None else new
                for other in (0, 1):
                    _reset(probe, p, q, code, 10, 5 * other)
                    probe.phase = "response"
                    probe.ex = Exchange(Deed("action", q, p, "attack", "melee"), code)
                    response[p, q, code, other] = deed_code(_ask(probe, p))
                    for deed, (kind, weapon, way) in enumerate(DEED_ARGS):
                        for rich in (0, 1):
                            _reset(probe, p, q, code, 5 if rich else 1, 5 * other)
                            probe.phase = "counter"
                            probe.ex = Exchange(Deed("action", q, p, kind, weapon, way), code)
                            counter[p, q, code, deed, other, rich] = _ask(probe, p).kind == "counter"
                            probe.phase = "counter_response"
                            probe.ex = Exchange(Deed("action", p, q, "attack", "melee"), code)
                            probe.ex.response = Deed("response", q, p, kind, weapon, way)
                            counter_response[p, q, code, deed, other, rich] = _ask(probe, p).kind == "counter"
    open_key, open_deed, open_worth = _open_tables(probe, codes)
    free_key, free_deed = _free_tables(probe, codes)
    damage_mod = np.zeros((n, 5), dtype=np.int64)
    top_damage = np.zeros((n, n), dtype=np.int64)
    for p, f in enumerate(people):
        ranged = f.ranged[2] if f.ranged else 0
        damage_mod[p] = (f.melee_damage, ranged, 0, 0, f.ammunition)
        for q, g in enumerate(people):
            top_damage[p, q] = 6 + max(f.melee_damage, ranged) - g.armour
    o = options
    return Tables(
        people=n,
        sides=len(probe.side_ids),
        codes=codes,
        side=np.array([f.side for f in people], dtype=np.int64),
        roll=np.array([f.roll for f in people], dtype=np.int64),
        attribute=np.array([f.attribute for f in people], dtype=np.int64),
        armour=np.array([f.armour for f in people], dtype=np.int64),
        foe=foe,
        atk_ok=atk_ok,
        atk_mod=atk_mod,
        atk_band=atk_band,
        press_mod=press_mod,
        step=step,
        damage_mod=damage_mod,
        top_damage=top_damage,
        open_key=open_key,
        open_deed=open_deed,
        open_worth=open_worth,
        free_key=free_key,
        free_deed=free_deed,
        response=response,
        counter=counter,
        counter_response=counter_response,
        token_loss=np.array(TOKEN_LOSS, dtype=np.int64),
        thresholds=(int(o.skrama_from), int(o.sarad_from), int(o.allvarligt_from)),
    )


__all__ = [
    "CLOSER",
    "FARTHER",
    "MAX_PEOPLE",
    "MELEE",
    "NONE",
    "NO_KEY",
    "PRESS",
    "RANGED",
    "Tables",
    "build_tables",
    "deed_code",
]
