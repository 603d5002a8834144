"""The GM's "who wins from here" panel: exact within the budget, else an estimate with its interval; for the GM only."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import cast

from konflikt.analysis.exact import conflict_odds
from konflikt.core.conflict import Conflict
from konflikt.core.scenario import load_scenario
from konflikt.core.state import GM, State
from konflikt.sim.runner import StepGenerators, seat_policies
from konflikt.web.odds import who_wins_from_here
from tests.web.helpers import frame, new_table, post, serving


def states_of_a_duel(seed: int) -> list[State]:
    """Every state of one Le våld duel played by the heuristic policies."""
    scenario = load_scenario("levald/duel")
    policies = seat_policies(scenario)
    state, gen = Conflict(scenario, {}, seed).start(), StepGenerators(seed)
    states = [state.fork()]
    while not state.is_terminal():
        node = state.current_player()
        if state.is_chance_node():
            dice = state.pending_roll()
            assert dice is not None
            state.apply_action(dice.sample(gen.dice_for(state)))
        elif state.is_simultaneous_node():
            seat = state.waiting_for()[0]
            policy = policies[seat]
            assert policy is not None
            state.apply_actions({seat: policy.choose(state, seat, gen.policy_for(state, seat))})
        else:
            policy = policies[node]
            assert policy is not None
            state.apply_action(policy.choose(state, node, gen.policy_for(state, node)))
        states.append(state.fork())
    return states


def test_near_the_end_the_panel_is_exact_and_names_the_sides_with_humans_played_by_the_heuristic() -> None:
    scenario = load_scenario("levald/duel")
    seats = {p.id: "human" for p in scenario.participants()} | {GM: scenario.gm}
    states = states_of_a_duel(4)
    exact = []  # walking back from the end: the earliest of a few states still within the budget (cheap near the end)
    for earlier in states[-2:-6:-1]:
        # a generous budget: what is tested is the panel's exact answer, not how fast a loaded machine finds it
        answer = who_wins_from_here(scenario, earlier.fork(), seats, budget=10.0)
        if answer.method != "exact":
            break
        exact.append((earlier, answer))
    assert exact, answer.note
    state, answer = exact[-1]
    assert "hedda, snurre played by the heuristic policy" in answer.note
    heuristic = {s: p for s, p in seat_policies(scenario, {"hedda": "heuristic", "snurre": "heuristic"}).items() if p}
    odds = conflict_odds(state.fork(), heuristic, 100_000)
    winners = {cast(tuple[str, ...], w): p for w, p in odds.winners().items()}
    by_side = {side.id: sum((p for w, p in winners.items() if side.id in w), Fraction(0)) for side in scenario.sides}
    shown = {who.split(" (")[0]: p for who, p, low, high in answer.rows if low == high == p}
    assert len(shown) == len(answer.rows) and sum(winners.values()) == Fraction(1)
    assert {side.name: float(by_side[side.id]) for side in scenario.sides} == {
        name: p for name, p in shown.items() if name != "nobody"
    }
    assert [p for _, p, _, _ in answer.rows] == sorted((p for _, p, _, _ in answer.rows), reverse=True)
    start = who_wins_from_here(scenario, states[0].fork(), seats, budget=3.0)
    assert start.method == "estimate" and start.note.startswith("≈")
    assert all(low <= p <= high for _, p, low, high in start.rows)
    total = sum(p for _, p, _, _ in start.rows)  # a loaded machine may finish no conflict in time: the note says so
    assert abs(total - 1) < 1e-9 or "no conflict played to its end" in start.note


def test_only_the_gm_asks_and_the_answer_reaches_the_gm_page_at_that_step(tmp_path: Path) -> None:
    with serving(tmp_path / "k.sqlite") as (client, _):
        cid, tokens = new_table(client, "levald/duel", ("snurre", "hedda"))
        assert post(client, cid, tokens["hedda"], {"type": "odds"}) == (400, {"error": "only the GM may ask the odds"})
        assert frame(client, cid, tokens[GM])["odds"] is None
        code, body = post(client, cid, tokens[GM], {"type": "odds"})
        assert code == 200 and body["odds"]["method"] in ("exact", "estimate") and 'id="ask-odds"' not in body["html"]
        assert "odds" not in frame(client, cid, tokens["hedda"])
        assert post(client, cid, tokens["hedda"], {"type": "act", "step": 0, "choice": 0})[0] == 200
        assert frame(client, cid, tokens[GM])["odds"] is None  # the table moved on: ask again
