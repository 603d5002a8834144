"""``LevaldState.key()`` drops what a roll leaves behind once no rule reads it (the exact solvers and the bridge
from a saved state merge States by it), and keeps it while a rule still does."""

from __future__ import annotations

from konflikt.rulesets.levald.state import LevaldState
from tests.rulesets.levald.helpers import act, document, fighter, move, roll, state_of


def _at_the_defence_roll(attack: int) -> LevaldState:
    state = state_of(document(fighter("a"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, attack)
    assert state.phase == "defence_roll"
    return state


def test_the_defence_rolls_readings_merge_once_the_damage_is_next() -> None:
    one, two = _at_the_defence_roll(35), _at_the_defence_roll(35)
    roll(one, 90)  # two failed defences: the attack (effect 8) wins either way
    roll(two, 91)
    assert one.phase == two.phase == "damage" and one.rolls != two.rolls
    assert one.key() == two.key()
    roll(one, 4)
    roll(two, 4)
    assert one.phase == two.phase == "ground" and one.key() == two.key()
    act(one, "ground", step=1)
    act(two, "ground", step=1)
    assert one.key() == two.key() and one.gard == two.gard and one.dist == two.dist


def test_the_attack_rolls_reading_is_kept_while_the_defence_roll_still_reads_it() -> None:
    """The attack roll's effect decides the damage after the defence roll: 35 (effect 8) and 34 (effect 7) at the
    defence roll are different States."""
    assert _at_the_defence_roll(35).key() != _at_the_defence_roll(34).key()


def test_the_attack_quality_and_the_counter_flag_are_kept_until_the_exchange_is_done() -> None:
    """At the damage the attack's quality still decides whether the attacker may gain ground, and the counter flag
    whether a strike back follows: told apart there, merged once the ground is the only thing left."""
    at_damage = _at_the_defence_roll(35)
    roll(at_damage, 90)
    assert at_damage.phase == "damage"
    for field, other in (("att_quality", (0, 0)), ("counter", True), ("after", "counter")):
        changed = at_damage.fork()
        setattr(changed, field, other)
        assert changed.key() != at_damage.key(), field
    at_ground = at_damage.fork()
    roll(at_ground, 4)
    assert at_ground.phase == "ground"
    for field, other in (("att_quality", (0, 0)), ("counter", True), ("after", "counter"), ("rolls", (1, 2))):
        changed = at_ground.fork()
        setattr(changed, field, other)
        assert changed.key() == at_ground.key(), field
