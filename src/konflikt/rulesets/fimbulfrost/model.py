"""The compact model of a Fimbulfrost conflict for exact odds: one step is one runde (round).

A compact state is the conflict at the start of a round — ``(round, opponent's Status, each hero's Status, morale,
fate, pools, consequences)`` — or an end — ``(0, result, round, fates, consequences, the opponent's
consequences)``. A round is played by the functions the vectorised kernel is compiled from, which are the rules' and
the heuristic's own (:mod:`.rules`, :mod:`.policies`): the presenters and the round-1 splits
(:func:`~.kernel.round1_splits`: ``split_round1``), the opponent's answer (:func:`~.kernel.take_hits`:
``split_hits``, ``absorb``), round 3's gathering (:func:`~.kernel.gather`: ``dice_needed``), every batch of
consequences (:func:`~.kernel.purchases`: ``available_entries``, least harmful first), the dice from
:func:`~.rules.success_pool`. An end's label is the State's own: a copy of the conflict is set to the end and asked
for its outcome. Rounds only go forward: the graph is acyclic, three levels deep.

Only what a round's outcome depends on is kept: round 1's 1s never count, round 2's and 3's only in the roll that
defeats the opponent, and no more of them than the hero's list can pay for (the rest are lost, as in the State).

Covered: the heuristic on every seat under the options the kernel mirrors (and ``round3_loss = shared``), from the
start of any round (after its consequences are bought); elsewhere the analysis steps on through the State API and
asks again.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import cache
from itertools import product
from math import gcd
from typing import Any, cast

from konflikt.core.i18n import current
from konflikt.core.model_cache import ModelCache
from konflikt.core.ruleset import Policy
from konflikt.core.state import State
from konflikt.rulesets.fimbulfrost import phases as P
from konflikt.rulesets.fimbulfrost.i18n import CATALOG
from konflikt.rulesets.fimbulfrost.kernel import (
    MIRRORED,
    gather,
    opponent_purchases,
    presenters,
    purchases,
    round1_splits,
    take_hits,
)
from konflikt.rulesets.fimbulfrost.models import Character, Entry
from konflikt.rulesets.fimbulfrost.options import OPTIONS
from konflikt.rulesets.fimbulfrost.policies import HeuristicPolicy
from konflikt.rulesets.fimbulfrost.rules import (
    POOLS,
    consequence_count,
    hero_list,
    loss_shares,
    points_below_zero,
    presentation_dice,
    success_pool,
)
from konflikt.rulesets.fimbulfrost.state import DEAD, LOSS, OUT, STANDING, VICTORY, FimbulfrostState

gettext = CATALOG.gettext
"""The fimbulfrost catalog's lookup (this module keeps ``_`` for values it does not use)."""

Taken = tuple[tuple[str, ...], ...]
Start = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], Taken]
"""(round 1–3, opponent's Status, Status, morale, fate, pools, consequences) per hero."""
End = tuple[int, int, int, tuple[int, ...], Taken, tuple[str, ...]]
"""(0, result, round, fate, consequences, the opponent's consequences)."""
Roll = dict[tuple[int, int], int]
"""A pool's (successes, 1s) with its count of the 6^dice equally likely faces."""

ROUND3_LOSS = ("every", "each", "shared")


@cache
def _faces(dice: int) -> Roll:
    """:func:`success_pool`'s distribution as counts over the 6^dice faces (integers keep the solver fast); a pure
    function of the dice, worked out once a process."""
    whole = 6**dice
    return {(r.successes, r.ones): int(p * whole) for r, p in success_pool(dice).distribution().items()}


@cache
def _successes(dice: int) -> dict[int, int]:
    """The successes of ``dice`` with their counts over the 6^dice faces (shared: read, never changed)."""
    out: dict[int, int] = {}
    for (s, _), w in _faces(dice).items():
        out[s] = out.get(s, 0) + w
    return out


