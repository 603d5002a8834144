"""Buying consequences, rule by rule (found missing by `scripts/mutation.sh fimbulfrost`).

The text: points below 0 buy "konsekvenser" from the lists, each "ubehagelige ting for heltene" (it must cost
something), and the heroes "kan … købe konsekvenser til modstanderen for det antal point".
"""

from __future__ import annotations

import pytest

from konflikt.rulesets.fimbulfrost.models import Catalogue, ConsequenceList, Entry
from konflikt.rulesets.fimbulfrost.rules import (
    buy_back_count,
    compositions,
    consequence_count,
    costs_something,
    effects_already_true,
    loss_shares,
    opponent_entries,
)


def entry(entry_id: str, runder: list[int], **kwargs: object) -> Entry:
    return Entry(id=entry_id, da=entry_id, en=entry_id, severity=1, runder=runder, **kwargs)  # type: ignore[arg-type]


def test_no_points_below_zero_buy_nothing() -> None:
    assert consequence_count(0) == 0
    assert consequence_count(-2) == 0, "a Status above 0 given as negative points buys nothing"
    assert consequence_count(-3, per=2) == 0


def test_buying_back_pays_the_points_at_the_options_rate_and_one_more() -> None:
    assert buy_back_count(3, per=2) == 3  # 3 points at one entry per 2 points: 2 entries, and the extra one
    assert buy_back_count(4, per=2) == 3


def test_successes_split_into_no_shares_only_when_there_are_none() -> None:
    assert list(compositions(0, 0)) == [()]
    assert list(compositions(3, 0)) == []
    assert list(compositions(1, 2)) == [(1, 0), (0, 1)]


def test_a_lost_round_3_with_no_hero_standing_charges_nobody() -> None:
    assert loss_shares(3, 0, "shared") == []
    assert loss_shares(3, 0, "each") == []


def test_what_is_already_true_of_a_hero_every_empty_pool_and_omdomme_0() -> None:
    assert effects_already_true((1, 0, 2), 1) == frozenset({"grej"})
    assert effects_already_true((0, 1, 0), 1) == frozenset({"rustning", "vaaben"})
    assert effects_already_true((1, 1, 1), 0) == frozenset({"omdomme"})
    assert effects_already_true((1, 1, 1), 1) == frozenset()


def test_a_hero_has_exactly_the_three_pools() -> None:
    with pytest.raises(ValueError):
        effects_already_true((1, 1), 1)


def test_an_entry_whose_every_effect_is_already_true_costs_nothing() -> None:
    gear_lost = entry("grej-tabt", [3], loses="grej")
    assert not costs_something(gear_lost, frozenset({"grej"}))
    assert costs_something(gear_lost, frozenset({"rustning"}))
    assert not costs_something(gear_lost, frozenset({"grej", "omdomme"}))


def test_entries_for_an_opponent_are_the_unused_ones_of_this_round() -> None:
    catalogue = Catalogue(
        lists={
            "modstander": ConsequenceList(
                da="modstander",
                en="opponent",
                entries=[entry("saaret", [1, 2]), entry("flygtet", [2]), entry("doed", [1, 2, 3], death=True)],
            )
        }
    )
    assert [e.id for e in opponent_entries(catalogue, "modstander", 1, ["saaret"])] == ["doed"]
    assert [e.id for e in opponent_entries(catalogue, "modstander", 2, [])] == ["saaret", "flygtet", "doed"]
