"""``konflikt odds SCENARIO``: every side is a row of the winner table, also a side that cannot win."""

from __future__ import annotations

import copy
from fractions import Fraction

from konflikt.analysis.exact import conflict_odds
from konflikt.analysis.questions import whole_conflict_answer
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import RandomPolicy
from konflikt.core.scenario import scenario_from_document
from konflikt.core.state import GM
from tests.core.toy import DOCUMENT


def test_a_side_that_cannot_win_is_a_row_at_zero_and_the_rows_sum_to_one() -> None:
    """One round, Ada at 1 point against Bo at 10: Bo may take Ada out, Ada cannot take 10 points off Bo."""
    doc = copy.deepcopy(DOCUMENT)
    doc["sides"][0]["participants"][0]["points"] = 1
    doc["sides"][1]["participants"][0]["points"] = 10
    doc["options"] = {"max_rounds": 1}
    scenario = scenario_from_document(doc, "toy.toml")
    seats = {"ada": RandomPolicy(), "bo": RandomPolicy(), GM: RandomPolicy()}
    answer = whole_conflict_answer(scenario, new_state(scenario), seats)
    rows = dict(answer.outcomes)
    assert set(rows) == {"north", "south", "nobody"}
    assert rows["north"] == 0
    # Bo strikes or guards at random (½ each); Ada's stance decides his target number: 3–6 open, 5–6 guarding
    bo_hits = Fraction(1, 2) * (Fraction(1, 2) * Fraction(4, 6) + Fraction(1, 2) * Fraction(2, 6))
    assert rows["south"] == bo_hits
    assert rows["nobody"] == 1 - bo_hits
    assert sum(rows.values()) == 1
    # the exact solver itself never saw a north win: the zero row comes from the scenario's sides
    assert ("north",) not in conflict_odds(new_state(scenario), seats).winners()
