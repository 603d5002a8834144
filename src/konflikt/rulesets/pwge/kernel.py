"""The PWGE kernel: many conflicts of one scenario, for balancing, played one at a time in a compiled loop.

It mirrors :class:`~konflikt.rulesets.pwge.state.PwgeState` step for step with the ``heuristic`` policy in every
seat — the open floor and passing, counter, response, counter to the response, the secret order bids and the
turordningsslag, every opposed or difficulty roll with its topping, the skadeslag with its top / mot-toppa /
mot-mot-toppa, token loss by wound level, experience dice paid as the heuristic pays them (once its pool is down
to ``DIE_WHEN_TOKENS``), and the three endings — for combat, chases, and diplomatic or social conflicts (with or
without the optional damage rule), at any value of the rule options. The heuristic's choices that rest on exact
odds (which deed to buy, whether to counter or respond) are asked of the real policy once per feature combination
(:mod:`.kernel_tables`); the rules' steps are :mod:`.kernel_loop` (numba, imported when the kernel first plays),
what each step decides :mod:`.kernel_rules`. Dice follow the same distributions as the reference runner (not the
same streams); recorded faces replay the reference conflict by conflict.

The exact-odds model (:mod:`.model`) plays the same tables through the array flow :mod:`.kernel_flow` instead,
which splits every roll into its outcomes with exact weights: a loop draws one outcome, the model needs them all.
The two share what each step decides (:mod:`.kernel_rules`); the order of the steps is each one's own.
:meth:`PwgeKernel._conflicts` builds its rows.

Any number of sides and participants (each pair of foes has its own distance; the open table's choice among
several foes is the heuristic's own value order), with or without a surprise (the surprisers' starting distances,
the same in every conflict, are played once on the real state; their frislag, free attacks, are in the loop).
It refuses (returns a reason) any seat whose policy is not ``heuristic`` (the GM seat is never asked in PWGE, so
its policy is free), and more than :data:`~.kernel_tables.MAX_PEOPLE` participants.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from konflikt.core import i18n
from konflikt.core.batch import Batch, Coded
from konflikt.core.options import Options
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario
from konflikt.core.state import GM
from konflikt.rulesets.pwge import endings
from konflikt.rulesets.pwge.kernel_flow import Conflicts, Opening, Phase
from konflikt.rulesets.pwge.kernel_goals import Goal, chase_goal, points_goal, standing_goal
from konflikt.rulesets.pwge.kernel_tables import MAX_PEOPLE, NONE, Tables, build_tables
from konflikt.rulesets.pwge.policies import HeuristicPolicy
from konflikt.rulesets.pwge.state import PHYSICAL, PwgeState


class PwgeKernel:
    """Plays ``n`` conflicts of one scenario at once; :meth:`run` returns the reference runner's labels."""

    def __init__(self, scenario: Scenario, options: Options) -> None:
        self._setup(settled_opening(PwgeState(scenario, options)), options)

    @classmethod
    def of_state(cls, state: PwgeState) -> PwgeKernel:
        """The kernel of the conflict ``state`` belongs to, its opening a copy of ``state`` (the exact-odds model
        starts its rows from states met mid-conflict; the tables do not depend on the pools)."""
        kernel = cls.__new__(cls)
        opening = state.clone()
        assert isinstance(opening, PwgeState)
        kernel._setup(opening, state.options)
        return kernel

    def _setup(self, opening: PwgeState, options: Options) -> None:
        self.opening = opening
        probe = self.opening.clone()
        assert isinstance(probe, PwgeState)
        self.probe = probe
        self.options = options
        self.tables: Tables = build_tables(self.opening, options)
        self.side_ids = self.opening.side_ids
        self._loop: np.ndarray | None = None
        self._labels: dict[tuple[str, int], dict[tuple[int, int, int, int], str]] = {}
        """The words of each fate met so far, per language and participant (:meth:`_fates`)."""

    def _conflicts(self, n: int, rng: np.random.Generator, rows: type[Conflicts] = Conflicts) -> Conflicts:
        """``n`` rows of the array flow at the opening, for the exact-odds model (``rows``: its branch class; the
        rows draw from ``rng`` where the class does not force the rolls). Recorded faces replay through
        :meth:`run`."""
        state, o, t = self.opening, self.options, self.tables
        goal: Goal
        if state.kind == "chase":
            assert state.setup.fleeing is not None
            goal = chase_goal(t, state.side_ids.index(state.setup.fleeing), state.setup.escape_distance)
        elif state.tracks_body():
            goal = standing_goal(t)
        else:
            goal = points_goal(t, state.setup.goal_successes)
        dist = np.zeros((t.people, t.people), dtype=np.int64)
        for (i, j), code in state.dist.items():
            dist[i, j] = dist[j, i] = code
        return rows(
            n,
            t,
            rng,
            start=Opening(
                tokens=list(state.tokens),
                xp=list(state.xp),
                body=list(state.body),
                dist=dist,
                floor=state.floor,
                phase=Phase.FREE if state.phase == "free_attack" else Phase.OPEN,
                sp=state.surpriser_turn,
                surprisers=state.surprisers,
                steps=len(state.steps()),
                actions=state.actions,
            ),
            goal=goal,
            scoring_moves=not state.tracks_body(),
            meets_closing=state.kind in PHYSICAL,
            dodge_keeps=bool(o.dodge_keeps_range_difficulty),
            max_tops=int(o.max_tops_per_roll),
        )

    def loop_tables(self) -> np.ndarray:
        """The loop's ``t`` (:mod:`.kernel_loop`): the scenario's numbers, then every table of :class:`Tables` and
        where every conflict starts, flattened, each at the offset its name holds (built once)."""
        if self._loop is not None:
            return self._loop
        from konflikt.rulesets.pwge import kernel_loop as L

        state, o, t = self.opening, self.options, self.tables
        goal, successes, fleeing, escape, first_chaser = L.STANDING, 0, NONE, 0, NONE
        if state.kind == "chase":
            assert state.setup.fleeing is not None
            goal, fleeing, escape = L.CHASE, state.side_ids.index(state.setup.fleeing), state.setup.escape_distance
            first_chaser = min(s for s in range(t.sides) if s != fleeing)
        elif not state.tracks_body():
            goal, successes = L.POINTS, state.setup.goal_successes
        dist = np.zeros((t.people, t.people), dtype=np.int64)
        for (i, j), code in state.dist.items():
            dist[i, j] = dist[j, i] = code
        header = np.zeros(L.HEADER, np.int64)
        numbers = {
            L.PEOPLE: t.people, L.SIDES: t.sides, L.CODES: t.codes, L.SKRAMA: t.thresholds[0],
            L.SARAD: t.thresholds[1], L.ALLVARLIGT: t.thresholds[2], L.GOAL_KIND: goal, L.SUCCESSES: successes,
            L.FLEEING: fleeing, L.ESCAPE: escape, L.FIRST_CHASER: first_chaser,
            L.SCORING_MOVES: not state.tracks_body(), L.MEETS_CLOSING: state.kind in PHYSICAL,
            L.DODGE_KEEPS: bool(o.dodge_keeps_range_difficulty), L.MAX_TOPS_RULE: int(o.max_tops_per_roll),
            L.SURPRISERS_N: len(state.surprisers),
            L.START_PHASE: L.FREE if state.phase == "free_attack" else L.OPEN, L.START_FLOOR: state.floor,
            L.START_SP: state.surpriser_turn, L.START_STEPS: len(state.steps()), L.START_ACTIONS: state.actions,
        }  # fmt: skip
        for k, v in numbers.items():
            header[k] = int(v)
        start = {"SURPRISERS": state.surprisers, "START_TOKENS": state.tokens, "START_XP": state.xp,
                 "START_BODY": state.body, "START_DIST": dist}  # fmt: skip
        parts = [header]
        at = L.HEADER
        for name in L.TABLES:
            table = np.asarray(start[name] if name in start else getattr(t, name.lower()), dtype=np.int64).ravel()
            header[getattr(L, name)] = at
            parts.append(table)
            at += len(table)
        tables = self._loop = np.concatenate(parts)
        return tables

    def run(self, n: int, rng: np.random.Generator, dice: Any = None) -> Batch:
        """Play ``n`` conflicts in the compiled loop; labels exactly as :func:`endings.outcome` writes them.

        ``dice`` (a :class:`~.kernel_loop.Replay` of ``n`` rows) replaces ``rng`` as the source of d6 faces: the
        tests replay the reference's recorded dice with it, conflict by conflict.
        """
        if self.opening.phase == "done":
            return self._settled(n)
        from konflikt.rulesets.pwge.kernel_loop import PERSON, Replay, play

        if dice is None:
            dice = Replay(np.zeros((0, 0), np.int64), np.zeros(0, np.int64))
        out = np.empty((PERSON + 4 * self.tables.people, n), np.int32)  # int32: fresh memory costs page faults
        loop: Any = play
        loop(rng, self.loop_tables(), dice, out)
        return self._batch(out)

    def _batch(self, out: np.ndarray) -> Batch:
        winners: list[Hashable] = [(), *((side,) for side in self.side_ids)]
        fates = {
            self.opening.people[p].pid: self._fates(p, *out[4 + 4 * p : 8 + 4 * p]) for p in range(self.tables.people)
        }
        ending, winner, steps, actions = out[:4]
        return Batch(
            winners=Coded(winner.astype(np.int64) + 1, winners),
            endings=Coded(ending, list(endings.ENDINGS)),
            fates=fates,
            length=steps,
            resources={"steps": steps.astype(np.float64)},
            rounds=actions,
        )

    def _fates(self, p: int, tok: np.ndarray, body: np.ndarray, wnd: np.ndarray, out: np.ndarray) -> Coded:
        """Each distinct (tokens, body, worst wound, out) once through :func:`endings.fate` on the probe (found by
        marking the packed tallies in a table a few thousand long: a sort of the whole batch cost 2× more), and its
        words kept for the next batches in the language they were written in (a fate's words through the message
        catalogs cost ~20 µs: a tenth of a block's time went to the same few hundred fates, block after block)."""
        low = int(body.min()) if len(body) else 0
        span = int(body.max()) - low + 1 if len(body) else 1
        packed = ((tok.astype(np.int64) * span + (body - low)) * 5 + wnd) * 2 + out
        seen = np.zeros(int(packed.max()) + 1 if len(packed) else 1, dtype=bool)
        seen[packed] = True
        keys = np.flatnonzero(seen)
        probe = self.probe
        known = self._labels.setdefault((i18n.current(), p), {})
        labels: list[Hashable] = []
        for key in keys.tolist():
            rest, o = divmod(key, 2)
            rest, w = divmod(rest, 5)
            t, b = divmod(rest, span)
            b += low
            label = known.get((t, b, w, o))
            if label is None:
                probe.tokens[p], probe.body[p], probe.wounds[p], probe.out[p] = t, b, w, bool(o)
                label = known[t, b, w, o] = endings.fate(probe, p)
            labels.append(label)
        # different tallies may read the same (a social conflict names no wound level): one code per label
        codes = {label: code for code, label in enumerate(dict.fromkeys(labels))}
        code_of = np.zeros(len(seen), dtype=np.int64)
        code_of[keys] = [codes[label] for label in labels]
        return Coded(code_of[packed], list(codes))

    def _settled(self, n: int) -> Batch:
        """The opening state already ended (e.g. an empty pool): every conflict is that one."""
        outcome = self.opening.outcome()
        steps = len(self.opening.steps())
        zeros = np.zeros(n, dtype=np.int64)
        return Batch(
            winners=Coded(zeros, [outcome.winners]),
            endings=Coded(zeros, [outcome.ending]),
            fates={pid: Coded(zeros, [fate]) for pid, fate in outcome.participants.items()},
            length=zeros + steps,
            resources={"steps": np.full(n, float(steps))},
            rounds=zeros + self.opening.actions,
        )


