"""A sweep's what-ifs: an axis path by participant id (``budolf.status``) is the positional one; ``set`` in the spec
and ``konflikt sweep --set`` change the base scenario before the axes, as ``--set`` does elsewhere."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from konflikt.core.scenario import find_scenario, read_toml
from konflikt.sim.sweep import cell_job, load_spec, set_path
from tests.conftest import Result

SPEC = """
scenario = "fimbulfrost/robbers"
n = 200
seed = 4
set = ["rudolf.omdomme=2"]

[[axis]]
name = "budolf_status"
path = "budolf.status"
values = [3, 6]
"""


def test_an_axis_path_by_id_is_the_positional_path() -> None:
    base = read_toml(find_scenario("fimbulfrost/robbers"))
    by_id = json.loads(json.dumps(base))
    by_position = json.loads(json.dumps(base))
    set_path(by_id, "budolf.status", 3)
    set_path(by_position, "sides[0].participants[0].status", 3)
    assert by_id == by_position


def test_the_spec_s_set_and_the_command_line_s_apply_before_the_axes(
    tmp_path: Path, cli: Callable[..., Result]
) -> None:
    spec_path = tmp_path / "spec.toml"
    spec_path.write_text(SPEC, encoding="utf-8")
    spec = load_spec(spec_path)
    source = str(find_scenario(spec.scenario))
    job = cell_job(spec, read_toml(find_scenario(spec.scenario)), source, {"budolf_status": 3})
    budolf, rudolf = job["document"]["sides"][0]["participants"]
    assert (budolf["status"], rudolf["omdomme"]) == (3, 2)

    result = cli("sweep", str(spec_path), "--out", str(tmp_path / "out"), "--json", "--set", "roeverne.kamp=1")
    assert result.code == 0, result.err
    rows = json.loads(result.out)["rows"]
    assert [r["budolf_status"] for r in rows] == [3, 6]
    refused = cli("sweep", str(spec_path), "--out", str(tmp_path / "out2"), "--set", "roeverne.kam=1")
    assert refused.code == 2 and "did you mean 'roeverne.kamp'" in refused.err
    assert not (tmp_path / "out2").exists()