def at_round_start(conflict: FimbulfrostState) -> int:
    """The round whose start ``conflict`` is at (every consequence of the last one bought), else 0."""
    if conflict.asks or conflict.phase == P.END:
        return 0
    n = conflict.n
    if conflict.phase == P.PRESENT:
        fresh = conflict.round == 1 and conflict.cursor == 0 and not any(conflict.morale)
        return 1 if fresh and all(f == STANDING for f in conflict.fate) else 0
    if conflict.phase == P.R2_DESCRIBE:
        first = next((i for i in range(n) if conflict.fate[i] == STANDING), n)
        untouched = not any(conflict.areas) and not any(conflict.dice)
        return 2 if untouched and conflict.cursor == first else 0
    if conflict.phase == P.R3_TURN:
        if any(conflict.used) or any(conflict.dice) or any(conflict.borrowed):
            return 0
        standing = conflict.standing()
        # 'even wilder' needs a described area (the heuristic describes all three); a hero who chose 'done' with
        # options left is not at the round's start
        if conflict.options.wilder_needs_round2 and n > 1 and not all(conflict.areas[i] for i in standing):
            return 0
        if any(conflict.done[i] and len(conflict._round3_actions(i)) > 1 for i in standing):
            return 0
        waiting = [i for i in standing if not conflict.done[i]]
        return 3 if waiting and conflict.cursor == waiting[0] else 0
    return 0


