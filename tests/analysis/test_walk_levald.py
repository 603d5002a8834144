"""Le våld's compiled round walk (``rulesets/levald/walk.py``) against the compact model's round.

The walk enumerates one round of many band states at once from the model's own tables, reading the defender's
defend-or-counter from the kernel's table (heuristic seats) or as even odds (random seats). The oracle is
:meth:`.model.LevaldModel.step` (itself checked against the State API Fraction for Fraction): from random round
starts of every model scenario, the walked round — a strike back pending walked on in the band of the Omtöckning the
first strike left, and composed in — must give the model's next round starts and ends, with the model's
probabilities to 1e-14. Over a whole band's closure from the bundled duel's opening, the leaves of every state must
be a distribution with distinct outcomes, and a wound that does not end the duel must raise Omtöckning.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pytest

from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.rulesets.levald import walk as W
from konflikt.rulesets.levald.blocks import Grid
from konflikt.rulesets.levald.model import BOXES, DAZE, FATE, SIZE, WOUNDS, LevaldModel, _cleared, exact_model
from konflikt.sim.runner import seat_policies
from tests.analysis.model_check import reachable
from tests.analysis.test_model_levald import SCENARIOS, model_at, policies_of

Ints = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]
Compact = tuple[int, ...]

STATES = 24
"""Random round starts per scenario: enough that every scenario meets counter-attacks (asserted)."""
SEED = 11


class Leaf(NamedTuple):
    """One walked outcome of a state, its key read (:func:`.walk.outcome`)."""

    ended: int
    fa: int
    fb: int
    tick: int
    da: int
    db: int
    code: int
    p: float


class Walker:
    """The walk of one model's duel, band tables kept across the bands asked for."""

    def __init__(self, model: LevaldModel) -> None:
        self.model = model
        self.duel = W.duel_of(model)
        self.grid = Grid(model)
        self.memo: dict[Hashable, Any] = {}
        self.tables: dict[tuple[int, int], W.BandTables] = {}

    def band(self, daze: tuple[int, int]) -> W.BandTables:
        found = self.tables.get(daze)
        if found is None:
            found = self.tables[daze] = W.band_tables(self.model, self.duel, daze, self.memo)
        return found

    def walk(self, daze: tuple[int, int], codes: Ints) -> tuple[Ints, Ints, Floats]:
        """(offsets per state, keys, probabilities) of ``codes`` walked in the band of ``daze``."""
        offsets, keys, weights, _ = W.walk_band(self.duel, self.band(daze), codes)
        return offsets, keys, weights

    def leaves(self, daze: tuple[int, int], code: int) -> list[Leaf]:
        _, keys, weights = self.walk(daze, np.array([code], dtype=np.int64))
        parts = [a.tolist() for a in W.outcome(keys, self.duel.grid)]
        return [Leaf(*fields, p) for *fields, p in zip(*parts, weights.tolist(), strict=True)]

    def start_code(self, clockless: Compact) -> int:
        zero = np.zeros(1, dtype=np.int64)
        return int(self.grid.code(zero, zero, zero, np.array([clockless], dtype=np.int64))[0])

    def kind(self, code: int) -> int:
        return int(self.grid.decode(np.array([code], dtype=np.int64))[0][0])


def model_round(model: LevaldModel, clockless: Compact) -> dict[Compact, Fraction]:
    """The model's next round starts and ends (an end's tracks that no label reads cleared), exactly."""
    den, ways = model.step(clockless)
    out: dict[Compact, Fraction] = {}
    for t, w in ways:
        row: Compact = tuple(t)  # type: ignore[arg-type]
        key = _cleared(row) if row[FATE] or row[FATE + 1] else row
        out[key] = out.get(key, Fraction(0)) + Fraction(w, den)
    return out


