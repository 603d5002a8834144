"""Le våld's forward propagation (``rulesets/levald/propagate.py``) against the compact model and the kernel.

The push applies a round as phases over numpy rows, grouped by what each phase reads; the compact model
(``rulesets/levald/model.py``, itself checked against the State API Fraction for Fraction) is the oracle: from
random reachable round starts the pushed round must give the model's next round starts with the model's
probabilities (to rounding), and whole short duels the exact model's Fractions within the stated bound.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from konflikt.analysis.exact import StateSpaceTooLarge, conflict_odds
from konflikt.core.conflict import Conflict, new_state
from konflikt.core.scenario import load_scenario
from konflikt.rulesets.levald.model import FATE, _cleared
from konflikt.rulesets.levald.propagate import Propagator, unique_rows
from konflikt.rulesets.levald.state import LevaldState
from konflikt.sim.engine import simulate
from konflikt.sim.runner import seat_policies
from tests.analysis.model_check import assert_within_4_se, reachable, step
from tests.analysis.test_model_levald import SCENARIOS, duel, model_at, policies_of


def ended_or_not(row: tuple[int, ...]) -> tuple[int, ...]:
    """A next round start as the model gives it: an end keeps only what its label reads."""
    return _cleared(row) if row[FATE] or row[FATE + 1] else row


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_pushed_round_is_the_models_round(name: str) -> None:
    """Every scenario of the model test (options, a shield, cornered, unprepared, the GM, random seats): from
    random round starts, the same next round starts with the same probabilities."""
    sc = SCENARIOS[name]()
    policies = policies_of(sc)
    opening = new_state(sc)
    model = model_at(opening, policies)
    push = Propagator(model)
    states = reachable(opening, policies, model.encode, seed=7, count=4)
    assert len(states) == 4
    for state in states:
        compact = model.encode(state)
        assert compact is not None
        clockless, _ = model.clock(compact)
        den, ways = model.step(clockless)
        want: dict[Hashable, Fraction] = {}
        for t, w in ways:
            key = ended_or_not(t)  # type: ignore[arg-type]
            want[key] = want.get(key, Fraction(0)) + Fraction(w, den)
        rows, probs = push.round(np.array([clockless], dtype=np.int64), np.ones(1))
        got: dict[Hashable, float] = {}
        for row, q in zip(rows.tolist(), probs.tolist(), strict=True):
            key = ended_or_not(tuple(row))
            got[key] = got.get(key, 0.0) + q
        assert set(got) == set(want), compact
        for key, p in want.items():
            assert abs(got[key] - float(p)) <= 1e-14 * float(p), (compact, key)


@pytest.mark.parametrize(("rounds", "setup"), [(3, {}), (2, {"distance": "Spjut"})])
def test_pushed_floats_equal_the_exact_models_fractions_within_the_bound(rounds: int, setup: dict[str, Any]) -> None:
    """A whole short duel: every (outcome label) and every length within the stated relative bound."""
    sc = duel({"max_rounds": rounds}, setup)
    policies = policies_of(sc)
    exact = conflict_odds(new_state(sc), policies)
    floats = conflict_odds(new_state(sc), policies, exact=False)
    assert floats.method == "model"
    assert 0 < floats.error_bound < 1e-12
    assert set(floats.distribution) == set(exact.distribution)
    for label, p in exact.distribution.items():
        assert abs(floats.distribution[label] - float(p)) <= floats.error_bound * float(p), label
    assert exact.lengths is not None and floats.lengths is not None
    assert set(floats.lengths) == set(exact.lengths)
    for n, p in exact.lengths.items():
        assert abs(floats.lengths[n] - float(p)) <= floats.error_bound * float(p), n
    assert abs(sum(floats.distribution.values()) - 1) <= floats.error_bound


def test_pushed_odds_agree_with_the_vectorised_kernel_within_4_standard_errors() -> None:
    """Floats of a duel of at most 3 rounds against 40,000 kernel duels: winners, endings, fates, rounds."""
    sc = duel({"max_rounds": 3})
    odds = conflict_odds(new_state(sc), policies_of(sc), exact=False)
    assert abs(sum(odds.distribution.values()) - 1) <= odds.error_bound
    n = 40_000
    tally = simulate(sc, n, 23, engine="vectorised").tally
    assert_within_4_se(odds.winners(), tally.winners, n)
    assert_within_4_se(odds.endings(), tally.endings, n)
    for pid in ("snurre", "hedda"):
        assert_within_4_se(odds.fates(pid), tally.fates[pid], n)
    assert odds.lengths is not None
    assert_within_4_se(odds.lengths, tally.rounds, n)


def test_from_the_middle_of_a_round_the_bridge_feeds_the_push() -> None:
    """Mid-round (damage being rolled) the State API bridges to the next round starts, the push takes them on."""
    sc = duel({"max_rounds": 2}, {"distance": "Svärd"})
    policies = policies_of(sc)
    state = new_state(sc)
    rng = np.random.default_rng(2)
    while not isinstance(state, LevaldState) or state.phase != "damage":
        assert not state.is_terminal()
        step(state, policies, rng)
    exact = conflict_odds(state, policies)
    floats = conflict_odds(state, policies, exact=False)
    assert set(floats.distribution) == set(exact.distribution)
    for label, p in exact.distribution.items():
        assert abs(floats.distribution[label] - float(p)) <= floats.error_bound * float(p), label


def test_the_bundled_duel_says_how_many_round_starts_live_per_round() -> None:
    """Beyond the limit the push stops within the round and names the live round starts of each round (the
    exact solver is refused by the same push, before it explores)."""
    sc = load_scenario("levald/duel")
    policies = policies_of(sc)
    for exact in (False, True):
        with pytest.raises(StateSpaceTooLarge, match=r"round starts alive after round 3.*40, 882, [\d,]+\)"):
            conflict_odds(new_state(sc), policies, 5_000, exact=exact)


def test_odds_from_step_of_a_saved_duel(cli: Callable[..., Any], tmp_path: Path) -> None:
    """``odds --saved ID --from-step N`` on a Le våld duel (max_rounds 3): the replayed state's exact odds."""
    saved = tmp_path / "duel.json"
    args = ("run", "levald/duel", "--seed", "3", "--option", "max_rounds=3", "--save", str(saved))
    assert cli(*args).code == 0
    db = tmp_path / "s.sqlite"
    assert cli("import", str(saved), "--db", str(db)).code == 0
    conflict = Conflict.from_json(json.loads(saved.read_text()))
    upto = next(n for n in range(1, len(conflict.steps)) if conflict.replay(n).rounds == 1)  # type: ignore[attr-defined]
    result = cli("odds", "--saved", "1", "--db", str(db), "--from-step", str(upto), "--json", "--exact")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    policies = {s: p for s, p in seat_policies(conflict.scenario).items() if p is not None}
    odds = conflict_odds(conflict.replay(upto), policies)
    names = {side.id: side.name for side in conflict.scenario.sides}
    want = {" + ".join(names[s] for s in w) if w else "nobody": p for w, p in odds.winners().items()}  # type: ignore[union-attr]
    assert {k: Fraction(v) for k, v in data["outcomes"].items() if Fraction(v)} == want
    assert sum(want.values()) == 1
    assert {int(k): Fraction(v) for k, v in data["distributions"]["length (rounds)"].items()} == odds.lengths


@pytest.mark.parametrize("high", [3, 40, 2**40])
def test_unique_rows_are_numpys_sorted_rows_and_inverse(high: int) -> None:
    """The block solve's merges read the rows sorted with the first column most significant (its exit groups are
    cut where the first three columns change), so the coded unique must give numpy's order, not just the same set;
    columns too wide for one int64 (2⁴⁰ in five columns) take numpy's own way."""
    rng = np.random.default_rng(high)
    keys = rng.integers(-2, high, size=(3000, 5))
    keys[::7] = keys[3]  # repeats
    uniq, inv = unique_rows(keys)
    want, want_inv = np.unique(keys, axis=0, return_inverse=True)
    assert np.array_equal(uniq, want) and np.array_equal(inv, want_inv.ravel())
    assert np.array_equal(uniq[inv], keys)
    empty, none = unique_rows(keys[:0])
    assert empty.shape == (0, 5) and len(none) == 0
