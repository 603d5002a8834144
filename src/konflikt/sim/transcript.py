"""Transcripts of whole conflicts: the narrated log for people, and the golden-playthrough text for tests.

A golden playthrough records, per step, who acted and with what (or the chance outcome), the events it caused
and the status of every track afterwards; a test replays the scenario from the seed and diffs the text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from konflikt.core.actions import Step
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, SIMULTANEOUS, State
from konflikt.sim.runner import Generators, Runner, seat_policies


def step_text(step: Step) -> str:
    if step.node == CHANCE:
        return f"chance → {json.dumps(step.outcome)}"
    if step.node == SIMULTANEOUS:
        return "secret → " + "; ".join(f"{seat}: {action}" for seat, action in step.joint)
    return f"{step.node} → {step.action}"


def status_lines(state: State) -> list[str]:
    lines = []
    for row, cols in state.status().items():
        lines.append(f"  = {row}: " + "; ".join(f"{k}={v}" for k, v in cols.items()))
    return lines


def golden_text(scenario: Scenario, seed: int, name: str, overrides: Mapping[str, object] | None = None) -> str:
    """Play the scenario with its policies from ``seed`` and write the whole playthrough as text."""
    state = new_state(scenario, dict(overrides or {}))
    lines = [
        "# konflikt golden playthrough (regenerate: python scripts/regen_goldens.py)",
        f"ruleset: {scenario.ruleset.id}",
        f"scenario: {name}",
        f"seed: {seed}",
        "options: " + json.dumps(dict(state.options), sort_keys=True, ensure_ascii=False),
    ]
    lines += [f"  | {e.text}" for e in state.history()]
    lines += status_lines(state)
    seen = len(state.history())

    def record(s: State) -> None:
        nonlocal seen
        steps = s.steps()
        lines.append(f"step {len(steps) - 1}: {step_text(steps[-1])}")
        events = s.history()
        lines.extend(f"  | {e.text}" for e in events[seen:])
        seen = len(events)
        lines.extend(status_lines(s))

    Runner(seat_policies(scenario), Generators.from_seed(seed)).play(state, on_step=record)
    outcome = state.outcome()
    lines.append(f"outcome: {outcome.ending}; winners: {', '.join(outcome.winners) or '-'}")
    lines.append(f"  {outcome.summary}")
    for pid, fate in outcome.participants.items():
        lines.append(f"  {pid}: {fate}")
    return "\n".join(lines) + "\n"
