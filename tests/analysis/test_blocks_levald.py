"""Le våld's block solve (``rulesets/levald/blocks.py``) against exact answers.

The block solve works without the clock, band by band and block by block of Omtöckning. Its labels do not tell the
wound boxes apart (the State's words with no box ticked, said so: ``LevaldModel.without_boxes``); each box's chance
of being ticked at least once comes as ``marks``. Its oracles, both labelling every end by the final compact state
itself and reading that coarser (its label without the boxes; which boxes it has ticked):

* the clockless chain solved exactly (``analysis.compact.solve_exact``: Gauss–Jordan over Fractions), a deadlock
  ending as the State's deadlock at the cap: the whole answer without the round cap;
* the horizon's exact answer (``analysis.horizon.solve_horizon``): what the cap changes, which the block solve bounds
  and does not compute.
"""

from __future__ import annotations

import functools
import itertools
import re
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple, cast

import pytest

import konflikt.analysis.model_odds as model_odds
from konflikt.analysis.compact import Chain, explore, solve_exact
from konflikt.analysis.exact import SIM_HINT, StateSpaceTooLarge, conflict_odds
from konflikt.analysis.horizon import Clockless, blocks_odds, propagate_odds, solve_horizon
from konflikt.core.conflict import new_state
from konflikt.core.deadline import OutOfTime, deadline
from konflikt.core.scenario import Scenario, load_scenario, scenario_from_document
from konflikt.core.state import State
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.blocks import Blocks, BlockSolver, Progress, TooManyBandStates
from konflikt.rulesets.levald.model import BOXES, DAZE, FATE, FATES, NOT_TOLD_APART, WOUNDS, LevaldModel
from konflikt.rulesets.levald.scenarios import duel_document
from konflikt.rulesets.levald.state import KNOCKED_OUT, LEFT, LevaldState
from tests.analysis.model_check import reachable
from tests.analysis.test_model_levald import model_at, policies_of

Compact = tuple[int, ...]
LEFT_CODE, KNOCKED_OUT_CODE = FATES.index(LEFT), FATES.index(KNOCKED_OUT)
"""Compact fate codes."""
Finals = dict[tuple[bool, Compact], Fraction]
"""An answer by final state: (deadlocked, or still going, at the cap; the final compact state) → probability."""


def small_duel(options: dict[str, Any] | None = None, policy: str = "heuristic", **kwargs: Any) -> Scenario:
    """Two weak fighters (little Gard, low thresholds): tens of band states, ended in a few rounds."""
    args: dict[str, Any] = {"skill": 60, "kraft": 2, "sjal": 1, "gard": 0, "distance": "Svärd"} | kwargs
    doc = duel_document(args.pop("weapon_a", "Kortsvärd"), args.pop("weapon_b", "Spjut"), policy=policy, **args)
    doc["options"] = dict(options or {})
    return scenario_from_document(doc, "small_duel.toml")


OPTIONS = {"two_defence_rolls": True, "holder_damaged": "table", "empty_gard_scratch": False, "exceptional": "doubles"}
SMALL: dict[str, Callable[[], Scenario]] = {
    "heuristic": lambda: small_duel(),
    "random": lambda: small_duel(policy="random"),
    "options": lambda: small_duel(OPTIONS, weapon_a="Sköld"),
    "ticking": lambda: small_duel(OPTIONS | {"max_rounds": 200}, kraft=3, weapon_a="Sköld"),
}
"""The duels solved against the exact chain. ``options``: an Allvarlig may leave its fighter standing (9 blocks);
``ticking``: a Lätt and an Allvarlig may (19 blocks in several bands, 902 clockless states: ~3 s in Fractions)."""


def unwounded(c: Compact) -> Compact:
    return (*c[:WOUNDS], *(0,) * (2 * BOXES), *c[WOUNDS + 2 * BOXES :])


