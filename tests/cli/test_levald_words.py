"""Issue 40, Le våld's numbers explained: the first roll says what its effekt is (the d100's two dice added), and a
prompt for two rolls at once (an opposed Stridsvana contest, an attack with its defence) shows each roll's chances as
a single roll's prompt does.
"""

from __future__ import annotations

from pathlib import Path

from konflikt.core.state import State
from tests.cli.test_table_screen import at_table, played, reach


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
    _, screen = at_table(tmp_path, "levald/duel", 1, state, {}, lambda prompt: "quit", dice="table", width=100)
    return screen


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
