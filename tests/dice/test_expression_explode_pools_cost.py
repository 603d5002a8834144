"""The dice language's exploding, pools, cost estimate and table reading (survivors of
`scripts/mutation.sh dice:expression`).

Expected values are worked out by hand or by brute force over the faces, never by the functions under test.
"""

from __future__ import annotations

import re
from fractions import Fraction as F
from itertools import product

import numpy as np
import pytest

from konflikt.dice import PoolRoll
from konflikt.dice.counts import product_seconds, sum_seconds
from konflikt.dice.expression import DiceExpression, parse_expression
from konflikt.errors import DiceError


def test_an_exploding_die_explodes_at_most_its_depth_when_rolled() -> None:
    """``1d{1,2}!2``: a 2 is rolled again at most twice, so 1, 2+1, 2+2+1 or 2+2+2 (chances ½, ¼, ⅛, ⅛).

    Kills ``Group.sample``: the depth counted from 1 (one explosion at most), ``depth <= explode`` (three),
    ``depth = 1`` for ``depth += 1`` (no end) and ``depth += 2`` (one).
    """
    dice = parse_expression("1d{1,2}!2")
    by_hand = {1: F(1, 2), 3: F(1, 4), 5: F(1, 8), 6: F(1, 8)}
    assert dice.distribution() == by_hand
    rng = np.random.default_rng(11)
    n = 4000
    seen: dict[int, int] = {}
    for _ in range(n):
        value = dice.sample(rng)
        seen[value] = seen.get(value, 0) + 1
    assert set(seen) == set(by_hand)
    for value, p in by_hand.items():
        se = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(seen[value] / n - float(p)) <= 4 * se, value


def pool_by_brute_force(count: int, faces: tuple[int, ...], hit: object) -> dict[PoolRoll, F]:
    """Every way the dice can fall, each die a success when ``hit(face)``, the 1s counted beside."""
    ways: dict[PoolRoll, int] = {}
    for roll in product(faces, repeat=count):
        key = PoolRoll(sum(1 for f in roll if hit(f)), roll.count(1))  # type: ignore[operator]
        ways[key] = ways.get(key, 0) + 1
    total = len(faces) ** count
    return {k: F(w, total) for k, w in sorted(ways.items())}


@pytest.mark.parametrize(
    ("expr", "count", "faces", "hit"),
    [
        ("2d6>=5", 2, (1, 2, 3, 4, 5, 6), lambda f: f >= 5),
        ("3d10>7", 3, tuple(range(1, 11)), lambda f: f > 7),
        ("3d{1,1,2,3}>=2", 3, (1, 1, 2, 3), lambda f: f >= 2),
        ("2d6<=2", 2, (1, 2, 3, 4, 5, 6), lambda f: f <= 2),
        ("3d{0,2,2,5}>=2", 3, (0, 2, 2, 5), lambda f: f >= 2),
    ],
)
def test_a_pool_counts_the_ones_beside_the_successes(
    expr: str, count: int, faces: tuple[int, ...], hit: object
) -> None:
    """Each die of a pool is a success or not, and its 1s are counted beside (a 1 may be a success too).

    Kills ``_pool_distribution``: ``faces.count(2)`` for ``faces.count(1)`` (the 1s' weight).
    """
    dice = parse_expression(expr)
    assert dice.pool
    assert dice.distribution() == pool_by_brute_force(count, faces, hit)


def test_a_rolled_pool_counts_its_ones() -> None:
    """In ``3d6>=2`` every die is a success or a 1, so successes and 1s of every roll add up to 3.

    Kills ``DiceExpression.sample``: the 1s counted as ``faces.count(2)``.
    """
    dice = parse_expression("3d6>=2")
    rng = np.random.default_rng(5)
    rolls = [dice.sample(rng) for _ in range(300)]
    assert all(r.successes + r.ones == 3 for r in rolls)
    assert {r.ones for r in rolls} >= {0, 1}


def test_only_a_pool_with_a_face_of_1_has_ones_to_show() -> None:
    """The 1s are shown for a pool whose die has a 1, never for a sum.

    Kills ``has_ones``: ``pool or 1 in faces`` and ``2 in faces``.
    """
    assert parse_expression("3d6>=5").has_ones()
    assert parse_expression("3d{1,3,5}>=3").has_ones()
    assert not parse_expression("3d{0,2,4}>=2").has_ones()
    assert not parse_expression("3d6").has_ones()
    assert not parse_expression("3d6>10").has_ones()


