"""Numbers with their labels first (issue 40): each term of a roll reads label then signed value, the total with its
word on the ladder; compels, boxes and Punkty Losu in words, not ids, with the Polish noun agreeing with its number.
"""

from __future__ import annotations

from konflikt.core.actions import Action
from konflikt.rulesets.presja.texts import punkty_losu
from tests.rulesets.presja.helpers import act, knife_fight, pass_invocations, roll, texts


def _belzee_rolls_minus_three():  # type: ignore[no-untyped-def]
    state = knife_fight()
    act(state, "attack", target="massimo", tactic=None)
    act(state, "attack", target="belzee", tactic=None)
    roll(state, "- - - 0")
    roll(state, "0 0 0 0")
    pass_invocations(state)
    return state


def test_the_attack_reads_each_label_before_its_value_then_the_total_and_its_word() -> None:
    """Fails on ``Atak (attack) 2 Walka na noże (knife fighting) -3 4dF`` (read as "Walka na noże −3")."""
    state = _belzee_rolls_minus_three()
    belzee = next(t for t in texts(state, "attack") if t.startswith("Belzee:"))
    assert "Atak (attack): Walka na noże (knife fighting) +2, 4dF -3 = -1 (słaby, Poor)" in belzee, belzee
    assert "Obrona (defence): Sztylety (daggers) +3, 4dF +0 = +3 (bardzo dobry, Very good)" in belzee, belzee
    assert "2 Walka" not in belzee


def test_the_roll_names_the_dice_beside_their_total() -> None:
    state = _belzee_rolls_minus_three()
    assert "→ Walka na noże (knife fighting) +2, 4dF -3 = słaby (-1, Poor)" in texts(state, "roll")[0]


def test_an_absorb_choice_names_the_box_and_what_it_takes() -> None:
    """Fails on ``box "2-3:3"``."""
    state = knife_fight()
    text = state.describe_action("belzee", Action.of("absorb", boxes="2-3:3", cons=""))
    assert "pole (box) 2-3 takes 3" in text, text
    assert '"2-3:3"' not in text


def test_a_compel_names_the_consequence_in_words() -> None:
    """Fails on ``wymuś (compel) belzee:mild``."""
    state = knife_fight()
    text = state.describe_action("gm", Action.of("compel", consequence="belzee:mild"))
    assert "belzee:mild" not in text, text
    assert "Belzee's konsekwencja łagodna (mild)" in text, text


def test_punkty_losu_agree_with_their_number() -> None:
    assert punkty_losu(1) == "1 Punkt Losu (fate point)"
    assert [punkty_losu(n).split()[1] for n in (2, 3, 4, 5, 11, 12, 22, 25)] == [
        "Punkty",
        "Punkty",
        "Punkty",
        "Punktów",
        "Punktów",
        "Punktów",
        "Punkty",
        "Punktów",
    ]


def test_conceding_with_no_consequence_gains_one_punkt_losu() -> None:
    """Fails on ``gain 1 Punkty Losu``."""
    state = knife_fight()
    text = state.describe_action("belzee", Action.of("concede"))
    assert "gain 1 Punkt Losu (fate point)" in text, text