def clockless_chain(model: LevaldModel, starts: Sequence[tuple[Compact, Fraction]]) -> tuple[Chain, list[int]]:
    """The clockless chain from ``starts`` with every end labelled by its final state: ``(False, state)`` for an
    end, ``(True, state)`` for a deadlock (a state from which no end can be reached: it loops forever, and the
    capped duel ends it as the State's deadlock at the cap), which is made an end. Returns it and the starts' ids."""
    clockless = [model.clock(c)[0] for c, _ in starts]
    chain = explore(Clockless(model), clockless, 200_000)
    back: dict[int, list[int]] = {}
    for u, edges in enumerate(chain.edges):
        for v, _ in edges:
            back.setdefault(v, []).append(u)
    ending = set(chain.ends)
    todo = list(ending)
    while todo:
        for u in back.get(todo.pop(), []):
            if u not in ending:
                ending.add(u)
                todo.append(u)
    for u in range(chain.size):
        if u in chain.ends:
            chain.ends[u] = (False, chain.states[u])
        elif u not in ending:
            chain.ends[u] = (True, chain.states[u])
            chain.edges[u] = []
            chain.lengths[u] = 0
    index = {s: i for i, s in enumerate(chain.states)}
    return chain, [index[u] for u in clockless]


def exact_without_cap(model: LevaldModel, starts: Sequence[tuple[Compact, Fraction]]) -> Finals:
    """The clockless chain from the weighted ``starts`` solved exactly, loops and all: the duel without the round
    cap, by final state."""
    chain, ids = clockless_chain(model, starts)
    weights: dict[int, Fraction] = {}
    for i, (_, w) in zip(ids, starts, strict=True):
        weights[i] = weights.get(i, Fraction(0)) + w
    return finals_of(solve_exact(chain, list(weights.items())).ends)


class FinalStates:
    """``model`` as the horizon solves it, every end labelled by its final state (as :func:`clockless_chain`
    labels them): what the horizon answers can then be read coarser like the chain's."""

    def __init__(self, model: LevaldModel) -> None:
        self.model = model
        self.unit = model.unit
        self.cap = model.cap

    def clock(self, compact: Hashable) -> tuple[Hashable, int]:
        return self.model.clock(compact)

    def step(self, clockless: Hashable) -> tuple[int, list[tuple[Hashable, int]]]:
        return self.model.step(clockless)

    def end(self, compact: Hashable) -> Hashable | None:
        return None if self.model.end(compact) is None else (False, compact)

    def at_cap(self, clockless: Hashable) -> Hashable:
        return (True, clockless)


def horizon(
    model: LevaldModel, starts: Sequence[tuple[Compact, Fraction]], exact: bool
) -> tuple[Finals, Fraction, float]:
    """The capped duel by the horizon: by final state, its mean length, and its error bound (0 where exact)."""
    _, solved = solve_horizon(FinalStates(model), starts, 500_000, exact=exact)
    mean = sum((n * Fraction(p) for (_, n), p in solved.ends.items()), Fraction(0))
    return finals_of(solved.ends), mean, float(getattr(solved, "error_bound", 0.0))


def finals_of(ends: Mapping[tuple[Hashable, int], Any]) -> Finals:
    """A solver's ends labelled by final state, summed over their lengths (floats read exactly)."""
    out: Finals = {}
    for (final, _), p in ends.items():
        key: tuple[bool, Compact] = final  # type: ignore[assignment]
        out[key] = out.get(key, Fraction(0)) + Fraction(p)
    return out


def coarse(model: LevaldModel, finals: Finals) -> dict[Hashable, Fraction]:
    """Each final state read as the block solve labels it: the State's words with no box ticked, said so (the
    deadlock at the cap for a deadlocked one)."""
    out: dict[Hashable, Fraction] = {}
    for (deadlocked, c), p in finals.items():
        bare = unwounded(c)
        label = model.without_boxes(model.at_cap(bare) if deadlocked else model.end(bare))
        out[label] = out.get(label, Fraction(0)) + p
    return out