def test_keeping_dice_costs_faces_squared_times_dice_times_kept() -> None:
    """icepool's keep-highest was measured at about faces² × dice × kept × 2·10⁻⁶ s (one group, no product).

    4d6kh3: 36 × 4 × 3 × 2·10⁻⁶ = 8.64·10⁻⁴ s; 5d10kl2: 100 × 5 × 2 × 2·10⁻⁶ = 2·10⁻³ s.
    Kills ``Group.seconds``: ``faces ** 3``; and ``exact_seconds``: ``len(groups) >= 1`` (a product for one group).
    """
    assert parse_expression("4d6kh3").exact_seconds() == pytest.approx(8.64e-4)
    assert parse_expression("5d10kl2").exact_seconds() == pytest.approx(2e-3)


def test_a_sum_of_groups_adds_the_product_of_their_sums() -> None:
    """Several groups: each group's sum, then their product, as wide as all the dice's faces and as deep as
    their bits together (3d6 + 2d8: 6 × 3 + 8 × 2 = 34 coefficients, 3 × 3 + 4 × 2 = 17 bits).

    Kills ``exact_seconds``: ``len(groups) > 2``, ``/ g.count`` for ``* g.count`` (width and bits), ``=`` and
    ``-=`` for ``+=``.
    """
    alone = sum_seconds(6, 3, 6) + sum_seconds(8, 2, 8)
    assert parse_expression("3d6+2d8").exact_seconds() == pytest.approx(alone + product_seconds(34, 17))
    assert parse_expression("3d6").exact_seconds() == pytest.approx(sum_seconds(6, 3, 6))


@pytest.mark.parametrize(
    ("expr", "text"),
    [
        ("3d6>=5", "1 6"),  # a pool of 3 read from 2 dice
        ("2d6+1d4", "3 4"),  # two groups: only a total
        ("4d6kh3", "1 2 3 4"),  # kept dice: only a total
        ("3d6", "1 2"),  # too few dice
        ("3d6", "7 8 9"),  # not faces of a d6
    ],
)
def test_the_table_reads_dice_one_by_one_only_for_one_plain_group(expr: str, text: str) -> None:
    """Dice typed one by one are read for a pool or a single plain group, exactly as many as it rolls and each a
    face of the die; anything else must be typed as the total.

    Kills ``parse``: ``or`` for ``and`` in the pool's check, in ``simple`` (two places) and in the dice's check
    (two places).
    """
    dice = parse_expression(expr)
    with pytest.raises(DiceError, match=re.escape(f"cannot read '{text}' as {expr}: type ")):
        dice.parse(text)


def test_dice_typed_one_by_one_add_the_constants() -> None:
    """``2d6+3`` typed ``1 2`` is 1 + 2 + 3 = 6; ``-2d6+1`` typed ``1 2`` is −3 + 1 = −2.

    Kills ``parse``: ``s / t`` for ``s * t`` in the constants' sum.
    """
    assert parse_expression("2d6+3").parse("1 2") == 6
    assert parse_expression("2d6-3+1").parse("4 5") == 7
    assert parse_expression("-2d6+1").parse("1 2") == -2


def test_the_table_is_told_what_to_type() -> None:
    """A pool: each die; a sum: the total; a yes/no comparison: nothing, it is computed.

    Kills ``table_hint``: its condition turned or negated, its words changed.
    """
    assert parse_expression("3d6>=5").table_hint() == "each of the 3 dice"
    assert parse_expression("2d10+1d4").table_hint() == "the total"
    assert parse_expression("3d6>10").table_hint() == "the roll is computed here; use 'auto'"


