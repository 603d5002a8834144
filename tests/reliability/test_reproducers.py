"""Every reproducer of the reliability report (issue 18), at the command line: exit 2 and one line, or a bounded,
correct answer; files that must not change are compared by sha256 before and after."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from konflikt.core.scenario import bundled_examples
from tests.conftest import Result

Cli = Callable[..., Result]
HUGE = "9" * 4400  # over Python's 4,300-digit limit for int(str)
ROBBERS = (bundled_examples() / "fimbulfrost" / "robbers.toml").read_text(encoding="utf-8")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(result: Result, *words: str) -> None:
    """Exit 2, exactly one line on stderr, no traceback; the line says what is wrong."""
    assert result.code == 2, (result.code, result.err[-500:])
    assert result.err.startswith("konflikt: error: ") and result.err.count("\n") == 1, result.err[-500:]
    assert "Traceback" not in result.err and "internal error" not in result.err
    for word in words:
        assert word in result.err, result.err


def scenario_file(tmp_path: Path, text: str, name: str = "s.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A save database holding three whole fimbulfrost conflicts (several pages), made once per module."""
    from konflikt.cli.main import main

    db = tmp_path_factory.mktemp("template") / "w.sqlite"
    for seed in ("1", "2", "3"):
        try:
            main(["play", "fimbulfrost/robbers", "--seed", seed, "--db", str(db)])
        except SystemExit as exc:
            raise AssertionError(f"play --seed {seed} failed: exit {exc.code}") from None
    return db


@pytest.fixture
def saved_db(template_db: Path, tmp_path: Path) -> Path:
    db = tmp_path / "w.sqlite"
    shutil.copy(template_db, db)
    return db


# ---- damaged and foreign files are never written ---------------------------------------------------------------
def damaged_copies(db: Path, tmp_path: Path) -> list[Path]:
    """Copies with bytes flipped past page 1 that SQLite's own integrity_check rejects."""
    data = db.read_bytes()
    page = int.from_bytes(data[16:18], "big")
    found = []
    for n, offset in enumerate(range(page + 40, len(data), 101)):
        copy = tmp_path / f"damaged{n}.sqlite"
        flipped = bytearray(data)
        for k in range(8):
            flipped[min(offset + k, len(data) - 1)] ^= 0x5A
        copy.write_bytes(bytes(flipped))
        conn = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        conn.text_factory = bytes
        try:
            bad = conn.execute("PRAGMA integrity_check").fetchone()[0] != b"ok"
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            bad = True
        conn.close()
        if bad:
            found.append(copy)
        else:
            copy.unlink()
    return found


