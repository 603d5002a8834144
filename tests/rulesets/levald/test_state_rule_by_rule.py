"""The fight as LevaldState plays it, rule by rule, where `scripts/mutation.sh levald:state` found no test.

Each test scripts the dice and the choices, then asserts the rule's exact effect: the tracks, the phase, the seat to
act, and the words the table reads (kind and text of every event: the GM reads them aloud, so they are part of the
behaviour). The event lists were checked by hand against the text's round: movement → leaving and its free attack
→ initiative → attack/defence/counter → damage → gain ground.
"""

from __future__ import annotations

from konflikt.core.state import TERMINAL
from konflikt.rulesets.levald.state import LevaldState
from tests.rulesets.levald.helpers import act, document, fighter, move, roll, state_of


def events(state: LevaldState, since: int = 0) -> list[tuple[str, str]]:
    return [(e.kind, e.text) for e in state.history()[since:]]


THRESHOLDS = "Stridsvana (combat experience) 50, Gard (guard) 12, trösklar (thresholds) 6/12/28/38"


# ---- the round's words, kind and text ------------------------------------------------------------------------------
def test_the_gm_sets_conditions_then_a_counter_follows_the_attack_word_for_word() -> None:
    """GM conditions, the secret movement and its contest, the table's initiative, attack, counter, damage."""
    state = state_of(document(fighter("a"), fighter("b", "Spjut"), "Stång", gm_conditions=True))
    act(state, "cornered", who="b")
    act(state, "unprepared", who="a")
    act(state, "cornered", who="b")
    act(state, "unprepared", who="a")
    act(state, "fight")
    move(state, a="advance", b="hold")
    roll(state, 20, 90)  # a wins the contest: Stång → Svärd
    act(state, "attack")
    act(state, "counter")
    roll(state, 35, 3)  # a's attack (effect 8) hits undefended: 8 + 3T6 3 = 11 on b's Gard 12
    roll(state, 30, 2)  # b's counter (effect 3): 3 + Spjut's guarded 1T6 2 = 5 on a's Gard 12
    assert events(state) == [
        (
            "setup",
            "test — A (Left): Svärd (sword) [Enhandsvapen (one-handed weapons) 60%, anfall (attack) 60, försvar "
            f"(defence) 60, 3T6/3T6, längd (length) Svärd (sword)], {THRESHOLDS}; B (Right): Spjut (spear) "
            f"[Stångvapen (pole weapons) 60%, anfall (attack) 70, försvar (defence) 70, 1T6/3T6, längd (length) "
            f"Spjut (spear)], {THRESHOLDS}",
        ),
        ("round", "Runda (round) 1: A mot (vs) B at Stång (pole); the GM may set conditions"),
        ("condition", "Spelledaren (GM): B is now inträngd i ett hörn (cornered)"),
        ("condition", "Spelledaren (GM): A is now ej beredd (unprepared: Gard does not count)"),
        ("condition", "Spelledaren (GM): B is now free to move back (kan backa)"),
        ("condition", "Spelledaren (GM): A is now beredd (prepared)"),
        ("round", "Deklarera rörelse (declare movement) in secret"),
        ("movement", "Rörelse (movement) revealed: A Avancera (advance), B Bibehålla (hold)"),
        (
            "roll",
            "A: Stridsvana (combat experience) 20 mot (vs) 50 → "
            "lyckat (success), effekt (effect) 2 "
            "(2 + 0: the roll's two dice added, summan av tärningarna i procentslaget)",
        ),
        ("roll", "B: Stridsvana (combat experience) 90 mot (vs) 50 → misslyckat (failure), effekt (effect) 9"),
        ("distance", "Avancera (advance): A's success beats B's failure → avståndet (distance) Stång → Svärd"),
        (
            "initiative",
            "Initiativ (initiative) at Svärd (sword): A optimalt (optimal), B för kort (too close) → "
            "A is anfallare (attacker), B försvarare (defender)",
        ),
        ("choice", "A anfaller (attacks)"),
        ("choice", "B kontrar (counter-attacks): no defence roll"),
        ("roll", "A: anfallsslag (attack) 35 mot (vs) 60 → lyckat (success), effekt (effect) 8"),
        (
            "damage",
            "B tar 11 skada (damage): effekt (effect) 8 + 3T6 3; on Gard 12 → 1; nothing falls through: no wound",
        ),
        ("roll", "B: motanfall (counter-attack) 30 mot (vs) 70 → lyckat (success), effekt (effect) 3"),
        (
            "damage",
            "A tar 5 skada (damage): effekt (effect) 3 + 1T6 2; on Gard 12 → 7; nothing falls through: no wound",
        ),
    ]
    assert [e.data.get("change") for e in state.history() if e.kind == "distance"] == [-1]
    assert state.gard == [7, 1] and state.phase == "ground" and state.current_player() == "a"
    since = len(state.history())
    act(state, "ground", step=1)
    assert events(state, since) == [
        (
            "ground",
            "Vinna terräng (gain ground): A does not follow (följer inte efter, +1 step) → avståndet (distance) Stång",
        ),
        ("round", "Runda (round) 2: A mot (vs) B at Stång (pole); the GM may set conditions"),
    ]


