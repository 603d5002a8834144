"""A whole Le våld duel at the table, in a real terminal (pexpect): one human seat, every die typed in, counted.

The human seat (Snurre) plays as a sensible player would: at each of its prompts the test reads the saved conflict
back from the save database and answers the number of the choice the ``heuristic`` policy would make. Dice are
typed as they fell (a seeded ``random.Random``). A seat with one legal choice is not asked, and opposed rolls and an
attack with its defence are typed in one prompt (``47 82``), so the bridge duel takes a table minutes. The guide
quotes the counts measured here (docs/rulesets/levald.md, "At the table").
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from konflikt.rulesets.levald.policies import HeuristicPolicy
from konflikt.store.db import Store
from tests.play.driver import CHOICE, CONFLICT_ID, END, ROLL, Session, table_dice

pexpect = pytest.importorskip("pexpect")

DUEL_INPUTS_LIMIT = 60


def play_duel(db: Path, seed: int) -> tuple[int, str, list[str]]:
    """Play levald/duel with Snurre human and table dice; the number of inputs typed, the ending, the prompts."""
    session = Session(db)
    child = session.spawn("levald/duel", "--dice", "table", "--seed", str(seed), "--policy", "snurre=human")
    dice_rng = random.Random(seed)
    conflict_id: int | None = None
    typed: list[str] = []
    while True:
        which = child.expect([CHOICE, ROLL, END, pexpect.EOF])
        if which == 2:
            ending = str(child.match.group(1))
            child.expect(pexpect.EOF)
            return len(typed), ending, typed
        assert which != 3, f"konflikt play ended without an outcome:\n{child.before[-3000:]}"
        if conflict_id is None:
            found = re.search(CONFLICT_ID, child.before)
            assert found is not None
            conflict_id = int(found.group(1))
        if which == 0:
            seat = str(child.match.group(1))
            store = Store.open(db)
            try:
                state = store.load(conflict_id).conflict.replay()
            finally:
                store.close()
            legal = list(state.legal_actions(seat))
            choice = HeuristicPolicy().choose(state, seat, np.random.default_rng(0))
            text = str(legal.index(choice) + 1)
            typed.append(f"{seat} choose 1-{len(legal)}: {text}")
        else:
            notation = str(child.match.group(1))
            text = table_dice(notation, dice_rng)
            typed.append(f"roll {notation}: {text}")
        child.sendline(text)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_bridge_duel_at_the_table_takes_at_most_sixty_inputs(seed: int, tmp_path: Path) -> None:
    inputs, ending, typed = play_duel(tmp_path / "duel.sqlite", seed)
    print(f"seed {seed}: {inputs} inputs, ending {ending}")
    assert ending in ("utslagen", "död", "lämnade", "skildes")  # the ending in words: 'utslagen (taken out)', …
    assert inputs <= DUEL_INPUTS_LIMIT, "\n".join(typed)
    assert any(line.startswith("roll 2×d100") for line in typed)  # both dice of a contest in one prompt
    assert not any(line.startswith("snurre choose 1-1") for line in typed)  # one legal choice is not asked