def walked_round(walker: Walker, clockless: Compact) -> tuple[dict[Compact, float], int]:
    """One round from ``clockless`` composed from the walk: each leaf's Omtöckning gained added, its box ticked, a
    strike back pending walked on in the band of its new Omtöckning. Returns the next states and ends with their
    probabilities, and how many strike backs pending were composed in."""
    out: dict[Compact, float] = {}
    struck_back = 0

    def arrive(daze: tuple[int, int], boxes: list[int], leaf: Leaf, p: float, pending_ok: bool) -> None:
        nonlocal struck_back
        o = (daze[0] + leaf.da, daze[1] + leaf.db)
        b = list(boxes)
        if leaf.tick >= 0:
            b[leaf.tick] += 1
        if leaf.ended:
            key = _cleared((0, 0, 0, 0, 0, 0, *o, *b, leaf.fa, leaf.fb))
            out[key] = out.get(key, 0.0) + p
            return
        kind, _, _, rows = walker.grid.decode(np.array([leaf.code], dtype=np.int64))
        if int(kind[0]) == 1:
            assert pending_ok, "a strike back leads to the round's end, never to another strike back"
            struck_back += 1
            for inner in walker.leaves(o, leaf.code):
                arrive(o, b, inner, p * inner.p, False)
            return
        row = rows[0].tolist()
        row[DAZE], row[DAZE + 1] = o
        row[WOUNDS : WOUNDS + 2 * BOXES] = b
        key = tuple(row[:SIZE])
        out[key] = out.get(key, 0.0) + p

    daze = (clockless[DAZE], clockless[DAZE + 1])
    boxes = list(clockless[WOUNDS : WOUNDS + 2 * BOXES])
    for leaf in walker.leaves(daze, walker.start_code(clockless)):
        arrive(daze, boxes, leaf, leaf.p, True)
    return out, struck_back


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_walked_round_is_the_models_round(name: str) -> None:
    """Every scenario of the model test (the bundled duel's heuristic seats, a random defender, a random attacker,
    rule options, a shield, cornered, unprepared, the GM's conditions): from random round starts, the walked round
    with its strike backs composed in gives the same next round starts and ends as ``LevaldModel.step``, each
    probability to 1e-14 relative. The sample must meet counter-attacks, so the defender's decision — the kernel's
    counter table for a heuristic seat, even odds for a random one — is checked against the model's own."""
    sc = SCENARIOS[name]()
    opening = new_state(sc)
    policies = policies_of(sc)
    model = model_at(opening, policies)
    walker = Walker(model)
    states = reachable(opening, policies, model.encode, seed=SEED, count=STATES)
    assert len(states) == STATES
    struck_back = 0
    for state in states:
        compact = model.encode(state)
        assert compact is not None
        clockless, _ = model.clock(compact)
        want = model_round(model, clockless)  # type: ignore[arg-type]
        got, composed = walked_round(walker, clockless)  # type: ignore[arg-type]
        struck_back += composed
        assert set(got) == set(want), (clockless, sorted(set(got) ^ set(want))[:3])
        for key, p in want.items():
            assert got[key] == pytest.approx(float(p), rel=1e-14, abs=0), (clockless, key)
    assert struck_back > 0, "no counter-attack met: the defender's decision went unchecked"


def bundled_duel_opening() -> tuple[LevaldModel, Compact]:
    sc = load_scenario("levald/duel")
    state = new_state(sc)
    policies = {s: p for s, p in seat_policies(sc).items() if p is not None}
    model = exact_model(state, policies)
    assert isinstance(model, LevaldModel)
    compact = model.encode(state)
    assert compact is not None
    clockless, _ = model.clock(compact)
    return model, clockless  # type: ignore[return-value]


def band_closure(walker: Walker, daze: tuple[int, int], first: int) -> tuple[Ints, Ints, Ints, Floats]:
    """Every band code reached from ``first`` by walked leaves that do not end the duel (whatever Omtöckning they
    gain), all walked in the band of ``daze``: (codes, offsets per code, keys, probabilities)."""
    seen = np.zeros(walker.duel.grid, dtype=np.bool_)
    seen[first] = True
    todo = np.array([first], dtype=np.int64)
    codes: list[Ints] = []
    offsets: list[Ints] = []
    keys: list[Ints] = []
    weights: list[Floats] = []
    done = 0
    while todo.size:
        off, k, w = walker.walk(daze, todo)
        codes.append(todo)
        offsets.append(off[1:] + done)
        keys.append(k)
        weights.append(w)
        done += k.size
        ended, *_, code = W.outcome(k, walker.duel.grid)
        met = np.unique(code[ended == 0])
        todo = met[~seen[met]]
        seen[todo] = True
    ptr = np.concatenate([np.zeros(1, dtype=np.int64), *offsets])
    return np.concatenate(codes), ptr, np.concatenate(keys), np.concatenate(weights)