def test_nobody_wins_the_movement_contest_the_option_nobody_chose_and_both_too_far_regain() -> None:
    state = state_of(document(fighter("a"), fighter("b"), "Stång"))
    move(state, a="advance", b="hold")
    roll(state, 90, 95)  # both fail: retreat, which nobody chose
    assert events(state, 2) == [
        ("movement", "Rörelse (movement) revealed: A Avancera (advance), B Bibehålla (hold)"),
        (
            "roll",
            "A: Stridsvana (combat experience) 90 mot (vs) 50 → "
            "misslyckat (failure), effekt (effect) 9 "
            "(9 + 0: the roll's two dice added, summan av tärningarna i procentslaget)",
        ),
        ("roll", "B: Stridsvana (combat experience) 95 mot (vs) 50 → misslyckat (failure), effekt (effect) 14"),
        (
            "distance",
            "Retirera (retreat): both fail: nobody wins; the option nobody chose → avståndet (distance) Stång → Spjut",
        ),
        (
            "initiative",
            "Initiativ (initiative) at Spjut (spear): A för långt (too far), B för långt (too far): both too far, "
            "nobody can fight: ingen anfallare (no attacker), nobody needs to defend",
        ),
        ("gard", "A återfår ett poäng Gard (regains 1 Gard): 12 → 12 (at its maximum)"),
        ("gard", "B återfår ett poäng Gard (regains 1 Gard): 12 → 12 (at its maximum)"),
        ("round", "Runda (round) 2: A mot (vs) B at Spjut (spear); deklarera rörelse (declare movement) in secret"),
    ]


def test_nobody_wins_the_initiative_roll_says_so_without_the_option_nobody_chose() -> None:
    state = state_of(document(fighter("a", gard_now=5), fighter("b", gard_now=11), "Svärd"))
    move(state, a="hold", b="hold")
    roll(state, 90, 99)
    assert events(state, 3) == [
        ("distance", "Bibehålla (hold): both wished the same → avståndet (distance) stays Svärd"),
        (
            "initiative",
            "Initiativ (initiative) at Svärd (sword): A optimalt (optimal), B optimalt (optimal): opposed Stridsvana "
            "roll",
        ),
        (
            "roll",
            "A: Stridsvana (combat experience) 90 mot (vs) 50 → "
            "misslyckat (failure), effekt (effect) 9 "
            "(9 + 0: the roll's two dice added, summan av tärningarna i procentslaget)",
        ),
        ("roll", "B: Stridsvana (combat experience) 99 mot (vs) 50 → misslyckat (failure), effekt (effect) 18"),
        (
            "initiative",
            "Nobody won the Stridsvana roll for the initiative (both fail: nobody wins): ingen anfallare "
            "(no attacker), nobody needs to defend",
        ),
        ("gard", "A återfår ett poäng Gard (regains 1 Gard): 5 → 6"),
        ("gard", "B återfår ett poäng Gard (regains 1 Gard): 11 → 12"),
        ("round", "Runda (round) 2: A mot (vs) B at Svärd (sword); deklarera rörelse (declare movement) in secret"),
    ]
    assert state.gard == [6, 12] and state.holder == [-1]


