"""The fixed numbers of one PWGE duel for the numpy kernel, read from a real :class:`PwgeState`.

Why a probe: the ``heuristic`` policy decides from a few features only (the pair's distance, whether the other one
can still spend, the own purse against a threshold), through exact Fractions and the Action ordering. Rather than
restate that reasoning in numpy (and risk a tie broken the other way), the kernel asks the real policy once per
combination of those features on a probe state and stores the answers in small lookup tables. Likewise the attack
modifiers, distance steps and fate words come from the state's own methods, so the kernel cannot drift from them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from konflikt.core.actions import Action
from konflikt.core.options import Options
from konflikt.core.scenario import Scenario
from konflikt.rulesets.pwge.exchange import Deed, Exchange
from konflikt.rulesets.pwge.policies import HeuristicPolicy
from konflikt.rulesets.pwge.rules import LAST_MELEE, TOKEN_LOSS
from konflikt.rulesets.pwge.state import PHYSICAL, PwgeState

NONE = -1
"""No deed: a pass, no response."""
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
    """Everything a duel's kernel looks up: per participant ``p`` (0, 1; the foe is ``1 - p``) and distance code.

    Attributes:
        codes: number of distance codes (melee + ranged up to max_range, or the 0–10 relation scale).
        roll, attribute, armour: the stand-in roll's modifier, the attribute alone (order roll), armour.
        atk_ok, atk_mod, atk_band: ``[p, weapon, code]`` whether p can attack the foe, the attack modifier and the
            difficulty modifier (:meth:`PwgeState.attack_mods`).
        press_mod: ``[p, code]`` :meth:`PwgeState.press_mod`.
        step: ``[p, way, code]`` the code one step closer (way 0) or farther (1), ``NONE`` past the end.
        damage_mod: ``[p, deed]`` the skadeslag's modifier of a hit by that deed.
        top_damage: ``[p]`` 6 + p's best damage modifier − the foe's armour (the heuristic's order rule).
        open_choice: ``[p, code, foe_can_spend]`` the heuristic's open-table deed when its purse is above reserve.
        response: ``[p, code, actor_can_spend]`` its svarshandling (response) when its purse is above reserve + 1.
        counter: ``[p, code, deed, other_can_spend, purse_above_1]`` whether it counters the other's action.
        counter_response: the same for countering the response.
        token_loss, wound thresholds: the damage rules with the options' thresholds.
    """

    codes: int
    roll: Int
    attribute: Int
    armour: Int
    atk_ok: Int
    atk_mod: Int
    atk_band: Int
    press_mod: Int
    step: Int
    damage_mod: Int
    top_damage: Int
    open_choice: Int
    response: Int
    counter: Int
    counter_response: Int
    token_loss: Int
    thresholds: tuple[int, int, int]


def _reset(probe: PwgeState, code: int, tokens: tuple[int, int]) -> None:
    probe.tokens = list(tokens)
    probe.xp = [0, 0]
    probe.out = [False, False]
    probe.dist[(0, 1)] = code
    probe.ex = None
    probe.contest = None
    probe.dmg = None


def _ask(probe: PwgeState, p: int) -> Action:
    return HeuristicPolicy().choose(probe, probe.people[p].pid, np.random.default_rng(0))


def build_tables(scenario: Scenario, options: Options) -> Tables:
    """Read a one-against-one scenario's numbers and the heuristic's answers from a probe state."""
    probe = PwgeState(scenario, options)
    physical = probe.kind in PHYSICAL
    codes = LAST_MELEE + probe.setup.max_range + 1 if physical else 11
    people = probe.people
    shape = (2, codes)
    atk_ok = np.zeros((2, 2, codes), dtype=bool)
    atk_mod = np.zeros((2, 2, codes), dtype=np.int64)
    atk_band = np.zeros((2, 2, codes), dtype=np.int64)
    press_mod = np.zeros(shape, dtype=np.int64)
    step = np.full((2, 2, codes), NONE, dtype=np.int64)
    open_choice = np.full((2, codes, 2), NONE, dtype=np.int64)
    response = np.full((2, codes, 2), NONE, dtype=np.int64)
    counter = np.zeros((2, codes, 5, 2, 2), dtype=bool)
    counter_response = np.zeros((2, codes, 5, 2, 2), dtype=bool)
    for p in range(2):
        q = 1 - p
        for code in range(codes):
            _reset(probe, code, (5, 5))
            for w, weapon in enumerate(("melee", "ranged")):
                mods = probe.attack_mods(p, q, weapon, code)
                if mods is not None:
                    atk_ok[p, w, code] = True
                    atk_mod[p, w, code], atk_band[p, w, code] = mods[0], mods[1]
            press_mod[p, code] = probe.press_mod(p, q)
            for w, word in enumerate(("closer", "farther")):
                new = probe.step_to(p, q, word)
                step[p, w, code] = NONE if new is None else new
            for other in (0, 1):
                _reset(probe, code, _tokens(p, 10, 5 * other))
                probe.phase, probe.floor = "open", p
                open_choice[p, code, other] = deed_code(_ask(probe, p))
                _reset(probe, code, _tokens(p, 10, 5 * other))
                probe.phase = "response"
                probe.ex = Exchange(Deed("action", q, p, "attack", "melee"), code)
                response[p, code, other] = deed_code(_ask(probe, p))
                for deed, (kind, weapon, way) in enumerate(DEED_ARGS):
                    for rich in (0, 1):
                        _reset(probe, code, _tokens(p, 5 if rich else 1, 5 * other))
                        probe.phase = "counter"
                        probe.ex = Exchange(Deed("action", q, p, kind, weapon, way), code)
                        counter[p, code, deed, other, rich] = _ask(probe, p).kind == "counter"
                        probe.phase = "counter_response"
                        probe.ex = Exchange(Deed("action", p, q, "attack", "melee"), code)
                        probe.ex.response = Deed("response", q, p, kind, weapon, way)
                        counter_response[p, code, deed, other, rich] = _ask(probe, p).kind == "counter"
    damage_mod = np.zeros((2, 5), dtype=np.int64)
    top_damage = np.zeros(2, dtype=np.int64)
    for p, f in enumerate(people):
        ranged = f.ranged[2] if f.ranged else 0
        damage_mod[p] = (f.melee_damage, ranged, 0, 0, f.ammunition)
        top_damage[p] = 6 + max(f.melee_damage, ranged) - people[1 - p].armour
    o = options
    return Tables(
        codes=codes,
        roll=np.array([f.roll for f in people], dtype=np.int64),
        attribute=np.array([f.attribute for f in people], dtype=np.int64),
        armour=np.array([f.armour for f in people], dtype=np.int64),
        atk_ok=atk_ok,
        atk_mod=atk_mod,
        atk_band=atk_band,
        press_mod=press_mod,
        step=step,
        damage_mod=damage_mod,
        top_damage=top_damage,
        open_choice=open_choice,
        response=response,
        counter=counter,
        counter_response=counter_response,
        token_loss=np.array(TOKEN_LOSS, dtype=np.int64),
        thresholds=(int(o.skrama_from), int(o.sarad_from), int(o.allvarligt_from)),
    )


def _tokens(p: int, own: int, other: int) -> tuple[int, int]:
    return (own, other) if p == 0 else (other, own)


__all__ = ["CLOSER", "FARTHER", "MELEE", "NONE", "PRESS", "RANGED", "Tables", "build_tables", "deed_code"]
