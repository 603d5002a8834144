"""The browser table keeps the dice faces in the step record, as the terminal does: typed die by die or rolled by
konflikt, the narrated log shows them and the save holds them."""

from __future__ import annotations

from pathlib import Path

from konflikt.core.state import CHANCE, GM
from konflikt.store.db import Store
from tests.web.helpers import frame, new_table, post, serving


def test_typed_and_server_rolled_faces_are_in_the_saved_steps_and_the_log(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        cid, tokens = new_table(client, "presja/knife_fight", (), dice="table")
        step = frame(client, cid, tokens[GM])["step"]
        assert post(client, cid, tokens[GM], {"type": "roll", "step": step, "text": "+ + 0 -"})[0] == 200
        assert post(client, cid, tokens[GM], {"type": "roll", "step": step + 1, "text": "auto"})[0] == 200
    store = Store.open(db)
    try:
        state = store.load(cid).conflict.replay()
    finally:
        store.close()
    typed, rolled = [s for s in state.steps() if s.node == CHANCE][:2]
    assert (typed.outcome, typed.faces) == (1, (1, 1, 0, -1))
    assert rolled.faces is not None and sum(rolled.faces) == rolled.outcome
    assert any("rzuca 4dF (rolls): + + 0 - = +1 →" in e.text for e in state.history())
