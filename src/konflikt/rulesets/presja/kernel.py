"""The vectorised kernel of `presja`: one-against-one fights with the heuristic on every seat, table-driven.

Each conflict is an integer: the id of its :data:`~.kernel_exchange.Duel` state (tracks, consequences, fate
points, fates). An exchange is one table look-up by (state, 4dF − 4dF): the next state, the steps the exchange took
(declarations, rolls, invocations and answers, absorbed hits) and the consequence slots newly taken. The table is
filled lazily — the first time a (state, dice) pair occurs anywhere, :class:`ExchangeRules` computes it in Python
from the real policy and track functions — and kept for the process. The hot loop plays one conflict at a time in
compiled code (:mod:`.kernel_loop`, numba): one 32-bit draw and one look-up per exchange. Labels are written by the
State's own outcome code (:mod:`.kernel_labels`).

A batch starts at the opening (:meth:`PresjaKernel.run`) or from a State under way (:meth:`PresjaKernel.start_from`,
:class:`~konflikt.core.capabilities.StartsFrom`): at an exchange's start (its :data:`Duel` row), or between the
declarations and the first roll (a :class:`Declared` row, whose cells play that exchange with the declarations
made, whoever made them); the names of the consequences held come from the State, the exchange number too.

Mirrored: every rule option (surprise, the GM's and the positional advantages, weapon aspects, compels and the
invocations for the order included: the heuristic passes on both, so the opening's steps are played once on the
State and the GM's "pass" on compels counts one step in each exchange where someone has a consequence), any
characters, zones (moves, ranged attacks). Refused with the reason (``konflikt sim`` then uses the reference runner):
more or fewer than two participants (the skirmish: several per side), and a seat without the heuristic.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from konflikt.core.batch import Batch, Coded
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario
from konflikt.core.state import GM, State
from konflikt.rulesets.presja.kernel_exchange import DELTAS, Decl, Duel, ExchangeRules, duel_of
from konflikt.rulesets.presja.kernel_labels import SLOT_MULT, Labeller, slot_code
from konflikt.rulesets.presja.model import at_exchange_start
from konflikt.rulesets.presja.policies import HeuristicPolicy
from konflikt.rulesets.presja.state import Declaration, PresjaState
from konflikt.rulesets.presja.static import _FACES4

I64 = npt.NDArray[np.int64]
FACES = np.asarray(_FACES4, dtype=np.int64)
DELTA_OF_PAIR = (FACES[:, None] - FACES[None, :] + 8).reshape(-1).astype(np.int8)
"""For each of the 81 × 81 equally likely faces of both rolls (first × 81 + second): 4dF − 4dF + 8."""

# A table cell packs the exchange's result into one int64 (0 = not computed yet):
NEXT_MASK = (1 << 28) - 1  # bits 0-27: the next state's row (state id × 17)
ACC_SHIFT, ACC_MASK = 28, (1 << 17) - 1  # bits 28-44: steps + (1 << 16) per exchange played
NEW_SHIFT = 45  # bits 45-50: consequence slots newly taken (bit 3 × who + slot)
ENDED = 1 << 51  # the conflict is over after this exchange
STEP_BITS = 16


class Declared(NamedTuple):
    """An exchange under way with both declarations made (by whoever: a player at the table, or the heuristic),
    before the first roll: a row of the table whose cells lead to ordinary :data:`Duel` rows (a batch started in
    the middle of an exchange, :meth:`PresjaKernel.start_from`)."""

    duel: Duel
    first: Decl
    second: Decl


Row = Duel | Declared
"""What a row of the table stands for."""


class Table:
    """The lazily filled exchange table over the states met so far (grows as new states appear).

    A state whose conflict is over has a row of cells that lead back to itself with nothing added (a conflict that
    has ended is never looked up again, but every cell of an ended row is known).
    """

    def __init__(self, rules: ExchangeRules, start: Duel) -> None:
        self.rules = rules
        self.ids: dict[Row, int] = {}
        self.states: list[Row] = []
        cap = 1024
        self.cells: I64 = np.zeros(cap * DELTAS, np.int64)
        self.facts: I64 = np.zeros((cap, 8), np.int64)
        """Per state (a row, one cache line): fate₀, fate₁, fate points ₀ ₁, boxes marked ₀ ₁, consequences ₀ ₁."""
        self.start = self.id_of(start) * DELTAS
        self.complete_to = 0
        """The states before this one have every cell computed (:meth:`complete`)."""

    def id_of(self, row: Row) -> int:
        found = self.ids.get(row)
        if found is not None:
            return found
        k = self.ids[row] = len(self.states)
        self.states.append(row)
        s = row.duel if isinstance(row, Declared) else row
        if k == len(self.facts):  # double both
            self.cells = np.concatenate([self.cells, np.zeros(len(self.cells), np.int64)])
            self.facts = np.concatenate([self.facts, np.zeros_like(self.facts)])
        c0, c1 = s[2], s[3]
        boxes = (s[0].bit_count(), s[1].bit_count())
        self.facts[k] = (s[8], s[9], s[4], s[5], *boxes, 3 - c0.count(0), 3 - c1.count(0))
        if s[8] or s[9]:  # over: the row leads back to itself
            self.cells[k * DELTAS : (k + 1) * DELTAS] = k * DELTAS | ENDED
        return k

    def complete(self, max_states: int) -> bool:
        """Compute every cell of every state reachable from those met so far, breadth first, while there are at most
        ``max_states`` states: whether the table is now complete (else it stays lazily filled beyond)."""
        sid = self.complete_to
        while sid < len(self.states) and len(self.states) <= max_states:
            row = sid * DELTAS
            for cell in np.flatnonzero(self.cells[row : row + DELTAS] == 0).tolist():
                self.fill(row + cell)
            sid += 1
        self.complete_to = sid
        return sid == len(self.states)

    def fill(self, cell: int) -> None:
        """Compute a missing (state, dice) cell in Python, once."""
        sid, delta = divmod(cell, DELTAS)
        row = self.states[sid]
        if isinstance(row, Declared):
            after, steps, new = self.rules.exchange_declared(row.duel, delta - 8, row.first, row.second)
        else:
            after, steps, new = self.rules.exchange(row, delta - 8)
        nxt = self.id_of(after)
        assert 0 < steps < 1 << STEP_BITS and nxt * DELTAS <= NEXT_MASK
        acc = steps + (1 << STEP_BITS)
        self.cells[cell] = nxt * DELTAS | acc << ACC_SHIFT | new << NEW_SHIFT | (ENDED if after[8] or after[9] else 0)


COMPLETE_AT = 10_000
"""A run of this many conflicts first completes the table (:meth:`Table.complete`): it would meet most cells anyway
(100,000 knife fights meet 20,000 of its 38,000), and the loop then never stops for a missing one — the rare states
of the long tail are met for years. The results do not depend on it: the dice follow the seed only."""
MAX_STATES = 50_000
"""Beyond this many states a table stays lazily filled (memory, and the time to fill it: ~0.2 ms a state)."""


@dataclass(frozen=True)
class PresjaStart:
    """Where a batch of conflicts starts (:meth:`PresjaKernel.start_from`): what :func:`.kernel_loop.play` reads."""

    row: int
    """The start's row of the exchange table (its state id × 17)."""
    carried: int
    """The name codes of the consequences held at the start (participant i in bits 16 i ...)."""
    exchange: int
    """The exchange about to be played."""
    steps: int
    """Added to each conflict's length in steps: the opening's steps from the opening; from a state under way the
    length counts from there on, as the reference runner counts it on a fork, so minus the steps of the exchange
    already taken that the first row's cells count."""
    labels: Labeller
    """Writes the labels, with the names of the consequences held at the start."""


