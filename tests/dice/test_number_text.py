"""How exact numbers are written for a reader (survivors of `scripts/mutation.sh dice:distribution`).

Every expected text is worked out by hand from the number, never by the functions under test.
"""

from __future__ import annotations

from fractions import Fraction as F

from konflikt.dice.distribution import decimal_text, mean, value_text


def test_a_whole_decimal_keeps_its_zeros() -> None:
    """1000001/10 to six digits is 100000 (1.00000E+5): no decimal point, so no trailing zero is dropped.

    Kills ``decimal_text``: stripping zeros ``… or True`` (always) and ``"." in text or "e" not in text``
    (both would write ``1``).
    """
    assert decimal_text(F(1_000_001, 10)) == "100000"
    assert decimal_text(F(2_000_001, 10), 3) == "200000"


def test_an_exponent_ending_in_zero_keeps_it() -> None:
    """1/10¹⁰ is written ``1e-10`` and 15/10¹¹ ``1.5e-10``: the exponent's zero is no trailing zero of a decimal.

    Kills ``decimal_text``: stripping zeros always (``1e-1``), and ``"XXeXX" not in text`` or ``"E" not in text``
    for ``"e" not in text`` (both strip the zero of ``1.5e-10``, giving ``1.5e-1``, ten thousand million times too
    large).
    """
    assert decimal_text(F(1, 10**10)) == "1e-10"
    assert decimal_text(F(15, 10**11)) == "1.5e-10"
    assert decimal_text(F(25, 10**21)) == "2.5e-20"
    assert value_text(F(3, 2 * 10**30)) == "1.5e-30"


def test_a_fraction_of_24_characters_is_written_out_one_of_25_is_not() -> None:
    """The reader sees ``p/q`` only while it is at most 24 characters long; longer, only the decimal.

    1/3⁴⁷ is ``1/`` and 23 digits (3⁴⁷ = 26588814358957503287787: 25 characters in all); 1/3⁴⁶ is 24.
    Kills ``value_text``: ``longest=25`` for ``longest=24``.
    """
    assert len(str(3**47)) == 23 and len(str(3**46)) == 22
    long_one = value_text(F(1, 3**47))
    assert long_one.startswith("≈ ") and "/" not in long_one
    short_one = value_text(F(1, 3**46))
    assert short_one.startswith(f"1/{3**46} ≈ ")


def test_the_mean_of_nothing_is_the_fraction_zero() -> None:
    """The mean is a Fraction even where no outcome adds to it (its start value, not the integer 0).

    Kills ``mean``: ``sum(…)`` without the start ``Fraction(0)``.
    """
    nothing = mean({})
    assert type(nothing) is F and nothing == 0
