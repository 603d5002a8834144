"""What ``konflikt sim`` shows a designer: every outcome, consequence marginals, length in the system's own unit,
CSV and JSON with a run header that reproduces the numbers."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from konflikt.cli.dice_commands import print_answer
from konflikt.core import ruleset as registry
from konflikt.core.odds import OddsAnswer
from konflikt.core.outcome import fate_parts
from konflikt.core.scenario import load_scenario
from konflikt.sim.engine import simulate
from konflikt.sim.header import read_csv_header
from konflikt.sim.runner import play_scenario
from konflikt.sim.summary import consequence_rows
from tests.conftest import Result

UNITS = {"presja": "exchanges", "fimbulfrost": "rounds", "levald": "rounds"}
"""Each system's own unit of length, as its text counts it (sekwencje walki, runder, rundor)."""


@pytest.mark.parametrize(("ruleset_id", "unit"), sorted(UNITS.items()))
def test_rulesets_declare_their_unit_of_length(ruleset_id: str, unit: str) -> None:
    ruleset = registry.get_ruleset(ruleset_id)
    assert (ruleset.length_unit, ruleset.length_key is not None) == (unit, True)


@pytest.mark.parametrize("engine", ["reference", "vectorised"])
def test_fimbulfrost_length_is_at_most_three_rounds(cli: Callable[..., Result], engine: str) -> None:
    result = cli("sim", "fimbulfrost/robbers", "-n", "400", "--seed", "2", "--engine", engine, "--json")
    assert result.code == 0, result.err
    length = json.loads(result.out)["length"]
    assert length["unit"] == "rounds"
    assert 1 <= length["mean"] <= length["max"] <= 3


def test_presja_length_is_the_narrated_exchange_count() -> None:
    scenario = load_scenario("presja/knife_fight")
    for seed in range(4):
        outcome = play_scenario(scenario, seed).outcome()
        assert f"after {outcome.data['exchanges']} exchange(s)" in outcome.summary
    for engine in ("reference", "vectorised"):
        tally = simulate(scenario, 600, 3, engine=engine).tally
        assert tally.has_rounds()
        exchanges, _ = tally.resource_means()["exchanges"]
        assert tally.length_stats(rounds=True)["mean"] == pytest.approx(exchanges)
        assert tally.length_stats(rounds=True)["max"] <= 30


