"""The compact model of a presja duel for exact odds: one step is one sekwencja walki (exchange).

A compact state is ``(duel, exchange)``: the kernel's :data:`~.kernel_exchange.Duel` (tracks, consequence slots,
fate points, fates, zones, weapon ticks) and the number of the exchange about to be played. The exchange itself is
the kernel's :meth:`ExchangeRules.exchange` — the real heuristic on a real state, the real track functions — over
the 17 differences of the two 4dF rolls, each with its exact probability. The exchange number only ever grows: the
graph is acyclic.

**Names split from the labels.** A consequence's name is the sample name of the exchange it was taken in, which no
rule reads; carrying it in the state would multiply the knife fight's 40 thousand states by 37. So the model's
labels are the State's outcome words with the names left out (:func:`name_free_label`), and each consequence's
name is a *mark* of the exchange that takes it (:meth:`PresjaModel.marks`): the solver adds up exactly the
probability that each participant ends with each named consequence.

Covered: what the kernel mirrors (two participants, the heuristic on every seat and the GM's), from any state at the
start of an exchange (before the GM's compels and the declarations); elsewhere the analysis steps on through the
State API and asks again.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import cast

from konflikt.core.model_cache import ModelCache
from konflikt.core.ruleset import Policy
from konflikt.core.state import GM, State
from konflikt.rulesets.presja import texts
from konflikt.rulesets.presja.i18n import _
from konflikt.rulesets.presja.kernel_exchange import DELTAS, Duel, ExchangeRules, duel_of
from konflikt.rulesets.presja.models import consequence_names
from konflikt.rulesets.presja.policies import HeuristicPolicy
from konflikt.rulesets.presja.state import PresjaState
from konflikt.rulesets.presja.static import _FACES4
from konflikt.rulesets.presja.track import SLOTS, box_label

Compact = tuple[Duel, int]
SENTINEL = "\x00"
BOX = "pole"
"""The kind of a track box's mark (``pole``: a box of the Tor Presji)."""


def _delta_odds() -> tuple[list[tuple[int, int]], int]:
    """4dF of the first − 4dF of the second: each difference's exact probability."""
    counts = [0] * DELTAS
    for a in _FACES4:
        for b in _FACES4:
            counts[a - b + 8] += 1
    total = len(_FACES4) ** 2
    return [(d - 8, c) for d, c in enumerate(counts) if c], total


DELTA_COUNTS, DELTA_TOTAL = _delta_odds()
"""Each difference of the two rolls with its count of the 81 × 81 equally likely faces."""


def at_exchange_start(conflict: PresjaState) -> bool:
    """Before anything of the exchange is decided: the GM's compels (when anyone may be compelled) and every
    declaration still to come. (After the GM's "pass" the exchange has begun: one state, one encoding.)"""
    if conflict.ptr != 0 or conflict.compelled or conflict.compel_pending is not None:
        return False
    if any(d is not None for d in conflict.decl):
        return False
    if conflict.phase == "compel":
        return True
    return conflict.phase == "declare" and not conflict.compel_choices()


def name_free_label(conflict: State) -> Hashable:
    """:func:`konflikt.analysis.exact.outcome_label` of an ended conflict with the consequences' names left out."""
    assert isinstance(conflict, PresjaState)
    blank: PresjaState = conflict.fork()  # type: ignore[assignment]
    blank.cons_names = [[SENTINEL] * 3 for _ in blank.fighters]
    outcome = texts.outcome(blank)
    fates = {pid: words.replace(f" '{SENTINEL}'", "") for pid, words in outcome.participants.items()}
    return (outcome.ending, outcome.winners, tuple(sorted(fates.items())))


def held(conflict: PresjaState, j: int) -> list[Hashable]:
    """The marks of the consequences participant ``j`` holds, (id, severity, name), and of the boxes of his Tor
    Presji marked, (id, ``pole``, box)."""
    fi = conflict.fighters[j]
    taken = [(fi.id, SLOTS[s], conflict.cons_names[j][s]) for s in range(3) if conflict.cons[j][s]]
    return taken + [box_mark(fi.id, fi.track, k) for k in range(len(fi.track)) if conflict.marked[j] >> k & 1]


def box_mark(pid: str, track: tuple[tuple[int, int], ...], k: int) -> Hashable:
    """Box ``k`` of a Tor Presji (pressure track) marked, as a mark: rules only ever mark a box during a conflict,
    so each happens at most once."""
    return (pid, BOX, f"{k + 1}: [{box_label(track[k])}]")


