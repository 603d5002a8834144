"""Dice faces beside the chance outcome: drawn with the same numbers as the outcome, read from the table, checked,
and kept in the step record for the narration only."""

from __future__ import annotations

import json

import numpy as np
import pytest

from konflikt.core.actions import Action, Step
from konflikt.core.conflict import new_state
from konflikt.core.scenario import scenario_from_document
from konflikt.dice import Dice, Fudge, Percentile, PoolRoll, SuccessPool, SumDice
from konflikt.errors import DiceError, InvalidActionError
from tests.core.toy import DOCUMENT

ROLLED = [Fudge(4), Fudge(3, 2), Fudge(10), SumDice(3), SumDice(2, 6, 2, "T"), SumDice(1, 20), SuccessPool(6)]


@pytest.mark.parametrize("dice", ROLLED, ids=str)
def test_a_roll_draws_what_sample_draws_and_its_outcome_is_read_from_its_faces(dice: Dice) -> None:
    """Seeded reproducibility: a narrated conflict (faces) and a quiet one (outcome only) get the same outcome from
    the same seed, and the generator is left in the same place for the rolls after."""
    for seed in range(40):
        rolled, sampled = np.random.default_rng(seed), np.random.default_rng(seed)
        outcome, faces = dice.roll(rolled)
        assert outcome == dice.sample(sampled)
        assert faces is not None and dice.outcome_of(faces) == outcome
        assert rolled.integers(1 << 30) == sampled.integers(1 << 30)


@pytest.mark.parametrize(
    ("dice", "typed", "outcome", "faces", "shown"),
    [
        (Fudge(4), "+ + 0 -", 1, (1, 1, 0, -1), "+ + 0 -"),
        (Fudge(4), "++0-", 1, (1, 1, 0, -1), "+ + 0 -"),
        (Fudge(4), "+1", 1, None, None),
        (Fudge(4), "−2", -2, None, None),
        (SumDice(3), "3 5 6", 14, (3, 5, 6), "3 5 6"),
        (SumDice(3), "14", 14, None, None),
        (SumDice(1, 20), "17", 17, (17,), "17"),
        (SuccessPool(4), "6 3 1 5", PoolRoll(2, 1), (6, 3, 1, 5), "6 3 1 5"),
        (SuccessPool(0), "", PoolRoll(0, 0), (), ""),
        (Percentile(), "47", 47, None, None),
    ],
)
def test_typed_dice_keep_their_faces_and_a_typed_total_has_none(
    dice: Dice, typed: str, outcome: object, faces: tuple[int, ...] | None, shown: str | None
) -> None:
    assert dice.read_faces(typed) == (outcome, faces)
    assert dice.parse(typed) == outcome
    if faces is not None:
        assert dice.faces_text(faces) == shown


@pytest.mark.parametrize(
    ("dice", "faces"),
    [
        (Fudge(4), (1, 1, 0)),
        (Fudge(4), (2, 0, 0, 0)),
        (SumDice(2), (7, 1)),
        (SuccessPool(3), (0, 4, 4)),
        (Percentile(), (4, 7)),
    ],
    ids=str,
)
def test_faces_that_are_not_faces_of_the_roll_are_refused(dice: Dice, faces: tuple[int, ...]) -> None:
    with pytest.raises(DiceError):
        dice.outcome_of(faces)


def test_a_step_keeps_its_faces_through_json_and_a_step_without_faces_reads_as_before() -> None:
    step = Step("@chance", outcome=(2, 1), faces=(6, 3, 1, 5))
    data = json.loads(json.dumps(step.to_json()))
    assert data == {"node": "@chance", "outcome": [2, 1], "faces": [6, 3, 1, 5]}
    assert Step.from_json(data) == step
    old = Step.from_json({"node": "@chance", "outcome": 3})
    assert old.faces is None and "faces" not in old.to_json()
    for bad in ("6 3", [6, "3"], [True], {"a": 1}):
        with pytest.raises(InvalidActionError, match="faces"):
            Step.from_json({"node": "@chance", "outcome": 3, "faces": bad})


def test_faces_are_refused_where_no_roll_is_pending() -> None:
    state = new_state(scenario_from_document(DOCUMENT, "toy.toml"))
    assert not state.is_chance_node()
    with pytest.raises(InvalidActionError, match="no roll is pending"):
        state.apply_action(Action.of("strike"), faces=(1,))
    assert state.steps() == []
