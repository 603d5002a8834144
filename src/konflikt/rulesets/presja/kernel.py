"""The vectorised kernel of `presja`: one-against-one fights with the heuristic on every seat, table-driven.

Each conflict is an integer: the id of its :data:`~.kernel_exchange.Duel` state (tracks, consequences, fate
points, fates). An exchange is one table look-up by (state, 4dF − 4dF): the next state, the steps the exchange took
(declarations, rolls, invocations and answers, absorbed hits) and the consequence slots newly taken. The table is
filled lazily — the first time a (state, dice) pair occurs anywhere, :class:`ExchangeRules` computes it in Python
from the real policy and track functions — and kept for the process. The hot loop plays one conflict at a time in
compiled code (:mod:`.kernel_loop`, numba): one 32-bit draw and one look-up per exchange. Labels are written by the
State's own outcome code (:mod:`.kernel_labels`).

Mirrored: every rule option (surprise, the GM's and the positional advantages, weapon aspects, compels and the
invocations for the order included: the heuristic passes on both, so the opening's steps are played once on the
State and the GM's "pass" on compels counts one step in each exchange where someone has a consequence), any
characters, zones (moves, ranged attacks). Refused with the reason (``konflikt sim`` then uses the reference runner):
more or fewer than two participants (the skirmish: several per side), and a seat without the heuristic.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from konflikt.core.batch import Batch, Coded
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario
from konflikt.core.state import GM
from konflikt.rulesets.presja.kernel_exchange import DELTAS, Duel, ExchangeRules, duel_of
from konflikt.rulesets.presja.kernel_labels import SLOT_MULT, Labeller, slot_code
from konflikt.rulesets.presja.policies import HeuristicPolicy
from konflikt.rulesets.presja.state import PresjaState
from konflikt.rulesets.presja.static import _FACES4

I64 = npt.NDArray[np.int64]
FACES = np.asarray(_FACES4, dtype=np.int64)
DELTA_OF_PAIR = (FACES[:, None] - FACES[None, :] + 8).reshape(-1)
"""For each of the 81 × 81 equally likely faces of both rolls (first × 81 + second): 4dF − 4dF + 8."""

# A table cell packs the exchange's result into one int64 (0 = not computed yet):
NEXT_MASK = (1 << 28) - 1  # bits 0-27: the next state's row (state id × 17)
ACC_SHIFT, ACC_MASK = 28, (1 << 17) - 1  # bits 28-44: steps + (1 << 16) per exchange played
NEW_SHIFT = 45  # bits 45-50: consequence slots newly taken (bit 3 × who + slot)
ENDED = 1 << 51  # the conflict is over after this exchange
STEP_BITS = 16


class Table:
    """The lazily filled exchange table over the states met so far (grows as new states appear).

    A state whose conflict is over has a row of cells that lead back to itself with nothing added, so a conflict
    that has ended may stay in the running arrays until the next compaction.
    """

    def __init__(self, rules: ExchangeRules, start: Duel) -> None:
        self.rules = rules
        self.ids: dict[Duel, int] = {}
        self.states: list[Duel] = []
        cap = 1024
        self.cells: I64 = np.zeros(cap * DELTAS, np.int64)
        self._facts: list[tuple[int, ...]] = []
        self._facts_array: I64 = np.zeros((8, 0), np.int64)
        self._numbers: npt.NDArray[np.float64] = np.zeros((6, 0), np.float64)
        self.start = self.id_of(start) * DELTAS

    @property
    def facts(self) -> I64:
        """Per state: fate₀, fate₁, fate points ₀ ₁, boxes marked ₀ ₁, consequences ₀ ₁ (rows)."""
        if self._facts_array.shape[1] != len(self._facts):
            self._facts_array = np.asarray(self._facts, np.int64).T.copy()
            self._numbers = self._facts_array[2:].astype(np.float64)
        return self._facts_array

    @property
    def numbers(self) -> npt.NDArray[np.float64]:
        """:attr:`facts` from the fate points on, as floats (the batch's resources: one gather, no conversion)."""
        self.facts  # noqa: B018 - brings both up to date
        return self._numbers

    def id_of(self, s: Duel) -> int:
        found = self.ids.get(s)
        if found is not None:
            return found
        k = self.ids[s] = len(self.states)
        self.states.append(s)
        if (k + 1) * DELTAS > len(self.cells):
            self.cells = np.concatenate([self.cells, np.zeros(len(self.cells), np.int64)])
        c0, c1 = s[2], s[3]
        boxes = (s[0].bit_count(), s[1].bit_count())
        self._facts.append((s[8], s[9], s[4], s[5], *boxes, 3 - c0.count(0), 3 - c1.count(0)))
        if s[8] or s[9]:  # over: the row leads back to itself
            self.cells[k * DELTAS : (k + 1) * DELTAS] = k * DELTAS | ENDED
        return k

    def fill(self, cells: I64) -> None:
        """Compute the missing (state, dice) cells in Python, once each."""
        where: list[int] = []
        values: list[int] = []
        exchange, states, id_of = self.rules.exchange, self.states, self.id_of
        for cell in set(cells.tolist()):
            sid, delta = divmod(cell, DELTAS)
            after, steps, new = exchange(states[sid], delta - 8)
            nxt = id_of(after)
            assert 0 < steps < 1 << STEP_BITS and nxt * DELTAS <= NEXT_MASK
            acc = steps + (1 << STEP_BITS)
            where.append(cell)
            values.append(nxt * DELTAS | acc << ACC_SHIFT | new << NEW_SHIFT | (ENDED if after[8] or after[9] else 0))
        self.cells[where] = values  # after the loop: id_of may have grown the array


BLOCK = 8
"""Exchanges whose dice are drawn at once for every conflict still going (most knife fights end within eight)."""


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
        self.carried = sum(
            slot_code(s, 0, bool(opening.cons[j][s])) * SLOT_MULT[s] << (16 * i)
            for i, j in enumerate(self.rules.who)
            for s in range(3)
        )
        """The name codes of consequences brought into the conflict (participant i in bits 16 i ...)."""
        self.names = [self._names(e) for e in range(self.max_exchanges + 1)]
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
        """Play ``n`` conflicts in the compiled loop (:mod:`.kernel_loop`), computing the table's missing cells as
        the loop meets them."""
        from konflikt.rulesets.presja.kernel_loop import play

        tab = self.table
        out_row, out_acc, out_names = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
        deadlock = np.zeros(n, bool)  # still fighting after max_exchanges
        self.trace = np.zeros((n, self.max_exchanges), np.int32) if trace else None
        names_of = np.stack(self.names)
        saved = np.empty((4, n), np.int64)
        saved[:] = np.array([tab.start, 0, self.carried, 1], np.int64)[:, None]
        blocked, missing, going = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
        trace_arg = np.zeros((0, 0), np.int32) if self.trace is None else self.trace
        todo = np.arange(n, dtype=np.int64)
        for first in range(1, self.max_exchanges + 1, BLOCK):
            if not len(todo):
                break
            faces = rng.integers(0, 6561, size=(len(todo), BLOCK), dtype=np.int64)  # both 4dF: first × 81 + second
            pending, still = todo, []
            while len(pending):
                stopped, count = play(
                    tab.cells, DELTA_OF_PAIR, names_of, pending, faces, first, saved,
                    out_row, out_acc, out_names, deadlock, trace_arg, blocked, missing, going,
                )  # fmt: skip
                still.append(going[:count].copy())
                tab.fill(missing[:stopped])
                pending, faces = pending[blocked[:stopped]], faces[blocked[:stopped]]
            todo = np.sort(np.concatenate(still))  # in conflict order: the next block's dice follow the seed only
        return self._batch(out_row // DELTAS, out_acc, out_names, deadlock)

    def _batch(self, final: I64, acc: I64, names: I64, deadlock: npt.NDArray[np.bool_]) -> Batch:
        facts = self.table.facts[:2, final]
        numbers = self.table.numbers[:, final]
        ending_codes = deadlock * 9 + facts[0] * 3 + facts[1]
        present, inverse = _present(ending_codes, 18)
        pairs = [self.labels.ending(c) for c in present]
        endings, winners = _coded(inverse, [p[0] for p in pairs]), _coded(inverse, [p[1] for p in pairs])
        per: list[Coded] = []
        for i in (0, 1):
            codes = facts[i] + 3 * ((names >> (16 * i)) & 0xFFFF)
            present, inverse = _present(codes, 3 * SLOT_MULT[3])
            per.append(Coded(inverse, [self.labels.fate(i, c) for c in present]))
        fates = {fi.id: per[self.rules.who.index(k)] for k, fi in enumerate(self.opening.fighters)}
        length = (acc & ((1 << STEP_BITS) - 1)) + self.opening_steps
        resources: dict[str, npt.NDArray[np.float64]] = {"exchanges": (acc >> STEP_BITS).astype(np.float64)}
        for k, fi in enumerate(self.opening.fighters):
            i = self.rules.who.index(k)
            resources[f"{fi.id}.fate_points"] = numbers[i]
            resources[f"{fi.id}.boxes_marked"] = numbers[2 + i]
            resources[f"{fi.id}.consequences"] = numbers[4 + i]
        return Batch(winners, endings, fates, length, resources)


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
