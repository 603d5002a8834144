"""At the table, Le våld's "who wins from here" by prepared values (``from_here.warm_values``): after the opening's
values are ready, every later question, mid-round included, is exact within the stated bound and agrees with the
model's own answer from there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from konflikt.analysis import from_here
from konflikt.analysis.exact import Move, _apply, branches, conflict_odds, grouped_branches
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import Policy
from konflikt.core.state import State
from konflikt.rulesets.levald.values import WinnerValues
from konflikt.sim.runner import Generators, Runner
from tests.analysis.test_blocks_levald import SMALL, opening, policies_of

Walk = Callable[[State, dict[str, Policy]], list[tuple[Fraction, Move]]]


def compile_the_kernels() -> None:
    """The block solve's and the values' kernels compiled (or loaded) in this thread: the table's warm-up refuses to
    compile them (in a fresh clone numba's cache is empty until some solve has run)."""
    for name in ("heuristic", "options"):  # their kernels' argument types differ (two defence rolls, a shield)
        _, model, start = opening(SMALL[name]())
        WinnerValues(model, start)


@pytest.fixture()
def fresh_values() -> Iterator[None]:
    def clear() -> None:
        from_here._VALUED.clear()
        from_here._WARMING.clear()

    compile_the_kernels()
    clear()
    yield
    clear()


def test_after_the_warm_up_each_step_is_answered_by_the_values_within_their_bound(fresh_values: None) -> None:
    sc = SMALL["heuristic"]()
    policies = dict(policies_of(sc))
    opening: State = new_state(sc)
    from_here.warm_values(sc, opening, policies).join()
    assert from_here._VALUED
    answered = 0
    phases = set()
    for seed in range(1, 6):
        state = opening.fork()
        runner = Runner(policies, Generators.from_seed(seed))
        while not state.is_terminal():
            answer = from_here.who_wins(sc, state, policies, budget=30)
            assert answer.method == "exact", answer.note
            found = re.fullmatch(r"prepared values, floats within (\S+)", answer.note)
            assert found, answer.note
            bound = float(found.group(1))
            model = conflict_odds(state, policies, exact=False).winners()  # the model's own answer from here
            want = {c.label: c.p for c in from_here._Sides.of(sc).rows(Counter(), 0, model)}
            got = {c.label: c.p for c in answer.chances}
            for label in set(want) | set(got):
                assert abs(got.get(label, 0.0) - want.get(label, 0.0)) <= 2 * bound + 1e-6, (state.phase, label)
            phases.add(state.phase)
            answered += 1
            runner.step(state)
    assert answered >= 20 and {"move_roll", "attack_roll", "damage"} <= phases  # mid-round states among them


def test_without_prepared_values_nothing_is_answered_by_them(fresh_values: None) -> None:
    sc = SMALL["heuristic"]()
    state = new_state(sc)
    assert from_here._by_values(sc, state, dict(policies_of(sc)), 1.0) is None


D100_PHASES = ("move_roll", "init_roll", "attack_roll", "defence_roll", "counter_roll", "free_roll")


def test_the_grouped_d100_lead_where_every_outcome_does() -> None:
    """``LevaldState.chance_classes``: from a state at a d100, the States reached once no d100 is pending any more
    (a decision, the damage dice, the next round, the end) through one outcome per class, with the class's
    probability, are those reached through all hundred outcomes, Fraction for Fraction; and the classes are fewer."""
    sc = SMALL["heuristic"]()
    policies = dict(policies_of(sc))
    phases: set[str] = set()
    for seed in range(1, 8):
        state: State = new_state(sc)
        runner = Runner(policies, Generators.from_seed(seed))
        while not state.is_terminal():
            if state.phase in D100_PHASES and state.phase not in phases:
                full = _past_the_d100(state, policies, branches)
                grouped = _past_the_d100(state, policies, grouped_branches)
                assert grouped == full, state.phase
                assert len(grouped_branches(state, policies)) < len(branches(state, policies))
                phases.add(state.phase)
            runner.step(state)
    assert {"move_roll", "attack_roll", "counter_roll"} <= phases


def _past_the_d100(state: State, policies: dict[str, Policy], walk: Walk) -> dict[Hashable, Fraction]:
    """The States where no d100 is pending any more, reached from ``state`` by ``walk``'s branches, and their
    probabilities: a step at a time, equal States (by ``key()``) merged."""
    out: dict[Hashable, Fraction] = {}
    level: dict[Hashable, tuple[State, Fraction]] = {state.key(): (state.fork(), Fraction(1))}
    while level:
        after: dict[Hashable, tuple[State, Fraction]] = {}
        for s, w in level.values():
            for p, move in walk(s, policies):
                child = s.fork()
                _apply(child, move)
                key = child.key()
                if child.is_terminal() or child.phase not in D100_PHASES:  # type: ignore[attr-defined]
                    out[key] = out.get(key, Fraction(0)) + w * p
                    continue
                held = after.get(key)
                after[key] = (child, w * p) if held is None else (held[0], held[1] + w * p)
        level = after
    return out


def test_values_are_prepared_once_one_conflict_at_a_time_and_only_where_a_model_prepares_them(
    fresh_values: None,
) -> None:
    """``ensure_values``: a Le våld round's start starts the warm-up (a resumed table's too), a second call for the
    same conflict or while one runs does not, a mid-round State and a ruleset whose models prepare nothing never
    do; the next conflict's values replace the last one's (one conflict's held at a time)."""
    from konflikt.core.scenario import load_scenario
    from konflikt.sim.runner import seat_policies

    sc = SMALL["heuristic"]()
    policies = dict(policies_of(sc))
    state = new_state(sc)
    from_here._WARMING.add((0, ()))  # another conflict's warm-up running: one at a time
    assert from_here.ensure_values(sc, state, policies) is None
    from_here._WARMING.clear()
    thread = from_here.ensure_values(sc, state, policies)
    assert thread is not None
    thread.join()
    assert from_here.ensure_values(sc, state, policies) is None  # ready: nothing to do
    (first,) = from_here._VALUED.values()
    assert first.winner_values is not None
    mid = state.fork()
    runner = Runner(policies, Generators.from_seed(2))
    while not mid.is_terminal() and mid.phase in ("move", "gm"):
        runner.step(mid)
    other = SMALL["options"]()
    assert from_here.ensure_values(other, mid, dict(policies_of(other))) is None  # mid-round: no start to solve from
    later = new_state(other)
    second = from_here.ensure_values(other, later, dict(policies_of(other)))
    assert second is not None
    second.join()
    (now,) = from_here._VALUED.values()
    assert now is not first and first.winner_values is None
    robbers = load_scenario("fimbulfrost/robbers")
    seats = {s: p for s, p in seat_policies(robbers).items() if p is not None}
    assert from_here.ensure_values(robbers, new_state(robbers), seats) is None


COLD_WARM_UP = """
import sys
from konflikt.analysis import from_here
from konflikt.core.conflict import new_state
from tests.analysis.test_blocks_levald import SMALL, policies_of
sc = SMALL["heuristic"]()
policies = dict(policies_of(sc))
from_here.warm_values(sc, new_state(sc), policies).join()
print("values ready" if from_here._VALUED else "no values")
"""


def test_in_a_fresh_install_a_separate_process_compiles_what_the_values_need(tmp_path: Path) -> None:
    """numba's cache empty (a fresh install): the warm-up refuses to compile in the table's process, has a
    separate process prepare the same values (compiling the kernels into the cache), then loads them and is
    ready."""
    cache = tmp_path / "numba"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", COLD_WARM_UP], env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "values ready"
    assert any(cache.rglob("values.value_sweeps-*.nbi"))  # compiled into the cache, by the separate process
