"""One Le våld round of many states at once, every branch enumerated: the band tables of the block solve.

The block solve (:mod:`.blocks`) needs, for every state of a *band* — one pair of Omtöckning penalties — where one
round leads and with what probability: the next round starts in the same block of Omtöckning, the exits (a wound:
Omtöckning gained and a wound box ticked) and the ends (a fate). The bundled duel's bands hold some 340,000 such
states with ~130 branches each, so the walk is compiled (numba, :func:`walk`); the numbers it combines are the
compact model's own:

* every chance node comes from the model's memoised tables, built from :mod:`.rules` under any rule option (the
  movement with its Stridsvana contest, the initiative, the attack against the defence, a strike no defence roll
  meets, a free attack on one leaving, gaining ground): :func:`band_tables` asks the model once per key of the band
  and lays the answers out as flat arrays (:class:`BandTables`);
* every decision of the ``heuristic`` and ``random`` policies comes from the model too (the real heuristic on a
  real ``LevaldState``, or the legal actions equally likely), but for the defender's defend-or-counter, which the
  heuristic takes from the Gard of both fighters: there the walk reads the kernel's table of that choice
  (:func:`.kernel.counter_table`, the heuristic's own expressions, and :func:`.duel_loop.soaks`) as the kernel's
  loop does, instead of asking the heuristic for each of the ~2,700 (attacker, distance, Gard, Gard) a band holds.

A state is a band code (:class:`.blocks.Grid`): a round start, or a counter-attacker's strike back pending (its
target reads the Omtöckning the first strike left, so a first strike that wounds leads there in the next block).
The walk follows the State's order — movement and leaving with its free attack, the initiative, the attacker's and
the defender's choice, the attack against the defence or the counter-attack's first strike, gaining ground — and
every leaf is one outcome: where the round leads (a band code, or an end), the Omtöckning each fighter gained, the
wound box ticked (at most one a leaf: a wound that does not end the duel always raises Omtöckning, so a second
strike is walked from the next block) and the fates. Equal outcomes of one state are summed.

**Wound nodes.** A hit whose wound leaves the struck fighter standing ends in a *wound node* rather than in one leaf
per wound: its key holds the hit's class (:func:`hit_class`: the table, who strikes, the struck one's Gard, whether
the Gard is kept) and the state after the hit, which every wound of the class shares; only the Omtöckning gained and
the box ticked differ, and those are the class's own list (:attr:`BandTables.wounds`). So a state has a few nodes
instead of some hundred wound leaves, and the block solve spreads a node's mass over its class's wounds once per
node (:func:`.sweeps.gather`, :func:`.sweeps.send`). :func:`expanded` spells the nodes out for the tests.

``tests/analysis/test_walk_levald.py`` checks a walked round against :meth:`.model.LevaldModel.step` (itself checked
against the State API Fraction for Fraction) on random states of every model scenario.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

import numpy as np

from konflikt.dice.compiled import compiled, side_by_side, threads
from konflikt.rulesets.levald import rules as R
from konflikt.rulesets.levald.duel_loop import level, soaks
from konflikt.rulesets.levald.model import DAZE, DIST, GARD, HOLDER, REDECIDE, SIZE, LevaldModel
from konflikt.rulesets.levald.propagate import (
    _defended_table,
    _ground_table,
    _initiative_table,
    _move_table,
    _strike_table,
)
from konflikt.rulesets.levald.state import DAMAGED, MOVED

Ints = np.ndarray[Any, np.dtype[np.int64]]
Floats = np.ndarray[Any, np.dtype[np.float64]]

FIGHTING, KNOCKED_OUT, DEAD, LEFT = 0, 1, 2, 3
"""The compact model's fate codes (:data:`.model.FATES`)."""
GAIN_BITS = 8
"""Bits of an outcome key for one fighter's Omtöckning gained in one round (at most 255)."""


@dataclass
class BandTables:
    """A band's chance nodes and decisions as flat arrays the walk reads (each family: offsets per key, integer
    fields per branch, probabilities per branch)."""

    move: tuple[Ints, Ints, Floats]
    """Key distance × 3 + holder + 1: (distance after, fighter a leaves, fighter b leaves)."""
    initiative: tuple[Ints, Ints, Floats]
    """Key (distance × 3 + holder + 1) × 4 + why to decide afresh: (attacker or −1, holder after, why after)."""
    regain: Floats
    """[attacker, its Gard]: the chance the attacker does not attack (regains Gard)."""
    ground: tuple[Ints, Ints, Floats]
    """Key attacker × distances + distance: (distance after, the flag that moving sets)."""
    defended: tuple[Ints, Ints, Floats]
    """Key attacker × gards + the defender's Gard: (succeeded, Gard left or −1 no hit, wound, Omtöckning gained)."""
    strike: tuple[Ints, Ints, Floats]
    """Key striker × gards + the struck one's Gard: a strike no defence roll meets (a counter-attack)."""
    free: tuple[Ints, Ints, Floats]
    """The same for the free attack on one leaving."""
    levels: Ints
    """Each fighter's Omtöckning level in the band, as the kernel's counter table reads it."""
    nodes: Any
    """Per hit class (:func:`hit_class`): whether it has wounds that leave the struck fighter standing."""
    wounds: tuple[Ints, Ints, Floats]
    """Per hit class (offsets): each such wound's (Omtöckning a gained, b gained, box ticked) and its probability
    (its share of the hit table, not of the class)."""