def test_a_miss_a_held_defence_a_kept_initiative_and_not_attacking_word_for_word() -> None:
    state = state_of(document(fighter("a", gard_now=3), fighter("b", gard_now=4), "Svärd"))
    move(state, a="hold", b="hold")
    roll(state, 20, 90)
    act(state, "attack")
    act(state, "defend")
    roll(state, 95, 20)  # the attack fails
    since = len(state.history())
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 29, 10)  # the attack succeeds (effect 11), the defence is exceptional
    act(state, "ground", step=0)
    move(state, a="hold", b="hold")
    act(state, "regain")
    kept = (
        "initiative",
        "initiativet kvarstår (the initiative stays): nobody damaged the holder and the distance did not change → "
        "A is anfallare (attacker), B försvarare (defender)",
    )
    held = ("movement", "Rörelse (movement) revealed: A Bibehålla (hold), B Bibehålla (hold)")
    stays = ("distance", "Bibehålla (hold): both wished the same → avståndet (distance) stays Svärd")
    assert events(state)[7:15] == [
        (
            "initiative",
            "A won the Stridsvana roll (A's success beats B's failure) → A is anfallare (attacker), B "
            "försvarare (defender)",
        ),
        ("choice", "A anfaller (attacks)"),
        ("choice", "B försvarar sig (defends)"),
        ("roll", "A: anfallsslag (attack) 95 mot (vs) 60 → misslyckat (failure), effekt (effect) 14"),
        ("roll", "B: försvarsslag (defence) 20 mot (vs) 60 → lyckat (success), effekt (effect) 2"),
        ("attack", "No damage (ingen skada): the attack missed"),
        ("round", "Runda (round) 2: A mot (vs) B at Svärd (sword); deklarera rörelse (declare movement) in secret"),
        held,
    ]
    assert events(state, since) == [
        held,
        stays,
        kept,
        ("choice", "A anfaller (attacks)"),
        ("choice", "B försvarar sig (defends)"),
        ("roll", "A: anfallsslag (attack) 29 mot (vs) 60 → lyckat (success), effekt (effect) 11"),
        ("roll", "B: försvarsslag (defence) 10 mot (vs) 60 → exceptionellt (exceptional success), effekt (effect) 1"),
        ("attack", "No damage (ingen skada): the defence held (försvaret håller)"),
        ("ground", "Vinna terräng (gain ground): A follows (följer efter) → avståndet (distance) Svärd"),
        ("round", "Runda (round) 3: A mot (vs) B at Svärd (sword); deklarera rörelse (declare movement) in secret"),
        held,
        stays,
        kept,
        ("choice", "A does not attack (låter bli att anfalla)"),
        ("gard", "A återfår ett poäng Gard (regains 1 Gard): 3 → 4"),
        ("choice", "B need not roll anything"),
        ("gard", "B återfår ett poäng Gard (regains 1 Gard): 4 → 5"),
        ("round", "Runda (round) 4: A mot (vs) B at Svärd (sword); deklarera rörelse (declare movement) in secret"),
    ]


