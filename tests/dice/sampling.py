"""One check the dice tests share: seeded samples of a roll follow its exact distribution."""

from __future__ import annotations

from typing import Any

import numpy as np

from konflikt.dice import Dice


def assert_samples_follow(dice: Dice, seed: int, n: int = 20_000, label: Any = None) -> None:
    """Every outcome's share of ``n`` seeded rolls within 4 standard errors of its exact probability, and no
    outcome the distribution does not have."""
    rng = np.random.default_rng(seed)
    seen: dict[Any, int] = {}
    for _ in range(n):
        outcome = dice.sample(rng)
        seen[outcome] = seen.get(outcome, 0) + 1
    exact = dice.distribution()
    assert set(seen) <= set(exact), label
    for outcome, p in exact.items():
        se = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(seen.get(outcome, 0) / n - float(p)) <= 4 * se + 1e-9, (label, outcome)