def settled_opening(state: PwgeState) -> PwgeState:
    """Play the choices before the first die, the same in every conflict: each attribute in use the scenario leaves
    to the seat, and a surprise's starting distances.

    The heuristic makes them from the opening state alone, so the kernel takes these first steps once, on the real
    state, and starts every conflict after them (at the first frislag, or the floor).
    """
    policy = HeuristicPolicy()
    rng = np.random.default_rng(0)
    while state.phase in ("attribute", "surprise_distance"):
        state.apply_action(policy.choose(state, state.current_player(), rng))
    return state


def make_kernel(scenario: Scenario, options: Options, seats: Mapping[str, Policy | None]) -> PwgeKernel | str:
    """The kernel for this scenario, or why it cannot mirror it (``konflikt sim`` then uses the reference)."""
    for seat, policy in seats.items():
        if seat != GM and not isinstance(policy, HeuristicPolicy):
            name = "human" if policy is None else getattr(policy, "name", type(policy).__name__)
            return f"the pwge kernel mirrors only the heuristic policy ({seat} plays {name})"
    if options.first_dry_side_ends and len(scenario.sides) > 2:
        return "the pwge kernel does not play first_dry_side_ends with three or more sides (several winners)"
    people = len(scenario.participants())
    if people > MAX_PEOPLE:
        return f"the pwge kernel plays at most {MAX_PEOPLE} participants (this conflict has {people})"
    return PwgeKernel(scenario, options)


__all__ = ["PwgeKernel", "make_kernel"]
