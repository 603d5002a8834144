"""Whole-conflict odds through a ruleset's compact model, bridged from any state by the State API.

A model starts where a round starts (see ``ExactModel.encode``). From any other state — the opening's decisions, a
conflict saved in the middle of an exchange — the State API is walked (every chance outcome and policy choice, as
the State-API solver does) until each branch reaches a state the model encodes, or ends; the model is then solved
from all those starts at once, weighted by the bridge's probabilities.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from konflikt.analysis.compact import Chain, Solved, explore, solve_exact, solve_float
from konflikt.analysis.exact import ConflictOdds, StateSpaceTooLarge, _apply, grouped_branches, outcome_label
from konflikt.analysis.horizon import (
    blocks_odds,
    has_blocks,
    has_horizon,
    has_propagation,
    propagate_odds,
    solve_horizon,
)
from konflikt.core.capabilities import Enters, HeldInKey, Holds, Labels, Marks, WinnersFrom
from konflikt.core.deadline import check_time
from konflikt.core.ruleset import ExactModel, Policy, get_ruleset
from konflikt.core.state import State

BLOCK_SHARE = 4
"""A model's block solve gets ``max_states × BLOCK_SHARE`` of its own states: a band state costs ~30 µs of CPU
all told (walked, solved in every block of its band, its exits sent on), a compact state of the exact solvers ~1 ms;
the bundled ``levald/duel`` meets 337,424 and is answered at the default budget."""
PUSH_BEFORE_BLOCKS = 20_000
"""The most round starts alive a model with a block solve pushes before the block solve takes over, whatever the
budget: the push is exact with the clock (no bound for the round cap) and wins on short duels; a long one outgrows
it within a few rounds (the bundled duel: 23,684 alive after round 3), and the block solve answers it."""
BRIDGE_MOVES = 20_000
"""The most State-API moves from the asked state to the model's starts before the State-API solver takes over."""


def winners_by_values(state: State, policies: Mapping[str, Policy]) -> tuple[dict[Hashable, float], float] | None:
    """Each winners' tuple's chance from ``state`` by a model's prepared values (its optional ``winners_from``:
    Le våld's duel, :mod:`konflikt.rulesets.levald.values`), and the absolute bound on each: the bridge to the next
    round starts, then a look-up. ``None`` where no model has values ready for where the bridge leads."""
    bridged = _bridged(state, policies, {})
    if bridged is None or len(bridged[0]) > 1:
        return None
    models, starts, finished = bridged
    out: dict[Hashable, float] = {}
    bound = 0.0
    if models:
        found = models[0].winners_from(starts[0]) if isinstance(models[0], WinnersFrom) else None
        if found is None:
            return None
        out, bound = dict(found[0]), found[1]
    for s, w in finished:
        won = s.outcome().winners
        out[won] = out.get(won, 0.0) + float(w)
    return out, bound


def model_odds(state: State, policies: Mapping[str, Policy], max_states: int, exact: bool) -> ConflictOdds | None:
    """The odds from the ruleset's compact model, or ``None`` where it has none or it does not cover the case."""
    ruleset = get_ruleset(state.ruleset)
    ended: dict[tuple[Hashable, int], Fraction] = {}
    held: dict[Hashable, Fraction] = {}
    """Marks already true where the bridge reaches a model's start, or an end (see ``Chain.marks``)."""
    bridged = _bridged(state, policies, held)
    if bridged is None:
        return None
    models, starts, finished = bridged
    for s, w in finished:  # ended on the bridge: labelled as the model labels its ends
        model = models[0] if models else None
        key = (_label(model, s), _length(s, ruleset.length_key))
        ended[key] = ended.get(key, Fraction(0)) + w
        for mark in _held(model, s):
            held[mark] = held.get(mark, Fraction(0)) + w
    return _solve(models, starts, ended, held, max_states, exact, ruleset.length_unit)


def _bridged(
    state: State, policies: Mapping[str, Policy], held: dict[Hashable, Fraction]
) -> tuple[list[ExactModel], list[list[tuple[Hashable, Fraction]]], list[tuple[State, Fraction]]] | None:
    """The ruleset's models reached from ``state``, their weighted starts and the States that ended on the way
    (:func:`_bridge`, filling ``held``); ``None`` where the ruleset has no model, one refuses a state on the way, or
    the walk grows too large."""
    factory = get_ruleset(state.ruleset).exact_model
    if factory is None:
        return None
    models: list[ExactModel] = []
    starts: list[list[tuple[Hashable, Fraction]]] = []
    try:
        finished = _bridge(state, policies, factory, models, starts, held)
    except _Refused:
        return None
    return None if finished is None else (models, starts, finished)


