"""Issue 40, Le våld's numbers explained: the first roll says what its effekt is (the d100's two dice added), and a
prompt for two rolls at once (an opposed Stridsvana contest, an attack with its defence) shows each roll's chances as
a single roll's prompt does.
"""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from konflikt.cli.table import TableSession
from konflikt.core.conflict import Conflict
from konflikt.core.scenario import load_scenario
from konflikt.core.state import State
from konflikt.sim.runner import seat_policies
from konflikt.store.db import Store
from tests.cli.test_table_screen import played, reach


def test_the_first_effekt_is_explained_as_the_digit_sum_and_only_the_first() -> None:
    """Fails on ``effekt (effect) 9`` with no word of where 9 comes from."""
    rolls = [e for e in played("levald/duel", 1).history() if e.kind == "roll"]
    first = rolls[0]
    tens, units = divmod(first.data["roll"] % 100, 10)
    said = f"effekt (effect) {first.data['effect']} ({tens} + {units}: the roll's two dice added"
    assert said in first.text, first.text
    assert all("two dice added" not in e.text for e in rolls[1:])


def _joint(kind: str) -> State:
    def asks(state: State) -> bool:
        phase = getattr(state, "phase", "")
        return state.is_chance_node() and phase == kind and len(state.joint_roll_purposes()) > 1

    return reach("levald/duel", 1, asks)


def _prompt(tmp_path: Path, state: State) -> str:
    """The table's screen at ``state``'s joint roll prompt (dice typed at the table), quitting there."""
    scenario = load_scenario("levald/duel")
    store = Store.open(tmp_path / "s.sqlite")
    conflict = Conflict(scenario, {}, 1)
    conflict_id = store.create(conflict)
    steps = state.steps()
    for n, step in enumerate(steps):
        store.append(conflict_id, n, step, "policy", None)
    conflict.steps = steps
    out = io.StringIO()
    console = Console(file=out, width=100, markup=False, no_color=True)
    table = TableSession(
        console, store, conflict_id, conflict, ["policy"] * len(steps), seat_policies(scenario), "table",
        ask=lambda prompt, secret: "quit",
    )  # fmt: skip
    table.run()
    return out.getvalue()


def test_an_opposed_stridsvana_prompt_shows_each_rolls_chances(tmp_path: Path) -> None:
    """Fails on the joint prompt that listed the two rolls with no chances line."""
    state = _joint("move_roll")
    each = state.joint_roll_stakes()
    assert len(each) == 2 and all(rows and rows[0][0].startswith("lyckat (success): d100 ≤") for rows in each)
    screen = _prompt(tmp_path, state)
    prompt = screen[screen.rindex("1. ") :]
    assert prompt.count("chances: lyckat (success)") == 2, prompt


def test_an_attack_with_its_defence_shows_both_rolls_chances() -> None:
    state = _joint("attack_roll")
    each = state.joint_roll_stakes()
    assert len(each) == len(state.joint_roll_purposes()) >= 2
    targets = [rows[0][0] for rows in each]
    assert targets[0] == state.roll_stakes()[0][0]  # the attack roll alone reads the same
    assert all(t.startswith("lyckat (success): d100 ≤") for t in targets)
