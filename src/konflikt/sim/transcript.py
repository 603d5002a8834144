"""Transcripts of whole conflicts: the narrated log for people, and the golden-playthrough text for tests.

A golden playthrough records, per step, who acted and with what (or the chance outcome) as JSON, the events it
caused and the status of every track afterwards. The golden test replays the *recorded steps* through the State and
diffs the text: a rule change that makes a recorded step illegal, or changes what a step does, fails it; the policies'
and the random generator's choices do not enter. Making a new golden (re-playing the policies from the seed) is a
reviewed act: ``scripts/regen_goldens.py`` prints the diff and writes only with ``--accept``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from konflikt.core.actions import Step
from konflikt.core.conflict import new_state
from konflikt.core.messages import _
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, SIMULTANEOUS, State
from konflikt.errors import KonfliktError, ReplayError
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


STEP_PREFIX = "  @ "
"""A golden's line holding one recorded step as JSON: what the replay test applies."""

HEADER = "# konflikt golden playthrough: replayed from its recorded steps (review changes: scripts/regen_goldens.py)"


def policy_steps(scenario: Scenario, seed: int, overrides: Mapping[str, object] | None = None) -> list[Step]:
    """The steps of a conflict played by the scenario's policies from ``seed``: a new golden's path."""
    state = new_state(scenario, dict(overrides or {}))
    Runner(seat_policies(scenario), Generators.from_seed(seed)).play(state)
    return state.steps()


def golden_text(
    scenario: Scenario, seed: int, name: str, steps: list[Step], overrides: Mapping[str, object] | None = None
) -> str:
    """Replay ``steps`` from the opening state and write the whole playthrough: each step with its JSON, the events
    it caused and the status of every track afterwards, then the outcome.

    Raises:
        ReplayError: a recorded step is not legal where it stands (the rules changed under the golden).
    """
    state = new_state(scenario, dict(overrides or {}))
    lines = [
        HEADER,
        f"ruleset: {scenario.ruleset.id}",
        f"scenario: {name}",
        f"seed: {seed}",
        "options: " + json.dumps(dict(state.options), sort_keys=True, ensure_ascii=False),
    ]
    lines += [f"  | {e.text}" for e in state.history()]
    lines += status_lines(state)
    for index, step in enumerate(steps):
        seen = len(state.history())
        try:
            state.apply_step(step)
        except KonfliktError as exc:
            raise ReplayError(
                _(
                    "{name}: recorded step {index} ({step}) does not replay: {error}",
                    name=name,
                    index=index,
                    step=step_text(step),
                    error=exc,
                )
            ) from None
        lines.append(f"step {index}: {step_text(step)}")
        lines.append(STEP_PREFIX + json.dumps(step.to_json(), ensure_ascii=False, sort_keys=True))
        lines.extend(f"  | {e.text}" for e in state.history()[seen:])
        lines.extend(status_lines(state))
    if not state.is_terminal():
        raise ReplayError(_("{name}: the recorded steps end before the conflict does", name=name))
    outcome = state.outcome()
    lines.append(f"outcome: {outcome.ending}; winners: {', '.join(outcome.winners) or '-'}")
    lines.append(f"  {outcome.summary}")
    for pid, fate in outcome.participants.items():
        lines.append(f"  {pid}: {fate}")
    return "\n".join(lines) + "\n"


def recorded_steps(golden: str) -> list[Step]:
    """The steps a golden playthrough recorded, in order."""
    return [
        Step.from_json(json.loads(line[len(STEP_PREFIX) :]))
        for line in golden.splitlines()
        if line.startswith(STEP_PREFIX)
    ]