def ticked(model: LevaldModel, finals: Finals) -> dict[Hashable, Fraction]:
    """Each wound box's chance of being ticked at the end: the final states with it ticked at least once (before
    the start too)."""
    return {
        model.wound_mark(*divmod(i, BOXES)): sum((p for (_, c), p in finals.items() if c[WOUNDS + i] > 0), Fraction(0))
        for i in range(2 * BOXES)
    }


def worst(got: Mapping[Hashable, float], want: Mapping[Hashable, Fraction]) -> tuple[float, Hashable, float, float]:
    """The largest difference between two answers over their labels: (difference, label, got, wanted)."""
    rows = [(abs(got.get(k, 0.0) - float(want.get(k, 0))), k, got.get(k, 0.0), float(want.get(k, 0))) for k in got]
    rows += [(float(p), k, 0.0, float(p)) for k, p in want.items() if k not in got]
    return max(rows, key=lambda row: row[0])


def assert_close(got: Mapping[Hashable, float], want: Mapping[Hashable, Fraction], bound: float) -> None:
    difference, label, g, w = worst(got, want)
    assert difference <= bound, f"{label}: got {g!r}, want {w!r}, bound {bound!r}"


def opening(sc: Scenario) -> tuple[State, LevaldModel, Compact]:
    """The scenario's opening, its model and the opening encoded (a round start)."""
    state = new_state(sc)
    model = model_at(state, policies_of(sc))
    start = model.encode(state)
    assert start is not None
    return state, model, start


class Solved(NamedTuple):
    model: LevaldModel
    start: Compact
    finals: Finals
    """The exact answer without the cap (:func:`exact_without_cap`)."""
    blocks: Blocks


@functools.cache
def solved_small(name: str) -> Solved:
    """A :data:`SMALL` duel solved from its opening both ways (once: two tests read it)."""
    _, model, start = opening(SMALL[name]())
    starts = [(start, Fraction(1))]
    return Solved(model, start, exact_without_cap(model, starts), BlockSolver(model).run(starts))


@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_block_solve_is_the_clockless_chain_solved_exactly(name: str) -> None:
    """Without the cap's share, every label's probability within the stated rounding bound of the Fractions, and
    all of them summing to 1 within it (every path of the clockless chain ends or deadlocks); no label the chain
    cannot reach; the words say the boxes are not told apart."""
    model, _, finals, solved = solved_small(name)
    want = coarse(model, finals)
    rounding = solved.error_bound - solved.cap_bound
    assert 0 < rounding < 1e-9
    assert set(solved.ends) <= set(want)
    assert_close(solved.ends, want, rounding)
    assert abs(sum(solved.ends.values()) - 1) <= rounding
    for label in solved.ends:
        _, _, words = cast(tuple[Any, Any, tuple[tuple[str, str], ...]], label)
        assert all(re.fullmatch(rf"[^,]+, Omtöckning \d+ \({NOT_TOLD_APART}\)", w) for _, w in words), words


@pytest.mark.parametrize("name", sorted(SMALL))
def test_each_boxs_mark_is_the_exact_chains(name: str) -> None:
    """All ten wound boxes' chances of being ticked at least once, each within the stated rounding bound of the
    exact chain's (the final states with the box ticked). In ``options`` and ``ticking`` a fighter is wounded and
    still standing: the columns of the mass that has not ticked a box are read, not only the ends."""
    model, _, finals, solved = solved_small(name)
    want = ticked(model, finals)
    assert set(solved.marks) == set(want) and len(want) == 2 * BOXES
    assert_close(solved.marks, want, solved.error_bound - solved.cap_bound)
    standing = {"options": [R.ALLVARLIG], "ticking": [R.LATT, R.ALLVARLIG]}.get(name, [])
    for box in standing:
        assert 0 < want[model.wound_mark(1, box)] < 0.01