def _bridge(
    state: State,
    policies: Mapping[str, Policy],
    factory: Factory,
    models: list[ExactModel],
    starts: list[list[tuple[Hashable, Fraction]]],
    held: dict[Hashable, Fraction],
) -> list[tuple[State, Fraction]] | None:
    """The walk from ``state`` to the models' starts: merged by key where no model has marks, else path by path.
    Returns the states that ended on the way, or ``None`` where the walk grew beyond :data:`BRIDGE_MOVES`."""
    stack: list[tuple[State, Fraction]] = []
    try:
        merged = _merged_bridge(state, policies, factory, models, starts, held)
    except _Marked:
        models.clear()
        starts.clear()
        merged = []
        stack.append((state, Fraction(1)))
    if merged is None:
        return None
    finished: list[tuple[State, Fraction]] = merged
    moves = 0
    while stack:
        check_time()
        s, w = stack.pop()
        if s.is_terminal():
            if not models and isinstance(factory(s, policies), str):
                return None
            finished.append((s, w))
            continue
        at = _start_at(s, policies, factory, models, starts, marks_allowed=True)
        if at is not None:
            starts[at[0]].append((at[1], w))
            for mark in _held(models[at[0]], s):
                held[mark] = held.get(mark, Fraction(0)) + w
            continue
        entered = _entered(s, models)
        if entered is not None:
            for (i, compact), p in entered.items():
                starts[i].append((compact, w * p))
            continue
        for p, move in grouped_branches(s, policies):
            child = s.fork()
            _apply(child, move)
            stack.append((child, w * p))
            moves += 1
        if moves > BRIDGE_MOVES:
            return None
    return finished


Factory = Callable[[State, Mapping[str, Policy]], ExactModel | str | None]
"""A ruleset's ``exact_model``: a model for a state, the reason it has none, or ``None`` (not at a model's start)."""


class _Refused(Exception):
    """A model refused a state on the bridge (its factory said why): no answer by the models."""


def _start_at(
    s: State,
    policies: Mapping[str, Policy],
    factory: Factory,
    models: list[ExactModel],
    starts: list[list[tuple[Hashable, Fraction]]],
    *,
    marks_allowed: bool,
) -> tuple[int, Hashable] | None:
    """Where ``s`` enters a model: a model already built, else one the factory builds now (added to ``models``
    and ``starts``); ``None`` where ``s`` is no model's start. Raises :class:`_Refused` where the factory refuses,
    and :class:`_Marked` at a model with marks unless ``marks_allowed``."""
    at = _encode(models, s)
    if at is not None:
        return at
    made = factory(s, policies)
    if isinstance(made, str):
        raise _Refused(made)
    if made is None:
        return None
    compact = made.encode(s)
    if compact is None:
        if not isinstance(made, Enters):
            raise AssertionError(f"{type(made).__name__} was built from a state it does not encode")
        if made not in models:  # built to enter the round ``s`` is in (see ``_entered``)
            models.append(made)
            starts.append([])
        return None
    if not marks_allowed and isinstance(made, Holds) and not (isinstance(made, HeldInKey) and made.held_in_key):
        raise _Marked
    models.append(made)
    starts.append([])
    return len(models) - 1, compact


def _entered(s: State, models: list[ExactModel]) -> dict[tuple[int, Hashable], Fraction] | None:
    """Where the rest of the round ``s`` is in leads, by a model that enters a round in the middle (its optional
    ``enter``: the starts reached, each with its probability; ``None`` where it cannot load ``s``), instead of the
    State API's walk. Only models without marks enter (the marks on the way would be the walk's)."""
    for i, model in enumerate(models):
        if not isinstance(model, Enters) or isinstance(model, Holds):
            continue
        found: list[tuple[Hashable, Fraction]] | None = model.enter(s)
        if found is not None:
            return {(i, compact): p for compact, p in found}
    return None


class _Marked(Exception):
    """The bridge met a model with marks that ``key()`` leaves out (no ``held_in_key``): paths into one key may
    hold different marks, so they are walked one by one instead of merged."""