def test_without_a_unit_the_length_says_steps(cli: Callable[..., Result], tmp_path: Path) -> None:
    """The toy ruleset of the core tests names no unit (every bundled system does: pwge counts actions)."""
    from tests.core.toy import TOY

    assert TOY.length_key is None and registry.get_ruleset("pwge").length_unit == "actions"
    path = tmp_path / "toy.toml"
    sides = "".join(
        f'[[sides]]\nid = "{side}"\n[[sides.participants]]\nid = "{pid}"\npoints = 2\npolicy = "random"\n'
        for side, pid in (("north", "ada"), ("south", "bo"))
    )
    path.write_text(f'ruleset = "toy"\ntitle = "Toy duel"\n{sides}', encoding="utf-8")
    result = cli("sim", str(path), "-n", "200", "--seed", "1", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["length"]["unit"] == "steps"


@pytest.mark.parametrize(
    ("fate", "name", "parts"),
    [
        (
            "conceded; konsekwencje (consequences): mild 'Zmęczony (tired)', moderate 'Powierzchowna rana (wound)'",
            "Belzee",
            ["conceded", "konsekwencje (consequences)", "mild 'Zmęczony (tired)'",
             "moderate 'Powierzchowna rana (wound)'"],
        ),
        ("står (standing), Skråma×1 Allvarlig×2, Omtöckning 43", "Hedda", ["står (standing)", "Skråma", "Allvarlig"]),
        (
            "Kapten Nova: 0 tokens left, -1 body points, worst hit Allvarligt skadad (seriously wounded)",
            "Kapten Nova",
            ["worst hit Allvarligt skadad (seriously wounded)"],
        ),
        (
            "død (dead): Død (death); Rustningen smeltet (Rustningspulje 0) (armour melted (armour pool 0))",
            "Budolf",
            ["død (dead)", "Død (death)", "Rustningen smeltet (Rustningspulje 0) (armour melted (armour pool 0))"],
        ),
    ],
)  # fmt: skip
def test_fate_words_split_into_consequences(fate: str, name: str, parts: list[str]) -> None:
    assert [w for w, _ in fate_parts(fate, name)] == parts
    assert dict(fate_parts("står (standing), Skråma×1 Allvarlig×2", ""))["Allvarlig"] == 2


def test_le_valds_wound_boxes_have_their_english_in_the_fate_rows() -> None:
    """``sim levald/duel`` listed ``Skråma``, ``Lätt``, ``Allvarlig`` bare, the one table without English beside
    its terms: Le våld's ``fate_parts`` names each box as the narration does, with the counts kept."""
    from konflikt.core.ruleset import get_ruleset

    split = get_ruleset("levald").fate_parts
    parts = split("står (standing), Skråma×1 Allvarlig×2, Omtöckning 43", "Hedda")
    assert parts == [("står (standing)", 1), ("Skråma (scratch)", 1), ("Allvarlig (serious)", 2)]


def test_consequence_marginals_are_counted_from_the_whole_fates() -> None:
    scenario = load_scenario("presja/knife_fight")
    tally = simulate(scenario, 2000, 4).tally
    rows = {r["outcome"]: r for r in consequence_rows(scenario, tally)["belzee"]}
    fates = tally.fates["belzee"]
    # the three ways to leave a knife fight partition the conflicts
    assert sum(rows[w]["count"] for w in ("standing", "taken out", "conceded") if w in rows) == tally.n
    for word in ("mild 'Zmęczony (tired)'", "conceded"):
        having = sum(c for fate, c in fates.items() if word in fate)
        assert rows[word]["count"] == having
        assert rows[word]["expected"] == pytest.approx(having / tally.n)
        assert rows[word]["ci95"][0] <= rows[word]["p"] <= rows[word]["ci95"][1]


def test_sim_csv_has_the_header_and_every_group(cli: Callable[..., Result], tmp_path: Path) -> None:
    out = tmp_path / "knife.csv"
    result = cli("sim", "presja/knife_fight", "-n", "500", "--seed", "9", "-o", "max_exchanges=4", "--csv", str(out))
    assert result.code == 0, result.err
    text = out.read_text()
    header = read_csv_header(text)
    assert header["seed"] == 9 and header["n"] == 500 and header["overrides"] == {"max_exchanges": "4"}
    assert header["options"]["max_exchanges"] == 4 and header["scenario"] == "presja/knife_fight"
    assert len(header["digest"]) == 16 and header["konflikt"]
    rows = list(csv.DictReader(io.StringIO(text.split("\n", 1)[1])))
    groups = Counter(r["group"] for r in rows)
    assert {"winner", "ending", "consequence", "fate", "length"} <= set(groups)
    winners = [r for r in rows if r["group"] == "winner"]
    assert {r["outcome"] for r in winners} == {"Belzee", "Massimo", "nobody"}
    assert sum(float(r["p"]) for r in winners) == pytest.approx(1, abs=1e-12)
    assert float(next(r for r in winners if r["outcome"] == "nobody")["p"]) > 0.3  # four exchanges: the cap decides
    # the header reproduces the numbers
    again = cli("sim", header["scenario"], "-n", str(header["n"]), "--seed", str(header["seed"]),
                *[f"-o{k}={v}" for k, v in header["overrides"].items()], "--json")  # fmt: skip
    assert json.loads(again.out)["winners"] == json.loads(json.dumps(_rows_of(winners)))
    assert "whole fate" not in result.out and "chance of each consequence" in result.out


def _rows_of(winners: list[dict[str, str]]) -> list[dict[str, object]]:
    return [
        {"outcome": r["outcome"], "count": int(r["count"]), "p": float(r["p"]),
         "ci95": [float(r["ci95_low"]), float(r["ci95_high"])]}
        for r in winners
    ]  # fmt: skip


def test_fates_flag_shows_whole_fates(cli: Callable[..., Result]) -> None:
    result = cli("sim", "fimbulfrost/robbers", "-n", "200", "--seed", "1", "--fates")
    assert result.code == 0 and "whole fate (combinations)" in result.out


def test_a_csv_path_that_is_a_folder_is_one_line(cli: Callable[..., Result], tmp_path: Path) -> None:
    result = cli("sim", "presja/knife_fight", "-n", "10", "--csv", str(tmp_path))
    assert result.code == 2 and result.err.count("\n") == 1


def test_exact_numbers_read_well(capsys: pytest.CaptureFixture[str]) -> None:
    long = Fraction(2**190 + 7, 3**120)
    answer = OddsAnswer("q", "winner", [("a", long), ("b", 1 - long)], probabilities={"mean": Fraction(9)})
    print_answer(answer, as_json=False)
    out = capsys.readouterr().out
    assert "mean: 9\n" in out and "≈ 9" not in out
    assert f"{float(long):.5f}" in out and "digit q" not in out and "--exact" in out
    print_answer(answer, as_json=False, exact=True)
    assert str(long.numerator)[:20] in capsys.readouterr().out.replace("\n", "").replace("│", "").replace(" ", "")
    print_answer(answer, as_json=True)
    assert json.loads(capsys.readouterr().out)["outcomes"]["a"] == f"{long.numerator}/{long.denominator}"
