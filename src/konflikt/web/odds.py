"""The GM's odds panel: who wins from here, asked on the console and answered away from the event loop.

Everything the panel needs goes through :func:`who_wins_from_here`: the one place to swap in
``konflikt.analysis.from_here`` (exact within a budget, else an estimate with a 95% interval) once it exists. Until
then it is the exact solver with a small state budget, and "too large" beyond it. Human seats are played by the
ruleset's heuristic policy in the calculation (a person's choices have no distribution); the panel says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from konflikt.analysis.exact import StateSpaceTooLarge, conflict_odds
from konflikt.core.scenario import Scenario
from konflikt.core.state import State
from konflikt.errors import KonfliktError
from konflikt.sim.runner import seat_policies

MAX_STATES = 2_000
"""The exact solver's budget on the console: a few seconds at most on a busy laptop."""


@dataclass(frozen=True)
class FromHere:
    """The panel's answer: each winning side's chance, or why there is none."""

    rows: list[tuple[str, float]] = field(default_factory=list)
    """(who wins, probability), most likely first."""
    method: str = "exact"
    note: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "rows": [{"who": who, "percent": round(100 * p, 1)} for who, p in self.rows],
            "method": self.method,
            "note": self.note,
        }


def who_wins_from_here(scenario: Scenario, state: State, seats: dict[str, str]) -> FromHere:
    """Who wins from ``state`` (a copy the caller will not touch again), with ``seats`` naming each seat's policy.

    Runs in a worker thread: it reads only its arguments.
    """
    stand_in = "heuristic" if "heuristic" in scenario.ruleset.policy_names() else None
    names = {seat: (stand_in or name) if name == "human" else name for seat, name in seats.items()}
    if any(name == "human" for name in names.values()):
        return FromHere(method="none", note="a human seat and no deterministic policy to stand in for it")
    policies = {s: p for s, p in seat_policies(scenario, names).items() if p is not None}
    try:
        odds = conflict_odds(state, policies, MAX_STATES)
    except StateSpaceTooLarge:
        return FromHere(method="too large", note=f"more than {MAX_STATES:,} states from here: ask again later")
    except KonfliktError as exc:
        return FromHere(method="none", note=" ".join(str(exc).split())[:200])
    side_names = {side.id: side.name for side in scenario.sides}
    rows: list[tuple[str, Fraction]] = []
    for winners, p in odds.winners().items():
        sides = winners if isinstance(winners, tuple) else (winners,)
        rows.append((" + ".join(str(side_names.get(s, s)) for s in sides) if sides else "nobody", p))
    rows.sort(key=lambda row: -row[1])
    humans = sorted(seat for seat, name in seats.items() if name == "human")
    note = f"exact over {odds.states:,} states"
    if humans:
        note += f"; {', '.join(humans)} played by the {stand_in} policy in the calculation"
    return FromHere([(who, float(p)) for who, p in rows], "exact", note)