def _decl(declaration: Declaration) -> Decl:
    """A State's declaration as the exchange rules take it (in a duel an attack is on the other)."""
    zone = declaration.zone if declaration.kind == "move" else -1
    return Decl(declaration.kind, declaration.tactic, zone)


def _carried(conflict: PresjaState, who: tuple[int, int]) -> int:
    """The name codes of the consequences ``conflict`` holds, each as "held at the start"."""
    return sum(
        slot_code(s, 0, bool(conflict.cons[j][s])) * SLOT_MULT[s] << (16 * i)
        for i, j in enumerate(who)
        for s in range(3)
    )


def _identity(conflict: PresjaState) -> Hashable:
    """What a state must share with the kernel's opening to start a batch: the fixed numbers, the fighters' ids,
    the order of action and the rule options (the rest a :data:`Duel` and the names hold)."""
    ids = tuple(fi.id for fi in conflict.fighters)
    return (conflict.static_key, ids, tuple(conflict.order), repr(conflict.rule_values))


class PresjaKernel:
    """Plays ``n`` one-against-one fights at once (see the module docstring)."""

    def __init__(self, opening: PresjaState, opening_steps: int) -> None:
        self.opening = opening
        self.opening_steps = opening_steps
        self.rules = ExchangeRules(opening)
        a, b = self.rules.who
        self.table = Table(self.rules, duel_of(opening, a, b))
        self.labels = Labeller(opening, self.rules.who)
        self.max_exchanges = int(opening.rule_values["max_exchanges"])
        self.carried = _carried(opening, self.rules.who)
        """The name codes of consequences brought into the conflict (participant i in bits 16 i ...)."""
        self.identity = _identity(opening)
        self.opening_start = PresjaStart(self.table.start, self.carried, 1, opening_steps, self.labels)
        """Where :meth:`run` starts: the first exchange, after the opening's steps."""
        self._labellers: dict[tuple[tuple[str, ...], ...], Labeller] = {}
        """A :class:`Labeller` per set of consequence names held at a start (:meth:`start_from`)."""
        self.names = np.stack([self._names(e) for e in range(self.max_exchanges + 1)])
        """Per exchange and mask of newly taken slots: what their names add to the name codes."""
        self.trace: npt.NDArray[np.int32] | None = None
        """With ``run(..., trace=True)``: per conflict and exchange the faces of both rolls (first × 81 + second)."""

    @staticmethod
    def _names(e: int) -> I64:
        """For each mask of newly taken slots: what its names add to the name codes in exchange ``e``."""
        out = np.zeros(64, np.int64)
        for mask in range(64):
            for k in range(6):
                if mask >> k & 1:
                    i, s = divmod(k, 3)
                    out[mask] += slot_code(s, e, True) * SLOT_MULT[s] << (16 * i)
        return out

    def run(self, n: int, rng: np.random.Generator, trace: bool = False) -> Batch:
        """Play ``n`` conflicts from the opening (see :meth:`run_from`)."""
        return self.run_from(self.opening_start, n, rng, trace)

    def start_from(self, state: State) -> PresjaStart | None:
        """Where a batch starts from ``state``, a conflict of this kernel's scenario under way: its row of the
        table, the name codes of the consequences held (named as ``state`` names them) and the exchange.

        Represented: the start of an exchange (a :data:`Duel` holds all of it), the GM's compels passed or answered,
        the first declaration made, and both made before the first roll (a :class:`Declared` row). ``None``
        elsewhere (a roll made, the invocations, the absorbing: the caller steps the State on to the next exchange's
        start, a few moves with one roll or none left), or for another conflict (other fighters, order of action
        or options)."""
        if not isinstance(state, PresjaState) or state.is_terminal() or _identity(state) != self.identity:
            return None
        point = self._point(state)
        if point is None:
            return None
        row, taken = point
        who = self.rules.who
        held = tuple(tuple(state.cons_names[j]) for j in who)
        labels = self._labellers.get(held)
        if labels is None:
            if len(self._labellers) > 64:
                self._labellers.clear()
            labels = self._labellers[held] = Labeller(state.fork(), who)  # type: ignore[arg-type]
        return PresjaStart(self.table.id_of(row) * DELTAS, _carried(state, who), state.exchange, -taken, labels)

    def _point(self, state: PresjaState) -> tuple[Row, int] | None:
        """The row ``state`` stands at and the steps of its exchange the row's cells count that are already taken
        (the GM's pass on compels, the declarations), or ``None`` where no row holds it."""
        a, b = self.rules.who
        duel = duel_of(state, a, b)
        if at_exchange_start(state):
            return duel, 0
        if state.compel_pending is not None or any(d is not None for d in state.dice):
            return None
        compel = 1 if self.rules.compels and (any(duel[2]) or any(duel[3])) else 0
        first, second = state.decl[a], state.decl[b]
        if state.phase == "compel" and state.ptr == 0 and first is None and second is None:
            return duel, 0  # compels answered: the GM's pass to come is the step the cells count
        if state.phase == "declare" and state.ptr == 0 and first is None and second is None:
            return duel, compel
        if first is None or first.kind == "concede" or (second is not None and second.kind == "concede"):
            return None
        mine = _decl(first)
        if state.phase == "declare" and state.ptr == 1 and second is None:
            theirs = self.rules.second_declares(duel, mine)
            return Declared(duel, mine, theirs), compel + 1
        if state.phase == "roll" and state.ptr == 0 and state.window_before == 0 and second is not None:
            return Declared(duel, mine, _decl(second)), compel + 2
        return None

    def run_from(self, start: PresjaStart, n: int, rng: np.random.Generator, trace: bool = False) -> Batch:
        """Play ``n`` conflicts from ``start`` in the compiled loop (:mod:`.kernel_loop`), computing each cell the
        table lacks when the loop first meets it."""
        from konflikt.rulesets.presja.kernel_loop import CONFLICT, EXCHANGES, REFILL, WORD, play

        tab = self.table
        if n >= COMPLETE_AT:
            tab.complete(MAX_STATES)
        ending, codes, length = np.empty(n, np.int64), np.empty((2, n), np.int64), np.empty(n, np.int64)
        numbers = np.empty((7, n), np.int32)  # small counts: a quarter of the memory traffic of floats
        self.trace = np.zeros((n, self.max_exchanges), np.int32) if trace else None
        trace_arg = np.zeros((0, 0), np.int32) if self.trace is None else self.trace
        at = np.zeros(8, np.int64)  # where to resume: nowhere yet
        words = _words(rng, n * WORDS_PER_CONFLICT)
        while True:
            missing = play(
                words, tab.cells, DELTA_OF_PAIR, self.names, tab.facts, start.row, start.carried, start.steps,
                start.exchange, at, ending, codes, length, numbers, trace_arg,
            )  # fmt: skip
            if missing == REFILL:  # the words not yet used first, then fresh ones
                fresh = _words(rng, max(n - at[CONFLICT], 1) * WORDS_PER_CONFLICT)
                words = np.concatenate([words[at[WORD] :], fresh])
                at[WORD] = 0
            elif missing >= 0:
                tab.fill(missing)
            else:
                numbers[EXCHANGES] += start.exchange - 1  # the exchange the conflict ended in, as the State counts
                return self._batch(start.labels, ending, codes, length, numbers)

    def _batch(self, labels: Labeller, ending: I64, codes: I64, length: I64, numbers: npt.NDArray[np.int32]) -> Batch:
        present, inverse = _present(ending, 18)
        pairs = [labels.ending(c) for c in present]
        endings, winners = _coded(inverse, [p[0] for p in pairs]), _coded(inverse, [p[1] for p in pairs])
        per: list[Coded] = []
        for i in (0, 1):
            present, inverse = _present(codes[i], 3 * SLOT_MULT[3])
            per.append(Coded(inverse, [labels.fate(i, c) for c in present]))
        fates = {fi.id: per[self.rules.who.index(k)] for k, fi in enumerate(self.opening.fighters)}
        resources: dict[str, npt.NDArray[np.int32]] = {"exchanges": numbers[0]}
        for k, fi in enumerate(self.opening.fighters):
            i = self.rules.who.index(k)
            resources[f"{fi.id}.fate_points"] = numbers[1 + i]
            resources[f"{fi.id}.boxes_marked"] = numbers[3 + i]
            resources[f"{fi.id}.consequences"] = numbers[5 + i]
        return Batch(winners, endings, fates, length, resources)


