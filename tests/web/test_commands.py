"""``konflikt bench --serve`` runs a real server on loopback, stops by itself and prints the latency table."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from konflikt.web.serve import banner
from tests.conftest import Result
from tests.web.helpers import ADMIN, new_table, serving


def test_bench_serve_reports_latency_percentiles_and_stops_by_itself(cli: Callable[..., Result]) -> None:
    result = cli("bench", "--serve", "--tables", "2", "--seconds", "4", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["tables"] == 2 and data["pages"] == 8 and data["seconds"] <= 6
    assert data["steps"] > 0 and data["refused"] == 0
    assert 0 < data["p50_ms"] <= data["p95_ms"] <= data["p99_ms"] <= data["max_ms"]


def test_bench_serve_refuses_a_silly_size(cli: Callable[..., Result]) -> None:
    result = cli("bench", "--serve", "--tables", "0")
    assert result.code == 2 and result.err == "konflikt: error: --tables 0: from 1 to 500\n"


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
    local = banner("127.0.0.1", 8123, db)
    assert len(local) == 2 and not any(tokens["hedda"] in line for line in local)
