"""The text's worked example: 'Eventyrerne Budolf og Rudolf møder en bande røvere', fact by fact."""

from __future__ import annotations

from fractions import Fraction

import pytest

from konflikt.core.actions import Action
from konflikt.core.scenario import load_scenario
from konflikt.dice import SuccessPool
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.policies import HeuristicPolicy
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from tests.rulesets.fimbulfrost.helpers import act, hero, present_each_other, roll, start, to_round2


def test_budolf_and_rudolf_have_the_texts_numbers() -> None:
    state = start()
    budolf, rudolf = state.chars
    assert (budolf.omdomme, budolf.status, budolf.rustning) == (4, 6, 5)
    assert (rudolf.omdomme, rudolf.status, rudolf.rustning) == (3, 4, 6)
    assert (state.opp.omdomme, state.opp.kamp, state.opp.status) == (2, 3, 6)


@pytest.mark.through_cli
def test_budolf_rolls_4d6_and_rudolf_3d6_when_presented_by_each_other() -> None:
    state = start()
    present_each_other(state)
    assert state.pending_roll() == SuccessPool(4)
    roll(state, 0)
    assert state.pending_roll() == SuccessPool(3)


@pytest.mark.through_cli
def test_budolf_presenting_himself_rolls_3d6() -> None:
    state = start(options={"presenters": "any"})
    act(state, "present", by="budolf")
    act(state, "present", by="budolf")
    assert state.pending_roll() == SuccessPool(3)


@pytest.mark.through_cli
def test_budolf_may_give_rudolf_morale_against_the_robbers_answer() -> None:
    state = start()
    present_each_other(state)
    roll(state, 3)
    roll(state, 0)
    assert Action.of("split", opponent=1, morale_rudolf=2) in state.legal_actions()
    act(state, "split", opponent=1, morale_rudolf=2)
    assert state.opp_status == 5
    assert state.morale == [0, 2]


def test_budolf_example_robbers_roll_2d6_and_cannot_drive_anyone_out() -> None:
    state = start()
    present_each_other(state)
    roll(state, 0)
    roll(state, 0)
    assert state.pending_roll() == SuccessPool(2)
    assert max(r.successes for r in SuccessPool(2).distribution()) == 2
    best = max(r for r in state.chance_outcomes())[0]
    roll(state, best.successes)
    for split in state.legal_actions():
        twin = state.clone()
        twin.apply_action(split)
        assert twin.fate == [0, 0], f"{split} would drive a hero out"
        assert twin.round == 2


@pytest.mark.through_cli
def test_budolf_example_the_dragon_with_omdomme_12_could_frighten_both_heroes_off() -> None:
    """ "mens en drage vil f.eks. have omdømme 12, kamp 12 og status 12 … Havde det været dragen med 12 i omdømme,
    kunne det være, at de eventyrere fornuftigt nok var rendt i skræk": the bundled dragon has the text's numbers,
    answers round 1 with 12d6, and that roll can drive Budolf and Rudolf out of the fight before round 2."""
    state = start(opponent=hero("dragen", character="builtin:drage"))
    assert (state.opp.omdomme, state.opp.kamp, state.opp.status) == (12, 12, 12)
    present_each_other(state)
    roll(state, 0)
    roll(state, 0)
    assert state.pending_roll() == SuccessPool(12)
    roll(state, 10)
    act(state, "hit", budolf=6, rudolf=4)
    assert state.fate == [1, 1] and state.is_terminal()
    assert state.outcome().ending == "heroes_out" and state.round == 1


@pytest.mark.through_cli
def test_budolf_example_round1_defeat_when_successes_reach_status() -> None:
    state = start()
    present_each_other(state)
    roll(state, 4)
    roll(state, 3)
    act(state, "split", opponent=4)
    act(state, "split", opponent=3)
    assert state.opp_status == -1
    assert state.result == 1 and state.round == 1


@pytest.mark.through_cli
def test_budolf_and_rudolf_each_earn_3d6_in_round2() -> None:
    state = start()
    to_round2(state)
    assert state.phase == P.R2_DESCRIBE
    act(state, "describe", stil=True, stunt=True, snak=True)
    act(state, "describe", stil=True, stunt=True, snak=True)
    assert state.pending_roll() == SuccessPool(3)
    roll(state, 1)
    assert state.pending_roll() == SuccessPool(3)


