"""Fuzzing in the normal suite: a few hundred hostile inputs of every kind (the long campaign is scripts/fuzz.py).

Every example must be accepted or refused with a KonfliktError (one line at the command line); an internal error,
or a save database that changed although konflikt refused it or it was damaged, fails the test.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reliability.fuzzing import NONSENSE, TARGETS, fresh_copy, library_db, run_cli, sha, shared_workdir

#: Examples per target in the suite: fast enough for two loaded cores, enough to catch a regression of the edge.
EXAMPLES = {
    "scenario-text": 60,
    "scenario-document": 60,
    "option": 60,
    "prompt": 80,
    "dice": 60,
    "import": 25,
    "database": 25,
    "chars": 30,
    "campaign": 20,
    "round-trip": 12,
    "server": 30,
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


@pytest.mark.parametrize("name", sorted(NONSENSE))
def test_every_setting_the_fuzz_calls_nonsense_is_refused(name: str) -> None:
    """The fuzz's "nonsense accepted" oracle, setting by setting: each is refused in one line and the library file
    is unchanged (before issue 48's model checks, ``omdomme=true``, ``konsekvenser=["nonexistent"]``, 2,000 copies
    of one consequence, ``laant_tid=10**12``, ``Karisma=true`` and a second line were accepted)."""
    workdir = shared_workdir()
    db = fresh_copy(library_db(workdir), workdir, "nonsense.sqlite")
    before = sha(db)
    for setting in NONSENSE[name]:
        code, err = run_cli("chars", "edit", name, "--set", setting, "--db", str(db))
        assert code == 2, (setting, err)
        assert sha(db) == before, setting