def test_a_result_from_json_is_checked_against_the_possible() -> None:
    """A pool's result comes as a list and becomes a PoolRoll; a sum's stays a number; the impossible is refused.

    Kills ``coerce``: ``outcome = None``, the list never or always made a PoolRoll, ``in`` for ``not in``, and the
    error without its words.
    """
    pool, total = parse_expression("3d6>=5"), parse_expression("3d6")
    assert isinstance(pool, DiceExpression) and isinstance(total, DiceExpression)
    assert pool.coerce([2, 1]) == PoolRoll(2, 1)
    assert type(pool.coerce([2, 1])) is PoolRoll
    assert total.coerce(10) == 10
    with pytest.raises(DiceError, match="19 is not a possible result of 3d6"):
        total.coerce(19)
    with pytest.raises(DiceError, match=r"\[3, 1\] is not a possible result of 3d6>=5"):
        pool.coerce([3, 1])


def test_a_result_in_words() -> None:
    """A pool: ``2 successes, 1×1`` (one success singular); a sum: the number; a comparison: yes or no.

    Kills ``describe``: successes read from the 1s, the plural's condition changed (``or True``, ``and False``,
    ``== 1``, ``!= 2``, the 1s' count), its words changed, ``outcome[2]``, the label of ``None``; and
    ``outcome_label``: ``or True`` and the word ``no`` changed.
    """
    pool, total, test = parse_expression("3d6>=5"), parse_expression("3d6"), parse_expression("3d6>10")
    assert pool.describe(PoolRoll(2, 1)) == "2 successes, 1×1"
    assert pool.describe(PoolRoll(1, 2)) == "1 success, 2×1"
    assert pool.describe(PoolRoll(0, 3)) == "0 successes, 3×1"
    assert total.describe(11) == "11"
    assert test.describe(True) == "yes"
    assert test.describe(False) == "no"


def kept_by_brute_force(count: int, sides: int, keep: int, highest: bool) -> dict[int, F]:
    """Every way ``count`` dice of ``sides`` can fall, summing the ``keep`` highest (or lowest)."""
    ways: dict[int, int] = {}
    for roll in product(range(1, sides + 1), repeat=count):
        kept = sum(sorted(roll, reverse=highest)[:keep])
        ways[kept] = ways.get(kept, 0) + 1
    return {k: F(w, sides**count) for k, w in sorted(ways.items())}


def test_keeping_without_a_number_keeps_one_die() -> None:
    """``4d6kh`` keeps the highest die, ``3d6kl`` the lowest: the number after ``k`` defaults to 1.

    Kills ``_Parser.keep``: the number always read (``… or True``) and the default 2.
    """
    assert parse_expression("4d6kh").distribution() == kept_by_brute_force(4, 6, 1, highest=True)
    assert parse_expression("3d6kl").distribution() == kept_by_brute_force(3, 6, 1, highest=False)


def test_keeping_all_or_dropping_none_is_the_plain_sum() -> None:
    """``3d6kh3`` keeps every die and ``3d6dl0`` drops none: both are 3d6.

    Kills ``_Parser.keep``: ``1 <= k < count`` for ``1 <= k <= count`` (keeping all refused), ``1 <= k`` and
    ``0 < k`` for ``0 <= k`` (dropping none refused).
    """
    three_d6 = kept_by_brute_force(3, 6, 3, highest=True)
    for expr in ("3d6kh3", "3d6k3", "3d6dl0", "3d6dh0"):
        assert parse_expression(expr).distribution() == three_d6, expr
    with pytest.raises(DiceError, match="cannot keep 4 of 3 dice"):
        parse_expression("3d6kh4")
    with pytest.raises(DiceError, match="cannot drop 3 of 3 dice"):
        parse_expression("3d6dl3")


def test_dropping_the_highest_keeps_the_lowest() -> None:
    """A group keeps ``("h", k)`` or ``("l", k)``: ``4d6dh1`` is ``("l", 3)``, ``4d6dl1`` and ``4d6k3`` ``("h", 3)``,
    ``4d6kl2`` ``("l", 2)``.

    Kills ``_Parser.keep``: the side ``"l"`` written ``"XXlXX"`` or ``"L"`` (dropping the highest and keeping the
    lowest; the roll itself treats any side but ``"h"`` as lowest, so only the group's field shows it).
    """
    keeps = {e: parse_expression(e).terms[0][1].keep for e in ("4d6dh1", "4d6dl1", "4d6k3", "4d6kl2")}  # type: ignore[union-attr]
    assert keeps == {"4d6dh1": ("l", 3), "4d6dl1": ("h", 3), "4d6k3": ("h", 3), "4d6kl2": ("l", 2)}


