"""``konflikt odds --saved ID --from-step N``: the odds of a saved conflict as it stood after N steps, exactly as the
solver gives them for the replayed state; the designer's rows (consequences by name, length) in the JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from konflikt.analysis.exact import conflict_odds
from konflikt.core.conflict import Conflict
from konflikt.rulesets.presja.model import BOX
from konflikt.sim.runner import seat_policies


def saved_fight(cli: Callable[..., Any], tmp_path: Path, cap: int) -> tuple[Path, Path]:
    saved = tmp_path / "fight.json"
    args = ("run", "presja/knife_fight", "--seed", "2", "--option", f"max_exchanges={cap}", "--save", str(saved))
    assert cli(*args).code == 0
    db = tmp_path / "s.sqlite"
    assert cli("import", str(saved), "--db", str(db)).code == 0
    return saved, db


def test_from_step_answers_for_the_state_after_n_steps(cli: Callable[..., Any], tmp_path: Path) -> None:
    saved, db = saved_fight(cli, tmp_path, 6)
    result = cli("odds", "--saved", "1", "--db", str(db), "--from-step", "9", "--json", "--exact")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["from_step"] == 9 and data["exact"] is True
    conflict = Conflict.from_json(json.loads(saved.read_text()))
    state = conflict.replay(9)
    policies = {s: p for s, p in seat_policies(conflict.scenario).items() if p is not None}
    odds = conflict_odds(state, policies)
    names = {side.id: side.name for side in conflict.scenario.sides}
    want = {" + ".join(names[s] for s in w) if w else "nobody": p for w, p in odds.winners().items()}  # type: ignore[union-attr]
    assert {k: Fraction(v) for k, v in data["outcomes"].items()} == want
    assert sum(want.values()) == 1
    lengths = data["distributions"]["length (exchanges)"]
    assert {int(k): Fraction(v) for k, v in lengths.items()} == odds.lengths
    assert Fraction(data["probabilities"]["expected length (exchanges)"]) == odds.expected_length()
    named = data["distributions"]["Belzee: consequences (each, by name)"]
    assert odds.marks is not None
    marks: dict[Any, Fraction] = odds.marks
    want_named = {f"{m[1]} '{m[2]}'": p for m, p in marks.items() if m[0] == "belzee" and m[1] != BOX}
    assert {k: Fraction(v) for k, v in named.items()} == want_named
    boxes = data["distributions"]["Belzee: track boxes marked (each)"]
    want_boxes = {f"{m[1]} '{m[2]}'": p for m, p in marks.items() if m[0] == "belzee" and m[1] == BOX}
    assert want_boxes and {k: Fraction(v) for k, v in boxes.items()} == want_boxes
    floats = json.loads(cli("odds", "--saved", "1", "--db", str(db), "--from-step", "9", "--json").out)
    assert floats["exact"] is False and floats["from_step"] == 9
    bound = Fraction(floats["error_bound"])
    for key, q in floats["outcomes"].items():  # the default: floats, each within the stated bound of the fraction
        assert abs(Fraction(q) - want[key]) <= bound * want[key], key


def test_from_step_is_refused_past_the_end_and_without_saved(cli: Callable[..., Any], tmp_path: Path) -> None:
    _, db = saved_fight(cli, tmp_path, 3)
    past = cli("odds", "--saved", "1", "--db", str(db), "--from-step", "100000")
    assert past.code == 2 and "--from-step 100000" in past.err
    alone = cli("odds", "presja/knife_fight", "--from-step", "3")
    assert alone.code == 2 and "--from-step goes with --saved" in alone.err


def test_from_step_out_of_exact_reach_says_so_and_estimates_from_that_state(
    cli: Callable[..., Any], tmp_path: Path
) -> None:
    """Beyond ``--max-states`` the saved conflict is played on from the state after N steps (by the kernel, which
    starts from it, 200,000 times): said so, with the count the solver met, and within 4 standard errors of the
    exact odds of that state."""
    saved, db = saved_fight(cli, tmp_path, 6)
    result = cli("odds", "--saved", "1", "--db", str(db), "--from-step", "9", "--max-states", "5", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["estimated"] is True and data["from_step"] == 9 and data["engine"] == "vectorised"
    assert "too many states" in data["why"] and "estimate: more than 5" in data["why"]
    assert "after 9 steps" in data["question"]
    n = data["n"]
    outcomes = {k: Fraction(v) for k, v in data["outcomes"].items()}
    assert n == 200_000 and sum(outcomes.values()) == 1
    conflict = Conflict.from_json(json.loads(saved.read_text()))
    policies = {s: p for s, p in seat_policies(conflict.scenario).items() if p is not None}
    exact = conflict_odds(conflict.replay(9), policies)
    names = {side.id: side.name for side in conflict.scenario.sides}
    for w, p in exact.winners().items():
        label = " + ".join(names[s] for s in w) if w else "nobody"  # type: ignore[union-attr]
        se = max(float(p * (1 - p)), 1 / n) ** 0.5 / n**0.5
        assert abs(float(outcomes.get(label, Fraction(0)) - p)) <= 4 * se, label
