"""Le våld's block solve without the wound boxes (``BlockSolver.run(boxes=False)``), the answer where the fate
words' configurations of boxes would not fit in memory (the bundled duel).

Its oracles: the clockless chain solved exactly in Fractions (``analysis.compact.solve_exact``) with the model's
end labels read coarser — each fighter's words with no box ticked, or which boxes were ticked — and the block solve
*with* the boxes read the same way (its configurations carried block to block, a separate path through the code).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import pytest

import konflikt.analysis.model_odds as model_odds
import konflikt.rulesets.levald.blocks as blocks
from konflikt.analysis.exact import conflict_odds
from konflikt.analysis.questions import WOUND, whole_conflict_answer
from konflikt.core.conflict import new_state
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.blocks import BlockSolver, TooManyConfigurations
from konflikt.rulesets.levald.model import BOXES, FATE, NOT_TOLD_APART, WOUNDS, LevaldModel
from konflikt.sim.runner import seat_policies
from tests.analysis.model_check import reachable
from tests.analysis.test_blocks_levald import WOUNDING, assert_close, exact_without_cap, small_duel
from tests.analysis.test_model_levald import model_at, policies_of

TICKING = lambda: small_duel({"max_rounds": 200}, kraft=3, sjal=2)  # noqa: E731
"""A wound need not end the duel (an Allvarlig may leave the fighter standing), and the clockless chain closes at
~1,500 states: small enough for the exact oracle in Fractions."""


def unwounded(c: tuple[int, ...]) -> tuple[int, ...]:
    return (*c[:WOUNDS], *(0,) * (2 * BOXES), *c[WOUNDS + 2 * BOXES :])


Read = Callable[[Any, tuple[int, ...]], Hashable]


def read_as(model: LevaldModel, monkeypatch: pytest.MonkeyPatch, read: Read) -> None:
    """The model's end labels (``end``, and ``at_cap`` through it) replaced by ``read(label, compact)``."""
    end = model.end

    def coarser(compact: Any) -> Hashable | None:
        label = end(compact)
        return None if label is None else read(label, tuple(compact))

    monkeypatch.setattr(model, "end", coarser)


def without_boxes(model: LevaldModel) -> Read:
    """The State's words with no box ticked (fate and Omtöckning), said so."""
    end = model.end
    return lambda _label, c: model.without_boxes(end(unwounded(c)))


def ticked(_label: Any, c: tuple[int, ...]) -> Hashable:
    """Which of the ten wound boxes (fighter × box) are ticked at the end."""
    return tuple(n > 0 for n in c[WOUNDS : WOUNDS + 2 * BOXES])


def ticked_marks(model: LevaldModel, by_ticks: dict[Hashable, Any]) -> dict[Hashable, float]:
    """Each box's chance of being ticked, from a distribution of :func:`ticked` labels."""
    return {
        model.wound_mark(*divmod(i, BOXES)): float(sum(p for flags, p in by_ticks.items() if flags[i]))  # type: ignore[index]
        for i in range(2 * BOXES)
    }


def opening(make: Callable[[], Any]) -> tuple[LevaldModel, tuple[int, ...]]:
    sc = make()
    state = new_state(sc)
    model = model_at(state, policies_of(sc))
    start = model.encode(state)
    assert start is not None
    return model, start


