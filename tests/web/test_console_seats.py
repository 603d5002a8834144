"""The seats form knows the scenario: each seat starts as the scenario sets it, every policy is explained in one line
(from the policy's own docstring), and join links are offered only for the seats a person plays, never the GM's."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from konflikt.core.ruleset import POLICIES, entry_points
from konflikt.core.scenario import load_scenario
from konflikt.core.state import GM
from tests.web.helpers import ADMIN, new_table, serving


def selected(page: str, seat: str) -> str:
    """The option a seat's select starts with on the seats form."""
    block = page.split(f'name="policy:{seat}"', 1)[1].split("</select>", 1)[0]
    match = re.search(r'<option value="([^"]+)" selected>', block)
    assert match is not None, block
    return match.group(1)


def test_the_seats_start_as_the_scenario_sets_them_and_every_policy_is_explained(tmp_path: Path) -> None:
    scenario = load_scenario("fimbulfrost/robbers")
    with serving(tmp_path / "k.sqlite") as (client, _):
        page = client.get(f"/console/{ADMIN}/new", params={"scenario": "fimbulfrost/robbers"}).text
    for participant in scenario.participants():
        assert selected(page, participant.id) == participant.policy  # not "human" for the robbers
    assert selected(page, GM) == scenario.gm
    # each searching policy's line is the first sentence of the docstring of the module its maker lives in
    for name, point in entry_points(POLICIES).items():
        doc = importlib.import_module(point.module).__doc__ or ""
        first = " ".join(doc.split("\n\n")[0].split()).split(". ")[0].rstrip(".").replace("``", "")
        assert f"<dt>{name}</dt><dd>{first}" in page.replace("&#39;", "'"), name
    heuristic = scenario.ruleset.policies["heuristic"].__doc__ or ""
    assert f"<dt>heuristic</dt><dd>{heuristic.strip().splitlines()[0].rstrip('.')}" in page
    assert "<dt>human</dt><dd>A person plays" in page


def test_join_links_only_for_the_seats_people_play_never_the_gms_own(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "fimbulfrost/robbers", ("budolf", "rudolf"))
        gm_page = client.get(f"/t/{cid}/{tokens[GM]}").text
        links = gm_page.split('id="join-links"', 1)[1].split("</section>", 1)[0]
    assert f"/t/{cid}/{tokens['budolf']}" in links and f"/t/{cid}/{tokens['rudolf']}" in links
    assert tokens["roeverne"] not in links  # the robbers are played by the heuristic: no link to send anyone
    assert tokens[GM] not in links
