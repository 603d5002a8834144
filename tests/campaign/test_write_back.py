"""A campaign's conflict writes its characters back once, in the transaction of its last step; undo gives them back."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from rich.console import Console

from konflikt.cli.table import TableSession
from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.conflict import Conflict
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE, SIMULTANEOUS, State
from konflikt.sim.runner import StepGenerators, seat_policies
from konflikt.store import library
from konflikt.store.db import Store
from konflikt.store.source import LibrarySource
from tests.campaign.helpers import character_file, documents, history_kinds
from tests.conftest import Result

ROBBERS_SEED = 9
"""Budolf and Rudolf beat the robbers in runde 3: both spend Rustning, Rudolf loses his gear (he has none)."""


def add_heroes(cli: Callable[..., Result], db: Path, campaign: str = "default") -> None:
    for name in ("budolf", "rudolf"):
        path = str(character_file("fimbulfrost", name))
        result = cli("chars", "add", path, "--ruleset", "fimbulfrost", "--db", str(db), "--campaign", campaign)
        assert result.code == 0, result.err


def test_run_with_a_campaign_writes_the_aftermath_back(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    add_heroes(cli, db)
    result = cli("run", "fimbulfrost/robbers", "--seed", str(ROBBERS_SEED), "--campaign", "default", "--db", str(db))
    assert result.code == 0, result.err
    docs = documents(db)
    # the aftermath: both spent their Rustning in runde 3 (pools_spent), the consequences bought are kept
    assert "rustning" not in docs["budolf"] and "rustning" not in docs["rudolf"]
    assert docs["budolf"]["konsekvenser"] == ["skramme"]
    assert docs["rudolf"]["konsekvenser"] == ["skramme", "grej-tabt"]  # no gear, still on the list
    assert docs["budolf"]["omdomme"] == 4 and docs["budolf"]["status"] == 6
    assert history_kinds(db, "budolf") == [("added", None, 0), ("conflict", 1, 0)]
    assert "conflict 1 written back" in result.out
    shown = " ".join(cli("chars", "show", "rudolf", "--db", str(db)).out.split())
    assert "conflict 1: Budolf og Rudolf møder en bande røvere" in shown
    assert "Grejet er tabt" in shown


def test_a_conflict_without_a_campaign_changes_nothing(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    add_heroes(cli, db)
    before = documents(db)
    assert cli("run", "fimbulfrost/robbers", "--seed", str(ROBBERS_SEED), "--db", str(db)).code == 0
    assert cli("play", "fimbulfrost/robbers", "--seed", str(ROBBERS_SEED), "--db", str(db)).code == 0
    assert documents(db) == before
    assert history_kinds(db, "budolf") == [("added", None, 0)]


def test_lib_references_take_the_campaigns_character(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    scenario = tmp_path / "s.toml"
    text = Path(load_scenario("fimbulfrost/robbers").source).read_text()
    scenario.write_text(text.replace('character = "builtin:budolf"', 'character = "lib:budolf"'))
    missing = cli("run", str(scenario), "--db", str(db))
    assert missing.code == 2 and "no character 'budolf' in campaign 'default'" in missing.err
    path = str(character_file("fimbulfrost", "budolf"))
    assert cli("chars", "add", path, "--ruleset", "fimbulfrost", "--db", str(db)).code == 0
    cli("chars", "edit", "budolf", "--set", "omdomme=7", "--db", str(db))
    played = cli("run", str(scenario), "--seed", "1", "--db", str(db), "--json")  # lib: is the default campaign
    assert played.code == 0, played.err
    payload = json.loads(played.out)
    assert payload["aftermath"]["characters"]["budolf"]["omdomme"] == 7
    assert payload["campaign"]["conflict"] == 1 and list(payload["campaign"]["changes"]) == ["budolf"]
    assert set(documents(db)) == {"budolf"}, "Rudolf is the scenario's own and stays out of the library"
    assert history_kinds(db, "budolf")[-1] == ("conflict", 1, 0)
    wrong = cli("run", "levald/duel", "--campaign", "default", "--db", str(db))  # no levald budolf: plays as is
    assert wrong.code == 0


def session_for(db: Path, campaign: str, seed: int) -> tuple[Store, int, Conflict]:
    source = LibrarySource(db, campaign)
    scenario = load_scenario("fimbulfrost/robbers", characters=source)
    conflict = Conflict(scenario, {}, seed)
    store = Store.open(db)
    conflict_id = store.create(conflict, "auto", {}, cast=source.cast(scenario))
    return store, conflict_id, conflict


def play_to_the_end(store: Store, conflict_id: int) -> None:
    loaded = store.load(conflict_id)
    seats = seat_policies(loaded.conflict.scenario, {})
    console = Console(file=io.StringIO(), width=200)
    TableSession(console, store, conflict_id, loaded.conflict, loaded.sources, seats, "auto").run()


KILL_IN_WRITE_BACK = """
import os, signal, sys
from pathlib import Path
from konflikt.store import library
from tests.campaign.test_write_back import play_to_the_end
from konflikt.store.db import Store

