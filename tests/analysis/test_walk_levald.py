"""Le våld's compiled round walk (``rulesets/levald/walk.py``) against the compact model's round.

The walk enumerates one round of many band states at once from the model's own tables, reading the defender's
defend-or-counter from the kernel's table (heuristic seats) or as even odds (random seats); a wound that leaves the
struck fighter standing is one *node* (the state after the hit and the hit's class), its wounds tabulated once per
band. The oracle is :meth:`.model.LevaldModel.step` (itself checked against the State API Fraction for Fraction):
from random round starts of every model scenario, the walked round — its nodes spelt out (:func:`.walk.expanded`), a
strike back pending walked on in the band of the Omtöckning the first strike left, and composed in — must give the
model's next round starts and ends, with the model's probabilities to 1e-14. Over a whole band's closure from the
bundled duel's opening, the leaves of every state must be a distribution with distinct outcomes, and a wound that
does not end the duel must raise the wounded fighter's Omtöckning.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pytest

from konflikt.core.conflict import new_state
from konflikt.core.scenario import load_scenario
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald import walk as W
from konflikt.rulesets.levald.blocks import Grid
from konflikt.rulesets.levald.model import (
    BOXES,
    DAZE,
    DIST,
    FATE,
    GARD,
    HOLDER,
    REDECIDE,
    SIZE,
    WOUNDS,
    Compact,
    LevaldModel,
    _cleared,
    exact_model,
)
from konflikt.rulesets.levald.walk import Floats, Ints
from konflikt.sim.runner import seat_policies
from tests.analysis.model_check import reachable
from tests.analysis.test_model_levald import SCENARIOS, model_at, policies_of

STATES = 16
"""Random round starts per scenario: enough that every scenario meets counter-attacks (asserted); the slow test
checks more."""
SEED = 11


class Leaf(NamedTuple):
    """One walked outcome of a state (:func:`.walk.expanded`'s row), its band code decoded."""

    ended: int
    fa: int
    fb: int
    tick: int
    da: int
    db: int
    code: int
    p: float
    kind: int
    """The state it leads to: 0 a round start, 1 a strike back pending."""
    row: list[int]
    """That state as a compact row (Omtöckning, boxes and fates zero)."""


class Walker:
    """The walk of one model's duel, band tables kept per pair of Omtöckning penalties — as the block solve keeps
    them, one for all the blocks of a band (so the comparison with the model also checks that a round reads
    Omtöckning only through its penalty)."""

    def __init__(self, model: LevaldModel) -> None:
        self.model = model
        self.duel = W.duel_of(model)
        self.grid = Grid(model)
        self.memo: dict[Hashable, Any] = {}
        self.tables: dict[tuple[int, int], W.BandTables] = {}
        self.walked: dict[tuple[tuple[int, int], int], list[Leaf]] = {}

    @staticmethod
    def penalties(daze: tuple[int, int]) -> tuple[int, int]:
        return R.daze_penalty(daze[0]), R.daze_penalty(daze[1])

    def band(self, daze: tuple[int, int]) -> W.BandTables:
        key = self.penalties(daze)
        found = self.tables.get(key)
        if found is None:
            found = self.tables[key] = W.band_tables(self.model, self.duel, daze, self.memo)
        return found

    def walk(self, daze: tuple[int, int], codes: Ints) -> tuple[Ints, Ints, Floats]:
        """(offsets per state, keys, probabilities) of ``codes`` walked in the band of ``daze``."""
        offsets, keys, weights, _ = W.walk_band(self.duel, self.band(daze), codes)
        return offsets, keys, weights

    def leaves(self, daze: tuple[int, int], code: int) -> list[Leaf]:
        """The outcomes of one state, its wound nodes spelt out as their wounds (kept per band and code)."""
        found = self.walked.get((self.penalties(daze), code))
        if found is not None:
            return found
        _, keys, weights = self.walk(daze, np.array([code], dtype=np.int64))
        (ended, fa, fb, tick, da, db, codes), p, _ = W.expanded(self.band(daze), keys, weights, self.duel.grid)
        kind, _, _, rows = self.grid.decode(codes)
        found = [
            Leaf(*fields, row)
            for *fields, row in zip(
                *(a.tolist() for a in (ended, fa, fb, tick, da, db, codes, p, kind)), rows.tolist(), strict=True
            )
        ]
        self.walked[(self.penalties(daze), code)] = found
        return found

    def start_code(self, clockless: Compact) -> int:
        zero = np.zeros(1, dtype=np.int64)
        return int(self.grid.code(zero, zero, zero, np.array([clockless], dtype=np.int64))[0])


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
        if leaf.kind == 1:
            assert pending_ok, "a strike back leads to the round's end, never to another strike back"
            struck_back += 1
            for inner in walker.leaves(o, leaf.code):
                arrive(o, b, inner, p * inner.p, False)
            return
        row = list(leaf.row)
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
    check_walked_rounds(name, SEED, STATES)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_walked_round_is_the_models_round_on_more_states(name: str) -> None:
    """As :func:`test_a_walked_round_is_the_models_round`, on more random round starts (another seed)."""
    check_walked_rounds(name, SEED + len(name), 5 * STATES)


def check_walked_rounds(name: str, seed: int, count: int) -> None:
    """``count`` random round starts of scenario ``name``: the walked round is the model's."""
    sc = SCENARIOS[name]()
    opening = new_state(sc)
    policies = policies_of(sc)
    model = model_at(opening, policies)
    walker = Walker(model)
    states = reachable(opening, policies, model.encode, seed=seed, count=count)
    assert len(states) == count
    rows = []
    for state in states:
        compact = model.encode(state)
        assert compact is not None
        clockless, _ = model.clock(compact)
        rows.append(clockless)
    assert_walked_rounds_are_the_models(walker, rows)  # type: ignore[arg-type]


def assert_walked_rounds_are_the_models(walker: Walker, rows: list[Compact]) -> None:
    """From each clockless round start of ``rows``: the same next states and ends, each probability to 1e-14
    relative; and counter-attacks met among them (so the defender's decision was checked)."""
    struck_back = 0
    for row in rows:
        want = model_round(walker.model, row)
        got, composed = walked_round(walker, row)
        struck_back += composed
        assert set(got) == set(want), (row, sorted(set(got) ^ set(want))[:3])
        for key, p in want.items():
            assert abs(got[key] - float(p)) <= 1e-14 * float(p), (row, key, got[key], p)
    assert struck_back > 0, "no counter-attack met: the defender's decision went unchecked"


GARDS = ((1.0, 1.0), (1.0, 0.0), (0.0, 1.0), (0.5, 0.0), (0.0, 0.5), (0.4, 1.0), (1.0, 0.4))
"""Gard a, Gard b as shares of each maximum: full, empty, half (the least a heuristic defender counters with) and
just below half."""
DAZES = ((0, 0), (6, 11), (11, 6))
"""Omtöckning a, b: the counter table's daze levels equal and apart (none so dazed that the heuristic leaves)."""


def close_in_states(model: LevaldModel, base: Compact) -> list[Compact]:
    """Variants of a round start one step from the nearest distance, each fighter holding the initiative (kept
    unless the distance moves), over the Gard pairs of :data:`GARDS` and the Omtöckning pairs of :data:`DAZES`:
    where the defender's choice to counter turns on the indices of the kernel's table and on its Gard soaking a
    hit."""
    out = []
    for holder, (sa, sb), (da, db) in itertools.product((0, 1), GARDS, DAZES):
        row = list(base)
        row[DIST], row[HOLDER], row[REDECIDE] = 1, holder, 0
        row[GARD] = round(sa * model.fighters[0].gard_max)
        row[GARD + 1] = round(sb * model.fighters[1].gard_max)
        row[DAZE], row[DAZE + 1] = da, db
        out.append(tuple(row))
    return out


@pytest.mark.parametrize(
    "name",
    # the shield's table turns on every index (the duel's only on the defender's own level below 26 Omtöckning)
    ["shield_cornered_and_options", pytest.param("duel", marks=pytest.mark.slow)],
)
def test_a_heuristic_defenders_choice_is_the_models_at_close_quarters(name: str) -> None:
    """The heuristic defender's defend-or-counter is read from the kernel's counter table by (defender, its daze
    level, the attacker's, whether each has Gard) and the soaks test: from round starts near the nearest distance,
    either fighter holding the initiative, over Gard pairs (full, half, empty) and Omtöckning pairs (levels equal
    and apart), the walked round must still be the model's (which asks the real heuristic), to 1e-14; counters must
    be met."""
    sc = SCENARIOS[name]()
    opening = new_state(sc)
    model = model_at(opening, policies_of(sc))
    base = model.encode(opening)
    assert base is not None
    clockless, _ = model.clock(base)
    assert_walked_rounds_are_the_models(Walker(model), close_in_states(model, clockless))  # type: ignore[arg-type]


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


NODE, END = 2, 1
"""An outcome key's kind (``key // grid >> 24``): a wound node, an end; 0 a step with nothing gained."""


@dataclass
class Closure:
    """A band's states reached from one, all walked in that band: their codes and raw outcomes (by state)."""

    walker: Walker
    daze: tuple[int, int]
    codes: Ints
    ptr: Ints
    keys: Ints
    weights: Floats

    @property
    def tables(self) -> W.BandTables:
        return self.walker.band(self.daze)

    def kind(self) -> Ints:
        out: Ints = (self.keys // self.walker.duel.grid) >> 24
        return out


def band_closure(walker: Walker, daze: tuple[int, int], first: int) -> Closure:
    """Every band code reached from ``first`` by walked outcomes that do not end the duel (a step, or a wound node's
    state after the hit, whatever Omtöckning it gains), all walked in the band of ``daze``."""
    grid = walker.duel.grid
    seen = np.zeros(grid, dtype=np.bool_)
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
        met = np.unique((k % grid)[(k // grid) >> 24 != END])
        todo = met[~seen[met]]
        seen[todo] = True
    ptr = np.concatenate([np.zeros(1, dtype=np.int64), *offsets])
    return Closure(walker, daze, np.concatenate(codes), ptr, np.concatenate(keys), np.concatenate(weights))


@pytest.fixture(scope="module")
def opening_band() -> Closure:
    model, clockless = bundled_duel_opening()
    walker = Walker(model)
    return band_closure(walker, (clockless[DAZE], clockless[DAZE + 1]), walker.start_code(clockless))


def test_every_states_leaves_sum_to_one_over_the_opening_band(opening_band: Closure) -> None:
    """The bundled duel from its opening: over the band's closure (thousands of round starts and strikes back
    pending), each state's outcomes, a wound node counted as its wounds (the node's probability times each wound's
    share of the hit table), have positive probabilities summing to 1 within 1e-14 — no branch lost or doubled."""
    band = opening_band
    grid = band.walker.duel.grid
    kinds = band.walker.grid.decode(band.codes)[0]
    assert band.codes.size > 1000 and set(kinds.tolist()) == {0, 1}
    assert np.diff(band.ptr).min() > 0 and (band.weights > 0).all()
    off, _, share = band.tables.wounds
    assert (share > 0).all()
    classes = off.size - 1
    of_class = np.bincount(np.repeat(np.arange(classes), np.diff(off)), weights=share, minlength=classes)
    node = band.kind() == NODE
    assert node.any()
    mass = band.weights.copy()
    mass[node] *= of_class[(band.keys[node] // grid) & 0xFFFFFF]
    sums = np.add.reduceat(mass, band.ptr[:-1])
    assert np.abs(sums - 1.0).max() <= 1e-14


def test_a_states_outcome_keys_are_distinct_and_of_three_kinds(opening_band: Closure) -> None:
    """Equal outcomes of one state are merged: within each state of the opening band's closure no key repeats (the
    solve reads each key as one entry of the band's matrices). Every key is an end (its code 0), a wound node of a
    class that has wounds, or a step with no Omtöckning gained and no box ticked (what ``sweeps.classify`` reads)."""
    band = opening_band
    grid = band.walker.duel.grid
    for i in range(band.codes.size):
        mine = band.keys[band.ptr[i] : band.ptr[i + 1]]
        assert np.unique(mine).size == mine.size, int(band.codes[i])
    kind = band.kind()
    assert set(kind.tolist()) == {0, END, NODE}
    ended, _, _, tick, da, db, code = W.outcome(band.keys[kind != NODE], grid)
    assert (code[ended == END] == 0).all()
    step = ended == 0
    assert (tick[step] == -1).all() and (da[step] == 0).all() and (db[step] == 0).all()
    assert band.tables.nodes[(band.keys[kind == NODE] // grid) & 0xFFFFFF].all()


def test_a_wound_that_does_not_end_the_duel_raises_the_wounded_ones_omtockning(opening_band: Closure) -> None:
    """The block solve rests on it (inside a block of Omtöckning no wound is taken): every wound a node of the
    opening band spells out ticks a Skråma, Lätt or Allvarlig box and raises the Omtöckning of the fighter whose box
    it ticks, the other's not. A strike back pending leads only to the round's end (a round start or an end)."""
    band = opening_band
    off, wounds, _ = band.tables.wounds
    assert off[-1] > 0
    da, db, tick = wounds[:, 0], wounds[:, 1], wounds[:, 2]
    fighter, box = tick // BOXES, tick % BOXES
    assert set(fighter.tolist()) == {0, 1}
    assert ((box >= R.SKRAMA) & (box <= R.ALLVARLIG)).all()
    assert (np.where(fighter == 0, da, db) > 0).all()
    assert (np.where(fighter == 0, db, da) == 0).all()
    grid = band.walker.duel.grid
    pending = np.repeat(band.walker.grid.decode(band.codes)[0], np.diff(band.ptr)) == 1
    assert pending.any()
    lead = band.walker.grid.decode((band.keys % grid)[pending & (band.kind() != END)])[0]
    assert (lead == 0).all()


def test_a_wound_node_is_spelt_out_as_its_classs_wounds(opening_band: Closure) -> None:
    """``expanded`` (how the comparison with the model reads a walked round): a plain key is read as ``outcome``
    reads it; a wound node's key (``_node_key``: its hit class and the state after the hit) becomes one row per
    wound of its class — no fate, the class's box and Omtöckning gained, the node's code — with the node's
    probability times the wound's share, each row telling the key it comes from."""
    band = opening_band
    grid = band.walker.duel.grid
    off, wounds, share = band.tables.wounds
    hit = int(np.flatnonzero(np.diff(off) > 1)[0])
    lo, hi = int(off[hit]), int(off[hit + 1])
    plain = W._key(grid, 0, 0, -1, 0, 0, int(band.codes[3]))
    node = W._node_key(grid, hit, int(band.codes[5]))
    parts, p, index = W.expanded(band.tables, np.array([plain, node]), np.array([0.25, 0.5]), grid)
    rows = np.column_stack(parts)
    assert rows[0].tolist() == [0, 0, 0, -1, 0, 0, int(band.codes[3])] and p[0] == 0.25 and index[0] == 0
    want = [[0, 0, 0, t, a, b, int(band.codes[5])] for a, b, t in wounds[lo:hi].tolist()]
    assert rows[1:].tolist() == want
    assert p[1:].tolist() == (0.5 * share[lo:hi]).tolist()
    assert index[1:].tolist() == [1] * (hi - lo)


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
