"""Le våld's block solve (``rulesets/levald/blocks.py``) against the compact model and its exact answers.

The block solve works without the clock, block by block of Omtöckning. Its oracles: the compact model's own round
(``LevaldModel.step``, itself checked against the State API Fraction for Fraction) for every band's table; the
clockless chain solved exactly (``analysis.compact.solve_exact``: Gauss–Jordan over Fractions) for the whole
answer without the cap; the horizon's exact answer (``analysis.horizon``) for what the cap changes, which the block
solve bounds and does not compute.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from konflikt.analysis.compact import explore, solve_exact
from konflikt.analysis.exact import StateSpaceTooLarge, conflict_odds
from konflikt.analysis.horizon import Clockless, propagate_odds, solve_horizon
from konflikt.core.conflict import new_state
from konflikt.core.scenario import Scenario, scenario_from_document
from konflikt.rulesets.levald.blocks import Blocks, BlockSolver, Grid, Progress, boxes_of, config_of
from konflikt.rulesets.levald.model import BOXES, DAZE, FATE, SIZE, WOUNDS, LevaldModel, _cleared
from konflikt.rulesets.levald.scenarios import duel_document
from konflikt.rulesets.levald.state import LevaldState
from tests.analysis.model_check import reachable
from tests.analysis.test_model_levald import SCENARIOS, model_at, policies_of


def small_duel(options: dict[str, Any] | None = None, policy: str = "heuristic", **kwargs: Any) -> Scenario:
    """Two weak fighters (little Gard, low thresholds): a few hundred band states, ended in a few rounds."""
    args: dict[str, Any] = {"skill": 60, "kraft": 2, "sjal": 1, "gard": 0, "distance": "Svärd"} | kwargs
    doc = duel_document(args.pop("weapon_a", "Kortsvärd"), args.pop("weapon_b", "Spjut"), policy=policy, **args)
    doc["options"] = dict(options or {})
    return scenario_from_document(doc, "small_duel.toml")


SMALL = {
    "heuristic": lambda: small_duel(),
    "random": lambda: small_duel(policy="random"),
    "options": lambda: small_duel(
        {"two_defence_rolls": True, "holder_damaged": "table", "empty_gard_scratch": False, "exceptional": "doubles"},
        weapon_a="Sköld",
    ),
}


def by_label(ends: dict[tuple[Hashable, int], Fraction]) -> dict[Hashable, Fraction]:
    out: dict[Hashable, Fraction] = {}
    for (label, _), p in ends.items():
        out[label] = out.get(label, Fraction(0)) + p
    return out


def exact_without_cap(model: LevaldModel, start: tuple[int, ...]) -> dict[Hashable, Fraction]:
    """The clockless chain from ``start`` solved exactly, loops and all: the duel without the round cap, where a
    state from which no end can be reached (a deadlock: it loops forever) ends as the State's deadlock at the cap
    (``at_cap``, its boxes and Omtöckning), as the capped duel would end it."""
    clockless, _ = model.clock(start)
    chain = explore(Clockless(model), [clockless], 200_000)
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
        if u not in ending:
            chain.ends[u] = model.at_cap(chain.states[u])
            chain.edges[u] = []
            chain.lengths[u] = 0
    return by_label(solve_exact(chain, [(0, Fraction(1))]).ends)


def solved_from_opening(sc: Scenario, **run: Any) -> tuple[LevaldModel, tuple[int, ...], Blocks]:
    """The scenario's model, its opening encoded, and the block solve from there (``run``: more of ``run``'s
    arguments)."""
    state = new_state(sc)
    model = model_at(state, policies_of(sc))
    start = model.encode(state)
    assert start is not None
    return model, start, BlockSolver(model).run([(start, Fraction(1))], **run)


def assert_close(got: dict[Hashable, float], want: dict[Hashable, Fraction], bound: float) -> None:
    for label in set(got) | set(want):
        assert abs(got.get(label, 0.0) - float(want.get(label, 0))) <= bound, label


@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_block_solve_is_the_clockless_chain_solved_exactly(name: str) -> None:
    """Without the cap's share, every label's probability within the stated rounding bound of the Fractions."""
    model, start, solved = solved_from_opening(SMALL[name]())
    want = exact_without_cap(model, start)
    rounding = solved.error_bound - solved.cap_bound
    assert 0 < rounding < 1e-9
    assert_close(solved.ends, want, rounding)
    assert abs(sum(solved.ends.values()) - 1) <= rounding + solved.pruned


def test_progress_is_told_after_every_block() -> None:
    """The solve's progress (``scripts/levald_blocks.py``): once a block, counting up to the blocks solved, the
    band states met never falling, and the configurations that entered each block at least one."""
    told: list[Progress] = []
    _, _, solved = solved_from_opening(SMALL["heuristic"](), progress=told.append)
    assert [p.blocks for p in told] == list(range(1, solved.blocks + 1))
    assert told[-1].states == solved.states and told[-1].pending == 0
    assert all(a.states <= b.states for a, b in itertools.pairwise(told))
    assert all(p.configs >= 1 for p in told)
    assert len({p.daze for p in told}) == len(told)  # each block of Omtöckning solved once


@pytest.mark.slow  # minutes: the oracle explores thousands of clockless states in Python
def test_from_a_wounded_round_start_the_boxes_and_omtockning_carry_on() -> None:
    """From round starts with wounds ticked and Omtöckning gained (configurations other than none), each solved
    alone, against the horizon's floats far beyond the mass (200 rounds), within both stated bounds."""
    sc = FEW_WOUNDS()
    opening = new_state(sc)
    policies = policies_of(sc)
    model = model_at(opening, policies)
    # a wound that does not take out is a hit's 3T6 of 3 to 6 (9 %): few playthroughs stop at one
    states = reachable(opening, policies, model.encode, seed=5, count=200)
    wounded = [s for s in states if sum(map(sum, s.wounds)) and not s.is_terminal()][:2]  # type: ignore[attr-defined]
    assert len(wounded) == 2
    for state in wounded:
        start = model.encode(state)
        assert start is not None and any(start[WOUNDS : WOUNDS + 2 * BOXES]) and (start[DAZE] or start[DAZE + 1])
        solved = BlockSolver(model).run([(start, Fraction(1))])
        _, far = solve_horizon(model, [(start, Fraction(1))], 500_000, exact=False)
        want = {k: Fraction(v) for k, v in by_label(far.ends).items()}  # type: ignore[arg-type]
        assert_close(solved.ends, want, solved.error_bound + far.error_bound)