def wounded_in_chain(model: LevaldModel, start: Compact) -> Compact:
    """The first round start the clockless chain from ``start`` meets with a box ticked and Omtöckning gained."""
    chain, _ = clockless_chain(model, [(start, Fraction(1))])
    states: list[Compact] = chain.states  # type: ignore[assignment]
    return next(c for u, c in enumerate(states) if u not in chain.ends and any(c[WOUNDS : WOUNDS + 2 * BOXES]))


def test_boxes_ticked_before_the_start_count_as_ticked() -> None:
    """From a round start with a box ticked and Omtöckning gained (met by the ``options`` duel), two thirds of the
    mass, and the same start knocked out (an end as it stands), a third: the labels and marks as the exact chain's
    from the same weighted starts, and each box ticked before the start ticked with certainty."""
    _, model, opened = opening(SMALL["options"]())
    wounded = wounded_in_chain(model, opened)
    assert wounded[DAZE] or wounded[DAZE + 1]
    over = list(wounded)
    over[FATE] = KNOCKED_OUT_CODE
    starts = [(wounded, Fraction(2, 3)), (tuple(over), Fraction(1, 3))]
    solved = BlockSolver(model).run(starts)
    finals = exact_without_cap(model, starts)
    rounding = solved.error_bound - solved.cap_bound
    assert 0 < rounding < 1e-9
    assert_close(solved.ends, coarse(model, finals), rounding)
    assert_close(solved.marks, ticked(model, finals), rounding)
    knocked_out = model.without_boxes(model.end(unwounded(tuple(over))))
    assert solved.ends[knocked_out] >= 1 / 3
    before = [i for i, n in enumerate(wounded[WOUNDS : WOUNDS + 2 * BOXES]) if n]
    assert before
    for i in before:
        assert solved.marks[model.wound_mark(*divmod(i, BOXES))] == pytest.approx(1.0, abs=rounding)


@pytest.mark.slow  # ~20 s: random playthroughs find the few wounded round starts
def test_from_wounded_round_starts_met_in_play_the_boxes_and_omtockning_carry_on() -> None:
    """Round starts with a box ticked and Omtöckning gained, met on random playthroughs of the ``ticking`` duel
    (not constructed), each solved alone: labels and marks as the exact chain's from there, and each box ticked
    before the start ticked with certainty."""
    sc = SMALL["ticking"]()
    state, model, _ = opening(sc)
    policies = policies_of(sc)
    states = reachable(state, policies, model.encode, seed=5, count=200)
    wounded = [s for s in states if any(map(any, cast(LevaldState, s).wounds)) and not s.is_terminal()]
    assert len(wounded) >= 2
    for s in wounded[:2]:
        start = model.encode(s)
        assert start is not None and (start[DAZE] or start[DAZE + 1])
        starts = [(start, Fraction(1))]
        solved = BlockSolver(model).run(starts)
        finals = exact_without_cap(model, starts)
        rounding = solved.error_bound - solved.cap_bound
        assert_close(solved.ends, coarse(model, finals), rounding)
        assert_close(solved.marks, ticked(model, finals), rounding)
        for i, n in enumerate(start[WOUNDS : WOUNDS + 2 * BOXES]):
            if n:
                assert solved.marks[model.wound_mark(*divmod(i, BOXES))] == pytest.approx(1.0, abs=rounding)


