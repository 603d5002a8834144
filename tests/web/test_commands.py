"""``konflikt bench --serve`` runs a real server on loopback, stops by itself and prints the latency table."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from konflikt.web.serve import banner
from tests.conftest import Result
from tests.web.helpers import ADMIN, new_table, serving


def test_bench_serve_reports_latency_percentiles_and_stops_by_itself(cli: Callable[..., Result]) -> None:
    result = cli("bench", "--serve", "--tables", "2", "--seconds", "4", "--scenario", "presja/skirmish", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    [run] = data["runs"]
    # skirmish has five participants: three play on their pages, the GM's page is the fourth
    assert run["scenario"] == "presja/skirmish" and run["tables"] == 2 and run["pages"] == 8
    assert run["seconds"] <= 6 and run["steps"] > 0 and run["refused"] == 0
    assert 0 < run["p50_ms"] <= run["p95_ms"] <= run["p99_ms"] <= run["max_ms"]
    assert run["server_cpu_ms_per_step"] > 0 and run["server_peak_rss_mb"] > 0
    assert len(run["load_average_before"]) == len(run["load_average"]) == 3 and "cores" in data["machine"]


def test_bench_serve_restarts_a_finished_conflict_and_fills_seats_with_watchers(cli: Callable[..., Result]) -> None:
    """A duel has two players: with five pages a table, two more watch on the GM's link; a finished duel is undone
    to its start by the GM's page and played again, so the load stays steady for the whole run."""
    result = cli(
        "bench", "--serve", "--tables", "1", "--seats", "5", "--seconds", "6", "--scenario", "levald/duel", "--json"
    )
    assert result.code == 0, result.err
    [run] = json.loads(result.out)["runs"]
    assert run["pages"] == 5 and run["refused"] == 0 and run["steps"] > 0 and run["finished"] >= 1


def test_bench_serve_long_log_measures_a_table_at_its_start_and_after_a_thousand_steps(
    cli: Callable[..., Result],
) -> None:
    """``--long-log``: one duel at its start, then one whose log is 1,000 steps long, each played for the run's
    seconds with the GM keeping it going (no undo to the start, no fighter leaving): both measured, neither ended.
    The numbers themselves are the report's, not the test's."""
    result = cli(
        "bench", "--serve", "--long-log", "--tables", "1", "--seconds", "3", "--scenario", "levald/duel", "--json"
    )
    assert result.code == 0, result.err
    long = json.loads(result.out)["long_log"]
    assert long["grown_to_step"] >= 1000 and long["after_end_step"] > long["grown_to_step"]
    assert long["start_end_step"] < 1000 and not long["start_ended"] and not long["after_ended"]
    assert long["start_taps"] > 0 and long["after_taps"] > 0 and long["start_p95_ms"] > 0 and long["after_p95_ms"] > 0
    assert cli("bench", "--long-log").err == "konflikt: error: --long-log goes with --serve\n"


def test_bench_serve_refuses_a_silly_size(cli: Callable[..., Result]) -> None:
    result = cli("bench", "--serve", "--tables", "0")
    assert result.code == 2 and result.err == "konflikt: error: --tables 0: from 1 to 500\n"
    result = cli("bench", "--serve", "--seats", "1")
    assert result.code == 2 and "--seats 1: from 2 to 8" in result.err
    result = cli("bench", "--serve", "--scenario", "levald/nope")
    assert result.code == 2 and result.err.count("\n") == 1 and "not a bundled scenario" in result.err


def test_bench_refuses_options_of_another_bench_in_one_line(cli: Callable[..., Result]) -> None:
    """``--tables`` without ``--serve`` (or two benches at once) is refused at once, not ignored while the whole
    bench runs for minutes."""
    for args, words in (
        (("--startup", "--memory"), "one of --startup, --memory and --serve at a time"),
        (("--tables", "5"), "--tables goes with --serve"),
        (("--seconds", "4", "--scenario", "levald/duel"), "--seconds goes with --serve"),
        (("--serve", "--startup"), "one of --startup, --memory and --serve at a time"),
    ):
        result = cli("bench", *args)
        assert result.code == 2 and result.err == f"konflikt: error: {words}\n", (args, result.err)


def test_serve_refuses_bad_options_in_one_line(cli: Callable[..., Result]) -> None:
    result = cli("serve", "--port", "0")
    assert result.code == 2 and result.err == "konflikt: error: --port 0: a port is a number from 1 to 65535\n"
    result = cli("serve", "--host", "my laptop")
    assert result.code == 2 and "give an IP address such as 127.0.0.1 or 0.0.0.0" in result.err


def test_serving_on_the_lan_prints_a_warning_and_every_open_table_s_join_links(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    with serving(db) as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("snurre", "hedda"))
    lines = banner("0.0.0.0", 8123, db)
    assert lines[1].startswith("GM console: http://") and lines[1].endswith(f":8123/console/{ADMIN}")
    assert lines[2].startswith("warning: listening beyond this machine")
    assert any(line.endswith(f"/t/{cid}/{tokens['hedda']}") and "hedda" in line for line in lines)
    with serving(db) as (client, _):
        robbers, robber_tokens = new_table(client, "fimbulfrost/robbers", ("budolf",))
    lines = banner("0.0.0.0", 8123, db)
    assert any(line.endswith(f"/t/{robbers}/{robber_tokens['budolf']}") for line in lines)
    for bot in ("rudolf", "roeverne"):  # played by the heuristic: no link to send anyone
        assert not any(robber_tokens[bot] in line for line in lines)
    local = banner("127.0.0.1", 8123, db)
    assert len(local) == 2 and not any(tokens["hedda"] in line for line in local)


def test_a_port_in_use_is_one_line_before_the_banner(cli: Callable[..., Result], tmp_path: Path) -> None:
    """Another program (or another ``konflikt serve``) listens on the port: one line and exit 2, not uvicorn's
    log line and exit code 3 after a GM console link that leads nowhere."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("serve", "--port", str(port), "--db", str(tmp_path / "k.sqlite"))
    assert result.code == 2, (result.code, result.err)
    assert result.err == (
        f"konflikt: error: cannot listen on 127.0.0.1:{port}: the port is in use (another program, or another "
        "konflikt serve, is listening there): choose another with --port\n"
    )
    assert "GM console" not in result.out


def test_serve_prints_its_banner_and_no_library_warning(tmp_path: Path) -> None:
    """What the GM sees on starting the table: the banner, and no Python warning of uvicorn's about the WebSocket
    implementation konflikt chose (``docs/table.md``: the measured one)."""
    from konflikt.web.bench import free_port, start_server

    proc, console = start_server(tmp_path / "k.sqlite", free_port())
    try:
        assert "/console/" in console
    finally:
        proc.terminate()
        rest, _ = proc.communicate(timeout=30)
    assert "Warning" not in rest and "warnings.warn" not in rest, rest
