"""Le våld's secret movement as a matrix game: a node solved by hand, and the same node through the real rules."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from konflikt.analysis.matrix_game import is_optimal
from konflikt.analysis.movement import Cell, movement_game
from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.core.state import CHANCE, State
from konflikt.errors import KonfliktError

DUEL = """
ruleset = "levald"
title = "a duel at sword's length"

[setup]
distance = "Svärd"

[setup.wield]
snurre = "Svärd"
hedda = "Spjut"

[[sides]]
id = "snurres"
[[sides.participants]]
id = "snurre"
character = "builtin:snurre"
stridsvana = 50

[[sides]]
id = "heddas"
[[sides.participants]]
id = "hedda"
character = "builtin:hedda"
stridsvana = 0
"""

PAYOFF = {"Dolk": F(1), "Svärd": F(0), "Stång": F(1)}
"""The hand-given worth to Snurre of each distance the movement can end at (one step in, stay, one step out)."""


def node(tmp_path: Path) -> State:
    path = tmp_path / "duel.toml"
    path.write_text(DUEL, encoding="utf-8")
    state = new_state(load_scenario(path), {"allow_leave": False})
    state.quiet = True
    return state


_WORTH: dict[object, Cell] = {}
"""Each state after a pair of markers, solved once for the module (10,000 pairs of d100 rolls a contest)."""


def by_distance(after: State, side: str, seed: int) -> Cell:
    """Snurre's worth of the distance the movement ends at, exact over the Stridsvana contest's d100 rolls."""
    assert side == "snurres"
    found = _WORTH.get(after.key())
    if found is not None:
        return found

    def value(state: State) -> F:
        if state.current_player() != CHANCE or state.phase != "move_roll":  # type: ignore[attr-defined]
            return PAYOFF[state.scale[state.dist[0]]]  # type: ignore[attr-defined]
        total = F(0)
        for outcome, p in state.chance_outcomes():
            on = state.fork()
            on.apply_action(outcome, checked=False)
            total += p * value(on)
        return total

    v = value(after)
    found = _WORTH[after.key()] = Cell(float(v), v)
    return found


def test_a_hand_solved_movement_node(tmp_path: Path) -> None:
    """Snurre (Stridsvana 50) and Hedda (Stridsvana 0) at Svärd distance, each choosing Avancera, Bibehålla or
    Retirera in secret; the distance each pair of markers leads to is worth 1 to Snurre at Dolk or Stång, 0 at Svärd.

    By the rules: equal wishes move that way. Different wishes go to a Stridsvana contest; Hedda never succeeds
    (0%), so Snurre wins it exactly when his d100 is ≤ 50 (p = 1/2) and his wish is done; otherwise both failed and
    "the option nobody chose" is done. With a(dvance) → Dolk (1), h(old) → Svärd (0), r(etreat) → Stång (1):

    - (a, a) = 1; (a, h): ½·a + ½·r = 1; (a, r): ½·a + ½·h = ½
    - (h, a): ½·h + ½·r = ½; (h, h) = 0; (h, r): ½·h + ½·a = ½
    - (r, a): ½·r + ½·h = ½; (r, h): ½·r + ½·a = 1; (r, r) = 1

    Row h (½, 0, ½) is never better than row a (1, 1, ½): Snurre never holds. Against rows a and r, column h
    (1, 1) is never better for Hedda than column a (1, ½): she never holds either. Left: [[1, ½], [½, 1]], whose
    indifference equations give ½ and ½ to each side and the value ¾. With those mixes row h earns ½ < ¾ and
    column h concedes 1 > ¾, so the solution is unique: both play Avancera ½, Bibehålla 0, Retirera ½; Snurre ¾.
    """
    game = movement_game(node(tmp_path), "snurre", by_distance)
    assert [a.kind for a in game.mine] == [a.kind for a in game.theirs] == ["advance", "hold", "retreat"]
    half = F(1, 2)
    assert [[c.exact for c in row] for row in game.cells] == [[1, 1, half], [half, 0, half], [half, 1, 1]]
    assert game.solution.row == (half, 0, half)
    assert game.solution.column == (half, 0, half)
    assert game.solution.value == F(3, 4)
    assert is_optimal([[c.exact for c in row] for row in game.cells], game.solution)  # type: ignore[misc]
    text = "\n".join(game.lines({"snurre": "Snurre", "hedda": "Hedda"}))
    assert "optimal mix (blandad strategi) for Snurre: Avancera (advance) 50%, Bibehålla (hold) 0%, " in text
    assert "Retirera (retreat) 50%" in text
    assert "value: Snurre wins 75.0% when both play their mixes" in text


def test_the_same_node_from_hedda_s_side(tmp_path: Path) -> None:
    """The column player's view: her chance is 1 minus Snurre's worth; the same mixes, value ¼."""

    def hers(after: State, side: str, seed: int) -> Cell:
        snurre = by_distance(after, "snurres", seed)
        assert snurre.exact is not None and side == "heddas"
        return Cell(1 - snurre.p, 1 - snurre.exact)

    game = movement_game(node(tmp_path), "hedda", hers)
    assert game.solution.row == (F(1, 2), 0, F(1, 2)) and game.solution.value == F(1, 4)


def test_a_hidden_marker_is_taken_back(tmp_path: Path) -> None:
    state = node(tmp_path)
    blind = movement_game(state, "snurre", by_distance)
    from konflikt.core.actions import Action

    state.apply_actions({"hedda": Action.of("retreat")})
    assert movement_game(state, "snurre", by_distance) == blind


def test_estimated_entries_carry_their_error(tmp_path: Path) -> None:
    """The default entries: the heuristic plays the fight out; the duel is too large for the exact solver."""
    from konflikt.analysis.movement import continuation, heuristic_policies

    state = node(tmp_path)
    game = movement_game(state, "snurre", continuation(heuristic_policies(state), playouts=4, max_states=0), seed=1)
    assert not game.exact
    for row in game.cells:
        for c in row:
            assert c.n == 4 and c.exact is None and c.se == pytest.approx((c.p * (1 - c.p) / 4) ** 0.5)
    assert is_optimal([[c.value() for c in row] for row in game.cells], game.solution)
    assert "± one standard error" in game.lines()[0]


def test_no_matrix_game_outside_a_secret_choice() -> None:
    state = new_state(load_scenario("presja/knife_fight"), {})
    with pytest.raises(KonfliktError, match="no secret choice"):
        movement_game(state, "belzee")
    one_against_two = new_state(load_scenario("levald/one_against_two"), {})
    while one_against_two.current_player() != "@simultaneous":
        one_against_two.apply_action(one_against_two.legal_actions()[0])
    if len(one_against_two.waiting_for()) > 2:
        with pytest.raises(KonfliktError, match="two seats of two sides"):
            movement_game(one_against_two, one_against_two.waiting_for()[0])