WOUNDING = lambda: small_duel({"max_rounds": 200}, kraft=6, sjal=3)  # noqa: E731
"""Wounds that need not end the duel (thresholds 3, 6, 9, 19): round starts with boxes ticked and Omtöckning."""
FEW_WOUNDS = lambda: small_duel({"max_rounds": 200}, kraft=4, sjal=3)  # noqa: E731
"""Wounds that need not end the duel, fewer of them (thresholds 2, 4, 7, 17: an open 3T6 of 3 to 6 wounds, 7 or
more takes out): the clockless chain the horizon explores closes at ~73,000 states from the opening (WOUNDING's
passes 247,000 within five rounds), yet the forward push meets over 30,000 round starts alive by round 6."""


def test_the_cap_is_bounded_not_computed() -> None:
    """A cap that matters (6 rounds): the horizon's exact answer lies within the stated bound of the block solve,
    and the bound is more than the rounding alone (the cap's share is in it)."""
    sc = small_duel({"max_rounds": 6}, skill=30)
    model, start, solved = solved_from_opening(sc)
    _, capped = solve_horizon(model, [(start, Fraction(1))], 200_000, exact=True)
    want = by_label(capped.ends)  # type: ignore[arg-type]
    worst = max(abs(solved.ends.get(k, 0.0) - float(want.get(k, 0))) for k in set(want) | set(solved.ends))
    assert worst > solved.error_bound - solved.cap_bound  # the cap does change the answer
    assert worst <= solved.error_bound < 1