@dataclass(frozen=True)
class Duel:
    """What the walk reads of a duel that no band changes."""

    dists: int
    gards: Ints
    """Gard maximum + 1 per fighter."""
    gard_max: Ints
    scale: Ints
    """Compact distance → index into ``rules.DISTANCES`` (the kernel's scale)."""
    lengths: Ints
    heuristic: Ints
    leave_free: Ints
    """[stayer, distance]: 1 where one leaving gets away without the stayer's free attack."""
    counter_table: Any
    level_cap: Ints
    gard_damage: bool
    deadly_knocks_out: bool

    @property
    def grid(self) -> int:
        """Band codes run from 0 to this − 1 (:class:`.blocks.Grid`)."""
        return 8 * self.dists * 3 * 4 * int(self.gards[0]) * int(self.gards[1])


def duel_of(model: LevaldModel) -> Duel:
    """The walk's fixed numbers of the model's duel (the kernel's counter table built as the kernel builds it)."""
    from konflikt.rulesets.levald.kernel import counter_table

    f = model.fighters
    attack = np.array([x.attack_base for x in f])
    defence = np.array([x.defence_base for x in f])
    cap = np.maximum(0, -(-np.maximum(attack, defence) // 10))
    dists = model.last + 1
    return Duel(
        dists=dists,
        gards=np.array([x.gard_max + 1 for x in f], dtype=np.int64),
        gard_max=np.array([x.gard_max for x in f], dtype=np.int64),
        scale=np.array([model.scale_index[d] for d in range(dists)], dtype=np.int64),
        lengths=np.array([x.length for x in f], dtype=np.int64),
        heuristic=np.array([kind == "heuristic" for kind in model.kinds], dtype=np.int64),
        leave_free=np.array(
            [[R.leave_is_free(model.scale_index[d], f[s].length) for d in range(dists)] for s in (0, 1)],
            dtype=np.int64,
        ),
        counter_table=counter_table(model.scratch, cap),
        level_cap=cap.astype(np.int64),
        gard_damage=bool(model.options.gard_damage_is_damage),
        deadly_knocks_out=model.options.deadly_wound == "knocked_out",
    )


Branches = tuple[Ints, Floats]
"""One key's branches: their fields (branch × field) and probabilities."""


def _arrays(branches: list[tuple[tuple[int, ...], float]], width: int) -> Branches:
    """A branch list (fields, probability) as arrays."""
    fields = np.array([b for b, _ in branches], dtype=np.int64).reshape(-1, width)
    return fields, np.array([w for _, w in branches], dtype=np.float64)


def _flat(rows: list[Branches], width: int) -> tuple[Ints, Ints, Floats]:
    """Per-key branches as (offsets, fields, probabilities)."""
    off = np.zeros(len(rows) + 1, dtype=np.int64)
    off[1:] = np.cumsum([len(w) for _, w in rows])
    return off, np.concatenate([f for f, _ in rows]).reshape(-1, width), np.concatenate([w for _, w in rows])


def band_tables(
    model: LevaldModel, duel: Duel, daze: tuple[int, int], memo: dict[Hashable, Any] | None = None
) -> BandTables:
    """The band of ``daze``'s tables, from the model's own (``memo`` keeps them across bands: their keys read the
    penalties, so bands share most of them)."""
    memo = {} if memo is None else memo
    pens = (R.daze_penalty(daze[0]), R.daze_penalty(daze[1]))
    s = [0] * SIZE
    s[DAZE], s[DAZE + 1] = daze

    def kept(key: Hashable, make: Callable[[], Any]) -> Any:
        found = memo.get(key)
        if found is None:
            found = memo[key] = make()
        return found

    def table(
        key: Hashable, width: int, make: Callable[..., list[tuple[tuple[int, ...], float]]], *args: Any
    ) -> Branches:
        """A table's branches from one key, ``make(*args)`` as arrays (made once: bands share most keys)."""
        return kept(key, lambda: _arrays(make(*args), width))  # type: ignore[no-any-return]

    def with_(**fields: int) -> list[int]:
        t = list(s)
        for name, value in fields.items():
            t[{"dist": DIST, "holder": HOLDER, "redecide": REDECIDE, "ga": GARD, "gb": GARD + 1}[name]] = value
        return t

    dists = duel.dists
    move = [
        table(("move", d, h, pens), 3, _move_table, model, with_(dist=d, holder=h))
        for d in range(dists)
        for h in (-1, 0, 1)
    ]
    initiative = [
        table(("initiative", d, h, r, pens), 3, _initiative_table, model, with_(dist=d, holder=h, redecide=r))
        for d in range(dists)
        for h in (-1, 0, 1)
        for r in range(4)
    ]
    gards = int(duel.gards.max())
    regain = np.zeros((2, gards))
    for att in (0, 1):
        for g in range(int(duel.gards[att])):
            t = with_(holder=att, **({"ga": g} if att == 0 else {"gb": g}))
            ways = kept(("attacker", att, pens[att], g), partial(model._attacker_choice, t, att))
            regain[att, g] = sum(count for kind, count in ways if kind == "regain") / sum(c for _, c in ways)
    ground = [
        table(("ground", att, d), 2, _ground_table, model, with_(dist=d, holder=att), att)
        for att in (0, 1)
        for d in range(dists)
    ]

    def hits(
        name: str, reads: Callable[[int], Hashable], make: Callable[[int, int], list[tuple[tuple[int, ...], float]]]
    ) -> list[Branches]:
        rows: list[Branches] = []
        for src in (0, 1):
            for g in range(gards):
                rows.append(
                    table((name, src, reads(src), g), 4, make, src, g) if g < duel.gards[1 - src] else _arrays([], 4)
                )
        return rows

    # what each table reads of the penalties: the attack and the defence; a strike only the striker's
    defended = hits(
        "defended", lambda att: pens, lambda att, g: _defended_table(model, att, pens[att], pens[1 - att], g)
    )
    strike = hits("strike", lambda src: pens[src], lambda src, g: _strike_table(model, src, pens[src], g, False))
    free = hits("free", lambda src: pens[src], lambda src, g: _strike_table(model, src, pens[src], g, True))
    levels = np.array([cast(Any, level).py_func(daze[i], int(duel.level_cap[i])) for i in (0, 1)], dtype=np.int64)
    nodes, wounds = _wound_classes(_flat(defended, 4), _flat(strike, 4), gards)
    return BandTables(
        move=_flat(move, 3),
        initiative=_flat(initiative, 3),
        regain=regain,
        ground=_flat(ground, 2),
        defended=_flat(defended, 4),
        strike=_flat(strike, 4),
        free=_flat(free, 4),
        levels=levels,
        nodes=nodes,
        wounds=wounds,
    )


def _wound_classes(
    defended: tuple[Ints, Ints, Floats], strike: tuple[Ints, Ints, Floats], widest: int
) -> tuple[Any, tuple[Ints, Ints, Floats]]:
    """The hit classes of a band's two hit tables (against the defence roll; no defence roll): which have wounds
    that leave the struck one standing, and those wounds per class (Omtöckning gained, box, probability), equal
    wounds of a class summed."""
    parts = []
    for table, (off, fields, weights) in enumerate((defended, strike)):
        key = np.repeat(np.arange(len(off) - 1), np.diff(off))
        striker, gard = key // widest, key % widest
        left, wound, gained = fields[:, 1], fields[:, 2], fields[:, 3]
        standing = (left >= 0) & (wound >= R.SKRAMA) & (wound <= R.ALLVARLIG)
        assert bool(np.isin(left[standing] - gard[standing] * (left[standing] != 0), 0).all()), (
            "a wound empties the Gard or keeps it (an exceptional or open hit)"
        )
        struck = 1 - striker
        kept = (left != 0).astype(np.int64)
        hit = ((table * 2 + striker) * widest + gard) * 2 + kept
        parts.append(
            np.column_stack([hit, gained * (struck == 0), gained * (struck == 1), struck * 5 + wound])[standing]
        )
        parts.append(weights[standing])
    rows = np.concatenate([parts[0], parts[2]])
    weights = np.concatenate([parts[1], parts[3]])
    classes = 2 * 2 * widest * 2
    if not len(rows):
        return np.zeros(classes, dtype=np.bool_), (np.zeros(classes + 1, dtype=np.int64), rows[:, 1:], weights)
    radix = int(rows.max()) + 1  # one number per row, sorted as the rows are
    keys = ((rows[:, 0] * radix + rows[:, 1]) * radix + rows[:, 2]) * radix + rows[:, 3]
    keys_uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    uniq = rows[first]
    summed = np.bincount(inverse.ravel(), weights=weights, minlength=len(keys_uniq))
    counts = np.bincount(uniq[:, 0], minlength=classes)
    off = np.zeros(classes + 1, dtype=np.int64)
    off[1:] = np.cumsum(counts)
    return counts > 0, (off, uniq[:, 1:].astype(np.int64), summed.astype(np.float64))


WALK_SHARE = 2_000
"""States walked at least per thread: fewer are walked in the calling thread."""


def walk_band(duel: Duel, tables: BandTables, codes: Ints) -> tuple[Ints, Ints, Floats, int]:
    """Every state of ``codes`` one round (or strike back) on: (offsets per state, outcome keys, probabilities, the
    most leaves summed into one outcome), each state's keys distinct (:func:`outcome` reads a key). States are
    walked apart, so many are shared among threads (:func:`.compiled.side_by_side`)."""
    t = tables
    pieces = np.array_split(codes, max(1, min(threads(), len(codes) // WALK_SHARE)))
    parts: list[Any] = [None] * len(pieces)

    def one(i: int) -> Callable[[], None]:
        def call() -> None:
            parts[i] = walk(
                pieces[i], duel.dists, duel.gards, duel.gard_max, duel.scale, duel.lengths, duel.heuristic,
                duel.leave_free, duel.counter_table, t.levels, duel.gard_damage, duel.deadly_knocks_out,
                *t.move, *t.initiative, t.regain, *t.ground, *t.defended, *t.strike, *t.free, t.nodes,
            )  # fmt: skip

        return call

    side_by_side([one(i) for i in range(len(pieces))])
    if len(parts) == 1:
        return parts[0]  # type: ignore[no-any-return]
    shifts = np.cumsum([0] + [len(keys) for _, keys, _, _ in parts[:-1]])
    offsets = np.concatenate([[0]] + [off[1:] + shift for (off, _, _, _), shift in zip(parts, shifts, strict=True)])
    keys = np.concatenate([keys for _, keys, _, _ in parts])
    weights = np.concatenate([w for _, _, w, _ in parts])
    return offsets.astype(np.int64), keys, weights, max(merged for _, _, _, merged in parts)


# ---- outcome keys ------------------------------------------------------------------------------------------------
def outcome(key: Ints, grid: int) -> tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints]:
    """An outcome key's parts: (ended, fate a, fate b, box ticked or −1, Omtöckning a gained, b gained, band code —
    0 for an end). A wound node's key (ended 2) is read by :func:`expanded` instead."""
    code = key % grid
    rest = key // grid
    db = rest % (1 << GAIN_BITS)
    rest //= 1 << GAIN_BITS
    da = rest % (1 << GAIN_BITS)
    rest //= 1 << GAIN_BITS
    tick = rest % 16 - 1
    rest //= 16
    fb = rest % 4
    rest //= 4
    fa = rest % 4
    ended = rest // 4
    return ended, fa, fb, tick, da, db, code


def expanded(tables: BandTables, keys: Ints, weights: Floats, grid: int) -> tuple[tuple[Ints, ...], Floats, Ints]:
    """Outcome keys with every wound node spelt out as its wounds: (:func:`outcome`'s parts, probabilities, the index
    of the key each row comes from). The block solve never does this (it keeps the nodes: see the module); the
    tests compare rounds so."""
    rest = keys // grid
    node = rest >> 24 == 2
    parts = outcome(keys[~node], grid)
    at = np.flatnonzero(~node)
    rows = [(*(p.tolist() for p in parts), weights[~node].tolist(), at.tolist())]
    off, kinds, w = tables.wounds
    hits = (rest[node] & 0xFFFFFF).tolist()
    for index, hit, code, weight in zip(
        np.flatnonzero(node).tolist(), hits, (keys[node] % grid).tolist(), weights[node].tolist(), strict=True
    ):
        for j in range(off[hit], off[hit + 1]):
            da, db, tick = kinds[j].tolist()
            rows.append(([0], [0], [0], [tick], [da], [db], [code], [weight * float(w[j])], [index]))
    columns = [
        np.concatenate([np.asarray(r[i], dtype=np.int64 if i != 7 else np.float64) for r in rows]) for i in range(9)
    ]
    return tuple(columns[:7]), columns[7], columns[8]


@compiled
def _key(grid: int, fa: int, fb: int, tick: int, da: int, db: int, code: int) -> int:
    ended = 1 if fa != FIGHTING or fb != FIGHTING else 0
    if ended:
        code = 0
    k = ((ended * 4 + fa) * 4 + fb) * 16 + tick + 1
    k = (k * 256 + da) * 256 + db
    result: int = k * grid + code
    return result


@compiled
def _code(kind: int, att: int, succ: int, dist: int, holder: int, redecide: int, ga: int, gb: int, dists: int,
          g0: int, g1: int) -> int:  # fmt: skip
    """:meth:`.blocks.Grid.code` of one state."""
    c = (kind * 2 + att) * 2 + succ
    c = c * dists + dist
    c = c * 3 + holder + 1
    c = c * 4 + redecide
    c = c * g0 + ga
    result: int = c * g1 + gb
    return result


# ---- the walk --------------------------------------------------------------------------------------------------
@compiled
def _hurt(gard_left: int, wound: int, gained: int, dst: int, holder: int, redecide: int, gard_damage: bool,
          deadly_knocks_out: bool) -> tuple[int, int, int]:  # fmt: skip
    """A hit on ``dst`` (``gard_left`` ≥ 0): (its fate, the box ticked or −1, why to decide the initiative afresh)
    as ``model._hurt``: a Kritisk takes out, a Dödlig kills (or takes out), a damaged holder must win it afresh."""
    fate = FIGHTING
    tick = -1
    if wound != R.NO_WOUND:
        tick = dst * 5 + wound
        if wound == R.KRITISK or (wound == R.DODLIG and deadly_knocks_out):
            fate = KNOCKED_OUT
        elif wound == R.DODLIG:
            fate = DEAD
    if (wound != R.NO_WOUND or gard_damage) and holder == dst:
        redecide |= DAMAGED
    return fate, tick, redecide


@compiled
def _ended_or_next(out_k: Ints, out_w: Floats, n: int, grid: int, dists: int, g0: int, g1: int, fa: int, fb: int,
                   tick: int, da: int, db: int, dist: int, holder: int, redecide: int, ga: int, gb: int,
                   w: float) -> int:  # fmt: skip
    """One leaf: the round's end (an end, or the next round start)."""
    code = _code(0, 0, 0, dist, holder, redecide, ga, gb, dists, g0, g1)
    out_k[n] = _key(grid, fa, fb, tick, da, db, code)
    out_w[n] = w
    return n + 1


@compiled
def _grounded(out_k: Ints, out_w: Floats, n: int, grid: int, dists: int, g0: int, g1: int, att: int, succ: int,
              fa: int, fb: int, tick: int, da: int, db: int, dist: int, holder: int, redecide: int, ga: int,
              gb: int, w: float, ground_off: Ints, ground_f: Ints, ground_w: Floats) -> int:  # fmt: skip
    """Vinna terräng: a successful attacker with both standing may move the distance; then the round's end."""
    if succ == 0 or fa != FIGHTING or fb != FIGHTING:
        return _ended_or_next(out_k, out_w, n, grid, dists, g0, g1, fa, fb, tick, da, db, dist, holder, redecide,
                              ga, gb, w)  # fmt: skip
    k = att * dists + dist
    for j in range(ground_off[k], ground_off[k + 1]):
        there = ground_f[j, 0]
        red = redecide | ground_f[j, 1] if there != dist else redecide
        n = _ended_or_next(out_k, out_w, n, grid, dists, g0, g1, fa, fb, tick, da, db, there, holder, red, ga, gb,
                           w * ground_w[j])  # fmt: skip
    return n


@compiled
def _node_key(grid: int, hit: int, code: int) -> int:
    """A wound node's outcome key: its hit class (:func:`hit_class`) and the state after the hit (see the module)."""
    result: int = ((2 << 24) | hit) * grid + code
    return result


@compiled
def hit_class(table: int, striker: int, gard: int, kept: int, widest: int) -> int:
    """The class of a hit's wounds that do not end the duel: the table it comes from (0 against the defence roll, 1
    no defence roll), who strikes, the struck one's Gard before, and whether the Gard is kept (an exceptional or open
    hit: 1) or emptied (0). Every wound of a class leaves the same state after the hit; only the Omtöckning gained
    and the box ticked differ (:attr:`BandTables.wounds`)."""
    return ((table * 2 + striker) * widest + gard) * 2 + kept


@compiled
def _wound(gard_left: int, wound: int) -> bool:
    """A hit whose wound leaves the struck fighter standing (a wound node's: Skråma, Lätt, Allvarlig)."""
    return gard_left >= 0 and R.SKRAMA <= wound <= R.ALLVARLIG


@compiled
def _node_grounded(out_k: Ints, out_w: Floats, n: int, grid: int, dists: int, g0: int, g1: int, att: int, hit: int,
                   dist: int, holder: int, redecide: int, ga: int, gb: int, w: float, ground_off: Ints,
                   ground_f: Ints, ground_w: Floats) -> int:  # fmt: skip
    """A wound node whose round ends now: the successful attacker may gain ground (both stand), then the next round
    start."""
    k = att * dists + dist
    for j in range(ground_off[k], ground_off[k + 1]):
        there = ground_f[j, 0]
        red = redecide | ground_f[j, 1] if there != dist else redecide
        out_k[n] = _node_key(grid, hit, _code(0, 0, 0, there, holder, red, ga, gb, dists, g0, g1))
        out_w[n] = w * ground_w[j]
        n += 1
    return n


@compiled
def _merge(keys: Ints, weights: Floats, lo: int, hi: int, table: Ints, slots: Ints) -> tuple[int, int]:
    """Sum the leaves ``keys[lo:hi]`` with equal keys in place (an open-addressing hash ``table`` of indices, −1
    empty, its used ``slots`` cleared after); returns the new end and the most leaves summed into one."""
    if hi - lo <= 1:
        return hi, 1
    mask = table.size - 1
    m = lo
    used = 0
    largest = 1
    counts = slots[table.size :]
    for i in range(lo, hi):
        key = keys[i]
        h = ((key * -7046029254386353131) >> 17) & mask  # Fibonacci hashing (2⁶⁴ / φ, as a signed int64)
        while True:
            at = table[h]
            if at < 0:
                table[h] = m
                slots[used] = h
                used += 1
                keys[m] = key
                weights[m] = weights[i]
                counts[m - lo] = 1
                m += 1
                break
            if keys[at] == key:
                weights[at] += weights[i]
                counts[at - lo] += 1
                largest = max(largest, counts[at - lo])
                break
            h = (h + 1) & mask
    for u in range(used):
        table[slots[u]] = -1
    return m, largest


@compiled
def walk(
    codes: Ints, dists: int, gards: Ints, gard_max: Ints, scale: Ints, lengths: Ints, heuristic: Ints,
    leave_free: Ints, counter_table: Any, levels: Ints, gard_damage: bool, deadly_knocks_out: bool,
    move_off: Ints, move_f: Ints, move_w: Floats, init_off: Ints, init_f: Ints, init_w: Floats, regain: Floats,
    ground_off: Ints, ground_f: Ints, ground_w: Floats, def_off: Ints, def_f: Ints, def_w: Floats,
    str_off: Ints, str_f: Ints, str_w: Floats, free_off: Ints, free_f: Ints, free_w: Floats, nodes: Any,
) -> tuple[Ints, Ints, Floats, int]:  # fmt: skip
    """See :func:`walk_band`."""
    g0, g1 = gards[0], gards[1]
    gw = max(g0, g1)
    grid = 8 * dists * 3 * 4 * g0 * g1
    # the most leaves one state can have: every family's widest key multiplied along the longest path
    widest_move = max(np.max(np.diff(move_off)), 1)
    widest_init = max(np.max(np.diff(init_off)), 1)
    widest_hit = max(np.max(np.diff(def_off)), np.max(np.diff(str_off)), np.max(np.diff(free_off)), 1)
    widest_ground = max(np.max(np.diff(ground_off)), 1)
    per_state = widest_move * (widest_hit + widest_init * 3 * widest_hit * widest_ground) + 16
    size = 1
    while size < 2 * per_state:
        size *= 2
    table = np.full(size, -1, dtype=np.int64)
    slots = np.empty(size + per_state, dtype=np.int64)
    cap = max(1024, codes.size * 64)
    out_k = np.empty(cap, dtype=np.int64)
    out_w = np.empty(cap, dtype=np.float64)
    offsets = np.zeros(codes.size + 1, dtype=np.int64)
    n = 0
    largest = 1
    for i in range(codes.size):
        if n + per_state > cap:
            cap = max(2 * cap, n + per_state)
            grown_k = np.empty(cap, dtype=np.int64)
            grown_w = np.empty(cap, dtype=np.float64)
            grown_k[:n] = out_k[:n]
            grown_w[:n] = out_w[:n]
            out_k, out_w = grown_k, grown_w
        start = n
        c = codes[i]
        gb = c % g1
        c //= g1
        ga = c % g0
        c //= g0
        redecide = c % 4
        c //= 4
        holder = c % 3 - 1
        c //= 3
        dist = c % dists
        c //= dists
        succ0 = c % 2
        c //= 2
        att0 = c % 2
        kind = c // 2
        if kind == 1:
            # a counter-attacker's strike back on the attacker att0, then gaining ground (att0's first strike
            # succeeded or not)
            dfn = 1 - att0
            struck = ga if att0 == 0 else gb
            k = dfn * gw + struck
            for j in range(str_off[k], str_off[k + 1]):
                w = str_w[j]
                gl = str_f[j, 1]
                if _wound(gl, str_f[j, 2]):
                    continue  # a wound node, below
                fa, fb, tick, da, db, ga2, gb2, red = FIGHTING, FIGHTING, -1, 0, 0, ga, gb, redecide
                if gl >= 0:
                    fate, tick, red = _hurt(gl, str_f[j, 2], str_f[j, 3], att0, holder, redecide, gard_damage,
                                            deadly_knocks_out)  # fmt: skip
                    if att0 == 0:
                        ga2, da, fa = gl, str_f[j, 3], fate
                    else:
                        gb2, db, fb = gl, str_f[j, 3], fate
                n = _grounded(out_k, out_w, n, grid, dists, g0, g1, att0, succ0, fa, fb, tick, da, db, dist, holder,
                              red, ga2, gb2, w, ground_off, ground_f, ground_w)  # fmt: skip
            for kept in range(2):
                hit = hit_class(1, dfn, struck, kept, gw)
                if not nodes[hit]:
                    continue
                gl = struck if kept else 0
                _, _, red = _hurt(gl, R.SKRAMA, 0, att0, holder, redecide, gard_damage, deadly_knocks_out)
                ga2, gb2 = (gl, gb) if att0 == 0 else (ga, gl)
                if succ0:
                    n = _node_grounded(out_k, out_w, n, grid, dists, g0, g1, att0, hit, dist, holder, red, ga2, gb2,
                                       1.0, ground_off, ground_f, ground_w)  # fmt: skip
                else:
                    out_k[n] = _node_key(grid, hit, _code(0, 0, 0, dist, holder, red, ga2, gb2, dists, g0, g1))
                    out_w[n] = 1.0
                    n += 1
            offsets[i + 1], merged = _merge(out_k, out_w, start, n, table, slots)
            largest = max(largest, merged)
            n = offsets[i + 1]
            continue
        # a round start: both markers, the contest where the wishes differ, the distance moves
        mk = dist * 3 + holder + 1
        for jm in range(move_off[mk], move_off[mk + 1]):
            wm = move_w[jm]
            d1, leave_a, leave_b = move_f[jm, 0], move_f[jm, 1], move_f[jm, 2]
            red1 = redecide | MOVED if d1 != dist else redecide
            if leave_a and leave_b:
                n = _ended_or_next(out_k, out_w, n, grid, dists, g0, g1, LEFT, LEFT, -1, 0, 0, 0, 0, 0, 0, 0, wm)
                continue
            if leave_a or leave_b:
                leaver = 0 if leave_a else 1
                stayer = 1 - leaver
                if leave_free[stayer, d1]:
                    fa = LEFT if leaver == 0 else FIGHTING
                    fb = LEFT if leaver == 1 else FIGHTING
                    n = _ended_or_next(out_k, out_w, n, grid, dists, g0, g1, fa, fb, -1, 0, 0, 0, 0, 0, 0, 0, wm)
                    continue
                # the stayer's free attack on the leaver, who leaves unless it takes out
                k = stayer * gw + (ga if leaver == 0 else gb)
                for j in range(free_off[k], free_off[k + 1]):
                    gl = free_f[j, 1]
                    fate, tick, da, db = FIGHTING, -1, 0, 0
                    if gl >= 0:
                        fate, tick, _ = _hurt(gl, free_f[j, 2], free_f[j, 3], leaver, holder, red1, gard_damage,
                                              deadly_knocks_out)  # fmt: skip
                        if leaver == 0:
                            da = free_f[j, 3]
                        else:
                            db = free_f[j, 3]
                    if fate == FIGHTING:
                        fate = LEFT
                    fa = fate if leaver == 0 else FIGHTING
                    fb = fate if leaver == 1 else FIGHTING
                    n = _ended_or_next(out_k, out_w, n, grid, dists, g0, g1, fa, fb, tick, da, db, 0, 0, 0, 0, 0,
                                       wm * free_w[j])  # fmt: skip
                continue
            # the initiative: kept, or the table, or a contest (nobody: both regain Gard)
            ik = (d1 * 3 + holder + 1) * 4 + red1
            for ji in range(init_off[ik], init_off[ik + 1]):
                wi = wm * init_w[ji]
                att, hold2, red2 = init_f[ji, 0], init_f[ji, 1], init_f[ji, 2]
                if att < 0:
                    n = _ended_or_next(out_k, out_w, n, grid, dists, g0, g1, FIGHTING, FIGHTING, -1, 0, 0, d1, hold2,
                                       red2, min(ga + 1, gard_max[0]), min(gb + 1, gard_max[1]), wi)  # fmt: skip
                    continue
                dfn = 1 - att
                gard_att = ga if att == 0 else gb
                gard_dfn = gb if att == 0 else ga
                p_regain = regain[att, gard_att]
                if p_regain > 0:  # "Båda återfår ett poäng Gard"
                    n = _ended_or_next(out_k, out_w, n, grid, dists, g0, g1, FIGHTING, FIGHTING, -1, 0, 0, d1, hold2,
                                       red2, min(ga + 1, gard_max[0]), min(gb + 1, gard_max[1]),
                                       wi * p_regain)  # fmt: skip
                if p_regain >= 1:
                    continue
                w_attack = wi * (1.0 - p_regain)
                # the defender: counter when in reach and (heuristic) the kernel's table says it pays
                p_counter = 0.0
                if scale[d1] <= lengths[dfn]:
                    if heuristic[dfn]:
                        pays = (
                            soaks(gard_dfn, gard_max[dfn])
                            and counter_table[dfn, levels[dfn], levels[att], int(gard_att > 0), int(gard_dfn > 0)]
                        )
                        p_counter = 1.0 if pays else 0.0
                    else:
                        p_counter = 0.5
                k = att * gw + gard_dfn
                if p_counter < 1:  # the attack against the defence roll(s)
                    wd = w_attack * (1.0 - p_counter)
                    for j in range(def_off[k], def_off[k + 1]):
                        gl = def_f[j, 1]
                        if _wound(gl, def_f[j, 2]):
                            continue  # a wound node, below
                        fa, fb, tick, da, db, ga2, gb2, red = FIGHTING, FIGHTING, -1, 0, 0, ga, gb, red2
                        if gl >= 0:
                            fate, tick, red = _hurt(gl, def_f[j, 2], def_f[j, 3], dfn, hold2, red2, gard_damage,
                                                    deadly_knocks_out)  # fmt: skip
                            if dfn == 0:
                                ga2, da, fa = gl, def_f[j, 3], fate
                            else:
                                gb2, db, fb = gl, def_f[j, 3], fate
                        n = _grounded(out_k, out_w, n, grid, dists, g0, g1, att, def_f[j, 0], fa, fb, tick, da, db, d1,
                                      hold2, red, ga2, gb2, wd * def_w[j], ground_off, ground_f,
                                      ground_w)  # fmt: skip
                    for kept in range(2):
                        hit = hit_class(0, att, gard_dfn, kept, gw)
                        if nodes[hit]:
                            gl = gard_dfn if kept else 0
                            _, _, red = _hurt(gl, R.SKRAMA, 0, dfn, hold2, red2, gard_damage, deadly_knocks_out)
                            ga2, gb2 = (gl, gb) if dfn == 0 else (ga, gl)
                            n = _node_grounded(out_k, out_w, n, grid, dists, g0, g1, att, hit, d1, hold2, red, ga2,
                                               gb2, wd, ground_off, ground_f, ground_w)  # fmt: skip
                if p_counter > 0:  # the counter-attack: the attack's first strike, then the strike back pending
                    wc = w_attack * p_counter
                    for j in range(str_off[k], str_off[k + 1]):
                        gl = str_f[j, 1]
                        if _wound(gl, str_f[j, 2]):
                            continue  # a wound node, below
                        succ = str_f[j, 0]
                        fa, fb, tick, da, db, ga2, gb2, red = FIGHTING, FIGHTING, -1, 0, 0, ga, gb, red2
                        if gl >= 0:
                            fate, tick, red = _hurt(gl, str_f[j, 2], str_f[j, 3], dfn, hold2, red2, gard_damage,
                                                    deadly_knocks_out)  # fmt: skip
                            if dfn == 0:
                                ga2, da, fa = gl, str_f[j, 3], fate
                            else:
                                gb2, db, fb = gl, str_f[j, 3], fate
                        if fa != FIGHTING or fb != FIGHTING:  # the defender taken out: no strike back
                            n = _grounded(out_k, out_w, n, grid, dists, g0, g1, att, succ, fa, fb, tick, da, db, d1,
                                          hold2, red, ga2, gb2, wc * str_w[j], ground_off, ground_f,
                                          ground_w)  # fmt: skip
                            continue
                        code = _code(1, att, succ, d1, hold2, red, ga2, gb2, dists, g0, g1)
                        out_k[n] = _key(grid, FIGHTING, FIGHTING, tick, da, db, code)
                        out_w[n] = wc * str_w[j]
                        n += 1
                    for kept in range(2):
                        hit = hit_class(1, att, gard_dfn, kept, gw)
                        if nodes[hit]:  # a wound, the defender standing: its strike back in the next block
                            gl = gard_dfn if kept else 0
                            _, _, red = _hurt(gl, R.SKRAMA, 0, dfn, hold2, red2, gard_damage, deadly_knocks_out)
                            ga2, gb2 = (gl, gb) if dfn == 0 else (ga, gl)
                            out_k[n] = _node_key(grid, hit, _code(1, att, 1, d1, hold2, red, ga2, gb2, dists, g0, g1))
                            out_w[n] = wc
                            n += 1
        offsets[i + 1], merged = _merge(out_k, out_w, start, n, table, slots)
        largest = max(largest, merged)
        n = offsets[i + 1]
    return offsets, out_k[:n].copy(), out_w[:n].copy(), largest
