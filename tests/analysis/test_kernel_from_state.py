"""Kernels started from a conflict under way (``StartsFrom``) against the reference runner from the same State.

Two kinds of evidence per ruleset. (1) Statistical: from States some typed steps into a conflict — at a round's
start, at a mid-round point the kernel represents, and at one it does not (bridged over the rest of the round by
:func:`konflikt.analysis.from_here.kernel_starts`) — the kernel's winner and ending frequencies lie within 4
two-sample standard errors of the reference runner's from the same State (fixed seeds). (2) The starting arrays
represent the State exactly: what the kernel reads back from its start (tracks, pools, the declarations made) is
the State's, and for presja the kernel's own dice replayed through the State give the same ending, conflict by
conflict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from konflikt.analysis.from_here import KernelStarts, kernel_starts, who_wins
from konflikt.core.actions import ChanceOutcome
from konflikt.core.batch import Tally
from konflikt.core.capabilities import StartsFrom
from konflikt.core.conflict import new_state
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario, load_scenario
from konflikt.core.state import State
from konflikt.sim.reference import run_chunk
from konflikt.sim.runner import Generators, Runner, seat_policies
from tests.analysis.model_check import assert_within_4se

# kernels against reference runs: tens of seconds a pass, which no mutation run affords
pytestmark = pytest.mark.mutation_slow

N_KERNEL = 60_000
N_REFERENCE = 1_500


def seats(sc: Scenario) -> dict[str, Policy]:
    return {s: p for s, p in seat_policies(sc).items() if p is not None}


def kernel_of(sc: Scenario) -> StartsFrom:
    assert sc.ruleset.kernel is not None
    state = new_state(sc)
    made = sc.ruleset.kernel(sc, state.options, seat_policies(sc))
    assert isinstance(made, StartsFrom), made
    return made


def states_along(sc: Scenario, seed: int, steps: int) -> list[State]:
    """The State after each of the first ``steps`` steps of one conflict played by the heuristic (and its dice)."""
    state = new_state(sc)
    runner = Runner(seat_policies(sc), Generators.from_seed(seed))
    out: list[State] = []
    while len(out) < steps and not state.is_terminal():
        runner.step(state)
        out.append(state.fork())
    return out


def first_where(sc: Scenario, seed: int, test: Callable[[State], bool], after: int = 1) -> State:
    """The first State of a seeded conflict, ``after`` steps in or later, where ``test`` holds."""
    for k, state in enumerate(states_along(sc, seed, 400)):
        if k + 1 >= after and not state.is_terminal() and test(state):
            return state
    raise AssertionError("no such state in the conflict")


def kernel_tally(kernel: StartsFrom, state: State, sc: Scenario, n: int = N_KERNEL, seed: int = 5) -> Tally:
    found = kernel_starts(kernel, state, seats(sc))
    assert isinstance(found, KernelStarts)
    tally = Tally()
    for batch in found.batches(n, np.random.default_rng(seed)):
        tally.add(batch)
    assert tally.n == n
    return tally


def reference_tally(state: State, sc: Scenario, n: int = N_REFERENCE, seed: int = 9) -> Tally:
    tally = Tally()
    tally.add(run_chunk(sc, {}, seat_policies(sc), n, np.random.SeedSequence(seed), state))
    return tally


def assert_agrees(sc: Scenario, kernel: StartsFrom, state: State) -> None:
    ker, ref = kernel_tally(kernel, state, sc), reference_tally(state, sc)
    checked = assert_within_4se("winners", ref.winners, ref.n, ker.winners, ker.n)
    checked += assert_within_4se("endings", ref.endings, ref.n, ker.endings, ker.n)
    assert checked >= 2


# ---- presja ----------------------------------------------------------------------------------------------------------
def presja_points() -> dict[str, Callable[[State], bool]]:
    from konflikt.rulesets.presja.model import at_exchange_start

    def started(s: Any) -> bool:
        return bool(at_exchange_start(s)) and s.exchange >= 2

    def one_declared(s: Any) -> bool:
        return bool(s.phase == "declare" and s.ptr == 1 and s.exchange >= 2)

    def declared(s: Any) -> bool:
        return bool(s.phase == "roll" and s.ptr == 0 and all(d is None for d in s.dice) and s.exchange >= 2)

    def rolled(s: Any) -> bool:
        return bool(s.phase == "invoke" and s.exchange >= 2)

    return {"exchange start": started, "first declared": one_declared, "both declared": declared, "rolled": rolled}


@pytest.mark.parametrize("point", list(presja_points()))
def test_presja_from_a_state_under_way_agrees_with_the_reference_runner(point: str) -> None:
    sc = load_scenario("presja/knife_fight")
    kernel = kernel_of(sc)
    state = first_where(sc, 4, presja_points()[point])
    assert (kernel.start_from(state) is None) == (point == "rolled")  # after a roll: bridged to the next exchange
    assert_agrees(sc, kernel, state)


def test_presja_starting_arrays_read_back_as_the_state_and_replay_through_it() -> None:
    """At every step of two conflicts the kernel represents: its row holds the State's tracks, consequences,
    fate points, fates, zones, ticks and declarations, the names held read back as the State's fate words, and 25
    conflicts from there, the kernel's dice typed into a fork of the State, end as the kernel says (ending, fates,
    length, numbers)."""
    from konflikt.rulesets.presja import texts
    from konflikt.rulesets.presja.kernel import DELTAS, Declared, PresjaKernel, PresjaStart
    from konflikt.rulesets.presja.static import _FACES4

    sc = load_scenario("presja/knife_fight")
    kernel = kernel_of(sc)
    assert isinstance(kernel, PresjaKernel)
    a, b = kernel.rules.who
    met = set()
    for seed in (4, 12):
        for state in states_along(sc, seed, 400):
            start = kernel.start_from(state)
            if start is None:
                continue
            assert isinstance(start, PresjaStart)
            s: Any = state
            row = kernel.table.states[start.row // DELTAS]
            duel = row.duel if isinstance(row, Declared) else row
            met.add((type(row).__name__, s.phase))
            assert start.exchange == s.exchange
            assert duel[0:2] == (s.marked[a], s.marked[b])
            assert duel[2:4] == (tuple(s.cons[a]), tuple(s.cons[b]))
            assert duel[4:10] == (
                *(s.fate_points[j] for j in (a, b)),
                *(s.cons_new[j] for j in (a, b)),
                *(s.fate[j] for j in (a, b)),
            )
            assert duel[11:15] == (s.ticks[a], s.ticks[b], s.zone[a], s.zone[b])
            if isinstance(row, Declared):
                assert (row.first.kind, row.first.tactic) == (s.decl[a].kind, s.decl[a].tactic)
                if s.decl[b] is not None:
                    assert (row.second.kind, row.second.tactic) == (s.decl[b].kind, s.decl[b].tactic)
            words = texts.outcome(s).participants
            for i, j in enumerate((a, b)):
                code = s.fate[j] + 3 * (start.carried >> (16 * i) & 0xFFFF)
                assert start.labels.fate(i, code) == words[s.fighters[j].id]
            replay_from(sc, kernel, start, state, _FACES4)
    assert {kind for kind, _ in met} == {"tuple", "Declared"}
    assert {phase for _, phase in met} >= {"declare", "roll"}


def replay_from(sc: Scenario, kernel: Any, start: Any, state: State, faces4: Any, n: int = 25) -> None:
    batch = kernel.run_from(start, n, np.random.default_rng(len(state.key().__repr__())), trace=True)
    first = kernel.rules.who[0]
    for k in range(n):
        trace = kernel.trace[k]

        def dice(s: State, trace: Any = trace) -> ChanceOutcome:
            conflict: Any = s
            pair = int(trace[conflict.exchange - 1])
            return faces4[pair // 81] if conflict.roller() == first else faces4[pair % 81]

        played = state.fork()
        Runner(seat_policies(sc), Generators.from_seed(0), roll=dice).play(played)
        outcome = played.outcome()
        assert batch.winners.labels[batch.winners.codes[k]] == outcome.winners
        assert batch.endings.labels[batch.endings.codes[k]] == outcome.ending
        for pid, fate in outcome.participants.items():
            assert batch.fates[pid].labels[batch.fates[pid].codes[k]] == fate
        assert batch.length[k] == len(played.steps())
        numbers = {name: float(v) for name, v in outcome.data.items() if name != "rounds"}
        assert {name: float(arr[k]) for name, arr in batch.resources.items()} == numbers


# ---- Le våld ---------------------------------------------------------------------------------------------------------
def levald_points() -> dict[str, Callable[[State], bool]]:
    from konflikt.rulesets.levald.model import at_round_start

    def started(s: Any) -> bool:
        return bool(at_round_start(s)) and s.rounds >= 2

    def revealed(s: Any) -> bool:
        return bool(s.phase == "move_roll" and s.rounds >= 1)

    def attacker(s: Any) -> bool:
        return bool(s.phase == "attacker" and s.rounds >= 1)

    def damage(s: Any) -> bool:
        return bool(s.phase == "damage" and s.rounds >= 1)

    return {"round start": started, "movement revealed": revealed, "attacker's choice": attacker, "damage": damage}


@pytest.mark.parametrize("point", list(levald_points()))
def test_levald_from_a_state_under_way_agrees_with_the_reference_runner(point: str) -> None:
    sc = load_scenario("levald/duel")
    kernel = kernel_of(sc)
    state = first_where(sc, 2, levald_points()[point])
    assert (kernel.start_from(state) is None) == (point == "damage")  # bridged to the next round
    assert_agrees(sc, kernel, state)


def test_levald_start_vectors_read_back_as_the_state_and_replay_through_it() -> None:
    """At every step of two duels the kernel represents: the start vector holds the State's distance, initiative,
    rounds, Gard, Omtöckning, fates and wound boxes, the entry its revealed movement and first contest roll, or the
    choices and attack roll made after the initiative, and 20 duels from there, the kernel's dice typed into a fork
    of the State, end as the kernel says."""
    from konflikt.rulesets.levald import duel_rounds as L
    from konflikt.rulesets.levald import rules as R
    from konflikt.rulesets.levald.kernel import DuelKernel
    from tests.rulesets.levald.test_kernel import replay_roll

    sc = load_scenario("levald/duel")
    kernel = kernel_of(sc)
    assert isinstance(kernel, DuelKernel)
    met = set()
    for seed in (2, 7):
        for state in states_along(sc, seed, 120):
            start = kernel.start_from(state)
            if start is None:
                continue
            s: Any = state
            vector, entry = start
            met.add(int(entry[L.ENTRY]))
            assert (vector[L.DIST], vector[L.HOLDER], vector[L.REDECIDE]) == (s.dist[0], s.holder[0], s.redecide[0])
            assert vector[L.ROUNDS] == s.rounds
            assert list(vector[L.GARD : L.GARD + 2]) == s.gard and list(vector[L.DAZE : L.DAZE + 2]) == s.daze
            assert [L.FATE_NAMES[int(x)] for x in vector[L.FATE : L.FATE + 2]] == s.fate
            assert vector[L.WOUNDS : L.WOUNDS + 2 * L.BOXES].reshape(2, L.BOXES).tolist() == s.wounds
            if entry[L.ENTRY] == L.REVEALED:
                assert [entry[L.WISH_A], entry[L.WISH_B]] == [R.WISH[w] for w in s.wishes]
                assert [bool(entry[L.LEAVE_A]), bool(entry[L.LEAVE_B])] == [w == "leave" for w in s.wishes]
                assert (int(entry[L.ROLL_A]) if s.rolls else -1) == (s.rolls[0] if s.rolls else -1)
            if entry[L.ENTRY] == L.ROLES:
                assert s.att == s.holder[0] and s.phase in ("attacker", "defender", "attack_roll", "defence_roll")
                assert entry[L.ATTACKING] == (-1 if s.phase == "attacker" else 1)
                assert entry[L.COUNTER] == (int(s.counter) if s.phase in ("attack_roll", "defence_roll") else -1)
                assert entry[L.ROLL_ATTACK] == (s.rolls[0] if s.phase == "defence_roll" else -1)
            batch, trace = kernel.run_traced_from(start, 20, np.random.default_rng(s.rounds))
            for j in range(20):
                played = state.fork()
                Runner(seat_policies(sc), Generators.from_seed(0), roll=replay_roll(trace, j)).play(played)
                outcome = played.outcome()
                assert batch.winners.labels[batch.winners.codes[j]] == outcome.winners
                assert batch.endings.labels[batch.endings.codes[j]] == outcome.ending
                for pid, fate in outcome.participants.items():
                    assert batch.fates[pid].labels[batch.fates[pid].codes[j]] == fate
                assert batch.length[j] == outcome.data["rounds"]
    assert met == {L.AT_START, L.REVEALED, L.ROLES}


# ---- Fimbulfrost -----------------------------------------------------------------------------------------------------
def fimbulfrost_points() -> dict[str, Callable[[State], bool]]:
    from konflikt.rulesets.fimbulfrost import phases as P
    from konflikt.rulesets.fimbulfrost.model import at_round_start

    def second(s: Any) -> bool:
        return at_round_start(s) == 2

    def third(s: Any) -> bool:
        return at_round_start(s) == 3

    def rolling(s: Any) -> bool:
        return bool(s.phase == P.R2_ROLL and s.cursor > 0)

    return {"round 2's start": second, "round 3's start": third, "round 2's rolls": rolling}


def fimbulfrost_state(point: str) -> tuple[Scenario, State]:
    """The first State of a seeded conflict at ``point`` (the dragon's, else the robbers')."""
    for name in ("fimbulfrost/dragon", "fimbulfrost/robbers"):
        sc = load_scenario(name)
        for seed in range(40):
            try:
                return sc, first_where(sc, seed, fimbulfrost_points()[point])
            except AssertionError:
                continue
    raise AssertionError(f"no conflict reaches {point}")


@pytest.mark.parametrize("point", list(fimbulfrost_points()))
def test_fimbulfrost_from_a_state_under_way_agrees_with_the_reference_runner(point: str) -> None:
    sc, state = fimbulfrost_state(point)
    kernel = kernel_of(sc)
    assert (kernel.start_from(state) is None) == (point == "round 2's rolls")  # bridged to round 3's start
    assert_agrees(sc, kernel, state)


def test_fimbulfrost_start_tables_read_back_as_the_state_and_replay_through_it() -> None:
    """At every round start of a few conflicts (rounds 2 and 3): the start's tables hold the opponent's Status,
    who stands, and each fallen hero's consequences (his fate words read back from his key), and 20 conflicts from
    there, the kernel's dice typed into a fork of the State, end as the kernel says (labels, length, numbers)."""
    from konflikt.rulesets.fimbulfrost.kernel import FimbulfrostKernel, fate_words
    from konflikt.rulesets.fimbulfrost.kernel_loop import T1_OS, TA_MASK, TB_MASK
    from konflikt.rulesets.fimbulfrost.model import at_round_start
    from tests.rulesets.fimbulfrost.test_kernel import replay_roll

    met = set()
    for name in ("fimbulfrost/dragon", "fimbulfrost/robbers"):
        sc = load_scenario(name)
        kernel = kernel_of(sc)
        assert isinstance(kernel, FimbulfrostKernel) and kernel.catalogue is not None
        for seed in range(12):
            for state in states_along(sc, seed, 200):
                s: Any = state
                round_no = at_round_start(s)
                start = kernel.start_from(state)
                if start is None or round_no < 2:
                    continue
                met.add(round_no)
                t1, ta, ta_key, tb = start[3], start[4], start[5], start[6]
                assert t1[T1_OS, 0] == s.opp_status
                standing = sum(1 << i for i in range(s.n) if s.fate[i] == 0)
                assert ta[TA_MASK, 0] == standing and (round_no == 2 or tb[TB_MASK, 0] == standing)
                for i in range(s.n):
                    if s.fate[i] == 0:
                        assert ta_key[i, 0] == -1
                        continue
                    hero = kernel.t.heroes[i]
                    bought = [kernel.catalogue.entry(e) for e in s.taken[i]]
                    assert hero.labels[hero.label[ta_key[i, 0]]] == fate_words(s.fate[i], bought)
                batch, trace = kernel.run_traced_from(start, 20, np.random.default_rng(seed))
                for j in range(20):
                    played = state.fork()
                    Runner(seat_policies(sc), Generators.from_seed(0), roll=replay_roll(trace, j)).play(played)
                    outcome = played.outcome()
                    assert batch.winners.labels[batch.winners.codes[j]] == outcome.winners
                    assert batch.endings.labels[batch.endings.codes[j]] == outcome.ending
                    for pid, fate in outcome.participants.items():
                        assert batch.fates[pid].labels[batch.fates[pid].codes[j]] == fate, pid
                    assert batch.length[j] == len(played.steps())
                    numbers = {k: float(v) for k, v in outcome.data.items() if k != "rounds"}
                    assert {k: float(arr[j]) for k, arr in batch.resources.items()} == numbers
    assert met == {2, 3}


