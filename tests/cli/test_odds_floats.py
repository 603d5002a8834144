"""``konflikt odds SCENARIO`` in floats by default, in Fractions with ``--exact``: the same answer, every float within
the answer's stated relative bound of its Fraction (issue 21). A compact model computes the floats itself; the
State-API solver has only Fractions, so its floats are those Fractions rounded once each (within 2⁻⁵³)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from fractions import Fraction

import pytest

from konflikt.analysis.compact import UNIT_ROUNDOFF
from konflikt.analysis.questions import whole_conflict_answer
from konflikt.core.conflict import new_state
from konflikt.core.odds import OddsAnswer
from konflikt.core.scenario import Scenario, load_scenario, scenario_from_document
from konflikt.sim.runner import seat_policies
from tests.conftest import Result
from tests.core.toy import DOCUMENT


def both_ways(scenario: Scenario) -> tuple[OddsAnswer, OddsAnswer]:
    seats = seat_policies(scenario)
    floats = whole_conflict_answer(scenario, new_state(scenario), seats, exact=False)
    fractions = whole_conflict_answer(scenario, new_state(scenario), seats, exact=True)
    return floats, fractions


def assert_within_bound(floats: OddsAnswer, fractions: OddsAnswer) -> None:
    """Every number shown in floats is a float within ``floats.error_bound`` (relative) of the same row's Fraction,
    and the two answers show the same rows."""
    bound = floats.error_bound
    assert bound is not None and fractions.error_bound is None and 0 < bound < 1e-9
    tables = [(floats.outcomes, fractions.outcomes)]
    tables += [(floats.distributions[name], rows) for name, rows in fractions.distributions.items()]
    tables.append((list(floats.probabilities.items()), list(fractions.probabilities.items())))
    assert set(floats.distributions) == set(fractions.distributions)
    checked = 0
    for float_rows, exact_rows in tables:
        exact = dict(exact_rows)
        assert {k for k, _ in float_rows} == set(exact)
        for key, q in float_rows:
            p = exact[key]
            assert isinstance(q, float) and isinstance(p, Fraction), key
            assert abs(Fraction(q) - p) <= Fraction(bound) * p, (key, q, p)
            checked += 1
    assert checked > 5


@pytest.mark.parametrize(
    "name",
    [
        "fimbulfrost/robbers",
        "fimbulfrost/dragon",
        pytest.param("presja/knife_fight", marks=pytest.mark.slow),
        pytest.param("pwge/duel", marks=pytest.mark.slow),
    ],
)
def test_floats_are_within_their_stated_bound_of_the_fractions(name: str) -> None:
    floats, fractions = both_ways(load_scenario(name))
    assert_within_bound(floats, fractions)
    assert "computed in floats" in floats.notes[0] and "exact fractions" in fractions.notes[0]


def test_the_state_api_solver_has_no_float_path_and_says_so() -> None:
    """The toy duel has no compact model: the floats are the State-API solver's Fractions, each the nearest float
    (within 2⁻⁵³), and the note says the solver has no float path."""
    doc = copy.deepcopy(DOCUMENT)
    doc["options"] = {"max_rounds": 6}
    floats, fractions = both_ways(scenario_from_document(doc, "toy.toml"))
    assert floats.error_bound == UNIT_ROUNDOFF
    assert_within_bound(floats, fractions)
    assert all(q == float(p) for (_, q), (_, p) in zip(floats.outcomes, fractions.outcomes, strict=True))
    assert "which has no float path" in floats.notes[0]


def test_the_json_says_floats_with_their_bound_or_exact_fractions(cli: Callable[..., Result]) -> None:
    floats = cli("odds", "fimbulfrost/robbers", "--json")
    exact = cli("odds", "fimbulfrost/robbers", "--json", "--exact")
    assert floats.code == 0 and exact.code == 0, floats.err + exact.err
    by_float, by_fraction = json.loads(floats.out), json.loads(exact.out)
    assert by_float["exact"] is False and by_fraction["exact"] is True and "error_bound" not in by_fraction
    bound = by_float["error_bound"]
    assert isinstance(bound, float) and 0 < bound < 1e-9 and by_float["error_bound_kind"] == "relative"
    assert set(by_float["outcomes"]) == set(by_fraction["outcomes"])
    for key, q in by_float["outcomes"].items():
        assert isinstance(q, float)
        p = Fraction(by_fraction["outcomes"][key])
        assert abs(Fraction(q) - p) <= Fraction(bound) * p, key


def test_the_text_states_the_bound_and_exact_prints_fractions(cli: Callable[..., Result]) -> None:
    floats = cli("odds", "fimbulfrost/robbers", "--full")
    assert floats.code == 0, floats.err
    assert "floats: every probability within a relative error of" in floats.out.replace("\n", " ")
    exact = cli("odds", "fimbulfrost/robbers", "--exact", "--full")
    assert exact.code == 0 and "exact fractions over" in exact.out and "floats:" not in exact.out
    fraction = json.loads(cli("odds", "fimbulfrost/robbers", "--json", "--exact").out)["outcomes"]
    assert "/" in next(iter(fraction.values()))
    longest = max(fraction.values(), key=len)
    assert longest.split("/")[0][:12] in exact.out.replace("\n", "").replace(" ", "").replace("│", "")


def test_an_absolute_bound_is_printed_as_absolute(capsys: pytest.CaptureFixture[str]) -> None:
    """A bound on the mass misplaced (Le våld's block solve) is not a relative one: the text says which."""
    from konflikt.cli.dice_commands import print_answer

    rows = [("Hedda", 0.98), ("nobody", 7.6e-6)]
    print_answer(OddsAnswer("duel", "winner", rows, error_bound=3.3e-4, absolute=True), as_json=False)
    said = capsys.readouterr().out.replace("\n", " ")
    assert "within an absolute error of 3.3e-04" in said and "relative" not in said and "--exact" not in said
    print_answer(OddsAnswer("duel", "winner", rows, error_bound=3.3e-13), as_json=False)
    assert "within a relative error of 3.3e-13" in capsys.readouterr().out.replace("\n", " ")
