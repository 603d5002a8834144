"""``konflikt compare A B [C…]``: each variant's odds side by side with the change against the first.

Two option sets compared give exactly the numbers of two ``odds`` runs (the same fractions), and each change is
their difference; out of exact reach each column is estimated and each change has Newcombe's 95% interval.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from konflikt.cli.compare_command import Own, difference_interval, parse_variants
from konflikt.errors import KonfliktError
from tests.conftest import Result

ROBBERS = "fimbulfrost/robbers"


def test_two_option_sets_compared_are_two_odds_runs(cli: Callable[..., Result]) -> None:
    compared = cli("compare", ROBBERS, "-o", "buy_back=false", f"{ROBBERS} -o buy_back=true", "--exact", "--json")
    assert compared.code == 0, compared.err
    data = json.loads(compared.out)
    runs = [cli("odds", ROBBERS, "-o", f"buy_back={m}", "--exact", "--json") for m in ("false", "true")]
    a, b = (json.loads(r.out) for r in runs)
    assert [v["options"] for v in data["variants"]] == [["buy_back=false"], ["buy_back=true"]]
    assert all(v["exact"] for v in data["variants"])
    assert {k: row["p"] for k, row in data["winner"].items()} == {
        k: [a["outcomes"][k], b["outcomes"][k]] for k in a["outcomes"]
    }
    endings = {k: row["p"] for k, row in data["ending"].items()}
    assert endings == {k: [a["distributions"]["ending"][k], b["distributions"]["ending"][k]] for k in endings}
    for k, row in data["winner"].items():
        assert Fraction(row["difference"][0]) == Fraction(b["outcomes"][k]) - Fraction(a["outcomes"][k])
    assert a["outcomes"] != b["outcomes"]  # the options matter here


def test_the_table_shows_each_column_and_the_change(cli: Callable[..., Result], tmp_path: Path) -> None:
    plot = tmp_path / "compare.png"
    result = cli("compare", ROBBERS, ROBBERS, "--set", "budolf.status=2", "--plot", str(plot))
    assert result.code == 0, result.err
    assert "A: fimbulfrost/robbers  (exact)" in result.out
    assert "B: fimbulfrost/robbers --set budolf.status=2  (exact)" in result.out
    assert "B − A" in result.out and " pp" in result.out and "Heltene" in result.out
    assert plot.stat().st_size > 1000 and "wrote" in result.err


def test_out_of_exact_reach_each_change_has_a_95_percent_interval(cli: Callable[..., Result]) -> None:
    result = cli("compare", f"{ROBBERS} --set budolf.status=2", ROBBERS, "--max-states", "5", "-n", "2000", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert all(v["estimated"] and v["n"] == 2000 for v in data["variants"])
    heroes = data["winner"]["Heltene (the heroes)"]
    (low, high), difference = heroes["difference_ci95"][0], heroes["difference"][0]
    assert low < difference < high and high - low < 0.1


def test_newcombe_s_interval_for_a_difference() -> None:
    # Newcombe (1998), method 10, his example (a): 56/70 against 48/80, difference 0.2000, 95% CI 0.0524 to 0.3339
    low, high = difference_interval(Fraction(48, 80), 80, Fraction(56, 70), 70) or (0, 0)
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)
    assert difference_interval(Fraction(1, 2), None, Fraction(1, 3), None) is None  # both exact: no interval
    low, high = difference_interval(0.5, None, 0.6, 1000) or (0, 0)  # one exact side: the other's Wilson interval
    assert low == pytest.approx(0.5693 - 0.5, abs=1e-4) and high == pytest.approx(0.6299 - 0.5, abs=1e-4)


def test_each_variant_quoted_or_not_reads_the_same() -> None:
    quoted = parse_variants(
        ["levald/duel", "levald/duel --set 'hedda.skills.Enhandsvapen plus sköld=60' -o x=1"], Own()
    )
    bare = parse_variants(
        ["levald/duel", "levald/duel", "--set", "hedda.skills.Enhandsvapen plus sköld=60", "-o", "x=1"], Own()
    )
    assert quoted == bare
    assert bare[1].settings == ["hedda.skills.Enhandsvapen plus sköld=60"] and bare[1].option == ["x=1"]
    own = Own()
    parse_variants(["a/b", "--json", "c/d", "--plot=x.png", "-n", "100"], own)
    assert own.as_json and own.plot == Path("x.png") and own.n == 100


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["levald/duel"], "compare needs two or more scenarios"),
        (["--set", "a=1", "levald/duel"], "before any scenario"),
        (["levald/duel", "levald/duel", "--sett", "a=1"], "unknown option '--sett' (did you mean '--set'?)"),
        (["levald/duel", "levald/duel", "--set"], "--set needs a value"),
    ],
)
def test_words_that_make_no_comparison_are_refused(words: list[str], expected: str) -> None:
    with pytest.raises(KonfliktError, match=expected.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        parse_variants(words, Own())


def test_a_bad_variant_is_named_in_one_line(cli: Callable[..., Result]) -> None:
    result = cli("compare", ROBBERS, f"{ROBBERS} --set budolf.statsu=2")
    assert result.code == 2 and result.err.count("\n") == 1
    assert "compare B (fimbulfrost/robbers --set budolf.statsu=2)" in result.err
    assert "did you mean 'budolf.status'" in result.err