def _merged_bridge(
    state: State,
    policies: Mapping[str, Policy],
    factory: Factory,
    models: list[ExactModel],
    starts: list[list[tuple[Hashable, Fraction]]],
    held: dict[Hashable, Fraction],
) -> list[tuple[State, Fraction]] | None:
    """The bridge with every State met once: the probability of reaching each model start or end from ``state``,
    memoised by ``key()`` (the paths into one state share what follows it: a topping war meets few states by many
    paths). Fills ``models``, ``starts`` and ``held`` (the marks true at a start, read from the first State met
    there: a model whose marks ``key()`` holds, ``held_in_key``, gives every path into it the same); returns the
    ends, or ``None`` where a model refuses a state on the way; raises :class:`_Marked` at a model with marks that
    could differ between paths into one key."""
    memo: dict[Hashable, dict[tuple[int, Hashable], Fraction]] = {}
    ends: dict[Hashable, State] = {}
    arrived: dict[tuple[int, Hashable], State] = {}

    def reach(s: State) -> dict[tuple[int, Hashable], Fraction] | None:
        check_time()
        if s.is_terminal():
            if not models and isinstance(factory(s, policies), str):
                return None
            key = s.key()
            ends.setdefault(key, s)
            return {(-1, key): Fraction(1)}
        at = _start_at(s, policies, factory, models, starts, marks_allowed=False)
        if at is not None:
            arrived.setdefault(at, s)
            return {at: Fraction(1)}
        entered = _entered(s, models)
        if entered is not None:
            return entered
        key = s.key()
        found = memo.get(key)
        if found is None:
            found = {}
            for p, move in grouped_branches(s, policies):
                child = s.fork()
                _apply(child, move)
                below = reach(child)
                if below is None:
                    return None
                for where, q in below.items():
                    found[where] = found.get(where, Fraction(0)) + p * q
            memo[key] = found
        return found

    reached = reach(state)
    if reached is None:
        return None
    finished: list[tuple[State, Fraction]] = []
    for (i, where), w in reached.items():
        if i < 0:
            finished.append((ends[where], w))
        else:
            starts[i].append((where, w))
            if (i, where) not in arrived:  # entered mid-round (``_entered``): a model without marks
                continue
            for mark in _held(models[i], arrived[i, where]):
                held[mark] = held.get(mark, Fraction(0)) + w
    return finished


_EXPLORED: dict[int, tuple[ExactModel, Chain, dict[Hashable, int]]] = {}
"""The last chain explored, by its model: asked again from a state it holds ("who wins from here" after every step
at the table, ``odds --saved --from-step``), the answer is only the push from there (the model's own cache keeps
its steps, but walking tens of thousands of states again costs a second)."""


def forget_explored() -> None:
    """Drop the chain kept for "asked again" (:data:`_EXPLORED`). ``konflikt bench`` calls it before timing the
    next scenario, so that freeing the last scenario's chain (a tenth of a second for the knife fight's) is not
    counted in the next one's solve, as it is not in a fresh ``konflikt odds`` process."""
    _EXPLORED.clear()


def _explored(model: ExactModel, starts: list[Hashable], max_states: int) -> tuple[Chain, dict[Hashable, int]]:
    """The chain from ``starts``: the one explored last for this model where it holds them all, else explored."""
    found = _EXPLORED.get(id(model))
    if found is not None and found[0] is model and all(c in found[2] for c in starts):
        return found[1], found[2]
    chain = explore(model, starts, max_states)
    index = {s: i for i, s in enumerate(chain.states)}
    _EXPLORED.clear()
    _EXPLORED[id(model)] = (model, chain, index)
    return chain, index


def _encode(models: list[ExactModel], state: State) -> tuple[int, Hashable] | None:
    for i, model in enumerate(models):
        compact = model.encode(state)
        if compact is not None:
            return i, compact
    return None


def _label(model: ExactModel | None, state: State) -> Hashable:
    """How the model labels an ended State (its optional ``label``), else :func:`outcome_label`."""
    return model.label(state) if isinstance(model, Labels) else outcome_label(state)


def _held(model: ExactModel | None, state: State) -> list[Hashable]:
    """The marks already true at ``state`` (the model's optional ``held``)."""
    return list(model.held(state)) if isinstance(model, Holds) else []


def _length(state: State, key: str | None) -> int:
    value = state.outcome().data.get(key) if key else None
    return int(value) if isinstance(value, int) else 0


@dataclass
class MeanOdds(ConflictOdds):
    """:class:`ConflictOdds` that may know the mean length without its distribution (a model's block solve:
    Le våld's duel), ``lengths`` then ``None``."""

    mean_length: float | None = None

    def expected_length(self) -> Fraction | None:
        if self.lengths is None and self.mean_length is not None:
            return self.mean_length  # type: ignore[return-value]
        return super().expected_length()


