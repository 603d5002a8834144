"""The ``advise`` panel of the browser table: the GM's for every deciding seat; a player's own, only once the GM
allows it; never a word of another seat's secret choice (the advice is the same whatever that choice was)."""

from __future__ import annotations

from pathlib import Path

import pytest

import konflikt.web.advise as web_advise
from konflikt.analysis.optimal_policy import _SOLVERS
from konflikt.core.state import GM
from tests.web.helpers import frame, new_table, post, serving


@pytest.fixture(autouse=True)
def _small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_advise, "ITERATIONS", 8)  # a short search: what is tested is who sees what
    monkeypatch.setenv("KONFLIKT_CACHE", str(tmp_path / "cache"))
    _SOLVERS.clear()


def test_the_gm_sees_advice_a_player_only_when_allowed_and_only_his_own(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("hedda", "snurre"))
        gm = frame(client, cid, tokens[GM])
        assert [s["seat"] for s in gm["advice"]["seats"]] == ["snurre", "hedda"]
        assert 'id="advice"' in gm["html"] and "Let the players see advice" in gm["html"]
        hedda = frame(client, cid, tokens["hedda"])
        assert hedda["advice"] is None and 'id="advice"' not in hedda["html"]
        code, refused = post(client, cid, tokens["hedda"], {"type": "advise"})
        assert code == 400 and "advice is for the GM" in refused["error"]
        code, refused = post(client, cid, tokens["hedda"], {"type": "advise_players"})
        assert code == 400 and "only the GM" in refused["error"]

        code, _ = post(client, cid, tokens[GM], {"type": "advise", "seat": "hedda"})
        assert code == 200
        answer = frame(client, cid, tokens[GM])["advice"]["seats"][1]["answer"]
        assert answer["method"] == "mcts" and len(answer["rows"]) == 4
        percents = [r["percent"] for r in answer["rows"]]
        assert percents == sorted(percents, reverse=True)
        assert frame(client, cid, tokens["hedda"])["advice"] is None  # the GM's answer is not the player's to see

        post(client, cid, tokens[GM], {"type": "advise_players"})
        hedda = frame(client, cid, tokens["hedda"])
        assert [s["seat"] for s in hedda["advice"]["seats"]] == ["hedda"]
        assert 'id="advice"' in hedda["html"] and "Advise Snurre" not in hedda["html"]
        code, refused = post(client, cid, tokens["hedda"], {"type": "advise", "seat": "snurre"})
        assert code == 400 and "your own seat" in refused["error"]
        post(client, cid, tokens[GM], {"type": "advise_gm_only"})
        assert frame(client, cid, tokens["hedda"])["advice"] is None


def test_advice_never_reads_another_seats_secret_choice(tmp_path: Path) -> None:
    """Snurre chooses his marker in secret, Avancera at one table and Retirera at the other: Hedda's advice (and
    the GM's for her) is the same at both, and her page never names his choice."""
    seen = []
    for choice in (0, 2):
        with serving(tmp_path / f"t{choice}.db") as (client, _):
            cid, tokens = new_table(client, "levald/duel", ("hedda", "snurre"))
            code, _ = post(client, cid, tokens["snurre"], {"type": "act", "step": 0, "choice": choice})
            assert code == 200
            post(client, cid, tokens[GM], {"type": "advise_players"})
            code, _ = post(client, cid, tokens["hedda"], {"type": "advise"})
            assert code == 200
            hedda = frame(client, cid, tokens["hedda"])
            assert [s["seat"] for s in hedda["advice"]["seats"]] == ["hedda"]
            answer = hedda["advice"]["seats"][0]["answer"]
            assert answer["method"] == "mcts"
            assert "snurre" not in str(answer).lower().replace("from what hedda", "")
            gm = frame(client, cid, tokens[GM])["advice"]
            assert [s["seat"] for s in gm["seats"]] == ["hedda"]  # Snurre has chosen: no decision left
            assert gm["seats"][0]["answer"] == answer
            seen.append(answer)
    assert seen[0] == seen[1]