@pytest.mark.slow  # ~1 min: the horizon pushes a chain of some 200,000 clockless states 200 rounds
def test_a_random_duel_of_wounds_is_the_horizons() -> None:
    """Random policies and wounds that need not end the duel (too many states for the Fractions): labels and marks
    within both stated bounds of the horizon's floats (the cap's share negligible). A random fighter often leaves,
    some after a free attack's wound: ends that carry the Omtöckning gained in their own round, which the exact
    duels above reach with under 10⁻¹⁵."""
    _, model, start = opening(small_duel({"max_rounds": 200}, policy="random", kraft=3, sjal=2))
    starts = [(start, Fraction(1))]
    solved = BlockSolver(model).run(starts)
    finals, _, far_bound = horizon(model, starts, exact=False)
    bound = solved.error_bound + far_bound
    assert solved.cap_bound < 1e-20 and bound < 1e-10
    assert_close(solved.ends, coarse(model, finals), bound)
    assert_close(solved.marks, ticked(model, finals), bound)
    left = (p for (_, c), p in finals.items() if LEFT_CODE in (c[FATE], c[FATE + 1]) and (c[DAZE] or c[DAZE + 1]))
    assert sum(left, Fraction(0)) > 1e-6


def test_the_cap_is_bounded_not_computed() -> None:
    """A cap that matters (6 rounds of poor fighters, 19 blocks): the horizon's exact capped answer, labels and
    marks, lies within the stated bound of the block solve, and further from it than the rounding alone (the cap's
    share is in the bound, and the bound is no certainty); the mass the horizon finds still going at the cap (no
    path deadlocks here) is at most the cap's stated share."""
    _, model, start = opening(small_duel(OPTIONS | {"max_rounds": 6}, kraft=3, skill=30, weapon_a="Sköld"))
    starts = [(start, Fraction(1))]
    solved = BlockSolver(model).run(starts)
    finals, _, _ = horizon(model, starts, exact=True)
    difference, *_ = worst(solved.ends, coarse(model, finals))
    assert difference > solved.error_bound - solved.cap_bound  # the cap does change the answer
    assert_close(solved.ends, coarse(model, finals), solved.error_bound)
    assert_close(solved.marks, ticked(model, finals), solved.error_bound)
    going = sum((p for (at_cap, _), p in finals.items() if at_cap), Fraction(0))
    assert solved.deadlocked == 0 and solved.blocks > 10
    assert 0.1 < going <= solved.cap_bound < 1


def test_a_deadlock_plays_to_the_cap() -> None:
    """Nobody can succeed at anything and nobody may leave: every duel is the deadlock at the cap, with the
    Omtöckning it started with; the mean length is the cap; no box is ticked."""
    _, model, start = opening(small_duel({"allow_leave": False, "max_rounds": 40}, skill=0, stridsvana=0))
    solved = BlockSolver(model).run([(start, Fraction(1))])
    assert solved.ends == {model.without_boxes(model.at_cap(model.clock(start)[0])): pytest.approx(1.0)}
    assert solved.deadlocked == pytest.approx(1.0)
    assert solved.mean_length == pytest.approx(40)
    assert len(solved.marks) == 2 * BOXES and max(solved.marks.values()) <= solved.error_bound


def test_the_mean_length_with_some_deadlocks_is_the_horizons() -> None:
    """Some paths deadlock, the others end: the mean counts the deadlocked ones at the cap and the rest by their
    rounds, as the horizon's exact distribution of lengths does. Nobody may leave; half the mass starts fresh (a
    quick duel: the first hit ends it), half with both fighters so dazed (Omtöckning 100, −190%) that nobody can
    succeed at anything: a deadlock. The horizon's paths still going at the cap are the deadlocked half and at
    most the cap's stated share more."""
    _, model, fresh = opening(small_duel({"allow_leave": False, "max_rounds": 60}))
    dazed = list(fresh)
    dazed[DAZE] = dazed[DAZE + 1] = 100
    starts = [(fresh, Fraction(1, 2)), (tuple(dazed), Fraction(1, 2))]
    solved = BlockSolver(model).run(starts)
    finals, mean, _ = horizon(model, starts, exact=True)
    capped = sum((p for (at_cap, _), p in finals.items() if at_cap), Fraction(0))  # deadlocked, or still going
    assert Fraction(1, 2) <= capped <= Fraction(1, 2) + Fraction(solved.cap_bound)
    assert solved.deadlocked == pytest.approx(0.5, abs=solved.error_bound)
    assert_close(solved.ends, coarse(model, finals), solved.error_bound)
    assert 30 < mean < 60
    assert abs(solved.mean_length - float(mean)) <= 60 * solved.error_bound
    assert solved.cap_bound < 1e-9