def _solve(
    models: list[ExactModel],
    starts: list[list[tuple[Hashable, Fraction]]],
    ended: dict[tuple[Hashable, int], Fraction],
    held: dict[Hashable, Fraction],
    max_states: int,
    exact: bool,
    unit: str,
) -> ConflictOdds:
    total: dict[tuple[Hashable, int], Fraction] = dict(ended)
    floats: dict[tuple[Hashable, int], float] = {k: float(v) for k, v in ended.items()}
    marks: dict[Hashable, Fraction] = dict(held)
    marks_f: dict[Hashable, float] = {k: float(v) for k, v in held.items()}
    states, edges, bound, absolute, has_lengths, block_marks = 0, 0, 0.0, 0.0, True, False
    by_label: dict[Hashable, float] = {}
    """Floats by label alone (a model's block solve: no length per label), and their part of the mean length."""
    mean_part = 0.0
    for model, weighted in zip(models, starts, strict=True):
        unit = model.unit
        if not exact and has_propagation(model):  # floats pushed forward by the model itself, round by round
            try:
                push = min(max_states, PUSH_BEFORE_BLOCKS) if has_blocks(model) else max_states
                peak, pushed = propagate_odds(model, weighted, push)
            except StateSpaceTooLarge as refused:
                if not has_blocks(model):
                    raise
                # too many round starts alive for the push: the model's block solve without the clock, within a
                # share of the budget in its own states (~1 ms of CPU each to walk); refused: the push's count
                try:
                    solved_b = blocks_odds(model, weighted, max_states * BLOCK_SHARE)
                except StateSpaceTooLarge as too_many:  # both said: a larger budget may let the blocks answer
                    raise StateSpaceTooLarge(
                        refused.explored,
                        refused.frontier,
                        refused.limit,
                        why=f"{refused.why}; {too_many.why} (it is given max_states × {BLOCK_SHARE})",
                        estimate=refused.estimate,
                        estimated=refused.estimated,
                    ) from None
                states += solved_b.states
                for label, q in solved_b.ends.items():
                    by_label[label] = by_label.get(label, 0.0) + q
                for mark, q in solved_b.marks.items():  # what its labels leave out (Le våld's boxes)
                    marks_f[mark] = marks_f.get(mark, 0.0) + q
                    block_marks = True
                mean_part += solved_b.mean_length
                absolute += solved_b.error_bound
                has_lengths = False
                continue
            states += peak
            for k, pushed_q in pushed.ends.items():
                floats[k] = floats.get(k, 0.0) + pushed_q
            bound = max(bound, pushed.error_bound)
            continue
        if exact and has_propagation(model):
            # the float push first, as a quick refusal: the round starts alive after round r are distinct states
            # the exact solver would explore too, so more than max_states of them means it would not finish
            propagate_odds(model, weighted, max_states)
        if has_horizon(model):  # the clock only caps the rounds: the clockless chain, stepped to the cap
            chain, by_rounds = solve_horizon(model, weighted, max_states, exact)
            gc.freeze()
            states += chain.size
            edges += chain.edge_count
            if exact:
                solved = cast(Solved[Fraction], by_rounds)
                for k, p in solved.ends.items():
                    total[k] = total.get(k, Fraction(0)) + p
            else:
                for k, q in by_rounds.ends.items():
                    floats[k] = floats.get(k, 0.0) + float(q)
                bound = max(bound, by_rounds.error_bound)
            continue
        chain, ids = _explored(model, [c for c, _ in weighted], max_states)
        gc.freeze()  # the chain's millions of tuples stay: the collector need not scan them again
        mass: dict[int, Fraction] = {}
        for c, w in weighted:
            mass[ids[c]] = mass.get(ids[c], Fraction(0)) + w
        states += chain.size
        edges += chain.edge_count
        if exact:
            solved = solve_exact(chain, list(mass.items()))
            for k, p in solved.ends.items():
                total[k] = total.get(k, Fraction(0)) + p
            for m, p in solved.marks.items():
                marks[m] = marks.get(m, Fraction(0)) + p
        else:
            solved_f = solve_float(chain, list(mass.items()))
            for k, q in solved_f.ends.items():
                floats[k] = floats.get(k, 0.0) + q
            for m, q in solved_f.marks.items():
                marks_f[m] = marks_f.get(m, 0.0) + q
            bound = max(bound, solved_f.error_bound)
            has_lengths = has_lengths and solved_f.has_lengths
            continue
        has_lengths = has_lengths and solved.has_lengths
    gc.unfreeze()
    source: Mapping[tuple[Hashable, int], object] = total if exact else floats
    distribution: dict[Hashable, object] = {}
    lengths: dict[int, object] = {}
    for (label, n), share in source.items():
        if not share:
            continue
        distribution[label] = distribution.get(label, 0) + share  # type: ignore[operator]
        lengths[n] = lengths.get(n, 0) + share  # type: ignore[operator]
    for label, q in by_label.items():
        if q:
            distribution[label] = float(distribution.get(label, 0)) + q  # type: ignore[arg-type]
    mean = None if has_lengths else mean_part + sum(n * float(p) for (_, n), p in floats.items())
    return MeanOdds(
        distribution,  # type: ignore[arg-type]
        states,
        states,
        edges,
        lengths=dict(sorted(lengths.items())) if has_lengths else None,  # type: ignore[arg-type]
        unit=unit,
        method="model",
        marks=(marks if exact else marks_f) if block_marks or any(isinstance(m, Marks) for m in models) else None,  # type: ignore[arg-type]
        error_bound=bound,
        absolute_bound=absolute,
        mean_length=mean,
    )
