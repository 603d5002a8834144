"""The fixed side of a conflict: the roll, the participants, zones and options, built once per scenario.

Simulations create thousands of states from one scenario; what never changes is built once and shared, and the
actions that recur are built once (``Action.of`` sorts its arguments every time).
"""

from __future__ import annotations

from functools import cache
from itertools import count
from typing import Any

from konflikt.core.actions import Action
from konflikt.core.options import Options
from konflikt.core.scenario import Scenario
from konflikt.dice import Fudge
from konflikt.dice.dice import fudge_sums
from konflikt.rulesets.presja.acts import act
from konflikt.rulesets.presja.fighters import make_fighter
from konflikt.rulesets.presja.models import Setup, level_text
from konflikt.rulesets.presja.options import POSITIONAL
from konflikt.rulesets.presja.track import Absorb, Box, parse_track, parse_values

_FACES4: tuple[int, ...] = fudge_sums(4)
"""The total of four Fudge dice for each of their 81 equally likely faces (the kernel samples from it too)."""

ROLL = Fudge(4)
_STATIC_IDS: dict[tuple[object, ...], int] = {}
"""Static keys of the scenarios met lately (bounded: cleared past :data:`_STATIC_IDS_KEPT`)."""
_STATIC_IDS_KEPT = 256
_NEXT_STATIC_ID = count()
"""Never reused, so a memo entry made under a key that has since been cleared can never be hit by another scenario."""


def tactic_arg(tactic: str) -> str | None:
    """A tactic as an action argument: no tactic is ``None`` (shown and typed as ``tactic=none``)."""
    return None if tactic == "none" else tactic


class Static:
    """What stays fixed for a whole conflict, built once per (scenario, options) and shared by its states."""

    def __init__(self, scenario: Scenario, options: Options) -> None:
        setup: Setup = scenario.setup
        base = parse_track(options.base_track)
        self.values = parse_values(options.consequence_values)
        level_text(0, options.ladder)  # fail early on a bad ladder
        self.side_ids = tuple(s.id for s in scenario.sides)
        self.side_names = tuple(setup.side_names.get(s.id, s.names or s.name) for s in scenario.sides)
        self.side_goals = tuple(s.goal for s in scenario.sides)
        self.fighters = tuple(
            make_fighter(p, si, base, options.cialo_above_3)
            for si, side in enumerate(scenario.sides)
            for p in side.participants
        )
        self.index = {fi.id: i for i, fi in enumerate(self.fighters)}
        zones = setup.zone_list()
        self.zone_ids = tuple(z.id for z in zones)
        self.zone_names = tuple(z.name for z in zones)
        zi = {z: k for k, z in enumerate(self.zone_ids)}
        self.adjacent = tuple(
            frozenset(zi[b] for a, b in setup.adjacent if zi[a] == k)
            | frozenset(zi[a] for a, b in setup.adjacent if zi[b] == k)
            for k in range(len(zones))
        )
        self.situation = tuple(setup.situation_aspects)
        self.surprised = frozenset(self.index[p] for p in setup.surprised) if options.surprise else frozenset()
        static = (
            tuple(
                (
                    fi.id,
                    fi.side,
                    fi.skill,
                    fi.damage,
                    fi.absorption,
                    fi.ranged,
                    fi.reach,
                    fi.track,
                    fi.may_concede,
                    len(fi.aspects),
                    fi.weapon_boxes,
                    fi.edges,
                    fi.warlike,
                    fi.player,
                )
                for fi in self.fighters
            ),
            self.adjacent,
            len(self.situation),
            tuple(sorted(dict(options).items())),
        )
        self.static_key = static_key(static)
        self.auto_kinds = tuple(k for k in POSITIONAL if options[f"advantage_{k}"] == "auto")


def static_key(static: tuple[object, ...]) -> int:
    """A small id for everything fixed in a conflict that a policy's choice may depend on (memo keys)."""
    found = _STATIC_IDS.get(static)
    if found is None:
        if len(_STATIC_IDS) >= _STATIC_IDS_KEPT:
            _STATIC_IDS.clear()
        found = _STATIC_IDS[static] = next(_NEXT_STATIC_ID)
    return found


@cache
def absorb_action(track: tuple[Box, ...], option: Absorb) -> Action:
    """The ``absorb`` action of one way to take a hit (``boxes=2-3:3+1:1 cons=mild``)."""
    return act("absorb", boxes=option.boxes_text(track), cons=option.cons_text())


_STATIC_BY_SCENARIO: dict[int, tuple[Scenario, dict[str, Any], Static]] = {}


def static_for(scenario: Scenario, options: Options, values: dict[str, Any]) -> Static:
    """The shared :class:`Static` of a scenario under these option values (rebuilt when either changes)."""
    cached = _STATIC_BY_SCENARIO.get(id(scenario))
    if cached is None or cached[0] is not scenario or cached[1] != values:
        if len(_STATIC_BY_SCENARIO) > 64:
            _STATIC_BY_SCENARIO.clear()
        cached = _STATIC_BY_SCENARIO[id(scenario)] = (scenario, dict(values), Static(scenario, options))
    return cached[2]
