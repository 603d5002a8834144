"""Fuzzing in the normal suite: a few hundred hostile inputs of every kind (the long campaign is scripts/fuzz.py).

Every example must be accepted or refused with a KonfliktError (one line at the command line); an internal error,
or a save database that changed although konflikt refused it or it was damaged, fails the test.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reliability.fuzzing import TARGETS, shared_workdir

#: Examples per target in the suite: fast enough for two loaded cores, enough to catch a regression of the edge.
EXAMPLES = {
    "scenario-text": 60,
    "scenario-document": 60,
    "option": 60,
    "prompt": 80,
    "dice": 60,
    "import": 25,
    "database": 25,
}


@pytest.mark.parametrize("name", list(TARGETS))
def test_hostile_inputs_are_accepted_or_refused_cleanly(name: str) -> None:
    target = TARGETS[name]

    @settings(
        max_examples=EXAMPLES[name],
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.randoms(use_true_random=False))
    def check(rng: random.Random) -> None:
        assert target(rng, shared_workdir()) in ("ok", "refused", "over-budget")

    check()
