"""A tiny real ruleset for testing the core on its own: two duellists, a secret stance, a d6, hit points.

Each round both choose a stance in secret (``strike`` or ``guard``); then each striker rolls 1d6 and hits a
guarding foe on 5–6, an open one on 3–6, for 1 point. At 0 points a duellist is out. It exercises every node type.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from konflikt.core.actions import Action, ChanceOutcome
from konflikt.core.options import Options, OptionSet, RuleOption
from konflikt.core.outcome import ConflictOutcome
from konflikt.core.ruleset import Ruleset, register
from konflikt.core.scenario import Scenario
from konflikt.core.state import CHANCE, SIMULTANEOUS, TERMINAL, State
from konflikt.dice import Dice, SumDice

D6 = SumDice(1, 6)


class ToyCharacter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    points: int = Field(default=2, ge=1, le=10)


class ToySetup(BaseModel):
    model_config = ConfigDict(extra="forbid")
    arena: str = "yard"


OPTIONS = OptionSet(
    RuleOption("open_hit", int, 3, "lowest d6 face that hits an open foe", minimum=1),
    RuleOption("guard_hit", int, 5, "lowest d6 face that hits a guarding foe", source="vakt"),
    RuleOption("max_rounds", int, 50, "rounds before a deadlock (0: no limit)", minimum=0),
)


class ToyState(State):
    ruleset = "toy"

    def __init__(self, scenario: Scenario, options: Options) -> None:
        super().__init__(options)
        self.ids = tuple(p.id for p in scenario.participants())
        self.side = {p.id: p.side for p in scenario.participants()}
        self.points = {p.id: p.data.points for p in scenario.participants()}
        self.stance: dict[str, str] = {}
        self.rolling: list[str] = []
        self.round = 0
        self.max_rounds: int = options.max_rounds
        """The round cap as played (exact analysis may move it: see :meth:`set_clock_cap`)."""
        self.emit("setup", "the duel begins: " + ", ".join(f"{i} ({self.points[i]})" for i in self.ids))

    def seats(self) -> tuple[str, ...]:
        return self.ids

    def current_player(self) -> str:
        limit = self.max_rounds
        if any(v <= 0 for v in self.points.values()) or (limit and self.round >= limit):
            return TERMINAL
        return CHANCE if self.rolling else SIMULTANEOUS

    def simultaneous_seats(self) -> tuple[str, ...]:
        return self.ids

    def _legal_actions(self, seat: str) -> Sequence[Action]:
        if self.current_player() == SIMULTANEOUS and seat in self.ids:
            return (Action.of("strike"), Action.of("guard"))
        return ()

    def _apply(self, seat: str, action: Action) -> None:
        raise AssertionError("no turn-based decisions in the toy")

    def _apply_joint(self, actions: Mapping[str, Action]) -> None:
        self.stance = {seat: a.kind for seat, a in actions.items()}
        self.emit("reveal", "revealed: " + ", ".join(f"{s} {k}" for s, k in self.stance.items()))
        self.rolling = [s for s in self.ids if self.stance[s] == "strike"]
        if not self.rolling:
            self.round += 1

    def pending_roll(self) -> Dice | None:
        return D6 if self.rolling else None

    def roll_purpose(self) -> str:
        return f"{self.rolling[0]}'s strike"

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        striker = self.rolling.pop(0)
        foe = next(i for i in self.ids if i != striker)
        need = self.options.guard_hit if self.stance[foe] == "guard" else self.options.open_hit
        assert isinstance(outcome, int)
        if outcome >= need:
            self.points[foe] -= 1
            self.emit("hit", f"{striker} rolls {outcome} (needs {need}): hit, {foe} has {self.points[foe]} left")
        else:
            self.emit("miss", f"{striker} rolls {outcome} (needs {need}): miss")
        if not self.rolling:
            self.round += 1

    def _outcome(self) -> ConflictOutcome:
        standing = [i for i in self.ids if self.points[i] > 0]
        if len(standing) == 1:
            return ConflictOutcome("victory", (self.side[standing[0]],), f"{standing[0]} wins")
        return ConflictOutcome("deadlock", (), "nobody wins")

    def _view(self, seat: str) -> dict[str, Any]:
        return {"points": dict(self.points), "round": self.round}

    def status(self) -> dict[str, dict[str, str]]:
        return {i: {"points": str(self.points[i])} for i in self.ids}

    def invariants(self) -> list[str]:
        return [f"{i} below 0" for i, v in self.points.items() if v < 0]

    def key(self) -> Hashable:
        rounds = self.round if self.options.max_rounds else 0
        return (tuple(self.points.values()), tuple(sorted(self.stance.items())), tuple(self.rolling), rounds)

    def clock(self) -> tuple[int, int] | None:
        """Round ``round + 1`` is being played; ``max_rounds`` is the last (0: no cap, no clock)."""
        return (self.round + 1, self.max_rounds) if self.options.max_rounds else None

    def key_without_clock(self) -> Hashable:
        return (tuple(self.points.values()), tuple(sorted(self.stance.items())), tuple(self.rolling))

    def set_clock_cap(self, cap: int) -> None:
        self.max_rounds = cap

    def end_at_cap(self) -> None:
        self.max_rounds = self.round


TOY = register(
    Ruleset(
        id="toy",
        name="Toy duel (tests only)",
        language="en",
        source="-",
        summary="A test ruleset.",
        options=OPTIONS,
        character=ToyCharacter,
        setup=ToySetup,
        new_state=ToyState,
    )
)

DOCUMENT: dict[str, Any] = {
    "ruleset": "toy",
    "title": "Toy duel",
    "sides": [
        {"id": "north", "participants": [{"id": "ada", "points": 2, "policy": "random"}]},
        {"id": "south", "participants": [{"id": "bo", "points": 3, "policy": "random"}]},
    ],
}


def outcome_type() -> type[ChanceOutcome]:
    return int
