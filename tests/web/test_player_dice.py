"""Dice at the players' hands: in ``players`` mode each human seat rolls its own rolls on its own page (a Roll button
drawing from the table's seeded dice, or the faces of its own dice typed); the faces and what they meant reach
every page; a roll from a seat that is not asked, faces a die cannot show, and the same roll sent twice are each
refused in one line and change nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from konflikt.core.conflict import Conflict
from konflikt.core.scenario import load_scenario
from konflikt.core.state import GM
from konflikt.sim.runner import StepGenerators
from tests.web.helpers import frame, new_table, post, serving

DUEL = ("snurre", "hedda")


def at_first_roll(client: Any, cid: int, tokens: dict[str, str], seats: tuple[str, ...] = DUEL) -> dict[str, Any]:
    """The people at the table press their first button until a roll is asked; the GM's frame then."""
    for _ in range(50):
        gm = frame(client, cid, tokens[GM])
        if gm["pending_roll"] is not None:
            return gm
        pressed = False
        for seat in seats:
            mine = frame(client, cid, tokens[seat])
            if mine["choices"]:
                assert post(client, cid, tokens[seat], {"type": "act", "step": mine["step"], "choice": 0})[0] == 200
                pressed = True
        assert pressed, gm["node"]
    raise AssertionError("no roll was asked")


def test_a_player_rolls_their_own_roll_and_every_page_sees_the_faces_and_what_they_meant(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, hub):
        cid, tokens = new_table(client, "levald/duel", DUEL, dice="players", seed=5)
        gm = at_first_roll(client, cid, tokens)
        roll = gm["pending_roll"]
        roller = roll["seat"]
        other = next(s for s in DUEL if s != roller)
        assert roll["purpose"].startswith(f"{roller.capitalize()}'s ")
        mine, theirs = frame(client, cid, tokens[roller]), frame(client, cid, tokens[other])
        assert mine["my_roll"]["purpose"] == roll["purpose"] and theirs["my_roll"] is None
        # the chances the terminal's prompt shows (State.roll_stakes), as its percent writes them
        table = hub.tables[cid]
        expected = [(label, f"{float(p) * 100:.2f}%") for label, p in table.state.roll_stakes()]
        assert [(s["label"], s["percent"]) for s in mine["my_roll"]["stakes"]] == expected
        target = int(re.findall(r"against (\d+)", roll["purpose"])[0])
        assert (f"lyckat (success): d100 ≤ {target}", f"{target}.00%") in expected  # a d100 under its target
        step = gm["step"]

        # the other fighter may not roll this roll; faces a d100 cannot show are refused; nothing changes
        code, body = post(client, cid, tokens[other], {"type": "roll", "step": step, "text": "auto"})
        label = f"{roller.capitalize()} ({roller})"
        assert code == 400 and body["error"] == f"this roll is {label}'s to roll, not yours; nothing changed"
        code, body = post(client, cid, tokens[roller], {"type": "roll", "step": step, "text": "7 7 7"})
        assert code == 400 and "d100" in body["error"] and "\n" not in body["error"]
        assert frame(client, cid, tokens[GM])["step"] == step

        # the roller presses Roll: the table's seeded dice, as konflikt itself would have rolled them
        code, body = post(client, cid, tokens[roller], {"type": "roll", "step": step, "text": "auto", "id": "r1"})
        assert code == 200
        scenario = load_scenario("levald/duel")
        state = Conflict(scenario, {}, 5).start()
        for s in table.conflict.steps[:step]:
            state.apply_step(s)
        expected_outcome, _ = state.pending_roll().roll(StepGenerators(5).dice_for(state))  # type: ignore[union-attr]
        assert table.conflict.steps[step].outcome == expected_outcome
        value = int(expected_outcome)
        faces = list("00" if value == 100 else f"{value:02d}")
        for seat in (*DUEL, GM):
            rolls = frame(client, cid, tokens[seat])["rolls"]
            mine = next(r for r in rolls if r["step"] == step)
            assert mine["faces"] == faces
            assert any(f" {value} mot (vs) {target} → " in m for m in mine["meaning"]), mine

        # the same roll again: a double tap (same step) and a retry after a reconnect (same id); nothing changes
        after = frame(client, cid, tokens[GM])["step"]
        code, body = post(client, cid, tokens[roller], {"type": "roll", "step": step, "text": "auto"})
        assert code == 400 and body["error"].startswith(f"the roll at step {step} was taken already")
        code, body = post(client, cid, tokens[roller], {"type": "roll", "step": after, "text": "auto", "id": "r1"})
        assert code == 400 and body["error"].startswith("that was taken already")
        assert frame(client, cid, tokens[GM])["step"] == after and len(table.conflict.steps) == after

        # the other fighter's roll comes next (the defence); they type the faces of their own two d10
        nxt = frame(client, cid, tokens[other])["my_roll"]
        assert nxt["purpose"].startswith(f"{other.capitalize()}'s ")
        their_target = int(re.findall(r"against (\d+)", nxt["purpose"])[0])
        code, body = post(client, cid, tokens[other], {"type": "roll", "step": after, "text": "37"})
        assert code == 200
        typed = next(r for r in frame(client, cid, tokens[roller])["rolls"] if r["step"] == after)
        assert typed["faces"] == ["3", "7"] and any(f" 37 mot (vs) {their_target} → " in m for m in typed["meaning"])


def test_the_gm_may_roll_for_a_player_and_a_bots_roll_is_rolled_by_konflikt(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("snurre",), dice="players", seed=5)
        rolled: list[dict[str, Any]] = []
        for _ in range(20):  # Hedda is the heuristic's: her rolls are konflikt's, at once; Snurre's wait for him
            gm = at_first_roll(client, cid, tokens, ("snurre",))
            assert gm["pending_roll"]["seat"] == "snurre" and gm["pending_roll"]["by"] == "Snurre (snurre)"
            code, _ = post(client, cid, tokens[GM], {"type": "roll", "step": gm["step"], "text": "12"})  # for him
            assert code == 200
            rolled = [r for r in frame(client, cid, tokens["snurre"])["rolls"] if r["purpose"].startswith("Hedda")]
            if rolled:
                break
        assert rolled and all(r["source"] == "auto" and r["faces"] is not None for r in rolled)