def test_a_deadlock_plays_to_the_cap() -> None:
    """Nobody can succeed at anything and nobody may leave: every duel is a deadlock at the cap, with the boxes
    and Omtöckning it started with; the mean length is the cap."""
    sc = small_duel({"allow_leave": False, "max_rounds": 40}, skill=0, stridsvana=0)
    model, start, solved = solved_from_opening(sc)
    assert solved.ends == {model.at_cap(model.clock(start)[0]): pytest.approx(1.0)}
    assert solved.deadlocked == pytest.approx(1.0)
    assert solved.mean_length == pytest.approx(40)


def test_a_band_beyond_z_is_counted_into_the_cap_bound_once_by_its_chance(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where z passes a band's radius, the mass entering it is counted into the cap's bound whole: by the chance
    of a path ever coming there (once, however many such blocks it passes), not by its z-weighted mass (z^rounds,
    more than the chance) nor once per block. Every band but the opening's made one such: the cap's bound is then
    the chance of the duel ever leaving the opening's band, which the ends tell (Omtöckning only rises)."""
    import konflikt.rulesets.levald.blocks as blocks
    from konflikt.rulesets.levald import rules

    def penalties(daze: tuple[int, int]) -> tuple[int, int]:
        return rules.daze_penalty(daze[0]), rules.daze_penalty(daze[1])

    sc = WOUNDING()
    state = new_state(sc)
    model = model_at(state, policies_of(sc))
    start = model.encode(state)
    assert start is not None
    opening = penalties((start[DAZE], start[DAZE + 1]))
    prepare, labelled = blocks.Band.prepare, blocks.BlockSolver._labelled
    found: list[tuple[Any, Any]] = []

    def beyond_z(band: blocks.Band) -> blocks.Prepared:
        prep = prepare(band)
        if penalties(band.daze) != opening:
            prep.lu_z = None
        return prep

    def keep(solver: BlockSolver, tally: blocks.Tally) -> None:
        found.extend(tally.found)
        labelled(solver, tally)

    monkeypatch.setattr(blocks.Band, "prepare", beyond_z)
    monkeypatch.setattr(blocks.BlockSolver, "_labelled", keep)
    solved = BlockSolver(model).run([(start, Fraction(1))])
    left_opening = sum(
        float(p[i]) for rows, p in found for i, row in enumerate(rows.tolist()) if penalties(row[:2]) != opening
    )
    assert solved.blocks > 3 and 0.005 < left_opening < 0.999
    assert solved.cap_bound == pytest.approx(left_opening, rel=1e-9)


@pytest.mark.slow  # minutes: the oracle explores thousands of clockless states in Python
def test_the_mean_length_with_some_deadlocks_is_the_horizons() -> None:
    """Some paths deadlock, the others end: the mean counts the deadlocked ones at the cap and the rest by their
    rounds, as the horizon's exact distribution of lengths does. Nobody may leave; half the mass starts fresh (a
    quick duel: the first hit ends it), half with both fighters so dazed (Omtöckning 100, −190%) that nobody can
    succeed at anything: a deadlock. (No one duel has both a deadlock and a small cap bound: a deadlock needs both
    fighters dazed beyond every target, and the bands on the way there are too slow for the bound's z.)"""
    sc = small_duel({"allow_leave": False, "max_rounds": 60})
    state = new_state(sc)
    model = model_at(state, policies_of(sc))
    fresh = model.encode(state)
    assert fresh is not None
    dazed = list(fresh)
    dazed[DAZE] = dazed[DAZE + 1] = 100
    starts = [(fresh, Fraction(1, 2)), (tuple(dazed), Fraction(1, 2))]
    solved = BlockSolver(model).run(starts)
    _, capped = solve_horizon(model, starts, 200_000, exact=False)
    mean = sum(n * p for (_, n), p in capped.ends.items())
    assert solved.deadlocked == pytest.approx(0.5, abs=1e-9)
    assert abs(solved.mean_length - mean) <= 60 * solved.error_bound + 1e-9
    assert solved.cap_bound < 1e-3


@pytest.mark.slow  # minutes: the oracle explores thousands of clockless states in Python
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_bands_table_is_the_models_round(name: str) -> None:
    """Every scenario of the model test: from random round starts, a band's in-block steps, exits and ends, with
    the strike back's state composed in, give the model's next round starts (boxes ticked, Omtöckning added) with
    the model's probabilities, to 1e-14."""
    sc = SCENARIOS[name]()
    opening = new_state(sc)
    policies = policies_of(sc)
    model = model_at(opening, policies)
    solver = BlockSolver(model)
    grid = Grid(model)
    states = reachable(opening, policies, model.encode, seed=11, count=4)
    for state in states:
        compact = model.encode(state)
        assert compact is not None
        clockless, _ = model.clock(compact)
        den, ways = model.step(clockless)
        want: dict[tuple[int, ...], float] = {}
        for t, w in ways:
            key = _cleared(t) if t[FATE] or t[FATE + 1] else tuple(t)  # type: ignore[index, arg-type]
            want[key] = want.get(key, 0.0) + w / den  # type: ignore[arg-type]
        got = band_round(solver, grid, clockless)  # type: ignore[arg-type]
        assert set(got) == set(want)
        for key, p in want.items():
            assert got[key] == pytest.approx(p, rel=1e-14, abs=1e-16), key


def band_round(solver: BlockSolver, grid: Grid, clockless: tuple[int, ...]) -> dict[tuple[int, ...], float]:
    """One round from ``clockless`` read from its band's lists (not the prepared matrices: every state there)."""
    daze = (clockless[DAZE], clockless[DAZE + 1])
    band = solver.band(daze)
    zero = np.zeros(1, dtype=np.int64)
    code = int(grid.code(zero, zero, zero, np.array([clockless], dtype=np.int64))[0])
    band.add(np.array([code], dtype=np.int64), close=False)  # its deltas are from the band's own Omtöckning
    config = config_of(clockless[WOUNDS : WOUNDS + 2 * BOXES])
    out: dict[tuple[int, ...], float] = {}

    def arrive(target: int, da: int, db: int, tick: int, p: float, fates: tuple[int, int] | None) -> None:
        boxes = list(boxes_of(config))
        if tick >= 0:
            boxes[tick] += 1
        o = (daze[0] + da, daze[1] + db)
        if fates is not None:
            key = _cleared((0, 0, 0, 0, 0, 0, *o, *boxes, *fates))
            out[key] = out.get(key, 0.0) + p
            return
        kind, _, _, rows = grid.decode(np.array([target], dtype=np.int64))
        if int(kind[0]) == 1:  # a strike back pending: on through its own table, in the block it was met in
            follow(target, o, boxes, p)
            return
        row = rows[0].tolist()
        row[DAZE], row[DAZE + 1] = o
        row[WOUNDS : WOUNDS + 2 * BOXES] = boxes
        key = tuple(row[:SIZE])
        out[key] = out.get(key, 0.0) + p

    def follow(mid: int, o: tuple[int, int], boxes: list[int], p: float) -> None:
        inner = solver.band(o)
        inner.add(np.array([mid], dtype=np.int64), close=False)
        for target, da, db, tick, w, fates in transitions(inner, mid):
            base = list(boxes)
            if tick >= 0:
                base[tick] += 1
            oo = (o[0] + da, o[1] + db)
            if fates is not None:
                key = _cleared((0, 0, 0, 0, 0, 0, *oo, *base, *fates))
                out[key] = out.get(key, 0.0) + p * w
                continue
            kind, _, _, rows = grid.decode(np.array([target], dtype=np.int64))
            assert int(kind[0]) == 0  # a strike back leads to the round's end
            row = rows[0].tolist()
            row[DAZE], row[DAZE + 1] = oo
            row[WOUNDS : WOUNDS + 2 * BOXES] = base
            key = tuple(row[:SIZE])
            out[key] = out.get(key, 0.0) + p * w

    for target, da, db, tick, w, fates in transitions(band, code):
        arrive(target, da, db, tick, w, fates)
    return out


def transitions(band: Any, code: int) -> list[tuple[int, int, int, int, float, tuple[int, int] | None]]:
    """(target code, Omtöckning a gained, b gained, box ticked or −1, probability, fates or None) from ``code``."""
    i = int(band.at[code])
    kinds = sorted(band.end_kind, key=band.end_kind.__getitem__)
    out: list[tuple[int, int, int, int, float, tuple[int, int] | None]] = []
    for parent, target, w in band.q:
        for t, p in zip(target[parent == i].tolist(), w[parent == i].tolist(), strict=True):
            out.append((t, 0, 0, -1, p, None))
    for parent, da, db, tick, target, w in band.x:
        pick = parent == i
        for row in zip(target[pick], da[pick], db[pick], tick[pick], w[pick], strict=True):
            out.append((int(row[0]), int(row[1]), int(row[2]), int(row[3]), float(row[4]), None))
    for parent, kind, w in band.e:
        for k, p in zip(kind[parent == i].tolist(), w[parent == i].tolist(), strict=True):
            da, db, tick, fa, fb = kinds[int(k)]
            out.append((0, da, db, tick, p, (fa, fb)))
    return out


@pytest.mark.slow  # minutes: the oracle explores thousands of clockless states in Python
def test_conflict_odds_in_floats_answers_by_blocks_where_the_push_refuses() -> None:
    """``conflict_odds(exact=False)``: the push refuses beyond ``max_states`` live round starts, the block solve
    answers (the same labels as the exact clockless chain, its mean length, a stated bound)."""
    sc = FEW_WOUNDS()
    state = new_state(sc)
    policies = policies_of(sc)
    model = model_at(state, policies)
    start = model.encode(state)
    assert start is not None
    # the block solve is given max_states // BLOCK_SHARE band states: 1,500, above the 1,372 this duel meets
    refusing = 30_000
    with pytest.raises(StateSpaceTooLarge, match="round starts alive"):
        propagate_odds(model, [(start, Fraction(1))], refusing)
    odds = conflict_odds(state, policies, refusing, exact=False)
    _, far = solve_horizon(model, [(start, Fraction(1))], 500_000, exact=False)
    want = {k: Fraction(v) for k, v in by_label(far.ends).items()}  # type: ignore[arg-type]
    assert odds.method == "model" and odds.lengths is None
    assert_close(odds.distribution, want, odds.error_bound + far.error_bound)  # type: ignore[arg-type]
    solved = BlockSolver(model).run([(start, Fraction(1))])
    assert odds.expected_length() == pytest.approx(solved.mean_length)
    assert isinstance(state, LevaldState)


def test_progress_tells_the_mass_that_entered_each_block() -> None:
    """The mass in each progress report (``scripts/levald_blocks.py --mass``): the whole start into the opening's
    block, and at most the whole into the blocks of one Omtöckning sum together (a path's sum only rises, so it
    enters at most one of them), and less than the whole into any later one — on a duel of nine blocks."""
    told: list[Progress] = []
    solved_from_opening(SMALL["options"](), progress=told.append)
    assert len(told) == 9
    assert told[0].mass == pytest.approx(1.0, abs=1e-15)
    by_sum: dict[int, float] = {}
    for p in told:
        assert p.mass >= 0
        by_sum[sum(p.daze)] = by_sum.get(sum(p.daze), 0.0) + p.mass
    assert max(by_sum.values()) <= 1 + 1e-12
    assert sum(by_sum.values()) > 1  # mass went on into later blocks
    assert all(p.mass < 1 for p in told[1:])  # but not all of it: the opening's block ends some