def test_without_the_boxes_each_label_is_the_exact_chains_read_coarser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every (ending, winner, each fighter's fate and Omtöckning) within the stated bound of the Fractions of the
    clockless chain, each box's chance of being ticked too, and the words say the boxes are not told apart."""
    model, start = opening(TICKING)
    solved = BlockSolver(model).run([(start, Fraction(1))], boxes=False)
    assert not solved.boxes
    with monkeypatch.context() as patch:
        read_as(model, patch, without_boxes(model))
        want = exact_without_cap(model, start)
    with monkeypatch.context() as patch:
        read_as(model, patch, ticked)
        marks = ticked_marks(model, exact_without_cap(model, start))
    bound = solved.error_bound - solved.cap_bound
    assert 0 < bound < 1e-9
    assert set(solved.ends) <= set(want)  # the rest below the bound (floats too small to reach)
    assert_close(solved.ends, want, bound)
    assert set(solved.marks) == set(marks)
    for mark, p in marks.items():
        assert solved.marks[mark] == pytest.approx(p, abs=bound), mark
    serious = model.wound_mark(1, R.ALLVARLIG)
    assert 0 < marks[serious] < 0.01 and serious[1] == WOUND  # ticked and still standing: the case that matters
    for _ending, _winners, words in solved.ends:  # type: ignore[misc]
        assert all(re.fullmatch(rf"[^,]+, Omtöckning \d+ \({NOT_TOLD_APART}\)", w) for _, w in words), words


def test_without_the_boxes_is_the_boxed_solve_read_coarser(monkeypatch: pytest.MonkeyPatch) -> None:
    """A duel of many fate words (13,000 labels with the boxes, 3,900 without): the solve without the boxes and
    the one with them, its labels read coarser, agree within both bounds; so do the boxes' chances and the mean
    length."""
    model, start = opening(WOUNDING)
    solver = BlockSolver(model)
    fine = solver.run([(start, Fraction(1))])
    coarse = solver.run([(start, Fraction(1))], boxes=False)  # the same bands' tables, walked once
    assert len(fine.ends) > 3 * len(coarse.ends) > 3000
    with monkeypatch.context() as patch:
        read_as(model, patch, without_boxes(model))
        summed = BlockSolver(model).run([(start, Fraction(1))])
    with monkeypatch.context() as patch:
        read_as(model, patch, ticked)
        flags = BlockSolver(model).run([(start, Fraction(1))])
    bound = coarse.error_bound + summed.error_bound
    assert_close(coarse.ends, {k: Fraction(v) for k, v in summed.ends.items()}, bound)
    for mark, p in ticked_marks(model, flags.ends).items():
        assert coarse.marks[mark] == pytest.approx(p, abs=bound), mark
    assert coarse.mean_length == pytest.approx(fine.mean_length, rel=1e-12)


def test_boxes_ticked_before_the_start_are_ticked_at_the_end() -> None:
    """From a round start with boxes already ticked, each of those boxes has the start's whole chance; a start
    that has ended (the same fighters, one knocked out) counts as it stands, its words not telling boxes apart."""
    sc = WOUNDING()
    state = new_state(sc)
    policies = policies_of(sc)
    model = model_at(state, policies)
    states = reachable(state, policies, model.encode, seed=5, count=200)
    wounded = next(s for s in states if sum(map(sum, s.wounds)) and not s.is_terminal())  # type: ignore[attr-defined]
    start = model.encode(wounded)
    assert start is not None
    over = list(start)
    over[FATE] = 1  # knocked out
    starts = [(start, Fraction(2, 3)), (tuple(over), Fraction(1, 3))]
    solved = BlockSolver(model).run(starts, boxes=False)
    for i, n in enumerate(start[WOUNDS : WOUNDS + 2 * BOXES]):
        p = solved.marks[model.wound_mark(*divmod(i, BOXES))]
        assert (p == pytest.approx(1.0)) if n else (p <= 2 / 3 + 1e-12)
    assert sum(solved.ends.values()) == pytest.approx(1.0)
    (ended,) = BlockSolver(model).run([(tuple(over), Fraction(1))], boxes=False).ends
    assert all(NOT_TOLD_APART in words for _, words in ended[2])  # type: ignore[index]
    assert solved.ends[ended] >= 1 / 3


def test_the_fate_words_refused_for_memory_the_odds_answer_without_the_boxes(monkeypatch: pytest.MonkeyPatch) -> None:
    """More floats of box configurations waiting than the limit: the boxed run refuses, saying so; the model's
    block solve (what ``odds`` calls) answers without the boxes; the answer shows each fighter's wound boxes."""
    model, start = opening(WOUNDING)
    monkeypatch.setattr(blocks, "PENDING_LIMIT", 50)
    with pytest.raises(TooManyConfigurations, match=r"floats of wound-box configurations waiting .* over 50"):
        BlockSolver(model).run([(start, Fraction(1))])
    solved = model.solve_blocks([(start, Fraction(1))], 10**6)
    assert not solved.boxes and solved.marks
    sc = WOUNDING()
    state = new_state(sc)
    # the push refuses beyond 2,000 round starts alive (2,846 after round 2); the blocks get all 2,000 band states
    monkeypatch.setattr(model_odds, "BLOCK_SHARE", 1)
    assert solved.states < 2000
    odds = conflict_odds(state, policies_of(sc), 2000, exact=False)
    assert odds.marks is not None and set(odds.marks) == set(solved.marks)
    answer = whole_conflict_answer(sc, state, seat_policies(sc), 2000, exact=False)
    names = {p.id: p.name for p in sc.participants()}
    for pid, name in names.items():
        rows = dict(answer.distributions[f"{name}: sår (wounds) of each kind, at least one"])
        assert set(rows) == {f"{w} ({R.WOUND_ENGLISH[w]})" for w in R.WOUNDS}
        assert rows["Dödlig (deadly)"] == pytest.approx(solved.marks[(pid, WOUND, "Dödlig (deadly)")])
        assert all(NOT_TOLD_APART in fate for fate, _ in answer.distributions[f"{name}: fate"])


def test_a_bands_lus_are_let_go_once_the_solve_has_passed_it() -> None:
    """The LUs are most of a solve's memory (6 GB on the bundled duel when all were kept): a band's go once no
    block waiting is in it, and none is kept after the run; a second run factors again, to the same answer."""
    model, start = opening(WOUNDING)
    solver = BlockSolver(model)
    held: list[int] = []

    def told(p: blocks.Progress) -> None:
        kept = [band for band in solver.bands.values() if band.prepared is not None]
        assert all(band.top >= sum(p.daze) for band in kept), p.daze
        held.append(len(kept))

    first = solver.run([(start, Fraction(1))], boxes=False, progress=told)
    assert len(solver.bands) > 3 and max(held) < len(solver.bands)
    assert all(band.prepared is None for band in solver.bands.values())
    again = solver.run([(start, Fraction(1))], boxes=False)
    assert again.ends == pytest.approx(first.ends, rel=1e-12, abs=1e-18)


def test_a_large_budget_pushes_no_further_than_the_block_solve_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a block solve to fall back on, the push stops at ``PUSH_BEFORE_BLOCKS`` round starts alive whatever
    ``max_states`` is (the bundled duel's push took 9 GB at 7,000,000): the blocks answer (no length distribution,
    the mean only); without the cap the push itself answers the same duel."""
    sc = TICKING()
    state = new_state(sc)
    pushed = conflict_odds(state, policies_of(sc), 10**6, exact=False)
    assert pushed.lengths is not None  # the push finished
    monkeypatch.setattr(model_odds, "PUSH_BEFORE_BLOCKS", 20)
    by_blocks = conflict_odds(state, policies_of(sc), 10**6, exact=False)
    assert by_blocks.lengths is None and by_blocks.expected_length() is not None
    assert_close(by_blocks.distribution, pushed.distribution, by_blocks.error_bound + pushed.error_bound)  # type: ignore[arg-type]


def test_a_refusal_says_both_the_push_and_the_block_solve_ran_out_of_budget() -> None:
    """The bundled duel at a small budget: the refusal names the push's round starts alive and the block solve's
    band states with its share of the budget (a designer learns a larger ``--max-states`` may answer)."""
    from konflikt.analysis.exact import SIM_HINT, StateSpaceTooLarge
    from konflikt.core.scenario import load_scenario

    sc = load_scenario("levald/duel")
    with pytest.raises(StateSpaceTooLarge) as refused:
        conflict_odds(new_state(sc), policies_of(sc), 20_000, exact=False)
    text = str(refused.value)
    assert re.search(r"round starts alive after round \d, over 20,000", text), text
    assert re.search(r"by blocks: [\d,]+ band states .* over 1,000 \(it is given max_states // 20\)", text), text
    assert text.endswith(SIM_HINT)


def test_a_deadline_passed_inside_the_block_solve_stays_out_of_time() -> None:
    """The time given runs out inside the block solve: the caller hears ``OutOfTime`` (a table's "who wins from
    here" gives up in time), not a refusal for too many states."""
    import time

    from konflikt.analysis.horizon import blocks_odds
    from konflikt.core.deadline import OutOfTime, deadline

    model, start = opening(TICKING)
    with pytest.raises(OutOfTime), deadline(time.monotonic() - 1):
        blocks_odds(model, [(start, Fraction(1))], 10**6)