def test_progress_is_told_after_every_block() -> None:
    """The solve's progress (``scripts/levald_blocks.py``): once a block, counting up to the blocks solved, each
    block of Omtöckning once; the band states met never falling, the bands waiting at none once it is done; the
    whole start into the opening's block, and at most the whole into the blocks of one Omtöckning sum together (a
    path's sum only rises, so it enters at most one of them)."""
    _, model, start = opening(SMALL["ticking"]())
    told: list[Progress] = []
    solved = BlockSolver(model).run([(start, Fraction(1))], progress=told.append)
    assert [p.blocks for p in told] == list(range(1, solved.blocks + 1))
    assert len({p.daze for p in told}) == len(told) > 10
    assert all(a.states <= b.states and a.bands <= b.bands for a, b in itertools.pairwise(told))
    assert told[-1].states == solved.states and told[-1].pending == 0
    assert max(p.pending for p in told) > 0 and told[-1].bands > 1  # bands waited while others were solved
    assert told[0].daze == (start[DAZE], start[DAZE + 1]) and told[0].mass == pytest.approx(1.0, abs=1e-15)
    by_sum: dict[int, float] = {}
    for p in told:
        assert p.mass >= 0
        by_sum[sum(p.daze)] = by_sum.get(sum(p.daze), 0.0) + p.mass
    assert max(by_sum.values()) <= 1 + 1e-12
    assert sum(by_sum.values()) > 1  # mass went on into later blocks
    assert all(p.mass < 1 for p in told[1:])  # but not all of it: the opening's block ends some


def test_conflict_odds_in_floats_answers_by_blocks_where_the_push_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    """``conflict_odds(exact=False)``: the push refuses beyond ``PUSH_BEFORE_BLOCKS`` live round starts, the block
    solve answers: no length distribution, its mean length, its marks, the capped duel (the horizon far beyond
    the cap's share) within both stated bounds."""
    sc = SMALL["ticking"]()
    state, model, start = opening(sc)
    starts = [(start, Fraction(1))]
    monkeypatch.setattr(model_odds, "PUSH_BEFORE_BLOCKS", 10)
    with pytest.raises(StateSpaceTooLarge, match="round starts alive"):
        propagate_odds(model, starts, 10)
    odds = conflict_odds(state, policies_of(sc), 100_000, exact=False)
    solved = BlockSolver(model).run(starts)
    assert odds.method == "model" and odds.lengths is None
    assert odds.expected_length() == pytest.approx(solved.mean_length, rel=1e-12)
    # the block solve's bound is absolute (mass misplaced in all), kept apart from the relative one (none here)
    assert odds.absolute_bound == pytest.approx(solved.error_bound) and odds.error_bound == 0
    assert odds.marks is not None and odds.marks == pytest.approx(solved.marks, rel=1e-12, abs=1e-18)
    finals, mean, far_bound = horizon(model, starts, exact=False)
    assert_close(odds.distribution, coarse(model, finals), odds.absolute_bound + far_bound)  # type: ignore[arg-type]
    assert_close(odds.marks, ticked(model, finals), odds.absolute_bound + far_bound)  # type: ignore[arg-type]
    assert abs(solved.mean_length - float(mean)) <= model.cap * (odds.absolute_bound + far_bound)


