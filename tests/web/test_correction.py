"""A value corrected by hand by the GM: a logged step with a reason, replayed by the State API, the table and play."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from konflikt.core.conflict import Conflict
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CORRECTION, GM
from konflikt.errors import IllegalActionError, InvalidActionError
from tests.conftest import Result
from tests.web.helpers import frame, new_table, post, serving

#: A bundled scenario of every ruleset, and the value each ruleset lets the GM set (the first seat's).
CASES = [
    ("levald/duel", "Gard"),
    ("presja/knife_fight", "tor box 1"),
    ("presja/knife_fight", "punkty losu"),
    ("fimbulfrost/dragon", "rustning"),
    ("pwge/duel", "handlingspöl"),
]


@pytest.mark.parametrize(("name", "value_name"), CASES)
def test_a_correction_is_a_step_that_replays_to_the_same_value(name: str, value_name: str) -> None:
    scenario = load_scenario(name)
    state = Conflict(scenario, {}, 1).start()
    seat = next(s for s, values in state.correctable().items() if value_name in values)
    now, lowest, highest = state.correctable()[seat][value_name]
    assert lowest < highest
    target = lowest if now != lowest else highest
    state.correct(seat, value_name, target, "  the dice were read wrong\n")
    assert state.correctable()[seat][value_name][0] == target
    assert state.invariants() == []
    step = state.steps()[-1]
    assert step.node == CORRECTION and step.action is not None
    assert step.action.to_json() == {
        "kind": "correct",
        "seat": seat,
        "name": value_name,
        "value": target,
        "reason": "the dice were read wrong",
    }
    who = scenario.participant(seat).name
    said = f"The GM corrected {who}'s {value_name}: {now} → {target} (the dice were read wrong)"
    assert state.history()[-1].text == said
    record = json.loads(json.dumps(Conflict.of(state, scenario, {}, 1).to_json()))
    again = Conflict.from_json(record).replay()
    assert again.correctable() == state.correctable()
    assert [e.text for e in again.history()] == [e.text for e in state.history()]


def test_a_correction_out_of_bounds_or_without_a_reason_is_refused_and_changes_nothing() -> None:
    state = Conflict(load_scenario("levald/duel"), {}, 1).start()
    now, _, highest = state.correctable()["hedda"]["Gard"]
    cases: list[tuple[type[Exception], str, str, object, str]] = [
        (InvalidActionError, "hedda", "Gard", highest + 1, "too much"),
        (InvalidActionError, "hedda", "Gard", -1, "too little"),
        (InvalidActionError, "hedda", "Gard", "3", "text"),
        (InvalidActionError, "hedda", "Gard", True, "a bool"),
        (InvalidActionError, "hedda", "Gard", 1, "   "),
        (InvalidActionError, "hedda", "Gard", 1, "x" * 201),
        (IllegalActionError, "hedda", "Omdømme", 1, "not a value of this ruleset"),
        (IllegalActionError, "nobody", "Gard", 1, "no such seat"),
    ]
    for error, seat, value_name, value, reason in cases:
        with pytest.raises(error):
            state.correct(seat, value_name, value, reason)  # type: ignore[arg-type]
    assert state.steps() == [] and state.correctable()["hedda"]["Gard"][0] == now


def test_the_gm_corrects_from_the_console_a_player_may_not_and_undo_takes_it_back(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("snurre", "hedda"))
        message = {"type": "correct", "target": "hedda|Gard", "value": 2, "reason": "forgot a regained point"}
        assert post(client, cid, tokens["hedda"], message) == (400, {"error": "only the GM may correct"})
        code, body = post(client, cid, tokens[GM], message | {"value": 99})
        assert code == 400 and "takes a whole number from 0 to" in body["error"]
        code, body = post(client, cid, tokens[GM], message)
        assert code == 200, body
        assert body["events"][-1]["text"] == "The GM corrected Hedda's Gard: 14 → 2 (forgot a regained point)"
        gard = next(c for c in body["corrections"] if c["target"] == "hedda|Gard")
        assert (gard["now"], gard["lo"]) == (2, 0)
        hedda = frame(client, cid, tokens["hedda"])
        assert hedda["corrections"] == [] and "forgot a regained point" in hedda["events"][-1]["text"]
        form = {"type": "correct", "target": "snurre|Gard", "value": "1", "reason": "typed in the form"}
        page = client.post(f"/t/{cid}/{tokens[GM]}", data=form, follow_redirects=False)
        assert page.status_code == 303
    with serving(db) as (client, _):  # both corrections were saved; undo takes back the last
        steps = frame(client, cid, tokens[GM])["step"]
        assert steps == 2
        assert post(client, cid, tokens[GM], {"type": "undo"})[0] == 200
        after = frame(client, cid, tokens[GM])
        assert after["step"] == 1 and "snurre" not in after["events"][-1]["text"]


def test_play_resume_replays_a_correction_made_at_the_browser_table(tmp_path: Path, cli: Callable[..., Result]) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        form = {"scenario": "levald/duel", "dice": "table", "seed": "3"}
        response = client.post("/console/test-admin-key/new", data=form, follow_redirects=False)
        cid, token = response.headers["location"].split("/")[2:4]
        before = frame(client, int(cid), token)
        assert before["pending_roll"] is not None  # every seat a policy: the table waits for the first typed roll
        message = {"type": "correct", "target": "snurre|Gard", "value": 1, "reason": "a wound from before"}
        assert post(client, int(cid), token, message)[0] == 200
    result = cli("play", "--resume", cid, "--dice", "auto", "--db", str(db))
    assert result.code == 0, result.err
    exported = json.loads(cli("export", cid, "--db", str(db)).out)
    corrections = [s for s in exported["steps"] if s["node"] == CORRECTION]
    assert [c["action"]["reason"] for c in corrections] == ["a wound from before"]
    assert Conflict.from_json(exported).replay().is_terminal()


def test_the_gm_page_s_list_of_values_shows_a_corrected_value_at_once(tmp_path: Path) -> None:
    """The list is rendered again only when a value changes (``WebTable.kept``): a correction must change it."""
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("snurre", "hedda"))
        before = frame(client, cid, tokens[GM])
        row = next(c for c in before["corrections"] if c["target"] == "hedda|Gard")
        target = row["lo"] if row["now"] != row["lo"] else row["hi"]
        shown = f'<option value="hedda|Gard">{row["label"]} (now {{}}; {row["lo"]}–{row["hi"]})</option>'
        assert shown.format(row["now"]) in before["html"]
        message = {"type": "correct", "target": "hedda|Gard", "value": target, "reason": "misread"}
        assert post(client, cid, tokens[GM], message)[0] == 200
        after = frame(client, cid, tokens[GM])
        assert shown.format(target) in after["html"] and shown.format(row["now"]) not in after["html"]
        assert "<option" not in frame(client, cid, tokens["hedda"])["html"]


def test_play_s_undo_takes_back_a_browser_correction_alone(tmp_path: Path, cli: Callable[..., Result]) -> None:
    """A correction is a human input (the browser's Undo takes it back alone); ``play --resume --undo 1`` must too,
    not the correction together with the typed roll before it."""
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        form = {"scenario": "levald/duel", "dice": "table", "seed": "3"}
        response = client.post("/console/test-admin-key/new", data=form, follow_redirects=False)
        cid, token = response.headers["location"].split("/")[2:4]
        first = frame(client, int(cid), token)
        assert post(client, int(cid), token, {"type": "roll", "text": "47", "step": first["step"]})[0] == 200
        rolled = frame(client, int(cid), token)["step"]
        message = {"type": "correct", "target": "snurre|Gard", "value": 1, "reason": "a wound from before"}
        assert post(client, int(cid), token, message)[0] == 200
    exported = json.loads(cli("export", cid, "--db", str(db)).out)
    at = next(i for i, s in enumerate(exported["steps"]) if s["node"] == CORRECTION)
    assert at >= rolled
    result = cli("play", "--resume", cid, "--undo", "1", "--dice", "auto", "--db", str(db))
    assert f"undone 1 human input: back to step {at}" in result.out, result.out[-800:]
    kept = json.loads(cli("export", cid, "--db", str(db)).out)["steps"]
    assert kept[:at] == exported["steps"][:at] and all(s["node"] != CORRECTION for s in kept)
