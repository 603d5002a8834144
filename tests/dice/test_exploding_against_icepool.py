"""Exploding dice against icepool, the reference: custom dice whose highest face is repeated (``1d{1,6,6}!``)
explode on every copy of that face, so the top is weighted by how many faces show it, not once (a mutant that
weighted it once — konflikt {1: 1/2, 7: 1/6, 12: 1/3} where icepool says {1: 1/3, 7: 2/9, 12: 4/9} — escaped every
test before this one)."""

from __future__ import annotations

from fractions import Fraction

import icepool
from hypothesis import given, settings
from hypothesis import strategies as st

from konflikt.dice.expression import parse_expression


def _icepool(faces: list[int], count: int, depth: int) -> dict[int, Fraction]:
    die = icepool.Die(faces).explode(depth=depth)
    total = sum(die for _ in range(count)) if count > 1 else die
    return {int(o): Fraction(int(q), int(total.denominator())) for o, q in total.items() if q}


def _konflikt(faces: list[int], count: int, depth: int) -> dict[int, Fraction]:
    text = f"{count}d{{{','.join(map(str, faces))}}}!{depth}"
    return {int(k): p for k, p in parse_expression(text).distribution().items()}


def test_a_repeated_top_face_explodes_on_each_copy() -> None:
    assert _konflikt([1, 6, 6], 1, 1) == {1: Fraction(1, 3), 7: Fraction(2, 9), 12: Fraction(4, 9)}
    assert _konflikt([1, 6, 6], 1, 1) == _icepool([1, 6, 6], 1, 1)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 6), min_size=2, max_size=5).filter(lambda f: len(set(f)) > 1),
    st.integers(1, 3),
    st.integers(1, 3),
    st.integers(1, 3),
)
def test_exploding_custom_dice_match_icepool(faces: list[int], repeats: int, count: int, depth: int) -> None:
    faces = [*faces, *[max(faces)] * (repeats - 1)]  # the top face repeated up to three times
    assert _konflikt(faces, count, depth) == _icepool(faces, count, depth)