def test_the_answer_says_the_block_solves_bound_is_absolute(monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``konflikt odds`` prints and its JSON: a block-solved duel's bound is absolute (the deadlock's
    probability may be far below it), every shown probability within it of the horizon's capped answer."""
    from konflikt.analysis.questions import whole_conflict_answer
    from konflikt.cli.dice_commands import _how_exact

    sc = SMALL["ticking"]()
    state, model, start = opening(sc)
    monkeypatch.setattr(model_odds, "PUSH_BEFORE_BLOCKS", 10)
    answer = whole_conflict_answer(sc, state, dict(policies_of(sc)), 100_000, exact=False)
    solved = BlockSolver(model).run([(start, Fraction(1))])
    assert answer.absolute and answer.error_bound is not None and answer.error_bound >= solved.error_bound
    assert _how_exact(answer) == {"exact": False, "error_bound": answer.error_bound, "error_bound_kind": "absolute"}
    exact = whole_conflict_answer(sc, state, dict(policies_of(sc)), 100_000, exact=True)
    assert exact.error_bound is None  # Fractions: the capped duel by the horizon, which the bound covers, cap and all
    got = dict(answer.outcomes)
    for name, p in exact.outcomes:
        assert abs(float(got[name]) - float(p)) <= answer.error_bound, name


def test_a_refusal_says_both_the_push_and_the_block_solve_ran_out_of_budget() -> None:
    """The bundled duel at a tiny budget: the refusal names the push's round starts alive and the block solve's
    band states with its share of the budget (a designer learns a larger ``--max-states`` may answer)."""
    sc = load_scenario("levald/duel")
    share = model_odds.BLOCK_SHARE
    with pytest.raises(StateSpaceTooLarge) as refused:
        conflict_odds(new_state(sc), policies_of(sc), 1_000, exact=False)
    text = str(refused.value)
    assert re.search(r"round starts alive after round \d, over 1,000", text), text
    blocks = rf"by blocks: [\d,]+ band states .* over {1_000 * share:,} \(it is given max_states × {share}\)"
    assert re.search(blocks, text), text
    assert text.endswith(SIM_HINT)


def test_more_band_states_than_asked_for_are_refused_with_their_count() -> None:
    """``max_states`` one short of the band states the solve meets: refused, the count met (over the limit) in
    the message and carried to ``blocks_odds``'s refusal; with exactly as many, it answers."""
    _, model, start = opening(SMALL["ticking"]())
    starts = [(start, Fraction(1))]
    met = BlockSolver(model).run(starts).states
    with pytest.raises(TooManyBandStates) as refused:
        BlockSolver(model).run(starts, max_states=met - 1)
    assert refused.value.met == met  # the states only grow, to ``met``: refused at the first over the limit
    assert f"{refused.value.met:,} band states" in str(refused.value)
    assert f"over {met - 1:,}" in str(refused.value)
    with pytest.raises(StateSpaceTooLarge, match=rf"by blocks: {refused.value.met:,} band states"):
        blocks_odds(model, starts, met - 1)
    assert BlockSolver(model).run(starts, max_states=met).states == met


def test_a_refusal_after_some_blocks_says_how_many_were_solved() -> None:
    """Refused once blocks have been solved, the message tells how many (not "before its first block"), and the
    exception's ``blocks`` the same."""
    _, model, start = opening(SMALL["ticking"]())
    starts = [(start, Fraction(1))]
    told: list[Progress] = []
    met = BlockSolver(model).run(starts).states
    with pytest.raises(TooManyBandStates) as refused:
        BlockSolver(model).run(starts, max_states=met - 1, progress=told.append)
    assert told  # some blocks were solved before the refusal
    assert refused.value.blocks == len(told)
    assert "before its first block" not in str(refused.value), str(refused.value)


def test_a_deadline_passed_inside_the_block_solve_stays_out_of_time() -> None:
    """The time given runs out inside the block solve: the caller hears ``OutOfTime`` (a table's "who wins from
    here" gives up in time), not a refusal for too many states."""
    _, model, start = opening(SMALL["ticking"]())
    with pytest.raises(OutOfTime) as stopped, deadline(time.monotonic() - 1):
        blocks_odds(model, [(start, Fraction(1))], 10**6)
    assert any(Path(str(entry.path)).name == "blocks.py" for entry in stopped.traceback)