@pytest.mark.through_cli
def test_budolf_example_round2_victory_costs_a_consequence_per_1() -> None:
    state = start()
    to_round2(state, 2, 2)  # robbers at 2
    act(state, "describe", stil=True, stunt=True, snak=True)
    act(state, "describe", stil=True, stunt=True, snak=True)
    roll(state, 2, 1)
    roll(state, 1, 0)
    assert state.opp_status == -1 and state.result == 1
    # the heroes may buy one consequence for the robbers; then Budolf buys one for his 1
    assert state.current_player() == "budolf"
    act(state, "spare")
    assert state.current_player() == "budolf"
    act(state, "consequence", entry="skramme")
    assert state.is_terminal()
    assert state.taken == [["skramme"], []]


@pytest.mark.through_cli
def test_budolf_example_robbers_strike_back_with_kamp_3d6() -> None:
    state = start()
    to_round2(state)
    act(state, "describe", stil=True, stunt=True, snak=True)
    act(state, "describe", stil=True, stunt=True, snak=True)
    roll(state, 1)
    roll(state, 1)
    assert state.opp_status == 2
    assert state.pending_roll() == SuccessPool(3)
    roll(state, 3)
    act(state, "hit", budolf=1, rudolf=2)
    assert state.hstatus == [5, 2]
    assert state.round == 3


def _to_round3(state: FimbulfrostState) -> None:
    to_round2(state)
    act(state, "describe", stil=True, stunt=True, snak=True)
    act(state, "describe", stil=True, stunt=True, snak=True)
    roll(state, 1)
    roll(state, 1)  # robbers at 2
    roll(state, 0)


@pytest.mark.through_cli
def test_budolf_takes_armour_dice_and_rudolf_gets_even_wilder_in_round3() -> None:
    state = start()
    _to_round3(state)
    assert state.phase == P.R3_TURN and state.current_player() == "budolf"
    act(state, "armour", dice=2)
    assert state.current_player() == "rudolf"
    act(state, "wilder", by="budolf")
    act(state, "done")
    act(state, "done")
    assert state.pools[0] == [3, 0, 0]
    assert state.pending_roll() == SuccessPool(2)
    roll(state, 2)
    assert state.pending_roll() == SuccessPool(1)
    roll(state, 0)
    assert state.result == 1 and state.opp_status == 0


@pytest.mark.through_cli
def test_budolf_example_round3_victory_costs_each_hero_a_consequence_per_1_from_the_round3_list() -> None:
    """Runde 3, "Trin 3A: Er Status på 0 eller lavere er modstanderen overvundet … For hver 1’er, der er rullet, skal
    helten desuden købe en konsekvens til sig selv": the robbers fall to the final roll, and each 1 in it costs the
    hero who rolled it one entry of the round-3 list."""
    state = start()
    _to_round3(state)  # robbers at 2
    act(state, "armour", dice=3)
    act(state, "wilder", by="budolf")
    act(state, "done")
    act(state, "done")
    roll(state, 2, 1)  # Budolf's 3d6: two successes and a 1
    roll(state, 0, 1)  # Rudolf's 1d6: a 1
    assert state.result == 1 and state.opp_status == 0
    assert state.asks == [("mishap", 0, 1, 3), ("mishap", 1, 1, 3)]
    runde3 = {e.id for e in state.catalogue.lists["runde3"].entries}
    for _ in range(2):
        assert {str(a.get("entry")) for a in state.legal_actions()} <= runde3
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and [len(t) for t in state.taken] == [1, 1]
    assert state.outcome().ending == "opponent_defeated"


@pytest.mark.through_cli
def test_budolf_example_loss_in_round3_each_buys_the_remaining_status() -> None:
    state = start()
    _to_round3(state)
    act(state, "armour", dice=1)
    act(state, "wilder", by="budolf")
    act(state, "done")
    act(state, "done")
    roll(state, 0)
    roll(state, 0)
    assert state.result == 2 and state.opp_status == 2
    assert state.asks == [("cons", 0, 2, 3), ("cons", 1, 2, 3)]
    for _ in range(4):
        entry = state.legal_actions()[0]
        state.apply_action(entry)
    assert state.is_terminal()
    assert [len(t) for t in state.taken] == [2, 2]
    outcome = state.outcome()
    assert outcome.ending == "heroes_lost" and outcome.winners == ("fjende",)


