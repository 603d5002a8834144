"""Tor Presji Fizycznej (the pressure track): the digest's test vectors, Ciało, splitting, consequences."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings, strategies

from konflikt.errors import OptionError
from konflikt.rulesets.presja.track import (
    absorb_options,
    absorbable,
    body_boxes,
    body_indices,
    build_track,
    free_boxes,
    parse_track,
    parse_values,
    track_text,
)

BASE = parse_track("1,1,2-3,2-3,4-5")
VALUES = (2, 4, 6)
NONE_FREE = (False, False, False)


def _ways(pressure: int, cons_free: tuple[bool, bool, bool] = NONE_FREE, **kw: bool) -> set[tuple[str, str]]:
    return {(o.boxes_text(BASE), o.cons_text()) for o in absorb_options(BASE, 0, cons_free, VALUES, pressure, **kw)}


def test_default_base_track() -> None:
    assert track_text(BASE, 0) == "[1][1][2-3][2-3][4-5]"


@pytest.mark.parametrize(
    ("cialo", "expected"),
    [
        (0, "[1][1][2-3][2-3][4-5]"),
        (1, "[1][1][1][2-3][2-3][4-5]"),
        (2, "[1][1][1][1][2-3][2-3][4-5]"),  # two more "1" boxes
        (3, "[1][1][1][1][2-3][2-3][2-3][4-5]"),  # two more "1" and one more "2-3"
        (5, "[1][1][1][1][2-3][2-3][2-3][4-5]"),  # above 3: no further boxes (default)
    ],
)
def test_cialo_adds_boxes(cialo: int, expected: str) -> None:
    assert track_text(build_track(BASE, cialo), 0) == expected


def test_cialo_above_3_option_adds_2_3_boxes() -> None:
    assert body_boxes(5, "extra_2_3") == ((1, 1), (1, 1), (2, 3), (2, 3), (2, 3))


def test_splitting_4_on_the_default_track_digest_vector() -> None:
    assert _ways(4) == {("4-5:4", ""), ("1:1+2-3:3", ""), ("2-3:2+2-3:2", ""), ("1:1+1:1+2-3:2", "")}
    with_mild = _ways(4, (True, False, False))
    assert {("2-3:2", "mild"), ("1:1+1:1", "mild")} <= with_mild
    assert _ways(4, (True, False, False), cons_less=False) - _ways(4) == {("2-3:2", "mild"), ("1:1+1:1", "mild")}


def test_text_example_pressure_4_split_or_one_4_5_box() -> None:
    # "może zaznaczyć pole presji 2-3 [x] i pole presji 1 [x] ... Może też zaznaczyć od razu pole presji 4-5 [x]"
    assert {("1:1+2-3:3", ""), ("4-5:4", "")} <= _ways(4)


def test_a_box_takes_only_an_amount_within_its_range_digest_vector() -> None:
    only_23 = 0b10011  # the "1" boxes and the "4-5" box are marked
    assert absorb_options(BASE, only_23, NONE_FREE, VALUES, 1) == ()
    assert 1 not in absorbable(BASE, only_23, NONE_FREE, VALUES)


def test_box_absorbs_less_option_lets_a_box_take_any_amount_up_to_its_top() -> None:
    only_23 = 0b10011
    ways = absorb_options(BASE, only_23, NONE_FREE, VALUES, 1, box_less=True)
    assert [(o.boxes_text(BASE), o.cons_text()) for o in ways] == [("2-3:1", "")]


def test_consequence_values_are_data() -> None:
    assert parse_values("2,4,6") == (2, 4, 6)
    assert _ways(3, (True, False, False)) >= {("1:1", "mild")}
    assert ("", "mild") in {
        (o.boxes_text(BASE), o.cons_text()) for o in absorb_options(BASE, 0b11111, (True, False, False), (3, 4, 6), 3)
    }
    with pytest.raises(OptionError, match="three positive numbers"):
        parse_values("2,4")


def test_bad_track_text_is_an_option_error() -> None:
    with pytest.raises(OptionError, match="'3-2'"):
        parse_track("1,3-2")


def test_taken_out_when_nothing_can_absorb() -> None:
    full = 0b11111
    assert absorb_options(BASE, full, NONE_FREE, VALUES, 1) == ()
    assert [o.cons_text() for o in absorb_options(BASE, full, (False, False, True), VALUES, 7)] == []
    assert [o.cons_text() for o in absorb_options(BASE, full, (True, True, False), VALUES, 6)] == ["mild+moderate"]


tracks = strategies.lists(
    strategies.sampled_from([(1, 1), (2, 3), (4, 5), (1, 2), (3, 3)]), min_size=1, max_size=7
).map(lambda b: tuple(sorted(b)))


@settings(max_examples=300, deadline=None)
@given(
    track=tracks,
    marked_bits=strategies.integers(0, 127),
    cons_free=strategies.tuples(strategies.booleans(), strategies.booleans(), strategies.booleans()),
    pressure=strategies.integers(1, 16),
    box_less=strategies.booleans(),
    cons_less=strategies.booleans(),
)
def test_every_legal_absorption_covers_the_pressure_exactly_and_respects_the_track(
    track: tuple[tuple[int, int], ...],
    marked_bits: int,
    cons_free: tuple[bool, bool, bool],
    pressure: int,
    box_less: bool,
    cons_less: bool,
) -> None:
    marked = marked_bits & ((1 << len(track)) - 1)
    options = absorb_options(track, marked, cons_free, VALUES, pressure, box_less, cons_less)
    assert len(set(options)) == len(options)
    for o in options:
        indices = [i for i, _ in o.boxes]
        assert len(set(indices)) == len(indices), "each box used once"
        for i, amount in o.boxes:
            lo, hi = track[i]
            assert not marked >> i & 1, "only free boxes"
            assert (1 if box_less else lo) <= amount <= hi, "an amount within the box's range"
        assert all(cons_free[s] for s in o.cons), "only free consequence slots, one each"
        assert len(set(o.cons)) == len(o.cons)
        cap = sum(VALUES[s] for s in o.cons)
        assert o.box_total() + o.cons_absorbed == pressure, "covers the pressure exactly"
        assert 0 <= o.cons_absorbed <= cap
        if not cons_less:
            assert o.cons_absorbed == cap
        for s in o.cons:
            assert cap - VALUES[s] < o.cons_absorbed, "no consequence taken for nothing"
    # and nothing is missed: brute force over every assignment of boxes and consequences
    assert bool(options) == _brute_force_possible(track, marked, cons_free, pressure, box_less, cons_less)


def _brute_force_possible(
    track: tuple[tuple[int, int], ...],
    marked: int,
    cons_free: tuple[bool, bool, bool],
    pressure: int,
    box_less: bool,
    cons_less: bool,
) -> bool:
    from itertools import product

    free = [i for i in range(len(track)) if not marked >> i & 1]
    choices = [[0, *range(1 if box_less else track[i][0], track[i][1] + 1)] for i in free]
    sums = {sum(c) for c in product(*choices)}
    slots = [s for s in range(3) if cons_free[s]]
    caps = {sum(VALUES[s] for k, s in enumerate(slots) if m >> k & 1) for m in range(1 << len(slots))}
    for b in sums:
        for cap in caps:
            if b == pressure and cap == 0:
                return True
            if cap and b < pressure and (cap == pressure - b or (cons_less and cap > pressure - b)):
                return True
    return False


def test_cialo_boxes_are_drawn_in_round_brackets_nawiasy_okragle() -> None:
    """ "zwiększa o jedno pole rząd presji o wartości 1 (nawiasy okrągłe)… (nawias okrągły)": Ciało 3's boxes."""
    body = body_indices(BASE, 3)
    assert track_text(build_track(BASE, 3), 0b000101, body) == "[x1][1](x1)(1)[2-3][2-3](2-3)[4-5]"


