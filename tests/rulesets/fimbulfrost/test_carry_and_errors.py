"""Carrying a conflict into the next one, and the errors a scenario writer meets."""

from __future__ import annotations

from typing import Any

import pytest

from konflikt.core.scenario import scenario_from_document
from konflikt.core.state import CHANCE
from konflikt.errors import KonfliktError, ScenarioError
from konflikt.rulesets.fimbulfrost import aftermath
from konflikt.rulesets.fimbulfrost.models import Character
from konflikt.rulesets.fimbulfrost.state import FimbulfrostState
from tests.rulesets.fimbulfrost.helpers import ALL, act, doc, hero, present_each_other, roll, start, to_round2


def carry_over(state: FimbulfrostState) -> dict[str, Any]:
    """The character documents of the aftermath hook."""
    return {pid: dict(document) for pid, document in aftermath(state).characters.items()}


def _lost_with_spending() -> FimbulfrostState:
    state = start(options={"borrowed_time": True})
    to_round2(state)
    act(state, "describe", **ALL)
    act(state, "describe", **ALL)
    roll(state, 0)
    roll(state, 0)
    roll(state, 0)
    act(state, "armour", dice=2)
    act(state, "borrowed_time")
    act(state, "done")
    act(state, "done")
    roll(state, 1)
    roll(state, 0)  # robbers at 3: each hero buys 3
    _buy_keeping_pools(state)
    return state


def _buy_keeping_pools(state: FimbulfrostState) -> None:
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(next(a for a in legal if a.get("entry") not in ("grej-tabt", "rustning-flaeret")))


def test_carry_over_keeps_consequences_spent_pools_and_borrowed_time() -> None:
    state = _lost_with_spending()
    docs = carry_over(state)
    budolf, rudolf = Character.model_validate(docs["budolf"]), Character.model_validate(docs["rudolf"])
    assert budolf.rustning == 3 and rudolf.rustning == 6
    assert rudolf.laant_tid == 1 and budolf.laant_tid == 0
    assert len(budolf.konsekvenser) == 3 and len(rudolf.konsekvenser) == 3
    assert budolf.status == 6  # Status is the conflict's own track
    assert Character.model_validate(docs["roeverne"]).role == "opponent"


def test_the_aftermath_names_each_consequence_with_its_english() -> None:
    """What ``run`` and ``play`` print under "after the conflict": each consequence bought in Danish with the
    English beside it, as the outcome names them (not the Danish alone)."""
    state = _lost_with_spending()
    lines = aftermath(state).lines
    heroes = [line for line in lines if line.startswith(("Budolf", "Rudolf"))]
    assert len(heroes) == 2 and all("konsekvenser (consequences): " in line for line in heroes), lines
    for i, line in enumerate(heroes):
        for entry_id in state.taken[i]:
            entry = state.catalogue.entry(entry_id)
            assert f"{entry.da} ({entry.en})" in line, (entry_id, line)


def test_carried_documents_start_the_next_conflict() -> None:
    docs = carry_over(_lost_with_spending())
    nxt = start(heroes=[hero("budolf", **docs["budolf"]), hero("rudolf", **docs["rudolf"])])
    assert nxt.pools[0][0] == 3
    assert nxt.carried[0] == frozenset(docs["budolf"]["konsekvenser"])


def test_pools_spent_off_restores_the_pools() -> None:
    state = start(options={"pools_spent": False})
    to_round2(state)
    act(state, "describe", **ALL)
    act(state, "describe", **ALL)
    roll(state, 0)
    roll(state, 0)
    roll(state, 0)
    act(state, "armour", dice=5)
    act(state, "done")  # Rudolf
    act(state, "done")  # Budolf
    roll(state, 0)  # only Budolf has dice
    _buy_keeping_pools(state)
    assert carry_over(state)["budolf"]["rustning"] == 5


def test_carry_over_needs_a_finished_conflict() -> None:
    with pytest.raises(KonfliktError, match="not over"):
        carry_over(start())


def test_two_opponents_are_two_conflicts() -> None:
    d = doc()
    d["sides"][1]["participants"].append(hero("dragen", character="builtin:drage"))
    with pytest.raises(ScenarioError, match="exactly one opponent"):
        scenario_from_document(d, "x.toml")


def test_a_hero_with_kamp_is_refused() -> None:
    with pytest.raises(ScenarioError, match="a hero has no Kamp pool"):
        start(heroes=[hero("budolf", character="builtin:budolf", kamp=3)])


def test_unknown_list_and_carried_consequence_are_named() -> None:
    with pytest.raises(ScenarioError, match="no consequence list 'trold'"):
        start(opponent=hero("x", character="builtin:roeverbanden", konsekvensliste="trold"))
    with pytest.raises(ScenarioError, match="unknown carried consequence 'hovedpine'"):
        start(heroes=[hero("budolf", character="builtin:budolf", konsekvenser=["hovedpine"])])


def test_a_typo_in_a_character_field_is_caught() -> None:
    with pytest.raises(ScenarioError, match="omdome"):
        start(heroes=[hero("budolf", character="builtin:budolf", omdome=3)])


def test_the_aftermath_says_in_which_round_pool_dice_went() -> None:
    """Pool dice are spent in round 3 — except the weapon pool under the option ``weapon_pool``, which a hero may
    also roll in round 2: its line then names both rounds, never round 3 alone."""
    spent_armour = [line for line in aftermath(_lost_with_spending()).lines if "spent in" in line]
    assert spent_armour and all("runde (round) 3" in line and "2 or 3" not in line for line in spent_armour)

    heroes = [hero("budolf", character="builtin:budolf", vaaben=2), hero("rudolf", character="builtin:rudolf")]
    state = start(heroes=heroes, options={"weapon_pool": True})
    present_each_other(state)
    while state.pools[0][2] == 2 and not state.is_terminal():
        if state.current_player() == CHANCE:
            roll(state, 0)
            continue
        legal = state.legal_actions()
        state.apply_action(next((a for a in legal if a.kind == "weapon" and a["dice"]), legal[0]))
    assert state.round == 2, "the weapon die went in round 2"
    _play_out(state)
    lines = [line for line in aftermath(state).lines if "spent in" in line]
    assert any("runde (round) 2 or 3" in line for line in lines), lines


def _play_out(state: FimbulfrostState) -> None:
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            roll(state, 0)
        else:
            legal = state.legal_actions()
            state.apply_action(next((a for a in legal if a.get("entry") not in ("grej-tabt",)), legal[0]))