@pytest.fixture(scope="module")
def opening_band() -> tuple[Walker, Ints, Ints, Ints, Floats]:
    model, clockless = bundled_duel_opening()
    walker = Walker(model)
    daze = (clockless[DAZE], clockless[DAZE + 1])
    return walker, *band_closure(walker, daze, walker.start_code(clockless))


def test_every_states_leaves_sum_to_one_over_the_opening_band(
    opening_band: tuple[Walker, Ints, Ints, Ints, Floats],
) -> None:
    """The bundled duel from its opening: over the band's closure (thousands of round starts and strike backs
    pending), each state's leaf probabilities are positive and sum to 1 within 1e-14 — no branch lost or doubled."""
    walker, codes, ptr, _, weights = opening_band
    kinds = walker.grid.decode(codes)[0]
    assert codes.size > 1000 and set(kinds.tolist()) == {0, 1}
    assert (weights > 0).all()
    sums = np.add.reduceat(weights, ptr[:-1])
    assert np.diff(ptr).min() > 0
    assert np.abs(sums - 1.0).max() <= 1e-14


def test_a_states_outcome_keys_are_distinct(opening_band: tuple[Walker, Ints, Ints, Ints, Floats]) -> None:
    """Equal outcomes of one state are merged: within each state of the opening band's closure no key repeats
    (the solve reads each key as one entry of the band's matrices)."""
    _, codes, ptr, keys, _ = opening_band
    for i in range(codes.size):
        mine = keys[ptr[i] : ptr[i + 1]]
        assert np.unique(mine).size == mine.size, int(codes[i])


def test_a_wound_that_does_not_end_the_duel_raises_the_wounded_ones_omtockning(
    opening_band: tuple[Walker, Ints, Ints, Ints, Floats],
) -> None:
    """The block solve rests on it (inside a block of Omtöckning no wound is taken): every leaf of the opening band
    that ticks a box and does not end the duel gains Omtöckning for the fighter whose box it ticks. Ends carry no
    code, and a strike back pending leads only to the round's end (a round start or an end)."""
    walker, codes, ptr, keys, _ = opening_band
    ended, _, _, tick, da, db, code = W.outcome(keys, walker.duel.grid)
    wounded = (tick >= 0) & (ended == 0)
    assert wounded.any()
    gain = np.where(tick // BOXES == 0, da, db)
    assert (gain[wounded] > 0).all()
    assert (code[ended == 1] == 0).all()
    kinds = walker.grid.decode(codes)[0]
    from_pending = np.repeat(kinds, np.diff(ptr)) == 1
    assert from_pending.any()
    lead = walker.grid.decode(code[from_pending & (ended == 0)])[0]
    assert (lead == 0).all()


@pytest.mark.parametrize(
    ("fa", "fb", "tick", "da", "db", "code"),
    [
        (0, 0, -1, 0, 0, 0),
        (0, 0, -1, 0, 0, -1),  # the last code of the grid
        (0, 0, 3, 7, 0, 12345),
        (0, 0, 9, 0, 255, 999),
        (0, 1, 8, 3, 200, 4321),  # an end: its code is dropped
        (3, 3, -1, 0, 0, 0),
        (2, 0, 4, 255, 255, 77),
    ],
)
def test_an_outcome_key_reads_back_what_was_keyed(fa: int, fb: int, tick: int, da: int, db: int, code: int) -> None:
    """``outcome`` reads every field ``_key`` (the walk's compiled key) packs, at the edges of their ranges: ended
    exactly when a fate is not FIGHTING, an end's code 0, the box −1 to 9, each gain up to 255, a code up to the
    grid's last."""
    model, _ = bundled_duel_opening()
    grid = W.duel_of(model).grid
    code = grid - 1 if code < 0 else code
    key = W._key(grid, fa, fb, tick, da, db, code)
    got = [int(x[0]) for x in W.outcome(np.array([key], dtype=np.int64), grid)]
    ended = int(fa != W.FIGHTING or fb != W.FIGHTING)
    assert got == [ended, fa, fb, tick, da, db, 0 if ended else code]