def _absorbable_by_listing(
    track: tuple[tuple[int, int], ...],
    marked: int,
    cons_free: tuple[bool, bool, bool],
    values: tuple[int, int, int],
    box_less: bool,
    cons_less: bool,
) -> frozenset[int]:
    """What ``absorbable`` answered before it was made fast: every pressure for which a way is listed."""
    top = sum(track[i][1] for i in free_boxes(track, marked)) + sum(
        v for v, f in zip(values, cons_free, strict=True) if f
    )
    return frozenset(
        p for p in range(1, top + 1) if absorb_options(track, marked, cons_free, values, p, box_less, cons_less)
    )


@settings(max_examples=100, deadline=None)
@given(
    track=tracks,
    marked_bits=strategies.integers(0, 127),
    cons_free=strategies.tuples(strategies.booleans(), strategies.booleans(), strategies.booleans()),
    values=strategies.tuples(strategies.integers(1, 7), strategies.integers(1, 7), strategies.integers(1, 7)),
    box_less=strategies.booleans(),
    cons_less=strategies.booleans(),
)
def test_absorbable_answers_as_listing_every_way_does(
    track: tuple[tuple[int, int], ...],
    marked_bits: int,
    cons_free: tuple[bool, bool, bool],
    values: tuple[int, int, int],
    box_less: bool,
    cons_less: bool,
) -> None:
    marked = marked_bits & ((1 << len(track)) - 1)
    expected = _absorbable_by_listing(track, marked, cons_free, values, box_less, cons_less)
    assert absorbable(track, marked, cons_free, values, box_less, cons_less) == expected


def test_absorbable_on_the_text_track_every_mask_answers_as_listing_every_way_does() -> None:
    """Every mask of the text's track, every set of free consequences, the options as the text has them and both
    turned; and the skirmish's crowded track (Ciało 3) unmarked, where listing every way took a fifth of a second
    (and a presja heuristic's decision up to a second on the table server)."""
    cases = [
        (BASE, marked, cons_free, box_less, cons_less)
        for marked in range(1 << len(BASE))
        for cons_free in product((True, False), repeat=3)
        for box_less, cons_less in ((False, True), (True, False))
    ]
    cases.append((build_track(BASE, 3), 0, (True, True, True), False, True))
    for track, marked, cons_free, box_less, cons_less in cases:
        free = (cons_free[0], cons_free[1], cons_free[2])
        expected = _absorbable_by_listing(track, marked, free, VALUES, box_less, cons_less)
        assert absorbable(track, marked, free, VALUES, box_less, cons_less) == expected, (track, marked, free)