def killed(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)  # inside the last step's transaction, before its commit

library.write_back = killed
store = Store.open(Path(sys.argv[1]))
play_to_the_end(store, int(sys.argv[2]))
"""


def test_killed_in_its_last_step_and_resumed_writes_back_exactly_once(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    db = tmp_path / "c.sqlite"
    add_heroes(cli, db)
    store, conflict_id, _ = session_for(db, "default", ROBBERS_SEED)
    store.close()
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    killed = subprocess.run(
        [sys.executable, "-c", KILL_IN_WRITE_BACK, str(db), str(conflict_id)], env=env, cwd=root, timeout=300
    )
    assert killed.returncode == -9
    store = Store.open(db)
    try:
        loaded = store.load(conflict_id)
        assert not loaded.conflict.replay().is_terminal(), "the last step died with its write-back"
        assert history_kinds(db, "budolf") == [("added", None, 0)]
        store.release(conflict_id)
        play_to_the_end(store, conflict_id)  # resumed: the last step again, and its write-back
        play_to_the_end(store, conflict_id)  # resumed once more, already finished: nothing again
        assert [row.finished for row in store.list()] == [True]
    finally:
        store.close()
    assert history_kinds(db, "budolf") == [("added", None, 0), ("conflict", conflict_id, 0)]
    straight_db = tmp_path / "straight.sqlite"
    add_heroes(cli, straight_db)
    straight, straight_id, _ = session_for(straight_db, "default", ROBBERS_SEED)
    try:
        play_to_the_end(straight, straight_id)
    finally:
        straight.close()
    assert documents(db) == documents(straight_db) != documents_added(cli, tmp_path)


def documents_added(cli: Callable[..., Result], tmp_path: Path) -> dict[str, dict[str, object]]:
    fresh = tmp_path / "fresh.sqlite"
    add_heroes(cli, fresh)
    return documents(fresh)


def test_undo_past_the_end_gives_the_characters_back(cli: Callable[..., Result], tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    add_heroes(cli, db)
    before = documents(db)
    store, conflict_id, _ = session_for(db, "default", ROBBERS_SEED)
    try:
        play_to_the_end(store, conflict_id)
        after = documents(db)
        assert after != before
        steps = len(store.load(conflict_id).conflict.steps)
        store.truncate(conflict_id, steps - 1)  # undo the last step: the conflict is no longer over
        assert documents(db) == before
        assert history_kinds(db, "budolf") == [
            ("added", None, 0), ("conflict", conflict_id, 1), ("undone", conflict_id, 0)
        ]  # fmt: skip
        play_to_the_end(store, conflict_id)  # played to its end again: written back again, once
        assert documents(db) == after
        store.truncate(conflict_id, 0)
        assert documents(db) == before
    finally:
        store.close()


def test_a_write_back_the_model_refuses_rolls_the_last_step_back(
    cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "c.sqlite"
    add_heroes(cli, db)
    store, conflict_id, _ = session_for(db, "default", ROBBERS_SEED)
    real = library.changed_fields

    def broken(*args: object) -> dict[str, object]:
        return {**real(*args), "omdomme": -1}  # type: ignore[arg-type]

    monkeypatch.setattr(library, "changed_fields", broken)
    try:
        with pytest.raises(Exception, match="omdomme"):
            play_to_the_end(store, conflict_id)
        assert not store.load(conflict_id).conflict.replay().is_terminal()
        assert [row.finished for row in store.list()] == [False]
    finally:
        store.close()


def test_a_front_end_that_only_finishes_writes_back_once(cli: Callable[..., Result], tmp_path: Path) -> None:
    """The browser table saves its steps without an ending and then calls ``finish``: the write-back happens there."""
    db = tmp_path / "c.sqlite"
    add_heroes(cli, db)
    store, conflict_id, conflict = session_for(db, "default", ROBBERS_SEED)
    try:
        state = conflict.replay()
        gen = StepGenerators(ROBBERS_SEED)
        seats = seat_policies(conflict.scenario, {})
        while not state.is_terminal():
            state.apply_action(next_action(state, seats, gen))
            store.append(conflict_id, len(state.steps()) - 1, state.steps()[-1], "policy")
        assert history_kinds(db, "budolf") == [("added", None, 0)], "no ending passed: nothing yet"
        store.finish(conflict_id, state.outcome().summary)
        store.finish(conflict_id, state.outcome().summary)
    finally:
        store.close()
    assert history_kinds(db, "budolf") == [("added", None, 0), ("conflict", conflict_id, 0)]


def next_action(state: State, seats: Mapping[str, Policy | None], gen: StepGenerators) -> Action | ChanceOutcome:
    node = state.current_player()
    if node == CHANCE:
        dice = state.pending_roll()
        assert dice is not None
        outcome: ChanceOutcome = dice.sample(gen.dice_for(state))
        return outcome
    seat = state.waiting_for()[0] if node == SIMULTANEOUS else node
    policy = seats[seat]
    assert policy is not None
    return policy.choose(state, seat, gen.policy_for(state, seat))


def test_a_resumed_conflict_keeps_its_campaign(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("play", "--resume", "1", "--campaign", "x", "--db", str(tmp_path / "c.sqlite"))
    assert result.code == 2 and "a resumed conflict keeps the campaign it began in" in result.err


def test_play_resume_undo_takes_back_past_the_end_and_gives_the_characters_back(
    cli: Callable[..., Result], tmp_path: Path
) -> None:
    """``konflikt play --resume ID --undo N`` reaches past a finished conflict's end: the conflict is open again at
    the first taken-back input and the campaign's characters are as they were before it (a mutation that undoes
    only while the conflict is open leaves the written-back consequences in the library and fails here)."""
    db = tmp_path / "c.sqlite"
    add_heroes(cli, db)
    before = documents(db)
    source = LibrarySource(db, "default")
    scenario = load_scenario("fimbulfrost/robbers", characters=source)
    store = Store.open(db)
    conflict_id = store.create(
        Conflict(scenario, {}, ROBBERS_SEED), "auto", {"budolf": "human"}, cast=source.cast(scenario)
    )
    try:
        loaded = store.load(conflict_id)
        seats = seat_policies(loaded.conflict.scenario, dict(loaded.seats))
        console = Console(file=io.StringIO(), width=200)
        session = TableSession(
            console, store, conflict_id, loaded.conflict, loaded.sources, seats, "auto", ask=lambda prompt, secret: "1"
        )
        assert session.run().is_terminal()
        assert documents(db) != before
    finally:
        store.close()
    env = {**os.environ, "NO_COLOR": "1"}
    command = [sys.executable, "-m", "konflikt", "play", "--resume", str(conflict_id), "--undo", "1000"]
    done = subprocess.run(
        [*command, "--db", str(db)], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "undone" in done.stdout and "back to step" in done.stdout
    assert documents(db) == before
    reopened = Store.open(db, readonly=True)
    try:
        assert not reopened.load(conflict_id).conflict.replay().is_terminal()
    finally:
        reopened.close()


def test_undo_needs_a_resumed_conflict(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("play", "fimbulfrost/robbers", "--undo", "1", "--db", str(tmp_path / "c.sqlite"))
    assert result.code == 2 and "--undo goes with --resume ID" in result.err
    assert not (tmp_path / "c.sqlite").exists()