def test_with_one_defence_the_defence_roll_of_the_round_stands_against_the_next_attacker() -> None:
    doc = document(
        fighter("solo", "Spjut"), [fighter("x"), fighter("y")], "Svärd", {"several_attackers": "one_defence"}
    )
    state = state_of(doc)
    move(state, solo="hold", x="hold", y="hold")
    act(state, "attack")  # x
    act(state, "defend")
    act(state, "attack")  # y: every pair's choices before any roll
    act(state, "defend")
    roll(state, 50, 5)  # solo's exceptional defence holds against x
    since = len(state.history())
    roll(state, 50)
    assert events(state, since - 1) == [
        ("exchange", "Y mot (vs) Solo: anfalls- och försvarsslag (attack and defence rolls)"),
        ("roll", "Y: anfallsslag (attack) 50 mot (vs) 60 → lyckat (success), effekt (effect) 5"),
        ("attack", "Solo's defence roll of this round stands (one_defence)"),
        ("attack", "No damage (ingen skada): the defence held (försvaret håller)"),
    ]
    assert state.phase == "ground" and state.current_player() == "x"  # gaining ground comes last, x's first


# ---- leaving and the free attack ----------------------------------------------------------------------------------
def test_a_free_attack_that_hits_then_the_leaver_goes_word_for_word() -> None:
    state = state_of(document(fighter("a"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="leave", b="hold")
    roll(state, 90, 20, 30, 4)  # b holds Svärd; b's free attack: 3 + 1T6 4 = 7 on a's Gard 12
    assert events(state, 5) == [
        ("distance", "Bibehålla (hold): B's success beats A's failure → avståndet (distance) stays Svärd"),
        (
            "leave",
            "A lämnar striden (leaves the fight) within reach of B (Spjut): each gets a gratisanfall (free attack) "
            "that cannot be defended",
        ),
        ("roll", "B: gratisanfall (free attack) 30 mot (vs) 70 → lyckat (success), effekt (effect) 3"),
        (
            "damage",
            "A tar 7 skada (damage): effekt (effect) 3 + 1T6 4; on Gard 12 → 5; nothing falls through: no wound",
        ),
        ("leave", "A has left the fight (har lämnat striden)"),
        ("end", "Striden är över (the fight is over): Right holds the field"),
    ]
    outcome = state.outcome()
    assert outcome.ending == "left" and outcome.winners == ("right",)
    assert outcome.data == {
        "rounds": 1,
        "a.gard": 5,
        "b.gard": 12,
        "a.daze": 0,
        "b.daze": 0,
        "a.wounds": 0,
        "b.wounds": 0,
    }


def test_a_missed_free_attack_says_it_misses() -> None:
    state = state_of(document(fighter("a"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="leave", b="retreat")
    since = len(state.history())
    roll(state, 95)
    assert events(state, since) == [
        (
            "roll",
            "B: gratisanfall (free attack) 95 mot (vs) 70 → "
            "misslyckat (failure), effekt (effect) 14 "
            "(9 + 5: the roll's two dice added, summan av tärningarna i procentslaget)",
        ),
        ("attack", "B's attack misses (missar): no damage"),
        ("leave", "A has left the fight (har lämnat striden)"),
        ("end", "Striden är över (the fight is over): Right holds the field"),
    ]


def test_the_free_attack_ignoring_gard_says_why() -> None:
    doc = document(fighter("a"), fighter("b", "Spjut"), "Svärd", {"free_attack_ignores_gard": True})
    state = state_of(doc)
    move(state, a="leave", b="retreat")
    roll(state, 30, 4)
    damage = [text for kind, text in events(state) if kind == "damage"]
    assert damage == [
        "A tar 7 skada (damage): effekt (effect) 3 + 3T6 4; Gard 12 does not count (the free attack ignores Gard "
        "(free_attack_ignores_gard)); 7 compared with the skadetrösklar (thresholds) 6/12/28/38 → Lätt (light): kryss "
        "i rutan (box ticked); +4 Omtöckning (daze) → 4, 0% on all rolls"
    ]


def test_a_leaver_knocked_out_by_the_first_free_attack_takes_no_second() -> None:
    """ "fienden får då ett gratisanfall" — against a leaver still standing: once utslagen, the next enemy's is void."""
    doc = document(fighter("solo", gard_now=0, kraft=10, själ=0), [fighter("x", "Spjut"), fighter("y")], "Svärd")
    state = state_of(doc)
    move(state, solo="leave", x="hold", y="hold")
    roll(state, 90, 20, 90, 20)  # x and y each win their movement contest: Svärd holds, both reach
    roll(state, 35, 8)  # x's free attack: 8 + Spjut's open 3T6 8 = 16: Kritisk (10 ≤ 16 < 20; Gard 0: open dice)
    assert state.fate == ["knocked_out", "fighting", "fighting"]
    assert state.current_player() == TERMINAL
    assert sum("gratisanfall" in text for kind, text in events(state) if kind == "roll") == 1


def test_the_centre_gets_its_free_attack_on_an_enemy_leaving_from_the_second_pair() -> None:
    """Every pair holding the leaver is checked, not only the first pair of the sub-fight."""
    state = state_of(document(fighter("solo", "Spjut"), [fighter("x"), fighter("y")], "Svärd"))
    move(state, solo="hold", x="hold", y="leave")
    roll(state, 20, 90)  # solo wins the contest with y: Svärd holds, within solo's Spjut
    assert state.phase == "free_roll" and (state.att, state.dfn) == (0, 2)
    roll(state, 30, 2)  # solo: effect 3 + Spjut's guarded 1T6 2 = 5 on y's Gard 12
    assert state.gard == [12, 12, 7] and state.fate == ["fighting", "fighting", "left"]


def test_an_enemy_leaving_too_gets_no_free_attack_but_the_one_staying_does() -> None:
    state = state_of(document(fighter("solo"), [fighter("x", "Spjut"), fighter("y", "Spjut")], "Svärd"))
    move(state, solo="leave", x="leave", y="hold")
    roll(state, 90, 20)  # y holds Svärd against solo
    assert state.phase == "free_roll" and (state.att, state.dfn) == (2, 0)
    roll(state, 95)
    assert state.fate == ["left", "left", "fighting"] and state.current_player() == TERMINAL


# ---- damage, Omtöckning, wounds, endings ---------------------------------------------------------------------------
def test_with_deadly_wound_knocked_out_a_scratch_still_leaves_the_fighter_standing() -> None:
    state = state_of(document(fighter("a"), fighter("b", gard_now=0), "Svärd"), {"deadly_wound": "knocked_out"})
    move(state, a="hold", b="hold")
    roll(state, 20, 90)
    act(state, "attack")
    act(state, "defend")
    roll(state, 50, 90, 3)  # 5 + 3 = 8 with Gard 0: Lätt (6 ≤ 8 < 12)
    assert state.wounds[1] == [0, 1, 0, 0, 0] and state.fate == ["fighting", "fighting"]
    assert state.phase == "ground"


def test_a_killed_loser_ends_the_fight_dead_and_the_outcome_counts_the_boxes() -> None:
    state = state_of(document(fighter("a"), fighter("b", gard_now=0, kraft=4, själ=0), "Svärd"))
    move(state, a="hold", b="hold")
    roll(state, 20, 90)
    act(state, "attack")
    act(state, "defend")
    roll(state, 35, 90, 10)  # 18 ≥ Dödlig
    outcome = state.outcome()
    assert outcome.ending == "dead" and outcome.winners == ("left",)
    assert outcome.data == {
        "rounds": 1,
        "a.gard": 12,
        "b.gard": 0,
        "a.daze": 0,
        "b.daze": 0,
        "a.wounds": 0,
        "b.wounds": 1,
    }


def test_omtockning_lowers_the_defence_roll_too() -> None:
    """ "Omtöckning": −10 on all rolls from 6 on (10 here), the defence roll included."""
    state = state_of(document(fighter("a"), fighter("b", daze=10), "Svärd"))
    move(state, a="hold", b="hold")
    roll(state, 20, 90)
    act(state, "attack")
    act(state, "defend")
    roll(state, 50, 55)
    defence = [e for e in state.history() if e.kind == "roll"][-1]
    assert (defence.data["target"], defence.data["level"]) == (50, 0)
    assert state.pending_roll() is not None  # 55 > 50 failed: the attack (effect 5) hits


def test_bypass_dice_guarded_rolls_the_guarded_dice_but_compares_them_directly() -> None:
    state = state_of(document(fighter("a"), fighter("b", "Långsvärd"), "Svärd", {"bypass_dice": "guarded"}))
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 11, 90)  # exceptional: Gard does not count
    assert state.hit is not None and (state.hit.dst, state.hit.gard_bypassed, state.hit.guarded_dice) == (1, True, True)
    dice = state.pending_roll()
    assert dice is not None and dice.notation == "3T6"
    roll(state, 3)  # 2 + 3 = 5 compared directly: Skråma, Gard untouched
    assert state.gard == [12, 12] and state.wounds[1] == [1, 0, 0, 0, 0] and state.daze == [0, 1]
    damage = [text for kind, text in events(state) if kind == "damage"]
    assert "Gard 12 does not count (exceptionell framgång (exceptional success) ignores Gard)" in damage[0]


# ---- set-up, distances, bookkeeping --------------------------------------------------------------------------------
def test_gard_carried_in_is_capped_at_the_maximum_and_an_unknown_start_distance_is_kropp() -> None:
    state = state_of(document(fighter("a", gard_now=20), fighter("b", gard_now=4), "Klo"))
    assert state.gard == [12, 4]
    assert state.scale[state.dist[0]] == "Kropp"


def test_gaining_ground_reaches_fri_at_the_end_of_the_scale() -> None:
    state = state_of(document(fighter("a", "Spjut"), fighter("b"), "Spjut"))
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    roll(state, 29, 90, 3)
    act(state, "ground", step=1)
    assert state.scale[state.dist[0]] == "Fri"


def test_only_the_acting_defender_has_choices_while_the_attacker_decides() -> None:
    state = state_of(document(fighter("a"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="hold", b="hold")
    assert state.phase == "attacker"
    assert state.legal_actions("b") == ()
    assert [a.kind for a in state.legal_actions("a")] == ["attack", "regain"]


def test_the_key_tells_secret_choices_apart() -> None:
    one = state_of(document(fighter("a"), fighter("b"), "Svärd"))
    two = state_of(document(fighter("a"), fighter("b"), "Svärd"))
    move(one, a="advance")
    move(two, a="retreat")
    assert one.key() != two.key()


def test_invariants_name_a_distance_off_the_scale() -> None:
    state = state_of(document(fighter("a"), fighter("b"), "Svärd"))
    assert state.invariants() == []
    state.dist[0] = 9
    assert state.invariants() == ["pair 0: distance 9 off the scale"]


def test_a_holder_who_gained_ground_and_was_then_damaged_keeps_both_reasons_for_the_table() -> None:
    """The distance changed (the table decides afresh) and the holder was damaged in another pair: the table rules,
    not the damaged holder's new roll, since the changed distance is a reason of its own."""
    doc = document(
        fighter("solo", "Spjut"), [fighter("x", "Kortsvärd"), fighter("y", "Spjut")], "Spjut", cornered=["x"]
    )
    state = state_of(doc)
    move(state, solo="hold", x="hold", y="hold")
    roll(state, 90, 20)  # solo–y at Spjut: both optimal, y wins the roll (every pair's initiative first)
    assert (state.att, state.dfn) == (0, 1)  # Spjut: solo optimal, x's Kortsvärd (Dolk) too far
    act(state, "attack")
    act(state, "defend")
    act(state, "attack")  # y
    act(state, "defend")
    roll(state, 29, 90, 3)
    roll(state, 29, 90, 3)  # y damages solo, the holder of solo–x
    act(state, "ground", step=-1)  # x is cornered: solo steps in to Stång
    act(state, "ground", step=0)
    move(state, solo="hold", x="hold", y="hold")
    assert state.scale[state.dist[0]] == "Stång"
    assert state.phase == "attacker" and (state.att, state.dfn) == (0, 1)  # too close beats too far: no roll


def test_a_fight_over_before_it_starts_has_no_sub_fight_and_still_a_key() -> None:
    """A Kritisk box carried in ends the fight before round 1: nobody is the centre of a sub-fight."""
    state = state_of(document(fighter("a"), fighter("b", wounds={"kritisk": 1}), "Fri"))
    assert state.current_player() == TERMINAL and state.rounds == 1
    assert state.view("a")["subfight"] == []
    assert state.key() == state_of(document(fighter("a"), fighter("b", wounds={"kritisk": 1}), "Fri")).key()


def test_a_defended_attack_that_wins_says_so_and_gain_ground_records_its_step() -> None:
    state = state_of(document(fighter("a"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="hold", b="hold")
    act(state, "attack")
    act(state, "defend")
    since = len(state.history())
    roll(state, 35, 90, 4)  # effect 8 beats a failed defence: 8 + 3T6 4 = 12 empties b's Gard 12: a Skråma
    act(state, "ground", step=1)
    assert events(state, since)[2] == ("attack", "A's attack wins (anfallsslaget vinner): higher quality")
    ground = [e for e in state.history() if e.kind == "ground"]
    assert [e.data for e in ground] == [{"step": 1, "distance": 4}]  # Svärd + 1 = Stång


def test_with_several_pairs_each_distance_line_names_its_pair() -> None:
    state = state_of(document(fighter("solo", "Spjut"), [fighter("x"), fighter("y")], "Stång"))
    move(state, solo="advance", x="advance", y="advance")
    assert [text for kind, text in events(state) if kind == "distance"] == [
        "Solo–X: Avancera (advance): both wished the same → avståndet (distance) Stång → Svärd",
        "Solo–Y: Avancera (advance): both wished the same → avståndet (distance) Stång → Svärd",
    ]


def test_the_summary_names_the_winner_and_every_fate() -> None:
    state = state_of(document(fighter("a"), fighter("b", "Spjut"), "Svärd"))
    move(state, a="leave", b="retreat")
    roll(state, 95)
    assert state.outcome().summary == (
        "Right wins after 1 rounds: A har lämnat striden (left the fight), B står (standing)"
    )


def test_a_dodlig_box_carried_in_leaves_the_fighter_utslagen_under_deadly_wound_knocked_out() -> None:
    doc = document(fighter("a"), [fighter("b", wounds={"dodlig": 1}), fighter("c")], "Fri")
    assert state_of(doc).fate == ["fighting", "dead", "fighting"]
    assert state_of(doc, {"deadly_wound": "knocked_out"}).fate == ["fighting", "knocked_out", "fighting"]


def test_both_retreating_from_spjut_reach_fri_and_the_distance_line_records_it() -> None:
    state = state_of(document(fighter("a"), fighter("b"), "Spjut"))
    move(state, a="retreat", b="retreat")
    assert state.scale[state.dist[0]] == "Fri"
    assert [e.data for e in state.history() if e.kind == "distance"] == [{"distance": 6, "change": 1}]
    assert state.view("a")["pairs"][0]["initiative"] is None  # both too far: nobody holds the initiative


def test_a_knocked_out_defenders_lost_counter_is_an_attack_line() -> None:
    state = state_of(document(fighter("a"), fighter("b", gard_now=0, kraft=10, själ=0), "Svärd"))
    move(state, a="hold", b="hold")
    roll(state, 20, 90)
    act(state, "attack")
    act(state, "counter")
    roll(state, 35, 10)
    assert ("attack", "B is out: no counter-attack") in events(state)


def test_side_of_a_seat_that_is_no_fighter_is_none() -> None:
    state = state_of(document(fighter("a"), fighter("b"), "Svärd"))
    assert (state.side_of("a"), state.side_of("b"), state.side_of("nobody")) == ("left", "right", None)
