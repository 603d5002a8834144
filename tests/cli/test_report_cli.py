"""``konflikt report``: the reports come from the rulesets' registry, run, and refuse bad input in one line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from konflikt.core.ruleset import all_rulesets
from konflikt.errors import KonfliktError
from konflikt.reports import all_reports, find_report
from tests.conftest import Result
from tests.core.test_layers import SRC, imports_of, module_name


def rank_correlation(x: list[float], y: list[float]) -> float:
    """Spearman's rho written out independently of the report: Pearson's r of average ranks (ties share a rank)."""

    def ranks(values: list[float]) -> list[float]:
        return [sum(v < u for v in values) + (sum(v == u for v in values) + 1) / 2 for u in values]

    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    return float(cov / (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5)


def registered() -> list[str]:
    """Every report as the registry has it, read off the rulesets directly."""
    return sorted(f"{r.id}-{name}" for r in all_rulesets() for name in r.reports)


def test_the_rulesets_register_their_reports() -> None:
    assert registered() == [
        "fimbulfrost-choices",
        "fimbulfrost-opponents",
        "levald-choices",
        "levald-weapons",
        "presja-choices",
        "pwge-choices",
    ]
    assert [f.key for f in all_reports()] == registered()
    found = find_report("levald-weapons")
    assert (found.ruleset.id, found.report.name) == ("levald", "weapons")
    known = r"\(known: fimbulfrost-choices, fimbulfrost-opponents, levald"
    with pytest.raises(KonfliktError, match=r"unknown report 'levald-nope' " + known):
        find_report("levald-nope")


def test_report_help_and_the_list_come_from_the_registry(cli: Callable[..., Result]) -> None:
    helped = cli("report", "--help")
    listed = cli("report")
    assert helped.code == listed.code == 0, helped.err + listed.err
    for found in all_reports():
        assert found.key in helped.out
        assert f"{found.key}: {found.report.title}" in " ".join(listed.out.split())
    one = cli("report", "levald-weapons", "--help")
    assert one.code == 0
    text = " ".join(one.out.split())
    assert "Bradley–Terry" in text and "[default: 40,60,80]" in text and "[default: 2000]" in text


def test_the_report_machinery_names_no_ruleset() -> None:
    """``konflikt.reports`` finds its reports through the registry: no module of it imports a ruleset."""
    for path in sorted((SRC / "konflikt" / "reports").rglob("*.py")):
        found = imports_of(module_name(path), path.read_text(encoding="utf-8"), path.name == "__init__.py")
        assert [name for name in found if name.startswith("konflikt.rulesets")] == [], path


def test_levald_weapon_report_json(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("report", "levald-weapons", "-n", "20", "--skills", "60", "--out", str(tmp_path), "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    fit = data["by_level"]["60"]
    ratings = fit["ratings"]
    assert len(ratings) == 6 and set(fit["mirrors"]) == set(ratings)
    assert abs(sum(r["rating"] for r in ratings.values())) < 1e-9
    bra = {w["name"]: w["reference"] for w in data["entrants"] if w["reference"] is not None}
    rated = sorted(bra)
    assert fit["spearman"] == pytest.approx(
        rank_correlation([ratings[w]["rating"] for w in rated], [bra[w] for w in rated])
    )
    assert data["run"]["command"] == "report levald-weapons" and data["run"]["seed"] == 1
    assert (tmp_path / "levald_weapons.png").stat().st_size > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("levald-weapons", "--skills", "sixty"), "--levels takes whole numbers separated by commas, not 'sixty'"),
        (("levald-weapons", "--levels", "0,60"), "--levels takes levels from 1 to 200, not '0,60'"),
        (("fimbulfrost-opponents", "--levels", "99"), "--levels takes levels from 1 to 30, not '99'"),
        (
            ("presja-knives",),
            "unknown report 'presja-knives' (known: fimbulfrost-choices, fimbulfrost-opponents, levald-choices, "
            "levald-weapons, presja-choices, pwge-choices)",
        ),
    ],
)
def test_bad_input_is_one_line(cli: Callable[..., Result], tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = cli("report", *args, "--out", str(tmp_path))
    assert result.code == 2
    assert result.err == f"konflikt: error: {message}\n"
    assert not list(tmp_path.iterdir())


def test_the_ladder_s_table_keeps_every_word_when_piped(cli: Callable[..., Result], tmp_path: Path) -> None:
    """Piped (80 columns), the opponents' table cut its cells to ``Røver…``, ``Omdøm…``, ``Budo…``: a designer could
    not tell the opponents apart. Every cell is folded instead, as the other tables do."""
    result = cli("report", "fimbulfrost-opponents", "-n", "20", "--out", str(tmp_path))
    assert result.code == 0, result.err
    table = [line for line in result.out.splitlines() if line.startswith(("│", "┃"))]
    assert table and not [line for line in table if "…" in line], "\n".join(table[:6])