class PresjaModel:
    """A duel at the start of an exchange, as a Markov chain over :data:`Compact` states (see the module)."""

    unit = "exchanges"

    def __init__(self, conflict: PresjaState) -> None:
        self.conflict = conflict
        self.rules = ExchangeRules(conflict)
        self.cap = int(conflict.rule_values["max_exchanges"])
        self.samples = tuple(consequence_names()[slot] for slot in SLOTS)
        self.tracks = tuple(conflict.fighters[j].track for j in self.rules.who)
        self._steps: dict[Duel, list[tuple[Duel, int]]] = {}
        self._taken: dict[tuple[Duel, Duel], list[tuple[int, int]]] = {}
        self._ends: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], Hashable] = {}
        self._boxes: dict[tuple[int, int], tuple[Hashable, ...]] = {}
        """The marks of the boxes newly marked, by (participant, bits of the new boxes)."""
        self._static = self._identity(conflict)

    @staticmethod
    def _identity(conflict: PresjaState) -> Hashable:
        """What must match for another state to be encoded by this model: the conflict's fixed numbers (shared by
        all its states, and kept alive by the model's own state), the order of action, the rule options."""
        return (id(conflict.fighters), conflict.static_key, tuple(conflict.order), repr(conflict.rule_values))

    def encode(self, state: State) -> Compact | None:
        if not isinstance(state, PresjaState) or state.is_terminal() or not at_exchange_start(state):
            return None
        if self._identity(state) != self._static:
            return None
        a, b = self.rules.who
        return (duel_of(state, a, b), state.exchange)

    def label(self, state: State) -> Hashable:
        """The label of an ended State, as the model labels its ends."""
        return name_free_label(state)

    def held(self, state: State) -> list[Hashable]:
        """The marks already true at ``state`` (the consequences held, with their names)."""
        assert isinstance(state, PresjaState)
        return [m for j in self.rules.who for m in held(state, j)]

    def _exchange(self, duel: Duel) -> list[tuple[Duel, int]]:
        """The exchange from ``duel`` over the dice: (next duel, its count of the 81 × 81 faces), merged."""
        found = self._steps.get(duel)
        if found is None:
            merged: dict[Duel, int] = {}
            for delta, count in DELTA_COUNTS:
                after = self.rules.exchange(duel, delta)[0]
                merged[after] = merged.get(after, 0) + count
            found = self._steps[duel] = list(merged.items())
        return found

    def successors(self, compact: Hashable) -> tuple[int, list[tuple[Hashable, int]]]:
        duel, e = cast(Compact, compact)
        e += 1
        return DELTA_TOTAL, [((after, e), w) for after, w in self._exchange(duel)]

    def marks(self, before: Hashable, after: Hashable) -> list[Hashable]:
        """The consequences taken in the exchange from ``before`` to ``after``, named as the State names them: the
        sample name of the exchange (:meth:`PresjaState._absorb`)."""
        was, now = before[0], after[0]  # type: ignore[index]
        out: list[Hashable] = []
        for i in (0, 1):
            if was[i] != now[i]:
                new = now[i] & ~was[i]
                boxes = self._boxes.get((i, new))
                if boxes is None:
                    track = self.tracks[i]
                    boxes = tuple(box_mark(self.rules.ids[i], track, k) for k in range(len(track)) if new >> k & 1)
                    self._boxes[i, new] = boxes
                out += boxes
        if was[2] == now[2] and was[3] == now[3]:  # the common case, first: no slot newly taken
            return out
        e = before[1]  # type: ignore[index]
        for i in (0, 1):
            for s in range(3):
                if not was[2 + i][s] and now[2 + i][s]:
                    names = self.samples[s]
                    out.append((self.rules.ids[i], SLOTS[s], names[(e - 1) % len(names)]))
        return out

    def end(self, compact: Hashable) -> Hashable | None:
        duel, e = cast(Compact, compact)
        f0, f1 = duel[8], duel[9]
        if not (f0 or f1) and e <= self.cap:
            return None
        key = (f0, f1, duel[2], duel[3])
        found = self._ends.get(key)
        if found is None:
            conflict: PresjaState = self.conflict.fork()  # type: ignore[assignment]
            for i, j in enumerate(self.rules.who):
                conflict.fate[j] = (f0, f1)[i]
                conflict.cons[j] = [1 if c else 0 for c in (duel[2], duel[3])[i]]
            conflict.ending = "won" if 0 in (f0, f1) else "all_out"
            if not (f0 or f1):
                conflict.ending = "deadlock"
            found = self._ends[key] = name_free_label(conflict)
        return found

    def length(self, compact: Hashable) -> int:
        return cast(Compact, compact)[1] - 1


def exact_model(state: State, policies: Mapping[str, Policy]) -> PresjaModel | str | None:
    """The :class:`PresjaModel` of the duel at ``state``; why not (a string); ``None`` mid-exchange."""
    if not isinstance(state, PresjaState):
        return _("not a presja conflict")
    if len(state.fighters) != 2 or len({f.side for f in state.fighters}) != 2:
        return _(
            "the presja model plays one against one; this conflict has {count} participants",
            count=len(state.fighters),
        )
    for seat in (*(f.id for f in state.fighters), GM):
        if not isinstance(policies.get(seat), HeuristicPolicy):
            return _("the presja model mirrors the heuristic policy on every seat; {seat} plays another", seat=seat)
    if state.is_terminal() or not at_exchange_start(state) or any(state.fate):
        return None
    identity = PresjaModel._identity(state)
    return _MODELS.get(identity, lambda: PresjaModel(state))


_MODELS: ModelCache[PresjaModel] = ModelCache()
"""Models by the conflict they were built for: asked again ("who wins from here", every step at the table), a model
answers from the exchanges it has already worked out."""
