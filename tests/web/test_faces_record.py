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
        step = frame(client, cid, tokens[GM])["step"]  # after Belzee fights on before Massimo's roll
        assert post(client, cid, tokens[GM], {"type": "roll", "step": step, "text": "auto"})[0] == 200
    store = Store.open(db)
    try:
        state = store.load(cid).conflict.replay()
    finally:
        store.close()
    typed, rolled = [s for s in state.steps() if s.node == CHANCE][:2]
    assert (typed.outcome, typed.faces) == (1, (1, 1, 0, -1))
    assert rolled.faces is not None and sum(rolled.faces) == rolled.outcome
    assert any("rzuca 4dF (rolls): + + 0 - = +1 →" in e.text for e in state.history())


def test_server_rolled_dice_are_play_s_dice_for_the_same_seed(tmp_path: Path) -> None:
    """The web rolls through ``Dice.roll`` with the per-step generators, as ``konflikt play`` does: a table of
    policies only plays exactly the conflict the runner plays with the same seed (Presja's 4dF drew differently
    when the web rolled Fudge dice its own way), and each die shown on the page is the die in the record."""
    from konflikt.core.conflict import new_state
    from konflikt.core.scenario import load_scenario
    from konflikt.sim.runner import Runner, StepGenerators, seat_policies

    for name in ("presja/knife_fight", "fimbulfrost/dragon"):
        with serving(tmp_path / f"{name.replace('/', '-')}.sqlite") as (client, hub):
            cid, _ = new_table(client, name, (), seed=11)
            table = hub.tables[cid]
        scenario = load_scenario(name)
        played = Runner(seat_policies(scenario, None), StepGenerators(11)).play(new_state(scenario, {}))
        assert [s.to_json() for s in table.state.steps()] == [s.to_json() for s in played.steps()], name
        rolled = [r for r in table.rolls if r.source == "auto"]
        assert rolled and all(r.faces is not None for r in rolled), name
        fudge = {"+": 1, "0": 0, "-": -1}
        for r in rolled:  # the page shows the record's faces: Fudge as + 0 -, the others as numbers
            record = table.state.steps()[r.step].faces
            shown = [fudge[f] if name.startswith("presja") else int(f) for f in r.faces or ()]
            assert record is not None and shown == list(record), (name, r)
