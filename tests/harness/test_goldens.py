"""Golden playthroughs: each bundled example's recorded steps replay through the State to exactly the recorded text.

The golden stores the steps (a seat's action, a chance outcome, secret choices) as JSON; the test applies them to a
fresh state and compares every event and every status line. Policies and random draws do not enter, so a golden
checks the rules, not the sampler. A new golden is made only by ``scripts/regen_goldens.py --accept NAME``.
"""

from __future__ import annotations

import difflib
import re

import pytest

from konflikt.core.ruleset import ruleset_ids
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE
from konflikt.errors import ReplayError
from konflikt.sim.transcript import golden_text, policy_steps, recorded_steps
from tests.examples import GOLDEN_SEED, example_scenarios, golden_path


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_every_ruleset_has_a_golden_playthrough(ruleset_id: str) -> None:
    names = [name for rid, name in example_scenarios() if rid == ruleset_id]
    assert names, f"ruleset {ruleset_id} has no bundled example scenario"
    missing = [n for n in names if not golden_path(n).exists()]
    assert not missing, (
        f"no golden playthrough for {missing}: run python scripts/regen_goldens.py --accept {ruleset_id}"
    )


@pytest.mark.parametrize(("ruleset_id", "name"), example_scenarios())
def test_golden_playthrough_replays_from_its_steps(ruleset_id: str, name: str) -> None:
    path = golden_path(name)
    if not path.exists():
        pytest.fail(f"missing golden {path}")
    expected = path.read_text(encoding="utf-8")
    steps = recorded_steps(expected)
    assert steps, f"{path} records no steps"
    try:
        actual = golden_text(load_scenario(name), GOLDEN_SEED, name, steps)
    except ReplayError as exc:
        pytest.fail(f"{exc}; review with: python scripts/regen_goldens.py {name}")
    if actual != expected:
        diff = "".join(
            list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "golden", "now"))[:80]
        )
        pytest.fail(f"{name} no longer plays as its golden playthrough:\n{diff}")


def test_a_changed_step_fails_the_replay() -> None:
    """Deliberate mutation: a recorded chance outcome changed by one pip changes the replayed text or breaks it."""
    name = "fimbulfrost/robbers"
    expected = golden_path(name).read_text(encoding="utf-8")
    steps = recorded_steps(expected)
    chance = next(i for i, s in enumerate(steps) if s.node == CHANCE and isinstance(s.outcome, tuple))
    outcome = steps[chance].outcome
    assert isinstance(outcome, tuple)
    other = (outcome[0] + 1 if outcome[0] < 3 else outcome[0] - 1, *outcome[1:])
    steps[chance] = type(steps[chance])(node=CHANCE, outcome=other)
    try:
        replayed = golden_text(load_scenario(name), GOLDEN_SEED, name, steps)
    except ReplayError:
        return
    assert replayed != expected


def test_the_policies_still_play_a_whole_conflict_from_the_golden_seed() -> None:
    """The sampler's own path from the seed (what ``--accept`` records) still ends, for the smallest example."""
    steps = policy_steps(load_scenario("fimbulfrost/robbers"), GOLDEN_SEED)
    text = golden_text(load_scenario("fimbulfrost/robbers"), GOLDEN_SEED, "fimbulfrost/robbers", steps)
    assert recorded_steps(text) == steps


PLAIN_ENGLISH = {"table", "exchange", "phase", "side", "status", "Status", "kind", "floor", "passes", "state"}
"""Status words that are English as they stand (Fimbulfrost's ``Status`` is the same word in Danish)."""
PLAIN_ENGLISH |= {"distance", "morale", "fate", "dice", "moves won"}


@pytest.mark.parametrize(("ruleset_id", "name"), example_scenarios())
def test_every_word_of_the_status_table_has_english_beside_it(ruleset_id: str, name: str) -> None:
    """The table ``play`` shows after each step names its rows in the system's words with the English beside them
    (``tor (track)``, ``Omdømme (reputation)``), as the narration does, at every step of the golden playthrough."""
    from konflikt.core.conflict import new_state

    state = new_state(load_scenario(name))
    seats = set(state.seats())
    bare: set[str] = set()
    for step in [None, *recorded_steps(golden_path(name).read_text(encoding="utf-8"))]:
        if step is not None:
            state.apply_step(step)
        for row, cells in state.status().items():
            words = [*cells, *([] if row in seats else [row])]
            bare |= {w for w in words if w not in PLAIN_ENGLISH and not re.search(r"\S \([^)]+\)", w)}
    assert not bare, f"{name}: status words without English beside them: {sorted(bare)}"