class FimbulfrostModel:
    """A Fimbulfrost conflict at the start of a round, as a Markov chain over :data:`Start` and :data:`End`."""

    unit = "rounds"
    held_in_key = True
    """The consequences bought (the marks) are in ``key()``: the bridge may merge the paths into one State."""

    def __init__(self, conflict: FimbulfrostState) -> None:
        self.conflict = conflict
        self.n = conflict.n
        self.opp = conflict.opp
        self.options = conflict.options
        self.per = int(conflict.options.points_per_consequence)
        self._static = self._identity(conflict)
        self._labels: dict[tuple[str, End], Hashable] = {}
        """Each end's outcome label by (language, end): the label is words, and a cached model serves every language."""
        self._bought: dict[tuple[int, int, tuple[str, ...], tuple[int, ...]], tuple[str, ...]] = {}
        self._gathered: dict[
            tuple[tuple[bool, ...], int, tuple[tuple[int, ...], ...]], tuple[list[int], tuple[tuple[int, ...], ...]]
        ] = {}
        self._steps: dict[Start, tuple[int, list[tuple[Hashable, int]]]] = {}
        self._rolled: dict[
            tuple[tuple[tuple[int, int, int], ...], int], tuple[tuple[int, tuple[int, ...], int], ...]
        ] = {}
        self._won: dict[tuple[int, int, tuple[int, ...], tuple[tuple[int, ...], ...], Taken, tuple[int, ...]], End] = {}
        self._marked: dict[tuple[Taken, Taken, tuple[str, ...]], list[Hashable]] = {}
        self._entries: dict[str, Entry] = {}
        """Every entry by id, as ``Catalogue.entry`` finds it (the first list that has it), looked up once."""
        for listed in conflict.catalogue.lists.values():
            for e in listed.entries:
                self._entries.setdefault(e.id, e)
        self._marks: dict[tuple[str, str], Hashable] = {}
        self._scratch: FimbulfrostState | None = None
        self._opp_seq = {r: tuple(e.id for e in opponent_purchases(conflict.catalogue, self.opp.nederlagsliste, r))
                         for r in (1, 2, 3)}  # fmt: skip

    @staticmethod
    def _identity(conflict: FimbulfrostState) -> Hashable:
        """What another state must share to be encoded by this model: the same content and rule options."""
        return (id(conflict.chars), id(conflict.catalogue), conflict.carried, repr(conflict.options))

    # ---- encoding -------------------------------------------------------------------------------------------------
    def encode(self, state: State) -> Start | None:
        if not isinstance(state, FimbulfrostState) or self._identity(state) != self._static:
            return None
        r = at_round_start(state)
        if not r:
            return None
        return (
            r,
            state.opp_status,
            tuple(state.hstatus),
            tuple(state.morale),
            tuple(state.fate),
            tuple(tuple(p) for p in state.pools),
            tuple(tuple(sorted(t)) for t in state.taken),
        )

    def end(self, compact: Hashable) -> Hashable | None:
        c = cast(tuple[int, ...], compact)
        if c[0]:
            return None
        end = cast(End, compact)
        key = (current(), end)
        found = self._labels.get(key)
        if found is None:
            outcome = self._ended(end).outcome()  # as analysis.exact.outcome_label writes it (a layer above)
            found = self._labels[key] = (outcome.ending, outcome.winners, tuple(sorted(outcome.participants.items())))
        return found

    def _ended(self, end: End) -> FimbulfrostState:
        """A copy of the conflict set to ``end``: the State writes the label. One copy serves every end (each sets
        all that the outcome reads), so a model copies the conflict once, not once per end."""
        _, result, round_no, fate, taken, opp_taken = end
        s = self._scratch
        if s is None:
            s = self._scratch = cast(FimbulfrostState, self.conflict.fork())
        s.result, s.round, s.phase, s.asks = result, round_no, P.END, []
        s.fate, s.back = list(fate), [False] * self.n
        s.taken, s.opp_taken = [list(t) for t in taken], list(opp_taken)
        return s

    def marks(self, before: Hashable, after: Hashable) -> list[Hashable]:
        """The consequences bought on the way from ``before`` to ``after``, each as (participant, ``konsekvens``, its
        words as the fate writes them): each happens at most once in a conflict."""
        was: tuple[Any, ...] = before  # type: ignore[assignment]
        now: tuple[Any, ...] = after  # type: ignore[assignment]
        taken_was = was[6] if was[0] else was[4]
        taken_now, opp_now = (now[6], ()) if now[0] else (now[4], now[5])
        if taken_was == taken_now and not opp_now:
            return []
        key = (taken_was, taken_now, opp_now)
        out = self._marked.get(key)  # many edges buy the same: the lists are read, never changed
        if out is None:
            out = []
            for i, (a, b) in enumerate(zip(taken_was, taken_now, strict=True)):
                out += [self._mark(self.conflict.hero_ids[i], e) for e in b if e not in a]
            out += [self._mark(self.conflict.opp_id, e) for e in opp_now]
            self._marked[key] = out
        return out

    def held(self, state: State) -> list[Hashable]:
        """The consequences already bought at ``state`` (see :meth:`marks`)."""
        assert isinstance(state, FimbulfrostState)
        out = [self._mark(state.hero_ids[i], e) for i, t in enumerate(state.taken) for e in t]
        return out + [self._mark(state.opp_id, e) for e in state.opp_taken]

    def _mark(self, pid: str, entry_id: str) -> Hashable:
        found = self._marks.get((pid, entry_id))
        if found is None:
            entry = self._entries[entry_id]
            found = self._marks[pid, entry_id] = (pid, "konsekvens", f"{entry.da} ({entry.en})")
        return found

    def length(self, compact: Hashable) -> int:
        c = cast(tuple[int, ...], compact)
        return c[2] if c[0] == 0 else c[0] - 1

    # ---- one round ------------------------------------------------------------------------------------------------
    def successors(self, compact: Hashable) -> tuple[int, list[tuple[Hashable, int]]]:
        start = cast(Start, compact)
        found = self._steps.get(start)
        if found is None:
            whole, ways = (self._round1, self._round2, self._round3)[start[0] - 1](start)
            weighted: dict[Hashable, int] = {}
            for t, w in ways:
                weighted[t] = weighted.get(t, 0) + w
            g = gcd(whole, *weighted.values())  # the least common denominator of the reduced fractions
            found = self._steps[start] = (whole // g, [(t, w // g) for t, w in weighted.items()])
        return found

    def _round1(self, start: Start) -> tuple[int, list[tuple[Hashable, int]]]:
        """Round 1 from ``start``: the whole count of equally likely faces and each outcome's count of them."""
        _, os, hstatus, _, fate, pools, taken = start
        n, chars = self.n, self.conflict.chars
        by = presenters(n)
        dice = [presentation_dice(chars[i].omdomme_this_fight, by[i] == i) for i in range(n)]
        answer = _successes(self.opp.omdomme)
        answered = 6**self.opp.omdomme
        out: list[tuple[Hashable, int]] = []
        for combo in product(*(_successes(d).items() for d in dice)):
            w = 1
            for _, c in combo:
                w *= c
            os1, morale, _ = round1_splits(hstatus, self.opp.omdomme, os, [s for s, _ in combo])
            if os1 <= 0:
                out.append((self._victory(1, os1, fate, pools, taken, (0,) * n), w * answered))
                continue
            for hits, c in answer.items():
                out.append((self._answered(1, os1, hstatus, morale, fate, pools, taken, hits), w * c))
        return 6 ** sum(dice) * answered, out

    def _round2(self, start: Start) -> tuple[int, list[tuple[Hashable, int]]]:
        _, os, hstatus, morale, fate, pools, taken = start
        standing = [i for i in range(self.n) if fate[i] == STANDING]
        kamp = _successes(self.opp.kamp)
        answered = 6**self.opp.kamp
        out: list[tuple[Hashable, int]] = []
        for total, ones, w in self._rolls({i: 3 for i in standing}, os, pools, taken, 2):
            if os - total <= 0:
                out.append((self._victory(2, os - total, fate, pools, taken, ones), w * answered))
                continue
            for hits, c in kamp.items():
                out.append((self._answered(2, os - total, hstatus, list(morale), fate, pools, taken, hits), w * c))
        return 6 ** (3 * len(standing)) * answered, out

    def _round3(self, start: Start) -> tuple[int, list[tuple[Hashable, int]]]:
        _, os, _, _, fate, pools, taken = start
        dice, after = self._gather(tuple(f == STANDING for f in fate), os, pools)
        rolled = {i: d for i, d in enumerate(dice) if d}
        out: list[tuple[Hashable, int]] = []
        for total, ones, w in self._rolls(rolled, os, after, taken, 3):
            left = os - total
            if left <= 0:
                out.append((self._victory(3, left, fate, after, taken, ones), w))
            else:
                out.append((self._lost3(left, fate, after, taken), w))
        return 6 ** sum(rolled.values()), out

    def _gather(
        self, standing: tuple[bool, ...], os: int, pools: tuple[tuple[int, ...], ...]
    ) -> tuple[list[int], tuple[tuple[int, ...], ...]]:
        """Round 3, step 1 as the heuristic plays it: each hero's dice, and the pools left."""
        key = (standing, os, pools)
        found = self._gathered.get(key)
        if found is None:
            chars = cast(Sequence[Character], self.conflict.chars)
            heroes = [c.model_copy(update=dict(zip(POOLS, pools[i], strict=True))) for i, c in enumerate(chars)]
            dice, spent, _ = gather(heroes, standing, os)
            left = tuple(tuple(p - s for p, s in zip(pools[i], spent[i], strict=True)) for i in range(self.n))
            found = self._gathered[key] = (dice, left)
        return found

    def _rolls(
        self, dice: Mapping[int, int], os: int, pools: tuple[tuple[int, ...], ...], taken: Taken, round_no: int
    ) -> tuple[tuple[int, tuple[int, ...], int], ...]:
        """The heroes' rolls of ``dice`` each: (total successes, each hero's 1s, count of the faces), merged where
        nothing differs: the 1s count only when the total defeats the opponent, and no more of them than the hero's
        list can pay for. Memoised by what they read: the dice, the Status to beat and each list's room."""
        caps = tuple((i, d, len(self._batch(i, round_no, taken[i], pools[i]))) for i, d in dice.items())
        key = (caps, os)
        found = self._rolled.get(key)
        if found is not None:
            return found
        none = (0,) * self.n
        merged: dict[tuple[int, tuple[int, ...]], int] = {(0, none): 1}
        for i, d, cap in caps:
            faces = [(s, min(o, cap), c) for (s, o), c in _faces(d).items()]
            nxt: dict[tuple[int, tuple[int, ...]], int] = {}
            for (total, ones), w in merged.items():
                for s, o, c in faces:
                    k = (total + s, (*ones[:i], o, *ones[i + 1 :]))
                    nxt[k] = nxt.get(k, 0) + w * c
            merged = nxt
        out: dict[tuple[int, tuple[int, ...]], int] = {}
        for (total, ones), w in merged.items():
            k = (total, ones) if total >= os else (total, none)
            out[k] = out.get(k, 0) + w
        found = self._rolled[key] = tuple((total, ones, w) for (total, ones), w in out.items())
        return found

    # ---- what follows a roll --------------------------------------------------------------------------------------
    def _answered(
        self,
        round_no: int,
        os: int,
        hstatus: Sequence[int],
        morale: list[int],
        fate: tuple[int, ...],
        pools: tuple[tuple[int, ...], ...],
        taken: Taken,
        hits: int,
    ) -> Hashable:
        """The opponent's answer of ``hits`` (steps 4B–D / 3B–D): damage, consequences of the heroes out, then
        the next round's start or the heroes' loss."""
        hst, mor = list(hstatus), list(morale)
        standing = [f == STANDING for f in fate]
        _, outs = take_hits(hst, mor, standing, hits, self.per, str(self.options.morale))
        new_fate, new_pools, new_taken = list(fate), list(pools), list(taken)
        for i, count in outs.items():
            new_fate[i] = OUT
            self._buy(i, round_no, count, new_fate, new_pools, new_taken)
        if not any(f == STANDING for f in new_fate):
            return (0, LOSS, round_no, tuple(new_fate), tuple(new_taken), ())
        if round_no == 1 and self.options.morale == "round1":
            mor = [0] * self.n
        return (round_no + 1, os, tuple(hst), tuple(mor), tuple(new_fate), tuple(new_pools), tuple(new_taken))

    def _victory(
        self,
        round_no: int,
        os: int,
        fate: tuple[int, ...],
        pools: tuple[tuple[int, ...], ...],
        taken: Taken,
        ones: tuple[int, ...],
    ) -> End:
        """The opponent defeated: its consequences for the points below 0, then each hero's for his 1s (memoised:
        many rolls of a round defeat it the same way)."""
        count = consequence_count(points_below_zero(os), self.per)
        key = (round_no, count, fate, pools, taken, ones)
        found = self._won.get(key)
        if found is None:
            opp_taken = tuple(sorted(self._opp_seq[round_no][:count]))
            new_fate, new_pools, new_taken = list(fate), list(pools), list(taken)
            for i in range(self.n):
                self._buy(i, round_no, ones[i], new_fate, new_pools, new_taken)
            found = self._won[key] = (0, VICTORY, round_no, tuple(new_fate), tuple(new_taken), opp_taken)
        return found

    def _lost3(self, left: int, fate: tuple[int, ...], pools: tuple[tuple[int, ...], ...], taken: Taken) -> End:
        """Round 3 lost: the heroes buy consequences for the opponent's remaining Status (``round3_loss``)."""
        mode = str(self.options.round3_loss)
        if mode == "every":
            payers = [i for i in range(self.n) if fate[i] != DEAD]
        else:
            payers = [i for i in range(self.n) if fate[i] == STANDING]
        shares = loss_shares(left, len(payers), "shared" if mode == "shared" else "each")
        new_fate, new_pools, new_taken = list(fate), list(pools), list(taken)
        for i, share in zip(payers, shares, strict=True):
            self._buy(i, 3, consequence_count(share, self.per), new_fate, new_pools, new_taken)
        return (0, LOSS, 3, tuple(new_fate), tuple(new_taken), ())

    def _batch(self, i: int, round_no: int, taken: tuple[str, ...], pools: tuple[int, ...]) -> tuple[str, ...]:
        """Every entry hero ``i`` would buy in one batch, in order (the heuristic's, until death or none is left)."""
        key = (i, round_no, taken, pools)
        found = self._bought.get(key)
        if found is None:
            c = self.conflict
            seq = purchases(
                c.catalogue,
                hero_list(c.catalogue, self.opp.konsekvensliste, round_no),
                round_no,
                [*taken, *c.carried[i]],
                round_no != 1 or bool(self.options.round1_death),
                pools,
                c.chars[i].omdomme,
                bool(self.options.consequence_must_cost),
            )
            found = self._bought[key] = tuple(e.id for e in seq)
        return found

    def _buy(
        self,
        i: int,
        round_no: int,
        count: int,
        fate: list[int],
        pools: list[tuple[int, ...]],
        taken: list[tuple[str, ...]],
    ) -> None:
        """Hero ``i`` buys ``count`` consequences (fewer when his list runs out), in place."""
        if count <= 0:
            return
        bought = self._batch(i, round_no, taken[i], pools[i])[:count]
        emptied = list(pools[i])
        for entry_id in bought:
            entry = self._entries[entry_id]
            if entry.loses is not None:
                emptied[POOLS.index(entry.loses)] = 0
            if entry.death:
                fate[i] = DEAD
        pools[i] = tuple(emptied)
        taken[i] = tuple(sorted((*taken[i], *bought)))


def exact_model(state: State, policies: Mapping[str, Policy]) -> FimbulfrostModel | str | None:
    """The :class:`FimbulfrostModel` of the conflict at ``state``; why not (a string); ``None`` mid-round."""
    if not isinstance(state, FimbulfrostState):
        return "not a fimbulfrost conflict"
    for seat in state.seats():
        if not isinstance(policies.get(seat), HeuristicPolicy):
            return gettext(
                "the fimbulfrost model mirrors the heuristic policy on every seat; {seat} plays another", seat=seat
            )
    for option in OPTIONS:
        value = state.options[option.name]
        if option.name == "round3_loss":
            if value not in ROUND3_LOSS:
                return gettext("the fimbulfrost model plays round3_loss {values} only", values=", ".join(ROUND3_LOSS))
        elif option.name not in MIRRORED and option.name != "wilder_needs_round2" and value != option.default:
            return gettext(
                "the fimbulfrost model plays {option} = {default} only, not {value}",
                option=option.name,
                default=repr(option.default),
                value=repr(value),
            )
    if state.is_terminal() or not at_round_start(state):
        return None
    identity = FimbulfrostModel._identity(state)
    return _MODELS.get(identity, lambda: FimbulfrostModel(state))


_MODELS: ModelCache[FimbulfrostModel] = ModelCache()
"""Models by the conflict they were built for: asked again, a model answers from the rounds it has worked out."""
