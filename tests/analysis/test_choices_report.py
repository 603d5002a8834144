"""The "is there a dominant choice?" report (``konflikt report presja-choices`` / ``fimbulfrost-choices``) on the
fimbulfrost toy of ``test_optimal_fimbulfrost``: options counted under optimal play, with their alternatives' cost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from konflikt.analysis.optimal_policy import _SOLVERS
from konflikt.core.reports import Choices
from konflikt.reports import find_report
from konflikt.reports.choices import scenario_choices
from konflikt.rulesets.fimbulfrost.reports import choice_group
from konflikt.rulesets.presja.kernel_exchange import Decl
from konflikt.rulesets.presja.reports import CONCEDE
from konflikt.rulesets.presja.reports import choice_group as presja_group
from tests.analysis.test_optimal_fimbulfrost import TOY_TOML


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONFLIKT_CACHE", str(tmp_path / "cache"))
    _SOLVERS.clear()


def toy_report(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "toy.toml"
    path.write_text(TOY_TOML, encoding="utf-8")
    return scenario_choices(str(path), Choices((str(path),), choice_group, "the toy"))


def test_dominant_choices_of_the_toy_and_each_kinds_shares(tmp_path: Path) -> None:
    data = toy_report(tmp_path)
    assert data["method"] == "optimal"
    rows = {(r["kind"], r["option"]): r for r in data["rows"]}
    # describing all three areas is dominant: always chosen, and anything less costs the heroes
    three = rows[("Stil, Stunt og Snak (round-2 areas)", "3 area(s)")]
    assert three["share"] == pytest.approx(1.0) and three["alternative_cost_pp"] > 1
    # Åsa is presented by her friend (Omdømme dice, not Omdømme − 1): dominant too
    friend = rows[("præsentation (presenting)", "af (by) bo")]
    assert friend["share"] == pytest.approx(1.0) and friend["alternative_cost_pp"] > 1
    # the optimal option never costs anything against its alternatives, and each kind's shares add up to one
    assert all(r["alternative_cost_pp"] >= -1e-9 for r in data["rows"])
    for kind in {r["kind"] for r in data["rows"]}:
        assert sum(r["share"] for r in data["rows"] if r["kind"] == kind) == pytest.approx(1.0)
    # the round-1 split is no dominant choice: both options are optimal somewhere
    split = [r for r in data["rows"] if r["kind"] == "fordeling (round-1 split)"]
    assert len(split) == 2 and all(0.05 < r["share"] < 0.95 for r in split)


def test_a_scenario_out_of_reach_is_named_not_estimated() -> None:
    data = scenario_choices("levald/duel", Choices(("levald/duel",), choice_group, "x"))
    assert data["method"] == "none" and "out of reach" in data["note"]


def test_the_reports_are_registered_and_group_presja_declarations() -> None:
    assert find_report("presja-choices").report.content.concede == CONCEDE  # type: ignore[union-attr]
    assert find_report("fimbulfrost-choices").report.content.scenarios == ("fimbulfrost/robbers",)  # type: ignore[union-attr]
    assert presja_group(Decl("concede", "none", -1)) == ("deklaracja (declaration)", CONCEDE)
    _, option = presja_group(Decl("attack", "offensive", -1)) or ("", "")
    assert option == "atak (attack), taktyka zaczepna"
    assert presja_group("pass") is None


def test_a_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    """``--out`` under a file: the report's one line (cannot write …), not an internal error from ``mkdir``."""
    from konflikt.core.reports import Report
    from konflikt.errors import KonfliktError
    from konflikt.reports.choices import choices_report

    path = tmp_path / "toy.toml"
    path.write_text(TOY_TOML, encoding="utf-8")
    report = Report("choices", "the toy", "", Choices((str(path),), choice_group, "the toy"))
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    with pytest.raises(KonfliktError, match=r"cannot write .*choices\.csv: .*a-file is a file, not a folder"):
        choices_report(report, blocker / "out")
    written = choices_report(report, tmp_path / "out")
    assert written["files"] == [str(tmp_path / "out" / "choices.csv")]
    assert (tmp_path / "out" / "choices.csv").read_text(encoding="utf-8").startswith("scenario,kind,option,share,")
