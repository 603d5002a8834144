"""The GM's odds panel: who wins from here, asked on the console and answered away from the event loop.

Everything the panel needs goes through :func:`who_wins_from_here`, which asks
:func:`konflikt.analysis.from_here.who_wins` (the same answer as ``odds`` at a ``play`` prompt): exact when the solver
finishes within the budget, else an estimate by simulation with its 95% interval and n. Human seats are played by
the ruleset's heuristic policy in the calculation (a person's choices have no distribution); the panel says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from konflikt.analysis.from_here import ensure_values, who_wins
from konflikt.core.scenario import Scenario
from konflikt.core.state import State
from konflikt.sim.runner import seat_policies
from konflikt.web.i18n import Text, _, said
from konflikt.web.policies import policy_words

BUDGET = 2.0
"""Seconds for one answer on the console (the table issue's "under 2 seconds at any prompt")."""


@dataclass(frozen=True)
class FromHere:
    """The panel's answer: each side's chance (with its 95% interval when estimated), or why there is none."""

    rows: list[tuple[str, float, float, float]] = field(default_factory=list)
    """(who wins, probability, interval low, interval high), most likely first; low == high == p when exact."""
    method: str = "exact"
    words: Text = ""
    """The note, said in the language of the page that shows it (:attr:`note`)."""

    @property
    def note(self) -> str:
        """What the answer rests on (exact, or the estimate's n and interval; who stands in for the humans)."""
        return said(self.words)

    def to_json(self) -> dict[str, object]:
        return {
            "rows": [
                {"who": who, "percent": round(100 * p, 1), "low": round(100 * low, 1), "high": round(100 * high, 1)}
                for who, p, low, high in self.rows
            ],
            "method": self.method,
            "method_words": {"exact": _("exact"), "estimate": _("estimate"), "none": _("no answer")}.get(
                self.method, self.method
            ),
            "note": self.note,
        }


PREPARE_VALUES = False
"""Whether a question prepares values for the next ones (``from_here.ensure_values``): ``konflikt serve`` turns it
on; off elsewhere (an app made in tests would start a 20-second warm-up per Le våld table)."""


def who_wins_from_here(scenario: Scenario, state: State, seats: dict[str, str], budget: float = BUDGET) -> FromHere:
    """Who wins from ``state`` (a copy the caller will not touch again), with ``seats`` naming each seat's policy.

    Runs in a worker thread: it reads only its arguments.
    """
    stand_in = "heuristic" if "heuristic" in scenario.ruleset.policy_names() else None
    names = {seat: (stand_in or name) if name == "human" else name for seat, name in seats.items()}
    if any(name == "human" for name in names.values()):
        return FromHere(method="none", words=lambda: _("a human seat and no deterministic policy to stand in for it"))
    policies = {s: p for s, p in seat_policies(scenario, names).items() if p is not None}
    if PREPARE_VALUES:  # Le våld: each side's chance from every state, ready for the next questions
        ensure_values(scenario, state, policies)
    answer = who_wins(scenario, state, policies, budget, seed=0)
    rows = sorted(((c.label, c.p, c.low, c.high) for c in answer.chances), key=lambda row: -row[1])
    humans = ", ".join(sorted(seat for seat, name in seats.items() if name == "human"))
    method = "exact" if answer.exact else "estimate"

    def note() -> str:
        if answer.exact:
            text = _("exact ({detail})", detail=answer.note)
        else:
            text = answer.line() + (f"; {answer.note}" if answer.note else "")
        if humans:
            text += "; " + _(
                "{seats} played by the {policy} policy in the calculation",
                seats=humans,
                policy=policy_words(stand_in or ""),
            )
        return text

    return FromHere(rows, method, words=note)