# ---- the table's question --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["presja/knife_fight", "levald/duel", "fimbulfrost/dragon"])
def test_who_wins_mid_conflict_is_a_kernel_estimate_of_many_conflicts(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no time for the exact solver, "who wins from here" some steps in is the kernel's, over at least 10,000
    conflicts (its loop compiled first, as the table's warm-up does), and each choice's over at least 2,000."""
    import konflikt.analysis.from_here as from_here

    monkeypatch.setattr(from_here, "EXACT_SHARE", 0.0)
    monkeypatch.setattr(from_here, "KERNEL_EXACT_SHARE", 0.0)
    sc = load_scenario(name)
    policies = seats(sc)
    state = states_along(sc, 4, 12)[-1]
    kernel_of(sc).run(200, np.random.default_rng(0))  # type: ignore[attr-defined]
    from_here._made_kernel(sc, state, policies).run(200, np.random.default_rng(0))
    answer = who_wins(sc, state, policies, budget=3.0, seed=1, at_opening=False)
    assert answer.method == "kernel" and answer.n >= 10_000, answer
    seat = state.current_player()
    if seat in policies:
        for _, chance in from_here.choice_odds(sc, state, seat, policies, budget=6.0, seed=1):
            over = chance.note == "the conflict is over"  # a choice that ends it is answered exactly
            assert over or (chance.method == "kernel" and chance.n >= 2_000), chance
