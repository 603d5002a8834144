"""Every whole-number rule option that could make a conflict run away has a range that follows its rules."""

from __future__ import annotations

import pytest

from konflikt.core.ruleset import get_ruleset
from konflikt.errors import OptionError

BOUNDS = [
    ("presja", "invoke_bonus", 0, 5),
    ("presja", "invoke_limit", 1, 5),
    ("presja", "max_exchanges", 1, 1000),
    ("presja", "surprise_level", -4, 8),
    ("presja", "unskilled_level", -4, 8),
    ("fimbulfrost", "points_per_consequence", 1, 10),
    ("fimbulfrost", "borrowed_time_dice", 1, 10),
    ("fimbulfrost", "question_dice", 1, 10),
    ("levald", "step_size", 1, 9),
    ("levald", "subfight_rounds", 1, 100),
    ("levald", "max_rounds", 1, 10000),
    ("pwge", "max_tops_per_roll", 0, 50),
]


@pytest.mark.parametrize(("ruleset_id", "name", "low", "high"), BOUNDS)
def test_a_whole_number_option_takes_its_range_and_nothing_beyond(
    ruleset_id: str, name: str, low: int, high: int
) -> None:
    options = get_ruleset(ruleset_id).options
    assert options.resolve({name: low})[name] == low
    assert options.resolve({name: high})[name] == high
    for wrong in (low - 1, high + 1, 10**18):
        with pytest.raises(OptionError, match=name):
            options.resolve({name: wrong})


@pytest.mark.parametrize("track", ["1000000000000000000", ",".join(["1"] * 21), "1,1,2-30"])
def test_presja_refuses_a_track_that_would_never_fill(track: str) -> None:
    with pytest.raises(OptionError, match="base_track"):
        get_ruleset("presja").options.resolve({"base_track": track})


def test_presja_refuses_consequences_beyond_the_bound() -> None:
    with pytest.raises(OptionError, match="consequence_values"):
        get_ruleset("presja").options.resolve({"consequence_values": "2,4,600"})


def test_pwge_wound_thresholds_must_rise() -> None:
    options = get_ruleset("pwge").options
    with pytest.raises(OptionError, match="must rise"):
        options.resolve({"skrama_from": 50})
    assert options.resolve({"skrama_from": 2, "sarad_from": 3, "allvarligt_from": 3})["sarad_from"] == 3
    for name, wrong in (("skrama_from", 0), ("allvarligt_from", 101), ("sarad_from", 10**18)):
        with pytest.raises(OptionError, match=name):
            options.resolve({name: wrong})