def test_an_exploding_die_whose_faces_overlap_its_explosions_adds_both_ways() -> None:
    """``1d{-1,0,1}!1``: −1 or 0 as rolled (⅓ each), or 1 and one more die: 0, 1 or 2 (1/9 each). A total of 0
    comes both ways: ⅓ + 1/9 = 4/9.

    Kills ``Group.one_die``: an explosion's total written over the same total of a lower face instead of added
    to it.
    """
    assert parse_expression("1d{-1,0,1}!1").distribution() == {-1: F(3, 9), 0: F(4, 9), 1: F(1, 9), 2: F(1, 9)}


def test_a_group_keeps_the_die_as_written_and_no_explosion_as_0() -> None:
    """``Group.die`` is the die as written after ``d``; ``explode`` is 0 when the die never explodes.

    Kills ``_Parser.die``: the die written ``None`` (sides and ``%``); ``_Parser.group``: ``die`` ``None`` and
    ``explode = None`` for 0.
    """
    groups = {e: parse_expression(e).terms[0][1] for e in ("3d6", "2d%", "4dF", "1d{1,1,2}", "2d6!3")}
    assert {e: (g.die, g.explode) for e, g in groups.items()} == {  # type: ignore[union-attr]
        "3d6": ("6", 0),
        "2d%": ("%", 0),
        "4dF": ("F", 0),
        "1d{1,1,2}": ("{1,1,2}", 0),
        "2d6!3": ("6", 3),
    }


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("3d1", "dice need 2 to 1000 sides"),
        ("3d1001", "dice need 2 to 1000 sides"),
        ("201d6", "roll 1 to 200 dice at a time"),
        ("2d6!0", "explode 1 to 20 times"),
        ("2d6!21", "explode 1 to 20 times"),
        ("2d{3,3}!", "a die with one face cannot explode"),
        ("2d{1,x}", "expected a face, found 'x'"),
    ],
)
def test_the_language_refuses_beyond_its_bounds_with_the_bounds(expr: str, fragment: str) -> None:
    """Kills ``_Parser.die`` and ``_Parser.group``: each error raised without its words; ``_Parser.number``: the
    same."""
    with pytest.raises(DiceError, match=re.escape(f"cannot read dice expression {expr!r}: {fragment}")):
        parse_expression(expr)


def test_the_language_takes_its_bounds_themselves() -> None:
    """2 sides and 1,000; 200 dice; an explosion depth of 1 and of 20: each allowed.

    Kills ``_Parser.die``: ``3 <= sides``, ``2 < sides``, ``sides < MAX_FACES``; ``_Parser.group``:
    ``count < MAX_DICE``, ``2 <= explode``, ``1 < explode``, ``explode < MAX_DEPTH``.
    """
    assert parse_expression("2d2").distribution() == {2: F(1, 4), 3: F(1, 2), 4: F(1, 4)}
    assert parse_expression("1d1000+0").distribution()[1000] == F(1, 1000)
    assert parse_expression("200d6").distribution()[1200] == F(1, 6**200)
    assert parse_expression("1d{1,2}!1").distribution() == {1: F(1, 2), 3: F(1, 4), 4: F(1, 4)}
    assert max(parse_expression("1d{1,2}!20").distribution()) == 2 * 21


def test_listed_faces_take_a_sign() -> None:
    """``1d{+2,-1,3}``: faces 2, −1 and 3, a third each (a ``+`` is read and changes nothing).

    Kills ``_Parser.die``: the ``+`` not taken as a sign (``"XX+XX"``) and every sign read as ``-``.
    """
    assert parse_expression("1d{+2,-1,3}").distribution() == {-1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}


def test_a_list_given_for_a_sums_result_is_refused_as_no_possible_result() -> None:
    """A JSON list where a total belongs (an edited save, a typed record) was a TypeError ("unhashable type"), a
    traceback; it is no possible result of the sum, and a pool still takes its (successes, 1s) as a list."""
    with pytest.raises(DiceError, match="not a possible result of 2d6"):
        parse_expression("2d6").coerce([3, 4])
    assert parse_expression("2d6").coerce(7) == 7
    assert parse_expression("3d6>=5").coerce([1, 0]) == PoolRoll(1, 0)
