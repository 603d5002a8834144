"""A numpy kernel for PWGE: many conflicts of one scenario at once, for balancing.

It mirrors :class:`~konflikt.rulesets.pwge.state.PwgeState` step for step with the ``heuristic`` policy in every
seat — the open floor and passing, counter, response, counter to the response, the secret order bids and the
turordningsslag, every opposed or difficulty roll with its topping, the skadeslag with its top / mot-toppa /
mot-mot-toppa, token loss by wound level, experience dice spent before tokens, and the three endings — for combat,
chases, and diplomatic or social conflicts (with or without the optional damage rule), at any value of the rule
options. The heuristic's choices that rest on exact odds (which deed to buy, whether to counter or respond) are
asked of the real policy once per feature combination (:mod:`.kernel_tables`); the flow is
:mod:`.kernel_flow`. Dice follow the same distributions as the reference runner (not the same streams).

Any number of sides and participants (each pair of foes has its own distance; the open table's choice among
several foes is the heuristic's own value order), with or without a surprise (the surprisers' starting distances,
the same in every conflict, are played once on the real state; their frislag, free attacks, are in the arrays).
It refuses (returns a reason) any seat whose policy is not ``heuristic`` (the GM seat is never asked in PWGE, so
its policy is free).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import numpy as np

from konflikt.core.batch import Batch, Coded
from konflikt.core.options import Options
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario
from konflikt.core.state import GM
from konflikt.rulesets.pwge import endings
from konflikt.rulesets.pwge.kernel_flow import Conflicts, Dice, Opening, Phase
from konflikt.rulesets.pwge.kernel_goals import Goal, chase_goal, points_goal, standing_goal
from konflikt.rulesets.pwge.kernel_tables import Tables, build_tables
from konflikt.rulesets.pwge.policies import HeuristicPolicy
from konflikt.rulesets.pwge.state import PHYSICAL, PwgeState

COMPACT = 0.2
"""Finished conflicts leave the arrays once they are this share of the rest (copying every array costs)."""
MAX_SWEEPS = 20_000
"""A safety stop far beyond any real conflict (each sweep advances every unfinished conflict by at least one phase)."""


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
        state = self.opening
        self.side_ids = state.side_ids

    def _conflicts(
        self, n: int, rng: np.random.Generator, dice: Dice | None, rows: type[Conflicts] = Conflicts
    ) -> Conflicts:
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
            dice=dice,
        )

    def run(self, n: int, rng: np.random.Generator, dice: Dice | None = None) -> Batch:
        """Play ``n`` conflicts; labels exactly as :func:`endings.outcome` writes them.

        ``dice`` replaces ``rng`` as the source of d6 faces (tests replay the reference's recorded dice with it).
        """
        if self.opening.phase == "done":
            return self._settled(n)
        rows = self._conflicts(n, rng, dice)
        order = np.arange(n)
        final: dict[str, np.ndarray] = {}
        for _ in range(MAX_SWEEPS):
            rows.sweep()
            finished = rows.phase == Phase.DONE
            done = int(np.count_nonzero(finished))
            if done == len(order) or done >= COMPACT * len(order):
                self._store(final, rows, order[finished], finished, n)
                keep = np.flatnonzero(~finished)
                rows.take(keep)
                order = order[keep]
            if not len(order):
                break
        else:
            raise RuntimeError(f"pwge kernel: {len(order)} conflicts did not end within {MAX_SWEEPS} sweeps")
        return self._batch(final)

    @staticmethod
    def _store(final: dict[str, np.ndarray], rows: Conflicts, where: np.ndarray, mask: np.ndarray, n: int) -> None:
        columns = {"ending": rows.ending, "winner": rows.winner, "steps": rows.steps, "actions": rows.actions}
        for p in range(rows.t.people):
            columns[f"tok{p}"] = rows.tok[:, p]
            columns[f"body{p}"] = rows.body[:, p]
            columns[f"wnd{p}"] = rows.wnd[:, p]
            columns[f"out{p}"] = rows.out[:, p].astype(np.int64)
        for name, column in columns.items():
            final.setdefault(name, np.zeros(n, dtype=np.int64))[where] = column[mask]

    def _batch(self, final: Mapping[str, np.ndarray]) -> Batch:
        winners: list[Hashable] = [(), *((side,) for side in self.side_ids)]
        fates = {
            self.opening.people[p].pid: self._fates(
                p, final[f"tok{p}"], final[f"body{p}"], final[f"wnd{p}"], final[f"out{p}"]
            )
            for p in range(self.tables.people)
        }
        steps = final["steps"]
        return Batch(
            winners=Coded(final["winner"] + 1, winners),
            endings=Coded(final["ending"], list(endings.ENDINGS)),
            fates=fates,
            length=steps.copy(),
            resources={"steps": steps.astype(np.float64)},
            rounds=final["actions"].copy(),
        )

    def _fates(self, p: int, tok: np.ndarray, body: np.ndarray, wnd: np.ndarray, out: np.ndarray) -> Coded:
        """Each distinct (tokens, body, worst wound, out) once through :func:`endings.fate` on the probe."""
        low = int(body.min()) if len(body) else 0
        span = int(body.max()) - low + 1 if len(body) else 1
        packed = ((tok * span + (body - low)) * 5 + wnd) * 2 + out
        keys, codes = np.unique(packed, return_inverse=True)
        probe = self.probe
        labels: list[Hashable] = []
        for key in keys.tolist():
            rest, o = divmod(key, 2)
            rest, w = divmod(rest, 5)
            t, b = divmod(rest, span)
            b += low
            probe.tokens[p], probe.body[p], probe.wounds[p], probe.out[p] = t, b, w, bool(o)
            labels.append(endings.fate(probe, p))
        # different tallies may read the same (a social conflict names no wound level): one code per label
        unique = list(dict.fromkeys(labels))
        merged = np.array([unique.index(label) for label in labels], dtype=np.int64)
        return Coded(merged[np.asarray(codes, dtype=np.int64).reshape(-1)], unique)

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
    return PwgeKernel(scenario, options)


__all__ = ["PwgeKernel", "make_kernel"]
