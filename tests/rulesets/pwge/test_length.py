"""PWGE's length in the text's own unit: handlingar (actions), each with its answers, frislag included.

The text has no rounds: "En person som vill göra något säger vad han vill göra. … Detta upprepas tills …" — what
repeats is one action. The count is read off the narration (every ``declare`` event of an action or a frislag,
not of a response), carried in the outcome data, in the kernel's ``Batch.rounds``, and shown by ``konflikt sim``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import cast

import numpy as np
import pytest

from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, load_scenario, scenario_from_document
from konflikt.rulesets.pwge import RULESET
from konflikt.rulesets.pwge.kernel_loop import Replay
from konflikt.rulesets.pwge.state import PwgeState
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.conftest import Result
from tests.rulesets.pwge.test_kernel import Recorder, kernel_of

EXAMPLES = ("duel", "chase", "negotiation", "ball", "shootout")


def surprise_duel() -> Scenario:
    """The duel with the pirates surprising: a frislag (free attack) is an action too."""
    scenario = load_scenario("pwge/duel")
    doc = copy.deepcopy(dict(scenario.document))
    doc["setup"]["surprise"] = "pirater"
    return scenario_from_document(doc, scenario.source)


def narrated_actions(state: PwgeState) -> int:
    """The actions as the narration tells them: a declared handling or frislag, not a svarshandling (response)."""
    told = [e for e in state.history() if e.kind == "declare"]
    return sum(1 for e in told if "svarshandling (response)" not in e.text)


def play(scenario: Scenario, seed: int, recorder: Callable[[np.random.Generator], Recorder] | None = None) -> PwgeState:
    gen = Generators.from_seed(seed)
    dice = gen.dice if recorder is None else cast(np.random.Generator, recorder(gen.dice))
    state = new_state(scenario)
    assert isinstance(state, PwgeState)
    Runner(seat_policies(scenario), Generators(dice, gen.policy)).play(state)
    return state


def test_the_ruleset_counts_length_in_actions() -> None:
    assert (RULESET.length_unit, RULESET.length_key) == ("actions", "actions")


@pytest.mark.parametrize("name", [*EXAMPLES, "surprise"])
def test_length_is_the_narrated_count_of_actions(name: str) -> None:
    scenario = surprise_duel() if name == "surprise" else load_scenario(f"pwge/{name}")
    counts = []
    for seed in range(10):  # the surprised duel is short: Zorak opens with his lance at its length
        state = play(scenario, seed)
        data = state.outcome().data
        assert data["actions"] == narrated_actions(state) == state.actions
        # fewer actions than steps: each action has its answers, rolls and tops as steps of their own
        assert 0 < data["actions"] < data["steps"]
        counts.append(data["actions"])
    assert len(set(counts)) > 1, "the length varies from conflict to conflict"
    if name == "surprise":
        frislag = [e for e in play(scenario, 0).history() if e.kind == "declare" and "frislag" in e.text]
        assert frislag, "the surprise gives the pirates a frislag"


@pytest.mark.parametrize("name", ["duel", "negotiation", "surprise"])
def test_kernel_length_in_actions_matches_the_reference(name: str) -> None:
    """The same dice through the reference and the kernel: the kernel's ``rounds`` is each conflict's count."""
    scenario = surprise_duel() if name == "surprise" else load_scenario(f"pwge/{name}")
    want: list[int] = []
    faces: list[list[int]] = []
    for seed in range(15):
        recorders: list[Recorder] = []

        def record(gen: np.random.Generator, into: list[Recorder] = recorders) -> Recorder:
            into.append(Recorder(gen))
            return into[-1]

        want.append(play(scenario, seed, record).actions)
        faces.append(recorders[0].faces)

    recorded = np.zeros((len(faces), max(map(len, faces)) + 1), dtype=np.int64)  # 0 after each conflict's last face
    for seed, row in enumerate(faces):
        recorded[seed, : len(row)] = row
    dice = Replay(recorded, np.zeros(len(faces), dtype=np.int64))
    batch = kernel_of(scenario).run(len(want), np.random.default_rng(0), dice=dice)
    assert batch.rounds is not None
    assert batch.rounds.tolist() == want
    assert dice.used.tolist() == [len(row) for row in faces]


def test_sim_reports_length_in_actions(cli: Callable[..., Result]) -> None:
    result = cli("sim", "pwge/duel", "-n", "300", "--seed", "2", "--json")
    assert result.code == 0, result.err
    length = json.loads(result.out)["length"]
    assert length["unit"] == "actions"
    assert 1 <= length["mean"] < 60
