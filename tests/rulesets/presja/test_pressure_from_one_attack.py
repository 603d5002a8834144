"""Presja from one attack, rule by rule (found missing by mutation testing, `scripts/mutation.sh presja`).

The text: "Jeśli którakolwiek ze stron w swoim ataku uzyskała wartość 0 lub więcej: Do wartości ataku należy dodać
Czynnik Obrażeń broni … Do wartości obrony należy dodać Czynnik Wyparowań z posiadanej zbroi."
"""

from __future__ import annotations

from konflikt.rulesets.presja.rules import pressure


def test_without_weapon_or_armour_the_margin_alone_is_the_pressure() -> None:
    """No weapon, no armour: both factors are 0 and the margin is all the pressure there is."""
    assert pressure(5, 3) == 2
    assert pressure(4, 4) == 0
    assert pressure(3, 4) == 0


def test_the_margin_bonus_of_a_weapon_aspect_adds_to_a_margin_of_0_or_more() -> None:
    """A weapon aspect adds "do osiągniętego Marginesu Sukcesu": to a reached margin, never to a miss."""
    assert pressure(4, 4, margin_bonus=2) == 2
    assert pressure(6, 4, damage=1, absorption=1, margin_bonus=1) == 3
    assert pressure(3, 4, damage=2, margin_bonus=2) == 0


def test_absorption_comes_off_the_pressure_of_a_hit() -> None:
    """The armour's factor is added to the Defence: each point is one point of presja less, down to 0."""
    assert pressure(6, 3, absorption=1) == 2
    assert pressure(6, 3, damage=1, absorption=5) == 0