WORDS_PER_CONFLICT = 7
"""32-bit words drawn ahead per conflict still to play (a knife fight takes about 10 exchanges, two a word; the
buffer is refilled when it runs out, so this only sets how often)."""


def _words(rng: np.random.Generator, count: int) -> npt.NDArray[np.uint32]:
    """The next ``count`` 32-bit words of ``rng``'s bit generator (two from each 64-bit draw, low half first)."""
    return rng.bit_generator.random_raw(-(-count // 2)).view(np.uint32)


def _present(codes: I64, size: int) -> tuple[list[int], I64]:
    """The codes that occur (ascending) and each conflict's index among them (a bincount: faster than unique)."""
    seen = np.flatnonzero(np.bincount(codes, minlength=size))
    index = np.zeros(len(seen) and int(seen[-1]) + 1, np.int64)
    index[seen] = np.arange(len(seen))
    return seen.tolist(), index[codes]


def _coded(inverse: npt.NDArray[np.int64], labels: list[Hashable]) -> Coded:
    """Codes into distinct labels (several codes may share a label: merge them)."""
    index: dict[Hashable, int] = {}
    remap = np.asarray([index.setdefault(label, len(index)) for label in labels], np.int64)
    return Coded(remap[inverse], list(index))


_KERNELS: dict[str, PresjaKernel] = {}
"""Kernels by (scenario, options, opening steps): their tables stay warm for the process."""


def refusal(scenario: Scenario, options: Mapping[str, Any], seats: Mapping[str, Policy | None]) -> str | None:
    """Why the kernel cannot mirror this scenario (``None``: it can)."""
    parts = scenario.participants()
    if len(scenario.sides) != 2 or len(parts) != 2:
        return (
            f"the presja kernel plays one against one; this scenario has {len(parts)} participants on "
            f"{len(scenario.sides)} sides (several per side: the reference runner plays it)"
        )
    for seat, policy in seats.items():
        if not isinstance(policy, HeuristicPolicy):
            name = "a human" if policy is None else getattr(policy, "name", type(policy).__name__)
            return f"the presja kernel mirrors the heuristic policy only; seat {seat} plays {name}"
    if GM not in seats:
        return "the presja kernel needs the GM seat's policy (heuristic)"
    return None


def make_kernel(scenario: Scenario, options: Mapping[str, Any], seats: Mapping[str, Policy | None]) -> Any:
    """A :class:`PresjaKernel` for this scenario under these options, or a string saying why not."""
    reason = refusal(scenario, options, seats)
    if reason is not None:
        return reason
    opening = PresjaState(scenario, options)  # type: ignore[arg-type]
    gm = seats[GM]
    assert gm is not None
    rng = np.random.default_rng(0)
    steps = 0
    while opening.phase in ("edge", "order"):  # invocations for the order, the GM's picks: the same every time
        seat = opening.current_player()
        policy = seats[seat]
        assert policy is not None
        opening.apply_action(policy.choose(opening, seat, rng))
        steps += 1
    fresh = opening.fork()
    # the scenario's whole document: Static.static_key leaves out what the kernel needs (the order of action,
    # fate points, consequences carried in and their names, side and participant ids)
    key = repr((scenario.source, scenario.document, sorted(dict(options).items()), steps))
    kernel = _KERNELS.get(key)
    if kernel is None:
        if len(_KERNELS) > 32:
            _KERNELS.clear()
        kernel = _KERNELS[key] = PresjaKernel(fresh, steps)  # type: ignore[arg-type]
    return kernel
