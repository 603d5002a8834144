"""The reference runner: plays a conflict over the State API, seat policies deciding and chance sampled.

Seeds: one :class:`numpy.random.SeedSequence` per conflict spawns two generators, one for the dice and one for
the policies, so that typing the table's dice in place of rolled ones leaves the policies' draws unchanged.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.deadline import check_time
from konflikt.core.messages import _
from konflikt.core.ruleset import Policy
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, GM, SIMULTANEOUS, State
from konflikt.dice import Faces
from konflikt.errors import KonfliktError

Decide = Callable[[State, str], Action]
RollSource = Callable[[State], ChanceOutcome]

MAX_STEPS = 20_000


@dataclass
class Generators:
    """Two streams, one for the dice and one for the policies: fast, for whole conflicts played in one go."""

    dice: np.random.Generator
    policy: np.random.Generator

    @classmethod
    def from_seed(cls, seed: int | np.random.SeedSequence | None) -> Generators:
        seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        dice, policy = seq.spawn(2)
        return cls(np.random.default_rng(dice), np.random.default_rng(policy))

    def dice_for(self, state: State) -> np.random.Generator:
        return self.dice

    def policy_for(self, state: State, seat: str) -> np.random.Generator:
        return self.policy


class StepGenerators(Generators):
    """A fresh generator per step, derived from (seed, step index, seat).

    Slower than two streams, but a conflict that is resumed, undone or replayed draws exactly what an
    uninterrupted one would: what the table needs.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def dice_for(self, state: State) -> np.random.Generator:
        return np.random.default_rng([self.seed, 0, len(state.steps())])

    def policy_for(self, state: State, seat: str) -> np.random.Generator:
        return np.random.default_rng([self.seed, 1, len(state.steps()), zlib.crc32(seat.encode())])


def seat_policies(scenario: Scenario, overrides: Mapping[str, str] | None = None) -> dict[str, Policy | None]:
    """Each seat's policy from the scenario (``None`` for a human seat); ``overrides`` maps seat → policy name."""
    names = {p.id: p.policy for p in scenario.participants()}
    names[GM] = scenario.gm
    names.update(overrides or {})
    out = {seat: None if name == "human" else scenario.ruleset.policy(name) for seat, name in names.items()}
    for policy in out.values():
        bind = getattr(policy, "bind", None)
        if bind is not None:  # a policy that searches the game needs the scenario (core.ruleset.POLICIES)
            bind(scenario, names)
    return out


class Runner:
    """Drives one state to its end.

    Args:
        policies: seat → policy; a seat mapped to ``None`` (a human) is asked through ``decide``.
        generators: the dice and policy generators.
        decide: asks a human seat (the front end's job); required when a human seat must act.
        roll: supplies chance outcomes (default: roll the pending dice with the dice generator, faces and all).
        trusted: skip legality checks (policies choose from the legal actions; for simulation only).
    """

    def __init__(
        self,
        policies: Mapping[str, Policy | None],
        generators: Generators,
        decide: Decide | None = None,
        roll: RollSource | None = None,
        trusted: bool = False,
    ) -> None:
        self.policies = policies
        self.gen = generators
        self.decide = decide
        self.roll = roll
        self.checked = not trusted

    def sample(self, state: State) -> ChanceOutcome:
        outcome, _faces = self.roll_dice(state)
        return outcome

    def roll_dice(self, state: State) -> tuple[ChanceOutcome, Faces | None]:
        """The pending roll with its faces, drawn face by face (:meth:`Dice.roll`: the numbers :meth:`Dice.sample`
        draws, so a seed gives the same outcomes either way). A quiet state gets them too: its record is the same
        as a narrated one's."""
        roll = state.pending_roll()
        if roll is None:
            raise KonfliktError(_("chance node without a pending roll"))
        outcome, faces = roll.roll(self.gen.dice_for(state))
        return outcome, faces

    def choose(self, state: State, seat: str) -> Action:
        if seat not in self.policies:
            raise KonfliktError(_("no policy for seat {seat}", seat=repr(seat)))
        policy = self.policies[seat]
        if policy is not None:
            return policy.choose(state, seat, self.gen.policy_for(state, seat))
        if self.decide is None:
            raise KonfliktError(_("{seat} is a human seat, and nobody is at the terminal to ask", seat=seat))
        return self.decide(state, seat)

    def step(self, state: State) -> None:
        node = state.current_player()
        if node == CHANCE:
            if self.roll is not None:
                state.apply_action(self.roll(state), self.checked)
            else:
                outcome, faces = self.roll_dice(state)
                state.apply_action(outcome, self.checked, faces=faces)
        elif node == SIMULTANEOUS:
            state.apply_actions({seat: self.choose(state, seat) for seat in state.waiting_for()}, self.checked)
        else:
            state.apply_action(self.choose(state, node), self.checked)

    def play(self, state: State, on_step: Callable[[State], None] | None = None, max_steps: int = MAX_STEPS) -> State:
        steps = 0
        while not state.is_terminal():
            check_time()
            self.step(state)
            if on_step is not None:
                on_step(state)
            steps += 1
            if steps > max_steps:
                raise KonfliktError(_("the conflict did not end within {steps} steps", steps=max_steps))
        return state


def play_scenario(
    scenario: Scenario,
    seed: int | None,
    overrides: Mapping[str, object] | None = None,
    policies: Mapping[str, str] | None = None,
) -> State:
    """Play a whole conflict with the scenario's policies (no human seats may remain)."""
    from konflikt.core.conflict import new_state

    state = new_state(scenario, dict(overrides or {}))
    seats = seat_policies(scenario, policies)
    humans = [s for s, p in seats.items() if p is None]
    if humans:
        raise KonfliktError(_("human seats need a terminal: {seats}", seats=", ".join(humans)))
    return Runner(seats, Generators.from_seed(seed)).play(state)
