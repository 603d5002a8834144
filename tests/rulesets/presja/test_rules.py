"""The pure rules of an exchange: pressure, tactics, surprise, conceding, positions, the ladder."""

from __future__ import annotations

from fractions import Fraction

import pytest

from konflikt.errors import KonfliktError
from konflikt.rulesets.presja.models import ladder, level_text
from konflikt.rulesets.presja.rules import (
    concede_fate_points,
    fighting_level,
    positional_advantages,
    pressure,
    tactic_mods,
)


def test_margin_0_still_hurts_digest_vector() -> None:
    assert pressure(4, 4, damage=2, absorption=1) == 1


def test_no_pressure_below_0_whatever_the_weapon_digest_vector() -> None:
    assert pressure(3, 4, damage=3, absorption=0) == 0


def test_armour_can_cancel_digest_vector() -> None:
    assert pressure(5, 4, damage=1, absorption=2) == 0


def test_the_text_exchange_numbers() -> None:
    assert pressure(3, 5, damage=1, absorption=0) == 0, "Belzee's attack is repelled"
    assert pressure(5, 3, damage=1, absorption=0) == 3, "Massimo: margin 2 + dagger 1"


def test_tactics_shift_one_point_between_attack_and_defence() -> None:
    assert tactic_mods("none") == (0, 0)
    assert tactic_mods("defensive") == (-1, 1)
    assert tactic_mods("offensive") == (1, -1)


def test_concede_gives_one_fate_point_and_one_per_consequence_digest_vector() -> None:
    assert concede_fate_points(2) == 3  # conceded after taking a mild and a moderate consequence
    assert concede_fate_points(0) == 1


@pytest.mark.parametrize(
    ("skill", "surprised", "level"),
    [(3, False, 3), (3, True, -1), (-2, True, -2), (None, False, -2), (None, True, -3)],
)
def test_surprise_fights_at_poor_or_terrible_without_combat_skill(
    skill: int | None, surprised: bool, level: int
) -> None:
    assert fighting_level(skill, -2, surprised, -1) == level


def test_domyslny_poziom_obnizamy_o_jeden_czyli_w_efekcie_fatalny() -> None:
    """Without a combat skill the default level is -2 (kiepski) so that lowered by one it is fatalny (-3)."""
    from konflikt.rulesets.presja.options import OPTIONS

    unskilled = OPTIONS.defaults()["unskilled_level"]
    assert unskilled == -2
    assert fighting_level(None, unskilled, True, -1) == -3
    assert fighting_level(None, 0, True, -1) == -1, "FATE's mierny (0) as the default: surprised one lower"


def test_positional_advantages_stack() -> None:
    assert positional_advantages(1, 1, 1) == (False, False, False)
    assert positional_advantages(1, 2, 1) == (True, False, False)
    assert positional_advantages(2, 2, 1) == (True, True, False)
    assert positional_advantages(3, 3, 1) == (True, True, True)
    assert positional_advantages(3, 3, 3) == (False, True, False), "no surrounding without numbers"


def test_ladder_has_the_texts_names() -> None:
    names = {v: lv.name for v, lv in ladder().items()}
    assert (names[2], names[3], names[5], names[-1], names[-3]) == (
        "dobry",
        "bardzo dobry",
        "znakomity",
        "słaby",
        "fatalny",
    )
    assert level_text(3) == "bardzo dobry (+3, Very good)"
    assert level_text(12) == "+12"


def test_unknown_ladder_is_an_error() -> None:
    with pytest.raises(KonfliktError, match="no such file"):
        ladder("klingon")


def test_the_exchange_roll_is_exactly_4df() -> None:
    from collections import Counter

    import numpy as np

    from konflikt.dice import Fudge, brute_force
    from konflikt.rulesets.presja.static import _FACES4, ROLL

    assert ROLL.distribution() == brute_force(Fudge(4))
    counts = Counter(_FACES4)
    assert {k: Fraction(v, 81) for k, v in counts.items()} == brute_force(Fudge(4))
    assert ROLL.parse("+ + 0 -") == 1 and ROLL.notation == "4dF"
    rng = np.random.default_rng(0)
    assert all(-4 <= ROLL.sample(rng) <= 4 for _ in range(200))


@pytest.mark.through_cli
def test_bronie_i_zbroje_magiczne_moga_miec_wyzsze_czynniki() -> None:
    """ "Bronie i zbroje przygotowane w sposób magiczny mogą mieć wyższe Czynniki Obrażeń i Wyparowań": any
    damage and absorption a character's inline weapon and armour give are used as they are."""
    from tests.rulesets.presja.helpers import act, duel, pass_invocations, roll, texts

    magic = {"skill": 2, "fate_points": 0, "weapon": {"name": "Runiczny miecz", "damage": 5}}
    warded = {"skill": 2, "fate_points": 0, "armour": {"name": "Zaklęta kolczuga", "absorption": 4}}
    state = duel(magic, warded)
    act(state, "attack", target="b", tactic=None)
    act(state, "defend", tactic=None)
    roll(state, "0 0 0 0")
    roll(state, "0 0 0 0")
    pass_invocations(state)
    assert "margin 0, +5 Czynnik Obrażeń" in texts(state, "attack")[0]
    assert "presja (pressure) 1" in texts(state, "attack")[0], "0 + 5 − 4"


def test_consequence_names_are_the_texts_examples() -> None:
    """The names offered by default are the text's own examples of each severity."""
    from konflikt.rulesets.presja.models import consequence_names

    names = consequence_names()
    assert {"Zmęczony", "Oszołomiony", "Zamroczony", "Naciągnięty mięsień"} <= {n.split(" (")[0] for n in names["mild"]}
    assert any(n.startswith("Skręcenie kostki") for n in names["moderate"])
    assert any(n.startswith("Złamana ręka") for n in names["severe"])