def test_damaged_databases_are_refused_and_left_byte_identical(cli: Cli, saved_db: Path, tmp_path: Path) -> None:
    copies = damaged_copies(saved_db, tmp_path)
    copies = copies[:: max(1, len(copies) // 5)][:5]
    assert len(copies) == 5
    exported = tmp_path / "one.json"
    assert cli("export", "1", "--db", str(saved_db), "--out", str(exported)).code == 0
    for copy in copies:
        before = sha(copy)
        refused(cli("play", "fimbulfrost/robbers", "--seed", "1", "--db", str(copy)), "damaged")
        refused(cli("play", "--resume", "1", "--db", str(copy)), "damaged")
        refused(cli("import", str(exported), "--db", str(copy)), "damaged")
        assert sha(copy) == before
        assert sorted(p.name for p in tmp_path.glob(copy.name + "*")) == [copy.name]


def test_a_schema_whose_key_was_damaged_is_refused_before_anything_is_written(cli: Cli, saved_db: Path) -> None:
    """Found by the fuzz campaign (database target, seed 40000041831): one damaged byte in the schema text made
    ``conflicts.id`` lose its PRIMARY KEY; the columns and pages passed every check, ``play`` stored a new conflict
    and then failed on the first write that references it ("foreign key mismatch"), exit 2 with the file changed."""
    conn = sqlite3.connect(saved_db)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute(
        "UPDATE sqlite_master SET sql = replace(sql, 'id INTEGER PRIMARY KEY AUTOINCREMENT', 'id INTEGER PRIMARY$KEY') "
        "WHERE name = 'conflicts'"
    )
    conn.commit()
    conn.close()
    before = sha(saved_db)
    refused(cli("play", "fimbulfrost/robbers", "--policy", "budolf=human", "--seed", "3", "--db", str(saved_db)),
            "damaged", "foreign key mismatch")  # fmt: skip
    refused(cli("play", "fimbulfrost/robbers", "--seed", "3", "--db", str(saved_db)), "damaged")
    assert sha(saved_db) == before


def test_an_empty_sqlite_file_of_another_program_is_not_taken_over(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA user_version = 7")
    conn.close()
    before = sha(db)
    for args in (("saves",), ("export", "1"), ("play", "fimbulfrost/robbers"), ("saves", "--json")):
        refused(cli(*args, "--db", str(db)), "another program's")
    assert sha(db) == before


def test_a_database_with_konflikts_id_but_another_schema_is_refused(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "odd.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE conflicts (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute(f"PRAGMA application_id = {0x4B4F4E46}")
    conn.commit()
    conn.close()
    before = sha(db)
    refused(cli("play", "fimbulfrost/robbers", "--db", str(db)), "schema")
    refused(cli("saves", "--db", str(db)), "schema")
    assert sha(db) == before


def test_read_only_commands_create_nothing(cli: Cli, tmp_path: Path) -> None:
    target = tmp_path / "new" / "dir" / "x.sqlite"
    result = cli("saves", "--db", str(target))
    assert result.code == 0 and "no saved conflicts" in result.err
    assert cli("saves", "--db", str(target), "--json").out.strip() == "[]"
    refused(cli("export", "1", "--db", str(target)), "no save database")
    refused(cli("odds", "--saved", "1", "--db", str(target)), "no save database")
    assert list(tmp_path.iterdir()) == []


def test_read_only_commands_open_the_file_read_only(cli: Cli, saved_db: Path) -> None:
    before = sha(saved_db)
    os.chmod(saved_db, 0o444)
    try:
        listed = cli("saves", "--db", str(saved_db), "--json")
        assert listed.code == 0 and len(json.loads(listed.out)) == 3
        assert cli("export", "2", "--db", str(saved_db)).code == 0
        refused(cli("play", "--resume", "1", "--db", str(saved_db)), "read-only")
        refused(cli("play", "fimbulfrost/robbers", "--db", str(saved_db)), "read-only")
    finally:
        os.chmod(saved_db, 0o644)
    assert sha(saved_db) == before
    assert sorted(p.name for p in saved_db.parent.glob("w.sqlite*")) == ["w.sqlite"]


def test_a_file_where_a_folder_should_be(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "existing_file").write_text("x")
    for args in (("play", "fimbulfrost/robbers"), ("saves",), ("export", "1")):
        refused(cli(*args, "--db", str(tmp_path / "existing_file" / "x.sqlite")), "is a file, not a folder")
    refused(cli("saves", "--db", str(tmp_path)), "folder")


def test_junk_in_a_saves_columns_is_one_line(cli: Cli, saved_db: Path) -> None:
    conn = sqlite3.connect(saved_db)
    conn.execute("UPDATE conflicts SET seats = 'not json' WHERE id = 1")
    conn.execute("UPDATE conflicts SET seats = '[1, 2]', dice = 'loaded' WHERE id = 2")
    conn.execute("UPDATE conflicts SET record = '{\"format\": 1' WHERE id = 3")
    conn.commit()
    conn.close()
    for cid, word in (("1", "seats"), ("2", "dice"), ("3", "record")):
        before = sha(saved_db)
        refused(cli("play", "--resume", cid, "--db", str(saved_db)), f"saved conflict {cid}", word)
        refused(cli("export", cid, "--db", str(saved_db)), word)
        assert sha(saved_db) == before


def test_a_truncated_save_is_refused_untouched(cli: Cli, saved_db: Path) -> None:
    data = saved_db.read_bytes()
    saved_db.write_bytes(data[: len(data) // 2])
    before = sha(saved_db)
    refused(cli("play", "--resume", "1", "--db", str(saved_db)))
    refused(cli("saves", "--db", str(saved_db)))
    refused(cli("play", "fimbulfrost/robbers", "--db", str(saved_db)))
    assert sha(saved_db) == before


def test_one_process_per_open_conflict(cli: Cli, saved_db: Path) -> None:
    """A live process's mark refuses a second resume; a dead process's mark (a kill) is taken over."""
    from konflikt.store.db import _process_started

    parent = os.getppid()
    conn = sqlite3.connect(saved_db)
    conn.execute(
        "INSERT INTO sessions (conflict_id, host, pid, started, since) VALUES (1, ?, ?, ?, '2026-01-01 10:00:00')",
        (os.uname().nodename, parent, _process_started(parent)),
    )
    conn.execute(
        "INSERT INTO sessions (conflict_id, host, pid, started, since) VALUES (2, ?, 999999999, '', '')",
        (os.uname().nodename,),
    )
    conn.commit()
    conn.close()
    refused(cli("play", "--resume", "1", "--db", str(saved_db)), "conflict 1 is open in another konflikt")
    resumed = cli("play", "--resume", "2", "--db", str(saved_db))
    assert resumed.code == 0 and "resuming conflict 2" in resumed.out
    conn = sqlite3.connect(saved_db)
    assert conn.execute("SELECT conflict_id FROM sessions").fetchall() == [(1,)]
    conn.close()


# ---- seeds and validation at the edge --------------------------------------------------------------------------
@pytest.mark.parametrize("seed", ["-1", '"1"', "9223372036854775808", HUGE])
def test_bad_seeds_in_a_scenario_are_refused_before_anything_is_stored(cli: Cli, tmp_path: Path, seed: str) -> None:
    path = scenario_file(tmp_path, ROBBERS.replace("seed = 1", f"seed = {seed}"))
    db = tmp_path / "s.sqlite"
    for command in ("run", "sim", "play"):
        refused(cli(command, path, "--db", str(db)) if command == "play" else cli(command, path), "seed")
    assert not db.exists()


def test_bad_seeds_on_the_command_line(cli: Cli) -> None:
    for seed in ("", "-1", "x", HUGE, "²"):
        refused(cli("run", "fimbulfrost/robbers", "--seed", seed), "seed")
    refused(cli("sim", "fimbulfrost/robbers", "--seed", "-1"), "seed")
    refused(cli("play", "fimbulfrost/robbers", "--seed", ""), "seed")


@pytest.fixture
def export(cli: Cli, tmp_path: Path) -> dict[str, object]:
    saved = tmp_path / "c.json"
    assert cli("run", "fimbulfrost/robbers", "--seed", "3", "--save", str(saved)).code == 0
    data: dict[str, object] = json.loads(saved.read_text())
    data["play"] = {"dice": "auto", "seats": {"budolf": "heuristic"}, "sources": ["auto"] * 3}
    return data


@pytest.mark.parametrize(
    ("change", "word"),
    [
        (lambda d: d.pop("seed"), "seed"),
        (lambda d: d.update(seed=-4), "seed"),
        (lambda d: d.update(seed="1"), "seed"),
        (lambda d: d.update(play={"seats": 5}), "play.seats"),
        (lambda d: d.update(play={"sources": "auto"}), "play.sources"),
        (lambda d: d.update(play={"dice": 3}), "play.dice"),
        (lambda d: d.update(play={"seats": {"nobody": "human"}}), "nobody"),
        (lambda d: d.update(play={"seats": {"budolf": "clairvoyant"}}), "clairvoyant"),
        (lambda d: d.update(play=[]), "play"),
        (lambda d: d.update(overrides={"question_dice": [1]}), "overrides"),
        (lambda d: d.update(overrides={"question_dice": 10**9}), "question_dice"),
        (lambda d: d.update(steps={"a": 1}), "steps"),
        (lambda d: d.update(steps=[1, 2]), "steps"),
        (lambda d: d.update(scenario=[]), "scenario"),
        (lambda d: d["scenario"].pop("ruleset"), "ruleset"),
        (lambda d: d["scenario"].update(seed=-1), "seed"),
    ],
)
def test_bad_imports_are_refused_before_anything_is_stored(
    cli: Cli, tmp_path: Path, export: dict[str, object], change: Callable[[dict[str, object]], object], word: str
) -> None:
    change(export)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(export))
    db = tmp_path / "target.sqlite"
    refused(cli("import", str(path), "--db", str(db)), word)
    assert not db.exists()


def test_an_import_that_is_not_a_regular_json_file(cli: Cli, tmp_path: Path) -> None:
    refused(cli("import", str(tmp_path)), "folder")
    refused(cli("import", "/dev/zero"), "not a regular file")
    refused(cli("import", str(tmp_path / "missing.json")), "no such file")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    refused(cli("import", str(deep)), "deep")
    big = tmp_path / "big.json"
    big.write_text('{"format": "konflikt-conflict", "version": 1, "seed": ' + HUGE + "}")
    refused(cli("import", str(big)), "big.json")
    assert not (tmp_path / "s.sqlite").exists()


def test_huge_integers_anywhere_in_a_scenario(cli: Cli, tmp_path: Path) -> None:
    refused(cli("run", scenario_file(tmp_path, ROBBERS + f"\n[options]\nquestion_dice = {HUGE}\n")))
    refused(cli("run", "fimbulfrost/robbers", "-o", f"question_dice={HUGE}"), "question_dice")
    refused(cli("run", "presja/knife_fight", "-o", f"unskilled_level={10**18}"), "unskilled_level")
    refused(cli("run", "presja/knife_fight", "-o", f"invoke_bonus={10**18}"), "invoke_bonus")
    refused(cli("run", "levald/duel", "-o", f"step_size={10**18}"), "step_size")
    refused(cli("run", "fimbulfrost/robbers", "-o", f"points_per_consequence={10**9}"), "points_per_consequence")
    refused(cli("run", "fimbulfrost/robbers", "-o", "question_dice=²"), "question_dice")


@pytest.mark.parametrize(
    "expression",
    [f"3d6+{HUGE}", f"4dF+{HUGE}", f"{HUGE}P", f"{HUGE}d6", f"3T{HUGE}", f"2d6+1d4+{HUGE}", f"d{{1,{HUGE}}}",
     f"2d6>={HUGE}", f"2d6kh{HUGE}", f"3d6!{HUGE}", "3d6+" + "9" * 4000, "2d6+1d4-" + "9" * 4000,
     "2d6>=1234567890123456789"],
)  # fmt: skip
def test_huge_numbers_in_dice_expressions(cli: Cli, expression: str) -> None:
    """``konflikt roll 3d6+999…`` was an internal error past 4,300 digits, and printed a 4,000-digit sum below."""
    for command in ("roll", "odds"):
        refused(cli(command, expression), "digits")


@pytest.mark.parametrize("expression", ["3dF+3T0", "1d6+2T1", "1d6+2T1001", "1d6+T0"])
def test_t_dice_in_a_sum_have_2_to_1000_sides(cli: Cli, expression: str) -> None:
    """Found by the 100,000-example campaign (seed 20000007907): ``odds 3dF+3T0`` was an internal error (a die
    with no faces), ``roll`` of it too; ``2T1`` and ``2T1001`` were taken although ``3T0`` alone was refused."""
    for command in ("roll", "odds"):
        refused(cli(command, expression), "2 to 1000 sides")


def test_dice_expressions_that_would_run_away_are_bounded(cli: Cli) -> None:
    """``odds 100d100`` took 268 s; ``odds 200d1000`` and ``200T1000`` ran on. Now: refused before they start,
    or answered at once; rolling them (sampling) is cheap and stays allowed."""
    for expression in ("100d100", "200d1000", "200T1000", "201d6", "3d1001"):
        refused(cli("odds", expression), expression)
    for expression in ("200d1000", "200T1000"):
        rolled = cli("roll", expression)
        assert rolled.code == 0 and 200 <= int(rolled.out.split(":")[1]) <= 200_000
    exact = cli("odds", "3d6", "--json")
    assert exact.code == 0


def test_odds_questions_take_parameters_in_range(cli: Cli) -> None:
    """``odds presja exchange --attack 1000000`` ran for minutes (a row per point of pressure); found while adding
    ruleset questions to the campaign. Levels have a range, and the answer within it is immediate."""
    refused(cli("odds", "presja", "exchange", "--attack", "1000000", "--defense", "1"), "--attack")
    refused(cli("odds", "presja", "exchange", "--attack", "1", "--defense", "-1000000"), "--defense")
    refused(cli("odds", "presja", "exchange", "--attack", "1", "--defense", "1", "--weapon", "11"), "--weapon")
    answered = cli("odds", "presja", "exchange", "--attack", "30", "--defense", "-10", "--weapon", "10", "--json")
    assert answered.code == 0
    outcomes = json.loads(answered.out)["outcomes"]
    assert (min(map(int, outcomes)), max(map(int, outcomes)), len(outcomes)) == (42, 58, 17)  # margin 40 ± 8, +10


def test_deeply_nested_toml(cli: Cli, tmp_path: Path) -> None:
    path = scenario_file(tmp_path, ROBBERS.replace("seed = 1", "seed = 1\nx = " + "[" * 500 + "]" * 500))
    refused(cli("run", path))
    path = scenario_file(tmp_path, ROBBERS + "\n[setup]\nx = " + "[" * 60 + "]" * 60 + "\n")
    refused(cli("run", path), "nested")


def test_options_without_bounds_are_refused_at_the_command_line(cli: Cli) -> None:
    """``base_track=10^18`` took 687 MB in 30 s; the others were accepted and ran on (or not at all)."""
    refused(cli("run", "presja/knife_fight", "-o", "base_track=1000000000000000000"), "base_track")
    refused(cli("run", "fimbulfrost/robbers", "-o", f"question_dice={10**9}"), "question_dice")
    refused(cli("run", "pwge/duel", "-o", "skrama_from=1000"), "skrama_from")
    refused(cli("run", "pwge/duel", "-o", "skrama_from=7"), "skrama_from")  # above allvarligt_from = 6
    refused(cli("sim", "pwge/duel", "-n", "100", "-o", "skrama_from=1000"), "skrama_from")


def test_setup_values_that_follow_no_rule_are_refused(cli: Cli, tmp_path: Path) -> None:
    duel = (bundled_examples() / "pwge" / "duel.toml").read_text(encoding="utf-8")
    far = scenario_file(tmp_path, duel.replace('start_distance = "Svärd"', "start_distance = 2147483648"))
    refused(cli("run", far), "start_distance")
    levald = (bundled_examples() / "levald" / "duel.toml").read_text(encoding="utf-8")
    laser = levald.replace('character = "builtin:snurre"', 'character = "builtin:snurre"\nweapon = "Laser"')
    assert "[setup.wield]" in laser and 'snurre = "Svärd"' in laser  # the override that used to hide the Laser
    refused(cli("run", scenario_file(tmp_path, laser)), "Laser")
    refused(cli("play", scenario_file(tmp_path, laser), "--db", str(tmp_path / "s.sqlite")), "Laser")
    assert not (tmp_path / "s.sqlite").exists()


def test_an_empty_policy_is_refused(cli: Cli, tmp_path: Path) -> None:
    refused(cli("run", scenario_file(tmp_path, ROBBERS.replace('policy = "heuristic"', 'policy = ""', 1))), "policy")
    refused(cli("run", scenario_file(tmp_path, ROBBERS.replace("seed = 1", 'seed = 1\ngm = ""'))), "gm")


# ---- budgets: files, simulations, exact odds -------------------------------------------------------------------
def test_scenarios_are_regular_files_of_bounded_size(cli: Cli, tmp_path: Path) -> None:
    refused(cli("run", "/dev/zero"), "not a regular file")
    text = ROBBERS.replace('character = "builtin:budolf"', 'character = "/dev/zero"')
    refused(cli("run", scenario_file(tmp_path, text)), "not a regular file")
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    refused(cli("run", str(fifo)), "not a regular file")
    big = tmp_path / "big.toml"
    big.write_text(ROBBERS + "#" * 2_000_000)
    refused(cli("run", str(big)), "too large")
    refused(cli("run", str(tmp_path)), "folder")


def test_huge_sim_runs_in_bounded_memory_and_stops_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    """-n 10**12: chunks are made one at a time. A list of them (2·10**9 tuples) would never get to the first
    conflict; here the first chunk runs and Ctrl-C stops with what was done."""
    from konflikt.core.scenario import load_scenario
    from konflikt.sim import engine

    monkeypatch.setattr(engine, "REFERENCE_CHUNK", 20)

    def progress(count: int) -> None:
        raise KeyboardInterrupt

    result = engine.simulate(load_scenario("pwge/duel"), 10**12, 1, engine="reference", progress=progress)
    assert result.interrupted and result.tally.n == 20


def test_huge_sim_at_the_command_line(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """``konflikt sim pwge/duel -n 999999999999`` (1.6 GB after 30 s): the real command and engine, stopped by a
    Ctrl-C after the first chunk, reports the conflicts done so far and when it stopped."""
    from konflikt.sim import engine

    monkeypatch.setattr(engine, "REFERENCE_CHUNK", 20)

    def ctrl_c_after_the_first_chunk(
        scenario: Any,
        n: int,
        seed: int,
        overrides: Any,
        policies: Any,
        name: str,
        workers: int,
        advance: Any,
        *more: Any,  # the scheduler's address and whatever sim passes after the progress callback
    ) -> engine.SimResult:
        def stop(count: int) -> None:
            advance(count)
            raise KeyboardInterrupt

        return real_simulate(scenario, n, seed, overrides, policies, name, workers, stop, *more)

    real_simulate = engine.simulate
    monkeypatch.setattr(engine, "simulate", ctrl_c_after_the_first_chunk)
    result = cli("sim", "pwge/duel", "-n", "999999999999", "--engine", "reference", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["interrupted"] is True and data["n"] == 20


def test_odds_takes_a_timeout(cli: Cli) -> None:
    """In its own process, as a user runs it (a test process may hold SIGALRM blocked by another library)."""
    stopped = subprocess.run(
        [sys.executable, "-m", "konflikt", "odds", "presja/knife_fight", "--timeout", "0.5"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert stopped.returncode == 2, stopped.stderr
    assert "--timeout 0.5" in stopped.stderr and stopped.stderr.count("\n") == 1
    refused(cli("odds", "4dF", "--timeout", "0"), "--timeout")
    assert cli("odds", "4dF", "--timeout", "30", "--json").code == 0


# ---- prompts: Unicode digits and huge numbers ------------------------------------------------------------------
def test_prompt_answers_that_int_refuses() -> None:
    from konflikt.cli.prompts import read_choice
    from konflikt.core.conflict import new_state
    from konflikt.core.scenario import load_scenario
    from konflikt.errors import InvalidActionError

    state = new_state(load_scenario("presja/knife_fight"))
    seat = state.current_player()
    legal = list(state.legal_actions(seat))
    for text in ("²", "①", "٣", HUGE, "1" * 40, "-1", "0", " "):
        with pytest.raises(InvalidActionError):
            read_choice(text, state, seat, legal)
    assert read_choice("1", state, seat, legal) == legal[0]


def test_undo_with_unicode_or_huge_counts_keeps_the_session(tmp_path: Path) -> None:
    from rich.console import Console

    from konflikt.cli.table import TableSession
    from konflikt.core.conflict import Conflict
    from konflikt.core.scenario import load_scenario
    from konflikt.sim.runner import seat_policies
    from konflikt.store.db import Store

    scenario = load_scenario("presja/knife_fight")
    store = Store.open(tmp_path / "s.sqlite")
    conflict = Conflict(scenario, {}, 1)
    cid = store.create(conflict)
    answers = iter(["undo ²", f"undo {HUGE}", "²", "①", HUGE, "quit"])
    console = Console(file=open(os.devnull, "w"), width=120)  # noqa: SIM115
    seats = seat_policies(scenario, {"belzee": "human"})
    state = TableSession(console, store, cid, conflict, [], seats, "auto", ask=lambda p, s: next(answers)).run()
    assert not state.is_terminal()
    assert next(answers, "done") == "done"
    store.close()


def test_huge_totals_typed_at_a_roll_prompt_keep_the_session(tmp_path: Path) -> None:
    """A 4,400-digit total typed for presja's 4dF ended the session with an internal error (found while adding
    typed dice to the campaign's prompt target)."""
    from rich.console import Console

    from konflikt.cli.table import TableSession
    from konflikt.core.conflict import Conflict
    from konflikt.core.scenario import load_scenario
    from konflikt.sim.runner import seat_policies
    from konflikt.store.db import Store

    scenario = load_scenario("presja/knife_fight")
    store = Store.open(tmp_path / "s.sqlite")
    conflict = Conflict(scenario, {}, 1)
    cid = store.create(conflict)
    answers = iter([HUGE, "-" + HUGE, "+" + "9" * 40, "²", "quit"])
    prompts: list[str] = []

    def ask(prompt: str, secret: bool) -> str:
        prompts.append(prompt)
        return next(answers)

    console = Console(file=open(os.devnull, "w"), width=120)  # noqa: SIM115
    seats = seat_policies(scenario, {})
    state = TableSession(console, store, cid, conflict, [], seats, "table", ask=ask).run()
    assert not state.is_terminal()
    assert prompts == ["roll 4dF › "] * 5
    store.close()


# ---- every exit path -------------------------------------------------------------------------------------------
def test_exit_codes_of_every_path(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    import konflikt.cli.run_command as run_command

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(run_command, "scenario_named", boom)
    result = cli("run", "fimbulfrost/robbers")
    assert result.code == 1 and result.err.count("\n") == 1 and "internal error: RuntimeError: a bug" in result.err

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(run_command, "scenario_named", interrupted)
    result = cli("run", "fimbulfrost/robbers")
    assert result.code == 130 and result.err == "konflikt: stopped\n"


def test_ctrl_c_in_play_says_how_to_resume(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from konflikt.cli.table import TableSession  # the class play_command runs

    def interrupted(self: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(TableSession, "run", interrupted)
    db = tmp_path / "s.sqlite"
    result = cli("play", "fimbulfrost/robbers", "--db", str(db))
    assert result.code == 130
    hint = f"Resume with: konflikt play --resume 1 --db {db}"
    assert result.err == f"konflikt: stopped; every step so far is saved. {hint}\n"
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM sessions").fetchone()[0] == 0
    conn.close()


def test_output_files_that_cannot_be_written(cli: Cli, saved_db: Path, tmp_path: Path) -> None:
    refused(cli("run", "fimbulfrost/robbers", "--save", str(tmp_path)), "cannot write", "that is a folder")
    refused(cli("export", "1", "--db", str(saved_db), "--out", str(tmp_path / "no" / "x.json")), "cannot be written")


def test_output_under_a_file_is_one_line(cli: Cli, tmp_path: Path) -> None:
    """A CSV or a sweep's folder named under a file (no folder can be made there): one line, not an internal error
    from clearing the half-written file that was never made."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    refused(
        cli("sim", "fimbulfrost/robbers", "-n", "50", "--csv", str(blocker / "x.csv")),
        "x.csv: ",
        "a-file is a file, not a folder",
    )
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'scenario = "fimbulfrost/robbers"\nn = 20\nseed = 1\n\n'
        '[[axis]]\nname = "mishaps"\noption = "mishaps"\nvalues = ["always"]\n',
        encoding="utf-8",
    )
    folder = blocker / "sweep"
    refused(cli("sweep", str(spec), "--out", str(folder)), f"cannot write in {folder}: ", "a-file is a file")
    assert blocker.read_text(encoding="utf-8") == "not a folder\n"


def test_found_by_the_campaign(cli: Cli, saved_db: Path, tmp_path: Path, export: dict[str, object]) -> None:
    """A chance step with an outcome of the wrong shape; a save whose steps do not replay; a blob as a title."""
    steps = export["steps"]
    assert isinstance(steps, list)
    chance = next(i for i, s in enumerate(steps) if s["node"] == "@chance")
    steps[chance]["outcome"] = [[1, 2], {"a": 1}, 3]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(export))
    refused(cli("import", str(path), "--db", str(tmp_path / "new.sqlite")), "does not replay")
    conn = sqlite3.connect(saved_db)
    conn.execute('UPDATE steps SET step = \'{"node": "@chance"}\' WHERE conflict_id = 1 AND idx = 0')
    conn.execute("UPDATE conflicts SET title = ? WHERE id = 2", (b"\xff\xfe",))
    conn.commit()
    conn.close()
    before = sha(saved_db)
    refused(cli("play", "--resume", "1", "--db", str(saved_db)), "cannot be resumed")
    assert sha(saved_db) == before
    listed = cli("saves", "--db", str(saved_db), "--json")
    assert listed.code == 0 and json.loads(listed.out)[1]["title"] == "\ufffd\ufffd"


def test_a_ladder_name_too_long_for_a_file_is_one_line(cli: Cli) -> None:
    """Found by the fuzz campaign (option target): ``-o ladder=<300 digits>`` was "internal error: OSError: File
    name too long"; a folder as the ladder is no such file, and the bundled ladder still plays."""
    long_name = cli("run", "presja/knife_fight", "-q", "-o", "ladder=" + "9" * 300)
    assert long_name.code == 2 and "cannot be read (File name too long)" in long_name.err
    assert len(long_name.err.strip().splitlines()) == 1
    folder = cli("run", "presja/knife_fight", "-q", "-o", "ladder=/tmp")
    assert folder.code == 2 and "no such file" in folder.err
    assert cli("run", "presja/knife_fight", "-q", "-o", "ladder=default").code == 0


def test_a_report_whose_out_cannot_be_written_is_refused_before_it_plays(tmp_path: Path) -> None:
    """``report … --out`` under a file: one line before any conflict is played. Asked for 10⁹ conflicts a pairing
    (``--force``: past the budget), a report that checked only at its end would not return within the minute
    allowed here."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "konflikt",
            "report",
            "levald-weapons",
            "-n",
            "1000000000",
            "--force",
            "--out",
            str(blocker / "r"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().count("\n") == 0 and "a-file is a file, not a folder" in done.stderr
    assert blocker.read_text(encoding="utf-8") == "not a folder\n"


def _blocked_run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``konflikt ARGS…`` with ``{blocker}`` in an argument standing for a file where a folder must be; a command that
    checked its output only after its 10⁹ conflicts would not return within the minute allowed here."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    argv = [arg.replace("{blocker}", str(blocker)) for arg in args]
    done = subprocess.run(
        [sys.executable, "-m", "konflikt", *argv], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    return done, blocker


def test_a_sim_whose_csv_cannot_be_written_is_refused_before_it_plays(tmp_path: Path) -> None:
    """``sim … --csv`` under a file: one line before any conflict is played, not after minutes of simulation."""
    done, blocker = _blocked_run(
        tmp_path, "sim", "presja/knife_fight", "-n", "1000000000", "--csv", "{blocker}/rows.csv"
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().count("\n") == 0 and "a-file is a file, not a folder" in done.stderr
    assert blocker.read_text(encoding="utf-8") == "not a folder\n"


def test_a_sweep_whose_out_cannot_be_written_is_refused_before_it_plays(tmp_path: Path) -> None:
    """``sweep … --out`` under a file: one line before any cell is played, not after the whole grid."""
    spec = tmp_path / "big.toml"
    spec.write_text(
        'scenario = "fimbulfrost/robbers"\nn = 1000000000\nseed = 1\n\n'
        '[[axis]]\nname = "mishaps"\noption = "mishaps"\nvalues = ["defeating_roll", "always"]\n',
        encoding="utf-8",
    )
    # --force: over the budget of conflicts, which is refused first otherwise; the folder is still checked first
    done, blocker = _blocked_run(tmp_path, "sweep", str(spec), "--force", "--out", "{blocker}/grid")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().count("\n") == 0 and "a-file is a file, not a folder" in done.stderr
    assert blocker.read_text(encoding="utf-8") == "not a folder\n"


def test_a_run_whose_save_cannot_be_written_is_refused_before_the_first_question(tmp_path: Path) -> None:
    """``run … --save`` under a file with a human seat: one line before the seat is asked, not after a whole
    conflict typed at the terminal (the answer here is nothing: a run that asked first would stop at its prompt)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    save = str(blocker / "conflict.json")
    done = subprocess.run(
        [sys.executable, "-m", "konflikt", "run", "presja/knife_fight", "--policy", "belzee=human", "--save", save],
        capture_output=True,
        text=True,
        input="",
        timeout=60,
    )
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "choose" not in done.stdout, done.stdout[-300:]
    assert done.stderr.strip().count("\n") == 0 and "a-file is a file, not a folder" in done.stderr, done.stderr
    assert blocker.read_text(encoding="utf-8") == "not a folder\n"