def test_robbers_scenario_file_is_the_texts_example() -> None:
    scenario = load_scenario("fimbulfrost/robbers")
    names = [p.name for p in scenario.participants()]
    assert names == ["Budolf", "Rudolf", "Røverbanden"]


def test_budolf_example_probability_the_robbers_fall_in_round1() -> None:
    """4d6 + 3d6 all on the robbers (Status 6): at least 6 successes of 7 dice."""
    assert sum(p for r, p in SuccessPool(7).distribution().items() if r.successes >= 6) == Fraction(8, 128)


def _budolf_spends_all_his_armour_and_the_heroes_lose_round3(
    options: dict[str, object] | None = None,
) -> FimbulfrostState:
    """The example's round 3 ("Budolf tager terninger fra sin rustningspulje, mens Rudolf får beskrevet sine handlinger
    endnu vildere") with Budolf taking his whole armour pool (5), after rounds 1 and 2 where nobody scores: the
    robbers keep Status 6 and the heroes have lost ("skal købe negative konsekvenser for deres modstanderes
    tilbageværende Status-point"): each buys 6."""
    state = start(options=options)
    to_round2(state, 0, 0)
    act(state, "describe", stil=True, stunt=True, snak=True)
    act(state, "describe", stil=True, stunt=True, snak=True)
    roll(state, 0)
    roll(state, 0)
    roll(state, 0)  # the robbers' Kamp: nothing
    act(state, "armour", dice=5)
    act(state, "wilder", by="budolf")
    act(state, "done")
    act(state, "done")
    roll(state, 0)
    roll(state, 0)
    assert state.result == 2 and state.opp_status == 6 and state.pools[0] == [0, 0, 0]
    assert state.asks == [("cons", 0, 6, 3), ("cons", 1, 6, 3)]
    return state


@pytest.mark.through_cli
def test_budolf_example_armour_spent_and_round3_lost_death_only_when_nothing_else_is_left() -> None:
    """ "spilleren bliver kun tvunget ud i at vælge denne, hvis der ikke er flere valgmuligheder tilbage på listen":
    Budolf, with no gear and his armour spent, still has 'Grejet er tabt' and 'Rustningen er flænset' on the round-3
    list (each unchosen until he chooses it), so his 6 points buy 6 of the 7 entries before død and he lives; død is
    offered beside them all the way (it may be chosen, it is forced only at the end)."""
    state = _budolf_spends_all_his_armour_and_the_heroes_lose_round3()
    for left in range(6, 0, -1):
        assert state.current_player() == "budolf" and state.asks[0] == ("cons", 0, left, 3)
        offered = [str(a["entry"]) for a in state.legal_actions()]
        assert "doed" in offered and len(offered) == 8 - (6 - left), offered
        state.apply_action(HeuristicPolicy().choose(state, "budolf", None))  # type: ignore[arg-type]
    assert state.fate[0] != 2 and "doed" not in state.taken[0] and len(state.taken[0]) == 6
    assert {"grej-tabt", "rustning-flaeret"} <= set(state.taken[0])
    while not state.is_terminal():
        state.apply_action(HeuristicPolicy().choose(state, state.current_player(), None))  # type: ignore[arg-type]
    assert state.fate == [0, 0] and state.outcome().data["dead"] == 0


def test_budolf_example_under_the_option_consequence_must_cost_he_dies() -> None:
    """konflikt's own option ``consequence_must_cost`` (off by default) keeps the old reading "a consequence must cost
    something": with gear and armour gone, two entries are hidden, five are left before død, and the sixth point kills
    Budolf."""
    state = _budolf_spends_all_his_armour_and_the_heroes_lose_round3({"consequence_must_cost": True})
    offered = {str(a["entry"]) for a in state.legal_actions()}
    assert not offered & {"grej-tabt", "rustning-flaeret"}
    for _ in range(6):
        state.apply_action(HeuristicPolicy().choose(state, "budolf", None))  # type: ignore[arg-type]
    assert state.fate[0] == 2 and state.taken[0][-1] == "doed"
